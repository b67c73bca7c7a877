"""The one call a chess or Scrabble game's finish makes: when the game is a
tournament's, a job (committed with the finish) tells the tournament, which then
records the result and, when the round is done, pairs the next one. A job, not a
direct call, so the game's transaction stays the game's and a restart between
the two loses nothing."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from bot.db.models import GameRecord
from bot.db.uow import UnitOfWork

JOB_GAME_FINISHED = "tournament.game_finished"
# A league's division (a tournament with ``league_season_id``) is over: the league
# looks whether its season is, in a job committed with the tournament's finish.
JOB_LEAGUE_DIVISION_FINISHED = "league.division_finished"


async def game_finished(uow: UnitOfWork, game: GameRecord, now: datetime) -> None:
    """When ``game`` is a tournament's, schedule the job that tells the tournament, in the game's
    own finishing transaction."""
    tournament_id = (game.options or {}).get("tournament_id")
    if tournament_id is None:
        return
    await uow.jobs.schedule(
        JOB_GAME_FINISHED,
        now,
        {"tournament_id": int(tournament_id), "game_id": game.id},
        key=f"tournament:game:{game.id}",
    )


async def tournament_finished(
    uow: UnitOfWork, options: dict[str, Any] | None, now: datetime
) -> None:
    """When a finished tournament is a league's division, schedule the job that tells the
    league, in the tournament's own finishing transaction."""
    season_id = (options or {}).get("league_season_id")
    if season_id is None:
        return
    await uow.jobs.schedule(
        JOB_LEAGUE_DIVISION_FINISHED,
        now,
        {"season_id": int(season_id)},
        key=f"league:division_finished:{int(season_id)}",
    )
