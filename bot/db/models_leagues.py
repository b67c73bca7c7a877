"""League tables (issue #30): a league, its seasons and each season's divisions.

A season's sign-ups are the club's one sign-up list (owner_kind 'league', owner_id
the season's id). Each division is a tournament (``tournaments``, a round robin whose
games all start at once), so its games, results, standings, adjudication and
withdrawals are the tournament's; the division row links the two.

A season's number is unique per league, and a division's number per season, so a
season started twice, or rolled over twice (a job run again after a crash), fails
on those keys instead of writing twice.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import BigInteger, ForeignKey, Index, Integer, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from bot.db.models import Base, utcnow


class LeagueRecord(Base):
    """``open → closed``; its settings (weeks, division size, movers, clock) in ``options``."""

    __tablename__ = "leagues"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    guild_id: Mapped[int] = mapped_column(ForeignKey("guilds.id"))
    channel_id: Mapped[int] = mapped_column(BigInteger)
    name: Mapped[str] = mapped_column(String(100), default="")
    game_kind: Mapped[str] = mapped_column(String(16))  # chess | scrabble
    team_size: Mapped[int] = mapped_column(Integer, default=1)
    options: Mapped[dict[str, Any]] = mapped_column(default=dict)
    status: Mapped[str] = mapped_column(String(16), default="open")
    current_season: Mapped[int] = mapped_column(Integer, default=1)
    created_by: Mapped[int] = mapped_column(BigInteger)
    version: Mapped[int] = mapped_column(Integer, default=1)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)

    __table_args__ = (Index("ix_leagues_guild_status", "guild_id", "status"),)


class LeagueSeasonRecord(Base):
    """``signup → playing → finished``. ``carried``: the members kept from the season
    before, with their tier for this one; ``results``: each division's final
    table, winners and moves once finished."""

    __tablename__ = "league_seasons"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    league_id: Mapped[int] = mapped_column(ForeignKey("leagues.id", ondelete="CASCADE"))
    number: Mapped[int] = mapped_column(Integer)
    status: Mapped[str] = mapped_column(String(16), default="signup")
    carried: Mapped[dict[str, Any]] = mapped_column(default=dict)
    results: Mapped[dict[str, Any]] = mapped_column(default=dict)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    starts_at: Mapped[datetime | None] = mapped_column()
    ends_at: Mapped[datetime | None] = mapped_column()
    finished_at: Mapped[datetime | None] = mapped_column()

    __table_args__ = (
        UniqueConstraint("league_id", "number", name="uq_league_seasons_league_id_number"),
    )


class LeagueDivisionRecord(Base):
    """Division ``number`` (1 = the top) of a season, played as tournament ``tournament_id``."""

    __tablename__ = "league_divisions"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    season_id: Mapped[int] = mapped_column(ForeignKey("league_seasons.id", ondelete="CASCADE"))
    number: Mapped[int] = mapped_column(Integer)
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id"), unique=True)

    __table_args__ = (
        UniqueConstraint("season_id", "number", name="uq_league_divisions_season_id_number"),
    )
