"""Starting chess games: a challenge and its answer, a game against the computer,
and the game's place (its thread) where the opening board is posted.

``invited → active`` when the challenged member accepts (the clock starts then),
``invited → abandoned`` when they decline, the challenger withdraws, or the
invitation expires (``Timers.on_invite_expiry``).

An accepted game is *half-open* until its thread holds the opening board. The
acceptance commits with the invitation's message id and a ``JOB_OPEN`` job due
at once; opening (``open``: make the thread through the cog's ``thread_opener``,
then ``open_in``: record it and write the opening board to the outbox, in one
transaction) is idempotent, so the Accept click that follows, the job, or the
job again after a restart each finish it, and only the first posts the board.
Until then the invitation's Accept still works: it opens the game.

A game against the computer is half-open the same way: its creation schedules
``JOB_OPEN``; the cog records its reply (the announcement the thread is made
from) with ``record_opening`` and then runs ``open``. If the bot died before the
reply was sent or recorded, the job posts the announcement itself through the
cog's ``announcer`` (with a nonce, so a repeat after a crash posts it once),
records it, and opens the game from it.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from bot.db.models import GameRecord, JobRecord
from bot.db.uow import UnitOfWork
from bot.errors import ConflictError, InvalidInputError, PermissionDeniedError
from bot.messages import chess as msg
from bot.messages.chess import refusals
from bot.services.chess.core import UseCase
from bot.services.chess.engine import DEFAULT_LEVEL, INSTALL_HINT, EngineUnavailableError
from bot.services.chess.options import (
    BLACK_SEAT,
    COMPUTER_START_GRACE,
    JOB_OPEN,
    OPEN_RETRY,
    WHITE_SEAT,
    challenger_plays_white,
    check_level,
    invite_key,
    open_key,
    options_of,
    read_time_control,
)
from bot.services.chess.seating import seat_game, started
from bot.services.chess.snapshots import ChessSnapshot, OpeningPlan, PlayerRef
from bot.services.transactions import transact
from engines.chess_clock import parse_time_control


@dataclass(frozen=True)
class _Table:
    """Where a new game is set up, and the options it was asked with."""

    guild_id: int
    guild_name: str
    channel_id: int
    time_control: str | None
    color: str | None


ThreadOpener = Callable[[OpeningPlan], Awaitable[int | None]]
# Posts (channel_id, content, nonce) once per nonce and returns its message id,
# or None when the channel cannot take it (the game then plays without a thread).
Announcer = Callable[[int, str, str], Awaitable[int | None]]


def announce_nonce(game_id: int) -> str:
    """The nonce of a computer game's announcement (Discord allows 25 characters)."""
    return f"chess-open-{game_id}"


