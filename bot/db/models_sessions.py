"""Club sessions (the society's practice nights): the session, its boards, and
the explanations pairs gave of their words.

A session is ``open → formed → started → ended`` (or ``cancelled``): sign-ups
go to its sign-up list (``bot.db.models_signups``, owner_kind 'session'); at
``formed`` the groups (boards of pairs, from a stored seed) are written to
``groups``; at ``started`` each board is a Scrabble game (``session_boards``)
and one job ends them all at ``deadline``.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import BigInteger, ForeignKey, Index, Integer, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from bot.db.models import Base, utcnow


class ClubSessionRecord(Base):
    __tablename__ = "club_sessions"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    guild_id: Mapped[int] = mapped_column(ForeignKey("guilds.id"))
    channel_id: Mapped[int] = mapped_column(BigInteger)
    moderator_id: Mapped[int] = mapped_column(BigInteger)
    status: Mapped[str] = mapped_column(String(16), default="open")
    options: Mapped[dict[str, Any]] = mapped_column(default=dict)
    seed: Mapped[int | None] = mapped_column(BigInteger)
    # Boards of pairs of member ids: [[[a, b], [c, d], ...], ...]
    groups: Mapped[list[Any]] = mapped_column(default=list)
    message_id: Mapped[int | None] = mapped_column(BigInteger)
    started_at: Mapped[datetime | None] = mapped_column()
    deadline: Mapped[datetime | None] = mapped_column()
    ended_at: Mapped[datetime | None] = mapped_column()
    version: Mapped[int] = mapped_column(Integer, default=1)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)

    __table_args__ = (Index("ix_club_sessions_channel_status", "channel_id", "status"),)


class SessionBoardRecord(Base):
    """One board (a Scrabble game) of a started session."""

    __tablename__ = "session_boards"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    session_id: Mapped[int] = mapped_column(ForeignKey("club_sessions.id", ondelete="CASCADE"))
    number: Mapped[int] = mapped_column(Integer)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"), unique=True)

    __table_args__ = (
        UniqueConstraint("session_id", "number", name="uq_session_boards_session_id_number"),
    )


class WordExplanationRecord(Base):
    """A pair's explanation of the word it played ("explain the word"), one per play."""

    __tablename__ = "word_explanations"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    ply: Mapped[int] = mapped_column(Integer)
    user_id: Mapped[int] = mapped_column(BigInteger)
    text: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)

    __table_args__ = (UniqueConstraint("game_id", "ply", name="uq_word_explanations_game_id_ply"),)
