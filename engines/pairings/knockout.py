"""Knockout: a seeded bracket, winners move on, drawn games are replayed.

Round 1 pairs by seed in the standard bracket (for eight: 1-8, 4-5, 2-7,
3-6, so the top two seeds can meet only in the final). When the number of
entrants is not a power of two the bracket is filled to the next one with byes,
which fall to the top seeds (seed ``s`` meets bracket number ``P + 1 - s``,
and a number above the count is a bye). Each later round pairs the winners of
neighbouring matches.

The RULES.md tie rule: a drawn chess game is replayed with colours reversed,
or decided by a faster game. A match is the list of its games in one round,
numbered by ``Game.replay`` (0 the game itself, 1 the first replay, ...).
``knockout_winner`` reads the first decisive game (a forfeit decides too);
``knockout_replay`` gives the next game's pairing, colours reversed from the
last one (the director's choice of a faster time control is the service's,
the pairing is the same). A tied Scrabble game is settled the same way.
"""

from __future__ import annotations

from collections.abc import Sequence

from engines.pairings._model import Entrant, Game, Pairing, PairingError
from engines.text import N_


def bracket_order(size: int) -> list[int]:
    """Seed numbers in bracket order for ``size`` (a power of two): 8 -> 1 8 4 5 2 7 3 6."""
    if size < 1 or size & (size - 1):
        raise PairingError(N_("A bracket size is a power of two."))
    order = [1]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [s for seed in order for s in (seed, total - seed)]
    return order


def knockout_rounds(count: int) -> int:
    """How many rounds a knockout of ``count`` entrants takes (8 -> 3, 6 -> 3, 2 -> 1)."""
    if count < 2:
        raise PairingError(N_("A knockout needs at least two entrants."))
    return (count - 1).bit_length()


def knockout_winner(games: Sequence[Game]) -> int | None:
    """The winner of one knockout match from its games, or ``None`` while undecided.

    ``games`` are the match's games (one round, one pair) in any order; they are
    read by ``replay`` number. A bye goes through. The first game with a
    decisive result (or a forfeit) decides; a draw (0.5) passes to the next
    replay; a game not played yet, or a draw with no replay after it, leaves
    the match undecided (``knockout_replay`` then says what to play next).
    """
    for game in sorted(games, key=lambda g: g.replay):
        if game.second is None:
            return game.first
        if game.score is None:
            return None
        if game.score == 1.0:
            return game.first
        if game.score == 0.0:
            return game.second
    return None


def knockout_replay(games: Sequence[Game]) -> Pairing | None:
    """The pairing of the next replay of a drawn match, or ``None`` if none is due.

    ``None`` when the match is decided or its last game is not played yet;
    otherwise the last game's players with colours reversed. Store it as a
    ``Game`` with the same round and ``replay`` one more than the last.
    """
    if not games or knockout_winner(games) is not None:
        return None
    last = max(games, key=lambda g: g.replay)
    if last.score is None or last.second is None:
        return None
    return Pairing(last.second, last.first)


def knockout_round(
    entrants: Sequence[Entrant], games: Sequence[Game], *, round: int
) -> list[Pairing]:
    """The matches of knockout round ``round`` in bracket order.

    Round 1 is seeded (see the module). A later round needs every match of the
    round before it decided (``PairingError`` names the first that is not) and
    pairs the winners of matches 1 and 2, 3 and 4, ...; there the entrant with
    fewer Whites net of Blacks so far plays White, the higher seed when equal. A
    round after the final raises ``PairingError``.
    """
    ordered = sorted(entrants, key=lambda e: (e.seed, -e.rating, e.id))
    if len({e.id for e in ordered}) != len(ordered):
        raise PairingError(N_("An entrant is listed twice."))
    total = knockout_rounds(len(ordered))
    if round < 1 or round > total:
        raise PairingError(
            N_("A knockout of {count} entrants has rounds 1 to {rounds}."),
            count=len(ordered),
            rounds=total,
        )
    size = 1 << total
    if round == 1:
        out = []
        order = bracket_order(size)
        for i in range(0, size, 2):
            top, bottom = order[i], order[i + 1]
            first = ordered[top - 1].id
            second = ordered[bottom - 1].id if bottom <= len(ordered) else None
            out.append(Pairing(first, second))
        return out
    previous = knockout_round(entrants, games, round=round - 1)
    winners: list[int] = []
    for match in previous:
        if match.second is None:
            winners.append(match.first)
            continue
        pair = {match.first, match.second}
        played = [
            g
            for g in games
            if g.round == round - 1 and g.second is not None and {g.first, g.second} == pair
        ]
        winner = knockout_winner(played)
        if winner is None:
            raise PairingError(
                N_("Round {round}: the match of {first} and {second} is not decided."),
                round=round - 1,
                first=match.first,
                second=match.second,
            )
        winners.append(winner)
    rank = {e.id: i for i, e in enumerate(ordered)}
    balance: dict[int, int] = {}  # Whites minus Blacks over the games played so far
    for g in games:
        if g.second is not None and not g.forfeit and g.score is not None and g.round < round:
            balance[g.first] = balance.get(g.first, 0) + 1
            balance[g.second] = balance.get(g.second, 0) - 1
    out = []
    for a, b in zip(winners[0::2], winners[1::2], strict=True):
        hi, lo = (a, b) if rank[a] < rank[b] else (b, a)
        if balance.get(lo, 0) < balance.get(hi, 0):
            hi, lo = lo, hi
        out.append(Pairing(hi, lo))
    return out
