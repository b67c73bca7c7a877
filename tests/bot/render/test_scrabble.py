import string
from concurrent.futures import ThreadPoolExecutor

import pytest

from bot.render.scrabble import (
    BLANK_TILE,
    COORDINATE_TEXT,
    HEADER_BACKGROUND,
    HEADER_TEXT,
    LAST_PLAY_BLANK_TILE,
    LAST_PLAY_FRAME,
    LAST_PLAY_TILE,
    PLAIN_SQUARE,
    PREMIUM_COLOURS,
    RACK_BACKGROUND,
    TILE,
    ScrabbleBoardView,
    render_rack,
    render_scrabble_board,
    scrabble_geometry,
)
from engines.scrabble.layout import PREMIUMS
from tests.bot.render.pixels import count_dark, count_near, count_unlike, decode, inset, png_mode

SIZE = 900
GEOMETRY = scrabble_geometry(SIZE)


def empty_tiles() -> list[list[str | None]]:
    return [[None] * 15 for _ in range(15)]


def with_word(word: str, row: int, col: int) -> list[list[str | None]]:
    tiles = empty_tiles()
    for offset, letter in enumerate(word):
        tiles[row][col + offset] = letter
    return tiles


def square_corner(image, row, col, geometry=GEOMETRY):
    """A pixel inside the square's colour, clear of its label and the grid lines."""
    left, top, _, _ = geometry.square_box(row, col)
    return image.getpixel((left + 4, top + 4))


def tile_face(image, row, col, geometry=GEOMETRY):
    """A pixel on a tile's face above its letter, inside its frame."""
    left, top, _, _ = geometry.square_box(row, col)
    x, y = left + round(geometry.square * 0.2), top + round(geometry.square * 0.14)
    return image.getpixel((x, y))


def full_board() -> list[list[str | None]]:
    letters = string.ascii_uppercase + string.ascii_lowercase
    return [[letters[(7 * r + c) % len(letters)] for c in range(15)] for r in range(15)]


def test_board_image_is_an_indexed_png_as_wide_as_asked():
    png = render_scrabble_board(ScrabbleBoardView(empty_tiles()))
    assert decode(png).size == (SIZE, SIZE)
    assert png_mode(png) == "P"
    smaller = render_scrabble_board(ScrabbleBoardView(empty_tiles()), size=600)
    assert decode(smaller).size == (600, 600)


def test_premium_squares_have_their_colours_everywhere_on_the_board():
    image = decode(render_scrabble_board(ScrabbleBoardView(empty_tiles())))
    for row in range(15):
        for col in range(15):
            premium = PREMIUMS[row][col]
            expected = PREMIUM_COLOURS[premium] if premium else PLAIN_SQUARE
            assert square_corner(image, row, col) == expected, (row, col)


def test_named_squares_are_where_the_layout_puts_them():
    image = decode(render_scrabble_board(ScrabbleBoardView(empty_tiles())))
    assert square_corner(image, 0, 0) == PREMIUM_COLOURS["TW"]  # A1
    assert square_corner(image, 7, 7) == PREMIUM_COLOURS["DW"]  # H8, the centre
    assert square_corner(image, 1, 5) == PREMIUM_COLOURS["TL"]  # F2
    assert square_corner(image, 0, 3) == PREMIUM_COLOURS["DL"]  # D1
    assert square_corner(image, 14, 14) == PREMIUM_COLOURS["TW"]  # O15
    assert square_corner(image, 0, 1) == PLAIN_SQUARE  # B1


def test_a1_is_top_left_and_o15_bottom_right():
    a1 = GEOMETRY.square_box(0, 0)
    o15 = GEOMETRY.square_box(14, 14)
    assert a1[0] < SIZE / 10 and a1[1] < SIZE / 10
    assert o15[2] > SIZE * 0.9 and o15[3] > SIZE * 0.9


def test_premium_labels_and_centre_star_are_drawn():
    image = decode(render_scrabble_board(ScrabbleBoardView(empty_tiles())))
    for row, col in [(0, 0), (7, 7), (1, 5), (0, 3), (1, 1)]:
        colour = square_corner(image, row, col)
        assert count_unlike(image, inset(GEOMETRY.square_box(row, col), 6), colour) > 20


