"""Swiss pairings by maximum-weight matching.

Why a matching: a Swiss round is a choice among all ways to pair the field,
judged by a ranked list of criteria (no repeat pairing first, then score
groups, then colours ...). The Dutch system reaches its pairing by trying
transpositions and exchanges bracket by bracket, which is long and subtle
code. Encoding each
criterion as a weight and asking for the best *perfect* matching of the whole
field (Edmonds' blossom algorithm, ``networkx.max_weight_matching``, with
weights that make every maximum-weight matching a perfect one) finds the
pairing that is best on the first criterion, then on the second among those,
and so on - globally, not greedily - and always pairs everyone. Integer
weights keep the blossom algorithm exact.

The criteria, most important first (each one only breaks ties of the ones
before it):

1. no pair meets twice (only when every pairing of the field repeats one);
2. no second bye: an entrant who has had a bye, or won a game by forfeit, is
   not given the bye (FIDE C.04.1). Late in a long event the two can clash
   (seven entrants over six rounds can get there); then the repeat is
   avoided and the bye repeated;
3. chess colours: no pair whose two entrants both *must* have the same colour
   (a third Black or White in a row, or a colour difference beyond two);
4. the bye (odd fields) goes to the lowest-ranked eligible entrant: lowest
   score, then lowest in the ranking (score, then seed);
5. score groups: the sum of squared score differences of the pairs is as
   small as it can be (so entrants meet their own score group, and a floater
   meets the nearest group);
6. chess colours again: as few pairs as possible whose entrants have the same
   strong preference (a colour difference of one), then
7. the same mild preference (alternate from the last game);
8. nobody floats the same way two rounds running: an entrant who was paired
   down last round (or had the bye) is not paired down again, nor one paired
   up paired up again, where it can be helped (FIDE Dutch C.14-C.15);
9. within a score group the top half meets the bottom half (1 v 5, 2 v 6 ...
   of eight), and a floater meets the top of the group below.

Colours are then allocated board by board (FIDE C.04.3 section 5, simplified):
both preferences granted where they differ; otherwise the stronger preference
(absolute > strong > mild; between two absolutes the larger colour
difference); then alternation from the most recent round in which the two had
different colours; then the higher-ranked entrant's preference. With no
preference on either side (round 1) the higher-ranked entrant has White on odd
boards and Black on even ones. Without chess colours (Scrabble) criteria 3, 6
and 7 are left out and first seats are allocated the same way, so firsts and
seconds alternate and balance.

Forfeited games count as met (the pair is not paired again) but give neither
entrant a colour. ``entrants`` are those to pair this round (leave out the
withdrawn); ``games`` may hold every game of the event: only rounds before
``round`` are read, so the same inputs re-derive the same round after a
restart, and each of those games must have a result.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from engines.pairings._model import Entrant, Game, Pairing, PairingError
from engines.pairings.standings import points_table
from engines.text import N_

Colour = Literal["W", "B"]
# Preference strength: 3 absolute, 2 strong, 1 mild, 0 none.
ABSOLUTE, STRONG, MILD, NONE = 3, 2, 1, 0
# How an entrant floated in the last round: paired down (or the bye), paired up.
DOWN, UP = 1, -1


@dataclass(frozen=True, slots=True)
class ColourPreference:
    colour: Colour | None
    strength: int
    difference: int  # Whites minus Blacks


def colour_history(games: Sequence[Game], entrant: int) -> list[Colour]:
    """The colours ``entrant`` played, in round order (byes and forfeits give none)."""
    out: list[tuple[int, int, Colour]] = []
    for g in games:
        if g.second is None or g.forfeit or g.score is None:
            continue
        if g.first == entrant:
            out.append((g.round, g.replay, "W"))
        elif g.second == entrant:
            out.append((g.round, g.replay, "B"))
    out.sort(key=lambda t: (t[0], t[1]))
    return [c for _r, _p, c in out]


def colour_preference(history: Sequence[Colour]) -> ColourPreference:
    """FIDE's colour preference from a colour history (see the module)."""
    diff = sum(1 if c == "W" else -1 for c in history)
    last_two = tuple(history[-2:])
    if diff <= -2 or last_two == ("B", "B"):
        return ColourPreference("W", ABSOLUTE, diff)
    if diff >= 2 or last_two == ("W", "W"):
        return ColourPreference("B", ABSOLUTE, diff)
    if diff == -1:
        return ColourPreference("W", STRONG, diff)
    if diff == 1:
        return ColourPreference("B", STRONG, diff)
    if history:
        return ColourPreference("B" if history[-1] == "W" else "W", MILD, diff)
    return ColourPreference(None, NONE, diff)


