"""The outbox sender on a real database: rows are claimed in a short transaction and
sent with none open, so drawing a board image (or waiting on Discord) never holds
the database; a post that fails for good lets go of its row; Discord's own trouble
lets go of the rest of that channel's queue, in order, for the next pass."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import discord
import pytest
from sqlalchemy import Connection, event, select
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.db.engine import create_engine, create_session_factory
from bot.db.models import OutboxRecord
from bot.db.repositories import OutboxRepository
from bot.messages.post import FileSpec, Post
from bot.ui import outbox
from bot.ui.outbox import OutboxSender

CHANNEL, OTHER = 501, 502


class Channel(discord.abc.Messageable):
    """Where the sender posts: records each post (or fails as told)."""

    def __init__(self, channel_id: int, posted: list[tuple[int, str]]) -> None:
        self.id = channel_id
        self.posted = posted
        self.fail: list[int] = []  # HTTP statuses to answer the next posts with

    async def _get_channel(self) -> Any:
        return self

    async def send(self, content: str | None = None, **kwargs: Any) -> Any:  # type: ignore[override]
        if self.fail:
            status = self.fail.pop(0)
            response = type("Response", (), {"status": status, "reason": "test"})()
            raise discord.HTTPException(response, {"code": 0, "message": "refused"})  # type: ignore[arg-type]
        self.posted.append((self.id, content or ""))
        return None


class Client:
    def __init__(self, channels: dict[int, Channel]) -> None:
        self.channels = channels

    def get_channel(self, channel_id: int) -> Channel | None:
        return self.channels.get(channel_id)


async def _write(session_factory, *posts: tuple[int, Post]) -> None:
    async with session_factory() as session:
        for channel_id, post in posts:
            OutboxRepository(session).to_channel(channel_id, post)
        await session.commit()


async def _rows(session_factory) -> list[OutboxRecord]:
    async with session_factory() as session:
        return list(
            (await session.execute(select(OutboxRecord).order_by(OutboxRecord.id))).scalars()
        )


def _slow_board(sender: OutboxSender) -> tuple[asyncio.Event, asyncio.Event]:
    """A board image that takes as long as the test likes: (drawing has begun, let it finish)."""
    drawing, finish = asyncio.Event(), asyncio.Event()

    async def slow_board(args: dict[str, Any]) -> tuple[str, bytes]:
        drawing.set()
        await finish.wait()
        return "board.png", b"\x89PNG"

    sender.renderers["board"] = slow_board
    return drawing, finish


def _sender(session_factory, channels: dict[int, Channel]) -> OutboxSender:
    return OutboxSender(Client(channels), session_factory, owner="test:1")  # type: ignore[arg-type]


async def test_drawing_an_image_holds_no_transaction_open(session_factory) -> None:
    posted: list[tuple[int, str]] = []
    channels = {CHANNEL: Channel(CHANNEL, posted), OTHER: Channel(OTHER, posted)}
    sender = _sender(session_factory, channels)
    drawing, finish = _slow_board(sender)
    board = FileSpec("board", {}, "the board after move 1")
    await _write(session_factory, (CHANNEL, Post(content="move 1", files=(board,))))
    flushing = asyncio.create_task(sender.flush())
    await asyncio.wait_for(drawing.wait(), 5)
    # While the image is drawn, another writer commits at once (on SQLite it would
    # wait for the write lock, and time out, if the sender held a transaction).
    await asyncio.wait_for(_write(session_factory, (OTHER, Post(content="meanwhile"))), 5)
    finish.set()
    assert await asyncio.wait_for(flushing, 5) == 2  # the later row too, in the same flush
    assert posted == [(CHANNEL, "move 1"), (OTHER, "meanwhile")]
    first = (await _rows(session_factory))[0]
    assert first.sent_at is not None and first.claimed_by is None


async def test_a_post_refused_for_good_counts_an_attempt_and_lets_go(session_factory) -> None:
    posted: list[tuple[int, str]] = []
    channel = Channel(CHANNEL, posted)
    channel.fail = [403]
    sender = _sender(session_factory, {CHANNEL: channel})
    await _write(session_factory, (CHANNEL, Post(content="a")), (CHANNEL, Post(content="b")))
    await sender.flush()
    first, second = await _rows(session_factory)
    assert (first.sent_at, first.attempts, first.claimed_by) == (None, 1, None)
    assert first.last_error is not None and first.last_error.startswith("403")
    assert second.sent_at is not None  # a refusal for good does not hold the channel up
    assert posted == [(CHANNEL, "b")]


async def test_discords_trouble_lets_the_channels_rest_go_in_order(session_factory) -> None:
    posted: list[tuple[int, str]] = []
    channel, other = Channel(CHANNEL, posted), Channel(OTHER, posted)
    channel.fail = [503]
    sender = _sender(session_factory, {CHANNEL: channel, OTHER: other})
    await _write(
        session_factory,
        (CHANNEL, Post(content="a")),
        (CHANNEL, Post(content="b")),
        (OTHER, Post(content="x")),
    )
    await sender.flush()
    a, b, x = await _rows(session_factory)
    assert (a.sent_at, a.attempts, a.claimed_by) == (None, 0, None)  # not counted: Discord's
    assert (b.sent_at, b.claimed_by) == (None, None)  # waits behind a, let go
    assert x.sent_at is not None  # another channel is not held up
    await sender.flush()  # Discord is back
    assert [text for where, text in posted if where == CHANNEL] == ["a", "b"]


@pytest.mark.parametrize("holder_alive", [True, False])
async def test_a_row_another_process_holds_waits_until_its_lease_runs_out(
    session_factory, holder_alive: bool
) -> None:
    from datetime import timedelta

    from bot.db.models import utcnow

    posted: list[tuple[int, str]] = []
    await _write(session_factory, (CHANNEL, Post(content="a")), (CHANNEL, Post(content="b")))
    async with session_factory() as session:
        now = utcnow()
        lease = timedelta(seconds=60) if holder_alive else timedelta(seconds=-1)
        held = await OutboxRepository(session).claim(
            owner="other:0", until=now + lease, now=now, limit=1, max_attempts=5
        )
        await session.commit()
    assert [r.id for r in held] == [1]
    await _sender(session_factory, {CHANNEL: Channel(CHANNEL, posted)}).flush()
    # b is never sent before a: while a's holder lives, the channel waits for it
    assert posted == ([] if holder_alive else [(CHANNEL, "a"), (CHANNEL, "b")])


async def test_a_slow_channel_holds_up_no_other_and_its_later_posts_queue_behind(
    session_factory,
) -> None:
    """The sender keeps claiming while a post is on its way: another channel's posts
    go out meanwhile, and the slow channel's later posts follow its first, in order."""
    posted: list[tuple[int, str]] = []
    channels = {CHANNEL: Channel(CHANNEL, posted), OTHER: Channel(OTHER, posted)}
    sender = _sender(session_factory, channels)
    drawing, finish = _slow_board(sender)
    board = FileSpec("board", {}, "the board after move 1")
    await _write(session_factory, (CHANNEL, Post(content="move 1", files=(board,))))
    running = asyncio.create_task(sender.run_forever(poll_seconds=60))
    try:
        await asyncio.wait_for(drawing.wait(), 5)
        await _write(
            session_factory,
            (CHANNEL, Post(content="move 2")),
            (OTHER, Post(content="elsewhere 1")),
            (OTHER, Post(content="elsewhere 2")),
        )
        sender.notify()
        for _ in range(200):
            if len(posted) == 2:
                break
            await asyncio.sleep(0.01)
        assert posted == [(OTHER, "elsewhere 1"), (OTHER, "elsewhere 2")]
        finish.set()
        for _ in range(200):
            if len(posted) == 4 and all(r.sent_at for r in await _rows(session_factory)):
                break
            await asyncio.sleep(0.01)
        assert [text for where, text in posted if where == CHANNEL] == ["move 1", "move 2"]
        rows = await _rows(session_factory)
        assert all(r.sent_at is not None and r.claimed_by is None for r in rows)
    finally:
        sender.stop()
        await asyncio.wait_for(running, 5)


