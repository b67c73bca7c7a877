"""F32: the Filipino leaderboard title "Lahat ng laro — sa lahat ng panahon" was
cut ("… sa lahat n…") at the title's one size. A title shrinks down to a floor
size, then wraps to two lines; the table moves down to make room."""

from __future__ import annotations

from PIL import Image, ImageDraw

from bot.messages.i18n import _, use_language
from bot.messages.leaderboard import GAME_TITLES, PERIOD_NAMES
from bot.render._common import font
from bot.render.leaderboard import (
    BACKGROUND,
    HEADER_BACKGROUND,
    PADDING,
    TITLE_HEIGHT,
    TITLE_LINE_HEIGHT,
    TITLE_SIZES,
    render_leaderboard,
)
from tests.bot.render.pixels import count_near, count_unlike, decode

COLUMNS = ["#", "Pangalan", "Panalo", "Laro"]
ROWS = [["1", "alice", "3", "4"], ["2", "bob", "1", "4"]]


def _title_band(image: Image.Image, top: int, bottom: int) -> int:
    return count_unlike(image, (0, top, image.width, bottom), BACKGROUND)


def _ink_of(text: str, px: int, width: int) -> int:
    """The ink of ``text`` drawn whole at ``px`` on a blank band."""
    band = Image.new("RGB", (width, TITLE_HEIGHT), BACKGROUND)
    ImageDraw.Draw(band).text(
        (PADDING, TITLE_HEIGHT / 2), text, font=font(px, bold=True), fill=(0, 0, 0), anchor="lm"
    )
    return count_unlike(band, (0, 0, width, TITLE_HEIGHT), BACKGROUND)


def test_the_filipino_all_time_title_is_drawn_whole_at_a_smaller_size() -> None:
    with use_language("fil"):
        title = f"{_(GAME_TITLES['all'])} — {_(PERIOD_NAMES['all'])}"
    assert title == "Lahat ng laro — sa lahat ng panahon"
    image = decode(render_leaderboard(title, COLUMNS, ROWS))
    ink = _title_band(image, 0, TITLE_HEIGHT)
    whole = _ink_of(title, TITLE_SIZES[-1], image.width)
    assert abs(ink - whole) <= whole * 0.03, (ink, whole)  # every letter, no "…"
    # nothing drawn past the right padding, and the table starts where it always did
    assert (
        count_unlike(image, (image.width - PADDING + 2, 0, image.width, TITLE_HEIGHT), BACKGROUND)
        == 0
    )
    assert (
        count_near(
            image, (PADDING, TITLE_HEIGHT + 2, PADDING + 40, TITLE_HEIGHT + 10), HEADER_BACKGROUND
        )
        > 200
    )


def test_a_title_too_long_for_one_line_wraps_to_two_and_pushes_the_table_down() -> None:
    title = "Library Henyo — sa lahat ng panahon, kasama ang lahat ng event ng club"
    one_line = decode(render_leaderboard("Chess · all time", COLUMNS, ROWS))
    image = decode(render_leaderboard(title, COLUMNS, ROWS))
    assert image.height == one_line.height + TITLE_LINE_HEIGHT
    top = TITLE_HEIGHT + TITLE_LINE_HEIGHT
    middle = top // 2
    assert _title_band(image, 0, middle) > 300 and _title_band(image, middle, top) > 300
    assert count_near(image, (PADDING, top + 2, PADDING + 40, top + 10), HEADER_BACKGROUND) > 200
    assert count_unlike(image, (image.width - PADDING + 2, 0, image.width, top), BACKGROUND) == 0
