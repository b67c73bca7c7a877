"""The league engine: division sizes, a division's games, promotion and relegation, and
the next season's placement."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engines.leagues import (
    Finish,
    LeagueError,
    Newcomer,
    division_sizes,
    movements,
    place,
    season_games,
)
from engines.pairings import Entrant


@pytest.mark.parametrize(
    ("count", "size", "sizes"),
    [
        (12, 6, [6, 6]),
        (14, 6, [5, 5, 4]),  # never a division of two: three divisions, the top ones larger
        (13, 6, [5, 4, 4]),
        (6, 6, [6]),
        (4, 6, [4]),
        (7, 6, [7]),  # 4 and 3 would leave three: one division of seven
        (11, 5, [6, 5]),  # 4, 4, 3 would leave three: one division fewer, a little over
        (200, 6, [6] * 30 + [5] * 4),
        (10, 10, [10]),
    ],
)
def test_division_sizes_keep_every_division_from_four_to_the_size(
    count: int, size: int, sizes: list[int]
) -> None:
    assert division_sizes(count, size) == sizes


@given(st.integers(4, 400), st.integers(4, 10))
def test_division_sizes_add_up_are_never_below_four_and_strongest_first(
    count: int, size: int
) -> None:
    sizes = division_sizes(count, size)
    assert sum(sizes) == count
    assert min(sizes) >= 4
    assert sizes == sorted(sizes, reverse=True)
    assert max(sizes) - min(sizes) <= 1
    assert max(sizes) <= size or len(sizes) == max(1, count // 4)


def test_too_few_entrants_or_a_size_out_of_range_is_refused() -> None:
    with pytest.raises(LeagueError, match="at least 4"):
        division_sizes(3, 6)
    with pytest.raises(LeagueError, match="4 to 10"):
        division_sizes(20, 11)


@pytest.mark.parametrize("n", [4, 5, 6, 7, 10])
def test_a_division_plays_everyone_once_with_first_moves_balanced(n: int) -> None:
    entrants = [Entrant(i, 1500.0, i) for i in range(1, n + 1)]
    games = season_games(entrants)
    pairs = [frozenset((g.first, g.second)) for g in games]
    assert len(pairs) == n * (n - 1) // 2 == len(set(pairs))
    assert set(pairs) == {frozenset(p) for p in itertools.combinations(range(1, n + 1), 2)}
    for i in range(1, n + 1):
        firsts = sum(g.first == i for g in games)
        seconds = sum(g.second == i for g in games)
        assert abs(firsts - seconds) <= 1 + n % 2  # odd fields: a bye each round


def _finishes(sizes: list[int]) -> list[Finish]:
    out, ident = [], 1
    for d, size in enumerate(sizes):
        for rank in range(1, size + 1):
            out.append(Finish(ident, d, rank))
            ident += 1
    return out


def test_the_top_n_go_up_and_the_bottom_n_go_down_but_not_off_the_ladder() -> None:
    # Divisions of 5, 5, 4: ids 1-5, 6-10, 11-14.
    moves = {m.id: m for m in movements(_finishes([5, 5, 4]), 1)}
    assert moves[1].tier == 0 and moves[1].move == 0  # the top division's winner stays
    assert moves[5].tier == 1 and moves[5].move == -1  # its last goes down
    assert moves[6].tier == 0 and moves[6].move == 1  # division 2's winner goes up
    assert moves[10].tier == 2 and moves[10].move == -1
    assert moves[11].tier == 1 and moves[11].move == 1
    assert moves[14].tier == 2 and moves[14].move == 0  # the bottom division's last stays
    two = {m.id: m.tier for m in movements(_finishes([5, 5, 4]), 2)}
    assert [two[i] for i in (4, 5, 6, 7)] == [1, 1, 0, 0]
    assert [two[i] for i in (13, 14)] == [2, 2]


def test_movers_are_at_most_half_a_division_and_withdrawn_members_leave() -> None:
    finishes = _finishes([4, 4])
    finishes[0] = Finish(1, 0, 1, withdrawn=True)
    moves = {m.id: m for m in movements(finishes, 3)}
    assert 1 not in moves
    assert {i for i, m in moves.items() if m.move == 1} == {5, 6}  # half of four
    # Three stay in division 1: one (half of three) goes down, its last who stays.
    assert {i for i, m in moves.items() if m.move == -1} == {4}


def test_the_next_season_keeps_the_tiers_and_places_newcomers_by_rating() -> None:
    moves = movements(_finishes([5, 5, 4]), 1)
    ratings = {i: 2000.0 - 10 * i for i in range(1, 15)}
    returning = [(m, ratings[m.id]) for m in moves if m.id != 3]  # 3 left
    divisions = place(returning, [Newcomer(100, 1950.0), Newcomer(101, 1000.0)], 6)
    # 15 entrants in divisions of 6: 5, 5, 5.
    assert [len(d) for d in divisions] == [5, 5, 5]
    assert 100 in divisions[0]  # rated above division 1's weakest who stays
    assert 6 in divisions[0] and 5 not in divisions[0]  # promoted and relegated
    assert 5 in divisions[1] and 11 in divisions[1] and 10 not in divisions[1]
    assert 101 in divisions[2] and 10 in divisions[2]


def test_a_first_season_is_the_entrants_by_rating() -> None:
    newcomers = [Newcomer(i, 1500.0 + i) for i in range(1, 15)]
    divisions = place([], newcomers, 6)
    assert divisions == [[14, 13, 12, 11, 10], [9, 8, 7, 6, 5], [4, 3, 2, 1]]


def test_a_tier_too_small_is_cut_again_by_size_in_ladder_order() -> None:
    moves = movements(_finishes([5, 5, 4]), 1)
    leaving = {11, 12, 13}  # division 3 nearly empties: its tier would hold two
    returning = [(m, 1500.0) for m in moves if m.id not in leaving]
    divisions = place(returning, [], 6)
    assert [len(d) for d in divisions] == [6, 5]
    assert divisions[0][:5] == [1, 2, 3, 4, 6] and 5 in divisions[0]  # 5 was relegated: next
    assert 10 in divisions[1] and 14 in divisions[1]
