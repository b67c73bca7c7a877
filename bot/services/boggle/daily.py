"""The daily Boggle grid (issue #31): one grid per club day, midnight to midnight in
the club's time zone, the same for every member.

A member opens it (``/boggle daily``) once a day, at any hour: their own countdown
(the round's 3 minutes) starts then and is stored (``boggle_daily_plays.ends_at``), so
opening it again shows the same grid and the same countdown. Their words come by DM
or through the Submit words form and are kept as a round's list is (every message as
sent); a message sent after their countdown is refused with a note, as in a round.

The day's row is made by the first member to open it; its seed comes from the club
and the day (``daily_seed``), so it is the same grid after a restart. A job at the
club's next midnight (``JOB_DAILY_END``, stored) scores the day: cancellation across
everyone who played it, the best words nobody found, posted in the club's channel;
a countdown still running then (opened a minute before midnight) is waited for.
Scoring also keeps the streaks (days in a row a member opened the grid) and grants
the achievements of the long word and the 7-day streak, in the same transaction.
The next day's grid is made when its first member opens it.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Collection, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from bot.compute.boggle import score_lists
from bot.db.models import JobRecord
from bot.db.models_boggle import SubmissionEntry
from bot.db.models_daily import BoggleDailyPlayRecord, BoggleDailyRecord
from bot.db.uow import UnitOfWork
from bot.errors import InvalidInputError, NotFoundError
from bot.messages.boggle import daily as say
from bot.messages.boggle import page as page_say
from bot.messages.boggle import rounds as rounds_say
from bot.offload import offload
from bot.services import achievements
from bot.services.boggle.board import RoundChanges
from bot.services.boggle.closing import round_summary
from bot.services.boggle.core import CLOSE_GRACE, LATE_NOTE_WINDOW, BoggleCore
from bot.services.boggle.jobs import JOB_DAILY_END, daily_end_key
from bot.services.boggle.options import DEFAULT_DURATION_S, club_zone, resolve_options
from bot.services.boggle.snapshots import DailyDm, DailyLate, DailyReceipt, RoundInfo
from bot.services.boggle.submissions import (
    MAX_MESSAGES_PER_LIST,
    MAX_PAGE_WORDS,
    _apply,
    replay_words,
)
from bot.services.transactions import transact
from bot.services.words import get_lexicon, word_list_ref
from engines.boggle import Grid, normalise_word, roll
from engines.henyo.timing import datetime_ms, snowflake_at

STREAK_KIND = "boggle_daily"


def daily_seed(guild_id: int, day: str) -> int:
    """The day's dice seed: the same for the club and the day, on every machine."""
    digest = hashlib.sha256(f"boggle-daily:{guild_id}:{day}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 2


def club_day(moment: datetime, zone: ZoneInfo) -> date:
    """The club's date at ``moment``."""
    return moment.astimezone(zone).date()


def day_end(day: date, zone: ZoneInfo) -> datetime:
    """The club's midnight ending ``day``, in UTC (a 23- or 25-hour day when the clocks
    change that day)."""
    return datetime.combine(day + timedelta(days=1), time(0), tzinfo=zone).astimezone(UTC)


@dataclass(frozen=True)
class DailyInfo:
    """A member's play of the day's grid, as ``/boggle daily`` shows it."""

    id: int  # the day's grid
    guild_id: int
    day: str
    grid: str
    size: int
    min_length: int
    duration_s: int
    opened_at: datetime  # the member's own countdown: from here
    ends_at: datetime  # … to here
    day_ends_at: datetime  # the results post then
    words: int  # on the member's list so far
    again: bool  # opened before today: the same countdown as then

    @property
    def rows(self) -> tuple[tuple[str, ...], ...]:
        """Faces as printed ("Qu", "A"), row by row."""
        return Grid.parse(self.grid).rows


def _info(grid: BoggleDailyRecord, play: BoggleDailyPlayRecord, again: bool) -> DailyInfo:
    return DailyInfo(
        grid.id,
        grid.guild_id,
        grid.day,
        grid.grid,
        grid.size,
        grid.min_length,
        grid.duration_s,
        play.opened_at,
        play.ends_at,
        grid.ends_at,
        len(play.words),
        again,
    )


def play_words(play: BoggleDailyPlayRecord, longest: int) -> list[str]:
    """The member's list as it stood at the end of their countdown."""
    return replay_words(play.entries, longest, play.ends_at)


@dataclass(frozen=True)
class DailyPage:
    """A member's play of a day's grid as their board page shows it."""

    info: DailyInfo
    status: str  # the day's grid's: open, then scored at the club's midnight
    words: tuple[str, ...]  # the member's own list so far
    now: datetime


class DailyGrid:
    """``/boggle daily``, its lists, and the day's end."""

    def __init__(self, core: BoggleCore) -> None:
        self.core = core

    async def open(
        self, *, guild_id: int, guild_name: str, channel_id: int, user_id: int, display_name: str
    ) -> DailyInfo:
        """The day's grid for the member: their countdown starts now, or (opened before
        today) stands as it was."""
        lexicon = self.core.ctx.settings.lexicon
        await get_lexicon(self.core.ctx, lexicon)  # a broken word list fails here
        now = self.core.now()

        async def work(uow: UnitOfWork) -> DailyInfo:
            guild = await uow.guilds.ensure(guild_id, guild_name)
            zone = club_zone(guild.timezone)
            grid = await self._grid_of_day(
                uow, guild_id, club_day(now, zone), zone, guild.default_channel_id or channel_id
            )
            play = await uow.daily.play_of(grid.id, user_id)
            if play is not None:
                return _info(grid, play, again=True)
            await uow.players.ensure(user_id, display_name)
            play = uow.daily.add_play(
                BoggleDailyPlayRecord(
                    daily_id=grid.id,
                    guild_id=guild_id,
                    day=grid.day,
                    player_id=user_id,
                    opened_at=now,
                    ends_at=now + timedelta(seconds=grid.duration_s),
                    entries=[],
                    words=[],
                )
            )
            await uow.daily.flush()
            self.core.warm_after_commit(uow, grid.lexicon)
            uow.on_commit(self.core.ctx.scheduler.wake)
            return _info(grid, play, again=False)

        return await transact(self.core.ctx, work)

    async def _grid_of_day(
        self, uow: UnitOfWork, guild_id: int, day: date, zone: ZoneInfo, channel_id: int
    ) -> BoggleDailyRecord:
        """The club's grid for ``day``, made (with its day-end job) if nobody opened it yet."""
        key = day.isoformat()
        grid = await uow.daily.grid_of(guild_id, key)
        if grid is not None:
            return grid
        options = resolve_options()
        seed = daily_seed(guild_id, key)
        ends = day_end(day, zone)
        grid = await uow.daily.add_grid(
            BoggleDailyRecord(
                guild_id=guild_id,
                day=key,
                channel_id=channel_id,
                status="open",
                size=options.size,
                dice=options.dice,
                min_length=options.min_length,
                duration_s=DEFAULT_DURATION_S,
                seed=seed,
                grid=str(roll(options.dice, seed)),
                lexicon=self.core.ctx.settings.lexicon,
                ends_at=ends,
                results={},
                created_at=self.core.now(),
            )
        )
        await uow.jobs.schedule(
            JOB_DAILY_END,
            ends,
            {"daily_id": grid.id, "guild_id": guild_id},
            key=daily_end_key(guild_id, key),
        )
        return grid

    async def for_form(self, *, guild_id: int, user_id: int) -> DailyInfo:
        """The member's play of today's grid a form would add to, or why not."""
        now = self.core.now()
        async with self.core.ctx.uow() as uow:
            guild = await uow.guilds.get(guild_id)
            zone = club_zone(guild.timezone if guild else None)
            grid = await uow.daily.grid_of(guild_id, club_day(now, zone).isoformat())
            play = await uow.daily.play_of(grid.id, user_id) if grid is not None else None
            if grid is None or play is None:
                raise NotFoundError(say.NOT_OPENED)
            if now >= play.ends_at:
                raise NotFoundError(say.countdown_over(play.ends_at, grid.ends_at))
            return _info(grid, play, again=True)

    async def submit_form(
        self, *, daily_id: int, user_id: int, display_name: str, source_id: int, text: str
    ) -> DailyReceipt:
        """Words sent through the form (the bot's clock is its time: a form is live)."""
        if not text.strip():
            raise InvalidInputError(rounds_say.EMPTY_FORM)

        async def work(uow: UnitOfWork) -> DailyReceipt:
            now = self.core.now()
            grid = await uow.daily.get_grid(daily_id)
            play = await uow.daily.play_of(daily_id, user_id) if grid is not None else None
            if grid is None or play is None:
                raise NotFoundError(say.NOT_OPENED)
            if grid.status != "open" or now >= play.ends_at:
                raise NotFoundError(say.countdown_over(play.ends_at, grid.ends_at))
            guild = await uow.guilds.get(grid.guild_id)
            entry = SubmissionEntry(id=str(source_id), at=now.isoformat(), via="form", text=text)
            if display_name:
                await uow.players.ensure(user_id, display_name)
            return await self._add_entry(uow, grid, play, guild.name if guild else "", entry)

        async with self.core.writing():
            return await transact(self.core.ctx, work)

    # -- the member's board page (``bot.web.board_boggle``, kind ``boggle_daily``)

    async def page(self, *, daily_id: int, guild_id: int, user_id: int) -> DailyPage:
        """The member's play of a day's grid as their board page shows it: the grid, their
        countdown and their own list (never anyone else's)."""
        now = self.core.now()
        async with self.core.ctx.reader() as uow:
            grid = await uow.daily.get_grid(daily_id)
            play = await uow.daily.play_of(daily_id, user_id) if grid is not None else None
            if grid is None or play is None or grid.guild_id != guild_id:
                raise NotFoundError(say.NOT_OPENED)
            return DailyPage(_info(grid, play, again=True), grid.status, tuple(play.words), now)

    async def changes(self, daily_id: int) -> RoundChanges:
        """What the grid's board pages watch (``RoundChanges``): its status (open, then
        scored) and each list's entries; nothing when there is no such grid."""
        async with self.core.ctx.reader() as uow:
            found = await uow.daily.list_changes(daily_id)
        if found is None:
            return RoundChanges(0)
        status, entries = found
        return RoundChanges(1 if status == "open" else 2, tuple(sorted(entries.items())))

    async def submit_page(
        self,
        *,
        daily_id: int,
        user_id: int,
        add: Sequence[str] = (),
        remove: Sequence[str] = (),
    ) -> tuple[DailyReceipt, list[str]]:
        """A change made on the member's board page: ``remove`` taken off their list, then
        ``add`` added, as one entry of the list their DMs and forms make; refused (nothing
        changes) once their countdown is over. The receipt and the list as it now stands."""
        if len(add) > MAX_PAGE_WORDS or len(remove) > MAX_PAGE_WORDS:
            raise InvalidInputError(rounds_say.page_too_many(MAX_PAGE_WORDS))
        removed = list(dict.fromkeys(w for w in map(normalise_word, remove) if w))
        text = " ".join(add)
        if not removed and not text.strip():
            raise InvalidInputError(rounds_say.EMPTY_PAGE_CHANGE)

        async def work(uow: UnitOfWork) -> tuple[DailyReceipt, list[str]]:
            now = self.core.now()
            grid = await uow.daily.get_grid(daily_id)
            play = await uow.daily.play_of(daily_id, user_id) if grid is not None else None
            if grid is None or play is None:
                raise NotFoundError(say.NOT_OPENED)
            guild = await uow.guilds.get(grid.guild_id)
            if grid.status != "open" or now >= play.ends_at:
                zone = club_zone(guild.timezone if guild else None)
                raise NotFoundError(page_say.daily_refused(play.ends_at, grid.ends_at, zone))
            # An id of the kind a form's interaction has, minted now (as a round's page
            # change has): ordered by time, never one a DM's read-back resumes from.
            source_id = snowflake_at(datetime_ms(now), secrets.randbits(22))
            entry = SubmissionEntry(id=str(source_id), at=now.isoformat(), via="web", text=text)
            if removed:
                entry["removed"] = removed
            receipt = await self._add_entry(uow, grid, play, guild.name if guild else "", entry)
            return receipt, list(play.words)

        async with self.core.writing():
            return await transact(self.core.ctx, work)

    async def add_dm(
        self,
        uow: UnitOfWork,
        *,
        user_id: int,
        entry: SubmissionEntry,
        sent_at: datetime,
        guild_ids: Collection[int] | None,
    ) -> DailyDm:
        """A DM'd list (in the DM's own unit of work, ``Submissions.submit_dm``): added to
        each of the member's plays whose countdown was running when it was sent, else a
        note for a countdown that ended lately."""
        outcome = DailyDm()
        for play, grid, guild_name in await uow.daily.plays_taking_lists(
            user_id, sent_at, guild_ids
        ):
            outcome.receipts.append(await self._add_entry(uow, grid, play, guild_name, entry))
        if not outcome.receipts:
            for play, grid, guild_name in await uow.daily.plays_ended_between(
                user_id, sent_at - LATE_NOTE_WINDOW, sent_at, guild_ids
            ):
                outcome.late.append(DailyLate(guild_name, grid.day, play.ends_at, grid.ends_at))
        return outcome

    async def _add_entry(
        self,
        uow: UnitOfWork,
        grid: BoggleDailyRecord,
        play: BoggleDailyPlayRecord,
        guild_name: str,
        entry: SubmissionEntry,
    ) -> DailyReceipt:
        longest = Grid.parse(grid.grid).letters
        receipt = DailyReceipt(
            grid.id, grid.guild_id, guild_name, grid.day, play.ends_at, 0, len(play.words)
        )
        if any(stored["id"] == entry["id"] for stored in play.entries):
            return replace(receipt, repeated=True)
        if len(play.entries) >= MAX_MESSAGES_PER_LIST:
            return replace(receipt, full=True)
        applied = _apply(play.words, entry, longest)
        # New list objects: the JSON columns are saved when reassigned, not when mutated.
        play.entries = [*play.entries, entry]
        play.words = applied.words
        await uow.daily.flush()
        return DailyReceipt(
            grid.id,
            grid.guild_id,
            guild_name,
            grid.day,
            play.ends_at,
            applied.added,
            len(applied.words),
            full=applied.left_out > 0,
        )

    # -- the day's end

    async def on_day_end(self, uow: UnitOfWork, job: JobRecord) -> None:
        """The club's midnight: score the day's lists, post the results, keep the streaks."""
        grid = await uow.daily.lock_grid(int(job.payload["daily_id"]))
        if grid is None or grid.status != "open":
            return
        now = self.core.now()
        plays = await uow.daily.plays_of(grid.id)
        last = max((play.ends_at for play in plays), default=grid.ends_at) + CLOSE_GRACE
        if last > now and last > grid.ends_at + CLOSE_GRACE:
            # A countdown opened just before midnight runs on: score once it is over.
            await uow.jobs.schedule(
                JOB_DAILY_END,
                last,
                {"daily_id": grid.id, "guild_id": grid.guild_id},
                key=daily_end_key(grid.guild_id, grid.day),
            )
            self.core.after_commit(uow)
            await uow.commit()
            return
        board = Grid.parse(grid.grid)
        lists = {play.player_id: play_words(play, board.letters) for play in plays}
        words = await word_list_ref(self.core.ctx, grid.lexicon)
        result = await offload(score_lists, board, lists, words, grid.min_length)
        names = await uow.players.names(list(lists))
        info = RoundInfo(
            grid.id,
            grid.guild_id,
            0,
            grid.channel_id,
            "scored",
            grid.size,
            grid.dice,
            grid.min_length,
            grid.duration_s,
            grid.created_at,
            grid.ends_at,
            grid.grid,
        )
        summary = round_summary(info, result, names, "")
        grid.results = dict(summary)
        grid.status = "scored"
        grid.scored_at = now
        today = date.fromisoformat(grid.day)
        streaks = {
            play.player_id: achievements.streak_of(
                STREAK_KIND, await uow.daily.days_played(grid.guild_id, play.player_id), today
            ).current
            for play in plays
        }
        # The results go before the achievements they earned (the outbox sends in order).
        uow.outbox.to_channel(grid.channel_id, say.results_post(grid.day, summary, streaks))
        await achievements.boggle_words_found(
            uow,
            guild_id=grid.guild_id,
            words={
                p.player: [(w.word, w.status.value) for w in p.words]
                for p in result.players.values()
            },
            now=now,
            channel_id=grid.channel_id,
        )
        for player_id, days in streaks.items():
            await achievements.streak_reached(
                uow,
                guild_id=grid.guild_id,
                player_id=player_id,
                kind=STREAK_KIND,
                days=days,
                now=now,
                channel_id=grid.channel_id,
            )
        self.core.after_commit(uow)
        await uow.commit()


async def streak(
    uow: UnitOfWork, guild_id: int, player_id: int, today: date
) -> achievements.Streak:
    """The member's streak of the daily grid (for ``/stats``)."""
    days = await uow.daily.days_played(guild_id, player_id)
    return achievements.streak_of(STREAK_KIND, days, today)
