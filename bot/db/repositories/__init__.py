"""Repositories: queries and writes on one session, one module per table family.
They never commit: the unit of work (``bot.db.uow``) does, and it carries one of
each as an attribute (``uow.games``, ``uow.jobs``, …), so services never see the
session."""

from bot.db.repositories.boggle import BoggleRepository
from bot.db.repositories.common import (
    MAX_ROW_ID,
    GameRepository,
    GuildRepository,
    MoveRepository,
    OutboxRepository,
    PlayerRepository,
    RatingRepository,
    ResultRepository,
    is_row_id,
)
from bot.db.repositories.henyo import HenyoRepository
from bot.db.repositories.jobs import JobRepository

__all__ = [
    "MAX_ROW_ID",
    "BoggleRepository",
    "GameRepository",
    "GuildRepository",
    "HenyoRepository",
    "JobRepository",
    "MoveRepository",
    "OutboxRepository",
    "PlayerRepository",
    "RatingRepository",
    "ResultRepository",
    "is_row_id",
]
