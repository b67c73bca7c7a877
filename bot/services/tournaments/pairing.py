"""The tournament's rows as the pure pairing engine sees them, and its answers.

Entrants are the engine's by their row id, seeded by their number; every stored
pairing with a result is a ``Game`` (a voided one is left out: it was never
played); a knockout match's replays are the same pair's later boards of one round.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

from bot.db.models_tournaments import (
    TournamentEntrantRecord,
    TournamentPairingRecord,
    TournamentRecord,
)
from engines.pairings import (
    Entrant,
    Game,
    GameKind,
    Pairing,
    Standing,
    knockout_replay,
    knockout_round,
    knockout_rounds,
    knockout_winner,
    repeat_pairings,
    round_robin,
    standings,
    swiss_pairings,
)

__all__ = [
    "Pairing",
    "Standing",
    "already_met",
    "engine_entrants",
    "engine_games",
    "met_in",
    "next_pairings",
    "planned_rounds",
    "replays_due",
    "table",
]


def engine_entrants(entrants: Sequence[TournamentEntrantRecord]) -> list[Entrant]:
    return [Entrant(e.id, e.rating, e.number) for e in entrants]


def engine_games(pairings: Sequence[TournamentPairingRecord]) -> list[Game]:
    """Every pairing as a ``Game`` (no result yet: ``score`` None); voided ones left out."""
    games: list[Game] = []
    seen: dict[tuple[int, frozenset[int]], int] = {}
    for p in sorted(pairings, key=lambda p: (p.round, p.board)):
        if p.void:
            continue
        replay = 0
        if p.second_id is not None:
            key = (p.round, frozenset((p.first_id, p.second_id)))
            replay = seen.get(key, 0)
            seen[key] = replay + 1
        games.append(
            Game(
                round=p.round,
                first=p.first_id,
                second=p.second_id,
                score=p.score,
                spread=p.spread,
                forfeit=p.forfeit,
                replay=replay,
                scores=(p.first_total, p.second_total)
                if p.first_total is not None and p.second_total is not None
                else None,
            )
        )
    return games


def planned_rounds(tournament: TournamentRecord, count: int) -> int:
    if tournament.format == "round_robin":
        return count - 1 + count % 2
    if tournament.format == "knockout":
        return knockout_rounds(count)
    return tournament.rounds


async def next_pairings(
    tournament: TournamentRecord,
    entrants: Sequence[TournamentEntrantRecord],
    pairings: Sequence[TournamentPairingRecord],
    round_number: int,
) -> list[Pairing]:
    """Round ``round_number``'s boards. Round robin keeps its table whoever withdrew
    (their games are forfeits); Swiss pairs only those still playing, in a worker
    thread: a big field's matching takes seconds (256 entrants: 2-4 s) that the
    event loop spends serving everyone else. The rows are read here, in the loop."""
    games = engine_games(pairings)
    everyone = engine_entrants(entrants)
    if tournament.format == "round_robin":
        return round_robin(everyone, colours=tournament.game_kind == "chess")[round_number - 1]
    if tournament.format == "knockout":
        return knockout_round(everyone, games, round=round_number)
    playing = engine_entrants([e for e in entrants if e.status == "playing"])
    return await asyncio.to_thread(
        swiss_pairings, playing, games, round=round_number, colours=tournament.game_kind == "chess"
    )


def replays_due(pairings: Sequence[TournamentPairingRecord], round_number: int) -> list[Pairing]:
    """A knockout round's drawn matches: the next game of each (colours reversed)."""
    games = [g for g in engine_games(pairings) if g.round == round_number]
    matches: dict[frozenset[int], list[Game]] = {}
    for g in games:
        if g.second is not None:
            matches.setdefault(frozenset((g.first, g.second)), []).append(g)
    due = []
    for match in matches.values():
        if knockout_winner(match) is None:
            replay = knockout_replay(match)
            if replay is not None:
                due.append(replay)
    return due


def already_met(pairings: Sequence[TournamentPairingRecord], first: int, second: int) -> bool:
    return repeat_pairings(engine_games(pairings), Pairing(first, second))


def met_in(pairings: Sequence[TournamentPairingRecord], first: int, second: int) -> int | None:
    """The latest round in which ``first`` and ``second`` played each other (a voided
    game was never played), or None."""
    if not already_met(pairings, first, second):
        return None
    pair = {first, second}
    rounds = [p.round for p in pairings if not p.void and {p.first_id, p.second_id} == pair]
    return max(rounds) if rounds else None


def table(
    tournament: TournamentRecord,
    entrants: Sequence[TournamentEntrantRecord],
    pairings: Sequence[TournamentPairingRecord],
) -> list[Standing]:
    games = [g for g in engine_games(pairings) if g.score is not None or g.second is None]
    kind: GameKind = "chess" if tournament.game_kind == "chess" else "scrabble"
    return standings(engine_entrants(entrants), games, game_kind=kind)
