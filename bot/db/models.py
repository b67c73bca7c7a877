"""ORM models. Times are UTC and come back timezone-aware on every backend.

Discord ids (guilds, users, channels) are 64-bit snowflakes: ``BigInteger``.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any, ClassVar

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Text,
    TypeDecorator,
    UniqueConstraint,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship

NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


def utcnow() -> datetime:
    return datetime.now(UTC)


class UTCDateTime(TypeDecorator[datetime]):
    """Stores UTC; always returns aware datetimes (SQLite drops the zone)."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Any) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("naive datetime given to the database; use UTC-aware datetimes")
        value = value.astimezone(UTC)
        if dialect.name == "sqlite":
            return value.replace(tzinfo=None)
        return value

    def process_result_value(self, value: datetime | None, dialect: Any) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            return value.replace(tzinfo=UTC)
        return value.astimezone(UTC)


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING_CONVENTION)
    type_annotation_map: ClassVar[dict[Any, Any]] = {
        datetime: UTCDateTime,
        dict[str, Any]: JSON,
        list[Any]: JSON,
    }


class GuildRecord(Base):
    __tablename__ = "guilds"

    id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    name: Mapped[str] = mapped_column(String(100), default="")
    timezone: Mapped[str] = mapped_column(String(64), default="UTC")
    moderator_role_id: Mapped[int | None] = mapped_column(BigInteger)
    default_channel_id: Mapped[int | None] = mapped_column(BigInteger)
    settings: Mapped[dict[str, Any]] = mapped_column(default=dict)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow, onupdate=utcnow)


class PlayerRecord(Base):
    __tablename__ = "players"

    id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    display_name: Mapped[str] = mapped_column(String(100))
    updated_at: Mapped[datetime] = mapped_column(default=utcnow, onupdate=utcnow)


class GameRecord(Base):
    __tablename__ = "games"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    guild_id: Mapped[int] = mapped_column(ForeignKey("guilds.id"), index=True)
    kind: Mapped[str] = mapped_column(String(16))
    # What members see and type ("Chess #3"): counts per guild and kind from 1; the id
    # stays internal. Set by ``GameRepository`` when the game is added.
    number: Mapped[int] = mapped_column(Integer)
    channel_id: Mapped[int | None] = mapped_column(BigInteger)
    thread_id: Mapped[int | None] = mapped_column(BigInteger, index=True)
    status: Mapped[str] = mapped_column(String(16), default="invited")
    options: Mapped[dict[str, Any]] = mapped_column(default=dict)
    state: Mapped[dict[str, Any]] = mapped_column(default=dict)
    version: Mapped[int] = mapped_column(Integer, default=1)
    created_by: Mapped[int | None] = mapped_column(BigInteger)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow)
    deadline: Mapped[datetime | None] = mapped_column()
    finished_at: Mapped[datetime | None] = mapped_column()

    seats: Mapped[list[GameSeatRecord]] = relationship(
        back_populates="game",
        order_by="GameSeatRecord.seat, GameSeatRecord.user_id",
        lazy="selectin",
    )

    __table_args__ = (
        Index("ix_games_guild_kind_status", "guild_id", "kind", "status"),
        # An index, not a table constraint: see migrations/versions/0006_game_numbers.py.
        Index("uq_games_guild_kind_number", "guild_id", "kind", "number", unique=True),
    )


class GameSeatRecord(Base):
    """One row per member per seat: a team is several rows with the same seat."""

    __tablename__ = "game_seats"

    game_id: Mapped[int] = mapped_column(
        ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("players.id"), primary_key=True, index=True)
    accepted: Mapped[bool] = mapped_column(Boolean, default=False)
    # Scrabble hints this member asked for (games made with hints on).
    hints_used: Mapped[int] = mapped_column(Integer, default=0, server_default="0")

    game: Mapped[GameRecord] = relationship(back_populates="seats")
    # The member's row, for their display name: read in the same statement as the seats
    # where a game is loaded to be shown (``GameRepository``), never by a query of its
    # own (``PlayerRepository.of_seats`` reads the names of seats loaded without it).
    player: Mapped[PlayerRecord] = relationship(viewonly=True, lazy="raise_on_sql")


class MoveRecord(Base):
    """Append-only: the state can always be rebuilt from a game's moves."""

    __tablename__ = "moves"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    ply: Mapped[int] = mapped_column(Integer)
    seat: Mapped[int | None] = mapped_column(Integer)
    user_id: Mapped[int | None] = mapped_column(BigInteger)
    notation: Mapped[str] = mapped_column(String(200))
    score: Mapped[int | None] = mapped_column(Integer)
    data: Mapped[dict[str, Any]] = mapped_column(default=dict)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)

    __table_args__ = (UniqueConstraint("game_id", "ply", name="uq_moves_game_id_ply"),)


