"""A club session's row and what every stage of it reads: the lookup by channel, the
version bump that serializes changes, and the session as members see it (see
``bot.services.sessions.service`` for the lifecycle)."""

from __future__ import annotations

import random
from collections.abc import Awaitable, Callable, Sequence
from datetime import timedelta

from bot.context import ServiceContext
from bot.db.models_sessions import ClubSessionRecord
from bot.db.uow import UnitOfWork
from bot.errors import NotFoundError
from bot.messages import sessions as messages
from bot.services import signups
from bot.services.scrabble.service import ScrabbleService
from bot.services.scrabble.sessions import SessionBoards
from bot.services.sessions.options import SessionOptions
from bot.services.sessions.snapshots import BoardSnapshot, Entry, SeatSnapshot, SessionSnapshot

JOB_OPEN_BOARD = "sessions.open_board"
JOB_DEADLINE = "sessions.deadline"
JOB_WATCH = "sessions.watch"
# How often a started session looks whether every board has ended before its deadline.
WATCH_EVERY = timedelta(minutes=1)
OWNER = "session"
WHAT = "the session"

# (channel_id, thread name, opening text, nonce, member ids) -> the thread's id (None: no thread)
ThreadOpener = Callable[[int, str, str, str, Sequence[int]], Awaitable[int | None]]


def open_key(session_id: int, number: int) -> str:
    """The job key of board ``number``'s opening."""
    return f"session:{session_id}:board:{number}:open"


def deadline_key(session_id: int) -> str:
    """The job key of the session's deadline."""
    return f"session:{session_id}:deadline"


def watch_key(session_id: int) -> str:
    """The job key of the look, each minute, whether every board has ended."""
    return f"session:{session_id}:watch"


class SessionCore:
    """What the stages share: the context, the Scrabble boards and the random source."""

    def __init__(self, ctx: ServiceContext, scrabble: ScrabbleService, rng: random.Random) -> None:
        self.ctx = ctx
        self.scrabble = scrabble
        self.boards = SessionBoards(scrabble.core)
        self.rng = rng

    async def view(self, uow: UnitOfWork, row: ClubSessionRecord) -> SessionSnapshot:
        """The session as members see it: sign-ups, boards and their games."""
        lst = await signups.list_for(uow, OWNER, row.id)
        roster = await signups.roster(uow, lst)
        ids = [m for e in roster.entrants for m in e.members]
        ids += [m for board in row.groups for seat in board for m in seat]
        names = await uow.players.names(list(dict.fromkeys(ids)))
        entries = tuple(
            Entry(e.place, tuple(names.get(m, str(m)) for m in e.members), e.members)
            for e in roster.entrants
        )
        games = {b.number: b.game_id for b in await uow.sessions.boards(row.id)}
        boards = []
        for number, board in enumerate(row.groups, start=1):
            seats = tuple(
                SeatSnapshot(tuple(seat), tuple(names.get(m, str(m)) for m in seat))
                for seat in board
            )
            game_id = games.get(number)
            game_number = home = None
            if game_id is not None:
                game = await uow.games.get(game_id)
                game_number, home = game.number, game.thread_id
            boards.append(BoardSnapshot(number, seats, game_id, game_number, home))
        return SessionSnapshot(
            id=row.id,
            channel_id=row.channel_id,
            moderator_id=row.moderator_id,
            status=row.status,
            options=SessionOptions.from_json(row.options),
            entries=entries,
            boards=tuple(boards),
            deadline=row.deadline,
            message_id=row.message_id,
        )

    async def current(
        self, uow: UnitOfWork, guild_id: int, channel_id: int, session_id: int | None = None
    ) -> ClubSessionRecord:
        """Session ``session_id`` of this guild, or the one open in this channel."""
        if session_id is not None:
            row = await uow.sessions.get(session_id)
            if row is None or row.guild_id != guild_id:
                raise NotFoundError(messages.NO_SUCH_SESSION)
            return row
        row = await uow.sessions.current_in_channel(channel_id)
        if row is None:
            raise NotFoundError(messages.NO_SESSION_HERE)
        return row

    async def bump(self, uow: UnitOfWork, row: ClubSessionRecord, **changes: object) -> None:
        """Change the row at its version; another change first retries the unit of work."""
        if not await uow.sessions.bump(row, **changes):
            raise signups.ListChanged()

    async def get(self, session_id: int) -> SessionSnapshot:
        """Session ``session_id`` as members see it."""
        async with self.ctx.reader() as uow:
            row = await uow.sessions.get(session_id)
            if row is None:
                raise NotFoundError(messages.NO_SUCH_SESSION)
            return await self.view(uow, row)
