"""The club's daily puzzle (issue #31): ``puzzle_dailies``, one row per club and day.

The row is the day's post: written in the transaction that queues the post (an outbox
row), so the unique ``guild_id, day`` is the idempotent key that keeps it to once a day
whatever runs the job (two processes, a restart); the unique ``guild_id, puzzle_id``
keeps a puzzle from being the club's daily twice. ``/puzzle`` reads today's row to
offer the day's puzzle first, and the next day's pick reads the last row's ``kind``
to alternate the games.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import BigInteger, ForeignKey, Integer, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from bot.db.models import Base, utcnow


class PuzzleDailyRecord(Base):
    __tablename__ = "puzzle_dailies"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    guild_id: Mapped[int] = mapped_column(ForeignKey("guilds.id"))
    day: Mapped[str] = mapped_column(String(10))  # the club's date, ISO (its time zone)
    puzzle_id: Mapped[int] = mapped_column(ForeignKey("puzzles.id", ondelete="CASCADE"))
    kind: Mapped[str] = mapped_column(String(16))  # the puzzle's game: scrabble, chess
    channel_id: Mapped[int] = mapped_column(BigInteger)
    posted_at: Mapped[datetime] = mapped_column(default=utcnow)

    __table_args__ = (
        UniqueConstraint("guild_id", "day", name="uq_puzzle_dailies_guild_id_day"),
        UniqueConstraint("guild_id", "puzzle_id", name="uq_puzzle_dailies_guild_id_puzzle_id"),
    )
