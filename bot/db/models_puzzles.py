"""Puzzles from the club's finished games (issue #31): ``puzzles`` and ``puzzle_attempts``.

A puzzle is one position of one game (unique ``game_id``, ``ply``: the job that finds a
game's puzzles may run twice and adds none the second time), with its own Glicko-2
rating (the member solving it plays against it). An attempt is one member's go at one
puzzle: ``open → solved | failed`` (failed: out of tries, or the solution asked for).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import BigInteger, Float, ForeignKey, Index, Integer, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from bot.db.models import Base, utcnow


class PuzzleRecord(Base):
    __tablename__ = "puzzles"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    guild_id: Mapped[int] = mapped_column(ForeignKey("guilds.id"))
    kind: Mapped[str] = mapped_column(String(16))  # scrabble
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    ply: Mapped[int] = mapped_column(Integer)
    # The position (engines.scrabble.puzzles.ScrabblePuzzle.to_json) and the word list.
    data: Mapped[dict[str, Any]] = mapped_column(default=dict)
    rating: Mapped[float] = mapped_column(Float, default=1500.0)
    rd: Mapped[float] = mapped_column(Float, default=350.0)
    volatility: Mapped[float] = mapped_column(Float, default=0.06)
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    solved: Mapped[int] = mapped_column(Integer, default=0)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)

    __table_args__ = (
        UniqueConstraint("game_id", "ply", name="uq_puzzles_game_id_ply"),
        Index("ix_puzzles_guild_id_kind", "guild_id", "kind"),
    )


class PuzzleAttemptRecord(Base):
    __tablename__ = "puzzle_attempts"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    puzzle_id: Mapped[int] = mapped_column(ForeignKey("puzzles.id", ondelete="CASCADE"))
    guild_id: Mapped[int] = mapped_column(BigInteger)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"))
    status: Mapped[str] = mapped_column(String(16), default="open")  # open | solved | failed
    tries: Mapped[int] = mapped_column(Integer, default=0)
    answers: Mapped[list[Any]] = mapped_column(default=list)  # [notation, score or None]
    rating_before: Mapped[float | None] = mapped_column(Float)
    rating_after: Mapped[float | None] = mapped_column(Float)
    version: Mapped[int] = mapped_column(Integer, default=1)
    started_at: Mapped[datetime] = mapped_column(default=utcnow)
    finished_at: Mapped[datetime | None] = mapped_column()

    __table_args__ = (
        UniqueConstraint("puzzle_id", "player_id", name="uq_puzzle_attempts_puzzle_id_player_id"),
        Index("ix_puzzle_attempts_guild_id_player_id", "guild_id", "player_id"),
    )
