from concurrent.futures import ThreadPoolExecutor

import pytest

from bot.render.leaderboard import (
    BACKGROUND,
    HEADER_BACKGROUND,
    HIGHLIGHT,
    HIGHLIGHT_BAR,
    MAX_WIDTH,
    PADDING,
    ROW_HEIGHT,
    TREND_DOWN,
    TREND_UP,
    render_leaderboard,
)
from tests.bot.render.pixels import count_near, count_unlike, decode, png_mode

COLUMNS = ["#", "Player", "Rating", "Games", "Trend"]


def rows(count: int, name: str = "Player") -> list[list[str]]:
    return [
        [str(i + 1), f"{name} {i + 1}", str(1800 - 10 * i), str(20 + i), "–"] for i in range(count)
    ]


def whole(image) -> tuple[int, int, int, int]:
    return 0, 0, image.width, image.height


def ink(image) -> int:
    return count_unlike(image, (0, 0, image.width, image.height), BACKGROUND)


def test_leaderboard_is_an_indexed_png_with_a_dark_header_row():
    png = render_leaderboard("Chess · all time", COLUMNS, rows(3))
    image = decode(png)
    assert png_mode(png) == "P"
    assert image.width >= 480
    assert count_near(image, whole(image), HEADER_BACKGROUND, tolerance=0) > 1000


def test_more_rows_draw_more_ink_on_a_taller_image():
    three = decode(render_leaderboard("Chess", COLUMNS, rows(3)))
    twelve = decode(render_leaderboard("Chess", COLUMNS, rows(12)))
    assert twelve.height == three.height + 9 * ROW_HEIGHT
    assert ink(twelve) > ink(three) * 2


def test_unicode_names_and_emoji_render_without_error():
    names = [
        "Niño Ibáñez",
        "Zoë 🎉 Smith",
        "李小龍",
        "Ｆｕｌｌｗｉｄｔｈ",
        "عائشة",
        "👨\u200d👩\u200d👧 family",
        "line\nbreak\ttab",
        "e\u0301 combining",
        "lone \ud800 surrogate",
        "\x00control\x1b",
    ]
    table = [[str(i + 1), name, "1500?", "0", "▲ 3"] for i, name in enumerate(names)]
    image = decode(render_leaderboard("Ñandú 🏆 league", COLUMNS, table))
    assert image.height > len(names) * ROW_HEIGHT


def test_long_names_are_truncated_to_keep_the_table_within_max_width():
    long_name = "José María de la Santísima Trinidad Fernández-Villaverde y Rodríguez " * 5
    full = decode(render_leaderboard("Scrabble", COLUMNS, [["1", long_name, "1600", "12", "▲ 4"]]))
    name_only = decode(render_leaderboard("Scrabble", COLUMNS, [["1", long_name, "", "", ""]]))
    assert full.width == name_only.width <= MAX_WIDTH
    # The columns right of the name still show: the name did not push them out.
    right_band = (full.width - PADDING - 200, 0, full.width - PADDING, full.height)
    right_ink = count_unlike(full, right_band, BACKGROUND)
    assert right_ink > count_unlike(name_only, right_band, BACKGROUND)


def test_short_tables_are_not_truncated_or_stretched_beyond_their_content():
    narrow = decode(render_leaderboard("B", ["#", "Name"], [["1", "Al"]]))
    wide = decode(render_leaderboard("B", ["#", "Name"], [["1", "Alexandra the Great of Macedon"]]))
    assert narrow.width == 480
    assert 480 <= wide.width < MAX_WIDTH


def test_highlighted_row_gets_tint_and_accent_bar():
    image = decode(render_leaderboard("Chess", COLUMNS, rows(5), highlight_rows={2}))
    plain = decode(render_leaderboard("Chess", COLUMNS, rows(5)))
    highlighted_pixels = count_near(image, whole(image), HIGHLIGHT, tolerance=0)
    assert highlighted_pixels > (image.width - 2 * PADDING) * ROW_HEIGHT // 2
    assert count_near(plain, whole(plain), HIGHLIGHT, tolerance=0) == 0
    assert count_near(image, (0, 0, PADDING + 10, image.height), HIGHLIGHT_BAR, tolerance=0) > 100


def test_out_of_range_highlight_indices_are_ignored():
    assert render_leaderboard("C", COLUMNS, rows(2), highlight_rows={5, -1}) == render_leaderboard(
        "C", COLUMNS, rows(2)
    )


def test_trend_arrows_are_coloured_by_direction():
    up = decode(render_leaderboard("C", COLUMNS, [["1", "A", "1500", "1", "▲ 12"]]))
    down = decode(render_leaderboard("C", COLUMNS, [["1", "A", "1500", "1", "▼ 7"]]))
    flat = decode(render_leaderboard("C", COLUMNS, [["1", "A", "1500", "1", "–"]]))
    everything = (0, 0, up.width, up.height)
    assert count_near(up, everything, TREND_UP, tolerance=20) > 20
    assert count_near(up, everything, TREND_DOWN, tolerance=20) == 0
    assert count_near(down, everything, TREND_DOWN, tolerance=20) > 20
    assert count_near(flat, everything, TREND_UP, tolerance=20) == 0


def test_empty_leaderboard_still_renders_its_header():
    image = decode(render_leaderboard("Boggle · this week", ["#", "Player", "Points"], []))
    assert count_near(image, whole(image), HEADER_BACKGROUND, tolerance=0) > 1000
    assert ink(image) > ink(decode(render_leaderboard("", ["#"], [])))


def test_same_table_gives_identical_bytes():
    assert render_leaderboard("C", COLUMNS, rows(10), highlight_rows=[1]) == render_leaderboard(
        "C", COLUMNS, rows(10), highlight_rows=[1]
    )


@pytest.mark.parametrize(
    ("columns", "table"),
    [([], []), (["#", "Name"], [["1"]]), (["#"], [["1", "extra"]]), (["#"], [["1"]] * 101)],
)
def test_malformed_tables_are_rejected(columns, table):
    with pytest.raises(ValueError):
        render_leaderboard("t", columns, table)


def test_concurrent_renders_match_sequential_ones():
    tables = [rows(3, "Ana"), rows(10, "Ñoño"), rows(1, "Zoë")]
    expected = [render_leaderboard("League", COLUMNS, t) for t in tables]
    with ThreadPoolExecutor(max_workers=4) as pool:
        results = list(pool.map(lambda t: render_leaderboard("League", COLUMNS, t), tables * 4))
    assert results == expected * 4
