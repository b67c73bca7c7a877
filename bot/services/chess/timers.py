"""Chess's durable timers: the flag, the correspondence reminder, the computer's
reply and an invitation's expiry.

Each handler runs in its job's transaction (the scheduler commits nothing for
it: the handler commits), checks the job still applies (the game may have moved
since it was set) and writes what the channel must see to the outbox.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TypedDict

import chess

from bot.db.models import GameRecord, JobRecord
from bot.db.uow import UnitOfWork
from bot.errors import NotFoundError
from bot.messages import chess as msg
from bot.messages.post import Post
from bot.services.board_address import BoardAddresses
from bot.services.chess.core import UseCase
from bot.services.chess.engine import DEFAULT_LEVEL, INSTALL_HINT, EngineUnavailableError
from bot.services.chess.options import JOB_TIMEOUT, timeout_key
from bot.services.chess.state import ChessState


class PreparedMove(TypedDict):
    """The computer's move thought out before the job's transaction, for the game's version."""

    version: int
    move: str  # UCI


class Timers(UseCase):
    """Chess's job handlers: the flag, the reminder, the computer's reply, an invitation's
    expiry."""

    async def _active(
        self, uow: UnitOfWork, job: JobRecord
    ) -> tuple[GameRecord, ChessState] | None:
        """The job's game, if it is still in progress."""
        game = await self.core.job_game(uow, job)
        if game is None or game.status != "active":
            return None
        return game, ChessState.load(game)

    async def _done(self, uow: UnitOfWork) -> None:
        self.core.after_commit(uow)
        await uow.commit()

    async def on_turn_timeout(self, uow: UnitOfWork, job: JobRecord) -> None:
        """The side to move may have run out of time: finish the game if so."""
        found = await self._active(uow, job)
        if found is not None:
            game, state = found
            clock = state.running_clock()
            now = self.core.now()
            if clock.has_flagged(now):
                await self.core.flag_fell(uow, game, state, now)
            else:  # a vacation moved the flag after this timer was set
                payload = {"game_id": game.id, "ply": len(state.moves)}
                await uow.jobs.schedule(
                    JOB_TIMEOUT, clock.flag_time(), payload, key=timeout_key(game.id)
                )
        await self._done(uow)

    async def on_reminder(self, uow: UnitOfWork, job: JobRecord) -> None:
        """Tell a correspondence player (both partners of a pair) by DM (the game's thread
        if DMs are closed) that time is running out; each DM carries its member's own
        board link, made as it is sent (never in the thread)."""
        found = await self._active(uow, job)
        if found is not None:
            game, state = found
            snap = await self.core.snapshot(uow, game, state)
            clock = state.running_clock()
            if job.payload.get("ply") == snap.ply and not clock.has_flagged(self.core.now()):
                text, fallback = msg.reminder(snap, clock.flag_time())
                link = BoardAddresses(self.core.ctx).dm_button(snap.guild_id, "chess", game.id)
                for user_id in snap.to_move.user_ids:  # both partners of a pair
                    uow.outbox.to_user(
                        user_id,
                        Post(content=text, fallback_content=fallback, view=link),
                        fallback_channel_id=snap.place_id,
                    )
        await self._done(uow)

    async def prepare_computer_move(self, payload: Mapping[str, object]) -> PreparedMove | None:
        """Stockfish's reply, asked before the job's transaction (the scheduler's
        ``prepare`` step): a read without the write lock, then the engine's thinking
        (up to about a second) with no database lock held."""
        core = self.core
        game_id = payload.get("game_id")
        if core.engine is None or not isinstance(game_id, int):
            return None  # the job itself explains (and is retried)
        try:
            async with core.ctx.reader() as uow:
                game = await core.game(uow, game_id)
                if game.status != "active":
                    return None
                snap = await core.snapshot(uow, game)
                version = game.version
        except NotFoundError:
            return None
        if not snap.to_move.is_computer or payload.get("ply") != snap.ply:
            return None
        move = await core.engine.best_move(snap.board, snap.level or DEFAULT_LEVEL)
        return {"version": version, "move": move.uci()}

    async def on_computer_move(
        self, uow: UnitOfWork, job: JobRecord, prepared: PreparedMove | None = None
    ) -> None:
        """The computer's reply, played after the member's move has committed (thought
        out before this transaction when the scheduler could: see ``prepare_computer_move``)."""
        core = self.core
        found = await self._active(uow, job)
        if found is not None:
            game, state = found
            snap = await core.snapshot(uow, game, state)
            if snap.to_move.is_computer and job.payload.get("ply") == snap.ply:
                move = None
                if prepared is not None and prepared["version"] == game.version:
                    candidate = chess.Move.from_uci(prepared["move"])
                    move = candidate if candidate in snap.board.legal_moves else None
                if move is None:  # the game changed meanwhile, or nothing was prepared: think now
                    if core.engine is None:  # retried with backoff: the admin may fix it
                        raise EngineUnavailableError(INSTALL_HINT)
                    move = await core.engine.best_move(snap.board, snap.level or DEFAULT_LEVEL)
                now = core.now()
                if state.running_clock().has_flagged(now):
                    await core.flag_fell(uow, game, state, now)
                else:
                    await core.play(
                        uow, game, state, move, snap.to_move.user_id, now, reply_channel_id=None
                    )
        await self._done(uow)

    async def on_invite_expiry(self, uow: UnitOfWork, job: JobRecord) -> None:
        """An invitation nobody answered in time is abandoned, and its channel told."""
        core = self.core
        game = await core.job_game(uow, job)
        if game is not None and game.status == "invited":
            await core.save(uow, game, None, status="abandoned", finished_at=core.now())
            snap = await core.snapshot(uow, game)
            if snap.channel_id is not None:
                uow.outbox.to_channel(snap.channel_id, Post(content=msg.challenge_expired(snap)))
        await self._done(uow)