def repeat_pairings(games: Sequence[Game], pairing: Pairing) -> bool:
    """Whether the two entrants of ``pairing`` have already met in ``games``
    (any round, forfeits included); a bye is never a repeat. For the director's
    warning when setting a pairing by hand."""
    if pairing.second is None:
        return False
    pair = {pairing.first, pairing.second}
    return any(g.second is not None and {g.first, g.second} == pair for g in games)


def swiss_pairings(
    entrants: Sequence[Entrant],
    games: Sequence[Game],
    *,
    round: int,
    colours: bool = True,
) -> list[Pairing]:
    """The pairings of Swiss round ``round``: boards from the top score down, the bye last.

    See the module for the criteria. Raises ``PairingError`` if an entrant is
    listed twice, fewer than two are given, or a game of an earlier round has
    no result.
    """
    if round < 1:
        raise PairingError(N_("Rounds are numbered from 1."))
    ids = [e.id for e in entrants]
    if len(set(ids)) != len(ids):
        raise PairingError(N_("An entrant is listed twice."))
    if len(ids) < 2:
        raise PairingError(N_("A Swiss round needs at least two entrants."))
    prior = [g for g in games if g.round < round]
    for g in prior:
        if g.second is not None and g.score is None:
            raise PairingError(
                N_("Round {round}: {first} v {second} has no result yet."),
                round=g.round,
                first=g.first,
                second=g.second,
            )

    points = points_table(prior)
    # Half points keep every score an integer.
    half = {e.id: round_half(points.get(e.id, 0.0)) for e in entrants}
    ranked = sorted(entrants, key=lambda e: (-half[e.id], e.seed, -e.rating, e.id))
    n = len(ranked)
    rank = {e.id: i for i, e in enumerate(ranked)}
    met: set[frozenset[int]] = {
        frozenset((g.first, g.second)) for g in prior if g.second is not None
    }
    had_bye = {g.first for g in prior if g.second is None}
    had_bye |= {
        w
        for g in prior
        if g.forfeit and g.second is not None and g.score in (0.0, 1.0)
        for w in ((g.first,) if g.score == 1.0 else (g.second,))
    }
    prefs = {e.id: colour_preference(colour_history(prior, e.id)) for e in ranked}
    # Score groups: position of each entrant in its group, and the group's size.
    group_size: dict[int, int] = {}
    for e in ranked:
        group_size[half[e.id]] = group_size.get(half[e.id], 0) + 1
    position: dict[int, int] = {}
    seen: dict[int, int] = {}
    for e in ranked:
        position[e.id] = seen.get(half[e.id], 0)
        seen[half[e.id]] = position[e.id] + 1

    floats = _last_floats(prior, round)
    bye_node = n if n % 2 else None
    edges: list[tuple[int, int, tuple[int, ...]]] = []
    for i in range(n):
        a = ranked[i].id
        for j in range(i + 1, n):
            b = ranked[j].id
            edges.append(
                (i, j, _pair_cost(a, b, half, met, prefs, group_size, position, floats, colours))
            )
        if bye_node is not None:
            edges.append((i, bye_node, _bye_cost(a, n, half, rank, had_bye)))

    matching = _solve(edges, nodes=n + (bye_node is not None), bye_node=bye_node)
    boards: list[tuple[int, int]] = []
    bye: int | None = None
    for u, v in matching:
        i, j = min(u, v), max(u, v)
        if j == bye_node:
            bye = ranked[i].id
        else:
            boards.append((i, j))
    if len(boards) * 2 + (bye is not None) != n:  # pragma: no cover - never on a complete graph
        raise PairingError(N_("No pairing found."))
    boards.sort(key=lambda ij: (-max(half[ranked[ij[0]].id], half[ranked[ij[1]].id]), ij[0]))
    out: list[Pairing] = []
    for board, (i, j) in enumerate(boards):
        hi, lo = ranked[i].id, ranked[j].id
        out.append(_allocate(hi, lo, board, prefs, prior))
    if bye is not None:
        out.append(Pairing(bye, None))
    return out


