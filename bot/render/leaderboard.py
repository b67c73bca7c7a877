"""Leaderboard tables as images.

Any column layout works: column widths follow their contents, and when the
table would be too wide the widest columns (in practice the names) are capped
and cut with "…". Columns whose cells are all numbers (ratings such as
``1532?``, ranks, ``▲12``) are right-aligned. Trend arrows keep their shape
and are coloured blue (up) and vermilion (down), a pair colour-blind readers
can tell apart. Highlighted rows get a tint, bold text and an accent bar.

DejaVu Sans has no emoji: they are drawn as the font's empty box, never an error.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Collection, Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw, ImageFont

from bot.messages.i18n import N_, _
from bot.render._common import (
    RGB,
    build_palette,
    clean_text,
    encode_png,
    fit_text,
    font,
    stamp_text,
    text_width,
)

BACKGROUND: RGB = (255, 255, 255)
STRIPE: RGB = (240, 243, 247)
HIGHLIGHT: RGB = (255, 236, 168)
HIGHLIGHT_BAR: RGB = (206, 128, 0)
HEADER_BACKGROUND: RGB = (36, 46, 62)
HEADER_TEXT: RGB = (255, 255, 255)
TITLE_TEXT: RGB = (20, 26, 36)
TEXT: RGB = (30, 34, 40)
MUTED_TEXT: RGB = (110, 118, 130)
RULE: RGB = (208, 214, 222)
TREND_UP: RGB = (0, 110, 178)
TREND_DOWN: RGB = (210, 90, 0)

MAX_ROWS = 100
MIN_WIDTH = 480
MAX_WIDTH = 900
PADDING = 24
CELL_PADDING = 12
ROW_HEIGHT = 40
HEADER_HEIGHT = 38
TITLE_HEIGHT = 56  # one line at the full title size
TITLE_SIZES = (26, 24, 22, 20)  # a long title shrinks down to the last, then wraps
TITLE_LINE_HEIGHT = 28  # of a wrapped title's two lines, at the smallest size
BAR_WIDTH = 6
EMPTY_MESSAGE = N_("No results yet")

_TREND = re.compile(r"[▲▼]\s?[+\-−]?[\d.,]*")
_NUMERIC = re.compile(r"^[▲▼+\-−–#=]?\s*\d[\d.,]*%?\??(\s*[▲▼]\s*[\d.,]*)?$")


@dataclass(frozen=True)
class _Fonts:
    header: ImageFont.FreeTypeFont
    cell: ImageFont.FreeTypeFont
    cell_bold: ImageFont.FreeTypeFont


@functools.lru_cache(maxsize=len(TITLE_SIZES))
def _title_font(px: int) -> ImageFont.FreeTypeFont:
    return font(px, bold=True)


def _title_lines(title: str, max_width: float) -> tuple[ImageFont.FreeTypeFont, list[str]]:
    """The title's face and lines: one line at the largest size that fits it,
    else two lines at the smallest (split at the space that balances them best),
    each cut with "…" only if a single word is still too wide."""
    for px in TITLE_SIZES:
        face = _title_font(px)
        if text_width(title, face) <= max_width:
            return face, [title]
    face = _title_font(TITLE_SIZES[-1])
    words = title.split(" ")
    splits = [(" ".join(words[:i]), " ".join(words[i:])) for i in range(1, len(words))]
    if not splits:
        return face, [fit_text(title, face, max_width)]
    first, second = min(
        splits,
        key=lambda pair: (
            max(text_width(pair[0], face), text_width(pair[1], face)) > max_width,
            abs(text_width(pair[0], face) - text_width(pair[1], face)),
        ),
    )
    return face, [fit_text(first, face, max_width), fit_text(second, face, max_width)]


@functools.lru_cache(maxsize=1)
def _fonts() -> _Fonts:
    return _Fonts(
        header=font(17, bold=True),
        cell=font(19),
        cell_bold=font(19, bold=True),
    )


def render_leaderboard(
    title: str,
    columns: Sequence[str],
    rows: Sequence[Sequence[str]],
    *,
    highlight_rows: Collection[int] = (),
) -> bytes:
    """PNG of a table: ``title`` above, a header of ``columns``, one line per row.

    ``highlight_rows`` are indices into ``rows`` (e.g. the member who asked).
    """
    return encode_png(_compose(title, columns, rows, highlight_rows), _palette())


def _compose(
    title: str,
    columns: Sequence[str],
    rows: Sequence[Sequence[str]],
    highlight_rows: Collection[int],
) -> Image.Image:
    if not columns:
        raise ValueError("a leaderboard needs at least one column")
    if len(rows) > MAX_ROWS:
        raise ValueError(f"a leaderboard image shows at most {MAX_ROWS} rows")
    if any(len(row) != len(columns) for row in rows):
        raise ValueError("every leaderboard row needs one cell per column")
    fonts = _fonts()
    headers = [clean_text(c) for c in columns]
    cells = [[clean_text(str(cell)) for cell in row] for row in rows]
    highlighted = {i for i in highlight_rows if 0 <= i < len(rows)}

    right_aligned = [_is_numeric_column([row[i] for row in cells]) for i in range(len(headers))]
    widths = _column_widths(headers, cells, fonts)
    width = max(MIN_WIDTH, sum(widths) + 2 * PADDING)
    # A narrow table still spans the image: the names column takes the slack.
    text_columns = [i for i, numeric in enumerate(right_aligned) if not numeric]
    stretch = max(text_columns, key=lambda i: widths[i]) if text_columns else len(widths) - 1
    widths[stretch] += width - 2 * PADDING - sum(widths)
    body_rows = max(1, len(cells))
    title_face, title_lines = _title_lines(clean_text(title), width - 2 * PADDING)
    title_height = TITLE_HEIGHT + (len(title_lines) - 1) * TITLE_LINE_HEIGHT
    height = title_height + HEADER_HEIGHT + body_rows * ROW_HEIGHT + PADDING
    image = Image.new("RGB", (width, height), BACKGROUND)
    draw = ImageDraw.Draw(image)

    first_line = title_height / 2 + 2 - (len(title_lines) - 1) * TITLE_LINE_HEIGHT / 2
    for i, line in enumerate(title_lines):
        y = first_line + i * TITLE_LINE_HEIGHT
        stamp_text(image, (PADDING, y), line, title_face, TITLE_TEXT, "lm")
    left_edges = [PADDING + sum(widths[:i]) for i in range(len(widths))]
    table_right = width - PADDING

    top = title_height
    draw.rectangle((PADDING, top, table_right - 1, top + HEADER_HEIGHT - 1), fill=HEADER_BACKGROUND)
    for i, header in enumerate(headers):
        _draw_cell(
            image,
            header,
            fonts.header,
            left_edges[i],
            widths[i],
            top + HEADER_HEIGHT / 2,
            right_aligned[i],
            HEADER_TEXT,
            trends=False,
        )

    top += HEADER_HEIGHT
    if not cells:
        middle = (width / 2, top + ROW_HEIGHT / 2)
        stamp_text(image, middle, _(EMPTY_MESSAGE), fonts.cell, MUTED_TEXT, "mm")
    for index, row in enumerate(cells):
        row_top = top + index * ROW_HEIGHT
        is_highlighted = index in highlighted
        background = HIGHLIGHT if is_highlighted else (STRIPE if index % 2 else BACKGROUND)
        row_bottom = row_top + ROW_HEIGHT - 1
        draw.rectangle((PADDING, row_top, table_right - 1, row_bottom), fill=background)
        if is_highlighted:
            bar_right = PADDING + BAR_WIDTH - 1
            draw.rectangle((PADDING, row_top, bar_right, row_bottom), fill=HIGHLIGHT_BAR)
        face = fonts.cell_bold if is_highlighted else fonts.cell
        for i, cell in enumerate(row):
            _draw_cell(
                image,
                cell,
                face,
                left_edges[i],
                widths[i],
                row_top + ROW_HEIGHT / 2,
                right_aligned[i],
                TEXT,
                trends=True,
            )
    bottom = top + body_rows * ROW_HEIGHT
    draw.line((PADDING, bottom, table_right - 1, bottom), fill=RULE, width=2)
    return image


def _column_widths(
    headers: Sequence[str], cells: Sequence[Sequence[str]], fonts: _Fonts
) -> list[int]:
    """Natural widths, with the widest columns capped so the table fits ``MAX_WIDTH``."""
    natural = []
    for i, header in enumerate(headers):
        widest = text_width(header, fonts.header)
        for row in cells:
            widest = max(widest, text_width(row[i], fonts.cell_bold))
        natural.append(int(widest + 0.999) + 2 * CELL_PADDING)
    available = MAX_WIDTH - 2 * PADDING
    if sum(natural) <= available:
        return natural
    # Water-filling: find the cap c with sum(min(w, c)) == available.
    narrow_total, wide = 0, len(natural)
    for width in sorted(natural):
        cap = (available - narrow_total) / wide
        if width <= cap:
            narrow_total += width
            wide -= 1
        else:
            break
    cap = max(2 * CELL_PADDING + 16, int((available - narrow_total) / max(wide, 1)))
    return [min(width, cap) for width in natural]


def _is_numeric_column(values: Sequence[str]) -> bool:
    present = [v.strip() for v in values if v.strip() and v.strip() not in ("-", "—", "–")]
    return bool(present) and all(_NUMERIC.match(v) for v in present)


def _draw_cell(
    image: Image.Image,
    text: str,
    face: ImageFont.FreeTypeFont,
    left: int,
    width: int,
    middle: float,
    right_aligned: bool,
    colour: RGB,
    *,
    trends: bool,
) -> None:
    text = fit_text(text, face, width - 2 * CELL_PADDING)
    if not text:
        return
    segments = _trend_segments(text, colour) if trends else [(text, colour)]
    x: float = left + CELL_PADDING
    if right_aligned:
        x = left + width - CELL_PADDING - text_width(text, face)
    for segment, segment_colour in segments:
        stamp_text(image, (x, middle), segment, face, segment_colour, "lm")
        x += text_width(segment, face)


def _trend_segments(text: str, colour: RGB) -> list[tuple[str, RGB]]:
    """Split ``"1612 ▲12"`` into plain and coloured pieces."""
    segments: list[tuple[str, RGB]] = []
    position = 0
    for match in _TREND.finditer(text):
        if match.start() > position:
            segments.append((text[position : match.start()], colour))
        arrow_colour = TREND_UP if match.group().startswith("▲") else TREND_DOWN
        segments.append((match.group(), arrow_colour))
        position = match.end()
    if position < len(text):
        segments.append((text[position:], colour))
    return segments


@functools.lru_cache(maxsize=1)
def _palette() -> Image.Image:
    sample = _compose(
        "Chess · all time Ñ",
        ["#", "Player", "Rating", "Games", "Trend"],
        [
            ["1", "Niño Ibáñez", "1723", "40", "▲ 12"],
            ["2", "Zoë", "1650?", "3", "▼ 8"],
            ["3", "Ana", "1500", "0", "–"],
        ],
        highlight_rows=(1,),
    )
    exact = [
        BACKGROUND,
        STRIPE,
        HIGHLIGHT,
        HIGHLIGHT_BAR,
        HEADER_BACKGROUND,
        HEADER_TEXT,
        TITLE_TEXT,
        TEXT,
        MUTED_TEXT,
        RULE,
        TREND_UP,
        TREND_DOWN,
    ]
    return build_palette([sample], exact)