class JobRecord(Base):
    """A durable timer: due → claimed (with a lease) → done | failed → parked."""

    __tablename__ = "jobs"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(64))
    key: Mapped[str | None] = mapped_column(String(200), unique=True)
    payload: Mapped[dict[str, Any]] = mapped_column(default=dict)
    due_at: Mapped[datetime] = mapped_column()
    status: Mapped[str] = mapped_column(String(16), default="due")
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    claimed_by: Mapped[str | None] = mapped_column(String(100))
    lease_until: Mapped[datetime | None] = mapped_column()
    last_error: Mapped[str | None] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    finished_at: Mapped[datetime | None] = mapped_column()

    __table_args__ = (Index("ix_jobs_status_due_at", "status", "due_at"),)


class OutboxRecord(Base):
    """A message to send after the transaction that decided it commits."""

    __tablename__ = "outbox"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    target_kind: Mapped[str] = mapped_column(String(16))  # "channel" | "user"
    target_id: Mapped[int] = mapped_column(BigInteger)
    fallback_channel_id: Mapped[int | None] = mapped_column(BigInteger)
    payload: Mapped[dict[str, Any]] = mapped_column(default=dict)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    sent_at: Mapped[datetime | None] = mapped_column()
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    last_error: Mapped[str | None] = mapped_column(Text)
    # The process sending it, until when (a lease: a process that died mid-send lets go).
    claimed_by: Mapped[str | None] = mapped_column(String(64))
    claimed_until: Mapped[datetime | None] = mapped_column()

    __table_args__ = (Index("ix_outbox_sent_at", "sent_at"),)


class ResultRecord(Base):
    """One player's (or one seat member's) outcome in one finished game or round."""

    __tablename__ = "results"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    guild_id: Mapped[int] = mapped_column(ForeignKey("guilds.id"))
    game_kind: Mapped[str] = mapped_column(String(16))
    game_id: Mapped[int | None] = mapped_column(Integer)
    round_ref: Mapped[str | None] = mapped_column(String(64))
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"))
    outcome: Mapped[str | None] = mapped_column(String(8))  # win | loss | draw
    score: Mapped[float | None] = mapped_column(Float)
    opponent_score: Mapped[float | None] = mapped_column(Float)
    points: Mapped[float | None] = mapped_column(Float)
    time_ms: Mapped[int | None] = mapped_column(Integer)
    season: Mapped[str | None] = mapped_column(String(64))
    extra: Mapped[dict[str, Any]] = mapped_column(default=dict)
    played_at: Mapped[datetime] = mapped_column(default=utcnow)

    __table_args__ = (
        Index("ix_results_guild_kind_played", "guild_id", "game_kind", "played_at"),
        # The all-games tables of a period; covering: they read only these columns.
        Index("ix_results_guild_played", "guild_id", "played_at", "player_id", "outcome"),
        Index("ix_results_player", "player_id"),
    )


class RatingRecord(Base):
    """A member's standing in one game in one guild: rating plus running totals.

    Totals are kept here (not summed from results on every read) so the
    all-time tables are an indexed top-N query.
    """

    __tablename__ = "ratings"

    guild_id: Mapped[int] = mapped_column(ForeignKey("guilds.id"), primary_key=True)
    game_kind: Mapped[str] = mapped_column(String(16), primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), primary_key=True)
    rating: Mapped[float] = mapped_column(Float, default=1500.0)
    rd: Mapped[float] = mapped_column(Float, default=350.0)
    volatility: Mapped[float] = mapped_column(Float, default=0.06)
    games: Mapped[int] = mapped_column(Integer, default=0)
    wins: Mapped[int] = mapped_column(Integer, default=0)
    losses: Mapped[int] = mapped_column(Integer, default=0)
    draws: Mapped[int] = mapped_column(Integer, default=0)
    points: Mapped[float] = mapped_column(Float, default=0.0)
    spread: Mapped[float] = mapped_column(Float, default=0.0)
    best_time_ms: Mapped[int | None] = mapped_column(Integer)
    last_played_at: Mapped[datetime | None] = mapped_column()

    __table_args__ = (
        Index("ix_ratings_guild_kind_rating", "guild_id", "game_kind", "rating"),
        Index("ix_ratings_guild_kind_points", "guild_id", "game_kind", "points"),
    )
