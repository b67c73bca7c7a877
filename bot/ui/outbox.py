"""Sends committed outbox rows to Discord, once.

Several processes share the outbox: each claims the rows it sends (see
``OutboxSender``), so a row is sent by one of them, and each channel's posts keep
their order. Posts and DMs carry a nonce derived from the row id with ``enforce_nonce``
(discord.py sets it whenever a nonce is given), so a crash between Discord
accepting a post and the row being marked sent never posts it twice. A DM to a
member whose DMs are closed (403, code 50007) goes to the fallback channel;
the same notice to several members (both partners of a pair: the same text and
fallback to the same channel, queued together) whose DMs are closed makes one
post there that names them all.

A DM's buttons may be its member's own (``dm_views``: a private board link, made
for the member it is sent to as it is sent); such buttons never go on a channel
post, the fallback of a closed DM included.
"""

from __future__ import annotations

import asyncio
import io
import logging
import socket
from collections import deque
from collections.abc import Awaitable, Callable, Collection, Sequence
from datetime import timedelta
from typing import Any

import aiohttp
import discord
import sqlalchemy.exc
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from bot.db.engine import create_statement_session_factory, sessions_like
from bot.db.models import utcnow
from bot.db.repositories import OutboxRepository, OutboxRow
from bot.messages.i18n import use_language
from bot.messages.limits import EMBEDS_PER_MESSAGE, FILES_PER_MESSAGE, MESSAGE_CHARS
from bot.messages.post import Post
from bot.ui.dm_channels import DirectMessages
from bot.ui.errors import discords_trouble

log = logging.getLogger(__name__)

FileRenderer = Callable[[dict[str, Any]], Awaitable[tuple[str, bytes]]]
ViewBuilder = Callable[[dict[str, Any]], discord.ui.View]
# Buttons for one member's DM, made as it is sent: (the view's args, the member) → a view, or None.
DmViewBuilder = Callable[[dict[str, Any], int], Awaitable[discord.ui.View | None]]
Target = tuple[str, int]
MAX_ATTEMPTS = 5
BATCH = 50  # rows claimed at a time
CONCURRENCY = 8  # targets sent to at once (discord.py keeps each route's rate limit)
MAX_IN_FLIGHT = 400  # rows claimed and not yet sent: beyond it, claiming waits
MARK_EVERY = 0.5  # seconds a sent row waits to be marked with a claim, before it goes alone
LEASE = timedelta(seconds=60)  # a claim held this long by a process that died is let go
# Trouble worth trying again later, not counted against the row: the network on the way
# to Discord (after discord.py's own retries), or the database (a DM's channel is
# looked up there; SQLite busy past its timeout, PostgreSQL restarting).
_TRANSIENT = (
    OSError,
    asyncio.TimeoutError,
    aiohttp.ClientError,
    sqlalchemy.exc.OperationalError,
    sqlalchemy.exc.InterfaceError,
)


def _messageable(channel: object, channel_id: int) -> discord.abc.Messageable:
    """``channel`` as somewhere to post: a forum or a category takes no messages."""
    if not isinstance(channel, discord.abc.Messageable):
        raise TypeError(f"channel {channel_id} ({type(channel).__name__}) takes no messages")
    return channel


