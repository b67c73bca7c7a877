"""Agreed game times and the server's scheduled events (issue #30).

``time_proposals``: a player of a league or tournament game on a long clock
proposes up to three times (``open``); an opponent accepts one (``accepted``,
``agreed_at`` set); a later proposal for the same game makes the open one
``replaced`` (and, once accepted, the earlier agreed time too).

``guild_events``: what the server's scheduled event of a club session, a
tournament round or a league season should be (``scheduled`` or ``removed``),
and Discord's id for it once made. ``version`` moves on with every change and
``synced_version`` is the one Discord was last told, by the sync job.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import BigInteger, ForeignKey, Index, Integer, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from bot.db.models import Base, utcnow


class TimeProposalRecord(Base):
    __tablename__ = "time_proposals"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    proposer_id: Mapped[int] = mapped_column(BigInteger)
    # The proposed times, UTC ISO strings, in the order given.
    times: Mapped[list[Any]] = mapped_column(default=list)
    status: Mapped[str] = mapped_column(String(16), default="open")
    agreed_at: Mapped[datetime | None] = mapped_column()
    accepted_by: Mapped[int | None] = mapped_column(BigInteger)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    decided_at: Mapped[datetime | None] = mapped_column()

    __table_args__ = (Index("ix_time_proposals_game_id_status", "game_id", "status"),)


class GuildEventRecord(Base):
    __tablename__ = "guild_events"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    guild_id: Mapped[int] = mapped_column(BigInteger)
    owner_kind: Mapped[str] = mapped_column(
        String(24)
    )  # session | tournament_round | league_season
    owner_id: Mapped[int] = mapped_column(Integer)
    name: Mapped[str] = mapped_column(String(100))
    channel_id: Mapped[int | None] = mapped_column(BigInteger)  # its location: this channel
    location: Mapped[str] = mapped_column(String(100), default="")  # or this place
    starts_at: Mapped[datetime] = mapped_column()
    ends_at: Mapped[datetime] = mapped_column()
    status: Mapped[str] = mapped_column(String(16), default="scheduled")
    discord_id: Mapped[int | None] = mapped_column(BigInteger)
    version: Mapped[int] = mapped_column(Integer, default=1)
    synced_version: Mapped[int] = mapped_column(Integer, default=0)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow)

    __table_args__ = (
        UniqueConstraint("owner_kind", "owner_id", name="uq_guild_events_owner_kind_owner_id"),
    )
