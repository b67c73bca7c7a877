"""Word Boggle tables: rounds, each player's submission, weekly schedules.

A round is ``scheduled → open → closed → scored`` (or ``cancelled``); each
arrow is one committed transaction. A submission is one row per player per
round holding every message as sent (raw text, Discord message id and time),
so the scoring can be rerun from what players actually wrote.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, NotRequired, TypedDict

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    ForeignKey,
    Index,
    Integer,
    String,
    UniqueConstraint,
)
from sqlalchemy.orm import Mapped, mapped_column

from bot.db.models import Base, utcnow


class SubmissionEntry(TypedDict):
    """One message of a list, as sent (or one change made on the member's board page)."""

    id: str  # the Discord message or interaction snowflake (minted by the bot for a page)
    at: str  # its time (ISO): the message's own for a DM, the bot's for a form or page
    via: str  # "dm" | "form" | "web" | "host" (typed by the host: /boggle enter)
    text: str  # the raw text (the words a page added, space-separated)
    # Words the member took off the list on the board page (normalised), before ``text``
    # is added: the list is rebuilt by replaying the entries in order.
    removed: NotRequired[list[str]]


class BoggleScheduleRecord(Base):
    """A guild's weekly round: a weekday and a wall-clock time in the club's time zone."""

    __tablename__ = "boggle_schedules"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    guild_id: Mapped[int] = mapped_column(ForeignKey("guilds.id"))
    channel_id: Mapped[int] = mapped_column(BigInteger)
    weekday: Mapped[int] = mapped_column(Integer)  # 0 = Monday, as datetime.weekday()
    local_time: Mapped[str] = mapped_column(String(5))  # "19:30" in the club's time zone
    size: Mapped[int] = mapped_column(Integer, default=4)
    dice: Mapped[str] = mapped_column(String(16))
    duration_s: Mapped[int] = mapped_column(Integer, default=180)
    min_length: Mapped[int] = mapped_column(Integer, default=4)
    # Played in the room: each round's time to type the paper lists after the countdown
    # (0: its rounds are played in Discord).
    entry_s: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    active: Mapped[bool] = mapped_column(Boolean, default=True)
    next_at: Mapped[datetime | None] = mapped_column()  # the next round's opening, UTC
    created_by: Mapped[int | None] = mapped_column(BigInteger)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow)

    # One schedule per guild: /boggle schedule again replaces it.
    __table_args__ = (UniqueConstraint("guild_id", name="uq_boggle_schedules_guild_id"),)


class BoggleRoundRecord(Base):
    """One grid, its timer, and (once scored) the results as shown to players."""

    __tablename__ = "boggle_rounds"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    guild_id: Mapped[int] = mapped_column(ForeignKey("guilds.id"))
    number: Mapped[int] = mapped_column(Integer)  # the guild's own round count: "round #12"
    channel_id: Mapped[int] = mapped_column(BigInteger)
    schedule_id: Mapped[int | None] = mapped_column(
        ForeignKey("boggle_schedules.id", ondelete="SET NULL")
    )
    # The schedule's planned opening: with schedule_id unique, so a weekly
    # occurrence can never create two rounds.
    occurrence: Mapped[datetime | None] = mapped_column()
    status: Mapped[str] = mapped_column(String(16), default="scheduled")
    size: Mapped[int] = mapped_column(Integer, default=4)
    dice: Mapped[str] = mapped_column(String(16))
    min_length: Mapped[int] = mapped_column(Integer, default=4)
    duration_s: Mapped[int] = mapped_column(Integer, default=180)
    # A round played in the room (issue #29): after the countdown, this long to type the
    # lists written on paper; ``ends_at`` is then the end of it. 0: played in Discord.
    entry_s: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    seed: Mapped[int] = mapped_column(BigInteger)
    grid: Mapped[str | None] = mapped_column(
        String(200)
    )  # "QU A T E/B C D E/...", set when it opens
    lexicon: Mapped[str] = mapped_column(String(200))
    opens_at: Mapped[datetime] = mapped_column()
    ends_at: Mapped[datetime | None] = mapped_column()
    started_by: Mapped[int | None] = mapped_column(BigInteger)
    cancel_reason: Mapped[str | None] = mapped_column(String(32))
    season: Mapped[str | None] = mapped_column(String(64))
    results: Mapped[dict[str, Any]] = mapped_column(default=dict)
    version: Mapped[int] = mapped_column(Integer, default=1)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    closed_at: Mapped[datetime | None] = mapped_column()
    scored_at: Mapped[datetime | None] = mapped_column()

    __table_args__ = (
        UniqueConstraint("guild_id", "number", name="uq_boggle_rounds_guild_id_number"),
        UniqueConstraint(
            "schedule_id", "occurrence", name="uq_boggle_rounds_schedule_id_occurrence"
        ),
        Index("ix_boggle_rounds_guild_status", "guild_id", "status"),
        Index("ix_boggle_rounds_status", "status"),
    )


class BoggleSubmissionRecord(Base):
    """A player's list for one round: every message as sent, and the words so far.

    ``entries`` holds ``{"id", "at", "via", "text"}`` per message (``id`` is the
    Discord message or interaction snowflake, so a message seen twice counts
    once); ``words`` is the distinct normalised words in the order first
    written, kept for the running count in acknowledgements.
    """

    __tablename__ = "boggle_submissions"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    round_id: Mapped[int] = mapped_column(ForeignKey("boggle_rounds.id", ondelete="CASCADE"))
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"))
    entries: Mapped[list[SubmissionEntry]] = mapped_column(JSON, default=list)
    words: Mapped[list[str]] = mapped_column(JSON, default=list)
    first_at: Mapped[datetime] = mapped_column()
    last_at: Mapped[datetime] = mapped_column()
    last_source_id: Mapped[int] = mapped_column(BigInteger)

    __table_args__ = (
        UniqueConstraint("round_id", "player_id", name="uq_boggle_submissions_round_id_player_id"),
    )
