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

The ranking is score, then seed. A *topscorer* is, in the last round only
(``rounds`` given and ``round >= rounds``), an entrant with more than half of
the maximum possible score so far (more than ``(round - 1) / 2`` points; FIDE
C.04.3 A.7). The criteria, most important first (each one only breaks ties of
the ones before it):

1. no pair meets twice (only when every pairing of the field repeats one); a
   forfeited game is no meeting (RULES.md: "no pair meets twice, a forfeit
   aside"), so its two entrants may be paired again;
2. no second bye: an entrant who has had a bye, or won a game by forfeit, is
   not given the bye (FIDE C.04.1). Late in a long event the two can clash
   (seven entrants over six rounds can get there); then the repeat is
   avoided and the bye repeated;
3. chess colours: no pair whose two entrants both *must* have the same colour
   (a third Black or White in a row, or a colour difference beyond two),
   unless one of them is a topscorer (the last-round exception, FIDE C.04.3
   C.3): such a pair is allowed, and criteria 6-7 count what it costs;
4. the bye (odd fields) goes to the lowest-ranked eligible entrant: lowest
   score, then lowest in the ranking - never to a leader when a lower entrant
   can take it within criteria 1-3;
5. score groups: the sum of squared score differences of the pairs is as
   small as it can be (so entrants meet their own score group, and a floater
   meets the nearest group);
6. last round: as few topscorers or topscorers' opponents as possible get a
   colour difference beyond two (FIDE C.04.3 C.10), then
7. the same colour three times in a row (C.11);
8. chess colours again: as few pairs as possible whose entrants have the same
   strong preference (a colour difference of one), then
9. the same mild preference (alternate from the last game);
10. nobody floats the same way two rounds running: an entrant who was paired
    down last round (or had the bye) is not paired down again, nor one paired
    up paired up again, where it can be helped (FIDE Dutch C.14-C.15);
11. within a score group the top half meets the bottom half. Each group is a
    bracket as the Dutch system forms it: when the group above has an odd
    number left, its lowest entrant floats down and meets this group's top
    entrant; the rest of the group (its *remainder*) is split in halves, the
    top half its first ``size // 2`` (with an odd remainder its lowest entrant
    floats on, or takes the bye). As few pairs as possible lie within one
    half (nor keep the top entrant from the floater it awaits);
12. then the pairs are as near the fold as possible (1 v 5, 2 v 6, 3 v 7,
    4 v 8 of eight; 1 v 4, 2 v 5, 3 v 6 of six): the sum over pairs of how
    far the lower entrant stands from the higher one's fold partner (1 v 6
    of eight costs 1, 1 v 7 costs 2); a floater costs how far it stands from
    the bottom of its group plus how far its opponent stands from the top of
    the group below;
13. then, among equal totals, the distances of the higher boards weigh more
    (each weighted by how high the pair's higher entrant stands in its
    remainder): of six whose fold is all repeats, 1 v 5, 2 v 6, 3 v 4 rather
    than 1 v 6, 2 v 4, 3 v 5, as Dutch transpositions order them.

So, other criteria equal, a score group of 2k is paired by the classic fold
1-(k+1), 2-(k+2), ..., and each step away from it costs by its distance.

Colours are then allocated board by board (FIDE C.04.3 section 5, simplified):
both preferences granted where they differ; otherwise the stronger preference
(absolute > strong > mild; between two absolutes - a topscorer's pair in the
last round - the larger colour difference); then alternation from the most
recent round in which the two had different colours; then the higher-ranked
entrant's preference. With no preference on either side (round 1) the
higher-ranked entrant has White on odd boards and Black on even ones. Without
chess colours (Scrabble) criteria 3 and 6-9 are left out and first seats are
allocated the same way, so firsts and seconds alternate and balance.

Forfeited games score (standings count them) but are no meeting (criterion 1)
and give neither entrant a colour; a forfeit win bars the bye as a bye does.
A bye is never a forfeit. ``entrants`` are those to pair this round (leave
out the withdrawn); ``games`` may hold every game of the event: only rounds
before ``round`` are read, so the same inputs re-derive the same round after a
restart, and each of those games must have a result.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from engines.pairings._model import Entrant, Game, Pairing, PairingError, checked_history
from engines.pairings.standings import points_table
from engines.text import N_

