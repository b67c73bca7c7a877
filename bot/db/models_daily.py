"""The daily Boggle grid and members' achievements (issue #31).

``boggle_daily``: one grid per club and club day (midnight to midnight in the
club's time zone), made when the first member opens it; its dice seed comes from
the club and the day, so it is the same grid after a restart. ``open`` until the
day-end job scores it (``scored``).

``boggle_daily_plays``: one row per member who opened the day's grid: their own
countdown (``ends_at``, fixed the first time they open it) and their list, kept
as a round's submission is (every message as sent, the words so far).

``achievements``: one row per member, club and achievement, with the date it was
earned; the unique key makes "announced once" hold across restarts.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, BigInteger, ForeignKey, Index, Integer, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from bot.db.models import Base, utcnow
from bot.db.models_boggle import SubmissionEntry


class BoggleDailyRecord(Base):
    """A club's grid for one day."""

    __tablename__ = "boggle_daily"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    guild_id: Mapped[int] = mapped_column(ForeignKey("guilds.id"))
    day: Mapped[str] = mapped_column(String(10))  # "2026-03-08", the club's local date
    channel_id: Mapped[int] = mapped_column(BigInteger)  # where the day's results are posted
    status: Mapped[str] = mapped_column(String(16), default="open")  # open | scored
    size: Mapped[int] = mapped_column(Integer, default=4)
    dice: Mapped[str] = mapped_column(String(16))
    min_length: Mapped[int] = mapped_column(Integer, default=4)
    duration_s: Mapped[int] = mapped_column(Integer, default=180)
    seed: Mapped[int] = mapped_column(BigInteger)
    grid: Mapped[str] = mapped_column(String(200))
    lexicon: Mapped[str] = mapped_column(String(200))
    ends_at: Mapped[datetime] = mapped_column()  # the club's next midnight, UTC
    results: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    scored_at: Mapped[datetime | None] = mapped_column()

    __table_args__ = (UniqueConstraint("guild_id", "day", name="uq_boggle_daily_guild_id_day"),)


class BoggleDailyPlayRecord(Base):
    """A member's play of a day's grid: their countdown and their list."""

    __tablename__ = "boggle_daily_plays"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    daily_id: Mapped[int] = mapped_column(ForeignKey("boggle_daily.id", ondelete="CASCADE"))
    guild_id: Mapped[int] = mapped_column(BigInteger)
    day: Mapped[str] = mapped_column(String(10))
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"))
    opened_at: Mapped[datetime] = mapped_column()
    ends_at: Mapped[datetime] = mapped_column()  # the member's own countdown's end
    entries: Mapped[list[SubmissionEntry]] = mapped_column(JSON, default=list)
    words: Mapped[list[str]] = mapped_column(JSON, default=list)

    __table_args__ = (
        UniqueConstraint("daily_id", "player_id", name="uq_boggle_daily_plays_daily_id_player_id"),
        Index("ix_boggle_daily_plays_guild_player_day", "guild_id", "player_id", "day"),
        Index("ix_boggle_daily_plays_ends_at", "ends_at"),
    )


class AchievementRecord(Base):
    """An achievement a member earned in a club, once."""

    __tablename__ = "achievements"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    guild_id: Mapped[int] = mapped_column(BigInteger)
    player_id: Mapped[int] = mapped_column(BigInteger)
    code: Mapped[str] = mapped_column(String(32))  # "first_win", "streak_7", …
    earned_at: Mapped[datetime] = mapped_column()
    detail: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)

    __table_args__ = (
        UniqueConstraint(
            "guild_id", "player_id", "code", name="uq_achievements_guild_id_player_id_code"
        ),
    )
