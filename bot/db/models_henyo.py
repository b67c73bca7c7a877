"""Library Henyo tables: events, registered pairs, rounds, what happened in a
round (with Discord's own timestamps), and the club's own words.

A round's result is computed from what is stored here — the announcement's
snowflake, each answerer message's snowflake, the guess's snowflake — so a
restart in the middle of a round changes nothing.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import (
    BigInteger,
    Boolean,
    ForeignKey,
    Index,
    Integer,
    String,
    UniqueConstraint,
    false,
)
from sqlalchemy.orm import Mapped, mapped_column

from bot.db.models import Base, utcnow


class HenyoEventRecord(Base):
    """A host's event: registration, then one word per pair, then tie-breaks."""

    __tablename__ = "henyo_events"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    guild_id: Mapped[int] = mapped_column(ForeignKey("guilds.id"))
    channel_id: Mapped[int] = mapped_column(BigInteger)
    host_id: Mapped[int] = mapped_column(BigInteger)
    status: Mapped[str] = mapped_column(String(16), default="open")  # open | closed
    pairs: Mapped[int] = mapped_column(Integer, default=5)
    time_limit_ms: Mapped[int] = mapped_column(Integer, default=120_000)
    penalty_ms: Mapped[int] = mapped_column(Integer, default=5_000)
    categories: Mapped[list[Any]] = mapped_column(default=list)
    language: Mapped[str] = mapped_column(String(8), default="any")
    # Bare Oo / Hindi / Pwede only: the polite forms (Opo, Oo po…) cost a penalty too.
    strict: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    # Who rules on the event's rounds: typed replies (``typed``) or the host's
    # presses in the room (``host``, played aloud); a round may choose otherwise.
    referee: Mapped[str] = mapped_column(String(8), default="typed", server_default="typed")
    list_message_id: Mapped[int | None] = mapped_column(BigInteger)
    winner_team_id: Mapped[int | None] = mapped_column(Integer)
    version: Mapped[int] = mapped_column(Integer, default=1)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    closed_at: Mapped[datetime | None] = mapped_column()

    __table_args__ = (
        Index("ix_henyo_events_guild_status", "guild_id", "status"),
        Index("ix_henyo_events_channel_status", "channel_id", "status"),
    )


class HenyoTeamRecord(Base):
    """A pair of the event: who guesses and who answers, and whether the host
    disqualified it (``registered | disqualified``). Its place, its time of
    registration and its withdrawal are its entry on the event's sign-up list
    (``signup_id``; the list's owner is ('henyo', event id)), made with this row."""

    __tablename__ = "henyo_teams"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    event_id: Mapped[int] = mapped_column(ForeignKey("henyo_events.id", ondelete="CASCADE"))
    signup_id: Mapped[int] = mapped_column(ForeignKey("signups.id", ondelete="CASCADE"))
    guesser_id: Mapped[int] = mapped_column(ForeignKey("players.id"))
    answerer_id: Mapped[int] = mapped_column(ForeignKey("players.id"))
    status: Mapped[str] = mapped_column(String(16), default="registered")

    __table_args__ = (UniqueConstraint("signup_id", name="uq_henyo_teams_signup_id"),)