def test_coordinates_are_written_around_the_board():
    image = decode(render_scrabble_board(ScrabbleBoardView(empty_tiles())))
    left, top, right, _ = GEOMETRY.square_box(0, 0)
    above_a = (left, 0, right, top)
    left_of_1 = (0, top, left, top + GEOMETRY.square)
    assert count_near(image, above_a, COORDINATE_TEXT, tolerance=40) > 5
    assert count_near(image, left_of_1, COORDINATE_TEXT, tolerance=40) > 5


def test_a_placed_tile_covers_its_square_with_letter_and_value():
    empty = decode(render_scrabble_board(ScrabbleBoardView(empty_tiles())))
    image = decode(render_scrabble_board(ScrabbleBoardView(with_word("Q", 7, 7))))
    assert tile_face(image, 7, 7) == TILE
    assert tile_face(empty, 7, 7) != TILE
    square = GEOMETRY.square_box(7, 7)
    assert count_dark(image, square) > 150  # the letter
    left, top, right, bottom = square
    value_corner = (left + GEOMETRY.square * 2 // 3, top + GEOMETRY.square * 2 // 3, right, bottom)
    assert count_dark(image, value_corner) > 10  # "10" for Q
    assert image.crop(square).tobytes() != empty.crop(square).tobytes()


def test_other_squares_are_untouched_by_a_tile():
    empty = decode(render_scrabble_board(ScrabbleBoardView(empty_tiles())))
    image = decode(render_scrabble_board(ScrabbleBoardView(with_word("Q", 7, 7))))
    for row, col in [(7, 6), (6, 7), (0, 0)]:
        square = GEOMETRY.square_box(row, col)
        assert image.crop(square).tobytes() == empty.crop(square).tobytes()


def test_a_blank_has_its_own_tile_colour_and_no_value():
    tiles = with_word("Ab", 7, 7)
    image = decode(render_scrabble_board(ScrabbleBoardView(tiles)))
    assert tile_face(image, 7, 7) == TILE
    assert tile_face(image, 7, 8) == BLANK_TILE
    assert BLANK_TILE != TILE
    left, top, right, bottom = GEOMETRY.square_box(7, 8)
    quarter = GEOMETRY.square * 3 // 4
    value_corner = (left + quarter, top + quarter, right - 3, bottom - 3)
    assert count_dark(image, value_corner) == 0


def test_last_play_tiles_are_highlighted_and_framed():
    tiles = with_word("CAt", 7, 6)
    tiles[6][6] = "S"  # an earlier tile
    view = ScrabbleBoardView(tiles, last_play=frozenset({(7, 6), (7, 7), (7, 8)}))
    image = decode(render_scrabble_board(view))
    assert tile_face(image, 7, 6) == LAST_PLAY_TILE
    assert tile_face(image, 7, 8) == LAST_PLAY_BLANK_TILE
    assert tile_face(image, 6, 6) == TILE
    framed = count_near(image, GEOMETRY.square_box(7, 6), LAST_PLAY_FRAME, tolerance=10)
    assert framed > 4 * GEOMETRY.square
    assert count_near(image, GEOMETRY.square_box(6, 6), LAST_PLAY_FRAME, tolerance=10) == 0


def test_header_lines_are_drawn_above_the_board():
    header_lines = ["Ana 312 · Niño 298", "41 tiles in bag", "▶ Ana to play"]
    view = ScrabbleBoardView(empty_tiles(), header=header_lines)
    image = decode(render_scrabble_board(view))
    geometry = scrabble_geometry(SIZE, header_lines=3)
    assert image.size == (SIZE, geometry.height)
    assert geometry.header_height > 0
    header = (0, 0, SIZE, geometry.header_height)
    assert count_near(image, header, HEADER_TEXT, tolerance=30) > 100
    assert image.getpixel((SIZE - 2, 2)) == HEADER_BACKGROUND
    assert square_corner(image, 0, 0, geometry) == PREMIUM_COLOURS["TW"]


def test_more_header_lines_make_a_taller_image():
    one = decode(render_scrabble_board(ScrabbleBoardView(empty_tiles(), header=["a"])))
    two = decode(render_scrabble_board(ScrabbleBoardView(empty_tiles(), header=["a", "b"])))
    assert SIZE < one.height < two.height


def test_a_header_given_as_one_string_is_split_into_lines_not_letters():
    as_string = ScrabbleBoardView(empty_tiles(), header="Ana 10\nBen 0")
    as_lines = ScrabbleBoardView(empty_tiles(), header=["Ana 10", "Ben 0"])
    assert render_scrabble_board(as_string) == render_scrabble_board(as_lines)


def test_a_header_of_more_than_eight_lines_is_rejected():
    with pytest.raises(ValueError):
        render_scrabble_board(ScrabbleBoardView(empty_tiles(), header=["line"] * 9))


def test_an_overlong_header_line_is_cut_inside_the_image():
    view = ScrabbleBoardView(empty_tiles(), header=["Ñandú " * 200])
    image = decode(render_scrabble_board(view))
    right_margin = (SIZE - GEOMETRY.origin + 2, 0, SIZE, scrabble_geometry(SIZE, 1).header_height)
    assert count_unlike(image, right_margin, HEADER_BACKGROUND) == 0


def test_full_board_png_stays_under_200_kb():
    view = ScrabbleBoardView(
        full_board(),
        last_play=frozenset((7, c) for c in range(15)),
        header=["Ana 312 · Ben 298 · Cleo 251 · Dan 240", "41 tiles in bag", "▶ Ana to play"],
    )
    assert len(render_scrabble_board(view)) <= 200 * 1024


def test_same_view_gives_identical_bytes():
    def view():
        return ScrabbleBoardView(with_word("QUIz", 7, 4), frozenset({(7, 4)}), ["Ana 10 · Ben 0"])

    assert render_scrabble_board(view()) == render_scrabble_board(view())


@pytest.mark.parametrize(
    "tiles",
    [
        [[None] * 15 for _ in range(14)],
        [[None] * 14 for _ in range(15)],
        with_word("1", 0, 0),
        with_word("É", 0, 0),
        [["AB"] + [None] * 14] + [[None] * 15 for _ in range(14)],
    ],
)
def test_malformed_boards_are_rejected(tiles):
    with pytest.raises(ValueError):
        render_scrabble_board(ScrabbleBoardView(tiles))


def test_rack_shows_each_tile_with_its_value_and_blanks_empty():
    png = render_rack(["A", "Q", "?", "z"], tile_px=64)
    image = decode(png)
    assert png_mode(png) == "P"
    assert image.getpixel((1, 1)) == RACK_BACKGROUND
    padding = max(4, 64 // 6)
    gap = max(2, 64 // 10)

    def tile_box(index):
        left = padding + index * (64 + gap)
        return left, padding, left + 64, padding + 64

    for index in (0, 1, 3):
        assert count_dark(image, tile_box(index)) > 100
    blank = tile_box(2)
    assert count_dark(image, inset(blank, 8)) == 0
    assert count_near(image, inset(blank, 8), BLANK_TILE, tolerance=0) > 1000
    assert count_near(image, inset(tile_box(0), 8), TILE, tolerance=0) > 1000


def test_rack_is_at_least_seven_tiles_wide_and_grows_with_more():
    short = decode(render_rack(["A"]))
    seven = decode(render_rack(list("ABCDEFG")))
    nine = decode(render_rack(list("ABCDEFGHI")))
    assert short.size == seven.size
    assert nine.width > seven.width
    assert decode(render_rack([])).size == seven.size


@pytest.mark.parametrize("tile", ["", "AB", "1", "*"])
def test_rack_rejects_what_is_not_a_tile(tile):
    with pytest.raises(ValueError):
        render_rack([tile])


def test_rack_is_deterministic():
    assert render_rack(list("RETAIN?")) == render_rack(list("RETAIN?"))


def test_concurrent_renders_match_sequential_ones():
    views = [
        ScrabbleBoardView(empty_tiles()),
        ScrabbleBoardView(with_word("ZEBRA", 7, 5), frozenset({(7, 5)}), ["x"]),
        ScrabbleBoardView(full_board()),
    ]
    expected = [render_scrabble_board(v, size=600) for v in views]
    with ThreadPoolExecutor(max_workers=4) as pool:
        results = list(pool.map(lambda v: render_scrabble_board(v, size=600), views * 4))
    assert results == expected * 4
