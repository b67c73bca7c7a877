"""Round robin (FIDE Berger tables), knockout brackets and replays, standings, seeding."""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engines.pairings import (
    Entrant,
    Game,
    Pairing,
    PairingError,
    assign_seeds,
    berger_table,
    bracket_order,
    knockout_replay,
    knockout_round,
    knockout_rounds,
    knockout_winner,
    repeat_pairings,
    round_robin,
    standings,
)

# FIDE Handbook C.05 Annex 1, the Berger tables as published (White first).
BERGER_4 = [
    [(1, 4), (2, 3)],
    [(4, 3), (1, 2)],
    [(2, 4), (3, 1)],
]
BERGER_6 = [
    [(1, 6), (2, 5), (3, 4)],
    [(6, 4), (5, 3), (1, 2)],
    [(2, 6), (3, 1), (4, 5)],
    [(6, 5), (1, 4), (2, 3)],
    [(3, 6), (4, 2), (5, 1)],
]
BERGER_8 = [
    [(1, 8), (2, 7), (3, 6), (4, 5)],
    [(8, 5), (6, 4), (7, 3), (1, 2)],
    [(2, 8), (3, 1), (4, 7), (5, 6)],
    [(8, 6), (7, 5), (1, 4), (2, 3)],
    [(3, 8), (4, 2), (5, 1), (6, 7)],
    [(8, 7), (1, 6), (2, 5), (3, 4)],
    [(4, 8), (5, 3), (6, 2), (7, 1)],
]


def seeded(n: int) -> list[Entrant]:
    """Seed k has id 10 * k, so a mix-up of ids and seeds shows."""
    return [Entrant(id=10 * k, rating=2000 - k, seed=k) for k in range(1, n + 1)]


