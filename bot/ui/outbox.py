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
from collections.abc import Awaitable, Callable, Sequence
from datetime import timedelta
from typing import Any

import discord
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from bot.db.models import OutboxRecord, utcnow
from bot.db.repositories import OutboxRepository
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
MAX_ATTEMPTS = 5
BATCH = 50  # rows claimed at a time
CONCURRENCY = 8  # targets sent to at once (discord.py keeps each route's rate limit)
LEASE = timedelta(seconds=60)  # a claim held this long by a process that died is let go


def _messageable(channel: object, channel_id: int) -> discord.abc.Messageable:
    """``channel`` as somewhere to post: a forum or a category takes no messages."""
    if not isinstance(channel, discord.abc.Messageable):
        raise TypeError(f"channel {channel_id} ({type(channel).__name__}) takes no messages")
    return channel


class OutboxSender:
    """Sends the outbox: claims a batch of rows (a short transaction), sends them with no
    transaction open (rendering images, calling Discord), then marks each sent.

    Posts to different channels (and DMs to different members) go out at once, up to
    ``concurrency``; each target's posts go one after another, in the order they were
    written. ``owner`` names this process in its claims: another process (a shard of
    its own, on the same database) never takes a row this one holds until the lease
    runs out, and this process started again takes its own back at once.
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
    ) -> None:
        self.client = client
        self._factory = session_factory
        self.owner = owner or default_owner()
        self.dms = dms or DirectMessages(client, session_factory)
        self.batch = batch
        self.lease = lease
        self._sending = asyncio.Semaphore(concurrency)
        self.renderers: dict[str, FileRenderer] = {}
        self.views: dict[str, ViewBuilder] = {}
        self.dm_views: dict[str, DmViewBuilder] = {}
        self._wake = asyncio.Event()
        self._lock = asyncio.Lock()
        self._stopping = False

    def notify(self) -> None:
        """Look for rows to send now (a commit just wrote some)."""
        self._wake.set()

    def stop(self) -> None:
        """Finish the flush under way and return from ``run_forever``."""
        self._stopping = True
        self._wake.set()

    async def run_forever(self, poll_seconds: float = 5.0) -> None:
        """Flush whenever notified, and every ``poll_seconds`` (rows another process wrote)."""
        while not self._stopping:
            try:
                await self.flush()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("outbox flush failed")
            if self._stopping:
                return
            self._wake.clear()
            try:
                await asyncio.wait_for(self._wake.wait(), timeout=poll_seconds)
            except TimeoutError:
                pass

    async def flush(self) -> int:
        """Passes over the unsent rows until none is left to this process: each row is
        tried at most once per call.

        A row Discord refuses for good (403, 404, a bad body) counts an attempt and is
        given up after ``MAX_ATTEMPTS`` calls; given-up rows are left out, so they
        never hold up the rest. Discord's own trouble (5xx, rate limits) ends the call
        without counting: the rows claimed and not sent are let go, and wait for the
        next call however long the outage lasts, later posts behind them in order.
        """
        sent = 0
        tried: set[int] = set()
        async with self._lock:
            while True:
                now = utcnow()
                async with self._factory() as session:
                    rows = await OutboxRepository(session).claim(
                        owner=self.owner,
                        until=now + self.lease,
                        now=now,
                        limit=self.batch,
                        max_attempts=MAX_ATTEMPTS,
                        exclude=tried,
                    )
                    await session.commit()
                if not rows:
                    return sent
                tried.update(r.id for r in rows)
                outcomes = await asyncio.gather(*(self._send_queue(q) for q in _queues(rows)))
                sent += sum(count for count, _ in outcomes)
                if any(trouble for _, trouble in outcomes) or self._stopping:
                    return sent

    async def _send_queue(self, queue: list[OutboxRecord]) -> tuple[int, bool]:
        """One target's rows (with the same DM to others beside them), in order:
        how many were sent, and whether Discord's own trouble stopped it."""
        sent = 0
        done: set[int] = set()
        async with self._sending:
            for index, row in enumerate(queue):
                if row.id in done:
                    continue  # sent along with an earlier row (one fallback post)
                siblings = [r for r in queue[index + 1 :] if r.id not in done and _same_dm(row, r)]
                try:
                    along = await self._send(row, siblings)
                except discord.HTTPException as exc:
                    transient = discords_trouble(exc)
                    error = f"{exc.status} {exc.code}: {exc.text}"
                    log.warning("outbox row %s not sent (%s)", row.id, error[:200])
                    async with self._factory() as session:
                        repo = OutboxRepository(session)
                        await repo.mark_failed(row.id, error, counts=not transient)
                        if transient:
                            rest = [r.id for r in queue[index + 1 :] if r.id not in done]
                            await repo.release(rest, self.owner)
                        await session.commit()
                    if transient:
                        return sent, True
                    continue
                ids = [row.id, *(r.id for r in along)]
                done.update(ids)
                async with self._factory() as session:
                    await OutboxRepository(session).mark_sent(ids, utcnow())
                    await session.commit()
                sent += len(ids)
        return sent, False

    async def _payload_kwargs(
        self, row: OutboxRecord, *, dm_to: int | None = None
    ) -> dict[str, Any]:
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
        self, row: OutboxRecord, siblings: list[OutboxRecord] | None = None
    ) -> list[OutboxRecord]:
        """Sends ``row``; returns the ``siblings`` (the same DM to others) sent with it."""
        # images and buttons are made now, in the language the text was written in
        with use_language(Post.from_json(row.payload).language):
            return await self._send_in_language(row, siblings or [])

    async def _dm(self, row: OutboxRecord) -> None:
        async def message() -> dict[str, Any]:
            # A DM carries a nonce too: resent after a crash, it is not delivered twice.
            return {"nonce": f"ob{row.id}", **await self._payload_kwargs(row, dm_to=row.target_id)}

        # To the member's stored DM channel: one request (bot/ui/dm_channels.py).
        await self.dms.send(row.target_id, message)

    async def _send_in_language(
        self, row: OutboxRecord, siblings: list[OutboxRecord]
    ) -> list[OutboxRecord]:
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


def _queues(rows: list[OutboxRecord]) -> list[list[OutboxRecord]]:
    """The claimed rows as queues that may go out side by side: one per target, in
    order, with the same DM to several members (a pair's partners, whose DMs may be
    closed: one fallback post names them all) in the queue of the first of them."""
    queues: dict[tuple[str, int], list[OutboxRecord]] = {}
    home: dict[int, tuple[str, int]] = {}
    for row in rows:
        key = (row.target_kind, row.target_id)
        twin = next((r for r in rows if r.id < row.id and _same_dm(r, row)), None)
        if twin is not None and (row.target_kind, row.target_id) not in queues:
            key = home[twin.id]
        home[row.id] = key
        queues.setdefault(key, []).append(row)
    return list(queues.values())


def default_owner(shard_ids: Sequence[int] | None = None) -> str:
    """This process's name in its claims: the machine and its shards, the same after a
    restart (so it takes its own claims back at once), unlike another shard's."""
    shards = ",".join(str(i) for i in shard_ids) if shard_ids else "all"
    return f"{socket.gethostname()}:shards={shards}"[:64]


def _same_dm(row: OutboxRecord, other: OutboxRecord) -> bool:
    """``other`` is the same DM as ``row`` to someone else, with the same fallback."""
    return (
        row.target_kind == other.target_kind == "user"
        and row.fallback_channel_id is not None
        and other.fallback_channel_id == row.fallback_channel_id
        and other.target_id != row.target_id
        and other.payload == row.payload
    )
