"""Chess board images: pieces, last move, king in check, coordinates.

The board sits in a dark frame that carries the coordinates (files a–h below
and above, ranks 1–8 left and right), so labels never hide a piece. Every square
is a cached tile (square colour × highlight × piece) drawn once per board size
and kept already mapped onto the palette; a render pastes at most 64 tiles onto
the cached empty board and encodes it.

Highlights do not rely on hue alone: the last move is a bright yellow tint
(a strong lightness change on dark squares), the checked king sits in a red
glow that fades towards the square's corners (a shape, not just a colour).
"""

from __future__ import annotations

import functools
import math
import re
from dataclasses import dataclass

import chess
from PIL import Image, ImageChops, ImageDraw, ImageFilter

from bot.render._common import (
    RGB,
    build_palette,
    draw_text,
    encode_png,
    font,
    glyph_mask,
    paint,
    to_palette,
)

LIGHT_SQUARE: RGB = (240, 217, 181)
DARK_SQUARE: RGB = (176, 129, 91)
LAST_MOVE_LIGHT: RGB = (247, 236, 116)
LAST_MOVE_DARK: RGB = (218, 196, 56)
CHECK_GLOW: RGB = (226, 24, 24)
FRAME: RGB = (46, 44, 41)
COORDINATE_TEXT: RGB = (226, 222, 214)
WHITE_PIECE: RGB = (255, 255, 255)
BLACK_PIECE: RGB = (24, 24, 24)
PIECE_OUTLINE: RGB = (0, 0, 0)
# Drawn inside black pieces (the king's band, the bishop's cross) as in print diagrams.
BLACK_PIECE_DETAIL: RGB = (236, 236, 236)

MIN_SIZE = 96
MAX_SIZE = 2048

# Outline glyphs give the white pieces, filled ones the black pieces.
_OUTLINE_GLYPHS = {
    chess.KING: "♔",
    chess.QUEEN: "♕",
    chess.ROOK: "♖",
    chess.BISHOP: "♗",
    chess.KNIGHT: "♘",
    chess.PAWN: "♙",
}
_FILLED_GLYPHS = {
    chess.KING: "♚",
    chess.QUEEN: "♛",
    chess.ROOK: "♜",
    chess.BISHOP: "♝",
    chess.KNIGHT: "♞",
    chess.PAWN: "♟",
}
# Glyphs are rendered this many times larger, then box-filtered down, so the
# fill computed by flood fill gets antialiased edges.
_SUPERSAMPLE = 4
_PIECE_SCALE = 0.86  # font size relative to the square

_PLAIN, _LAST_MOVE, _CHECK = "plain", "last_move", "check"
_OPEN_RUN = re.compile(rb"\x00+")


@dataclass(frozen=True)
class BoardGeometry:
    """Where the squares are in an image of ``size`` pixels."""

    size: int
    square: int  # side of one square in pixels
    origin: int  # distance from the image edge to the board edge

    def square_box(
        self, square: chess.Square, orientation: chess.Color
    ) -> tuple[int, int, int, int]:
        """``(left, top, right, bottom)`` pixel box of ``square``, right/bottom exclusive."""
        file, rank = chess.square_file(square), chess.square_rank(square)
        column = file if orientation == chess.WHITE else 7 - file
        row = 7 - rank if orientation == chess.WHITE else rank
        left = self.origin + column * self.square
        top = self.origin + row * self.square
        return left, top, left + self.square, top + self.square