class Starting(UseCase):
    """Starting games: a challenge and its answer, a game against the computer, and the
    game's thread with its opening board."""

    # Makes (or finds: it must be idempotent) a game's thread from its invitation
    # and returns its id, or None to play in the channel; given by the cog.
    thread_opener: ThreadOpener | None = None
    # Posts a computer game's announcement when the command's reply never was; given by the cog.
    announcer: Announcer | None = None

    async def challenge(
        self,
        *,
        guild_id: int,
        guild_name: str,
        channel_id: int,
        challenger: PlayerRef,
        opponent: PlayerRef,
        time_control: str | None = None,
        color: str | None = None,
        partner: PlayerRef | None = None,
        opponent_partner: PlayerRef | None = None,
    ) -> ChessSnapshot:
        """Invite ``opponent``; the game starts when they accept. With ``partner`` or
        ``opponent_partner`` a side is a pair (either partner moves for it) and every
        member but the challenger must accept."""
        if opponent.user_id == challenger.user_id:
            raise InvalidInputError(refusals.SELF_CHALLENGE)
        mine = (challenger,) if partner is None else (challenger, partner)
        theirs = (opponent,) if opponent_partner is None else (opponent, opponent_partner)
        named = [p.user_id for p in (*mine, *theirs)]
        if len(set(named)) < len(named):
            raise InvalidInputError(refusals.NAMED_TWICE)
        table = _Table(guild_id, guild_name, channel_id, time_control, color)

        async def attempt(uow: UnitOfWork) -> ChessSnapshot:
            game = await self._create(uow, table, mine, theirs)
            snap = await self.core.snapshot(uow, game)
            return snap

        # Two games made at once can take the same number: the second tries again.
        return await transact(self.core.ctx, attempt)

    async def play_computer(
        self,
        *,
        guild_id: int,
        guild_name: str,
        channel_id: int,
        player: PlayerRef,
        computer: PlayerRef,
        level: int | None = None,
        time_control: str | None = None,
        color: str | None = None,
    ) -> ChessSnapshot:
        """A game against Stockfish: active at once, and half-open until its thread holds
        the opening board (``record_opening`` then ``open``, or the ``JOB_OPEN`` job)."""
        if self.core.engine is None:
            raise EngineUnavailableError(INSTALL_HINT)
        table = _Table(guild_id, guild_name, channel_id, time_control, color)
        level = check_level(DEFAULT_LEVEL if level is None else level)

        async def attempt(uow: UnitOfWork) -> ChessSnapshot:
            game = await self._create(uow, table, (player,), (computer,), computer_level=level)
            snap = await self.core.snapshot(uow, game)
            return snap

        # Two games made at once can take the same number: the second tries again.
        return await transact(self.core.ctx, attempt)

    async def _create(
        self,
        uow: UnitOfWork,
        table: _Table,
        mine: Sequence[PlayerRef],
        theirs: Sequence[PlayerRef],
        *,
        computer_level: int | None = None,
    ) -> GameRecord:
        """The game, after checking the options; ``mine`` is the creator's side (the
        creator first), ``theirs`` the other (a member or a pair, or the computer
        when ``computer_level`` is given: the game then starts at once)."""
        creator = mine[0]
        control = read_time_control(table.time_control)
        creator_white = challenger_plays_white(table.color, self.core.rng)
        white, black = (mine, theirs) if creator_white else (theirs, mine)
        computer = computer_level is not None
        return await seat_game(
            self.core,
            uow,
            guild_id=table.guild_id,
            guild_name=table.guild_name,
            channel_id=table.channel_id,
            white=white,
            black=black,
            control=control,
            color=table.color or "random",
            created_by=creator.user_id,
            now=self.core.now(),
            accepted=True if computer else {creator.user_id},
            computer_seat=(BLACK_SEAT if creator_white else WHITE_SEAT) if computer else None,
            computer_level=computer_level,
            open_retry=computer,
            computer_delay=COMPUTER_START_GRACE if computer else timedelta(0),
        )

    async def accept(
        self, game_id: int, user: PlayerRef, *, message_id: int | None = None
    ) -> ChessSnapshot:
        """An invited member accepts; once every member has, the clock starts. ``message_id``
        is the invitation's message, which the game's thread is made from (see ``open``).
        A player's click on a game already accepted answers with it (changing
        nothing), so the click can finish opening it, or take the stale buttons off.
        Until the last member accepts, the snapshot is still ``invited`` (its
        ``waiting_for`` names who has not)."""
        now = self.core.now()
        async with self.core.ctx.uow() as uow:
            game = await self.core.game(uow, game_id)
            if game.status == "active" and any(s.user_id == user.user_id for s in game.seats):
                return await self.core.snapshot(uow, game)
            game = await self._invitation(uow, game_id, user.user_id)
            seat = next(s for s in game.seats if s.user_id == user.user_id)
            if seat.accepted:
                if user.user_id == game.created_by:
                    raise InvalidInputError(refusals.WAIT_FOR_OPPONENT)
                raise InvalidInputError(refusals.ACCEPTED_ALREADY)
            await uow.players.ensure(user.user_id, user.name)
            seat.accepted = True
            if not all(s.accepted for s in game.seats):
                # A pair's game waits for everyone: the version moves so two last
                # acceptances at once start it once.
                await self.core.save(uow, game, None)
                snap = await self.core.snapshot(uow, game)
                await uow.commit()
                return snap
            options = options_of(game.options)
            control = parse_time_control(options.get("time_control"))
            state = started(control, now)
            changes: dict[str, Any] = {}
            if message_id is not None:
                changes["options"] = {**options, "opening_message_id": message_id}
                await uow.jobs.schedule(
                    JOB_OPEN, now + OPEN_RETRY, {"game_id": game_id}, key=open_key(game_id)
                )
            await self.core.save(
                uow,
                game,
                state,
                status="active",
                deadline=state.running_clock().flag_time(),
                **changes,
            )
            await uow.jobs.cancel(invite_key(game.id))
            snap = await self.core.snapshot(uow, game, state)
            await self.core.schedule_turn(uow, snap, now)
            await uow.commit()
        return snap

    async def decline(self, game_id: int, user_id: int) -> ChessSnapshot:
        """The invited player declines, or the challenger withdraws."""
        async with self.core.ctx.uow() as uow:
            game = await self._invitation(uow, game_id, user_id)
            await self.core.save(uow, game, None, status="abandoned", finished_at=self.core.now())
            await uow.jobs.cancel(invite_key(game.id))
            snap = await self.core.snapshot(uow, game)
            await uow.commit()
        return snap

    async def _invitation(self, uow: UnitOfWork, game_id: int, user_id: int) -> GameRecord:
        game = await self.core.game(uow, game_id)
        if not any(s.user_id == user_id for s in game.seats):
            raise PermissionDeniedError(refusals.NOT_FOR_YOU)
        if game.status != "invited":
            raise InvalidInputError(refusals.no_longer_waiting(game.number, game.status))
        return game

    async def open_in(self, game_id: int, thread_id: int | None) -> ChessSnapshot:
        """Record the game's thread (None: play in the channel) and post the opening
        board there; a game already open is left as it is."""
        async with self.core.ctx.uow() as uow:
            snap = await self._open_in(uow, game_id, thread_id)
            await uow.commit()
        return snap

    async def _open_in(self, uow: UnitOfWork, game_id: int, thread_id: int | None) -> ChessSnapshot:
        now = self.core.now()
        game = await self.core.game(uow, game_id)
        options = options_of(game.options)
        if options.get("opened"):
            return await self.core.snapshot(uow, game)
        changes: dict[str, Any] = {"options": {**options, "opened": True}}
        if thread_id is not None and game.thread_id != thread_id:
            changes["thread_id"] = thread_id
        await self.core.save(uow, game, None, **changes)
        await uow.jobs.cancel(open_key(game_id))
        snap = await self.core.snapshot(uow, game)
        if snap.status == "active":
            if snap.place_id is not None:
                post = self.core.board_post(snap, msg.game_on(snap))
                uow.outbox.to_channel(snap.place_id, post)
            if snap.to_move.is_computer:
                await self.core.schedule_computer(uow, snap, now)
        return snap

    async def record_opening(self, game_id: int, message_id: int) -> int | None:
        """Record ``message_id`` as a half-open computer game's announcement (the message
        its thread is made from), unless one is recorded already; returns the one
        recorded, or None when the game is open already (or over)."""
        for _ in range(3):
            try:
                async with self.core.ctx.uow() as uow:
                    game = await self.core.game(uow, game_id)
                    options = options_of(game.options)
                    if options.get("opened") or game.status != "active":
                        return None
                    recorded = options.get("opening_message_id")
                    if recorded is not None:
                        return int(recorded)
                    changes = {"options": {**options, "opening_message_id": message_id}}
                    await self.core.save(uow, game, None, **changes)
                    await uow.commit()
                return message_id
            except ConflictError:
                continue  # a move or the job changed it at the same moment: read it again
        raise ConflictError()

    async def _announced(self, game_id: int) -> None:
        """A computer game whose announcement was never recorded (the bot died before
        the command's reply was sent or recorded): post it, once by its nonce, and record it."""
        async with self.core.ctx.reader() as uow:
            game = await self.core.game(uow, game_id)
            options = options_of(game.options)
            snap = await self.core.snapshot(uow, game)
        if (
            self.announcer is None
            or options.get("opened")
            or options.get("opening_message_id") is not None
            or snap.status != "active"
            or snap.level is None
        ):
            return
        player = next(s for s in (snap.white, snap.black) if not s.is_computer)
        text = msg.computer_game_started(snap, player.user_id, snap.level)
        message_id = await self.announcer(snap.channel_id or 0, text, announce_nonce(game_id))
        if message_id is not None:
            await self.record_opening(game_id, message_id)

    async def opening(self, game_id: int) -> OpeningPlan | None:
        """What opening a half-open game needs; None when there is nothing to open."""
        async with self.core.ctx.reader() as uow:
            game = await self.core.game(uow, game_id)
            snap = await self.core.snapshot(uow, game)
        if snap.status != "active" or snap.opening_message_id is None:
            return None
        return OpeningPlan(
            game_id=snap.game_id,
            channel_id=snap.channel_id or 0,
            message_id=snap.opening_message_id,
            thread_name=msg.thread_name(snap),
            is_live=snap.is_live,
            user_ids=tuple(
                uid for s in (snap.white, snap.black) if not s.is_computer for uid in s.user_ids
            ),
        )

    async def _thread_for(self, plan: OpeningPlan) -> int | None:
        opener = self.thread_opener
        return await opener(plan) if opener is not None else None

    async def open(self, game_id: int) -> ChessSnapshot:
        """Finish opening an accepted game: its thread (made once, however often this
        runs), then the opening board there. Safe to repeat, and to run twice at once."""
        plan = await self.opening(game_id)
        if plan is None:
            async with self.core.ctx.reader() as uow:
                return await self.core.snapshot(uow, await self.core.game(uow, game_id))
        thread_id = await self._thread_for(plan)
        try:
            return await self.open_in(game_id, thread_id)
        except ConflictError:  # the job opened it at the same moment
            async with self.core.ctx.reader() as uow:
                return await self.core.snapshot(uow, await self.core.game(uow, game_id))

    # Job JOB_OPEN: the acceptance's retry of ``open`` (at once, and after a restart).

    async def prepare_open(self, payload: dict[str, Any]) -> tuple[int | None] | None:
        """Make the thread outside the job's transaction (it is a call to Discord); a
        computer game's announcement is posted and recorded first if it never was."""
        game_id = int(payload["game_id"])
        await self._announced(game_id)
        plan = await self.opening(game_id)
        if plan is None:
            return await self._unannounced(game_id)
        return (await self._thread_for(plan),)

    async def _unannounced(self, game_id: int) -> tuple[int | None] | None:
        """Nothing to make a thread from: a computer game whose channel took no
        announcement plays in the channel; anything else has nothing to open."""
        async with self.core.ctx.reader() as uow:
            game = await self.core.game(uow, game_id)
            options, status = options_of(game.options), game.status  # read before it closes
        if status != "active" or options.get("opened"):
            return None
        if options.get("computer_seat") is None:
            return None
        return (None,)

    async def on_open_thread(
        self, uow: UnitOfWork, job: JobRecord, prepared: tuple[int | None] | None
    ) -> None:
        """Job ``JOB_OPEN``: record the thread ``prepare_open`` made (None: the channel) and
        post the opening board; nothing when the game is open already or over."""
        if prepared is None:
            return  # already open (or over): nothing to do
        try:
            await self._open_in(uow, int(job.payload["game_id"]), prepared[0])
        except ConflictError:
            return  # an Accept click opened it at the same moment
        self.core.after_commit(uow)
