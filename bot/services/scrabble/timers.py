"""Scrabble's timers, each a durable job run once in its own transaction:

* ``on_turn_timeout``: a turn that runs out is a pass (``timed_out``);
* ``on_reminder``: a DM (a thread mention if DMs are closed) before the clock runs out;
* ``on_ending_window``: a play that would end the game stays challengeable until
  the other seats accept or challenge, or this window closes (10 minutes in
  live play, 24 hours otherwise);
* ``on_deadline``: the game ends with unplayed tiles deducted;
* ``on_invite_expiry``: an invitation nobody answered is dropped after 3 days.

A timer set for an earlier move of the game does nothing (its payload names the
move count it was set at).
"""

from __future__ import annotations

from datetime import datetime

from bot.db.models import JobRecord
from bot.db.uow import UnitOfWork
from bot.services.scrabble.core import ScrabbleCore
from engines.scrabble.game import ACTIVE, ENDING, FINISHED


class Timers:
    """Scrabble's job handlers: the turn clock, its reminder, the challenge window, the
    deadline, an invitation's expiry."""

    def __init__(self, core: ScrabbleCore) -> None:
        self.core = core
        self.ctx = core.ctx

    async def on_turn_timeout(self, uow: UnitOfWork, job: JobRecord) -> None:
        """The turn clock ran out: the seat to move passes (``timed_out``)."""
        loaded = await self.core.job_game(uow, job)
        if loaded is not None and loaded.engine is not None and loaded.engine.status == ACTIVE:
            engine = loaded.engine
            before = len(engine.moves)
            engine.pass_turn(engine.current_seat, timed_out=True)
            await self.core.commit_changes(uow, loaded, before, self.ctx.clock(), actor=None)
        self.core.wake_after_commit(uow)
        await uow.commit()

    async def on_reminder(self, uow: UnitOfWork, job: JobRecord) -> None:
        """Remind the seat to move (by DM) that its turn clock runs out soon, unless the
        turn or the game has run out by now."""
        loaded = await self.core.job_game(uow, job)
        now = self.ctx.clock()
        if (
            loaded is not None
            and loaded.engine is not None
            and loaded.engine.status == ACTIVE
            and not loaded.is_computer(loaded.engine.current_seat)
            and not _over_by(loaded.turn_due, now)
            and not _over_by(loaded.record.deadline, now)
        ):
            # A reminder run late (the scheduler catching up after downtime) is not
            # sent when the turn (or the game) has run out by now: its own timer,
            # due in the same catch-up, says so instead.
            self.core.announce.reminder(uow, loaded)
        self.core.wake_after_commit(uow)
        await uow.commit()

    async def on_ending_window(self, uow: UnitOfWork, job: JobRecord) -> None:
        """The challenge window of a play that would end the game closed: the play stands
        and the game ends."""
        loaded = await self.core.job_game(uow, job)
        if loaded is not None and loaded.engine is not None and loaded.engine.status == ENDING:
            before = len(loaded.engine.moves)
            loaded.engine.close_challenge_window()
            await self.core.commit_changes(uow, loaded, before, self.ctx.clock(), actor=None)
        self.core.wake_after_commit(uow)
        await uow.commit()

    async def on_deadline(self, uow: UnitOfWork, job: JobRecord) -> None:
        """The game's deadline: it ends now, unplayed tiles deducted (a finishing play
        waiting to be accepted stands)."""
        loaded = await self.core.job_game(uow, job)
        if loaded is not None and loaded.engine is not None and loaded.engine.status != FINISHED:
            before = len(loaded.engine.moves)
            loaded.engine.end_by_deadline()
            await self.core.commit_changes(uow, loaded, before, self.ctx.clock(), actor=None)
        self.core.wake_after_commit(uow)
        await uow.commit()

    async def on_invite_expiry(self, uow: UnitOfWork, job: JobRecord) -> None:
        """An invitation nobody answered in time is abandoned, and its channel told."""
        loaded = await self.core.job_game(uow, job, status="invited")
        if loaded is not None:
            await uow.games.save_state(
                loaded.record,
                expected_version=loaded.version,
                status="abandoned",
                finished_at=self.ctx.clock(),
            )
            self.core.announce.invitation_expired(uow, loaded)
        self.core.wake_after_commit(uow)
        await uow.commit()


def _over_by(moment: datetime | None, now: datetime) -> bool:
    return moment is not None and moment <= now
