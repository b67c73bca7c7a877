"""Fonts, text fitting and PNG encoding shared by every renderer.

Images are saved as indexed (256-colour) PNGs: encoding an RGB PNG costs five
to ten times more than the whole composition and makes files three times
larger. Each renderer builds its palette once from a fixed sample of everything
it can draw (never from whatever happens to be cached), so output bytes depend
only on the inputs. Static layers (empty boards, tiles, dice) are drawn in RGB,
mapped onto the palette once and cached; a render pastes those indexed layers
(a plain copy of indices) and only text drawn per call goes through the
quantiser.
"""

from __future__ import annotations

import functools
import io
import threading
import unicodedata
from collections.abc import Iterable, Sequence
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

RGB = tuple[int, int, int]

FONT_DIR = Path(__file__).with_name("fonts")
_FONT_FILES = {False: "DejaVuSans.ttf", True: "DejaVuSans-Bold.ttf"}

# A FreeType face must not be used by two threads at once, and the bot renders
# in a thread pool. Every use of a cached font goes through this lock; the GIL
# already serialises most of that work, so the lock costs next to nothing.
TEXT_LOCK = threading.RLock()

ELLIPSIS = "…"
# Flat colours closer than this (per channel) to a palette colour could be
# mapped to the neighbour by Pillow's cached nearest-colour search.
_PALETTE_EXCLUSION = 8
# Level 1 deflate: the images are flat-coloured, so higher levels save a few
# kilobytes for several times the encoding time.
PNG_COMPRESS_LEVEL = 1


