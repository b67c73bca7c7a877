"""The one call a Scrabble game's finish makes for puzzles: a job, committed with the
finish, that finds the game's puzzles later (off the event loop, outside the game's
transaction; one job per game, so finishing twice schedules it once)."""

from __future__ import annotations

from datetime import datetime

from bot.db.models import GameRecord
from bot.db.uow import UnitOfWork

JOB_FIND = "puzzles.game_finished"


def job_key(game_id: int) -> str:
    """The job of ``game_id``'s puzzles (one per game)."""
    return f"puzzles:game:{game_id}"


async def game_finished(uow: UnitOfWork, game: GameRecord, now: datetime) -> None:
    """Schedule the search for ``game``'s puzzles, in the game's finishing transaction."""
    await uow.jobs.schedule(
        JOB_FIND, now, {"game_id": game.id, "guild_id": game.guild_id}, key=job_key(game.id)
    )
