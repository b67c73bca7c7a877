"""Ending a round: guessed (the referee calls ``finish``), time up (the end
job, ``on_round_end``), or the host disqualifying the pair for coaching.

Each end writes the round's result, the leaderboard rows and the channel's
announcement (with what the event needs next) in one transaction; listeners
hear of it after the commit.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from bot.db.models import JobRecord
from bot.db.models_henyo import HenyoRoundRecord
from bot.db.uow import UnitOfWork
from bot.errors import InvalidInputError, PermissionDeniedError
from bot.messages import henyo as messages
from bot.messages.i18n import N_
from bot.services.henyo.core import KIND, HenyoCore, job_key, require_host
from bot.services.henyo.pairs import event_pairs
from bot.services.henyo.snapshots import ClosedRound, Disqualification, TeamSnapshot
from bot.services.henyo.standings import EventStandings
from bot.services.results import record_points
from bot.services.transactions import transact

RESULT_OUTCOME = {"guessed": None, "timed_out": "loss", "disqualified": "loss"}


async def penalties_so_far(uow: UnitOfWork, rnd: HenyoRoundRecord) -> int:
    """The round's penalties: the referee's rulings on messages, or (played aloud) the
    host's +5 s presses not undone, counted on the round as they are pressed."""
    if rnd.referee == "host":
        return rnd.penalties
    return await uow.henyo.penalties_before(rnd.id)