class OutboxSender:
    """Sends the outbox, continuously: claims rows while earlier ones are still going
    out (one statement takes them and reads what sending them needs), sends them with
    no transaction open (rendering images, calling Discord), and marks what was sent
    together with the next claim (many rows, and on PostgreSQL the same statement).

    Each target (a channel, a member's DMs) has a queue and one worker draining it
    in the order the rows were written; up to ``concurrency`` targets are sent to at
    once. Rows already queued are skipped by the next claims (they are this
    process's, and marked only once sent), so a busy channel never stops the
    others, and later rows of a target join its queue behind the earlier ones.
    ``owner`` names this process in its claims: another process (a shard of its
    own, on the same database) never takes a row this one holds until the lease
    runs out (renewed while rows wait in a queue), and this process started again
    takes its own back at once.
    """

    def __init__(
        self,
        client: discord.Client,
        session_factory: async_sessionmaker[AsyncSession],
        *,
        owner: str = "",
        dms: DirectMessages | None = None,
        batch: int = BATCH,
        concurrency: int = CONCURRENCY,
        lease: timedelta = LEASE,
        max_in_flight: int = MAX_IN_FLIGHT,
    ) -> None:
        self.client = client
        self._factory = session_factory
        # Claims and marks: one statement each, on PostgreSQL with no BEGIN and COMMIT.
        self._statements = sessions_like(session_factory, create_statement_session_factory)
        self.owner = owner or default_owner()
        self.dms = dms or DirectMessages(client, session_factory)
        self.batch = batch
        self.lease = lease
        self.max_in_flight = max_in_flight
        self._sending = asyncio.Semaphore(concurrency)
        self.renderers: dict[str, FileRenderer] = {}
        self.views: dict[str, ViewBuilder] = {}
        self.dm_views: dict[str, DmViewBuilder] = {}
        self._wake = asyncio.Event()
        self._progress = asyncio.Event()  # a worker finished with a row
        self._lock = asyncio.Lock()
        self._stopping = False
        self._queues: dict[Target, deque[OutboxRow]] = {}
        self._workers: dict[Target, asyncio.Task[None]] = {}
        self._in_flight: set[int] = set()  # claimed here and not yet marked
        self._sent: list[int] = []  # sent, to be marked
        self._refused: set[int] = set()  # refused for good: not tried again until the next poll
        self._trouble = False  # Discord's own trouble: no claims until the next poll
        self._renewed = 0.0
        self._marked = 0.0
        self.sent_total = 0

    def notify(self) -> None:
        """Look for rows to send now (a commit just wrote some)."""
        self._wake.set()

    def stop(self) -> None:
        """Finish sending what is claimed and return from ``run_forever``."""
        self._stopping = True
        self._wake.set()

    async def run_forever(self, poll_seconds: float = 5.0) -> None:
        """Claim whenever notified, when the last claim was full (more may wait), and
        every ``poll_seconds`` (rows another process wrote; rows refused or held up by
        Discord's trouble are tried again then); mark what was sent with the next
        claim, or ``MARK_EVERY`` seconds after the last pass when none comes sooner,
        so a post costs about one statement, and a busy outbox a few a second."""
        loop = asyncio.get_running_loop()
        next_poll = loop.time() + poll_seconds
        want = True  # rows may be waiting to be claimed
        try:
            while True:
                want = want or self._wake.is_set()
                self._wake.clear()
                self._progress.clear()
                now = loop.time()
                polled = now >= next_poll
                if polled:
                    next_poll = now + poll_seconds
                    self._refused.clear()
                    self._trouble = False
                    want = True
                try:
                    async with self._lock:
                        room = self._room() if want and not self._stopping else 0
                        if room > 0:
                            skip = self._in_flight | self._refused
                            claimed = await self._pass(claim=True, skip=skip)
                            want = len(claimed) == room  # full: there may be more
                        elif polled or self._stopping or now - self._marked >= MARK_EVERY:
                            await self._pass(claim=False)
                except asyncio.CancelledError:
                    raise
                except Exception:
                    log.exception("outbox pass failed")
                    self._trouble = True  # the database's trouble: try again at the poll
                if self._stopping and not self._workers:
                    await self._pass(claim=False)
                    return
                if want and not self._stopping and self._room() > 0 and not self._trouble:
                    continue
                timeout = next_poll - loop.time()
                if self._sent:
                    timeout = min(timeout, max(0.0, self._marked + MARK_EVERY - loop.time()))
                await _first(self._wake, self._progress, timeout=timeout)
        finally:
            for task in self._workers.values():
                task.cancel()

    async def flush(self) -> int:
        """Claims and sends until no row is left to this process, and returns how many
        were sent: each row is tried at most once per call.

        A row Discord refuses for good (403, 404, a bad body) counts an attempt and is
        given up after ``MAX_ATTEMPTS`` calls; given-up rows are left out, so they
        never hold up the rest. Discord's own trouble (5xx, rate limits) stops the
        claiming without counting: that target's rows claimed and not sent are let
        go, and wait for the next call however long the outage lasts, later posts
        behind them in order.
        """
        async with self._lock:
            before = self.sent_total
            tried: set[int] = set()
            self._trouble = False
            while True:
                self._progress.clear()
                tried |= await self._pass(claim=not self._stopping, skip=tried | self._in_flight)
                if not self._workers:
                    break
                await self._progress.wait()
            await self._pass(claim=False)
            return self.sent_total - before

    def _room(self) -> int:
        """How many rows the next claim may take."""
        return min(self.batch, self.max_in_flight - len(self._in_flight))

    async def _pass(self, *, claim: bool, skip: Collection[int] = ()) -> set[int]:
        """Marks the rows sent since the last pass, holds the rows still queued a
        while longer (when due), and, with ``claim``, claims what there is room for
        and queues it. The marks ride on the claim (on PostgreSQL one statement does
        both); each statement stands alone (on PostgreSQL it commits as it runs, no
        BEGIN and COMMIT around it; on SQLite they are one short transaction). The
        ids claimed."""
        loop = asyncio.get_running_loop()
        now = utcnow()
        renew = bool(self._in_flight) and (
            loop.time() - self._renewed > self.lease.total_seconds() / 3
        )
        room = self._room() if claim and not self._trouble else 0
        if not (self._sent or renew or room > 0):
            return set()
        ids, self._sent = self._sent, []
        try:
            async with self._statements() as session:
                repo = OutboxRepository(session)
                if renew:
                    await repo.renew(self._in_flight - set(ids), self.owner, now + self.lease)
                rows = []
                if room > 0:
                    rows = await repo.claim(
                        owner=self.owner,
                        until=now + self.lease,
                        now=now,
                        limit=room,
                        max_attempts=MAX_ATTEMPTS,
                        skip=skip,
                        sent=ids,
                    )
                    if self._trouble and rows:
                        # Discord's trouble began meanwhile: an earlier row of one of these
                        # targets may have been let go, so these must not overtake it.
                        await repo.release([r.id for r in rows], self.owner)
                        rows = []
                elif ids:
                    await repo.mark_sent(ids, now)
                await session.commit()
        except BaseException:
            self._sent = ids + self._sent  # marked the next time
            raise
        if renew:
            self._renewed = loop.time()
        self._marked = loop.time()
        self._in_flight.difference_update(ids)
        self.sent_total += len(ids)
        for key, row in _targets(rows, busy=self._queues.keys()):
            self._in_flight.add(row.id)
            self._queues.setdefault(key, deque()).append(row)
            if key not in self._workers:
                self._workers[key] = asyncio.create_task(
                    self._work(key), name=f"outbox {key[0]} {key[1]}"
                )
        return {r.id for r in rows}

    async def _work(self, key: Target) -> None:
        """Drains one target's queue, in order."""
        queue = self._queues[key]
        try:
            async with self._sending:
                while queue:
                    row = queue.popleft()
                    siblings = [r for r in queue if _same_dm(row, r)]
                    try:
                        along = await self._send(row, siblings)
                    except asyncio.CancelledError:
                        raise
                    except Exception as exc:
                        try:
                            stop = await self._failed(row, queue, exc)
                        except Exception:
                            # Not even the failure could be noted (the database is down):
                            # let go of the queue here; the claims are this process's,
                            # so a later pass takes the rows again, in order.
                            log.exception("outbox row %s: its failure was not noted", row.id)
                            self._in_flight.difference_update([row.id, *(r.id for r in queue)])
                            queue.clear()
                            self._trouble = True
                            return
                        if stop:
                            return
                        continue
                    finally:
                        self._progress.set()
                    for other in along:
                        queue.remove(other)
                    self._sent.extend([row.id, *(r.id for r in along)])
        finally:
            if self._workers.get(key) is asyncio.current_task():
                del self._workers[key]
                if not queue:
                    del self._queues[key]

    async def _failed(self, row: OutboxRow, queue: deque[OutboxRow], exc: Exception) -> bool:
        """Notes why ``row`` was not sent; whether the queue stops (Discord's trouble:
        the rest of it is let go, to keep its order, and the claiming pauses)."""
        if isinstance(exc, discord.HTTPException):
            transient = discords_trouble(exc)
            error = f"{exc.status} {exc.code}: {exc.text}"
        else:
            transient = isinstance(exc, _TRANSIENT)
            error = f"{type(exc).__name__}: {exc}"
            if not transient:
                log.error("outbox row %s could not be sent", row.id, exc_info=exc)
        log.warning("outbox row %s not sent (%s)", row.id, error[:200])
        rest = [r.id for r in queue] if transient else []
        async with self._factory() as session:
            repo = OutboxRepository(session)
            await repo.mark_failed(row.id, error, counts=not transient)
            await repo.release(rest, self.owner)
            await session.commit()
        self._in_flight.difference_update([row.id, *rest])
        if transient:
            queue.clear()
            self._trouble = True
        else:
            self._refused.add(row.id)
        return transient

    async def _payload_kwargs(self, row: OutboxRow, *, dm_to: int | None = None) -> dict[str, Any]:
        """``send``'s arguments for the row; ``dm_to`` is the member a DM goes to (None
        for a channel post, where a DM's own buttons are left off)."""
        post = Post.from_json(row.payload)
        kwargs: dict[str, Any] = {"allowed_mentions": discord.AllowedMentions.none()}
        if post.content:
            kwargs["content"] = post.content[:MESSAGE_CHARS]
        if post.embeds:
            kwargs["embeds"] = [
                discord.Embed.from_dict(e) for e in post.embeds[:EMBEDS_PER_MESSAGE]
            ]
        files = []
        for spec in post.files[:FILES_PER_MESSAGE]:
            filename, data = await self.renderers[spec.renderer](dict(spec.args))
            files.append(
                discord.File(io.BytesIO(data), filename=filename, description=spec.description)
            )
        if files:
            kwargs["files"] = files
        if post.view is not None:
            own = self.dm_views.get(post.view.kind)
            if own is None:
                kwargs["view"] = self.views[post.view.kind](dict(post.view.args))
            elif dm_to is not None:
                view = await own(dict(post.view.args), dm_to)
                if view is not None:
                    kwargs["view"] = view
        if post.mention_user_ids:
            kwargs["allowed_mentions"] = discord.AllowedMentions(
                everyone=False,
                roles=False,
                users=[discord.Object(i) for i in post.mention_user_ids],
            )
        return kwargs

    async def _send(
        self, row: OutboxRow, siblings: list[OutboxRow] | None = None
    ) -> list[OutboxRow]:
        """Sends ``row``; returns the ``siblings`` (the same DM to others) sent with it."""
        # images and buttons are made now, in the language the text was written in
        with use_language(Post.from_json(row.payload).language):
            return await self._send_in_language(row, siblings or [])

    async def _dm(self, row: OutboxRow) -> None:
        async def message() -> dict[str, Any]:
            # A DM carries a nonce too: resent after a crash, it is not delivered twice.
            return {"nonce": f"ob{row.id}", **await self._payload_kwargs(row, dm_to=row.target_id)}

        # To the member's stored DM channel: one request (bot/ui/dm_channels.py).
        await self.dms.send(row.target_id, message)

    async def _send_in_language(self, row: OutboxRow, siblings: list[OutboxRow]) -> list[OutboxRow]:
        if row.target_kind == "channel":
            kwargs = await self._payload_kwargs(row)
            channel = self.client.get_channel(row.target_id) or await self.client.fetch_channel(
                row.target_id
            )
            await _messageable(channel, row.target_id).send(nonce=f"ob{row.id}", **kwargs)
            return []
        try:
            await self._dm(row)
            return []
        except discord.Forbidden:
            if row.fallback_channel_id is None:
                raise
        # The same DM to the others (a pair's partner): those whose DMs are closed
        # too are named in the same fallback post.
        closed, along = [row.target_id], []
        for other in siblings:
            try:
                await self._dm(other)
            except discord.Forbidden:
                closed.append(other.target_id)
            except discord.HTTPException:
                continue  # left for its own turn in the pass
            along.append(other)
        channel = self.client.get_channel(
            row.fallback_channel_id
        ) or await self.client.fetch_channel(row.fallback_channel_id)
        kwargs = await self._payload_kwargs(row)  # files are single-use
        fallback = Post.from_json(row.payload).fallback_content or kwargs.get("content", "")
        mentions = " ".join(f"<@{user_id}>" for user_id in closed)
        kwargs["content"] = f"{mentions} {fallback}"[:MESSAGE_CHARS]
        kwargs["allowed_mentions"] = discord.AllowedMentions(
            everyone=False, roles=False, users=[discord.Object(user_id) for user_id in closed]
        )
        await _messageable(channel, row.fallback_channel_id).send(nonce=f"obf{row.id}", **kwargs)
        return along