async def test_rows_waiting_in_a_queue_stay_claimed_past_the_first_lease(
    session_factory,
) -> None:
    """A row queued behind a slow post is held (the lease renewed) for as long as it
    waits: another process never takes it and posts it out of order."""
    from datetime import timedelta

    from bot.db.models import utcnow

    posted: list[tuple[int, str]] = []
    sender = OutboxSender(
        Client({CHANNEL: Channel(CHANNEL, posted)}),  # type: ignore[arg-type]
        session_factory,
        owner="test:1",
        lease=timedelta(seconds=0.6),
    )
    drawing, finish = _slow_board(sender)
    board = FileSpec("board", {}, "the board")
    await _write(
        session_factory,
        (CHANNEL, Post(content="first", files=(board,))),
        (CHANNEL, Post(content="second")),
    )
    running = asyncio.create_task(sender.run_forever(poll_seconds=0.1))
    try:
        await asyncio.wait_for(drawing.wait(), 5)
        await asyncio.sleep(1.5)  # well past the first lease of 0.6 s
        async with session_factory() as session:
            now = utcnow()
            taken = await OutboxRepository(session).claim(
                owner="other:0",
                until=now + timedelta(seconds=60),
                now=now,
                limit=10,
                max_attempts=5,
            )
            await session.commit()
        assert taken == []
        finish.set()
        for _ in range(300):
            if len(posted) == 2:
                break
            await asyncio.sleep(0.01)
        assert posted == [(CHANNEL, "first"), (CHANNEL, "second")]
    finally:
        sender.stop()
        await asyncio.wait_for(running, 5)


