"""Decoding helpers for the render tests: every assertion is about real pixels."""

from __future__ import annotations

import io

from PIL import Image

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def decode(png: bytes) -> Image.Image:
    """The PNG as an RGB image (after checking it really is a PNG)."""
    assert png.startswith(PNG_SIGNATURE)
    with Image.open(io.BytesIO(png)) as image:
        image.load()
        return image.convert("RGB")


def png_mode(png: bytes) -> str:
    with Image.open(io.BytesIO(png)) as image:
        return image.mode


def region(image: Image.Image, box: tuple[int, int, int, int]) -> list[tuple[int, int, int]]:
    return list(image.crop(box).get_flattened_data())


Box = tuple[int, int, int, int]
Colour = tuple[int, int, int]


def count_unlike(image: Image.Image, box: Box, colour: Colour) -> int:
    """How many pixels in ``box`` are not exactly ``colour``."""
    return sum(1 for pixel in region(image, box) if pixel != colour)


def count_dark(image: Image.Image, box: tuple[int, int, int, int], threshold: int = 90) -> int:
    return sum(1 for r, g, b in region(image, box) if max(r, g, b) < threshold)


def count_near(image: Image.Image, box: Box, colour: Colour, tolerance: int = 24) -> int:
    """How many pixels in ``box`` are within ``tolerance`` of ``colour`` on every channel."""
    return sum(
        1
        for pixel in region(image, box)
        if max(abs(a - b) for a, b in zip(pixel, colour, strict=False)) <= tolerance
    )


def inset(box: tuple[int, int, int, int], by: int) -> tuple[int, int, int, int]:
    left, top, right, bottom = box
    return left + by, top + by, right - by, bottom - by