def _targets(
    rows: list[OutboxRow], busy: Collection[Target] = ()
) -> list[tuple[Target, OutboxRow]]:
    """Which queue each claimed row goes to: its target's, in order, but the same DM
    to several members (a pair's partners, whose DMs may be closed: one fallback
    post names them all) goes in the queue of the first of them, unless the
    member's own queue is ``busy`` with earlier rows (they go first)."""
    home: dict[int, Target] = {}
    seen: set[Target] = set()
    placed = []
    for row in rows:
        key: Target = (row.target_kind, row.target_id)
        twin = next((r for r in rows if r.id < row.id and _same_dm(r, row)), None)
        if twin is not None and key not in seen and key not in busy:
            key = home[twin.id]
        home[row.id] = key
        seen.add(key)
        placed.append((key, row))
    return placed


async def _first(*events: asyncio.Event, timeout: float) -> None:
    """Waits until one of ``events`` is set, or ``timeout`` seconds."""
    waiters = [asyncio.ensure_future(e.wait()) for e in events]
    try:
        await asyncio.wait(waiters, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for waiter in waiters:
            waiter.cancel()


def default_owner(shard_ids: Sequence[int] | None = None) -> str:
    """This process's name in its claims: the machine and its shards, the same after a
    restart (so it takes its own claims back at once), unlike another shard's."""
    shards = ",".join(str(i) for i in shard_ids) if shard_ids else "all"
    return f"{socket.gethostname()}:shards={shards}"[:64]


def _same_dm(row: OutboxRow, other: OutboxRow) -> bool:
    """``other`` is the same DM as ``row`` to someone else, with the same fallback."""
    return (
        row.target_kind == other.target_kind == "user"
        and row.fallback_channel_id is not None
        and other.fallback_channel_id == row.fallback_channel_id
        and other.target_id != row.target_id
        and other.payload == row.payload
    )
