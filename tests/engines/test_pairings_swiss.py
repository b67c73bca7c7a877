"""Swiss pairings: properties a director checks, over random events of 3 to 20 entrants.

The checks are written from the rules, not from the engine: "avoidable" is
decided by an exhaustive search for a pairing of the field that avoids the
fault, and for small fields a brute force over every pairing finds the best
cost, which the engine's pairing must reach.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Iterator, Sequence
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engines.pairings import Entrant, Game, Pairing, PairingError, swiss_pairings

# --- the rules, restated for the checks ---------------------------------------------------


def points(games: Sequence[Game], who: int) -> float:
    total = 0.0
    for g in games:
        if g.second is None:
            total += 1.0 if g.first == who else 0.0
        elif g.first == who:
            total += g.score or 0.0
        elif g.second == who:
            total += 1.0 - (g.score or 0.0)
    return total


def colours_of(games: Sequence[Game], who: int) -> list[str]:
    out = []
    for g in sorted(games, key=lambda g: g.round):
        if g.second is None or g.forfeit:
            continue
        if g.first == who:
            out.append("W")
        elif g.second == who:
            out.append("B")
    return out


def must_have(history: list[str]) -> str | None:
    """The colour an entrant must get so as not to have three in a row or a difference of 3."""
    diff = history.count("W") - history.count("B")
    if diff <= -2 or history[-2:] == ["B", "B"]:
        return "W"
    if diff >= 2 or history[-2:] == ["W", "W"]:
        return "B"
    return None


def wants(history: list[str]) -> tuple[str | None, int]:
    """(colour, strength) of a preference: 3 must, 2 colour difference of one, 1 alternate."""
    forced = must_have(history)
    if forced:
        return forced, 3
    diff = history.count("W") - history.count("B")
    if diff:
        return ("W" if diff < 0 else "B"), 2
    if history:
        return ("B" if history[-1] == "W" else "W"), 1
    return None, 0


def violates(history: list[str]) -> bool:
    diff = history.count("W") - history.count("B")
    return abs(diff) > 2 or (len(history) >= 3 and len(set(history[-3:])) == 1)


class Field:
    """What the checks need to know about the field before a round."""

    def __init__(self, entrants: Sequence[Entrant], games: Sequence[Game]) -> None:
        self.ids = [e.id for e in entrants]
        self.score = {i: points(games, i) for i in self.ids}
        self.met = {frozenset((g.first, g.second)) for g in games if g.second is not None}
        self.had_bye = {g.first for g in games if g.second is None}
        self.history = {i: colours_of(games, i) for i in self.ids}
        self.must = {i: must_have(self.history[i]) for i in self.ids}
        self.wants = {i: wants(self.history[i]) for i in self.ids}
        # How each floated in the last round: +1 paired down (or the bye), -1 paired up.
        last = max((g.round for g in games), default=0)
        earlier = [g for g in games if g.round < last]
        self.floated: dict[int, int] = {}
        for g in games:
            if g.round != last:
                continue
            if g.second is None:
                self.floated[g.first] = 1
                continue
            a, b = points(earlier, g.first), points(earlier, g.second)
            if a != b:
                self.floated[g.first] = 1 if a > b else -1
                self.floated[g.second] = -1 if a > b else 1

    def repeat(self, a: int, b: int) -> bool:
        return frozenset((a, b)) in self.met

    def colour_clash(self, a: int, b: int) -> bool:
        return self.must[a] is not None and self.must[a] == self.must[b]

    def pairable(self, allowed: Callable[[int, int], bool], bye_ok: Callable[[int], bool]) -> bool:
        """Whether some pairing of the whole field uses only allowed pairs and bye."""
        ids = self.ids
        odd = len(ids) % 2 == 1

        @cache
        def search(mask: int, bye_left: bool) -> bool:
            free = [k for k in range(len(ids)) if not mask >> k & 1]
            if not free:
                return not bye_left
            k = free[0]
            a = ids[k]
            if bye_left and bye_ok(a) and search(mask | 1 << k, False):
                return True
            for m in free[1:]:
                if allowed(a, ids[m]) and search(mask | 1 << k | 1 << m, bye_left):
                    return True
            return False

        return search(0, odd)


def all_pairings(ids: Sequence[int]) -> Iterator[list[tuple[int, int | None]]]:
    """Every pairing of ``ids`` (a bye for one when odd)."""
    items: list[int | None] = list(ids) + ([None] if len(ids) % 2 else [])

    def rec(rest: list[int | None]) -> Iterator[list[tuple[int, int | None]]]:
        if not rest:
            yield []
            return
        a, others = rest[0], rest[1:]
        for k, b in enumerate(others):
            for tail in rec(others[:k] + others[k + 1 :]):
                pair = (a, b) if a is not None else (b, a)
                yield [(pair[0], pair[1])] + tail  # type: ignore[list-item]

    yield from rec(items)


def cost(field: Field, pairs: Sequence[tuple[int, int | None]], colours: bool) -> tuple[int, ...]:
    """The engine's stated criteria 1-8, summed over a pairing, as a vector to minimise."""
    n = len(field.ids)
    order = sorted(field.ids, key=lambda i: (-field.score[i], i))
    rank = {i: k for k, i in enumerate(order)}
    repeats = second_byes = clashes = bye_height = squares = strong = mild = again = 0
    for a, b in pairs:
        if b is None:
            second_byes += a in field.had_bye
            bye_height = int(field.score[a] * 2) * n + (n - 1 - rank[a])
            continue
        repeats += field.repeat(a, b)
        squares += int(2 * (field.score[a] - field.score[b])) ** 2
        if field.score[a] != field.score[b]:
            upper, lower = (a, b) if field.score[a] > field.score[b] else (b, a)
            again += field.floated.get(upper) == 1
            again += field.floated.get(lower) == -1
        if colours:
            (ca, sa), (cb, sb) = field.wants[a], field.wants[b]
            same = ca is not None and ca == cb
            clashes += same and sa == 3 and sb == 3
            strong += same and sa >= 2 and sb >= 2
            mild += same
    return (repeats, second_byes, clashes, bye_height, squares, strong, mild, again)


