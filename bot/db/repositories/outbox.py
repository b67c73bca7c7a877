"""The outbox: posts and DMs written with the state change that decided them, and
sent after it commits (``bot.ui.outbox.OutboxSender``).

Writing a row is an ORM object added to the unit of work. The sender's side (claim,
mark sent, renew, let go) runs for every post under load, so each of its steps is
one Core statement, built once per dialect and run with its parameters bound: the
claim reads the rows it takes as it takes them, and a list of ids is one array on
PostgreSQL (``= ANY``), so the statement's text, and the server's prepared
statement, are the same whatever their number.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from datetime import datetime
from typing import Any, NamedTuple, cast

from sqlalchemy import (
    ColumnElement,
    Integer,
    String,
    Table,
    all_,
    and_,
    any_,
    bindparam,
    exists,
    or_,
    select,
    update,
)
from sqlalchemy.dialects.postgresql import ARRAY
from sqlalchemy.ext.asyncio import AsyncSession

from bot.db.models import OutboxRecord, UTCDateTime
from bot.messages.post import Post

WROTE_OUTBOX = "clubbot_wrote_outbox"  # in ``session.info``: this session queued a post

_OUTBOX = cast(Table, OutboxRecord.__table__)
_c = _OUTBOX.c


class OutboxRow(NamedTuple):
    """A row claimed to send: what sending it needs, read with the claim."""

    id: int
    target_kind: str  # "channel" | "user"
    target_id: int
    fallback_channel_id: int | None
    payload: dict[str, Any]


def _among(column: ColumnElement[int], name: str, dialect: str) -> ColumnElement[bool]:
    """``column`` is one of the ids bound as ``name``."""
    if dialect == "postgresql":
        return column == any_(bindparam(name, type_=ARRAY(Integer)))
    return column.in_(bindparam(name, expanding=True))


def _not_among(column: ColumnElement[int], name: str, dialect: str) -> ColumnElement[bool]:
    """``column`` is none of the ids bound as ``name``."""
    if dialect == "postgresql":
        return column != all_(bindparam(name, type_=ARRAY(Integer)))
    return column.not_in(bindparam(name, expanding=True))


_STATEMENTS: dict[tuple[str, str], Any] = {}


def _statement(name: str, dialect: str, build: Callable[[str], Any]) -> Any:
    """The statement ``build`` makes for ``dialect``, made once: its construction and
    cache key would cost more CPU than running it, at every post."""
    statement = _STATEMENTS.get((name, dialect))
    if statement is None:
        statement = _STATEMENTS[(name, dialect)] = build(dialect)
    return statement


def _claim(dialect: str) -> Any:
    """One statement claims the rows that are free to take and returns them (and,
    on PostgreSQL, marks the rows ``sent`` sent: see ``OutboxRepository.claim``).

    The candidates are the oldest ``limit`` unsent rows nobody else holds, not among
    ``skip``, read ``FOR UPDATE SKIP LOCKED`` on PostgreSQL (two processes claiming
    at once never wait for each other and never take the same row; a row another
    process claimed meanwhile is read again as it is now, and left). A candidate is
    taken only when every earlier unsent row of its target (``skip`` apart) is a
    candidate too, so a target's posts keep their order across processes: while
    another process holds, or is claiming, an earlier one (held, locked, or past
    ``limit``), the later ones wait."""
    unsent = and_(_c.sent_at.is_(None), _c.attempts < bindparam("max_attempts", type_=Integer))
    owner = bindparam("owner", type_=String)
    free = or_(
        _c.claimed_by.is_(None),
        _c.claimed_until < bindparam("now", type_=UTCDateTime),
        _c.claimed_by == owner,
    )
    candidates = (
        select(_c.id, _c.target_kind, _c.target_id)
        .where(unsent, free, _not_among(_c.id, "skip", dialect))
        .order_by(_c.id)
        .limit(bindparam("limit", type_=Integer))
    )
    if dialect == "postgresql":
        candidates = candidates.with_for_update(skip_locked=True)
    chosen = candidates.cte("candidates")
    earlier = _OUTBOX.alias("earlier")
    waits = exists().where(
        earlier.c.target_kind == chosen.c.target_kind,
        earlier.c.target_id == chosen.c.target_id,
        earlier.c.id < chosen.c.id,
        earlier.c.sent_at.is_(None),
        earlier.c.attempts < bindparam("max_attempts", type_=Integer),
        _not_among(earlier.c.id, "skip", dialect),
        earlier.c.id.not_in(select(chosen.c.id)),
    )
    claim = (
        update(_OUTBOX)
        .where(_c.id.in_(select(chosen.c.id).where(~waits)))
        .values(claimed_by=owner, claimed_until=bindparam("until", type_=UTCDateTime))
        .returning(_c.id, _c.target_kind, _c.target_id, _c.fallback_channel_id, _c.payload)
    )
    if dialect == "postgresql":
        # A data-modifying WITH runs whether or not it is referenced; the rows it marks
        # are among ``skip``, so the claim (which sees the rows as they were) leaves them.
        claim = claim.add_cte(_mark_sent(dialect, ids="sent").cte("marked"))
    return claim


def _mark_sent(dialect: str, ids: str = "ids") -> Any:
    return (
        update(_OUTBOX)
        .where(_among(_c.id, ids, dialect))
        .values(sent_at=bindparam("at", type_=UTCDateTime), claimed_by=None, claimed_until=None)
    )


def _renew(dialect: str) -> Any:
    return (
        update(_OUTBOX)
        .where(_among(_c.id, "ids", dialect), _c.claimed_by == bindparam("owner", type_=String))
        .values(claimed_until=bindparam("until", type_=UTCDateTime))
    )


def _release(dialect: str) -> Any:
    return (
        update(_OUTBOX)
        .where(_among(_c.id, "ids", dialect), _c.claimed_by == bindparam("owner", type_=String))
        .values(claimed_by=None, claimed_until=None)
    )


class OutboxRepository:
    def __init__(self, session: AsyncSession) -> None:
        self.session = session

    @property
    def _dialect(self) -> str:
        return self.session.get_bind().dialect.name

    def to_channel(self, channel_id: int, post: Post) -> OutboxRecord:
        row = OutboxRecord(target_kind="channel", target_id=channel_id, payload=post.to_json())
        self.session.add(row)
        self.session.info[WROTE_OUTBOX] = True
        return row

    def to_user(
        self, user_id: int, post: Post, *, fallback_channel_id: int | None = None
    ) -> OutboxRecord:
        """A DM; when the member's DMs are closed it goes to ``fallback_channel_id``."""
        row = OutboxRecord(
            target_kind="user",
            target_id=user_id,
            payload=post.to_json(),
            fallback_channel_id=fallback_channel_id,
        )
        self.session.add(row)
        self.session.info[WROTE_OUTBOX] = True
        return row

    async def pending(
        self, limit: int = 50, *, max_attempts: int | None = None, exclude: Collection[int] = ()
    ) -> list[OutboxRecord]:
        """Unsent rows, oldest first; ``max_attempts`` leaves out the ones given up on."""
        stmt = select(OutboxRecord).where(OutboxRecord.sent_at.is_(None))
        if max_attempts is not None:
            stmt = stmt.where(OutboxRecord.attempts < max_attempts)
        if exclude:
            stmt = stmt.where(OutboxRecord.id.not_in(list(exclude)))
        return list(
            (await self.session.execute(stmt.order_by(OutboxRecord.id).limit(limit))).scalars()
        )

    async def claim(
        self,
        *,
        owner: str,
        until: datetime,
        now: datetime,
        limit: int,
        max_attempts: int,
        skip: Collection[int] = (),
        sent: Collection[int] = (),
    ) -> list[OutboxRow]:
        """Claim up to ``limit`` unsent rows for ``owner`` until ``until``, oldest
        first, and return them: one statement (see ``_claim``). ``sent``: rows this
        owner sent since, marked sent at ``now`` on the way (on PostgreSQL in the same
        statement; elsewhere one more, in the session's transaction).

        A row is free when nobody holds it, its holder's lease ran out, or ``owner``
        held it (the same process, started again). Each target's posts keep their
        order across processes: a target's rows are claimed only as the unbroken
        start of its unsent rows. ``skip``: rows not to take now, which do not hold
        their target's later rows up either (the ones this owner is sending, queued
        before them; one Discord refused this pass).
        """
        dialect = self._dialect
        if sent and (dialect != "postgresql" or limit <= 0):
            await self.mark_sent(sent, now)
            sent = ()
        if limit <= 0:
            return []
        result = await self.session.execute(
            _statement("claim", dialect, _claim),
            {
                "owner": owner,
                "until": until,
                "now": now,
                "at": now,
                "limit": limit,
                "max_attempts": max_attempts,
                "skip": [*skip, *sent],
                "sent": list(sent),
            },
        )
        return sorted((OutboxRow._make(row) for row in result), key=lambda row: row.id)

    async def renew(self, ids: Collection[int], owner: str, until: datetime) -> None:
        """Hold these rows (still queued to send) longer: another process waits."""
        if ids:
            await self.session.execute(
                _statement("renew", self._dialect, _renew),
                {"ids": list(ids), "owner": owner, "until": until},
            )

    async def mark_sent(self, ids: Collection[int], at: datetime) -> None:
        """These rows reached Discord: never again."""
        if ids:
            await self.session.execute(
                _statement("mark_sent", self._dialect, _mark_sent), {"ids": list(ids), "at": at}
            )

    async def mark_failed(self, row_id: int, error: str, *, counts: bool) -> None:
        """Discord refused the row: let go of it, noting why (``counts``: a refusal for
        good, one attempt of the few it gets; else Discord's own trouble)."""
        values: dict[str, Any] = {
            "last_error": error[:500],
            "claimed_by": None,
            "claimed_until": None,
        }
        if counts:
            values["attempts"] = _c.attempts + 1
        await self.session.execute(update(_OUTBOX).where(_c.id == row_id).values(**values))

    async def release(self, ids: Collection[int], owner: str) -> None:
        """Let go of rows claimed and not sent (Discord's trouble ended the pass)."""
        if ids:
            await self.session.execute(
                _statement("release", self._dialect, _release), {"ids": list(ids), "owner": owner}
            )