async def test_the_database_s_trouble_while_sending_counts_no_attempt(session_factory) -> None:
    """A post that fails on the bot's own database (a DM's channel is looked up there;
    SQLite busy past its timeout) is Discord's fault no more than ours: not counted,
    let go with the rest of its channel, and sent by a later pass, in order."""
    import sqlalchemy.exc

    posted: list[tuple[int, str]] = []
    channel = Channel(CHANNEL, posted)
    real_send = channel.send
    failures = [sqlalchemy.exc.OperationalError("SELECT", {}, Exception("database is locked"))]

    async def send(content: str | None = None, **kwargs: Any) -> Any:
        if failures:
            raise failures.pop()
        return await real_send(content, **kwargs)

    channel.send = send  # type: ignore[method-assign]
    sender = _sender(session_factory, {CHANNEL: channel})
    await _write(session_factory, (CHANNEL, Post(content="a")), (CHANNEL, Post(content="b")))
    await sender.flush()
    a, b = await _rows(session_factory)
    assert (a.sent_at, a.attempts, a.claimed_by) == (None, 0, None)
    assert (b.sent_at, b.claimed_by) == (None, None)  # waits behind a
    assert a.last_error is not None and "database is locked" in a.last_error
    await sender.flush()
    assert posted == [(CHANNEL, "a"), (CHANNEL, "b")]


async def test_stopping_while_a_post_is_on_its_way_finishes_it_and_keeps_the_loop_running(
    session_factory,
) -> None:
    """A shutdown while a board is being drawn waits for that post (the event loop
    goes on meanwhile: the drawing and everything else still run), then returns.
    (Were the sender to spin instead of waiting, this test would never get the loop back.)"""
    posted: list[tuple[int, str]] = []
    sender = _sender(session_factory, {CHANNEL: Channel(CHANNEL, posted)})
    drawing, finish = _slow_board(sender)
    board = FileSpec("board", {}, "the board")
    await _write(session_factory, (CHANNEL, Post(content="last move", files=(board,))))
    passes = 0
    real_pass = sender._pass

    async def counted(**kwargs: Any) -> set[int]:
        nonlocal passes
        passes += 1
        return await real_pass(**kwargs)

    sender._pass = counted  # type: ignore[method-assign]
    running = asyncio.create_task(sender.run_forever(poll_seconds=60))
    await asyncio.wait_for(drawing.wait(), 5)
    sender.stop()
    before = passes
    await asyncio.sleep(0.05)  # the loop is still ours
    assert not running.done()  # waiting for the post under way
    assert passes - before < 5, passes - before  # it waits; it does not go round and round
    finish.set()
    await asyncio.wait_for(running, 5)
    assert posted == [(CHANNEL, "last move")]
    assert (await _rows(session_factory))[0].sent_at is not None


class _RoundTrips:
    """What the sender's engine asks of the database: each statement, and each BEGIN,
    COMMIT and ROLLBACK that is sent (none on PostgreSQL's autocommit connections;
    SQLite's BEGIN IMMEDIATE is a statement of the project's own, counted as one)."""

    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine.sync_engine
        self.seen: list[str] = []
        ends = ["commit", "rollback"]
        if engine.dialect.name != "sqlite":
            ends.append("begin")
        self._listeners = [("before_cursor_execute", self._statement)]
        self._listeners += [(name, self._end(name.upper())) for name in ends]

    def _statement(self, conn: Any, cursor: Any, statement: str, *args: Any) -> None:
        self.seen.append(statement.split()[0].upper())

    def _end(self, name: str) -> Callable[..., None]:
        def note(conn: Connection, *args: Any) -> None:
            if conn.get_execution_options().get("isolation_level") != "AUTOCOMMIT":
                self.seen.append(name)

        return note

    def __enter__(self) -> _RoundTrips:
        for name, listener in self._listeners:
            event.listen(self.engine, name, listener)
        return self

    def __exit__(self, *exc_info: object) -> None:
        for name, listener in self._listeners:
            event.remove(self.engine, name, listener)


