from concurrent.futures import ThreadPoolExecutor

import pytest

from bot.render.boggle import (
    DIE,
    TITLE_TEXT,
    TRAY,
    boggle_geometry,
    normalise_face,
    render_boggle_grid,
)
from tests.bot.render.pixels import count_dark, count_near, decode, inset, png_mode

GRID_4 = [
    ["Qu", "A", "T", "E"],
    ["R", "S", "M", "W"],
    ["N", "Z", "I", "O"],
    ["L", "E", "D", "H"],
]
GRID_6 = [
    ["Qu", "Th", "In", "Er", "He", "An"],
    list("ABCDEF"),
    list("GHIJKL"),
    list("MNOPRS"),
    list("TUVWXY"),
    list("ZEAEIO"),
]


def letter_area(geometry, row, col):
    return inset(geometry.cell_box(row, col), geometry.cell_px // 5)


@pytest.mark.parametrize("grid", [GRID_4, GRID_6], ids=["4x4", "6x6"])
def test_every_cell_has_dark_letter_pixels_on_an_ivory_die(grid):
    png = render_boggle_grid(grid)
    image = decode(png)
    geometry = boggle_geometry(len(grid))
    assert png_mode(png) == "P"
    assert image.size == (geometry.width, geometry.height)
    for row in range(len(grid)):
        for col in range(len(grid)):
            area = letter_area(geometry, row, col)
            assert count_dark(image, area) > 150, (row, col)
            assert count_near(image, area, DIE, tolerance=0) > 300, (row, col)


def test_tray_surrounds_the_dice():
    image = decode(render_boggle_grid(GRID_4))
    assert image.getpixel((1, 1)) == TRAY
    geometry = boggle_geometry(4)
    left, top, _, _ = geometry.cell_box(0, 0)
    assert image.getpixel((left, top)) == TRAY  # outside the die's rounded corner


def test_qu_cell_draws_two_letters():
    image = decode(render_boggle_grid(GRID_4))
    plain_q = decode(render_boggle_grid([["Q", "A", "T", "E"], *GRID_4[1:]]))
    geometry = boggle_geometry(4)
    area = inset(geometry.cell_box(0, 0), geometry.cell_px // 8)  # the die face, not its shadow
    assert image.crop(area).tobytes() != plain_q.crop(area).tobytes()

    def rightmost_ink(img):
        left, top, right, bottom = area
        return max(
            x
            for x in range(left, right)
            for y in range(top, bottom)
            if max(img.getpixel((x, y))) < 90
        )

    # Q and u side by side reach further right than Q alone.

    assert rightmost_ink(image) > rightmost_ink(plain_q)


def test_faces_are_normalised_so_qu_is_written_with_a_lowercase_u():
    assert normalise_face("QU") == "Qu"
    assert normalise_face("qu") == "Qu"
    assert normalise_face("th") == "Th"
    assert normalise_face("e") == "E"
    upper = [["QU", *row[1:]] if i == 0 else row for i, row in enumerate(GRID_4)]
    assert render_boggle_grid(upper) == render_boggle_grid(GRID_4)


def test_ambiguous_letters_are_underlined():
    grid = [["M", "H", "W", "N"], ["Z", "E", "A", "T"], list("ABCD"), list("EFGH")]
    image = decode(render_boggle_grid(grid))
    geometry = boggle_geometry(4)

    def ink_below_letters(row, col):
        left, top, right, _ = geometry.cell_box(row, col)
        band_top, band_bottom = (top + round(geometry.cell_px * f) for f in (0.71, 0.8))
        band = (left + 15, band_top, right - 15, band_bottom)
        return count_dark(image, band)

    for underlined in [(0, 0), (0, 2), (0, 3), (1, 0)]:
        assert ink_below_letters(*underlined) > 20, underlined
    for plain in [(0, 1), (1, 1)]:
        assert ink_below_letters(*plain) == 0, plain


def test_title_adds_a_band_of_text_above_the_grid():
    untitled = decode(render_boggle_grid(GRID_4))
    titled = decode(render_boggle_grid(GRID_4, title="Round 12 · 3 minutes"))
    geometry = boggle_geometry(4, titled=True)
    assert titled.size == (untitled.width, geometry.height)
    assert titled.height > untitled.height
    band = (0, 0, geometry.width, geometry.title_height)
    assert count_near(titled, band, TITLE_TEXT, tolerance=40) > 50


def test_overlong_title_is_cut_to_the_image_width():
    image = decode(render_boggle_grid(GRID_4, title="Boggle night " * 50))
    geometry = boggle_geometry(4, titled=True)
    edge = (geometry.width - geometry.padding + 2, 0, geometry.width, geometry.title_height)
    assert count_near(image, edge, TITLE_TEXT, tolerance=80) == 0


def test_cell_size_scales_the_image():
    small = decode(render_boggle_grid(GRID_4, cell_px=48))
    large = decode(render_boggle_grid(GRID_4, cell_px=96))
    assert small.width < large.width
    assert small.size == (boggle_geometry(4, 48).width, boggle_geometry(4, 48).height)


def test_same_grid_gives_identical_bytes():
    assert render_boggle_grid(GRID_6, title="t") == render_boggle_grid(GRID_6, title="t")


@pytest.mark.parametrize(
    "grid",
    [
        [list("ABC"), list("DEF")],  # not square
        [list("ABCD")] * 3 + [list("ABC")],
        [["A"] * 9 for _ in range(9)],  # too big
        [["A", "B"], ["C", "D"]],  # too small
        [["1", "A", "B", "C"]] + [list("ABCD")] * 3,
        [["Que", "A", "B", "C"]] + [list("ABCD")] * 3,
        [["", "A", "B", "C"]] + [list("ABCD")] * 3,
    ],
)
def test_malformed_grids_are_rejected(grid):
    with pytest.raises(ValueError):
        render_boggle_grid(grid)


def test_concurrent_renders_match_sequential_ones():
    grids = [GRID_4, GRID_6]
    expected = [render_boggle_grid(g, title="Round") for g in grids]
    with ThreadPoolExecutor(max_workers=4) as pool:
        results = list(pool.map(lambda g: render_boggle_grid(g, title="Round"), grids * 6))
    assert results == expected * 6
