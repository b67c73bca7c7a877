"""Library Henyo: events, registration, rounds, the referee, standings, words.

A round's life: ``prepare_round`` picks the pair and the word and stores the
round as ``ready`` (with a watchdog job); the cog DMs the secret, posts the
announcement and calls ``begin_round`` with that message's id, whose snowflake
time is the start of the clock. From then on ``referee_message`` and
``button_reply`` rule on what is said, and the round ends with the guess
(``guessed``), the end job (``timed_out``) or ``disqualify``.

Timing is exact: every time comes from a Discord snowflake (the announcement,
each message, the guess), never from when the bot saw it, so a slow gateway or
a restart in the middle of a round changes no result. The end job only has to
fire *after* the deadline; it is scheduled on the bot's clock with a short
grace so that a guess sent just before the deadline has arrived by then.

The secret word is in the database and in DMs/ephemeral replies only: channel
posts reveal it once the round is over, and it is never logged.
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, TypeVar

from sqlalchemy import func, select, update
from sqlalchemy.exc import IntegrityError, OperationalError

from bot.db.dml import rowcount
from bot.db.models import JobRecord
from bot.db.models_henyo import (
    HenyoEventRecord,
    HenyoRoundEventRecord,
    HenyoRoundRecord,
    HenyoTeamRecord,
    HenyoWordRecord,
)
from bot.db.repositories import is_row_id
from bot.db.uow import UnitOfWork, is_sqlite_locked
from bot.errors import ConflictError, InvalidInputError, NotFoundError, PermissionDeniedError
from bot.scheduler import cancel_job, schedule_job
from bot.services import ServiceContext
from bot.services.results import record_points
from engines.henyo import (
    ANY_LANGUAGE,
    CATEGORIES,
    Attempt,
    HenyoTimingError,
    HenyoWordError,
    PairRecord,
    Ranking,
    Reply,
    Timing,
    WordEntry,
    builtin_words,
    clean_word,
    elapsed_ms,
    format_seconds,
    format_time,
    is_correct_guess,
    judge_answer,
    mentions_secret,
    parse_categories,
    parse_category,
    parse_duration_ms,
    parse_language,
    pick_word,
    rank_pairs,
    snowflake_time,
    within_limit,
    word_key,
)

log = logging.getLogger(__name__)
T = TypeVar("T")

KIND = "henyo"
JOB_KIND = "henyo.round_end"
DEFAULT_PAIRS = 5
MAX_PAIRS = 25
DEFAULT_TIME_LIMIT_MS = 120_000
DEFAULT_PENALTY_MS = 5_000
MIN_TIME_LIMIT_MS, MAX_TIME_LIMIT_MS = 10_000, 600_000
MAX_PENALTY_MS = 60_000
# The end job fires this long after the deadline, so a guess sent just in time
# has reached the bot before the round is called.
END_GRACE = timedelta(seconds=2)
# A round not announced within this time (the bot died between the DMs and the
# announcement) is cancelled by its watchdog.
START_WINDOW = timedelta(seconds=60)
RECENT_ONE_OFF_WORDS = 100
ATTEMPTS = 6

ACTIVE_TEAM = ("registered", "disqualified")
OPEN_ROUND = ("ready", "running")
FINISHED_ROUND = ("guessed", "timed_out", "disqualified")


# --------------------------------------------------------------------------- results handed to the cog


@dataclass(frozen=True)
class Member:
    id: int
    name: str


@dataclass(frozen=True)
class TeamView:
    id: int
    position: int
    guesser: Member
    answerer: Member
    status: str  # playing | waiting | withdrawn | disqualified

    @property
    def label(self) -> str:
        return f"{self.guesser.name} & {self.answerer.name}"

    def has(self, user_id: int) -> bool:
        return user_id in (self.guesser.id, self.answerer.id)


@dataclass(frozen=True)
class EventView:
    id: int
    guild_id: int
    channel_id: int
    host: Member
    status: str
    pairs: int
    time_limit_ms: int
    penalty_ms: int
    categories: tuple[str, ...]
    language: str
    list_message_id: int | None
    teams: list[TeamView]

    @property
    def playing(self) -> list[TeamView]:
        return [t for t in self.teams if t.status in ("playing", "disqualified")]

    @property
    def waiting(self) -> list[TeamView]:
        return [t for t in self.teams if t.status == "waiting"]

    def team_of(self, user_id: int) -> TeamView | None:
        return next((t for t in self.teams if t.has(user_id)), None)


@dataclass(frozen=True)
class Registration:
    event: EventView
    team: TeamView


@dataclass(frozen=True)
class Withdrawal:
    event: EventView
    team: TeamView
    moved_up: TeamView | None


@dataclass(frozen=True)
class PreparedRound:
    round_id: int
    guild_id: int
    channel_id: int
    event_id: int | None
    team_position: int | None
    stage: int
    host: Member
    guesser: Member
    answerer: Member
    word: str
    category: str | None
    time_limit_ms: int
    penalty_ms: int
    planned_end: datetime
    host_set_word: bool = False

    @property
    def title(self) -> str:
        if self.event_id is None:
            return "One-off round"
        pair = f"Pair {self.team_position}"
        return f"{pair} — tie-break word {self.stage}" if self.stage else pair


@dataclass(frozen=True)
class RunningRound:
    round_id: int
    channel_id: int
    announce_message_id: int
    started_at: datetime
    ends_at: datetime


@dataclass(frozen=True)
class ClosedRound:
    """Told to listeners after a round's end commits (the cog tidies its buttons)."""

    round_id: int
    channel_id: int
    announce_message_id: int | None
    status: str


@dataclass(frozen=True)
class Disqualification:
    """A pair disqualified: with its round ended (``round``), or between rounds."""

    event_id: int | None
    team: TeamView | None
    round: ClosedRound | None


@dataclass(frozen=True)
class RefereeOutcome:
    round_id: int
    kind: str  # reply | penalty | guessed | audience | question | late | early | duplicate | host
    round_over: bool = False
    hide_message: bool = False  # it spelled out the secret: the cog removes it
    penalties: int = 0


@dataclass(frozen=True)
class ButtonReply:
    round_id: int
    reply: Reply
    answerer: Member


@dataclass(frozen=True)
class ActiveRound:
    round_id: int
    channel_id: int
    announce_message_id: int | None
    status: str


@dataclass(frozen=True)
class StandingRow:
    team: TeamView
    status: str  # ranked | eliminated | disqualified | not_played
    place: int | None
    tied: bool
    final_ms: int | None
    elapsed_ms: int | None
    penalties: int
    tiebreaks: tuple[int | None, ...]  # each tie-break word's final time (None: ran out of time)


@dataclass(frozen=True)
class TieView:
    place: int
    level: int
    teams: list[TeamView]
    final_ms: int | None


@dataclass(frozen=True)
class Standings:
    event: EventView
    rows: list[StandingRow]
    ties: list[TieView]
    complete: bool
    leaders: list[TeamView]


@dataclass(frozen=True)
class EventClosed:
    event: EventView
    standings: Standings
    winner: TeamView | None


@dataclass(frozen=True)
class WordList:
    club_words: list[WordEntry]
    removed_builtin: list[WordEntry]
    builtin: list[WordEntry]
    builtin_count: int


class _StaleVersion(Exception):
    """Someone else changed the row first: redo the whole unit of work."""


def _job_key(round_id: int) -> str:
    return f"henyo:round:{round_id}:end"


def _md(text: str) -> str:
    """Names and words in bold text must not break out of it (or format anything)."""
    out = []
    for ch in text:
        out.append("\\" + ch if ch in "\\*_~|`>#[]()" else ch)
    return "".join(out)


