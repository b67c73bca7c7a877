"""Forming a club session's boards (RULES.md "Club sessions"): everyone placed once,
requested pairs together, boards of 4 pairs then 3 then 2, the same seed the same groups."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engines.sessions import GroupingError, board_of, board_sizes, form_groups, swap_members


@st.composite
def sign_ups(draw):
    count = draw(st.integers(min_value=4, max_value=40))
    members = draw(st.permutations(range(1000, 1000 + count)))
    pair_count = draw(st.integers(min_value=0, max_value=count // 2))
    requested = [(members[2 * i], members[2 * i + 1]) for i in range(pair_count)]
    return list(members), requested


@given(sign_ups(), st.integers(min_value=0, max_value=2**62), st.sampled_from(["third", "alone"]))
def test_everyone_is_placed_exactly_once_with_requested_pairs_together(data, seed, odd) -> None:
    members, requested = data
    boards = form_groups(members, requested, seed, odd=odd)
    placed = [m for board in boards for seat in board for m in seat]
    assert sorted(placed) == sorted(members)
    seats = [set(seat) for board in boards for seat in board]
    for a, b in requested:
        assert any({a, b} <= seat for seat in seats)
    assert all(2 <= len(board) <= 4 for board in boards)
    sizes = [len(board) for board in boards]
    assert sizes == sorted(sizes, reverse=True)
    assert sizes.count(3) <= 1 and sizes.count(2) <= 1
    seat_sizes = sorted(len(seat) for seat in seats)
    if len(members) % 2 == 0:
        assert set(seat_sizes) == {2}
    elif odd == "third":
        assert seat_sizes.count(3) == 1 and set(seat_sizes) <= {2, 3}
    else:
        assert seat_sizes.count(1) == 1 and set(seat_sizes) <= {1, 2}


@given(sign_ups(), st.integers(min_value=0, max_value=2**62))
def test_the_same_seed_forms_the_same_groups(data, seed) -> None:
    members, requested = data
    assert form_groups(members, requested, seed) == form_groups(members, requested, seed)


def test_sixteen_members_make_two_boards_of_four_pairs() -> None:
    members = list(range(1, 17))
    boards = form_groups(members, [(3, 9)], seed=42)
    assert [len(b) for b in boards] == [4, 4]
    assert any(sorted(seat) == [3, 9] for b in boards for seat in b)


@pytest.mark.parametrize(
    ("seats", "sizes"),
    [
        (2, [2]),
        (3, [3]),
        (4, [4]),
        (5, [3, 2]),
        (6, [4, 2]),
        (7, [4, 3]),
        (8, [4, 4]),
        (9, [4, 3, 2]),
    ],
)
def test_boards_hold_four_pairs_then_three_then_two(seats, sizes) -> None:
    assert board_sizes(seats) == sizes


def test_different_seeds_pair_differently() -> None:
    members = list(range(1, 17))
    assert len({str(form_groups(members, [], seed)) for seed in range(10)}) > 1


@pytest.mark.parametrize(
    ("members", "pairs"),
    [
        ([1, 2, 3], []),
        ([1, 2, 3, 4], [(1, 9)]),
        ([1, 2, 3, 4], [(1, 2), (2, 3)]),
        ([1, 1, 2, 3], []),
    ],
)
def test_impossible_line_ups_are_refused(members, pairs) -> None:
    with pytest.raises(GroupingError):
        form_groups(members, pairs, seed=1)


def test_a_swap_exchanges_two_members_places() -> None:
    boards = [[[1, 2], [3, 4]], [[5, 6], [7, 8]]]
    swapped = swap_members(boards, 2, 7)
    assert swapped == [[[1, 7], [3, 4]], [[5, 6], [2, 8]]]
    assert boards[0][0] == [1, 2]  # the input is not changed
    assert board_of(swapped, 2) == 1 and board_of(swapped, 99) is None
    with pytest.raises(GroupingError):
        swap_members(boards, 1, 99)