async def test_a_row_sent_costs_one_round_trip(
    backend: str, engine: AsyncEngine, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Sending a row asks the database once: one statement claims the rows and reads
    what sending them needs, and marks the rows sent before with the same claim (on
    PostgreSQL in the same statement, with no BEGIN and COMMIT around it; on SQLite
    one short transaction). Written one at a time, each sent before the next is
    written (a move, then its board), or ten at once to five channels, in order."""
    # Rows come faster than a sent row waits for a claim to mark it with (a machine
    # slowed down by other work must not make a mark go alone here).
    monkeypatch.setattr(outbox, "MARK_EVERY", 60.0)
    posted: list[tuple[int, str]] = []
    channels = {n: Channel(n, posted) for n in range(CHANNEL, CHANNEL + 5)}
    sender = _sender(create_session_factory(engine), channels)
    writer = create_engine(engine.url.render_as_string(hide_password=False))
    write = create_session_factory(writer)
    running = asyncio.create_task(sender.run_forever(poll_seconds=60))

    async def sent(count: int) -> None:
        sender.notify()
        for _ in range(500):
            if len(posted) >= count:
                return
            await asyncio.sleep(0.01)
        raise AssertionError(f"{len(posted)} of {count} sent")

    try:
        await _write(write, (CHANNEL, Post(content="warm")))
        await sent(1)  # the pool's first connections, made before counting
        with _RoundTrips(engine) as one_at_a_time:
            for n in range(20):
                await _write(write, (CHANNEL + n % 5, Post(content=f"move {n}")))
                await sent(2 + n)
            sender.stop()
            await asyncio.wait_for(running, 5)  # the last marks go out as it stops
        await _write(write, *((CHANNEL + n % 5, Post(content=f"burst {n}")) for n in range(10)))
        with _RoundTrips(engine) as together:
            sender = _sender(create_session_factory(engine), channels)  # a stopped one stays so
            running = asyncio.create_task(sender.run_forever(poll_seconds=60))
            await sent(31)
            sender.stop()
            await asyncio.wait_for(running, 5)
    finally:
        sender.stop()
        await asyncio.wait_for(running, 5)
        await writer.dispose()

    for n in range(5):
        mine = [text for where, text in posted if where == CHANNEL + n]
        assert mine == [
            *(["warm"] if n == 0 else []),
            f"move {n}",
            f"move {n + 5}",
            f"move {n + 10}",
            f"move {n + 15}",
            f"burst {n}",
            f"burst {n + 5}",
        ]
    assert all(r.sent_at is not None and r.claimed_by is None for r in await _rows(write))
    # A claim a row, the last marks as the sender stops. PostgreSQL: one statement a
    # row. SQLite: BEGIN IMMEDIATE, the mark, the claim, COMMIT. It was 8 a row on
    # either: BEGIN, two SELECTs, UPDATE and COMMIT to claim, then BEGIN, UPDATE and
    # COMMIT to mark.
    if backend == "postgres":
        assert len(one_at_a_time.seen) <= 20 + 1, one_at_a_time.seen
        assert together.seen == ["WITH", "UPDATE"]  # ten rows: one claim, one mark
        assert {"BEGIN", "COMMIT"}.isdisjoint(one_at_a_time.seen)
    else:
        assert len(one_at_a_time.seen) <= 4 * 20 + 3, one_at_a_time.seen
        assert len(together.seen) == 3 + 3, together.seen


async def test_a_claim_takes_no_row_behind_one_another_process_is_claiming(
    backend: str, engine: AsyncEngine
) -> None:
    """On PostgreSQL the claim is one statement reading ``FOR UPDATE SKIP LOCKED``:
    while another process's claim of a channel's first row is still open, it neither
    waits nor takes that row, nor the channel's later rows (they would overtake it),
    and it takes another channel's. (SQLite's claims take turns on its write lock.)"""
    if backend != "postgres":
        pytest.skip("PostgreSQL's row locks")
    from datetime import timedelta

    from bot.db.engine import create_statement_session_factory
    from bot.db.models import utcnow

    factory = create_session_factory(engine)
    await _write(
        factory,
        (CHANNEL, Post(content="a1")),
        (CHANNEL, Post(content="a2")),
        (OTHER, Post(content="x1")),
    )
    now = utcnow()
    claim = {"until": now + timedelta(seconds=60), "now": now, "max_attempts": 5}
    async with factory() as other:  # another process, its claim not yet committed
        held = await OutboxRepository(other).claim(owner="other:0", limit=1, **claim)
        assert [r.id for r in held] == [1]
        async with create_statement_session_factory(engine)() as mine:
            taken = await asyncio.wait_for(
                OutboxRepository(mine).claim(owner="test:1", limit=10, **claim), 5
            )
            assert [(r.id, r.target_id, r.payload["content"]) for r in taken] == [(3, OTHER, "x1")]
        await other.commit()
    async with create_statement_session_factory(engine)() as mine:  # a1 is held, a2 behind it
        again = await OutboxRepository(mine).claim(owner="test:1", limit=10, skip=[3], **claim)
        assert again == []
