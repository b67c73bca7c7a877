"""The tournament's rows as the pure pairing engine sees them, and its answers.

Entrants are the engine's by their row id, seeded by their number; every stored
pairing with a result is a ``Game`` (a voided one is left out: it was never
played); a knockout match's replays are the same pair's later boards of one round.

A Swiss round is paired by the tournament's engine (``options["pairing"]``):
a chess Swiss by the FIDE Dutch system unless the director chose the club's
own engine, a Scrabble Swiss always by the club's engine. A round with no legal
Dutch pairing is paired by the club's engine instead, and the caller logs it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.compute.pairing import swiss_round
from bot.db.models_tournaments import (
    TournamentEntrantRecord,
    TournamentPairingRecord,
    TournamentRecord,
)
from bot.offload import offload
from bot.services.tournaments import options as opts
from engines.leagues import season_games
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
)

__all__ = [
    "Pairing",
    "RoundPairing",
    "Standing",
    "all_at_once",
    "already_met",
    "engine_entrants",
    "engine_games",
    "met_in",
    "next_pairings",
    "pairing_engine",
    "planned_rounds",
    "replays_due",
    "table",
]


def engine_entrants(entrants: Sequence[TournamentEntrantRecord]) -> list[Entrant]:
    """The entrants as the pairing engine takes them: row id, rating and seed."""
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
    """How many rounds the tournament plays with ``count`` entrants: a round robin's and a
    knockout's follow from it, a Swiss's were chosen."""
    if tournament.format == "round_robin":
        if all_at_once(tournament):
            return 1  # a league's division: every game of the table in one round
        return count - 1 + count % 2
    if tournament.format == "knockout":
        return knockout_rounds(count)
    return tournament.rounds


def all_at_once(tournament: TournamentRecord) -> bool:
    """Whether the tournament plays its whole round robin at once, as one round (a league's
    division: every game starts with the season, on its correspondence clock)."""
    return bool((tournament.options or {}).get("all_at_once"))


def pairing_engine(tournament: TournamentRecord) -> str:
    """The engine that pairs this Swiss: the director's choice, else Dutch for
    chess (games events' chess rounds and tournaments made before the choice
    existed too) and the club's engine for Scrabble."""
    if tournament.game_kind != "chess":
        return opts.CLUB_ENGINE
    chosen = (tournament.options or {}).get("pairing")
    return chosen if chosen in opts.PAIRING_ENGINES else opts.DUTCH


@dataclass(frozen=True)
class RoundPairing:
    """A round's boards, and whether the club's engine stood in for a Dutch
    pairing that does not exist (the director's log says so)."""

    boards: list[Pairing]
    fell_back: bool = False


async def next_pairings(
    tournament: TournamentRecord,
    entrants: Sequence[TournamentEntrantRecord],
    pairings: Sequence[TournamentPairingRecord],
    round_number: int,
) -> RoundPairing:
    """Round ``round_number``'s boards. Round robin keeps its table whoever withdrew
    (their games are forfeits); Swiss pairs only those still playing, in a worker
    process (``bot.offload``): a big field's pairing takes a second or more (the
    Dutch system on 64 entrants, the club's matching on 256) that the event loop
    spends serving everyone else. The rows are read here, in the loop."""
    games = engine_games(pairings)
    everyone = engine_entrants(entrants)
    if tournament.format == "round_robin" and all_at_once(tournament):
        return RoundPairing(season_games(everyone))
    if tournament.format == "round_robin":
        table = round_robin(everyone, colours=tournament.game_kind == "chess")
        return RoundPairing(table[round_number - 1])
    if tournament.format == "knockout":
        return RoundPairing(knockout_round(everyone, games, round=round_number))
    playing = engine_entrants([e for e in entrants if e.status == "playing"])
    chess = tournament.game_kind == "chess"
    boards, fell_back = await offload(
        swiss_round,
        playing,
        games,
        round_number,
        tournament.rounds,
        chess,
        pairing_engine(tournament) == opts.DUTCH,
    )
    return RoundPairing(boards, fell_back=fell_back)


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
    """Whether ``first`` and ``second`` have played each other in these pairings (a voided or
    forfeited game is no meeting)."""
    return repeat_pairings(engine_games(pairings), Pairing(first, second))


def met_in(pairings: Sequence[TournamentPairingRecord], first: int, second: int) -> int | None:
    """The latest round in which ``first`` and ``second`` played each other (a voided
    game was never played, a forfeited one is no meeting), or None."""
    if not already_met(pairings, first, second):
        return None
    pair = {first, second}
    rounds = [
        p.round
        for p in pairings
        if not p.void and not p.forfeit and {p.first_id, p.second_id} == pair
    ]
    return max(rounds) if rounds else None


def table(
    tournament: TournamentRecord,
    entrants: Sequence[TournamentEntrantRecord],
    pairings: Sequence[TournamentPairingRecord],
) -> list[Standing]:
    """The standings from the results so far, as the engine ranks them (a game still in play
    counts for nothing yet)."""
    games = [g for g in engine_games(pairings) if g.score is not None or g.second is None]
    kind: GameKind = "chess" if tournament.game_kind == "chess" else "scrabble"
    return standings(engine_entrants(entrants), games, game_kind=kind)
