"""Scrabble board and rack images.

The empty board (premium squares labelled TW/DW/TL/DL, the centre star,
coordinates A–O across and 1–15 down) is drawn once per size; a render pastes
one cached tile sprite per occupied square and writes the header lines.

Colour choices carry a second cue for colour-blind players: premium squares
also differ in lightness (dark TW/TL, light DW/DL) and carry their code; a
blank is a white tile with a blue letter and no value; tiles of the last play
are yellow with a thick dark-orange frame.
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
    draw_text,
    encode_png,
    fit_text,
    font,
    glyph_mask,
    new_indexed,
    paint,
    stamp_text,
    to_palette,
)
from engines.scrabble.game import square_index
from engines.scrabble.layout import BLANK, CENTER, COLUMNS, LETTER_VALUES, PREMIUMS, SIZE

FRAME: RGB = (37, 52, 58)
COORDINATE_TEXT: RGB = (222, 228, 226)
GRID_LINE: RGB = (246, 244, 236)
PLAIN_SQUARE: RGB = (205, 216, 196)
PREMIUM_COLOURS: dict[str, RGB] = {
    "TW": (196, 38, 38),
    "DW": (246, 172, 168),
    "TL": (30, 104, 184),
    "DL": (160, 206, 238),
}
PREMIUM_TEXT: dict[str, RGB] = {
    "TW": (255, 255, 255),
    "DW": (92, 22, 22),
    "TL": (255, 255, 255),
    "DL": (16, 52, 96),
}
TILE: RGB = (243, 216, 150)
BLANK_TILE: RGB = (250, 251, 253)
LAST_PLAY_TILE: RGB = (255, 226, 64)
LAST_PLAY_BLANK_TILE: RGB = (255, 248, 196)
LAST_PLAY_FRAME: RGB = (196, 84, 0)
TILE_EDGE: RGB = (150, 118, 66)
TILE_LETTER: RGB = (28, 26, 22)
BLANK_LETTER: RGB = (36, 86, 170)
HEADER_BACKGROUND: RGB = (26, 36, 40)
HEADER_TEXT: RGB = (238, 240, 236)
RACK_BACKGROUND: RGB = (112, 72, 40)

MIN_SIZE = 240
MAX_SIZE = 2400
RACK_SLOTS = 7  # a rack image is at least this wide, even when nearly empty
MAX_HEADER_LINES = 8


@dataclass(frozen=True)
class ScrabbleBoardView:
    """Everything the board image shows, as plain data.

    ``tiles[row][col]`` (15x15, row 0 is board row 1, col 0 is column A) holds
    ``None`` for an empty square, an uppercase letter for a tile, or a
    lowercase letter for a blank played as that letter. ``last_play`` holds
    the ``(row, col)`` squares of the latest move's tiles; ``header`` holds up
    to 8 lines (scores, tiles in the bag, whose turn) drawn above the board.
    """

    tiles: Sequence[Sequence[str | None]]
    last_play: frozenset[tuple[int, int]] = frozenset()
    header: Sequence[str] = ()


@dataclass(frozen=True)
class ScrabbleGeometry:
    """Where the squares are in a board image ``size`` pixels wide."""

    size: int
    square: int
    origin: int  # from the left edge (and from the header's bottom) to the board
    header_height: int

    @property
    def height(self) -> int:
        return self.header_height + self.size

    def square_box(self, row: int, col: int) -> tuple[int, int, int, int]:
        """``(left, top, right, bottom)`` of a square, right/bottom exclusive."""
        left = self.origin + col * self.square
        top = self.header_height + self.origin + row * self.square
        return left, top, left + self.square, top + self.square


def scrabble_geometry(size: int = 900, header_lines: int = 0) -> ScrabbleGeometry:
    if not MIN_SIZE <= size <= MAX_SIZE:
        raise ValueError(f"board size must be between {MIN_SIZE} and {MAX_SIZE} pixels, not {size}")
    margin = max(14, round(size * 0.04))
    square = (size - 2 * margin) // SIZE
    header_height = 0
    if header_lines:
        header_height = 2 * _header_padding(size) + header_lines * _header_line_height(size)
    return ScrabbleGeometry(size, square, (size - SIZE * square) // 2, header_height)


def render_scrabble_board(view: ScrabbleBoardView, size: int = 900) -> bytes:
    """PNG of the board, with ``view.header`` lines above it."""
    _check_tiles(view.tiles)
    header = _header_lines(view.header)
    geometry = scrabble_geometry(size, len(header))
    palette = _palette()
    if header:
        image = new_indexed((size, geometry.height), HEADER_BACKGROUND, palette)
        image.paste(to_palette(_header_strip(header, size), palette), (0, 0))
        image.paste(_indexed_board(size), (0, geometry.header_height))
    else:
        image = _indexed_board(size).copy()
    for row, line in enumerate(view.tiles):
        for col, letter in enumerate(line):
            if letter is None:
                continue
            tile = _indexed_tile(
                geometry.square, letter.upper(), letter.islower(), (row, col) in view.last_play
            )
            left, top, _, _ = geometry.square_box(row, col)
            image.paste(tile, (left, top))
    return encode_png(image)


def scrabble_board_png(
    rows: Sequence[str], last: Sequence[str], header: Sequence[str], size: int = 900
) -> bytes:
    """PNG of a board given as plain data (what a worker process is sent): ``rows`` as
    the engine writes them (``.`` an empty square, lower case a blank), ``last`` the
    squares of the last play ("H8"), ``header`` the lines above the board."""
    view = ScrabbleBoardView(
        tiles=[[None if ch == "." else ch for ch in row] for row in rows],
        last_play=frozenset(divmod(square_index(square), SIZE) for square in last),
        header=list(header),
    )
    return render_scrabble_board(view, size)


def render_rack(tiles: Sequence[str], *, tile_px: int = 64) -> bytes:
    """PNG of a rack: letters with their values, ``?`` as a blank tile."""
    if not 16 <= tile_px <= 256:
        raise ValueError(f"tile size must be between 16 and 256 pixels, not {tile_px}")
    letters = [_rack_letter(tile) for tile in tiles]
    gap = max(2, tile_px // 10)
    padding = max(4, tile_px // 6)
    slots = max(RACK_SLOTS, len(letters))
    width = 2 * padding + slots * tile_px + (slots - 1) * gap
    image = new_indexed((width, tile_px + 2 * padding), RACK_BACKGROUND, _palette())
    for index, letter in enumerate(letters):
        if letter == BLANK:
            tile = _indexed_tile(tile_px, None, True, False, RACK_BACKGROUND)
        else:
            tile = _indexed_tile(tile_px, letter, False, False, RACK_BACKGROUND)
        image.paste(tile, (padding + index * (tile_px + gap), padding))
    return encode_png(image)


def _rack_letter(tile: str) -> str:
    letter = tile.upper()
    if len(letter) != 1 or letter not in LETTER_VALUES:
        raise ValueError(f"a rack tile is a letter A-Z or ? for a blank, not {tile!r}")
    return letter


def _check_tiles(tiles: Sequence[Sequence[str | None]]) -> None:
    if len(tiles) != SIZE or any(len(row) != SIZE for row in tiles):
        raise ValueError(f"a Scrabble board is {SIZE}x{SIZE} squares")
    for row in tiles:
        for letter in row:
            if letter is None:
                continue
            if not (len(letter) == 1 and letter.isascii() and letter.isalpha()):
                raise ValueError(
                    f"a board square holds one letter A-Z (a-z for a blank), not {letter!r}"
                )


def _header_lines(header: Sequence[str] | str) -> list[str]:
    # A plain string is one block of text, not a sequence of one-letter lines.
    lines = header.splitlines() if isinstance(header, str) else list(header)
    if len(lines) > MAX_HEADER_LINES:
        raise ValueError(f"the board header holds at most {MAX_HEADER_LINES} lines")
    return [clean_text(line) for line in lines]


def _header_font_px(size: int) -> int:
    return max(12, round(size * 0.028))


def _header_line_height(size: int) -> int:
    return round(_header_font_px(size) * 1.45)


def _header_padding(size: int) -> int:
    return round(_header_font_px(size) * 0.6)


def _header_strip(lines: Sequence[str], size: int) -> Image.Image:
    height = scrabble_geometry(size, len(lines)).header_height
    strip = Image.new("RGB", (size, height), HEADER_BACKGROUND)
    face = font(_header_font_px(size))
    x = scrabble_geometry(size).origin
    line_height = _header_line_height(size)
    for index, line in enumerate(lines):
        y = _header_padding(size) + index * line_height + line_height / 2
        stamp_text(strip, (x, y), fit_text(line, face, size - 2 * x), face, HEADER_TEXT, "lm")
    return strip


@functools.lru_cache(maxsize=8)
def _indexed_board(size: int) -> Image.Image:
    return to_palette(_empty_board(size), _palette())


@functools.lru_cache(maxsize=1024)
def _indexed_tile(
    px: int, letter: str | None, blank: bool, last_play: bool, backdrop: RGB = GRID_LINE
) -> Image.Image:
    return to_palette(_tile_sprite(px, letter, blank, last_play, backdrop), _palette())


def _empty_board(size: int) -> Image.Image:
    geometry = scrabble_geometry(size)
    image = Image.new("RGB", (size, size), FRAME)
    draw = ImageDraw.Draw(image)
    square = geometry.square
    gap = max(1, square // 28)
    label_font = font(max(7, round(square * 0.3)), bold=True)
    star_font = font(max(8, round(square * 0.62)))
    board_end = geometry.origin + SIZE * square
    draw.rectangle((geometry.origin, geometry.origin, board_end - 1, board_end - 1), fill=GRID_LINE)
    for row in range(SIZE):
        for col in range(SIZE):
            left, top, right, bottom = geometry.square_box(row, col)
            premium = PREMIUMS[row][col]
            colour = PREMIUM_COLOURS[premium] if premium else PLAIN_SQUARE
            draw.rectangle((left + gap, top + gap, right - 1 - gap, bottom - 1 - gap), fill=colour)
            centre = ((left + right) / 2, (top + bottom) / 2)
            if (row, col) == CENTER:
                draw_text(draw, centre, "★", star_font, PREMIUM_TEXT["DW"], "mm")
            elif premium:
                draw_text(draw, centre, premium, label_font, PREMIUM_TEXT[premium], "mm")

    coordinate_font = font(max(8, round(geometry.origin * 0.5)), bold=True)
    near, far = geometry.origin / 2, board_end + (size - board_end) / 2
    for index in range(SIZE):
        left, top, right, bottom = geometry.square_box(index, index)
        for edge in (near, far):
            column_label_at = ((left + right) / 2, edge)
            row_label_at = (edge, (top + bottom) / 2)
            draw_text(draw, column_label_at, COLUMNS[index], coordinate_font, COORDINATE_TEXT, "mm")
            draw_text(draw, row_label_at, str(index + 1), coordinate_font, COORDINATE_TEXT, "mm")
    return image


def _tile_sprite(
    px: int, letter: str | None, blank: bool, last_play: bool, backdrop: RGB = GRID_LINE
) -> Image.Image:
    """A tile filling a ``px`` square; ``backdrop`` shows around its rounded corners."""
    sprite = Image.new("RGB", (px, px), backdrop)
    draw = ImageDraw.Draw(sprite)
    inset = max(1, px // 28)
    radius = max(2, px // 9)
    if last_play:
        face_colour = LAST_PLAY_BLANK_TILE if blank else LAST_PLAY_TILE
    else:
        face_colour = BLANK_TILE if blank else TILE
    edge_colour = LAST_PLAY_FRAME if last_play else TILE_EDGE
    edge_width = max(2, px // 16) if last_play else 1
    draw.rounded_rectangle(
        (inset, inset, px - 1 - inset, px - 1 - inset),
        radius=radius,
        fill=face_colour,
        outline=edge_colour,
        width=edge_width,
    )
    if letter is None:
        return sprite
    letter_face = font(max(8, round(px * 0.56)), bold=True)
    paint(
        sprite,
        BLANK_LETTER if blank else TILE_LETTER,
        glyph_mask(letter, letter_face, (px, px), (px * 0.45, px * 0.47), align_to="H"),
    )
    if not blank:
        value_face = font(max(6, round(px * 0.22)), bold=True)
        value = str(LETTER_VALUES[letter])
        draw_text(draw, (px * 0.86, px * 0.84), value, value_face, TILE_LETTER, "rs")
    return sprite


@functools.lru_cache(maxsize=1)
def _palette() -> Image.Image:
    # Sampled once at the default size: edges blend the same colours at any size.
    size = 900
    square = scrabble_geometry(size).square
    samples: list[Image.Image] = [_empty_board(size)]
    for letter in string.ascii_uppercase:
        for blank in (False, True):
            for last_play in (False, True):
                samples.append(_tile_sprite(square, letter, blank, last_play))
    samples.append(_tile_sprite(square, None, True, False, RACK_BACKGROUND))
    samples.append(_tile_sprite(square, "Q", False, False, RACK_BACKGROUND))
    samples.append(_header_strip(["Ana 312 · Ñoño 298 · 41 tiles in bag", "▶ Ana to play"], size))
    exact = [
        FRAME,
        COORDINATE_TEXT,
        GRID_LINE,
        PLAIN_SQUARE,
        *PREMIUM_COLOURS.values(),
        TILE,
        BLANK_TILE,
        LAST_PLAY_TILE,
        LAST_PLAY_BLANK_TILE,
        LAST_PLAY_FRAME,
        TILE_LETTER,
        BLANK_LETTER,
        HEADER_BACKGROUND,
        HEADER_TEXT,
        RACK_BACKGROUND,
    ]
    return build_palette(samples, exact)