def board_geometry(size: int = 400) -> BoardGeometry:
    _check_size(size)
    margin = max(12, round(size * 0.05))
    square = (size - 2 * margin) // 8
    return BoardGeometry(size=size, square=square, origin=(size - 8 * square) // 2)


def render_chess_board(
    board: chess.Board,
    *,
    orientation: chess.Color = chess.WHITE,
    size: int = 400,
    last_move: chess.Move | None = None,
) -> bytes:
    """PNG of ``board`` seen from ``orientation``'s side.

    ``last_move`` defaults to the last move played on ``board``; its two
    squares are tinted. A king in check glows red.
    """
    geometry = board_geometry(size)
    if last_move is None and board.move_stack:
        last_move = board.peek()

    highlights: dict[chess.Square, str] = {}
    if last_move:  # a null move is falsy and marks nothing
        highlights[last_move.from_square] = _LAST_MOVE
        highlights[last_move.to_square] = _LAST_MOVE
    if board.is_check():
        king = board.king(board.turn)
        if king is not None:
            highlights[king] = _CHECK

    image = _indexed_empty_board(size, orientation).copy()
    for square in chess.SQUARES:
        piece = board.piece_at(square)
        highlight = highlights.get(square, _PLAIN)
        if piece is None and highlight == _PLAIN:
            continue  # the empty board already shows it
        symbol = piece.symbol() if piece else None
        left, top, _, _ = geometry.square_box(square, orientation)
        image.paste(_indexed_tile(size, _is_light(square), highlight, symbol), (left, top))
    return encode_png(image)


def chess_board_png(fen: str, last_move: str | None, orientation: str, size: int = 400) -> bytes:
    """PNG of a position given as plain data (what a worker process is sent): its FEN,
    the last move in UCI ("e2e4", None for none) and the side at the bottom
    ("white" or "black")."""
    last = chess.Move.from_uci(last_move) if last_move else None
    side = chess.WHITE if orientation == "white" else chess.BLACK
    return render_chess_board(chess.Board(fen), orientation=side, size=size, last_move=last)


@functools.lru_cache(maxsize=16)
def _indexed_empty_board(size: int, orientation: chess.Color) -> Image.Image:
    return to_palette(_empty_board(size, orientation), _palette())


@functools.lru_cache(maxsize=8 * 2 * 3 * 13)
def _indexed_tile(size: int, light: bool, highlight: str, symbol: str | None) -> Image.Image:
    return to_palette(_tile(size, light, highlight, symbol), _palette())


@functools.lru_cache(maxsize=1)
def _palette() -> Image.Image:
    # Antialiased edges blend the same colours at every size, so one palette
    # sampled at a reference size serves all sizes and is built only once.
    size = 400
    samples: list[Image.Image] = [_empty_board(size, chess.WHITE)]
    for light in (True, False):
        for highlight in (_PLAIN, _LAST_MOVE, _CHECK):
            samples += [_tile(size, light, highlight, symbol) for symbol in (None, *"KQRBNPkqrbnp")]
    exact = [
        LIGHT_SQUARE,
        DARK_SQUARE,
        LAST_MOVE_LIGHT,
        LAST_MOVE_DARK,
        FRAME,
        COORDINATE_TEXT,
        WHITE_PIECE,
        BLACK_PIECE,
        BLACK_PIECE_DETAIL,
    ]
    return build_palette(samples, exact)


def _empty_board(size: int, orientation: chess.Color) -> Image.Image:
    geometry = board_geometry(size)
    image = Image.new("RGB", (size, size), FRAME)
    draw = ImageDraw.Draw(image)
    for square in chess.SQUARES:
        left, top, right, bottom = geometry.square_box(square, orientation)
        colour = LIGHT_SQUARE if _is_light(square) else DARK_SQUARE
        draw.rectangle((left, top, right - 1, bottom - 1), fill=colour)

    label_font = font(max(8, round(geometry.origin * 0.58)), bold=True)
    board_end = geometry.origin + 8 * geometry.square
    near, far = geometry.origin / 2, board_end + (size - board_end) / 2
    for index in range(8):
        file_square = chess.square(index, 0)
        rank_square = chess.square(0, index)
        left, _, right, _ = geometry.square_box(file_square, orientation)
        _, top, _, bottom = geometry.square_box(rank_square, orientation)
        file_label, rank_label = chess.FILE_NAMES[index], chess.RANK_NAMES[index]
        for y in (near, far):
            draw_text(draw, ((left + right) / 2, y), file_label, label_font, COORDINATE_TEXT, "mm")
        for x in (near, far):
            draw_text(draw, (x, (top + bottom) / 2), rank_label, label_font, COORDINATE_TEXT, "mm")
    return image


def _is_light(square: chess.Square) -> bool:
    return (chess.square_file(square) + chess.square_rank(square)) % 2 == 1


def _tile(size: int, light: bool, highlight: str, symbol: str | None) -> Image.Image:
    square = board_geometry(size).square
    tile = _square_background(square, light, highlight)
    if symbol is not None:
        piece = chess.Piece.from_symbol(symbol)
        masks = _piece_masks(square, piece.piece_type, piece.color)
        if piece.color == chess.WHITE:
            paint(tile, WHITE_PIECE, masks.fill)
            paint(tile, PIECE_OUTLINE, masks.ink)
        else:
            paint(tile, BLACK_PIECE_DETAIL, masks.fill)
            paint(tile, BLACK_PIECE, masks.ink)
    return tile


def _square_background(square: int, light: bool, highlight: str) -> Image.Image:
    if highlight == _LAST_MOVE:
        return Image.new("RGB", (square, square), LAST_MOVE_LIGHT if light else LAST_MOVE_DARK)
    base = Image.new("RGB", (square, square), LIGHT_SQUARE if light else DARK_SQUARE)
    if highlight == _CHECK:
        paint(base, CHECK_GLOW, _radial_glow(square))
    return base


@functools.lru_cache(maxsize=8)
def _radial_glow(square: int) -> Image.Image:
    """Opacity strongest at the centre, still visible in the corners."""
    glow = Image.new("L", (square, square))
    centre = (square - 1) / 2
    corner = math.hypot(centre, centre) or 1.0
    glow.putdata(
        [
            round(255 * (0.95 - 0.7 * math.hypot(x - centre, y - centre) / corner))
            for y in range(square)
            for x in range(square)
        ]
    )
    return glow


@dataclass(frozen=True)
class _PieceMasks:
    fill: Image.Image  # where the body colour goes (white pieces) or the detail colour (black)
    ink: Image.Image  # the glyph itself: outline of a white piece, body of a black one


@functools.lru_cache(maxsize=8 * 12)
def _piece_masks(square: int, piece_type: chess.PieceType, color: chess.Color) -> _PieceMasks:
    big = square * _SUPERSAMPLE
    face = font(round(big * _PIECE_SCALE))
    glyph = (_OUTLINE_GLYPHS if color == chess.WHITE else _FILLED_GLYPHS)[piece_type]
    ink = glyph_mask(glyph, face, (big, big), (big / 2, big / 2))
    inside = _enclosed_area(ink)
    if color == chess.WHITE:
        # The font's hairlines vanish on small boards: thicken them a little.
        ink = ink.filter(ImageFilter.MaxFilter(_SUPERSAMPLE - 1))
        # Shrunk so the body's edge hides under the outline instead of
        # leaving a white fringe outside it.
        fill = inside.filter(ImageFilter.MinFilter(2 * _SUPERSAMPLE - 1))
    else:
        # The holes of the filled glyph (e.g. the king's band) get the detail colour.
        fill = ImageChops.subtract(inside.filter(ImageFilter.MinFilter(3)), ink)
    shrink = (square, square)
    return _PieceMasks(
        fill=fill.resize(shrink, Image.Resampling.BOX),
        ink=ink.resize(shrink, Image.Resampling.BOX),
    )


def _enclosed_area(ink: Image.Image) -> Image.Image:
    """Everything the glyph's outline encloses, the outline included (a silhouette).

    A flood fill of the outside, done on horizontal runs of open pixels joined
    when they overlap between rows (4-connectivity): far faster in Python than
    visiting pixels one by one.
    """
    width, height = ink.size
    walls = ink.point(lambda v: 1 if v >= 96 else 0).tobytes()
    runs: list[tuple[int, int, int]] = []  # (row, start, end) of open pixels
    parent: list[int] = []

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    outside = -1
    previous: list[int] = []
    for row in range(height):
        line = walls[row * width : (row + 1) * width]
        current = []
        for match in _OPEN_RUN.finditer(line):
            index = len(runs)
            runs.append((row, match.start(), match.end()))
            parent.append(index)
            current.append(index)
            touches_edge = row in (0, height - 1) or match.start() == 0 or match.end() == width
            if touches_edge:
                if outside < 0:
                    outside = index
                else:
                    parent[root(index)] = root(outside)
            for above in previous:
                _, start, end = runs[above]
                if start < match.end() and match.start() < end:
                    parent[root(index)] = root(above)
        previous = current

    silhouette = bytearray(b"\xff" * (width * height))
    outside_root = root(outside) if outside >= 0 else -1
    for index, (row, start, end) in enumerate(runs):
        if root(index) == outside_root:
            silhouette[row * width + start : row * width + end] = bytes(end - start)
    return Image.frombytes("L", (width, height), bytes(silhouette))


def _check_size(size: int) -> None:
    if not MIN_SIZE <= size <= MAX_SIZE:
        raise ValueError(f"board size must be between {MIN_SIZE} and {MAX_SIZE} pixels, not {size}")
