"""Boggle grid images: upright, large letters on ivory dice in a dark tray.

A die face is a cached sprite per (face, cell size); a render pastes them into
the tray and writes the optional title. Two-letter faces (Qu, Th, In, Er, He,
An) share one die, second letter lowercase as printed on real dice; M, W, N and
Z are underlined as on real dice, so a grid copied by hand stays unambiguous.
"""

from __future__ import annotations

import functools
import string
from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from bot.render._common import (
    RGB,
    build_palette,
    clean_text,
    encode_png,
    fit_text,
    font,
    glyph_mask,
    new_indexed,
    paint,
    stamp_text,
    to_palette,
)

TRAY: RGB = (28, 52, 96)
DIE: RGB = (250, 247, 236)
DIE_SHADOW: RGB = (14, 28, 56)
DIE_EDGE: RGB = (178, 170, 150)
LETTER: RGB = (18, 20, 28)
TITLE_TEXT: RGB = (240, 242, 248)

UNDERLINED = frozenset("MWNZ")
MULTI_LETTER_FACES = ("Qu", "Th", "In", "Er", "He", "An")
MIN_GRID, MAX_GRID = 3, 8
MIN_CELL_PX, MAX_CELL_PX = 24, 256


@dataclass(frozen=True)
class BoggleGeometry:
    """Where the dice are in a grid image."""

    cells: int  # dice per row
    cell_px: int
    padding: int
    title_height: int

    @property
    def width(self) -> int:
        return self.cells * self.cell_px + 2 * self.padding

    @property
    def height(self) -> int:
        return self.title_height + self.width

    def cell_box(self, row: int, col: int) -> tuple[int, int, int, int]:
        """``(left, top, right, bottom)`` of a die's cell, right/bottom exclusive."""
        left = self.padding + col * self.cell_px
        top = self.title_height + self.padding + row * self.cell_px
        return left, top, left + self.cell_px, top + self.cell_px


def boggle_geometry(cells: int, cell_px: int = 96, *, titled: bool = False) -> BoggleGeometry:
    if not MIN_CELL_PX <= cell_px <= MAX_CELL_PX:
        raise ValueError(
            f"cell size must be between {MIN_CELL_PX} and {MAX_CELL_PX} pixels, not {cell_px}"
        )
    padding = max(6, round(cell_px * 0.2))
    title_height = round(cell_px * 0.6) if titled else 0
    return BoggleGeometry(cells, cell_px, padding, title_height)


def boggle_grid_png(rows: Sequence[Sequence[str]], title: str | None) -> bytes:
    """:func:`render_boggle_grid` with positional arguments (what a worker process is sent)."""
    return render_boggle_grid(rows, title=title)


def render_boggle_grid(
    rows: Sequence[Sequence[str]], *, title: str | None = None, cell_px: int = 96
) -> bytes:
    """PNG of a square grid (4x4, 5x5, 6x6; 3 to 8 accepted) of die faces."""
    faces = [[normalise_face(face) for face in row] for row in rows]
    cells = len(faces)
    if not MIN_GRID <= cells <= MAX_GRID or any(len(row) != cells for row in faces):
        raise ValueError(f"a Boggle grid is square, {MIN_GRID}x{MIN_GRID} to {MAX_GRID}x{MAX_GRID}")
    title_text = clean_text(title) if title else ""
    geometry = boggle_geometry(cells, cell_px, titled=bool(title_text))
    palette = _palette()
    image = new_indexed((geometry.width, geometry.height), TRAY, palette)
    if title_text:
        image.paste(to_palette(_title_strip(title_text, geometry), palette), (0, 0))
    for r, row in enumerate(faces):
        for c, face in enumerate(row):
            left, top, _, _ = geometry.cell_box(r, c)
            image.paste(_indexed_die(face, cell_px), (left, top))
    return encode_png(image)


def normalise_face(face: str) -> str:
    """``"QU"``/``"qu"`` -> ``"Qu"``, ``"e"`` -> ``"E"``; rejects anything but 1-2 letters."""
    if not (1 <= len(face) <= 2 and face.isascii() and face.isalpha()):
        raise ValueError(f"a die face is one or two letters, not {face!r}")
    return face[0].upper() + face[1:].lower()


def _title_strip(title: str, geometry: BoggleGeometry) -> Image.Image:
    strip = Image.new("RGB", (geometry.width, geometry.title_height), TRAY)
    face = font(max(10, round(geometry.cell_px * 0.3)), bold=True)
    text = fit_text(title, face, geometry.width - 2 * geometry.padding)
    top_gap = geometry.padding * 0.5
    centre = (geometry.width / 2, top_gap + (geometry.title_height - top_gap) / 2)
    stamp_text(strip, centre, text, face, TITLE_TEXT, "mm")
    return strip


@functools.lru_cache(maxsize=512)
def _indexed_die(face: str, cell_px: int) -> Image.Image:
    return to_palette(_die(face, cell_px), _palette())


def _die(face: str, cell_px: int) -> Image.Image:
    die = Image.new("RGB", (cell_px, cell_px), TRAY)
    draw = ImageDraw.Draw(die)
    inset = max(2, round(cell_px * 0.07))
    shadow = max(1, cell_px // 32)
    radius = max(3, round(cell_px * 0.16))
    right = cell_px - 1 - inset
    low, high = inset + shadow, right + shadow
    draw.rounded_rectangle((low, low, high, high), radius, fill=DIE_SHADOW)
    die_box = (inset, inset, right, right)
    draw.rounded_rectangle(die_box, radius, fill=DIE, outline=DIE_EDGE, width=1)

    # Two letters need a smaller size to fit the face side by side.
    letter_px = round(cell_px * (0.56 if len(face) == 1 else 0.42))
    letter_font = font(letter_px, bold=True)
    centre = (cell_px / 2, cell_px * 0.47)
    paint(die, LETTER, glyph_mask(face, letter_font, (cell_px, cell_px), centre, align_to="H"))
    if face in UNDERLINED:
        half = letter_px * 0.34
        y = cell_px * 0.47 + letter_px * 0.48
        thickness = max(2, round(letter_px * 0.07))
        draw.rectangle((cell_px / 2 - half, y, cell_px / 2 + half, y + thickness - 1), fill=LETTER)
    return die


@functools.lru_cache(maxsize=1)
def _palette() -> Image.Image:
    # Sampled once at the default size: edges blend the same colours at any size.
    cell_px = 96
    samples = [_die(face, cell_px) for face in (*string.ascii_uppercase, *MULTI_LETTER_FACES)]
    titled = boggle_geometry(4, cell_px, titled=True)
    samples.append(_title_strip("Round 12 · 3 minutes · Ñ", titled))
    return build_palette(samples, [TRAY, DIE, DIE_SHADOW, DIE_EDGE, LETTER, TITLE_TEXT])