# --- one event at a time -------------------------------------------------------------------


def field_of(n: int) -> list[Entrant]:
    # Seeds 1..n; ids deliberately unlike the seeds.
    return [Entrant(id=100 + 7 * k, rating=2400 - 13 * k, seed=k + 1) for k in range(n)]


def check_round(
    entrants: Sequence[Entrant], games: Sequence[Game], pairings: Sequence[Pairing], colours: bool
) -> None:
    field = Field(entrants, games)
    ids = field.ids
    seen = [p.first for p in pairings] + [p.second for p in pairings if p.second is not None]
    assert sorted(seen) == sorted(ids), "everyone is paired exactly once"
    byes = [p.first for p in pairings if p.second is None]
    assert len(byes) == len(ids) % 2
    boards = [(p.first, p.second) for p in pairings if p.second is not None]

    repeats = [b for b in boards if field.repeat(*b)]
    if repeats:
        assert not field.pairable(lambda a, b: not field.repeat(a, b), lambda a: True), (
            f"avoidable repeat pairings {repeats}"
        )
        return
    second_bye = bool(byes) and byes[0] in field.had_bye
    if second_bye:
        assert not field.pairable(
            lambda a, b: not field.repeat(a, b), lambda a: a not in field.had_bye
        ), f"an avoidable second bye for {byes[0]}"
        return

    after = {i: list(field.history[i]) for i in ids}
    for p in pairings:
        if p.second is not None:
            after[p.first].append("W")
            after[p.second].append("B")
    bad = [i for i in ids if violates(after[i]) and not violates(field.history[i])]
    if colours and bad:
        for i in bad:
            board = next(b for b in boards if i in b)
            assert field.colour_clash(*board), f"{i}'s colour fault was avoidable on {board}"
        assert not field.pairable(
            lambda a, b: not field.repeat(a, b) and not field.colour_clash(a, b),
            lambda a: a not in field.had_bye,
        ), f"avoidable third colour in a row / colour difference of 3 for {bad}"
        return

    if byes:
        receiver = byes[0]
        lower = [
            i for i in ids if i not in field.had_bye and field.score[i] < field.score[receiver]
        ]
        for other in lower:
            assert not field.pairable(
                lambda a, b: not field.repeat(a, b) and not (colours and field.colour_clash(a, b)),
                lambda a, other=other: a == other,  # type: ignore[misc]
            ), f"the bye went to {receiver} ({field.score[receiver]}) over {other}"

    # No exchange of partners between two boards improves the criteria (2-opt optimality).
    whole: list[tuple[int, int | None]] = [(p.first, p.second) for p in pairings]
    for x, y in itertools.combinations(range(len(whole)), 2):
        (a, b), (c, d) = whole[x], whole[y]
        now = cost(field, [whole[x], whole[y]], colours)
        for alt in (((a, c), (b, d)), ((a, d), (b, c))):
            fixed = [_bye_last(p) for p in alt]
            if any(p is None for p in fixed):
                continue
            assert cost(field, fixed, colours) >= now, (  # type: ignore[arg-type]
                f"swapping partners of {whole[x]} and {whole[y]} to {alt} is better"
            )


def _bye_last(pair: tuple[int | None, int | None]) -> tuple[int, int | None] | None:
    a, b = pair
    if a is None and b is None:
        return None
    if a is None:
        return (b, None)  # type: ignore[return-value]
    return (a, b)


def play(entrants: Sequence[Entrant], rounds: int, rng: random.Random, colours: bool) -> list[Game]:
    games: list[Game] = []
    for r in range(1, rounds + 1):
        pairings = swiss_pairings(entrants, games, round=r, colours=colours)
        check_round(entrants, games, pairings, colours)
        if len(entrants) <= 9:
            field = Field(entrants, games)
            ours = cost(field, [(p.first, p.second) for p in pairings], colours)
            best = min(cost(field, pairs, colours) for pairs in all_pairings(field.ids))
            assert ours == best, f"round {r}: {ours} is not the best {best}"
        for p in pairings:
            score = None if p.second is None else rng.choice([0.0, 0.5, 1.0, 1.0, 0.0])
            games.append(Game(r, p.first, p.second, 1.0 if p.second is None else score))
    return games