def _user_error(error: Exception) -> InvalidInputError:
    return InvalidInputError(str(error))


class HenyoService:
    def __init__(self, ctx: ServiceContext, rng: random.Random | None = None) -> None:
        self.ctx = ctx
        self.rng = rng or random.Random()
        self.round_closed_listeners: list[Callable[[ClosedRound], None]] = []
        self._locks: dict[int, asyncio.Lock] = {}

    # ------------------------------------------------------------------ plumbing

    async def _retrying(self, work: Callable[[], Awaitable[T]]) -> T:
        """Run ``work`` (which opens its own unit of work) again on a lost race.

        Races: another writer bumped the row's version; two processes stored the
        same message (unique key); SQLite was busy. Each attempt starts clean.
        """
        for attempt in range(ATTEMPTS):
            try:
                return await work()
            except _StaleVersion:
                pass
            except IntegrityError:
                if attempt == ATTEMPTS - 1:
                    raise
            except OperationalError as exc:
                if not is_sqlite_locked(exc) or attempt == ATTEMPTS - 1:
                    raise
            await asyncio.sleep(0.01 * (2**attempt))
        raise ConflictError("Too many things happened at once: please try again.")

    def _lock(self, channel_id: int) -> asyncio.Lock:
        lock = self._locks.get(channel_id)
        if lock is None:
            lock = self._locks[channel_id] = asyncio.Lock()
        return lock

    async def _bump(self, uow: UnitOfWork, record: Any, **changes: Any) -> None:
        """Compare-and-set on ``record.version``: apply ``changes`` or raise ``_StaleVersion``."""
        model = type(record)
        values = dict(changes, version=record.version + 1)
        result = await uow.session.execute(
            update(model)
            .where(model.id == record.id, model.version == record.version)
            .values(**values)
            .execution_options(synchronize_session=False)
        )
        if rowcount(result) != 1:
            raise _StaleVersion()
        for key, value in values.items():
            setattr(record, key, value)

    def _notify_closed(self, closed: ClosedRound) -> None:
        self._locks.pop(-closed.round_id, None)
        for listener in list(self.round_closed_listeners):
            try:
                listener(closed)
            except Exception:  # a listener must not undo a committed round
                log.exception("henyo round-closed listener failed")

    # ------------------------------------------------------------------ loading

    async def _names(self, uow: UnitOfWork, ids: Sequence[int]) -> dict[int, str]:
        return await uow.players.names(list(set(ids)))

    async def _teams(self, uow: UnitOfWork, event_id: int) -> list[HenyoTeamRecord]:
        stmt = (
            select(HenyoTeamRecord)
            .where(HenyoTeamRecord.event_id == event_id)
            .order_by(HenyoTeamRecord.position)
        )
        return list((await uow.session.execute(stmt)).scalars())

    async def _event_rounds(self, uow: UnitOfWork, event_id: int) -> list[HenyoRoundRecord]:
        stmt = (
            select(HenyoRoundRecord)
            .where(HenyoRoundRecord.event_id == event_id)
            .order_by(HenyoRoundRecord.id)
        )
        return list((await uow.session.execute(stmt)).scalars())

    async def _open_event_in_channel(
        self, uow: UnitOfWork, channel_id: int
    ) -> HenyoEventRecord | None:
        stmt = select(HenyoEventRecord).where(
            HenyoEventRecord.channel_id == channel_id, HenyoEventRecord.status == "open"
        )
        return (
            await uow.session.execute(stmt.order_by(HenyoEventRecord.id.desc()).limit(1))
        ).scalar_one_or_none()

    async def _event_for_members(
        self, uow: UnitOfWork, guild_id: int, channel_id: int
    ) -> HenyoEventRecord:
        """The open event of this channel, or the guild's only open event."""
        event = await self._open_event_in_channel(uow, channel_id)
        if event is not None:
            return event
        stmt = select(HenyoEventRecord).where(
            HenyoEventRecord.guild_id == guild_id, HenyoEventRecord.status == "open"
        )
        events = list((await uow.session.execute(stmt.order_by(HenyoEventRecord.id))).scalars())
        if not events:
            raise InvalidInputError(
                "There's no open Henyo event. A host opens one with `/henyo event open`."
            )
        if len(events) > 1:
            where = ", ".join(f"<#{e.channel_id}>" for e in events)
            raise InvalidInputError(
                f"Several Henyo events are open: use the command in the event's channel ({where})."
            )
        return events[0]

    async def _open_round_in_channel(
        self, uow: UnitOfWork, channel_id: int
    ) -> HenyoRoundRecord | None:
        stmt = select(HenyoRoundRecord).where(
            HenyoRoundRecord.channel_id == channel_id, HenyoRoundRecord.status.in_(OPEN_ROUND)
        )
        return (
            await uow.session.execute(stmt.order_by(HenyoRoundRecord.id.desc()).limit(1))
        ).scalar_one_or_none()

    async def _running_in_channel(
        self, uow: UnitOfWork, channel_id: int
    ) -> HenyoRoundRecord | None:
        stmt = select(HenyoRoundRecord).where(
            HenyoRoundRecord.channel_id == channel_id, HenyoRoundRecord.status == "running"
        )
        return (
            await uow.session.execute(stmt.order_by(HenyoRoundRecord.id.desc()).limit(1))
        ).scalar_one_or_none()

    async def _round(self, uow: UnitOfWork, round_id: int) -> HenyoRoundRecord:
        rnd = await uow.session.get(HenyoRoundRecord, round_id)
        if rnd is None:
            raise NotFoundError(f"There is no Henyo round #{round_id}.")
        return rnd

    @staticmethod
    def _require_host(event: HenyoEventRecord, user_id: int, is_moderator: bool, what: str) -> None:
        if user_id != event.host_id and not is_moderator:
            raise PermissionDeniedError(
                f"Only the event's host (<@{event.host_id}>) or a moderator can {what}."
            )

    @staticmethod
    def _slot_statuses(event: HenyoEventRecord, teams: Sequence[HenyoTeamRecord]) -> dict[int, str]:
        """Playing, waiting, withdrawn or disqualified, for every team of the event.

        The first ``pairs`` teams that have not withdrawn (in registration order)
        play; a disqualified team keeps its slot, a withdrawn one frees it.
        """
        statuses: dict[int, str] = {}
        active = [t for t in teams if t.status in ACTIVE_TEAM]
        for index, team in enumerate(active):
            if team.status == "disqualified":
                statuses[team.id] = "disqualified"
            else:
                statuses[team.id] = "playing" if index < event.pairs else "waiting"
        for team in teams:
            statuses.setdefault(team.id, "withdrawn")
        return statuses

    def _team_view(self, team: HenyoTeamRecord, status: str, names: dict[int, str]) -> TeamView:
        return TeamView(
            team.id,
            team.position,
            Member(team.guesser_id, names.get(team.guesser_id, str(team.guesser_id))),
            Member(team.answerer_id, names.get(team.answerer_id, str(team.answerer_id))),
            status,
        )

    async def _event_view(self, uow: UnitOfWork, event: HenyoEventRecord) -> EventView:
        teams = await self._teams(uow, event.id)
        statuses = self._slot_statuses(event, teams)
        ids = [event.host_id] + [t.guesser_id for t in teams] + [t.answerer_id for t in teams]
        names = await self._names(uow, ids)
        shown = [
            self._team_view(t, statuses[t.id], names)
            for t in teams
            if statuses[t.id] != "withdrawn"
        ]
        return EventView(
            event.id,
            event.guild_id,
            event.channel_id,
            Member(event.host_id, names.get(event.host_id, str(event.host_id))),
            event.status,
            event.pairs,
            event.time_limit_ms,
            event.penalty_ms,
            tuple(event.categories or CATEGORIES),
            event.language,
            event.list_message_id,
            shown,
        )

    # ------------------------------------------------------------------ events and registration

    async def open_event(
        self,
        *,
        guild_id: int,
        guild_name: str,
        channel_id: int,
        host: Member,
        pairs: int | None = None,
        time_limit: str | None = None,
        penalty: str | None = None,
        categories: str | None = None,
        language: str | None = None,
        is_moderator: bool = True,
    ) -> EventView:
        pairs = DEFAULT_PAIRS if pairs is None else pairs
        if not 1 <= pairs <= MAX_PAIRS:
            raise InvalidInputError(f"An event has between 1 and {MAX_PAIRS} playing pairs.")
        try:
            limit_ms = (
                DEFAULT_TIME_LIMIT_MS
                if time_limit is None
                else parse_duration_ms(
                    time_limit,
                    what="the time limit",
                    minimum_ms=MIN_TIME_LIMIT_MS,
                    maximum_ms=MAX_TIME_LIMIT_MS,
                )
            )
            penalty_ms = (
                DEFAULT_PENALTY_MS
                if penalty is None
                else parse_duration_ms(
                    penalty, what="the penalty", minimum_ms=0, maximum_ms=MAX_PENALTY_MS
                )
            )
            chosen = parse_categories(categories)
            lang = parse_language(language)
        except (HenyoTimingError, HenyoWordError) as exc:
            raise _user_error(exc) from None

        # The host of an open event may see the club's word bank: only moderators host.
        if not is_moderator:
            raise PermissionDeniedError("Only the club's moderators can open Henyo events.")

        async def work() -> EventView:
            async with self.ctx.uow() as uow:
                await uow.guilds.ensure(guild_id, guild_name)
                await uow.players.ensure(host.id, host.name)
                existing = await self._open_event_in_channel(uow, channel_id)
                if existing is not None:
                    raise InvalidInputError(
                        f"This channel already has an open Henyo event (hosted by <@{existing.host_id}>). "
                        "Close it with `/henyo event close` first."
                    )
                event = HenyoEventRecord(
                    guild_id=guild_id,
                    channel_id=channel_id,
                    host_id=host.id,
                    status="open",
                    pairs=pairs,
                    time_limit_ms=limit_ms,
                    penalty_ms=penalty_ms,
                    categories=list(chosen),
                    language=lang,
                    version=1,
                    created_at=self.ctx.clock(),
                )
                uow.session.add(event)
                await uow.session.flush()
                view = await self._event_view(uow, event)
                await uow.commit()
                return view

        return await self._retrying(work)

    async def set_list_message(self, event_id: int, message_id: int) -> None:
        """Remember the live registration list message (edited on every change)."""
        async with self.ctx.uow() as uow:
            await uow.session.execute(
                update(HenyoEventRecord)
                .where(HenyoEventRecord.id == event_id)
                .values(list_message_id=message_id)
            )
            await uow.commit()

    async def event(self, event_id: int) -> EventView:
        async with self.ctx.uow() as uow:
            event = await uow.session.get(HenyoEventRecord, event_id)
            if event is None:
                raise NotFoundError(f"There is no Henyo event #{event_id}.")
            return await self._event_view(uow, event)

    async def register(
        self,
        *,
        guild_id: int,
        guild_name: str,
        channel_id: int,
        user: Member,
        partner: Member,
        role: str = "guesser",
    ) -> Registration:
        if partner.id == user.id:
            raise InvalidInputError("Pick a partner other than yourself: a Henyo team is a pair.")
        if role not in ("guesser", "answerer"):
            raise InvalidInputError("Your role is `guesser` or `answerer`.")

        async def work() -> Registration:
            async with self.ctx.uow() as uow:
                await uow.guilds.ensure(guild_id, guild_name)
                event = await self._event_for_members(uow, guild_id, channel_id)
                teams = await self._teams(uow, event.id)
                for team in teams:
                    if team.status not in ACTIVE_TEAM:
                        continue
                    members = (team.guesser_id, team.answerer_id)
                    if user.id in members:
                        raise InvalidInputError(
                            f"You're already registered in this event (pair {team.position})."
                        )
                    if partner.id in members:
                        raise InvalidInputError(
                            f"{partner.name} is already registered with someone else."
                        )
                await uow.players.ensure(user.id, user.name)
                await uow.players.ensure(partner.id, partner.name)
                guesser, answerer = (user, partner) if role == "guesser" else (partner, user)
                team = HenyoTeamRecord(
                    event_id=event.id,
                    position=max((t.position for t in teams), default=0) + 1,
                    guesser_id=guesser.id,
                    answerer_id=answerer.id,
                    status="registered",
                    registered_at=self.ctx.clock(),
                )
                uow.session.add(team)
                await self._bump(uow, event)
                await uow.session.flush()
                view = await self._event_view(uow, event)
                await uow.commit()
            return Registration(view, next(t for t in view.teams if t.id == team.id))

        return await self._retrying(work)

    async def withdraw(self, *, guild_id: int, channel_id: int, user_id: int) -> Withdrawal:
        async def work() -> Withdrawal:
            async with self.ctx.uow() as uow:
                event = await self._event_for_members(uow, guild_id, channel_id)
                teams = await self._teams(uow, event.id)
                team = next(
                    (
                        t
                        for t in teams
                        if t.status == "registered" and user_id in (t.guesser_id, t.answerer_id)
                    ),
                    None,
                )
                if team is None:
                    raise InvalidInputError("You're not registered in this event.")
                played = [
                    r
                    for r in await self._event_rounds(uow, event.id)
                    if r.team_id == team.id and r.status != "cancelled"
                ]
                if played:
                    raise InvalidInputError(
                        "Your pair has already played, so it can't withdraw now."
                    )
                before = self._slot_statuses(event, teams)
                team.status = "withdrawn"
                team.withdrawn_at = self.ctx.clock()
                after = self._slot_statuses(event, teams)
                await self._bump(uow, event)
                names = await self._names(
                    uow, [t.guesser_id for t in teams] + [t.answerer_id for t in teams]
                )
                moved = next(
                    (t for t in teams if before[t.id] == "waiting" and after[t.id] == "playing"),
                    None,
                )
                moved_view = self._team_view(moved, "playing", names) if moved else None
                if moved_view is not None:
                    uow.outbox.to_channel(
                        event.channel_id,
                        {
                            "content": f"⬆️ **{_md(moved_view.label)}** move up from the waiting list: "
                            f"they play as pair {moved_view.position}.",
                        },
                    )
                await uow.session.flush()
                view = await self._event_view(uow, event)
                await uow.commit()
            return Withdrawal(view, self._team_view(team, "withdrawn", names), moved_view)

        return await self._retrying(work)

    async def close_event(
        self, *, guild_id: int, channel_id: int, user_id: int, is_moderator: bool
    ) -> EventClosed:
        async def work() -> EventClosed:
            async with self.ctx.uow() as uow:
                event = await self._event_for_members(uow, guild_id, channel_id)
                self._require_host(event, user_id, is_moderator, "close the event")
                rounds = await self._event_rounds(uow, event.id)
                if any(r.status in OPEN_ROUND for r in rounds):
                    raise InvalidInputError(
                        "A round is still running: close the event when it has ended."
                    )
                standings = await self._standings(uow, event, rounds)
                winner = standings.leaders[0] if len(standings.leaders) == 1 else None
                now = self.ctx.clock()
                if winner is not None:
                    row = next(r for r in standings.rows if r.team.id == winner.id)
                    for member in (winner.guesser, winner.answerer):
                        await record_points(
                            uow,
                            guild_id=event.guild_id,
                            kind=KIND,
                            player_id=member.id,
                            points=None,
                            played_at=now,
                            round_ref=f"henyo:event:{event.id}",
                            outcome="win",
                            time_ms=None,
                            extra={
                                "type": "event_win",
                                "event_id": event.id,
                                "final_ms": row.final_ms,
                            },
                        )
                await self._bump(
                    uow,
                    event,
                    status="closed",
                    closed_at=now,
                    winner_team_id=winner.id if winner else None,
                )
                standings = await self._standings(uow, event, rounds)
                await uow.commit()
            return EventClosed(standings.event, standings, winner)

        return await self._retrying(work)

    # ------------------------------------------------------------------ standings

    @staticmethod
    def _attempt(rnd: HenyoRoundRecord) -> Attempt:
        if rnd.status == "guessed":
            assert rnd.final_ms is not None
            return Attempt.guessed(rnd.final_ms)
        return Attempt.timed_out()

    def _ranking(
        self,
        event: HenyoEventRecord,
        teams: Sequence[HenyoTeamRecord],
        rounds: Sequence[HenyoRoundRecord],
    ) -> tuple[Ranking, dict[int, str]]:
        statuses = self._slot_statuses(event, teams)
        pairs = []
        for team in teams:
            if statuses[team.id] not in ("playing", "disqualified"):
                continue
            finished = [r for r in rounds if r.team_id == team.id and r.status in FINISHED_ROUND]
            main = next((r for r in finished if r.stage == 0), None)
            tiebreaks = tuple(
                self._attempt(r)
                for r in sorted((r for r in finished if r.stage > 0), key=lambda r: r.stage)
            )
            disqualified = team.status == "disqualified" or any(
                r.status == "disqualified" for r in finished
            )
            pairs.append(
                PairRecord(
                    team.id,
                    team.position,
                    main=self._attempt(main) if main else None,
                    tiebreaks=tiebreaks,
                    disqualified=disqualified,
                )
            )
        return rank_pairs(pairs), statuses

    async def _standings(
        self,
        uow: UnitOfWork,
        event: HenyoEventRecord,
        rounds: Sequence[HenyoRoundRecord] | None = None,
    ) -> Standings:
        teams = await self._teams(uow, event.id)
        rounds = list(rounds if rounds is not None else await self._event_rounds(uow, event.id))
        ranking, _ = self._ranking(event, teams, rounds)
        view = await self._event_view(uow, event)
        by_id = {t.id: t for t in view.teams}
        rows = []
        for standing in ranking.standings:
            main = next(
                (
                    r
                    for r in rounds
                    if r.team_id == standing.pair_id and r.stage == 0 and r.status in FINISHED_ROUND
                ),
                None,
            )
            rows.append(
                StandingRow(
                    team=by_id[standing.pair_id],
                    status=standing.status.value,
                    place=standing.place,
                    tied=standing.tied,
                    final_ms=standing.final_ms,
                    elapsed_ms=main.elapsed_ms if main and main.status == "guessed" else None,
                    penalties=main.penalties if main else 0,
                    tiebreaks=tuple(a.final_ms for a in standing.tiebreaks),
                )
            )
        ties = []
        for tie in ranking.ties:
            first = ranking.standing(tie.pair_ids[0])
            ties.append(
                TieView(tie.place, tie.level, [by_id[i] for i in tie.pair_ids], first.final_ms)
            )
        leaders = [by_id[i] for i in ranking.leaders]
        return Standings(view, rows, ties, ranking.complete, leaders)

    async def standings(
        self, *, guild_id: int, channel_id: int, event_id: int | None = None
    ) -> Standings:
        async with self.ctx.uow() as uow:
            if event_id is not None:
                event = (
                    await uow.session.get(HenyoEventRecord, event_id)
                    if is_row_id(event_id)
                    else None
                )
                if event is None or event.guild_id != guild_id:
                    raise NotFoundError(f"There is no Henyo event #{event_id} in this server.")
            else:
                event = await self._open_event_in_channel(uow, channel_id)
                if event is None:
                    for condition in (
                        HenyoEventRecord.channel_id == channel_id,
                        HenyoEventRecord.guild_id == guild_id,
                    ):
                        stmt = select(HenyoEventRecord).where(
                            condition, HenyoEventRecord.guild_id == guild_id
                        )
                        event = (
                            await uow.session.execute(
                                stmt.order_by(HenyoEventRecord.id.desc()).limit(1)
                            )
                        ).scalar_one_or_none()
                        if event is not None:
                            break
                if event is None:
                    raise NotFoundError(
                        "There are no Henyo events here yet. A host opens one with `/henyo event open`."
                    )
            return await self._standings(uow, event)

    # ------------------------------------------------------------------ words

    async def _word_pool(self, uow: UnitOfWork, guild_id: int) -> list[WordEntry]:
        rows = list(
            (
                await uow.session.execute(
                    select(HenyoWordRecord).where(HenyoWordRecord.guild_id == guild_id)
                )
            ).scalars()
        )
        removed = {r.key for r in rows if not r.active}
        pool = [w for w in builtin_words() if w.key not in removed]
        pool.extend(WordEntry(r.text, r.category, r.language) for r in rows if r.active)
        return pool

    async def _require_word_keeper(
        self, uow: UnitOfWork, guild_id: int, user_id: int, is_moderator: bool
    ) -> None:
        if is_moderator:
            return
        stmt = (
            select(func.count())
            .select_from(HenyoEventRecord)
            .where(
                HenyoEventRecord.guild_id == guild_id,
                HenyoEventRecord.status == "open",
                HenyoEventRecord.host_id == user_id,
            )
        )
        if not (await uow.session.execute(stmt)).scalar_one():
            raise PermissionDeniedError(
                "Only moderators and the host of an open Henyo event can change or see the word bank."
            )

    async def words_add(
        self,
        *,
        guild_id: int,
        guild_name: str,
        user_id: int,
        is_moderator: bool,
        text: str,
        category: str,
        language: str,
    ) -> WordEntry:
        try:
            shown = clean_word(text)
            cat = parse_category(category)
            lang = parse_language(language, allow_any=False)
        except HenyoWordError as exc:
            raise _user_error(exc) from None
        key = word_key(shown)
        builtin = {w.key: w for w in builtin_words()}

        async def work() -> WordEntry:
            async with self.ctx.uow() as uow:
                await uow.guilds.ensure(guild_id, guild_name)
                await self._require_word_keeper(uow, guild_id, user_id, is_moderator)
                row = (
                    await uow.session.execute(
                        select(HenyoWordRecord).where(
                            HenyoWordRecord.guild_id == guild_id, HenyoWordRecord.key == key
                        )
                    )
                ).scalar_one_or_none()
                if row is not None and row.active:
                    raise InvalidInputError(
                        f"`{shown}` is already in the club's words ({row.category})."
                    )
                if row is None and key in builtin:
                    raise InvalidInputError(
                        f"`{shown}` is already in the built-in bank ({builtin[key].category})."
                    )
                if row is not None:
                    await uow.session.delete(
                        row
                    )  # it was a removed built-in word: bring it back as the club's own
                    await uow.session.flush()
                uow.session.add(
                    HenyoWordRecord(
                        guild_id=guild_id,
                        text=shown,
                        key=key,
                        category=cat,
                        language=lang,
                        active=True,
                        added_by=user_id,
                        created_at=self.ctx.clock(),
                    )
                )
                await uow.commit()
            return WordEntry(shown, cat, lang)

        return await self._retrying(work)

    async def words_remove(
        self, *, guild_id: int, guild_name: str, user_id: int, is_moderator: bool, text: str
    ) -> WordEntry:
        key = word_key(text)
        builtin = {w.key: w for w in builtin_words()}

        async def work() -> WordEntry:
            async with self.ctx.uow() as uow:
                await uow.guilds.ensure(guild_id, guild_name)
                await self._require_word_keeper(uow, guild_id, user_id, is_moderator)
                row = (
                    await uow.session.execute(
                        select(HenyoWordRecord).where(
                            HenyoWordRecord.guild_id == guild_id, HenyoWordRecord.key == key
                        )
                    )
                ).scalar_one_or_none()
                if row is not None and row.active:
                    removed = WordEntry(row.text, row.category, row.language)
                    await uow.session.delete(row)
                    if (
                        key in builtin
                    ):  # a club word that shadowed a built-in one: keep the built-in out too
                        await uow.session.flush()
                        self._tombstone(uow, guild_id, builtin[key], user_id)
                elif row is None and key in builtin:
                    removed = builtin[key]
                    self._tombstone(uow, guild_id, removed, user_id)
                else:
                    raise NotFoundError(f"`{text.strip()[:60]}` is not in the word bank.")
                await uow.commit()
            return removed

        return await self._retrying(work)

    def _tombstone(self, uow: UnitOfWork, guild_id: int, word: WordEntry, user_id: int) -> None:
        uow.session.add(
            HenyoWordRecord(
                guild_id=guild_id,
                text=word.text,
                key=word.key,
                category=word.category,
                language=word.language,
                active=False,
                added_by=user_id,
                created_at=self.ctx.clock(),
            )
        )

    async def words_list(
        self,
        *,
        guild_id: int,
        user_id: int,
        is_moderator: bool,
        category: str | None = None,
        include_builtin: bool = False,
    ) -> WordList:
        try:
            wanted = [parse_category(category)] if category else list(CATEGORIES)
        except HenyoWordError as exc:
            raise _user_error(exc) from None
        async with self.ctx.uow() as uow:
            await self._require_word_keeper(uow, guild_id, user_id, is_moderator)
            rows = (
                await uow.session.execute(
                    select(
                        HenyoWordRecord.text,
                        HenyoWordRecord.key,
                        HenyoWordRecord.category,
                        HenyoWordRecord.language,
                        HenyoWordRecord.active,
                    )
                    .where(HenyoWordRecord.guild_id == guild_id)
                    .order_by(HenyoWordRecord.text)
                )
            ).all()
        removed_keys = {r.key for r in rows if not r.active}
        club = [
            WordEntry(r.text, r.category, r.language)
            for r in rows
            if r.active and r.category in wanted
        ]
        removed = [
            WordEntry(r.text, r.category, r.language)
            for r in rows
            if not r.active and r.category in wanted
        ]
        builtin = [w for w in builtin_words() if w.category in wanted and w.key not in removed_keys]
        return WordList(club, removed, builtin if include_builtin else [], len(builtin))

    # ------------------------------------------------------------------ starting a round

    async def _next_pair(
        self, uow: UnitOfWork, event: HenyoEventRecord
    ) -> tuple[HenyoTeamRecord, int]:
        teams = await self._teams(uow, event.id)
        rounds = await self._event_rounds(uow, event.id)
        statuses = self._slot_statuses(event, teams)
        played = {r.team_id for r in rounds if r.stage == 0 and r.status != "cancelled"}
        for team in teams:
            if statuses[team.id] == "playing" and team.id not in played:
                return team, 0
        ranking, _ = self._ranking(event, teams, rounds)
        by_id = {t.id: t for t in teams}
        for tie in ranking.ties:
            if tie.waiting_ids:
                return by_id[tie.waiting_ids[0]], tie.level
        if not any(statuses[t.id] == "playing" for t in teams):
            raise InvalidInputError(
                "No pairs have registered yet: members join with `/henyo register partner:@member`."
            )
        raise InvalidInputError(
            "Every pair has played and no tie is left to break. See `/henyo standings`, then `/henyo event close`."
        )

    async def _used_keys(self, uow: UnitOfWork, guild_id: int, event_id: int | None) -> set[str]:
        """Words that may not come up again: the event's, or (one-offs) the guild's recent ones.

        A round cancelled because the answerer could not get the DM never showed
        its word to anyone, so that word stays available.
        """
        stmt = select(HenyoRoundRecord.word_key, HenyoRoundRecord.cancel_reason)
        if event_id is not None:
            stmt = stmt.where(HenyoRoundRecord.event_id == event_id)
        else:
            stmt = (
                stmt.where(HenyoRoundRecord.guild_id == guild_id)
                .order_by(HenyoRoundRecord.id.desc())
                .limit(RECENT_ONE_OFF_WORDS)
            )
        return {
            key for key, reason in (await uow.session.execute(stmt)).all() if reason != "dm_closed"
        }

    async def prepare_round(
        self,
        *,
        guild_id: int,
        guild_name: str,
        channel_id: int,
        host: Member,
        is_moderator: bool,
        guesser: Member | None = None,
        answerer: Member | None = None,
        category: str | None = None,
        word: str | None = None,
    ) -> PreparedRound:
        """Choose the pair and the secret and store the round as ``ready``.

        Nothing is announced yet: the cog DMs the secret and posts the
        announcement, then calls ``begin_round`` (or ``cancel_round``).
        """
        if (guesser is None) != (answerer is None):
            raise InvalidInputError(
                "Give both `guesser` and `answerer` for a one-off round, or neither for the event's next pair."
            )
        if guesser is not None and answerer is not None and guesser.id == answerer.id:
            raise InvalidInputError("The guesser and the answerer must be two different members.")
        try:
            chosen_category = parse_category(category) if category else None
            secret = clean_word(word) if word is not None else None
        except HenyoWordError as exc:
            raise _user_error(exc) from None

        async def work() -> PreparedRound:
            async with self.ctx.uow() as uow:
                await uow.guilds.ensure(guild_id, guild_name)
                if await self._open_round_in_channel(uow, channel_id) is not None:
                    raise InvalidInputError(
                        "A round is already running in this channel: wait for it to end."
                    )
                event = await self._open_event_in_channel(uow, channel_id)
                team: HenyoTeamRecord | None = None
                stage = 0
                if guesser is None:
                    if event is None:
                        raise InvalidInputError(
                            "There's no open Henyo event in this channel. Open one with `/henyo event open`, "
                            "or start a one-off round with `guesser:` and `answerer:`."
                        )
                    self._require_host(event, host.id, is_moderator, "start the event's rounds")
                    team, stage = await self._next_pair(uow, event)
                    names = await self._names(uow, [team.guesser_id, team.answerer_id])
                    the_guesser = Member(
                        team.guesser_id, names.get(team.guesser_id, str(team.guesser_id))
                    )
                    the_answerer = Member(
                        team.answerer_id, names.get(team.answerer_id, str(team.answerer_id))
                    )
                else:
                    assert answerer is not None
                    if event is not None:
                        self._require_host(
                            event, host.id, is_moderator, "start rounds in this event's channel"
                        )
                    the_guesser, the_answerer = guesser, answerer
                    event = None  # a one-off round is not part of the event
                if host.id == the_guesser.id:
                    raise PermissionDeniedError(
                        "You can't host a round you guess in: the host is sent the secret word."
                    )
                for member in (host, the_guesser, the_answerer):
                    await uow.players.ensure(member.id, member.name)
                limit_ms = event.time_limit_ms if event else DEFAULT_TIME_LIMIT_MS
                penalty_ms = event.penalty_ms if event else DEFAULT_PENALTY_MS
                used = await self._used_keys(uow, guild_id, event.id if event else None)
                if secret is not None:
                    if word_key(secret) in used and event is not None:
                        raise InvalidInputError(
                            "That word was already used in this event: choose another."
                        )
                    entry = WordEntry(secret, chosen_category or "", "")
                    source = "host"
                else:
                    pool = await self._word_pool(uow, guild_id)
                    categories = (
                        [chosen_category]
                        if chosen_category
                        else list(event.categories if event else CATEGORIES)
                    )
                    language = event.language if event else ANY_LANGUAGE
                    try:
                        entry = pick_word(
                            pool, self.rng, used_keys=used, categories=categories, language=language
                        )
                    except HenyoWordError as exc:
                        raise _user_error(exc) from None
                    source = "bank" if entry in builtin_words() else "club"
                now = self.ctx.clock()
                rnd = HenyoRoundRecord(
                    guild_id=guild_id,
                    channel_id=channel_id,
                    event_id=event.id if event else None,
                    team_id=team.id if team else None,
                    stage=stage,
                    host_id=host.id,
                    guesser_id=the_guesser.id,
                    answerer_id=the_answerer.id,
                    word=entry.text,
                    word_key=entry.key,
                    category=entry.category or None,
                    language=entry.language or None,
                    word_source=source,
                    status="ready",
                    time_limit_ms=limit_ms,
                    penalty_ms=penalty_ms,
                    penalties=0,
                    version=1,
                    created_at=now,
                )
                uow.session.add(rnd)
                await uow.session.flush()
                await schedule_job(
                    uow.session,
                    JOB_KIND,
                    now + START_WINDOW,
                    {"round_id": rnd.id},
                    key=_job_key(rnd.id),
                )
                await uow.commit()
                return PreparedRound(
                    rnd.id,
                    guild_id,
                    channel_id,
                    rnd.event_id,
                    team.position if team else None,
                    stage,
                    host,
                    the_guesser,
                    the_answerer,
                    entry.text,
                    entry.category or None,
                    limit_ms,
                    penalty_ms,
                    now + timedelta(milliseconds=limit_ms),
                    host_set_word=source == "host",
                )

        # One start at a time per channel: two hosts pressing at once get one round.
        # (A channel's guild lives on one shard, so one process sees all its commands.)
        async with self._lock(channel_id):
            return await self._retrying(work)

    async def cancel_round(self, round_id: int, reason: str) -> None:
        """A round that could not start (the answerer's DMs are closed, the post failed)."""

        async def work() -> None:
            async with self.ctx.uow() as uow:
                rnd = await self._round(uow, round_id)
                if rnd.status != "ready":
                    return
                await self._bump(
                    uow,
                    rnd,
                    status="cancelled",
                    cancel_reason=reason[:32],
                    ended_at=self.ctx.clock(),
                )
                await cancel_job(uow.session, _job_key(round_id))
                await uow.commit()

        await self._retrying(work)

    async def begin_round(self, round_id: int, announce_message_id: int) -> RunningRound:
        """Start the clock at the announcement message's own Discord timestamp."""

        async def work() -> RunningRound:
            async with self.ctx.uow() as uow:
                rnd = await self._round(uow, round_id)
                if rnd.status != "ready":
                    raise InvalidInputError(
                        "This round can no longer start: start a new one with `/henyo start`."
                    )
                started_at = snowflake_time(announce_message_id)
                await self._bump(
                    uow,
                    rnd,
                    status="running",
                    announce_message_id=announce_message_id,
                    started_at=started_at,
                )
                limit = timedelta(milliseconds=rnd.time_limit_ms)
                # The job only needs to fire after the deadline; the verdict itself
                # is decided from Discord's timestamps, whatever the bot's clock says.
                await schedule_job(
                    uow.session,
                    JOB_KIND,
                    self.ctx.clock() + limit + END_GRACE,
                    {"round_id": rnd.id},
                    key=_job_key(rnd.id),
                )
                await uow.commit()
                return RunningRound(
                    rnd.id, rnd.channel_id, announce_message_id, started_at, started_at + limit
                )

        return await self._retrying(work)

    async def open_rounds(self) -> list[ActiveRound]:
        """Rounds that are ready or running (the cog watches their channels)."""
        async with self.ctx.uow() as uow:
            rows = (
                await uow.session.execute(
                    select(
                        HenyoRoundRecord.id,
                        HenyoRoundRecord.channel_id,
                        HenyoRoundRecord.announce_message_id,
                        HenyoRoundRecord.status,
                    ).where(HenyoRoundRecord.status.in_(OPEN_ROUND))
                )
            ).all()
        return [ActiveRound(r.id, r.channel_id, r.announce_message_id, r.status) for r in rows]

    # ------------------------------------------------------------------ the referee

    async def referee_message(
        self,
        *,
        channel_id: int,
        message_id: int,
        author_id: int,
        content: str,
        has_attachments: bool = False,
        author_name: str = "",
    ) -> RefereeOutcome | None:
        """Rule on one message in a channel; None when no round runs there.

        The time of the message is its snowflake's, so a message seen late (or
        again, from history after a restart) is judged exactly as if seen live.
        """
        async with self._lock(channel_id):
            return await self._retrying(
                lambda: self._referee(
                    channel_id, message_id, author_id, author_name, content, has_attachments
                )
            )

    async def _seen(self, uow: UnitOfWork, round_id: int, source_id: int) -> bool:
        stmt = (
            select(func.count())
            .select_from(HenyoRoundEventRecord)
            .where(
                HenyoRoundEventRecord.round_id == round_id,
                HenyoRoundEventRecord.source_id == source_id,
            )
        )
        return bool((await uow.session.execute(stmt)).scalar_one())

    def _add_event(
        self,
        uow: UnitOfWork,
        rnd: HenyoRoundRecord,
        source_id: int,
        user_id: int,
        kind: str,
        elapsed: int,
        reply: Reply | None = None,
    ) -> None:
        uow.session.add(
            HenyoRoundEventRecord(
                round_id=rnd.id,
                source_id=source_id,
                user_id=user_id,
                kind=kind,
                reply=reply.value if reply else None,
                at=snowflake_time(source_id),
                elapsed_ms=elapsed,
            )
        )

    async def _referee(
        self,
        channel_id: int,
        message_id: int,
        author_id: int,
        author_name: str,
        content: str,
        has_attachments: bool,
    ) -> RefereeOutcome | None:
        async with self.ctx.uow() as uow:
            rnd = await self._open_round_in_channel(uow, channel_id)
            if rnd is None:
                return None
            if (
                rnd.status != "running"
                or rnd.announce_message_id is None
                or message_id <= rnd.announce_message_id
            ):
                # Said before the clock started (or while the round is being announced).
                return RefereeOutcome(rnd.id, "early")
            elapsed = elapsed_ms(rnd.announce_message_id, message_id)
            if not within_limit(elapsed, rnd.time_limit_ms):
                return RefereeOutcome(rnd.id, "late")  # the end job calls the round
            if author_id == rnd.host_id and author_id not in (rnd.guesser_id, rnd.answerer_id):
                return RefereeOutcome(rnd.id, "host")
            if author_id == rnd.guesser_id:
                if not is_correct_guess(content, rnd.word):
                    return RefereeOutcome(rnd.id, "question")
                if await self._seen(uow, rnd.id, message_id):
                    return RefereeOutcome(rnd.id, "duplicate")
                return await self._guessed(uow, rnd, message_id, elapsed)
            hide = mentions_secret(content, rnd.word)
            if await self._seen(uow, rnd.id, message_id):
                return RefereeOutcome(rnd.id, "duplicate", hide_message=hide)
            if author_id == rnd.answerer_id:
                return await self._answer(
                    uow, rnd, message_id, elapsed, content, has_attachments, hide
                )
            return await self._audience(uow, rnd, message_id, author_id, author_name, elapsed, hide)

    async def _answer(
        self,
        uow: UnitOfWork,
        rnd: HenyoRoundRecord,
        message_id: int,
        elapsed: int,
        content: str,
        has_attachments: bool,
        hide: bool,
    ) -> RefereeOutcome:
        verdict = judge_answer(content, has_attachments=has_attachments)
        if verdict.allowed:
            self._add_event(uow, rnd, message_id, rnd.answerer_id, "reply", elapsed, verdict.reply)
            await uow.commit()
            return RefereeOutcome(rnd.id, "reply", penalties=rnd.penalties)
        self._add_event(uow, rnd, message_id, rnd.answerer_id, "penalty", elapsed)
        count = rnd.penalties + 1
        await self._bump(uow, rnd, penalties=count)
        names = await self._names(uow, [rnd.answerer_id])
        uow.outbox.to_channel(
            rnd.channel_id,
            {
                "content": f"⏱️ Penalty: +{format_seconds(rnd.penalty_ms)} for **{_md(names.get(rnd.answerer_id, 'the answerer'))}** "
                f"(only Oo, Hindi or Pwede). Penalties so far: **{format_seconds(count * rnd.penalty_ms)}** ({count}).",
            },
        )
        await uow.commit()
        return RefereeOutcome(rnd.id, "penalty", hide_message=hide, penalties=count)

    async def _audience(
        self,
        uow: UnitOfWork,
        rnd: HenyoRoundRecord,
        message_id: int,
        author_id: int,
        author_name: str,
        elapsed: int,
        hide: bool,
    ) -> RefereeOutcome:
        self._add_event(uow, rnd, message_id, author_id, "audience", elapsed)
        names = await self._names(uow, [author_id, rnd.guesser_id, rnd.answerer_id])
        name = names.get(author_id) or author_name
        author = f"**{_md(name)}**" if name else f"<@{author_id}>"
        pair = f"{names.get(rnd.guesser_id, '?')} & {names.get(rnd.answerer_id, '?')}"
        link = f"https://discord.com/channels/{rnd.guild_id}/{rnd.channel_id}/{message_id}"
        uow.outbox.to_user(
            rnd.host_id,
            {
                "content": f"🚩 Audience message during Henyo round #{rnd.id} ({_md(pair)}) at {format_time(elapsed)}: "
                f"{author} wrote in <#{rnd.channel_id}> — {link}\n"
                "If it was coaching, `/henyo disqualify` in that channel ends the round for the pair.",
                # Shown in the channel if the host's DMs are closed: no link text that could
                # quote a hint, just the flag.
                "fallback_content": f"🚩 {author} posted during the round: host, please check (coaching is not allowed).",
            },
            fallback_channel_id=rnd.channel_id,
        )
        await uow.commit()
        return RefereeOutcome(rnd.id, "audience", hide_message=hide, penalties=rnd.penalties)

    async def _penalties_before(self, uow: UnitOfWork, round_id: int, source_id: int) -> int:
        stmt = (
            select(func.count())
            .select_from(HenyoRoundEventRecord)
            .where(
                HenyoRoundEventRecord.round_id == round_id,
                HenyoRoundEventRecord.kind == "penalty",
                HenyoRoundEventRecord.source_id < source_id,
            )
        )
        return int((await uow.session.execute(stmt)).scalar_one())

    async def _guessed(
        self, uow: UnitOfWork, rnd: HenyoRoundRecord, message_id: int, elapsed: int
    ) -> RefereeOutcome:
        self._add_event(uow, rnd, message_id, rnd.guesser_id, "guess", elapsed)
        # Only penalties before the guess count, even if a later one was seen first.
        penalties = await self._penalties_before(uow, rnd.id, message_id)
        timing = Timing(elapsed, penalties, rnd.penalty_ms)
        await self._finish(
            uow,
            rnd,
            status="guessed",
            ended_at=snowflake_time(message_id),
            elapsed=elapsed,
            penalties=penalties,
            final_ms=timing.final_ms,
            guess_message_id=message_id,
        )
        names = await self._names(uow, [rnd.guesser_id])
        lines = [
            f"🎉 **{_md(names.get(rnd.guesser_id, 'The guesser'))}** guessed it: **{_md(rnd.word)}**!",
            f"Time {format_time(elapsed)} + penalties {format_seconds(timing.penalty_total_ms)} ({penalties}) "
            f"= final time **{format_time(timing.final_ms)}**.",
        ]
        lines.extend(await self._progress_lines(uow, rnd))
        uow.outbox.to_channel(rnd.channel_id, {"content": "\n".join(lines)})
        await uow.commit()
        return RefereeOutcome(rnd.id, "guessed", round_over=True, penalties=penalties)

    async def button_reply(
        self, *, round_id: int, user_id: int, reply: str, interaction_id: int
    ) -> ButtonReply:
        """The answerer pressed Oo, Hindi or Pwede: always an allowed reply."""
        try:
            chosen = Reply(reply)
        except ValueError:
            raise InvalidInputError("That button is not a Henyo reply.") from None

        async def work() -> ButtonReply:
            async with self.ctx.uow() as uow:
                rnd = await self._round(uow, round_id)
                if rnd.status != "running" or rnd.announce_message_id is None:
                    raise InvalidInputError("This round is over.")
                if user_id != rnd.answerer_id:
                    raise PermissionDeniedError(
                        f"Only the answerer (<@{rnd.answerer_id}>) replies in this round."
                    )
                elapsed = elapsed_ms(rnd.announce_message_id, interaction_id)
                if not within_limit(elapsed, rnd.time_limit_ms):
                    raise InvalidInputError("Time is up for this round.")
                if not await self._seen(uow, rnd.id, interaction_id):
                    self._add_event(uow, rnd, interaction_id, user_id, "button", elapsed, chosen)
                names = await self._names(uow, [user_id])
                await uow.commit()
                return ButtonReply(
                    rnd.id, chosen, Member(user_id, names.get(user_id, str(user_id)))
                )

        async with self._lock_for_round(round_id):
            return await self._retrying(work)

    def _lock_for_round(self, round_id: int) -> asyncio.Lock:
        # Buttons know the round, not the channel; a separate lock still keeps
        # two presses of one round in order.
        return self._lock(-round_id)

    # ------------------------------------------------------------------ ending a round

    async def _finish(
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
        await self._bump(
            uow,
            rnd,
            status=status,
            ended_at=ended_at,
            elapsed_ms=elapsed,
            penalties=penalties,
            final_ms=final_ms,
            guess_message_id=guess_message_id,
        )
        await cancel_job(uow.session, _job_key(rnd.id))
        result = {"guessed": None, "timed_out": "loss", "disqualified": "loss"}[status]
        for player_id in (rnd.guesser_id, rnd.answerer_id):
            await record_points(
                uow,
                guild_id=rnd.guild_id,
                kind=KIND,
                player_id=player_id,
                points=None,
                played_at=ended_at,
                round_ref=f"henyo:round:{rnd.id}",
                outcome=result,
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
        uow.on_commit(lambda: self._notify_closed(closed))
        uow.on_commit(self.ctx.outbox_notify)

    async def _progress_lines(self, uow: UnitOfWork, rnd: HenyoRoundRecord) -> list[str]:
        """What the event needs next, told with a round's result."""
        if rnd.event_id is None:
            return []
        event = await uow.session.get(HenyoEventRecord, rnd.event_id)
        if event is None or event.status != "open":
            return []
        await uow.session.flush()
        teams = await self._teams(uow, event.id)
        rounds = await self._event_rounds(uow, event.id)
        ranking, statuses = self._ranking(event, teams, rounds)
        played = {r.team_id for r in rounds if r.stage == 0 and r.status != "cancelled"}
        names = await self._names(
            uow, [t.guesser_id for t in teams] + [t.answerer_id for t in teams]
        )
        upcoming = [t for t in teams if statuses[t.id] == "playing" and t.id not in played]
        if upcoming:
            nxt = self._team_view(upcoming[0], "playing", names)
            return [f"Next up: pair {nxt.position}, **{_md(nxt.label)}** (host: `/henyo start`)."]
        by_id = {t.id: t for t in teams}
        lines = []
        for tie in ranking.ties:
            labels = " and ".join(
                f"**{_md(self._team_view(by_id[i], 'playing', names).label)}**"
                for i in tie.pair_ids
            )
            final = ranking.standing(tie.pair_ids[0]).final_ms
            again = "" if tie.level == 1 else f" (tie-break {tie.level})"
            lines.append(
                f"🤝 Tie at {format_time(final)}: {labels} play a tie-break word{again} — host: `/henyo start`."
            )
        if not lines:
            lines.append(
                "🏁 Every pair has played: see `/henyo standings`; the host ends the event with `/henyo event close`."
            )
        return lines

    async def handle_round_end(self, uow: UnitOfWork, job: JobRecord) -> None:
        """Job: the round's time is up (or it never got announced)."""
        rnd = await uow.session.get(HenyoRoundRecord, int(job.payload["round_id"]))
        if rnd is not None and rnd.status == "ready":
            await self._bump(
                uow, rnd, status="cancelled", cancel_reason="interrupted", ended_at=self.ctx.clock()
            )
            uow.outbox.to_channel(
                rnd.channel_id,
                {
                    "content": f"⚠️ Henyo round #{rnd.id} could not start (the bot was interrupted). "
                    "The host can start it again with `/henyo start`.",
                },
            )
            uow.on_commit(self.ctx.outbox_notify)
        elif rnd is not None and rnd.status == "running":
            assert rnd.started_at is not None
            ended = rnd.started_at + timedelta(milliseconds=rnd.time_limit_ms)
            penalties = await self._penalties_before(uow, rnd.id, 2**63 - 1)
            await self._finish(
                uow,
                rnd,
                status="timed_out",
                ended_at=ended,
                elapsed=None,
                penalties=penalties,
                final_ms=None,
            )
            names = await self._names(uow, [rnd.guesser_id, rnd.answerer_id])
            pair = f"{names.get(rnd.guesser_id, '?')} & {names.get(rnd.answerer_id, '?')}"
            category = f" ({rnd.category})" if rnd.category else ""
            lines = [
                f"⌛ Time's up! **{_md(pair)}** didn't guess it in {format_seconds(rnd.time_limit_ms)} and "
                f"{'are eliminated' if rnd.event_id else 'ran out of time'}. The word was **{_md(rnd.word)}**{category}.",
            ]
            lines.extend(await self._progress_lines(uow, rnd))
            uow.outbox.to_channel(rnd.channel_id, {"content": "\n".join(lines)})
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

        async def work() -> Disqualification:
            async with self.ctx.uow() as uow:
                rnd = await self._running_in_channel(uow, channel_id)
                event = await self._open_event_in_channel(uow, channel_id)
                if member_id is not None and (
                    rnd is None or member_id not in (rnd.guesser_id, rnd.answerer_id)
                ):
                    if event is None:
                        raise InvalidInputError("There's no open Henyo event in this channel.")
                    self._require_host(event, user_id, is_moderator, "disqualify a pair")
                    teams = await self._teams(uow, event.id)
                    team = next(
                        (
                            t
                            for t in teams
                            if t.status == "registered"
                            and member_id in (t.guesser_id, t.answerer_id)
                        ),
                        None,
                    )
                    if team is None:
                        raise InvalidInputError(
                            "That member is not in a registered pair of this event."
                        )
                    if self._slot_statuses(event, teams)[team.id] != "playing":
                        # A disqualified pair keeps its slot; one on the waiting list has none to keep.
                        raise InvalidInputError(
                            "That pair is on the waiting list: they can `/henyo withdraw` instead."
                        )
                    team.status = "disqualified"
                    await self._bump(uow, event)
                    names = await self._names(uow, [team.guesser_id, team.answerer_id])
                    view = self._team_view(team, "disqualified", names)
                    uow.outbox.to_channel(
                        channel_id,
                        {"content": f"🚫 **{_md(view.label)}** are disqualified by the host."},
                    )
                    await uow.commit()
                    return Disqualification(event.id, view, None)
                if rnd is None:
                    raise InvalidInputError("No round is running in this channel.")
                if (
                    user_id != rnd.host_id
                    and not is_moderator
                    and (event is None or event.host_id != user_id)
                ):
                    raise PermissionDeniedError(
                        "Only the round's host or a moderator can disqualify a pair."
                    )
                team_view = None
                if rnd.team_id is not None:
                    team = await uow.session.get(HenyoTeamRecord, rnd.team_id)
                    if team is not None:
                        if team.status == "registered":
                            team.status = "disqualified"
                        names = await self._names(uow, [team.guesser_id, team.answerer_id])
                        team_view = self._team_view(team, "disqualified", names)
                penalties = await self._penalties_before(uow, rnd.id, 2**63 - 1)
                await self._finish(
                    uow,
                    rnd,
                    status="disqualified",
                    ended_at=self.ctx.clock(),
                    elapsed=None,
                    penalties=penalties,
                    final_ms=None,
                )
                names = await self._names(uow, [rnd.guesser_id, rnd.answerer_id])
                pair = f"{names.get(rnd.guesser_id, '?')} & {names.get(rnd.answerer_id, '?')}"
                lines = [
                    f"🚫 **{_md(pair)}** are disqualified by the host (no coaching!). The word was **{_md(rnd.word)}**."
                ]
                lines.extend(await self._progress_lines(uow, rnd))
                uow.outbox.to_channel(rnd.channel_id, {"content": "\n".join(lines)})
                await uow.commit()
                return Disqualification(
                    rnd.event_id,
                    team_view,
                    ClosedRound(rnd.id, rnd.channel_id, rnd.announce_message_id, "disqualified"),
                )

        async with self._lock(channel_id):
            return await self._retrying(work)


__all__ = [
    "JOB_KIND",
    "ActiveRound",
    "ButtonReply",
    "ClosedRound",
    "Disqualification",
    "EventClosed",
    "EventView",
    "HenyoService",
    "Member",
    "PreparedRound",
    "RefereeOutcome",
    "Registration",
    "RunningRound",
    "StandingRow",
    "Standings",
    "TeamView",
    "TieView",
    "Withdrawal",
    "WordList",
]