Colour = Literal["W", "B"]
# Preference strength: 3 absolute, 2 strong, 1 mild, 0 none.
ABSOLUTE, STRONG, MILD, NONE = 3, 2, 1, 0
# How an entrant floated in the last round: paired down (or the bye), paired up.
DOWN, UP = 1, -1


@dataclass(frozen=True, slots=True)
class ColourPreference:
    """An entrant's colour preference in FIDE's terms: the colour it is due, how strongly,
    and its Whites minus Blacks."""

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
    (any round). A forfeited game is no meeting and a bye is never a repeat.
    For the director's warning when setting a pairing by hand."""
    if pairing.second is None:
        return False
    pair = {pairing.first, pairing.second}
    return any(
        g.second is not None and not g.forfeit and {g.first, g.second} == pair for g in games
    )


@dataclass(frozen=True, slots=True)
class _Slot:
    """Where an entrant stands in its score group, seen as a Dutch bracket."""

    group: int  # the group's score, in half points
    position: int  # 0 = the group's top entrant
    size: int  # entrants in the group
    incoming: int  # 1 when the group above is expected to float one down into it


@dataclass(frozen=True, slots=True)
class _Field:
    """What the cost of a pair needs to know about the field (see the module)."""

    half: dict[int, int]
    met: set[frozenset[int]]
    prefs: dict[int, ColourPreference]
    history: dict[int, list[Colour]]
    slots: dict[int, _Slot]
    floats: dict[int, int]
    topscorers: frozenset[int]
    colours: bool


def swiss_pairings(
    entrants: Sequence[Entrant],
    games: Sequence[Game],
    *,
    round: int,
    rounds: int | None = None,
    colours: bool = True,
) -> list[Pairing]:
    """The pairings of Swiss round ``round``: boards from the top score down, the bye last.

    ``rounds`` is the planned number of rounds: round ``rounds`` is the last,
    where the topscorer exception applies (``None``: not known, no exception).
    See the module for the criteria. Raises ``PairingError`` if an entrant is
    listed twice, fewer than two are given, or a game of an earlier round has
    no result.
    """
    if rounds is not None and rounds < 1:
        raise PairingError(N_("Rounds are numbered from 1."))
    prior = checked_history(entrants, games, round)

    points = points_table(prior)
    # Half points keep every score an integer.
    half = {e.id: round_half(points.get(e.id, 0.0)) for e in entrants}
    ranked = sorted(entrants, key=lambda e: (-half[e.id], e.seed, -e.rating, e.id))
    n = len(ranked)
    rank = {e.id: i for i, e in enumerate(ranked)}
    # A forfeited game is no meeting: the two may be paired again.
    met: set[frozenset[int]] = {
        frozenset((g.first, g.second)) for g in prior if g.second is not None and not g.forfeit
    }
    had_bye = {g.first for g in prior if g.second is None}
    had_bye |= {
        w
        for g in prior
        if g.forfeit and g.second is not None and g.score in (0.0, 1.0)
        for w in ((g.first,) if g.score == 1.0 else (g.second,))
    }
    history = {e.id: colour_history(prior, e.id) for e in ranked}
    last = rounds is not None and round >= rounds
    field = _Field(
        half=half,
        met=met,
        prefs={e.id: colour_preference(history[e.id]) for e in ranked},
        history=history,
        slots=_slots([e.id for e in ranked], half),
        floats=_last_floats(prior, round),
        # More than half of the maximum possible score so far (round - 1 points).
        topscorers=frozenset(e.id for e in ranked if last and half[e.id] > round - 1),
        colours=colours,
    )
    bye_node = n if n % 2 else None
    edges: list[tuple[int, int, tuple[int, ...]]] = []
    for i in range(n):
        a = ranked[i].id
        for j in range(i + 1, n):
            edges.append((i, j, _pair_cost(a, ranked[j].id, field)))
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
        out.append(_allocate(hi, lo, board, field.prefs, history))
    if bye is not None:
        out.append(Pairing(bye, None))
    return out


def round_half(points: float) -> int:
    """Points as a whole number of half points (2.5 -> 5)."""
    return int(points * 2 + 0.5) if points >= 0 else -int(-points * 2 + 0.5)


