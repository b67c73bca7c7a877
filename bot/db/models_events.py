"""Games events (the library's "Play games and win prizes"): the event, one round
per game it holds, and the prize lines the host writes.

Registration is the club's one sign-up list (``signup_lists`` with owner_kind
'event'). A game's round is one row, unique per event and game, written in the
same transaction as what it plays (a Henyo event of the pairs, a Boggle round, a
tournament), so two hosts starting the same round at once start it once.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import BigInteger, ForeignKey, Index, Integer, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from bot.db.models import Base, utcnow


class GamesEventRecord(Base):
    """``open → closed``. ``games``: the games it holds, in the host's order."""

    __tablename__ = "games_events"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    guild_id: Mapped[int] = mapped_column(ForeignKey("guilds.id"))
    channel_id: Mapped[int] = mapped_column(BigInteger)
    host_id: Mapped[int] = mapped_column(BigInteger)
    name: Mapped[str] = mapped_column(String(100), default="")
    games: Mapped[list[Any]] = mapped_column(default=list)
    pairs: Mapped[int] = mapped_column(Integer, default=5)
    status: Mapped[str] = mapped_column(String(16), default="open")
    version: Mapped[int] = mapped_column(Integer, default=1)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    closed_at: Mapped[datetime | None] = mapped_column()
    # The sign-up card in the channel, edited when registration closes and at the end.
    card_message_id: Mapped[int | None] = mapped_column(BigInteger)

    __table_args__ = (
        Index("ix_games_events_guild_status", "guild_id", "status"),
        Index("ix_games_events_channel_status", "channel_id", "status"),
    )


class GamesEventRoundRecord(Base):
    """One game's round of an event. ``ref_id``: the Henyo event, the Boggle round or
    the tournament that plays it; ``pairs``: the event's pairs as they were at its
    start, ``[[user_id, partner_id], ...]`` in place order."""

    __tablename__ = "games_event_rounds"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    event_id: Mapped[int] = mapped_column(ForeignKey("games_events.id", ondelete="CASCADE"))
    game: Mapped[str] = mapped_column(String(16))  # henyo | boggle | scrabble | chess
    ref_id: Mapped[int] = mapped_column(Integer)
    pairs: Mapped[list[Any]] = mapped_column(default=list)
    started_by: Mapped[int] = mapped_column(BigInteger)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)

    __table_args__ = (
        UniqueConstraint("event_id", "game", name="uq_games_event_rounds_event_id_game"),
        Index("ix_games_event_rounds_game_ref_id", "game", "ref_id"),
    )


class GamesEventPrizeRecord(Base):
    """A prize line the host wrote: a game's ``place`` wins ``text`` (written again: replaced)."""

    __tablename__ = "games_event_prizes"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    event_id: Mapped[int] = mapped_column(ForeignKey("games_events.id", ondelete="CASCADE"))
    game: Mapped[str] = mapped_column(String(16))
    place: Mapped[int] = mapped_column(Integer, default=1)
    text: Mapped[str] = mapped_column(String(200))
    written_by: Mapped[int] = mapped_column(BigInteger)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)

    __table_args__ = (
        UniqueConstraint(
            "event_id", "game", "place", name="uq_games_event_prizes_event_id_game_place"
        ),
    )
