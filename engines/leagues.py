"""Leagues (RULES.md "Leagues"): divisions placed by rating, a season's games, promotion
and relegation.

Pure: standard library and ``engines.pairings`` only.

* ``division_sizes``: how a season's entrants split into divisions of the set size,
  none below ``MIN_DIVISION``.
* ``season_games``: a division's round robin (``engines.pairings.round_robin``'s
  Berger table), every round at once: each pair meets once, chess colours and
  Scrabble first moves balanced to within one.
* ``movements``: where each member of a finished season goes: the top ``movers``
  of each division up one, the bottom ``movers`` down one, the rest stay.
* ``place``: the next season's divisions: the members who stay in the order of
  their tiers, newcomers placed among them by rating.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engines.pairings import Entrant, Pairing, round_robin
from engines.text import N_, TextError

MIN_DIVISION = 4
MAX_DIVISION = 10


class LeagueError(TextError):
    """A league input the engine refuses (too few entrants, a size out of range)."""


def division_sizes(count: int, size: int) -> list[int]:
    """The sizes of the divisions ``count`` entrants make with divisions of ``size``,
    top division first.

    As many divisions as it takes to keep each at most ``size`` (``ceil(count / size)``),
    the entrants shared as evenly as possible, the higher divisions one larger when it
    does not divide: 14 entrants in divisions of 6 make 5, 5 and 4. When that would
    leave a division below ``MIN_DIVISION`` (11 in divisions of 5 would be 4, 4, 3), one
    division fewer is made, each a little over the size (6 and 5): no division is ever
    below four.
    """
    if not MIN_DIVISION <= size <= MAX_DIVISION:
        raise LeagueError(
            N_("A division has {low} to {high} players."), low=MIN_DIVISION, high=MAX_DIVISION
        )
    if count < MIN_DIVISION:
        raise LeagueError(
            N_("A league season needs at least {low} entrants; it has {count}."),
            low=MIN_DIVISION,
            count=count,
        )
    k = -(-count // size)
    if count // k < MIN_DIVISION:
        k = max(1, count // MIN_DIVISION)
    base, extra = divmod(count, k)
    return [base + (1 if i < extra else 0) for i in range(k)]


def season_games(entrants: Sequence[Entrant]) -> list[Pairing]:
    """Every game of a division's round robin, all at once (no byes): the Berger table's
    rounds one after the other, so ``first`` (White, or who moves first) is balanced."""
    return [p for rnd in round_robin(entrants) for p in rnd if p.second is not None]


@dataclass(frozen=True, slots=True)
class Finish:
    """A member's (or pair's) place at a season's end: their division (0 = the top) and
    rank in it (1 = first), and whether they left during the season."""

    id: int
    division: int
    rank: int
    withdrawn: bool = False


@dataclass(frozen=True, slots=True)
class Movement:
    """Where a member goes next season: ``tier`` (0 = the top division) and ``move``:
    +1 promoted, -1 relegated, 0 stayed."""

    id: int
    tier: int
    move: int
    came_from: int
    rank: int


def movements(finishes: Sequence[Finish], movers: int) -> list[Movement]:
    """The top ``movers`` of each division below the top go up one, the bottom ``movers``
    of each division above the bottom go down one (at most half a division each way);
    everyone else stays. Members who withdrew are left out (they left the league), and
    the moves count among those who stay: a division whose last withdrew still sends
    its last who stays down.
    Ordered by the next season's ladder: tier, then those relegated into it first,
    then those who stayed, then those promoted into it, each by rank."""
    if movers < 0:
        raise LeagueError(N_("The number promoted and relegated cannot be negative."))
    divisions = 1 + max((f.division for f in finishes), default=-1)
    by_division: dict[int, list[Finish]] = {}
    for f in finishes:
        by_division.setdefault(f.division, []).append(f)
    out: list[Movement] = []
    for d, members in by_division.items():
        ranked = sorted((f for f in members if not f.withdrawn), key=lambda f: (f.rank, f.id))
        n = min(movers, len(ranked) // 2)
        for i, f in enumerate(ranked):
            move = 0
            if d > 0 and i < n:
                move = 1
            elif d < divisions - 1 and i >= len(ranked) - n:
                move = -1
            out.append(Movement(f.id, d - move, move, d, f.rank))
    out.sort(key=lambda m: (m.tier, m.move, m.rank, m.id))
    return out


@dataclass(frozen=True, slots=True)
class Newcomer:
    """A member new to the league this season, with the rating that places them."""

    id: int
    rating: float


def place(
    returning: Sequence[tuple[Movement, float]],
    newcomers: Sequence[Newcomer],
    size: int,
) -> list[list[int]]:
    """The season's divisions, top first, as lists of ids in ladder order.

    ``returning``: the members who stay, each with their tier (``movements``) and rating;
    ``newcomers``: strongest first, each goes to the end of the first tier whose weakest
    returning member's rating is no higher than theirs (else the bottom tier). When
    every tier then holds from ``MIN_DIVISION`` to ``size`` entrants, the tiers are the
    divisions, so each promotion and relegation stands as it was; otherwise (members
    left or came, so a tier is too small or too big) the ladder, in the same order,
    is cut by ``division_sizes``: a full tier pushes its last into the next division.
    A first season (nobody returning) is simply the newcomers by rating.
    """
    tiers: dict[int, list[tuple[int, float]]] = {}
    for m, rating in sorted(returning, key=lambda r: (r[0].tier, r[0].move, r[0].rank, r[0].id)):
        tiers.setdefault(m.tier, []).append((m.id, rating))
    order = sorted(tiers)
    ladders = [list(tiers[t]) for t in order]
    floors = [min(r for _i, r in ladder) for ladder in ladders]
    if not ladders:
        ladders, floors = [[]], [float("-inf")]
    for n in sorted(newcomers, key=lambda n: (-n.rating, n.id)):
        index = next((i for i, floor in enumerate(floors) if n.rating >= floor), len(ladders) - 1)
        ladders[index].append((n.id, n.rating))
    if returning and all(MIN_DIVISION <= len(tier) <= size for tier in ladders):
        return [[i for i, _r in tier] for tier in ladders]  # the moves stand as they are
    ladder = [i for tier in ladders for i, _r in tier]
    out: list[list[int]] = []
    start = 0
    for s in division_sizes(len(ladder), size):
        out.append(ladder[start : start + s])
        start += s
    return out
