"""Cancelling (``/boggle cancel``): the running or announced round, or the
weekly schedule (with a round it announced that has not opened; a round in
progress plays on)."""

from __future__ import annotations

from bot.db.models_boggle import BoggleRoundRecord, BoggleScheduleRecord
from bot.db.uow import UnitOfWork
from bot.errors import ConflictError, InvalidInputError, NotFoundError
from bot.messages.boggle import rounds as say
from bot.services.boggle.core import BoggleCore
from bot.services.boggle.jobs import close_key, entry_key, open_key, weekly_key
from bot.services.boggle.snapshots import CancelOutcome


class Cancelling:
    """``/boggle cancel``: the running or announced round, or the weekly schedule."""

    def __init__(self, core: BoggleCore) -> None:
        self.core = core

    async def cancel(self, *, guild_id: int, what: str | None = None) -> CancelOutcome:
        """Cancel the running (or next scheduled) round, or stop the weekly schedule.

        Without ``what``: the round when there is one, else the schedule.
        """
        if what not in (None, "round", "schedule"):
            raise InvalidInputError(say.CANCEL_WHAT)
        async with self.core.ctx.uow() as uow:
            live = await uow.boggle.latest_round(guild_id)
            schedule = await uow.boggle.active_schedule(guild_id, lock=True)
            target = what or (
                "round" if live is not None else "schedule" if schedule is not None else None
            )
            if target is None:
                raise NotFoundError(say.NOTHING_TO_CANCEL)
            if target == "round":
                outcome = await self._cancel_round(uow, live, schedule)
            else:
                outcome = await self._cancel_schedule(uow, schedule)
            self.core.after_commit(uow)
            await uow.commit()
        return outcome

    async def _cancel_round(
        self, uow: UnitOfWork, live: BoggleRoundRecord | None, schedule: BoggleScheduleRecord | None
    ) -> CancelOutcome:
        if live is None:
            raise NotFoundError(say.NO_ROUND_TO_CANCEL)
        record = await uow.boggle.lock_round(live.id)
        assert record is not None
        was = record.status
        if was not in ("open", "scheduled"):
            raise ConflictError(say.JUST_ENDED)
        self.core.cancel_record(record, "moderator")
        await uow.jobs.cancel(open_key(record.id))
        await uow.jobs.cancel(close_key(record.id))
        await uow.jobs.cancel(entry_key(record.id))
        uow.outbox.to_channel(record.channel_id, say.round_cancelled(record.number, was == "open"))
        return CancelOutcome(
            "round",
            record.number,
            was,
            record.channel_id,
            schedule_next_at=schedule.next_at if schedule is not None else None,
            schedule_remains=schedule is not None,
        )

    async def _cancel_schedule(
        self, uow: UnitOfWork, schedule: BoggleScheduleRecord | None
    ) -> CancelOutcome:
        if schedule is None:
            raise NotFoundError(say.NO_SCHEDULE_TO_CANCEL)
        schedule.active = False
        schedule.next_at = None
        schedule.updated_at = self.core.now()
        await uow.jobs.cancel(weekly_key(schedule.id))
        pending = await uow.boggle.scheduled_rounds_of(schedule.id)
        for record in pending:
            self.core.cancel_record(record, "moderator")
            await uow.jobs.cancel(open_key(record.id))
            uow.outbox.to_channel(record.channel_id, say.schedule_stopped_round(record.number))
        return CancelOutcome(
            "schedule",
            channel_id=schedule.channel_id,
            also_cancelled_round=pending[0].number if pending else None,
        )
