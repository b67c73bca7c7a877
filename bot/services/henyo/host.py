"""Henyo played aloud: the host referees a round from a console.

A round with ``referee = "host"`` is prepared like any other; the cog posts its
announcement (no reply buttons: the answerer speaks) and ``announce`` makes it
``waiting``. From then on the host's presses drive it, each one a committed row
of ``henyo_presses`` and a transition of the round:

- **Start**: ``waiting → running``; the clock starts at the press (the bot's
  clock) and the end job is scheduled as for a typed round, so running out of
  time ends it through the same durable timer (``RoundEnding.on_round_end``);
- **+5 s**: one more penalty (a reply other than Oo, Hindi or Pwede);
- **Got it**: ``running → guessed``; time = Got it − Start, final time = time +
  penalties × the penalty, through ``RoundEnding.finish`` (the same result rows
  and next steps as a typed round, so the ranking and tie-break words are the
  event's one ranking);
- **Coaching**: the pair is disqualified, through ``RoundEnding.disqualify_round``;
- **Undo last**: reverts exactly the last press not yet undone (a penalty, the
  start, or Got it / Coaching with its result rows), until the next round starts;
  with nothing left to revert before the Start, it calls the round off
  (``cancelled``), so a round started by mistake does not hold the channel.

A press is made on the round's ``version`` the console showed: the same press
arriving twice (a double tap, two devices, a retried request) finds a newer
version and counts once (``PressResult.counted`` is False and nothing changes).
Anyone but the round's host, its event's host or a moderator is refused.

``screen`` is the public view for the room's screen: the pair, the clock and the
penalties, and the secret only when the host switched ``show_word_on_screen`` on
for the round (or once the round is over, when the channel has it too).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from bot.db.models_henyo import HenyoPressRecord, HenyoRoundRecord
from bot.db.uow import UnitOfWork
from bot.errors import InvalidInputError, PermissionDeniedError
from bot.messages import henyo as messages
from bot.messages.henyo import aloud as say
from bot.messages.limits import BUTTON_URL_CHARS
from bot.services.board_address import absolute_base
from bot.services.board_links import BoardLinks
from bot.services.henyo.core import FINISHED_ROUND, JOB_KIND, HenyoCore, job_key
from bot.services.henyo.ending import RoundEnding
from bot.services.henyo.pairs import event_pairs, member
from bot.services.henyo.rounds import END_GRACE
from bot.services.henyo.snapshots import ClosedRound, Member
from bot.services.henyo.standings import EventStandings
from bot.services.results import take_back_points
from bot.services.transactions import transact
from bot.services.web import page_url
from engines.henyo import Timing, within_limit

ACTIONS = ("start", "penalty", "got_it", "coaching", "undo")
VIAS = ("discord", "web")


@dataclass(frozen=True)
class ConsoleView:
    """The host's console of one round played aloud: everything it draws, the secret
    included (the host's own). ``can``: the presses that would count now."""

    round_id: int
    guild_id: int
    channel_id: int
    event_id: int | None
    title: str
    host_id: int
    guesser: Member
    answerer: Member
    word: str
    category: str | None
    status: str
    version: int
    now: datetime
    started_at: datetime | None
    ends_at: datetime | None
    time_limit_ms: int
    penalty_ms: int
    penalties: int
    elapsed_ms: int | None
    final_ms: int | None
    show_word_on_screen: bool
    can: frozenset[str]
    presses: tuple[str, ...]  # the presses that count, in order

    @property
    def pair(self) -> str:
        """The pair as messages name it."""
        return messages.pair_label(self.guesser.name, self.answerer.name)


@dataclass(frozen=True)
class PressResult:
    """A press as the round took it: ``counted`` False when it had been counted already
    (nothing changed); ``closed`` when it ended the round."""

    action: str
    counted: bool
    console: ConsoleView
    closed: ClosedRound | None = None


@dataclass(frozen=True)
class ScreenRound:
    """A round played aloud as the room's screen may show it: never the secret unless the
    host turned that on for the round, or the round is over."""

    round_id: int
    channel_id: int
    event_id: int | None
    title: str
    guesser: str
    answerer: str
    status: str
    version: int
    now: datetime
    started_at: datetime | None
    ends_at: datetime | None
    time_limit_ms: int
    penalty_ms: int
    penalties: int
    running_ms: int | None  # time on the clock now (running) or at the end (guessed)
    with_penalties_ms: int | None  # running_ms + the penalties
    remaining_ms: int | None
    final_ms: int | None
    word: str | None


def _ms(delta: timedelta) -> int:
    return round(delta / timedelta(milliseconds=1))


def _allowed(rnd: HenyoRoundRecord, presses: list[HenyoPressRecord]) -> frozenset[str]:
    can: set[str] = set()
    if rnd.status == "waiting":
        can.add("start")
    if rnd.status == "running":
        can.update(("penalty", "got_it", "coaching"))
    if rnd.status == "waiting" or (
        _last_undoable(presses) is not None and rnd.status != "timed_out"
    ):
        # Before the Start, Undo last calls the round off (a round started by mistake).
        can.add("undo")
    return frozenset(can)


def _last_undoable(presses: list[HenyoPressRecord]) -> HenyoPressRecord | None:
    return next((p for p in reversed(presses) if p.action != "undo" and not p.undone), None)


class HostReferee:
    """The host's console of rounds played aloud (see the module docstring)."""

    def __init__(self, core: HenyoCore, ending: RoundEnding, standings: EventStandings) -> None:
        self.core = core
        self.ending = ending
        self.standings = standings

    # ------------------------------------------------------------------ reading

    async def _round(self, uow: UnitOfWork, round_id: int) -> HenyoRoundRecord:
        rnd = await self.core.round(uow, round_id)
        if rnd.referee != "host":
            raise InvalidInputError(say.NOT_ALOUD)
        return rnd

    async def _require_host(
        self, uow: UnitOfWork, rnd: HenyoRoundRecord, user_id: int, is_moderator: bool
    ) -> None:
        if user_id == rnd.host_id or is_moderator:
            return
        if rnd.event_id is not None:
            event = await uow.henyo.event(rnd.event_id)
            if event is not None and event.host_id == user_id:
                return
        raise PermissionDeniedError(say.CONSOLE_HOST_ONLY)

    async def may_host(self, round_id: int, user_id: int) -> bool:
        """Whether ``user_id`` hosts this round played aloud (or its event): whom its
        phone page opens for."""
        async with self.core.ctx.reader() as uow:
            rnd = await uow.henyo.round(round_id)
            if rnd is None or rnd.referee != "host" or rnd.status == "cancelled":
                return False
            try:
                await self._require_host(uow, rnd, user_id, False)
            except PermissionDeniedError:
                return False
            return True

    async def phone_url(self, round_id: int, user_id: int, *, guild_name: str = "") -> str | None:
        """The absolute address of the console's phone page for its host (a private,
        signed link: ``bot.services.board_links``, kind ``henyo_host``); None while the
        bot offers no links, or to anyone but the round's host or its event's host."""
        base = absolute_base(self.core.ctx.settings.web_base_url)
        links = BoardLinks(self.core.ctx)
        if base is None or not links.enabled or not await self.may_host(round_id, user_id):
            return None
        async with self.core.ctx.reader() as uow:
            rnd = await self.core.round(uow, round_id)
            guild_id = rnd.guild_id
        path = await links.link(guild_id, user_id, "henyo_host", round_id, guild_name=guild_name)
        if path is None:
            return None
        address = page_url(base, path)
        return address if len(address) <= BUTTON_URL_CHARS else None

    async def _title(self, uow: UnitOfWork, rnd: HenyoRoundRecord) -> str:
        number = None
        if rnd.event_id is not None and rnd.team_id is not None:
            event = await uow.henyo.event(rnd.event_id)
            if event is not None:
                number = (await event_pairs(uow, event)).numbers.get(rnd.team_id)
        return messages.round_title(rnd.event_id, number, rnd.stage)

    async def _view(self, uow: UnitOfWork, rnd: HenyoRoundRecord) -> ConsoleView:
        presses = await uow.henyo.presses(rnd.id)
        names = await self.core.names(uow, [rnd.guesser_id, rnd.answerer_id])
        limit = timedelta(milliseconds=rnd.time_limit_ms)
        return ConsoleView(
            round_id=rnd.id,
            guild_id=rnd.guild_id,
            channel_id=rnd.channel_id,
            event_id=rnd.event_id,
            title=await self._title(uow, rnd),
            host_id=rnd.host_id,
            guesser=member(names, rnd.guesser_id),
            answerer=member(names, rnd.answerer_id),
            word=rnd.word,
            category=rnd.category,
            status=rnd.status,
            version=rnd.version,
            now=self.core.ctx.clock(),
            started_at=rnd.started_at,
            ends_at=rnd.started_at + limit if rnd.started_at else None,
            time_limit_ms=rnd.time_limit_ms,
            penalty_ms=rnd.penalty_ms,
            penalties=rnd.penalties,
            elapsed_ms=rnd.elapsed_ms,
            final_ms=rnd.final_ms,
            show_word_on_screen=rnd.show_word_on_screen,
            can=_allowed(rnd, presses),
            presses=tuple(p.action for p in presses if p.action != "undo" and not p.undone),
        )

    async def console(self, round_id: int, *, user_id: int, is_moderator: bool) -> ConsoleView:
        """The console of a round played aloud, for its host (or a moderator)."""
        async with self.core.ctx.reader() as uow:
            rnd = await self._round(uow, round_id)
            await self._require_host(uow, rnd, user_id, is_moderator)
            return await self._view(uow, rnd)

    async def console_in_channel(
        self, channel_id: int, *, user_id: int, is_moderator: bool
    ) -> ConsoleView:
        """The console of the channel's round played aloud: the one open, or the last one."""
        async with self.core.ctx.reader() as uow:
            rnd = await uow.henyo.round_in_channel(channel_id)
            if rnd is None:
                rnd = await uow.henyo.round_in_channel(channel_id, FINISHED_ROUND)
            if rnd is None or rnd.referee != "host":
                raise InvalidInputError(say.NO_ALOUD_ROUND)
            await self._require_host(uow, rnd, user_id, is_moderator)
            return await self._view(uow, rnd)

    async def version(self, round_id: int) -> int:
        """The round's version: it moves with every press, the end and the screen switch."""
        async with self.core.ctx.reader() as uow:
            rnd = await uow.henyo.round(round_id)
            return rnd.version if rnd is not None else 0

    async def screen(self, round_id: int) -> ScreenRound:
        """The public view of a round played aloud, for the room's screen (the hook the
        screen's Henyo panel reads; see the module docstring)."""
        async with self.core.ctx.reader() as uow:
            rnd = await self._round(uow, round_id)
            names = await self.core.names(uow, [rnd.guesser_id, rnd.answerer_id])
            now = self.core.ctx.clock()
            limit = timedelta(milliseconds=rnd.time_limit_ms)
            running: int | None = None
            remaining: int | None = None
            if rnd.status == "running" and rnd.started_at is not None:
                running = min(max(0, _ms(now - rnd.started_at)), rnd.time_limit_ms)
                remaining = rnd.time_limit_ms - running
            elif rnd.status == "guessed":
                running, remaining = rnd.elapsed_ms, None
            elif rnd.status == "timed_out":
                running, remaining = rnd.time_limit_ms, 0
            over = rnd.status in FINISHED_ROUND
            return ScreenRound(
                round_id=rnd.id,
                channel_id=rnd.channel_id,
                event_id=rnd.event_id,
                title=await self._title(uow, rnd),
                guesser=names.get(rnd.guesser_id, "?"),
                answerer=names.get(rnd.answerer_id, "?"),
                status=rnd.status,
                version=rnd.version,
                now=now,
                started_at=rnd.started_at,
                ends_at=rnd.started_at + limit if rnd.started_at else None,
                time_limit_ms=rnd.time_limit_ms,
                penalty_ms=rnd.penalty_ms,
                penalties=rnd.penalties,
                running_ms=running,
                with_penalties_ms=(
                    running + rnd.penalties * rnd.penalty_ms if running is not None else None
                ),
                remaining_ms=remaining,
                final_ms=rnd.final_ms,
                word=rnd.word if (rnd.show_word_on_screen or over) else None,
            )

    async def screen_in_channel(self, channel_id: int) -> ScreenRound | None:
        """The channel's round played aloud for the screen: the open one, else the last."""
        async with self.core.ctx.reader() as uow:
            rnd = await uow.henyo.round_in_channel(channel_id)
            if rnd is None:
                rnd = await uow.henyo.round_in_channel(channel_id, FINISHED_ROUND)
            if rnd is None or rnd.referee != "host":
                return None
            round_id = rnd.id
        return await self.screen(round_id)

    # ------------------------------------------------------------------ the announcement

    async def announce(self, round_id: int, announce_message_id: int) -> ConsoleView:
        """The round's announcement is posted: it waits for the host's Start (no watchdog:
        the host is in the room)."""

        async def work(uow: UnitOfWork) -> ConsoleView:
            rnd = await self._round(uow, round_id)
            if rnd.status != "ready":
                raise InvalidInputError(messages.CANNOT_BEGIN)
            await self.core.bump(
                uow, rnd, status="waiting", announce_message_id=announce_message_id
            )
            await uow.jobs.cancel(job_key(rnd.id))
            return await self._view(uow, rnd)

        return await transact(self.core.ctx, work)

    # ------------------------------------------------------------------ the switch

    async def show_on_screen(
        self, round_id: int, *, user_id: int, is_moderator: bool, shown: bool
    ) -> ConsoleView:
        """The host's switch: may the room's screen show the secret during this round?
        Saying what it should be (not "toggle") makes a repeated request harmless."""

        async def work(uow: UnitOfWork) -> ConsoleView:
            rnd = await self._round(uow, round_id)
            await self._require_host(uow, rnd, user_id, is_moderator)
            if rnd.show_word_on_screen != shown:
                await self.core.bump(uow, rnd, show_word_on_screen=shown)
            return await self._view(uow, rnd)

        async with self.core.lock_for_round(round_id):
            return await transact(self.core.ctx, work)

    # ------------------------------------------------------------------ presses

    async def press(
        self,
        round_id: int,
        *,
        user_id: int,
        is_moderator: bool,
        action: str,
        version: int,
        via: str = "discord",
    ) -> PressResult:
        """One press of the console, made on ``version`` (the round's, as the console
        showed it). A press on an older version was counted already: nothing changes."""
        if action not in ACTIONS or via not in VIAS:
            raise InvalidInputError(say.UNKNOWN_PRESS)

        async def work(uow: UnitOfWork) -> PressResult:
            rnd = await self._round(uow, round_id)
            await self._require_host(uow, rnd, user_id, is_moderator)
            if version != rnd.version:
                return PressResult(action, False, await self._view(uow, rnd))
            presses = await uow.henyo.presses(rnd.id)
            now = self.core.ctx.clock()
            row = HenyoPressRecord(
                round_id=rnd.id,
                seq=(presses[-1].seq if presses else 0) + 1,
                action=action,
                user_id=user_id,
                via=via,
                at=now,
                elapsed_ms=_ms(now - rnd.started_at) if rnd.started_at else None,
                undone=False,
            )
            closed: ClosedRound | None = None
            if action == "start":
                await self._start(uow, rnd, now)
                row.elapsed_ms = 0
            elif action == "penalty":
                await self._penalty(uow, rnd, now)
            elif action == "got_it":
                closed = await self._got_it(uow, rnd, now)
            elif action == "coaching":
                closed = await self._coaching(uow, rnd, user_id, is_moderator)
            else:
                row.reverts = await self._undo(uow, rnd, presses, now)
            uow.henyo.add(row)
            await uow.henyo.flush()
            uow.on_commit(self.core.ctx.outbox_notify)
            return PressResult(action, True, await self._view(uow, rnd), closed)

        async with self.core.lock_for_round(round_id):
            return await transact(self.core.ctx, work)

    async def _pair(self, uow: UnitOfWork, rnd: HenyoRoundRecord) -> str:
        names = await self.core.names(uow, [rnd.guesser_id, rnd.answerer_id])
        return messages.pair_label(names.get(rnd.guesser_id, "?"), names.get(rnd.answerer_id, "?"))

    def _running(self, rnd: HenyoRoundRecord, now: datetime) -> int:
        """The clock's time now; refused when it isn't running or has run out."""
        if rnd.status in ("ready", "waiting"):
            raise InvalidInputError(say.NOT_STARTED)
        if rnd.status != "running" or rnd.started_at is None:
            raise InvalidInputError(messages.ROUND_OVER)
        elapsed = _ms(now - rnd.started_at)
        if not within_limit(elapsed, rnd.time_limit_ms):
            # The end job calls the round, from the database, as for a typed round.
            raise InvalidInputError(messages.TIME_IS_UP)
        return elapsed

    async def _schedule_end(self, uow: UnitOfWork, rnd: HenyoRoundRecord) -> None:
        assert rnd.started_at is not None
        due = rnd.started_at + timedelta(milliseconds=rnd.time_limit_ms) + END_GRACE
        await uow.jobs.schedule(JOB_KIND, due, {"round_id": rnd.id}, key=job_key(rnd.id))

    async def _start(self, uow: UnitOfWork, rnd: HenyoRoundRecord, now: datetime) -> None:
        if rnd.status != "waiting":
            raise InvalidInputError(
                say.ALREADY_STARTED if rnd.status == "running" else messages.ROUND_OVER
            )
        await self.core.bump(uow, rnd, status="running", started_at=now)
        await self._schedule_end(uow, rnd)
        ends = now + timedelta(milliseconds=rnd.time_limit_ms)
        self.core.post(
            uow,
            rnd.channel_id,
            say.clock_started(await self._pair(uow, rnd), rnd.time_limit_ms, ends),
        )

    async def _penalty(self, uow: UnitOfWork, rnd: HenyoRoundRecord, now: datetime) -> None:
        self._running(rnd, now)
        count = rnd.penalties + 1
        await self.core.bump(uow, rnd, penalties=count)
        names = await self.core.names(uow, [rnd.answerer_id])
        self.core.post(
            uow,
            rnd.channel_id,
            messages.penalty(
                names.get(rnd.answerer_id, "?"), rnd.penalty_ms, count, strict=rnd.strict
            ),
        )

    async def _got_it(self, uow: UnitOfWork, rnd: HenyoRoundRecord, now: datetime) -> ClosedRound:
        elapsed = self._running(rnd, now)
        timing = Timing(elapsed, rnd.penalties, rnd.penalty_ms)
        await self.ending.finish(
            uow,
            rnd,
            status="guessed",
            ended_at=now,
            elapsed=elapsed,
            penalties=rnd.penalties,
            final_ms=timing.final_ms,
        )
        names = await self.core.names(uow, [rnd.guesser_id])
        headline = messages.guessed(
            names.get(rnd.guesser_id, "?"),
            rnd.word,
            elapsed_ms=elapsed,
            penalties=rnd.penalties,
            penalty_ms=rnd.penalty_ms,
            final_ms=timing.final_ms,
        )
        self.core.post(uow, rnd.channel_id, *headline, *await self.standings.next_steps(uow, rnd))
        return ClosedRound(rnd.id, rnd.channel_id, rnd.announce_message_id, "guessed")

    async def _coaching(
        self, uow: UnitOfWork, rnd: HenyoRoundRecord, user_id: int, is_moderator: bool
    ) -> ClosedRound:
        self._running(rnd, self.core.ctx.clock())
        done = await self.ending.disqualify_round(uow, rnd, user_id, is_moderator)
        assert done.round is not None
        return done.round

    async def _undo(
        self,
        uow: UnitOfWork,
        rnd: HenyoRoundRecord,
        presses: list[HenyoPressRecord],
        now: datetime,
    ) -> int:
        """Revert the last press not yet undone; the seq of the press reverted (0: none
        was left, and the round waiting for its Start is called off)."""
        last = _last_undoable(presses)
        if last is None and rnd.status == "waiting":
            # Nothing pressed yet (or every press taken back): the round itself is
            # taken back, so a round started by mistake does not hold the channel.
            await self.core.bump(
                uow, rnd, status="cancelled", cancel_reason="host_undo", ended_at=now
            )
            self.core.post(
                uow,
                rnd.channel_id,
                say.called_off(await self._title(uow, rnd), await self._pair(uow, rnd)),
            )
            return 0
        if last is None:
            raise InvalidInputError(say.NOTHING_TO_UNDO)
        if rnd.status == "timed_out":
            raise InvalidInputError(say.UNDO_TIMED_OUT)
        if await uow.henyo.newer_round_in_channel(rnd.id, rnd.channel_id):
            raise InvalidInputError(say.UNDO_TOO_LATE)
        pair = await self._pair(uow, rnd)
        if last.action == "start":
            await self.core.bump(uow, rnd, status="waiting", started_at=None, penalties=0)
            await uow.jobs.cancel(job_key(rnd.id))
            self.core.post(uow, rnd.channel_id, say.start_undone(pair))
        elif last.action == "penalty":
            count = max(0, rnd.penalties - 1)
            await self.core.bump(uow, rnd, penalties=count)
            self.core.post(uow, rnd.channel_id, say.penalty_undone(rnd.penalty_ms, count))
        else:
            await self._reopen(uow, rnd, last.action)
            self.core.post(uow, rnd.channel_id, say.end_undone(pair, last.action))
        last.undone = True
        return last.seq

    async def _reopen(self, uow: UnitOfWork, rnd: HenyoRoundRecord, action: str) -> None:
        """Take back Got it or Coaching: the result rows go, the pair's disqualification
        too, and the round runs on from its start (its end job again; already past, the
        next tick calls it by time)."""
        if rnd.event_id is not None:
            event = await uow.henyo.event(rnd.event_id)
            if event is None or event.status != "open":
                raise InvalidInputError(say.UNDO_EVENT_CLOSED)
        await take_back_points(
            uow, guild_id=rnd.guild_id, kind="henyo", round_ref=f"henyo:round:{rnd.id}"
        )
        if action == "coaching" and rnd.team_id is not None:
            team = await uow.henyo.team(rnd.team_id)
            if team is not None and team.status == "disqualified":
                team.status = "registered"
        await self.core.bump(
            uow,
            rnd,
            status="running",
            ended_at=None,
            elapsed_ms=None,
            final_ms=None,
            guess_message_id=None,
        )
        await self._schedule_end(uow, rnd)
