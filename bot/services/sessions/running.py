"""A club session's boards while they run: each opens in its own thread (a job
each), a look each minute sees whether all have ended, and the deadline (or the
moderator's ``end``) ends every board at once and posts the results."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from bot.db.models import JobRecord
from bot.db.models_sessions import ClubSessionRecord
from bot.db.uow import UnitOfWork
from bot.errors import ConflictError, PermissionDeniedError
from bot.messages import sessions as messages
from bot.messages import tally as tally_messages
from bot.messages.errors import moderators_only
from bot.messages.i18n import _
from bot.messages.post import Post
from bot.services import signups
from bot.services.scheduling import hooks as event_hooks
from bot.services.scrabble.loaded import load_game
from bot.services.sessions.core import (
    JOB_WATCH,
    OWNER,
    WATCH_EVERY,
    SessionCore,
    ThreadOpener,
    deadline_key,
    watch_key,
)
from bot.services.sessions.reading import SessionReading
from bot.services.sessions.snapshots import SessionSnapshot
from bot.services.transactions import transact


class SessionRunning:
    """The boards' openings, the end of the session, and its results post."""

    def __init__(self, core: SessionCore, reading: SessionReading) -> None:
        self.core = core
        self.reading = reading
        self.thread_opener: ThreadOpener | None = None

    async def prepare_open_board(self, payload: dict[str, Any]) -> tuple[int | None] | None:
        """Make the board's thread (a call to Discord, outside the job's transaction).
        The opener posts its first message with a nonce and makes the thread from it,
        so a repeat after a crash makes no second thread."""
        game_id = int(payload["game_id"])
        number = int(payload["board"])
        async with self.core.ctx.reader() as uow:
            loaded = await load_game(uow, game_id)
            if "moves" in loaded.meta or loaded.record.status != "active":
                return None  # open already (or over)
            row = await uow.sessions.get(int(payload["session_id"]))
            if row is None:
                return None
            channel_id = row.channel_id
            game_number = loaded.number
            members = [u for s in sorted(loaded.seats) for u in loaded.seats[s]]
            names = await uow.players.names(members)
            seats = [[names.get(u, str(u)) for u in loaded.seats[s]] for s in sorted(loaded.seats)]
        opener = self.thread_opener
        if opener is None:
            return (None,)
        thread_id = await opener(
            channel_id,
            messages.board_thread_name(number, game_number),
            messages.board_opening(number, game_number, seats),
            f"sb{game_id}",
            members,
        )
        return (thread_id,)

    async def on_open_board(
        self, uow: UnitOfWork, job: JobRecord, prepared: tuple[int | None] | None
    ) -> None:
        """Store the board's thread and post its first board; the last board to open
        posts where everyone plays."""
        if prepared is None:
            return
        now = self.core.ctx.clock()
        if not await self.core.boards.open_in(uow, int(job.payload["game_id"]), prepared[0], now):
            return
        row = await uow.sessions.get(int(job.payload["session_id"]))
        if row is None:
            return
        await uow.sessions.flush()
        homes: list[int | None] = []
        for board in await uow.sessions.boards(row.id):
            game = await uow.games.get(board.game_id)
            opened = "moves" in (game.state or {})
            homes.append((game.thread_id or game.channel_id) if opened else None)
        everyone_open = all(home is not None for home in homes)
        post_now = everyone_open and not row.options.get("where_posted")
        # Every opening bumps the session, so two boards opening at once in two
        # processes serialize: the later one is retried and sees both open.
        if not await uow.sessions.bump(
            row,
            options={
                **row.options,
                "where_posted": post_now or bool(row.options.get("where_posted")),
            },
        ):
            raise ConflictError()
        if not post_now:
            return  # another board is still opening: the last one posts
        view = await self.core.view(uow, row)
        everyone = tuple(u for b in view.boards for s in b.seats for u in s.user_ids)
        post = Post(content=messages.where_everyone_plays(view, homes), mention_user_ids=everyone)
        uow.outbox.to_channel(row.channel_id, post)

    # -- the end ----------------------------------------------------------------------------

    async def on_deadline(self, uow: UnitOfWork, job: JobRecord) -> None:
        """The session's deadline: every board ends now."""
        row = await uow.sessions.get(int(job.payload["session_id"]))
        if row is None or row.status != "started":
            return
        await self.end_all(uow, row, self.core.ctx.clock())

    async def on_watch(self, uow: UnitOfWork, job: JobRecord) -> None:
        """Every board has ended before the deadline (played out): the results post now;
        otherwise look again in a minute."""
        row = await uow.sessions.get(int(job.payload["session_id"]))
        if row is None or row.status != "started":
            return
        now = self.core.ctx.clock()
        boards = await uow.sessions.boards(row.id)
        games = [await uow.games.get(b.game_id) for b in boards]
        if games and all(g.status != "active" for g in games):
            await self.end_all(uow, row, now)
            return
        await uow.jobs.schedule(
            JOB_WATCH, now + WATCH_EVERY, {"session_id": row.id}, key=watch_key(row.id)
        )

    async def end(self, *, guild_id: int, channel_id: int, is_moderator: bool) -> SessionSnapshot:
        """The moderator ends the session now: every board ends as at the deadline
        (a session not started yet is cancelled)."""
        if not is_moderator:
            raise PermissionDeniedError(moderators_only("end a session"))
        now = self.core.ctx.clock()

        async def work(uow: UnitOfWork) -> SessionSnapshot:
            row = await self.core.current(uow, guild_id, channel_id)
            if row.status == "started":
                await self.end_all(uow, row, now, early=True)
            else:
                lst = await signups.list_for(uow, OWNER, row.id)
                await signups.close(uow, lst)
                await self.core.bump(uow, row, status="cancelled", ended_at=now)
                await event_hooks.session_over(uow, row.id, now)
                uow.outbox.to_channel(row.channel_id, Post(content=_(messages.CANCELLED)))
            view = await self.core.view(uow, row)
            return view

        return await transact(self.core.ctx, work)

    async def end_all(
        self, uow: UnitOfWork, row: ClubSessionRecord, now: datetime, *, early: bool = False
    ) -> None:
        """Every board ends at this moment, in this transaction; then the results post.
        ``early``: the moderator ended the session before its deadline."""
        boards = await uow.sessions.boards(row.id)
        for board in boards:
            await self.core.boards.end(uow, board.game_id, now, early=early)
        await uow.jobs.cancel(deadline_key(row.id))
        await uow.jobs.cancel(watch_key(row.id))
        await self.core.bump(uow, row, status="ended", ended_at=now)
        await event_hooks.session_over(uow, row.id, now)
        results = await self.reading.ranked(uow, row)
        counting = [
            board.number
            for board in boards
            if (await uow.games.get(board.game_id)).status == "active"
        ]
        if counting:
            # Over the board: the boards wait for the tiles left on their racks; the
            # last rack entered posts the results (``SessionTallying``).
            uow.outbox.to_channel(
                row.channel_id, Post(content=tally_messages.racks_wanted(counting))
            )
            return
        for text in messages.results_posts(results):
            uow.outbox.to_channel(row.channel_id, Post(content=text))