@settings(max_examples=300, deadline=None)
@given(
    n=st.integers(min_value=3, max_value=20),
    rounds=st.integers(min_value=1, max_value=7),
    seed=st.integers(min_value=0, max_value=2**32),
    colours=st.booleans(),
)
def test_random_events_keep_the_swiss_rules(n: int, rounds: int, seed: int, colours: bool) -> None:
    play(field_of(n), min(rounds, n + 1), random.Random(seed), colours)


@settings(max_examples=100, deadline=None)
@given(n=st.integers(min_value=3, max_value=9), seed=st.integers(min_value=0, max_value=2**32))
def test_long_small_events_stay_optimal_to_the_end(n: int, seed: int) -> None:
    # As many rounds as a round robin and more: repeats become unavoidable and must be few.
    play(field_of(n), n + 1, random.Random(seed), True)


@pytest.mark.parametrize("seed", range(8))
def test_nine_entrants_seven_rounds_no_repeat_and_one_bye_each(seed: int) -> None:
    entrants = field_of(9)
    games = play(entrants, 7, random.Random(seed), True)
    byes = [g.first for g in games if g.second is None]
    assert len(byes) == len(set(byes)) == 7
    pairs = [frozenset((g.first, g.second)) for g in games if g.second is not None]
    assert len(pairs) == len(set(pairs))


def test_round_one_pairs_top_half_against_bottom_half_with_alternating_colours() -> None:
    entrants = field_of(8)
    ids = [e.id for e in entrants]
    pairings = swiss_pairings(entrants, [], round=1)
    assert pairings == [
        Pairing(ids[0], ids[4]),
        Pairing(ids[5], ids[1]),
        Pairing(ids[2], ids[6]),
        Pairing(ids[7], ids[3]),
    ]


def test_odd_round_one_gives_the_bye_to_the_lowest_seed() -> None:
    entrants = field_of(5)
    pairings = swiss_pairings(entrants, [], round=1)
    assert pairings[-1] == Pairing(entrants[-1].id, None)


def test_the_bye_goes_to_the_lowest_score_who_has_not_had_one() -> None:
    entrants = field_of(5)
    a, b, c, d, e = (x.id for x in entrants)
    games = [Game(1, a, c, 0.0), Game(1, b, d, 0.0), Game(1, e, None, 1.0)]
    # a and b have 0 points; b is the lower ranked of them.
    pairings = swiss_pairings(entrants, games, round=2)
    assert pairings[-1] == Pairing(b, None)


def test_a_forfeit_win_counts_as_a_bye_for_eligibility() -> None:
    entrants = field_of(5)
    a, b, c, d, e = (x.id for x in entrants)
    games = [
        Game(1, a, c, 1.0),
        Game(1, d, b, 1.0, forfeit=True),
        Game(1, e, None, 1.0),
        Game(2, a, d, 1.0),
        Game(2, c, e, 1.0),
        Game(2, b, None, 1.0),
    ]
    # On 1 point: b (bye), c, d (forfeit win), e (bye). Only c may have the bye;
    # without the forfeit rule it would go to d, the lower seed.
    pairings = swiss_pairings(entrants, games, round=3)
    assert pairings[-1] == Pairing(c, None)


def test_winners_meet_winners() -> None:
    entrants = field_of(8)
    r1 = swiss_pairings(entrants, [], round=1)
    games = [Game(1, p.first, p.second, 1.0) for p in r1]  # White wins everywhere
    winners = {p.first for p in r1}
    r2 = swiss_pairings(entrants, games, round=2)
    for p in r2:
        assert (p.first in winners) == (p.second in winners)


def test_same_input_same_pairing_whatever_the_order_of_the_rows() -> None:
    entrants = field_of(11)
    games = play(entrants, 4, random.Random(9), True)
    expected = swiss_pairings(entrants, games, round=5)
    rng = random.Random(5)
    for _ in range(5):
        shuffled_e, shuffled_g = list(entrants), list(games)
        rng.shuffle(shuffled_e)
        rng.shuffle(shuffled_g)
        assert swiss_pairings(shuffled_e, shuffled_g, round=5) == expected


def test_a_round_is_re_derived_from_earlier_rounds_only() -> None:
    entrants = field_of(6)
    games = play(entrants, 3, random.Random(1), True)
    round_3 = [g for g in games if g.round == 3]
    assert swiss_pairings(entrants, games, round=3) == [Pairing(g.first, g.second) for g in round_3]


def test_an_unfinished_earlier_round_is_refused() -> None:
    entrants = field_of(4)
    a, b, c, d = (x.id for x in entrants)
    games = [Game(1, a, c, 1.0), Game(1, d, b, None)]
    with pytest.raises(PairingError, match="no result"):
        swiss_pairings(entrants, games, round=2)


def test_bad_fields_are_refused() -> None:
    with pytest.raises(PairingError):
        swiss_pairings(field_of(1), [], round=1)
    with pytest.raises(PairingError):
        swiss_pairings(field_of(3) + field_of(1), [], round=1)
