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
    PlayerRepository,
    is_row_id,
)
from bot.db.repositories.dm_channels import DmChannelRepository
from bot.db.repositories.henyo import HenyoRepository
from bot.db.repositories.jobs import JobRepository
from bot.db.repositories.leaderboard import LeaderboardRepository
from bot.db.repositories.outbox import OutboxRepository, OutboxRow
from bot.db.repositories.results import RatingRepository, ResultRepository

__all__ = [
    "MAX_ROW_ID",
    "BoggleRepository",
    "DmChannelRepository",
    "GameRepository",
    "GuildRepository",
    "HenyoRepository",
    "JobRepository",
    "LeaderboardRepository",
    "MoveRepository",
    "OutboxRepository",
    "OutboxRow",
    "PlayerRepository",
    "RatingRepository",
    "ResultRepository",
    "is_row_id",
]