class HenyoRoundRecord(Base):
    """One word for one pair: ``ready → running → guessed | timed_out | disqualified``
    (or ``cancelled`` when it could not start)."""

    __tablename__ = "henyo_rounds"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    guild_id: Mapped[int] = mapped_column(ForeignKey("guilds.id"))
    channel_id: Mapped[int] = mapped_column(BigInteger)
    event_id: Mapped[int | None] = mapped_column(
        ForeignKey("henyo_events.id", ondelete="CASCADE"), index=True
    )
    team_id: Mapped[int | None] = mapped_column(ForeignKey("henyo_teams.id", ondelete="CASCADE"))
    stage: Mapped[int] = mapped_column(
        Integer, default=0
    )  # 0: the pair's word; n: tie-break level n
    host_id: Mapped[int] = mapped_column(BigInteger)
    guesser_id: Mapped[int] = mapped_column(ForeignKey("players.id"))
    answerer_id: Mapped[int] = mapped_column(ForeignKey("players.id"))
    word: Mapped[str] = mapped_column(String(100))
    word_key: Mapped[str] = mapped_column(String(100))
    category: Mapped[str | None] = mapped_column(String(16))
    language: Mapped[str | None] = mapped_column(String(8))
    word_source: Mapped[str] = mapped_column(String(8), default="bank")  # bank | club | host
    status: Mapped[str] = mapped_column(String(16), default="ready")
    cancel_reason: Mapped[str | None] = mapped_column(String(32))
    time_limit_ms: Mapped[int] = mapped_column(Integer)
    penalty_ms: Mapped[int] = mapped_column(Integer)
    # Bare words only (the event's setting, or the host's for this round).
    strict: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    # ``typed``: the referee reads the channel; ``host``: played aloud, the clock
    # and penalties come from the host's presses (``henyo_presses``).
    referee: Mapped[str] = mapped_column(String(8), default="typed", server_default="typed")
    # The room's screen may show the secret during the round (the host's switch).
    show_word_on_screen: Mapped[bool] = mapped_column(
        Boolean, default=False, server_default=false()
    )
    announce_message_id: Mapped[int | None] = mapped_column(BigInteger)
    started_at: Mapped[datetime | None] = mapped_column()
    guess_message_id: Mapped[int | None] = mapped_column(BigInteger)
    ended_at: Mapped[datetime | None] = mapped_column()
    elapsed_ms: Mapped[int | None] = mapped_column(Integer)
    penalties: Mapped[int] = mapped_column(Integer, default=0)
    final_ms: Mapped[int | None] = mapped_column(Integer)
    version: Mapped[int] = mapped_column(Integer, default=1)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)

    __table_args__ = (Index("ix_henyo_rounds_channel_status", "channel_id", "status"),)


class HenyoRoundEventRecord(Base):
    """Something that happened in a round, keyed by the Discord id it came from.

    ``source_id`` is the message's (or button press's) snowflake, so seeing the
    same message twice — live and again from history after a restart — records
    it once. Message text is not kept: an answerer may have typed the secret.
    """

    __tablename__ = "henyo_round_events"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    round_id: Mapped[int] = mapped_column(ForeignKey("henyo_rounds.id", ondelete="CASCADE"))
    source_id: Mapped[int] = mapped_column(BigInteger)
    user_id: Mapped[int] = mapped_column(BigInteger)
    kind: Mapped[str] = mapped_column(String(16))  # reply | button | penalty | guess | audience
    reply: Mapped[str | None] = mapped_column(String(8))
    at: Mapped[datetime] = mapped_column()
    elapsed_ms: Mapped[int] = mapped_column(Integer)

    __table_args__ = (
        UniqueConstraint("round_id", "source_id", name="uq_henyo_round_events_round_id_source_id"),
    )


class HenyoPressRecord(Base):
    """One press of the host's console in a round played aloud, in order (``seq``).

    ``action``: ``start | penalty | got_it | coaching | undo``. A press is made on
    the round's version the console showed, so the same press arriving twice (a
    double tap, a second device, a retried request) finds a newer version and
    counts once; ``(round_id, seq)`` is unique besides. An ``undo`` names the press
    it reverted (``reverts``), and that press is marked ``undone``.
    """

    __tablename__ = "henyo_presses"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    round_id: Mapped[int] = mapped_column(ForeignKey("henyo_rounds.id", ondelete="CASCADE"))
    seq: Mapped[int] = mapped_column(Integer)
    action: Mapped[str] = mapped_column(String(16))
    user_id: Mapped[int] = mapped_column(BigInteger)
    via: Mapped[str] = mapped_column(String(8))  # discord | web
    at: Mapped[datetime] = mapped_column()
    elapsed_ms: Mapped[int | None] = mapped_column(Integer)
    undone: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    reverts: Mapped[int | None] = mapped_column(Integer)

    __table_args__ = (UniqueConstraint("round_id", "seq", name="uq_henyo_presses_round_id_seq"),)


class HenyoWordRecord(Base):
    """A word the club added, or (``active`` false) a built-in word it removed."""

    __tablename__ = "henyo_words"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    guild_id: Mapped[int] = mapped_column(ForeignKey("guilds.id"))
    text: Mapped[str] = mapped_column(String(100))
    key: Mapped[str] = mapped_column(String(100))
    category: Mapped[str] = mapped_column(String(16))
    language: Mapped[str] = mapped_column(String(8))
    active: Mapped[bool] = mapped_column(Boolean, default=True)
    added_by: Mapped[int | None] = mapped_column(BigInteger)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)

    __table_args__ = (UniqueConstraint("guild_id", "key", name="uq_henyo_words_guild_id_key"),)
