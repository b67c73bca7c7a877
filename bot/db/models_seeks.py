"""Open challenges (``/scrabble seek``, ``/chess seek``): one row per seek.

``open → taken | cancelled | expired``. The first member to accept takes it with a
compare-and-set on ``version``, in the transaction that makes the game, so two
accepts at once make one game.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import BigInteger, ForeignKey, Index, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from bot.db.models import Base, utcnow


class SeekRecord(Base):
    __tablename__ = "seeks"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    guild_id: Mapped[int] = mapped_column(ForeignKey("guilds.id"))
    channel_id: Mapped[int] = mapped_column(BigInteger)
    kind: Mapped[str] = mapped_column(String(16))  # scrabble | chess
    user_id: Mapped[int] = mapped_column(ForeignKey("players.id"))
    # The game's options as the seeker chose them (a chess time control and colour,
    # a Scrabble clock, deadline and word list), read again when it is accepted.
    options: Mapped[dict[str, Any]] = mapped_column(default=dict)
    status: Mapped[str] = mapped_column(String(16), default="open")
    message_id: Mapped[int | None] = mapped_column(BigInteger)
    taken_by: Mapped[int | None] = mapped_column(BigInteger)
    game_id: Mapped[int | None] = mapped_column(Integer)
    version: Mapped[int] = mapped_column(Integer, default=1)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    expires_at: Mapped[datetime] = mapped_column()

    __table_args__ = (Index("ix_seeks_guild_id_user_id_status", "guild_id", "user_id", "status"),)