def _slots(ranked: Sequence[int], half: dict[int, int]) -> dict[int, _Slot]:
    """Each entrant's place in its score group, and which groups expect a floater
    from above: with no other criterion in the way, a group left with an odd
    number floats its lowest entrant down into the next group."""
    groups: list[list[int]] = []
    for e in ranked:
        if groups and half[groups[-1][0]] == half[e]:
            groups[-1].append(e)
        else:
            groups.append([e])
    out: dict[int, _Slot] = {}
    carry = 0
    for members in groups:
        incoming = min(carry, len(members))
        for p, e in enumerate(members):
            out[e] = _Slot(half[e], p, len(members), incoming)
        carry = (len(members) - incoming) % 2
    return out


def _pair_cost(a: int, b: int, field: _Field) -> tuple[int, ...]:
    """Cost levels 1-13 for pairing ``a`` (ranked higher) with ``b`` (see the module)."""
    repeat = int(frozenset((a, b)) in field.met)
    pa, pb = field.prefs[a], field.prefs[b]
    same = field.colours and pa.colour is not None and pa.colour == pb.colour
    absolute = top_difference = top_three = 0
    if same and pa.strength == ABSOLUTE and pb.strength == ABSOLUTE:
        if a in field.topscorers or b in field.topscorers:
            # The last-round exception: allowed, at the cost of the one who yields.
            top_difference, top_three = _yield_faults(a, b, field)
        else:
            absolute = 1
    strong = int(same and pa.strength >= STRONG and pb.strength >= STRONG)
    mild = int(same)
    diff = field.half[a] - field.half[b]
    again = 0
    if diff:
        upper, lower = (a, b) if diff > 0 else (b, a)
        again = int(field.floats.get(upper) == DOWN) + int(field.floats.get(lower) == UP)
    halves, distance, weighted = _fold_cost(field.slots[a], field.slots[b])
    return (
        repeat,
        0,
        absolute,
        0,
        diff * diff,
        top_difference,
        top_three,
        strong,
        mild,
        again,
        halves,
        distance,
        weighted,
    )


def _yield_faults(a: int, b: int, field: _Field) -> tuple[int, int]:
    """For two who must both have the same colour: whether the one the colour
    allocation denies it gets a colour difference beyond two, and a third same
    colour in a row."""
    wanted = field.prefs[a].colour
    white = _white(a, b, 0, field.prefs[a], field.prefs[b], field.history)
    granted = a if (white == a) == (wanted == "W") else b
    loser = b if granted == a else a
    after = [*field.history[loser], "B" if wanted == "W" else "W"]
    difference = sum(1 if c == "W" else -1 for c in after)
    three = len(after) >= 3 and len(set(after[-3:])) == 1
    return int(abs(difference) > 2), int(three)


def _fold_cost(sa: _Slot, sb: _Slot) -> tuple[int, int, int]:
    """Criteria 11-13 for a pair (``sa`` ranked higher): within one half, the
    distance from the fold, the distance weighted towards the top boards."""
    if sa.group != sb.group:
        # A floater: from the bottom of its group to the top of the one below.
        return 0, (sa.size - 1 - sa.position) + sb.position, 0
    if sa.position < sa.incoming:
        # The top entrant awaits the floater from above: kept from it, it costs.
        return 1, sb.position, 0
    remainder = sa.size - sa.incoming
    p, q = sa.position - sa.incoming, sb.position - sa.incoming
    k = remainder // 2
    within = int(q < k or p >= k)
    distance = abs(q - p - k)
    return within, distance, distance * (remainder - p)


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
    return (0, int(a in had_bye), 0, height, 0, 0, 0, 0, 0, 0, 0, 0, 0)


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
    history: dict[int, list[Colour]],
) -> Pairing:
    """Colours (or first seat) for one board; ``hi`` is the higher-ranked entrant."""
    white = _white(hi, lo, board, prefs[hi], prefs[lo], history)
    return Pairing(white, lo if white == hi else hi)


def _white(
    hi: int,
    lo: int,
    board: int,
    ph: ColourPreference,
    pl: ColourPreference,
    history: dict[int, list[Colour]],
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
        for ch, cl in zip(reversed(history[hi]), reversed(history[lo]), strict=False):
            if ch != cl:
                # Alternate from the most recent round the two differed.
                return lo if ch == "W" else hi
        winner = hi
    wanted = ph.colour
    if winner == hi:
        return hi if wanted == "W" else lo
    return lo if wanted == "W" else hi