class RoundEnding:
    """Ending rounds: guessed, out of time or disqualified; and disqualifying a pair between
    rounds."""

    def __init__(self, core: HenyoCore, standings: EventStandings) -> None:
        self.core = core
        self.standings = standings

    async def finish(
        self,
        uow: UnitOfWork,
        rnd: HenyoRoundRecord,
        *,
        status: str,
        ended_at: datetime,
        elapsed: int | None,
        penalties: int,
        final_ms: int | None,
        guess_message_id: int | None = None,
    ) -> None:
        """Store the round's end and its leaderboard rows; tell listeners after the commit."""
        await self.core.bump(
            uow,
            rnd,
            status=status,
            ended_at=ended_at,
            elapsed_ms=elapsed,
            penalties=penalties,
            final_ms=final_ms,
            guess_message_id=guess_message_id,
        )
        await uow.jobs.cancel(job_key(rnd.id))
        for player_id in (rnd.guesser_id, rnd.answerer_id):
            await record_points(
                uow,
                guild_id=rnd.guild_id,
                kind=KIND,
                player_id=player_id,
                points=None,
                played_at=ended_at,
                round_ref=f"henyo:round:{rnd.id}",
                outcome=RESULT_OUTCOME[status],
                time_ms=final_ms if status == "guessed" else None,
                extra={
                    "type": "word",
                    "result": status,
                    "event_id": rnd.event_id,
                    "stage": rnd.stage,
                    "category": rnd.category,
                    "penalties": penalties,
                    "elapsed_ms": elapsed,
                },
            )
        closed = ClosedRound(rnd.id, rnd.channel_id, rnd.announce_message_id, status)
        uow.on_commit(lambda: self.core.notify_closed(closed))
        uow.on_commit(self.core.ctx.outbox_notify)

    async def _pair(self, uow: UnitOfWork, rnd: HenyoRoundRecord) -> str:
        names = await self.core.names(uow, [rnd.guesser_id, rnd.answerer_id])
        return messages.pair_label(names.get(rnd.guesser_id, "?"), names.get(rnd.answerer_id, "?"))

    async def on_round_end(self, uow: UnitOfWork, job: JobRecord) -> None:
        """Job: the round's time is up (or it never got announced)."""
        rnd = await uow.henyo.round(int(job.payload["round_id"]))
        if rnd is not None and rnd.status == "ready":
            await self.core.bump(
                uow,
                rnd,
                status="cancelled",
                cancel_reason="interrupted",
                ended_at=self.core.ctx.clock(),
            )
            self.core.post(uow, rnd.channel_id, messages.could_not_start(rnd.id))
            uow.on_commit(self.core.ctx.outbox_notify)
        elif rnd is not None and rnd.status == "running":
            assert rnd.started_at is not None
            await self.finish(
                uow,
                rnd,
                status="timed_out",
                ended_at=rnd.started_at + timedelta(milliseconds=rnd.time_limit_ms),
                elapsed=None,
                penalties=await penalties_so_far(uow, rnd),
                final_ms=None,
            )
            headline = messages.time_up(
                await self._pair(uow, rnd),
                time_limit_ms=rnd.time_limit_ms,
                in_event=rnd.event_id is not None,
                word=rnd.word,
                category=rnd.category,
            )
            self.core.post(
                uow, rnd.channel_id, headline, *await self.standings.next_steps(uow, rnd)
            )
        await uow.commit()

    async def disqualify(
        self,
        *,
        guild_id: int,
        channel_id: int,
        user_id: int,
        is_moderator: bool,
        member_id: int | None = None,
    ) -> Disqualification:
        """End the running round here for coaching (or disqualify ``member_id``'s pair)."""

        async def work(uow: UnitOfWork) -> Disqualification:
            rnd = await uow.henyo.round_in_channel(channel_id, ("running",))
            if member_id is not None and (
                rnd is None or member_id not in (rnd.guesser_id, rnd.answerer_id)
            ):
                return await self._disqualify_pair(
                    uow, channel_id, user_id, is_moderator, member_id
                )
            if rnd is None:
                raise InvalidInputError(messages.NO_ROUND_RUNNING)
            return await self.disqualify_round(uow, rnd, user_id, is_moderator)

        async with self.core.lock(channel_id):
            return await transact(self.core.ctx, work)

    async def _disqualify_pair(
        self, uow: UnitOfWork, channel_id: int, user_id: int, is_moderator: bool, member_id: int
    ) -> Disqualification:
        """Between rounds: the member's pair loses its word (it keeps its slot)."""
        event = await uow.henyo.open_event_in_channel(channel_id)
        if event is None:
            raise InvalidInputError(messages.NO_OPEN_EVENT_HERE)
        require_host(event, user_id, is_moderator, N_("disqualify a pair"))
        pairs = await event_pairs(uow, event)
        team = pairs.registered(member_id)
        if team is None:
            raise InvalidInputError(messages.NOT_IN_A_PAIR)
        if pairs.statuses[team.id] != "playing":
            # A disqualified pair keeps its slot; one on the waiting list has none to keep.
            raise InvalidInputError(messages.PAIR_IS_WAITING)
        team.status = "disqualified"
        await self.core.bump(uow, event)
        names = await self.core.names(uow, [team.guesser_id, team.answerer_id])
        view = pairs.view(team, names, "disqualified")
        self.core.post(uow, channel_id, messages.disqualified_pair(view.label))
        return Disqualification(event.id, view, None)

    async def disqualify_round(
        self, uow: UnitOfWork, rnd: HenyoRoundRecord, user_id: int, is_moderator: bool
    ) -> Disqualification:
        """End ``rnd`` for coaching (``/henyo disqualify``, or the console's Coaching)."""
        event = await uow.henyo.open_event_in_channel(rnd.channel_id)
        if (
            user_id != rnd.host_id
            and not is_moderator
            and (event is None or event.host_id != user_id)
        ):
            raise PermissionDeniedError(messages.ROUND_HOST_DISQUALIFIES)
        disqualified: TeamSnapshot | None = None
        team = await uow.henyo.team(rnd.team_id) if rnd.team_id is not None else None
        its_event = await uow.henyo.event(rnd.event_id) if rnd.event_id is not None else None
        if team is not None and its_event is not None:
            if team.status == "registered":
                team.status = "disqualified"
            names = await self.core.names(uow, [team.guesser_id, team.answerer_id])
            disqualified = (await event_pairs(uow, its_event)).view(team, names, "disqualified")
        await self.finish(
            uow,
            rnd,
            status="disqualified",
            ended_at=self.core.ctx.clock(),
            elapsed=None,
            penalties=await penalties_so_far(uow, rnd),
            final_ms=None,
        )
        headline = messages.disqualified_in_round(await self._pair(uow, rnd), rnd.word)
        self.core.post(uow, rnd.channel_id, headline, *await self.standings.next_steps(uow, rnd))
        return Disqualification(
            rnd.event_id,
            disqualified,
            ClosedRound(rnd.id, rnd.channel_id, rnd.announce_message_id, "disqualified"),
        )