def round_half(points: float) -> int:
    """Points as a whole number of half points (2.5 -> 5)."""
    return int(points * 2 + 0.5) if points >= 0 else -int(-points * 2 + 0.5)


def _pair_cost(
    a: int,
    b: int,
    half: dict[int, int],
    met: set[frozenset[int]],
    prefs: dict[int, ColourPreference],
    group_size: dict[int, int],
    position: dict[int, int],
    floats: dict[int, int],
    colours: bool,
) -> tuple[int, ...]:
    """Cost levels 1-9 for pairing ``a`` (ranked higher) with ``b`` (see the module)."""
    repeat = int(frozenset((a, b)) in met)
    pa, pb = prefs[a], prefs[b]
    same = pa.colour is not None and pa.colour == pb.colour
    absolute = int(colours and same and pa.strength == ABSOLUTE and pb.strength == ABSOLUTE)
    strong = int(colours and same and pa.strength >= STRONG and pb.strength >= STRONG)
    mild = int(colours and same)
    diff = half[a] - half[b]
    again = 0
    if diff:
        upper, lower = (a, b) if diff > 0 else (b, a)
        again = int(floats.get(upper) == DOWN) + int(floats.get(lower) == UP)
    if diff == 0:
        size = group_size[half[a]]
        distance = abs(position[a] - position[b])
        order = abs(2 * distance - size)
    else:
        upper, lower = (a, b) if half[a] > half[b] else (b, a)
        order = (group_size[half[upper]] - 1 - position[upper]) + position[lower]
    return (repeat, 0, absolute, 0, diff * diff, strong, mild, again, order)


def _last_floats(prior: Sequence[Game], round: int) -> dict[int, int]:
    """Who floated down (``DOWN``, the bye included) or up (``UP``) in round ``round - 1``."""
    before = points_table([g for g in prior if g.round < round - 1])
    out: dict[int, int] = {}
    for g in prior:
        if g.round != round - 1:
            continue
        if g.second is None:
            out[g.first] = DOWN
            continue
        a, b = before.get(g.first, 0.0), before.get(g.second, 0.0)
        if a > b:
            out[g.first], out[g.second] = DOWN, UP
        elif b > a:
            out[g.first], out[g.second] = UP, DOWN
    return out


def _bye_cost(
    a: int, n: int, half: dict[int, int], rank: dict[int, int], had_bye: set[int]
) -> tuple[int, ...]:
    height = half[a] * n + (n - 1 - rank[a])
    return (0, int(a in had_bye), 0, height, 0, 0, 0, 0, 0)


def _solve(
    edges: list[tuple[int, int, tuple[int, ...]]], *, nodes: int, bye_node: int | None
) -> set[tuple[int, int]]:
    """The least-cost perfect matching, found on a pruned graph when that is provably the same.

    The blossom algorithm's time grows with the number of edges, and most
    edges of a large field join entrants far apart in score, which criterion 5
    (squared score differences) rules out anyway. So the field is first paired
    using only edges whose squared difference is at most ``band`` (and every
    bye edge). The result is certified optimal for the full field when it has
    no repeat, no second bye, no colour clash, the lowest possible bye, and a
    total of squared differences at most ``band``: any pairing using a left-out
    edge ties at best on criteria 1-4 and pays more than ``band`` on criterion
    5 for that edge alone. A result that is not certified is re-paired with
    the band widened to its own total (which then certifies), or, if criteria
    1-4 are not at their floor, on the full graph.
    """
    full = len(edges)
    band = 4  # one point of score difference, in squared half points
    best_bye = min((c[3] for u, v, c in edges if v == bye_node and c[1] == 0), default=0)
    for _attempt in range(3):
        kept = [e for e in edges if e[1] == bye_node or e[2][4] <= band]
        if len(kept) == full:
            break
        matching = _best_matching(kept, nodes=nodes)
        if len(matching) * 2 == nodes:
            totals = _totals(kept, matching)
            if totals[:3] != (0, 0, 0) or totals[3] != best_bye:
                break
            if totals[4] <= band:
                return matching
            band = totals[4]
        else:
            band *= 4
    return _best_matching(edges, nodes=nodes)


