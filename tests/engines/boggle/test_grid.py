import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engines.boggle import FACES, BoggleError, Grid


def test_parse_reads_spaced_cells_with_multi_letter_faces():
    grid = Grid.parse("QU A T E/B C D E/F G H I/J K L M")
    assert grid.cells[:4] == ("qu", "a", "t", "e")
    assert (grid.width, grid.height) == (4, 4)
    assert grid.rows[0] == ("Qu", "A", "T", "E")


def test_grid_text_round_trips_through_parse():
    text = "QU A T E/B TH D E/F G HE I/J K L AN"
    grid = Grid.parse(text)
    assert str(grid) == text
    assert Grid.parse(str(grid)) == grid


def test_parse_reads_one_letter_per_cell_without_spaces():
    assert Grid.parse("abc/def/ghi") == Grid.parse("A B C/D E F/G H I")


def test_parse_accepts_new_lines_and_any_case():
    assert Grid.parse("a b\nc d") == Grid.parse("A B/C D")


def test_a_lone_q_is_the_qu_face():
    assert Grid.parse("QAT/EEE/SSS").cells[0] == "qu"


@pytest.mark.parametrize(
    "text",
    ["", "A B C/D E", "A B/C D/E F G", "A 1/B C", "A XY/C D", "A", "ABCDEFGHI/" * 9],
)
def test_bad_grids_raise_boggle_error(text):
    with pytest.raises(BoggleError):
        Grid.parse(text)


def test_boggle_error_is_a_value_error():
    assert issubclass(BoggleError, ValueError)


def test_neighbours_touch_in_all_eight_directions():
    grid = Grid.parse("ABCD/EFGH/IJKL/MNOP")
    assert sorted(grid.neighbours(0)) == [1, 4, 5]
    assert sorted(grid.neighbours(1)) == [0, 2, 4, 5, 6]
    assert sorted(grid.neighbours(5)) == [0, 1, 2, 4, 6, 8, 9, 10]
    assert sorted(grid.neighbours(15)) == [10, 11, 14]


@settings(max_examples=80)
@given(
    st.integers(2, 6).flatmap(
        lambda w: st.tuples(
            st.just(w),
            st.integers(2, 6).flatmap(
                lambda h: st.lists(st.sampled_from(FACES), min_size=w * h, max_size=w * h)
            ),
        )
    )
)
def test_any_grid_round_trips_through_its_text(width_and_cells):
    width, cells = width_and_cells
    grid = Grid(tuple(cells), width)
    assert Grid.parse(str(grid)) == grid