def as_seeds(rounds: list[list[Pairing]]) -> list[list[tuple[int, int | None]]]:
    return [
        [(p.first // 10, None if p.second is None else p.second // 10) for p in r] for r in rounds
    ]


@pytest.mark.parametrize(("n", "table"), [(4, BERGER_4), (6, BERGER_6), (8, BERGER_8)])
def test_berger_tables_match_fide(n: int, table: list[list[tuple[int, int]]]) -> None:
    assert berger_table(n) == table
    assert as_seeds(round_robin(seeded(n), colours=True)) == table


def test_five_entrants_play_the_six_table_with_six_as_the_bye() -> None:
    rounds = as_seeds(round_robin(seeded(5), colours=True))
    expected = [
        [(a, None) if b == 6 else (b, None) if a == 6 else (a, b) for a, b in r] for r in BERGER_6
    ]
    assert rounds == expected
    assert rounds[0] == [(1, None), (2, 5), (3, 4)]
    byes = [p[0] for r in rounds for p in r if p[1] is None]
    assert sorted(byes) == [1, 2, 3, 4, 5]


@pytest.mark.parametrize("n", range(2, 15))
def test_every_pair_meets_once_and_colours_balance(n: int) -> None:
    entrants = seeded(n)
    rounds = round_robin(entrants, colours=True)
    assert len(rounds) == n - 1 + n % 2
    met = [frozenset((p.first, p.second)) for r in rounds for p in r if p.second is not None]
    assert sorted(met, key=sorted) == sorted(
        (frozenset(c) for c in itertools.combinations([e.id for e in entrants], 2)), key=sorted
    )
    for r in rounds:
        seen = [p.first for p in r] + [p.second for p in r if p.second is not None]
        assert sorted(seen) == sorted(e.id for e in entrants)
    for e in entrants:
        whites = sum(p.first == e.id and p.second is not None for r in rounds for p in r)
        blacks = sum(p.second == e.id for r in rounds for p in r)
        assert abs(whites - blacks) <= 1


def test_berger_numbers_come_from_seeds_not_list_order() -> None:
    entrants = seeded(6)
    assert round_robin(list(reversed(entrants)), colours=False) == round_robin(
        entrants, colours=True
    )


def test_round_robin_refuses_a_field_of_one_or_a_duplicate() -> None:
    with pytest.raises(PairingError):
        round_robin(seeded(1), colours=True)
    with pytest.raises(PairingError):
        round_robin(seeded(3) + seeded(1), colours=True)


# --- knockout ---------------------------------------------------------------------------


def test_bracket_order_keeps_the_top_seeds_apart() -> None:
    assert bracket_order(2) == [1, 2]
    assert bracket_order(4) == [1, 4, 2, 3]
    assert bracket_order(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    assert knockout_rounds(8) == 3
    assert knockout_rounds(6) == 3
    assert knockout_rounds(2) == 1
    assert knockout_rounds(9) == 4


def test_knockout_of_eight_seeded_by_rating() -> None:
    # Ratings in shuffled order: seeds follow rating, 1 v 8, 4 v 5, 2 v 7, 3 v 6.
    ratings = [(1, 1500.0), (2, 2100.0), (3, 1700.0), (4, 1900.0)]
    ratings += [(5, 1600.0), (6, 2000.0), (7, 1800.0), (8, 1400.0)]
    entrants = assign_seeds(ratings, random.Random(0))
    by_seed = {e.seed: e.id for e in entrants}
    assert [by_seed[s] for s in range(1, 9)] == [2, 6, 4, 7, 3, 5, 1, 8]
    assert knockout_round(entrants, [], round=1) == [
        Pairing(by_seed[1], by_seed[8]),
        Pairing(by_seed[4], by_seed[5]),
        Pairing(by_seed[2], by_seed[7]),
        Pairing(by_seed[3], by_seed[6]),
    ]


def test_knockout_of_six_gives_byes_to_the_top_two_seeds() -> None:
    entrants = seeded(6)
    r1 = knockout_round(entrants, [], round=1)
    assert r1 == [Pairing(10, None), Pairing(40, 50), Pairing(20, None), Pairing(30, 60)]
    games = [Game(1, 40, 50, 0.0), Game(1, 30, 60, 1.0)]
    r2 = knockout_round(entrants, games, round=2)
    # 50 had Black and 10 a bye: 50 has White; 30 had White, so 20 (a bye) has it.
    assert r2 == [Pairing(50, 10), Pairing(20, 30)]
    games += [Game(2, 50, 10, 0.0), Game(2, 20, 30, 1.0)]
    assert knockout_round(entrants, games, round=3) == [Pairing(10, 20)]
    with pytest.raises(PairingError):
        knockout_round(entrants, games, round=4)


def test_later_rounds_pair_neighbouring_winners() -> None:
    entrants = seeded(8)
    r1 = knockout_round(entrants, [], round=1)
    # The lower seed wins every match.
    games = [Game(1, p.first, p.second, 0.0) for p in r1]
    r2 = knockout_round(entrants, games, round=2)
    # Winners 80, 50, 70, 60 all had Black: the higher seed of each pair has White.
    assert r2 == [Pairing(50, 80), Pairing(60, 70)]


def test_a_drawn_game_is_replayed_with_colours_reversed() -> None:
    entrants = seeded(4)
    assert knockout_round(entrants, [], round=1) == [Pairing(10, 40), Pairing(20, 30)]
    drawn = Game(1, 10, 40, 0.5)
    assert knockout_winner([drawn]) is None
    assert knockout_replay([drawn]) == Pairing(40, 10)
    other = Game(1, 20, 30, 1.0)
    with pytest.raises(PairingError, match="not decided"):
        knockout_round(entrants, [drawn, other], round=2)
    replay_1 = Game(1, 40, 10, 0.5, replay=1)
    assert knockout_replay([drawn, replay_1]) == Pairing(10, 40)
    pending = Game(1, 10, 40, None, replay=2)
    assert knockout_winner([drawn, replay_1, pending]) is None
    assert knockout_replay([drawn, replay_1, pending]) is None
    decided = Game(1, 10, 40, 0.0, replay=2)
    assert knockout_winner([decided, drawn, replay_1]) == 40
    assert knockout_replay([drawn, replay_1, decided]) is None
    final = knockout_round(entrants, [drawn, replay_1, decided, other], round=2)
    # 40 played White once and Black twice (net -1), 20 White once (net +1).
    assert final == [Pairing(40, 20)]


def test_knockout_winner_reads_byes_and_forfeits() -> None:
    assert knockout_winner([Game(1, 10, None, None)]) == 10
    assert knockout_winner([Game(1, 10, 20, 0.0, forfeit=True)]) == 20
    assert knockout_winner([]) is None
    assert knockout_replay([]) is None


def test_assign_seeds_draws_lots_only_between_equal_ratings() -> None:
    ratings = [(1, 1500.0), (2, 1500.0), (3, 1500.0), (4, 1800.0)]
    draws = {tuple(e.id for e in assign_seeds(ratings, random.Random(s))) for s in range(20)}
    assert all(order[0] == 4 for order in draws)
    assert len(draws) > 1  # the lot does decide
    assert assign_seeds(ratings, random.Random(7)) == assign_seeds(
        list(reversed(ratings)), random.Random(7)
    )
    assert [e.seed for e in assign_seeds(ratings, random.Random(7))] == [1, 2, 3, 4]


def test_repeat_pairings() -> None:
    games = [Game(1, 10, 20, 1.0), Game(1, 30, None, 1.0), Game(2, 40, 30, 0.0, forfeit=True)]
    assert repeat_pairings(games, Pairing(20, 10))
    assert not repeat_pairings(games, Pairing(30, 40))  # a forfeited game is no meeting
    assert not repeat_pairings(games, Pairing(10, 30))
    assert not repeat_pairings(games, Pairing(30, None))


# --- standings --------------------------------------------------------------------------


def test_chess_standings_by_hand() -> None:
    a, b, c, d = 1, 2, 3, 4
    entrants = [Entrant(i, 1500, i) for i in (a, b, c, d)]
    games = [
        Game(1, a, b, 1.0),
        Game(1, c, d, 0.5),
        Game(2, a, c, 0.5),
        Game(2, b, d, 0.0),
        Game(3, d, a, 0.0),
        Game(3, b, c, 1.0, forfeit=True),
    ]
    # Points: a 2.5, b 1, c 1, d 1.5. The forfeit counts as a dummy opponent with
    # the entrant's own points for Buchholz and Sonneborn-Berger.
    # Buchholz: a 1+1+1.5 = 3.5; b 2.5+1.5+1(own) = 5; c 1.5+2.5+1(own) = 5; d 1+1+2.5 = 4.5.
    # SB: a 1*1 + .5*1 + 1*1.5 = 3; b 0 + 0 + 1*1(own) = 1; c .5*1.5 + .5*2.5 + 0 = 2;
    #     d .5*1 + 1*1 + 0 = 1.5. So c is above b on Sonneborn-Berger.
    table = standings(entrants, games, game_kind="chess")
    rows = [
        (s.entrant, s.rank, s.points, s.buchholz, s.sonneborn_berger, s.forfeits, s.played)
        for s in table
    ]
    assert rows == [
        (a, 1, 2.5, 3.5, 3.0, 0, 3),
        (d, 2, 1.5, 4.5, 1.5, 0, 3),
        (c, 3, 1.0, 5.0, 2.0, 1, 2),
        (b, 4, 1.0, 5.0, 1.0, 1, 2),
    ]
    assert (table[0].wins, table[0].draws, table[0].losses) == (2, 1, 0)


def test_chess_standings_with_byes_by_hand() -> None:
    entrants = [Entrant(i, 1500, i) for i in (1, 2, 3)]
    games = [Game(1, 2, 3, 1.0), Game(1, 1, None, None), Game(2, 3, 1, 0.5), Game(2, 2, None, 1.0)]
    # Points 1: 1 + .5; 2: 1 + 1; 3: 0 + .5.
    # Buchholz 1: 1.5(own, bye) + .5 = 2; 2: .5 + 2(own) = 2.5; 3: 2 + 1.5 = 3.5.
    # SB 1: 1*1.5 + .5*.5 = 1.75; 2: 1*.5 + 1*2 = 2.5; 3: 0 + .5*1.5 = .75.
    table = standings(entrants, games, game_kind="chess")
    rows = [(s.entrant, s.rank, s.points, s.buchholz, s.sonneborn_berger, s.byes) for s in table]
    assert rows == [(2, 1, 2.0, 2.5, 2.5, 1), (1, 2, 1.5, 2.0, 1.75, 1), (3, 3, 0.5, 3.5, 0.75, 0)]


def test_scrabble_standings_break_ties_by_spread_and_share_equal_ranks() -> None:
    entrants = [Entrant(i, 1500, i) for i in (1, 2, 3, 4)]
    games = [
        Game(1, 1, 2, 1.0, spread=120),
        Game(1, 3, 4, 1.0, spread=40),
        Game(2, 2, 3, 1.0, spread=40),
        Game(2, 4, 1, 1.0, spread=80),
        Game(3, 4, None, 1.0, spread=50),
    ]
    table = standings(entrants, games, game_kind="scrabble")
    # 1: 1 pt +40; 2: 1 pt -80; 3: 1 pt 0; 4: 2 pts +90 (bye +50).
    assert [(s.entrant, s.rank, s.points, s.spread, s.byes) for s in table] == [
        (4, 1, 2.0, 90, 1),
        (1, 2, 1.0, 40, 0),
        (3, 3, 1.0, 0, 0),
        (2, 4, 1.0, -80, 0),
    ]
    tied = standings(entrants[:2], [Game(1, 1, 2, 0.5)], game_kind="scrabble")
    assert [(s.entrant, s.rank) for s in tied] == [(1, 1), (2, 1)]


def test_unfinished_games_do_not_count() -> None:
    entrants = [Entrant(i, 1500, i) for i in (1, 2)]
    table = standings(entrants, [Game(1, 1, 2, None)], game_kind="chess")
    assert [(s.points, s.played) for s in table] == [(0.0, 0), (0.0, 0)]


@settings(max_examples=80, deadline=None)
@given(n=st.integers(min_value=2, max_value=40), seed=st.integers(min_value=0, max_value=2**32))
def test_any_knockout_runs_to_one_winner(n: int, seed: int) -> None:
    rng = random.Random(seed)
    entrants = seeded(n)
    games: list[Game] = []
    alive = {e.id for e in entrants}
    for r in range(1, knockout_rounds(n) + 1):
        matches = knockout_round(entrants, games, round=r)
        assert sorted(x for m in matches for x in (m.first, m.second) if x is not None) == sorted(
            alive
        )
        if r == 1:
            byes = sorted(m.first for m in matches if m.second is None)
            assert byes == [e.id for e in entrants[: (1 << knockout_rounds(n)) - n]]
        else:
            assert all(m.second is not None for m in matches)
        for m in matches:
            if m.second is None:
                continue
            if {m.first, m.second} == {10, 20}:  # seeds 1 and 2 meet only in the final
                assert r == knockout_rounds(n)
            match = [Game(r, m.first, m.second, rng.choice([0.0, 0.5, 1.0]))]
            while (replay := knockout_replay(match)) is not None:
                assert (replay.first, replay.second) == (match[-1].second, match[-1].first)
                match.append(
                    Game(
                        r,
                        replay.first,
                        replay.second,
                        rng.choice([0.0, 0.5, 1.0]),
                        replay=len(match),
                    )
                )
            winner = knockout_winner(match)
            assert winner in (m.first, m.second)
            alive.discard(m.second if winner == m.first else m.first)
            games.extend(match)
    assert len(alive) == 1
    with pytest.raises(PairingError):
        knockout_round(entrants, games, round=knockout_rounds(n) + 1)