def _totals(
    edges: list[tuple[int, int, tuple[int, ...]]], matching: set[tuple[int, int]]
) -> tuple[int, ...]:
    chosen = {frozenset(m) for m in matching}
    levels = len(edges[0][2])
    total = [0] * levels
    for u, v, cost in edges:
        if frozenset((u, v)) in chosen:
            for k in range(levels):
                total[k] += cost[k]
    return tuple(total)


def _best_matching(
    edges: list[tuple[int, int, tuple[int, ...]]], *, nodes: int
) -> set[tuple[int, int]]:
    """The perfect matching of least lexicographic total cost.

    Each level's total over a perfect matching (``nodes / 2`` edges) is at most
    ``bound = max edge value x edges``, so weighting level k by the product of
    (bound + 1) of the levels after it makes a lower level never outweigh a
    higher one; the weight is a constant minus that cost, so a maximum-weight
    matching among the perfect ones is the least-cost one.
    """
    levels = len(edges[0][2])
    per_matching = nodes // 2
    scale = [1] * levels
    for k in range(levels - 2, -1, -1):
        bound = max(e[2][k + 1] for e in edges) * per_matching
        scale[k] = scale[k + 1] * (bound + 1)
    costs = [sum(c * s for c, s in zip(cost, scale, strict=True)) for _u, _v, cost in edges]
    # Every edge is worth more than any matching's whole cost, so one more pair
    # always wins: the maximum-weight matching is a maximum-cardinality one
    # (perfect on a complete graph), without the slower maxcardinality search.
    top = max(costs) * per_matching + 1
    # Imported here, not at the top: networkx is ~300 modules and 160+ ms, and
    # the bot imports this module at start although few clubs pair a Swiss round.
    import networkx as nx  # type: ignore[import-untyped]

    graph = nx.Graph()
    graph.add_nodes_from(range(nodes))
    for (u, v, _cost), c in zip(edges, costs, strict=True):
        graph.add_edge(u, v, weight=top - c)
    matched: set[tuple[int, int]] = nx.max_weight_matching(graph, maxcardinality=False)
    return matched


def _allocate(
    hi: int,
    lo: int,
    board: int,
    prefs: dict[int, ColourPreference],
    prior: Sequence[Game],
) -> Pairing:
    """Colours (or first seat) for one board; ``hi`` is the higher-ranked entrant."""
    ph, pl = prefs[hi], prefs[lo]
    white = _white(hi, lo, board, ph, pl, prior)
    return Pairing(white, lo if white == hi else hi)


def _white(
    hi: int,
    lo: int,
    board: int,
    ph: ColourPreference,
    pl: ColourPreference,
    prior: Sequence[Game],
) -> int:
    if ph.colour is None and pl.colour is None:
        return hi if board % 2 == 0 else lo
    if ph.colour is None:
        return lo if pl.colour == "W" else hi
    if pl.colour is None or ph.colour != pl.colour:
        return hi if ph.colour == "W" else lo
    # Both want the same colour.
    winner: int | None = None
    if ph.strength != pl.strength:
        winner = hi if ph.strength > pl.strength else lo
    elif ph.strength == ABSOLUTE and abs(ph.difference) != abs(pl.difference):
        winner = hi if abs(ph.difference) > abs(pl.difference) else lo
    else:
        hh, hl = colour_history(prior, hi), colour_history(prior, lo)
        for ch, cl in zip(reversed(hh), reversed(hl), strict=False):
            if ch != cl:
                # Alternate from the most recent round the two differed.
                return lo if ch == "W" else hi
        winner = hi
    wanted = ph.colour
    if winner == hi:
        return hi if wanted == "W" else lo
    return lo if wanted == "W" else hi