@functools.lru_cache(maxsize=64)
def font(px: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """DejaVu Sans at ``px`` pixels. Basic layout: same glyphs on every host."""
    with TEXT_LOCK:
        return ImageFont.truetype(
            str(FONT_DIR / _FONT_FILES[bold]), px, layout_engine=ImageFont.Layout.BASIC
        )


def clean_text(text: str) -> str:
    """Text safe to draw on one line: composed accents, no control characters.

    Newlines and tabs become spaces; format characters (zero-width joiners in
    emoji sequences) and lone surrogates are dropped because FreeType cannot
    draw them and they would otherwise print as boxes or raise.
    """
    out = []
    for ch in unicodedata.normalize("NFC", text):
        category = unicodedata.category(ch)
        if ch.isspace():
            out.append(" ")
        elif category not in ("Cc", "Cf", "Cs", "Co", "Cn"):
            out.append(ch)
    return "".join(out)


@functools.lru_cache(maxsize=8192)
def text_width(text: str, face: ImageFont.FreeTypeFont) -> float:
    """Advance width of ``text``; cached because tables measure the same cells often."""
    with TEXT_LOCK:
        return face.getlength(text)


def fit_text(text: str, face: ImageFont.FreeTypeFont, max_width: float) -> str:
    """``text`` cut at the end with … so that it is at most ``max_width`` wide."""
    if text_width(text, face) <= max_width:
        return text
    # Binary search on the kept prefix length: widths grow with the prefix.
    low, high = 0, len(text)
    while low < high:
        mid = (low + high + 1) // 2
        if text_width(text[:mid].rstrip() + ELLIPSIS, face) <= max_width:
            low = mid
        else:
            high = mid - 1
    if low == 0:
        return ELLIPSIS if text_width(ELLIPSIS, face) <= max_width else ""
    return text[:low].rstrip() + ELLIPSIS


def draw_text(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    text: str,
    face: ImageFont.FreeTypeFont,
    fill: RGB | int,
    anchor: str = "la",
) -> None:
    """Text on a cached layer (drawn once, so no need for the stamp cache)."""
    with TEXT_LOCK:
        draw.text(xy, text, font=face, fill=fill, anchor=anchor)


def stamp_text(
    image: Image.Image,
    xy: tuple[float, float],
    text: str,
    face: ImageFont.FreeTypeFont,
    colour: RGB,
    anchor: str = "la",
) -> None:
    """Text drawn per render, from a cache of rendered masks (names recur across renders).

    ``xy`` is rounded to whole pixels so that one mask serves every position.
    """
    if not text:
        return
    mask, left, top = _text_mask(text, face, anchor)
    x, y = round(xy[0]) + left, round(xy[1]) + top
    image.paste(colour, (x, y, x + mask.width, y + mask.height), mask)


@functools.lru_cache(maxsize=2048)
def _text_mask(
    text: str, face: ImageFont.FreeTypeFont, anchor: str
) -> tuple[Image.Image, int, int]:
    with TEXT_LOCK:
        # Whole pixels with the basic layout (Pillow types the box as floats for Raqm's).
        left, top, right, bottom = (int(edge) for edge in face.getbbox(text, anchor=anchor))
        mask = Image.new("L", (max(1, right - left), max(1, bottom - top)), 0)
        ImageDraw.Draw(mask).text((-left, -top), text, font=face, fill=255, anchor=anchor)
    return mask, left, top


def glyph_mask(
    text: str,
    face: ImageFont.FreeTypeFont,
    size: tuple[int, int],
    centre: tuple[float, float],
    *,
    align_to: str | None = None,
) -> Image.Image:
    """An "L" coverage mask of ``text`` whose ink box is centred on ``centre``.

    With ``align_to`` (e.g. ``"H"``) the vertical centring uses that text's box
    instead, so letters sit on one baseline whatever their descenders (Q, J).
    """
    mask = Image.new("L", size, 0)
    with TEXT_LOCK:
        left, top, right, bottom = face.getbbox(text)
        if align_to is not None:
            _, top, _, bottom = face.getbbox(align_to)
        x = centre[0] - (left + right) / 2
        y = centre[1] - (top + bottom) / 2
        ImageDraw.Draw(mask).text((x, y), text, font=face, fill=255)
    return mask


def solid(size: tuple[int, int], colour: RGB) -> Image.Image:
    return Image.new("RGB", size, colour)


def paint(
    target: Image.Image, colour: RGB, mask: Image.Image, xy: tuple[int, int] = (0, 0)
) -> None:
    """Lay ``colour`` onto ``target`` through an antialiased ``mask``."""
    target.paste(solid(mask.size, colour), xy, mask)


def build_palette(samples: Iterable[Image.Image], exact: Sequence[RGB]) -> Image.Image:
    """A "P" image holding a 256-colour palette for ``samples``.

    ``exact`` colours (flat squares, tiles, backgrounds) come first and are
    kept free of near neighbours, so they survive quantisation unchanged; the
    remaining entries are a median cut of the samples (antialiased edges).
    """
    exact = list(dict.fromkeys(exact))
    for i, a in enumerate(exact):
        for b in exact[i + 1 :]:
            if _close(a, b):
                raise ValueError(f"palette colours {a} and {b} are too close to stay distinct")
    atlas = _stack([s.convert("RGB") for s in samples])
    adaptive = atlas.quantize(
        colors=256 - len(exact), method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE
    )
    flat = adaptive.getpalette() or []
    # A "P" image's colours are palette indices (other modes give pixel tuples).
    used = {index for _, index in adaptive.getcolors(256) or [] if isinstance(index, int)}
    extra = [tuple(flat[3 * i : 3 * i + 3]) for i in sorted(used)]
    colours = exact + [c for c in extra if not any(_close(c, e) for e in exact)]
    colours = colours[:256]
    colours += [colours[-1]] * (256 - len(colours))
    palette = Image.new("P", (1, 1))
    palette.putpalette([channel for colour in colours for channel in colour])
    palette.load()  # settle the palette now: later loads from threads are no-ops
    return palette


def to_palette(image: Image.Image, palette: Image.Image) -> Image.Image:
    """``image`` mapped onto ``palette`` ("P" mode), nearest colour, no dithering."""
    if image.mode != "RGB":
        image = image.convert("RGB")
    return image.quantize(palette=palette, dither=Image.Dither.NONE)


def new_indexed(size: tuple[int, int], colour: RGB, palette: Image.Image) -> Image.Image:
    """A "P" image on ``palette`` filled with ``colour`` (one of its exact colours)."""
    image = Image.new("P", size, palette_index(palette, colour))
    image.putpalette(palette.getpalette() or [])
    return image


def palette_index(palette: Image.Image, colour: RGB) -> int:
    flat = palette.getpalette() or []
    for index in range(len(flat) // 3):
        if tuple(flat[3 * index : 3 * index + 3]) == tuple(colour):
            return index
    raise ValueError(f"{colour} is not in the palette")


def encode_png(image: Image.Image, palette: Image.Image | None = None) -> bytes:
    """PNG bytes without metadata (so deterministic) of an indexed image.

    An RGB ``image`` is first mapped onto ``palette``. Images composed from
    indexed layers skip that step: pasting "P" onto "P" copies indices.
    """
    if image.mode != "P":
        if palette is None:
            raise ValueError("an RGB image needs a palette to be encoded")
        image = to_palette(image, palette)
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", compress_level=PNG_COMPRESS_LEVEL)
    return buffer.getvalue()


def _close(a: Sequence[int], b: Sequence[int]) -> bool:
    return max(abs(x - y) for x, y in zip(a, b, strict=False)) < _PALETTE_EXCLUSION


def _stack(images: Sequence[Image.Image]) -> Image.Image:
    width = max(im.width for im in images)
    height = sum(im.height for im in images)
    atlas = Image.new("RGB", (width, height), images[0].getpixel((0, 0)))
    y = 0
    for im in images:
        atlas.paste(im, (0, y))
        y += im.height
    return atlas
