"""Tournament tables: the tournament, its entrants (frozen at the start), its rounds,
each round's pairings (each linked to the game it plays) and the director's log.

A round is one row, unique per tournament and number, written in the same
transaction as its pairings and their games: a restart or a second process that
tries to pair the same round again fails on that key, so nothing is paired twice.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import (
    BigInteger,
    Boolean,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    UniqueConstraint,
)
from sqlalchemy.orm import Mapped, mapped_column

from bot.db.models import Base, utcnow


class TournamentRecord(Base):
    """``signup → running ⇄ paused → finished | cancelled``."""

    __tablename__ = "tournaments"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    guild_id: Mapped[int] = mapped_column(ForeignKey("guilds.id"))
    channel_id: Mapped[int] = mapped_column(BigInteger)
    name: Mapped[str] = mapped_column(String(100), default="")
    game_kind: Mapped[str] = mapped_column(String(16))  # chess | scrabble
    format: Mapped[str] = mapped_column(String(16))  # round_robin | swiss | knockout
    rounds: Mapped[int] = mapped_column(Integer, default=0)  # planned (0: not known yet)
    # seed, time control, round deadline, rated, entry, check-in, team size
    options: Mapped[dict[str, Any]] = mapped_column(default=dict)
    status: Mapped[str] = mapped_column(String(16), default="signup")
    current_round: Mapped[int] = mapped_column(Integer, default=0)
    created_by: Mapped[int] = mapped_column(BigInteger)
    version: Mapped[int] = mapped_column(Integer, default=1)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    started_at: Mapped[datetime | None] = mapped_column()
    finished_at: Mapped[datetime | None] = mapped_column()

    __table_args__ = (
        Index("ix_tournaments_guild_status", "guild_id", "status"),
        Index("ix_tournaments_channel_status", "channel_id", "status"),
    )


class TournamentEntrantRecord(Base):
    """A player or a pair, numbered by seed at the start: ``playing → withdrawn``."""

    __tablename__ = "tournament_entrants"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    tournament_id: Mapped[int] = mapped_column(
        ForeignKey("tournaments.id", ondelete="CASCADE"), index=True
    )
    number: Mapped[int] = mapped_column(Integer)  # 1 = top seed
    user_id: Mapped[int] = mapped_column(ForeignKey("players.id"))
    partner_id: Mapped[int | None] = mapped_column(ForeignKey("players.id"))
    label: Mapped[str] = mapped_column(String(100), default="")
    rating: Mapped[float] = mapped_column(Float, default=1500.0)
    status: Mapped[str] = mapped_column(String(16), default="playing")
    withdrawn_round: Mapped[int | None] = mapped_column(Integer)

    __table_args__ = (
        UniqueConstraint(
            "tournament_id", "number", name="uq_tournament_entrants_tournament_id_number"
        ),
    )


class TournamentRoundRecord(Base):
    """``playing → done``; ``deadline`` moves when a director extends it."""

    __tablename__ = "tournament_rounds"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id", ondelete="CASCADE"))
    number: Mapped[int] = mapped_column(Integer)
    status: Mapped[str] = mapped_column(String(16), default="playing")
    deadline: Mapped[datetime | None] = mapped_column()
    started_at: Mapped[datetime] = mapped_column(default=utcnow)
    finished_at: Mapped[datetime | None] = mapped_column()

    __table_args__ = (
        UniqueConstraint(
            "tournament_id", "number", name="uq_tournament_rounds_tournament_id_number"
        ),
    )


class TournamentPairingRecord(Base):
    """One board of a round: ``first`` (White in chess) against ``second`` (None: a
    bye), the game it is played in, and its result once known (``score`` is the
    first entrant's points: 1, ½ or 0; ``spread`` their Scrabble margin)."""

    __tablename__ = "tournament_pairings"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id", ondelete="CASCADE"))
    round: Mapped[int] = mapped_column(Integer)
    board: Mapped[int] = mapped_column(Integer)
    first_id: Mapped[int] = mapped_column(ForeignKey("tournament_entrants.id"))
    second_id: Mapped[int | None] = mapped_column(ForeignKey("tournament_entrants.id"))
    game_id: Mapped[int | None] = mapped_column(ForeignKey("games.id"), unique=True)
    score: Mapped[float | None] = mapped_column(Float)
    spread: Mapped[int] = mapped_column(Integer, default=0)
    # Scrabble: each side's final score, for the tsh export.
    first_total: Mapped[int | None] = mapped_column(Integer)
    second_total: Mapped[int | None] = mapped_column(Integer)
    forfeit: Mapped[bool] = mapped_column(Boolean, default=False)
    # game | bye | forfeit | adjudicated | void | deadline
    source: Mapped[str | None] = mapped_column(String(16))
    void: Mapped[bool] = mapped_column(Boolean, default=False)

    __table_args__ = (
        UniqueConstraint(
            "tournament_id", "round", "board", name="uq_tournament_pairings_tournament_id_round"
        ),
    )


class TournamentLogRecord(Base):
    """Each director's act (and the bot's own decisions), with who and when."""

    __tablename__ = "tournament_log"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    tournament_id: Mapped[int] = mapped_column(
        ForeignKey("tournaments.id", ondelete="CASCADE"), index=True
    )
    at: Mapped[datetime] = mapped_column(default=utcnow)
    actor_id: Mapped[int | None] = mapped_column(BigInteger)
    action: Mapped[str] = mapped_column(String(32))
    detail: Mapped[dict[str, Any]] = mapped_column(default=dict)
