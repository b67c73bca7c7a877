"""Agreeing a game's time and the server's scheduled events, on a real database
(SQLite; PostgreSQL when TEST_DATABASE_URL is set): the times as members write them in
the club's time zone, the refusals that change nothing, two accepts at once agreeing
once, the reminder job, and the event sync job (retried when Discord fails, run again
when the event changed while Discord was being told)."""

from __future__ import annotations

import asyncio
import random
from datetime import UTC, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from sqlalchemy import func, select

from bot.db.models import GameRecord, JobRecord, OutboxRecord
from bot.db.models_schedule import GuildEventRecord, TimeProposalRecord
from bot.db.models_tournaments import (
    TournamentEntrantRecord,
    TournamentPairingRecord,
    TournamentRecord,
    TournamentRoundRecord,
)
from bot.errors import ClubError, InvalidInputError
from bot.services import ServiceContext
from bot.services.leagues import options as league_opts
from bot.services.leagues.service import LeagueService, Who
from bot.services.scheduling.agreements import JOB_REMINDER, GameTimes
from bot.services.scheduling.events import (
    SESSION,
    GuildEvents,
    WantedEvent,
    place_event,
    remove_event,
)
from bot.services.scheduling.when import read_when
from bot.services.tournaments.service import TournamentService
from tests.bot.services.scrabble_support import Words, make_service
from tests.clock import FakeClock

GUILD, CHANNEL, THREAD = 10, 20, 30
ALICE, BOB, CAROL, DAVE = 1, 2, 3, 4
MANILA = ZoneInfo("Asia/Manila")
MONDAY = datetime(2026, 11, 30, 2, 0, tzinfo=UTC)  # Monday 10:00 in Manila


# ---------------------------------------------------------------------------- the times


@pytest.mark.parametrize(
    ("typed", "local"),
    [
        ("Sat 3pm", datetime(2026, 12, 5, 15, 0)),
        ("saturday 15:00", datetime(2026, 12, 5, 15, 0)),
        ("3pm Saturday", datetime(2026, 12, 5, 15, 0)),
        ("Sabado ng 3pm", datetime(2026, 12, 5, 15, 0)),
        ("tomorrow 19:30", datetime(2026, 12, 1, 19, 30)),
        ("bukas 7:30 pm", datetime(2026, 12, 1, 19, 30)),
        ("today 11am", datetime(2026, 11, 30, 11, 0)),
        ("9am", datetime(2026, 12, 1, 9, 0)),  # a time alone: its next occurrence
        ("11am", datetime(2026, 11, 30, 11, 0)),
        ("Mon 9am", datetime(2026, 12, 7, 9, 0)),  # today's has passed: next week's
        ("Dec 12 3pm", datetime(2026, 12, 12, 15, 0)),
        ("12 December, 3 p.m.", datetime(2026, 12, 12, 15, 0)),
        ("Jan 3 noon", datetime(2027, 1, 3, 12, 0)),  # January is next year's
        ("2026-12-12 15:00", datetime(2026, 12, 12, 15, 0)),
        ("on Sat at 3pm", datetime(2026, 12, 5, 15, 0)),
        ("the 12th of December 3pm", datetime(2026, 12, 12, 15, 0)),
    ],
)
def test_a_day_and_a_time_are_read_in_the_club_s_time_zone(typed: str, local: datetime) -> None:
    assert read_when(typed, MONDAY, MANILA) == local.replace(tzinfo=MANILA).astimezone(UTC)


@pytest.mark.parametrize("typed", ["", "whenever", "Sat", "Feb 30 3pm", "25:00", "Sat 3pm 4pm"])
def test_what_is_not_a_day_and_a_time_is_refused(typed: str) -> None:
    with pytest.raises(InvalidInputError, match="as a day and a time"):
        read_when(typed, MONDAY, MANILA)


def test_a_past_date_reads_as_it_is_written_and_is_refused_by_the_proposal() -> None:
    assert read_when("2020-01-02 10:00", MONDAY, MANILA) < MONDAY
    assert read_when("today 9am", MONDAY, MANILA) < MONDAY


# ---------------------------------------------------------------------------- the games


async def _count(ctx: ServiceContext, model: type, *where: object) -> int:
    async with ctx.session_factory() as session:
        stmt = select(func.count()).select_from(model).where(*where)  # type: ignore[arg-type]
        return int((await session.execute(stmt)).scalar_one())


async def _game(
    ctx: ServiceContext,
    *,
    kind: str = "chess",
    options: dict[str, Any] | None = None,
    tournament: bool = True,
    deadline: timedelta = timedelta(days=7),
    status: str = "active",
    seats: tuple[tuple[int, int], ...] = ((0, ALICE), (1, BOB)),
) -> int:
    """A game here (a tournament's, with its round's deadline, unless ``tournament``
    is False); its id."""
    now = ctx.clock()
    async with ctx.uow() as uow:
        await uow.guilds.ensure(GUILD, "Club")
        for user_id, name in ((ALICE, "alice"), (BOB, "bob"), (CAROL, "carol"), (DAVE, "dave")):
            await uow.players.ensure(user_id, name)
        stored = dict(options or {"time_control": "3d"})
        t = None
        if tournament:
            t = TournamentRecord(
                guild_id=GUILD,
                channel_id=CHANNEL,
                name="Winter",
                game_kind=kind,
                format="round_robin",
                created_by=DAVE,
                status="running",
                current_round=1,
            )
            uow.tournaments.add(t)
            await uow.tournaments.flush()
            stored["tournament_id"] = t.id
        game = await uow.games.add_with_seats(
            GameRecord(
                guild_id=GUILD,
                kind=kind,
                channel_id=CHANNEL,
                thread_id=THREAD + (t.id if t else 100),
                status=status,
                options=stored,
                created_at=now,
                updated_at=now,
            ),
            [(seat, user, True) for seat, user in seats],
        )
        if t is not None:
            first = TournamentEntrantRecord(tournament_id=t.id, number=1, user_id=ALICE)
            second = TournamentEntrantRecord(tournament_id=t.id, number=2, user_id=BOB)
            uow.tournaments.add(first)
            uow.tournaments.add(second)
            uow.tournaments.add(
                TournamentRoundRecord(
                    tournament_id=t.id, number=1, deadline=now + deadline, started_at=now
                )
            )
            await uow.tournaments.flush()
            uow.tournaments.add(
                TournamentPairingRecord(
                    tournament_id=t.id,
                    round=1,
                    board=1,
                    first_id=first.id,
                    second_id=second.id,
                    game_id=game.id,
                )
            )
        await uow.commit()
        return game.id


@pytest.fixture
def times(ctx: ServiceContext) -> GameTimes:
    service = GameTimes(ctx)
    ctx.scheduler.register_service(service)
    return service


async def _propose(times: GameTimes, game_id: int, *when: str, user: int = ALICE) -> Any:
    async with times.ctx.reader() as uow:
        game = await uow.games.get(game_id)
        ref = f"{game.kind}:{game.number}"
    return await times.propose(
        guild_id=GUILD, user_id=user, channel_id=CHANNEL, game=ref, when=when
    )


async def test_two_accepts_at_once_agree_once_and_the_reminder_reaches_both_players(
    ctx: ServiceContext, times: GameTimes, clock: FakeClock
) -> None:
    game_id = await _game(ctx, seats=((0, ALICE), (1, BOB), (1, CAROL)))  # bob and carol: a pair
    proposed = await _propose(times, game_id, "tomorrow 3pm", "tomorrow 5pm")
    assert len(proposed.times) == 2
    results = await asyncio.gather(
        times.accept(guild_id=GUILD, user_id=BOB, proposal_id=proposed.proposal_id, choice=1),
        times.accept(guild_id=GUILD, user_id=CAROL, proposal_id=proposed.proposal_id, choice=2),
        return_exceptions=True,
    )
    agreed = [r for r in results if not isinstance(r, BaseException)]
    refused = [r for r in results if isinstance(r, BaseException)]
    assert len(agreed) == 1 and len(refused) == 1, results
    assert isinstance(refused[0], ClubError)
    assert await _count(ctx, TimeProposalRecord, TimeProposalRecord.status == "accepted") == 1
    assert await _count(ctx, JobRecord, JobRecord.kind == JOB_REMINDER) == 1

    dms = OutboxRecord.target_kind == "user"
    clock.now = agreed[0].agreed_at - timedelta(hours=1)
    await ctx.scheduler.run_due()
    assert await _count(ctx, OutboxRecord, dms) == 3  # alice, bob and carol
    await ctx.scheduler.run_due()
    assert await _count(ctx, OutboxRecord, dms) == 3  # once


async def test_refusals_change_nothing(
    ctx: ServiceContext, times: GameTimes, clock: FakeClock
) -> None:
    casual = await _game(ctx, tournament=False)
    live = await _game(ctx, options={"time_control": "10+5"})
    scrabble_live = await _game(ctx, kind="scrabble", options={"clock_seconds": 180})
    over = await _game(ctx, status="finished")
    short = await _game(ctx, deadline=timedelta(hours=5))
    cases = [
        (casual, ("tomorrow 3pm",), ALICE, "league and tournament games only"),
        (live, ("tomorrow 3pm",), ALICE, "live clock"),
        (scrabble_live, ("tomorrow 3pm",), ALICE, "live clock"),
        (over, ("tomorrow 3pm",), ALICE, "is over"),
        (short, ("tomorrow 3pm",), ALICE, "after this game's deadline"),
        (short, ("2020-01-02 10:00",), ALICE, "has passed already"),
        (short, ("tomorrow 3pm", "tomorrow 15:00"), ALICE, "given twice"),
        (short, ("in a while",), ALICE, "as a day and a time"),
        (short, ("tomorrow 1pm; tomorrow 2pm", "tomorrow 3pm or 4pm"), ALICE, "at most 3"),
        (short, ("tomorrow 3pm",), DAVE, "Only this game's players"),
    ]
    for game_id, when, user, refusal in cases:
        with pytest.raises(ClubError, match=refusal):
            await _propose(times, game_id, *when, user=user)
    assert await _count(ctx, TimeProposalRecord) == 0
    assert await _count(ctx, OutboxRecord) == 0

    game_id = await _game(ctx)
    several = await _propose(times, game_id, "tomorrow 3pm; tomorrow 4pm or bukas 5pm")
    assert [t.hour for t in several.times] == [15, 16, 17]  # the club's zone: UTC here
    proposed = await _propose(times, game_id, "tomorrow 3pm")
    with pytest.raises(ClubError, match="your own times"):
        await times.accept(guild_id=GUILD, user_id=ALICE, proposal_id=proposed.proposal_id)
    with pytest.raises(ClubError, match="Only this game's players"):
        await times.accept(guild_id=GUILD, user_id=DAVE, proposal_id=proposed.proposal_id)
    with pytest.raises(ClubError, match="a number from 1 to 1"):
        await times.accept(guild_id=GUILD, user_id=BOB, proposal_id=proposed.proposal_id, choice=2)
    clock.advance(days=2)  # the time proposed has passed
    with pytest.raises(ClubError, match="has passed already"):
        await times.accept(guild_id=GUILD, user_id=BOB, proposal_id=proposed.proposal_id)
    assert await _count(ctx, TimeProposalRecord, TimeProposalRecord.status == "open") == 1
    assert await _count(ctx, TimeProposalRecord, TimeProposalRecord.status == "replaced") == 1
    assert await _count(ctx, JobRecord, JobRecord.kind == JOB_REMINDER) == 0


async def test_a_new_agreed_time_replaces_the_old_and_moves_its_reminder(
    ctx: ServiceContext, times: GameTimes, clock: FakeClock
) -> None:
    game_id = await _game(ctx)
    first = await _propose(times, game_id, "tomorrow 3pm")
    await times.accept(guild_id=GUILD, user_id=BOB, proposal_id=first.proposal_id)
    second = await _propose(times, game_id, "tomorrow 8pm", user=BOB)
    with pytest.raises(ClubError, match="agreed already"):
        await times.accept(guild_id=GUILD, user_id=ALICE, proposal_id=first.proposal_id)
    done = await times.accept(guild_id=GUILD, user_id=ALICE, proposal_id=second.proposal_id)
    async with ctx.reader() as uow:
        assert await uow.schedule.agreed([game_id]) == {game_id: done.agreed_at}
        job = await uow.jobs.by_key(f"schedule:remind:{game_id}")
        assert job is not None and job.due_at == done.agreed_at - timedelta(hours=1)
    # the first time's hour comes: no reminder (the job moved), then the second's
    clock.now = first.times[0] - timedelta(minutes=30)
    await ctx.scheduler.run_due()
    assert await _count(ctx, OutboxRecord, OutboxRecord.target_kind == "user") == 0
    clock.now = done.agreed_at - timedelta(minutes=59)
    await ctx.scheduler.run_due()
    assert await _count(ctx, OutboxRecord, OutboxRecord.target_kind == "user") == 2


# ---------------------------------------------------------------------------- server events


class FakeDiscord:
    """The events port: what it was asked, failing ``fail`` times first; ``during`` runs
    while Discord is being told (another change landing meanwhile)."""

    def __init__(self) -> None:
        self.calls: list[WantedEvent] = []
        self.fail = 0
        self.during: Any = None

    async def sync(self, wanted: WantedEvent) -> int | None:
        self.calls.append(wanted)
        if self.during is not None:
            during, self.during = self.during, None
            await during()
        if self.fail:
            self.fail -= 1
            raise OSError("Discord is down")
        return None if wanted.remove else 555


class _Row:
    """An event row's fields, read."""

    def __init__(self, row: GuildEventRecord) -> None:
        self.status, self.discord_id = row.status, row.discord_id
        self.version, self.synced_version = row.version, row.synced_version


async def _event(ctx: ServiceContext) -> _Row:
    async with ctx.reader() as uow:
        row = await uow.schedule.event_of(SESSION, 7)
        assert row is not None
        return _Row(row)


async def test_an_event_is_told_to_discord_once_retried_after_a_failure_and_removed(
    ctx: ServiceContext, clock: FakeClock
) -> None:
    events = GuildEvents(ctx)
    port = FakeDiscord()
    events.port = port
    ctx.scheduler.register_service(events)
    now = clock()

    async def place(ends: timedelta) -> None:
        async with ctx.uow() as uow:
            await uow.guilds.ensure(GUILD, "Club")
            await place_event(
                uow,
                guild_id=GUILD,
                owner_kind=SESSION,
                owner_id=7,
                name="Scrabble session",
                starts_at=now,
                ends_at=now + ends,
                now=clock(),
                channel_id=CHANNEL,
            )
            await uow.commit()

    await place(timedelta(minutes=80))
    await place(timedelta(minutes=80))  # unchanged: nothing more to tell
    port.fail = 1
    await ctx.scheduler.run_due()
    assert (await _event(ctx)).discord_id is None  # failed: the job waits to try again
    clock.advance(minutes=1)
    await ctx.scheduler.run_due()
    row = await _event(ctx)
    assert (row.discord_id, row.synced_version, row.version) == (555, 1, 1)
    assert len(port.calls) == 2 and port.calls[-1].ends_at == now + timedelta(minutes=80)

    # Moved while Discord is being told: told again, with the latest.
    port.during = lambda: place(timedelta(minutes=90))
    await place(timedelta(minutes=85))
    await ctx.scheduler.run_due()
    await ctx.scheduler.run_due()
    row = await _event(ctx)
    assert row.synced_version == row.version == 3
    assert port.calls[-1].ends_at == now + timedelta(minutes=90)

    async with ctx.uow() as uow:
        await remove_event(uow, SESSION, 7, clock())
        await remove_event(uow, SESSION, 7, clock())  # once
        await uow.commit()
    await ctx.scheduler.run_due()
    row = await _event(ctx)
    assert (row.status, row.discord_id, row.synced_version) == ("removed", None, row.version)
    assert port.calls[-1].remove and port.calls[-1].discord_id == 555


async def test_a_league_season_is_one_event_from_its_start_to_its_end_its_divisions_none(
    ctx: ServiceContext, clock: FakeClock
) -> None:
    tournaments = TournamentService(ctx, scrabble=make_service(ctx, Words()), rng=random.Random(1))
    leagues = LeagueService(ctx, lambda: tournaments, rng=random.Random(2))
    ctx.scheduler.register_service(tournaments)
    ctx.scheduler.register_service(leagues)
    events = GuildEvents(ctx)
    port = FakeDiscord()
    events.port = port
    ctx.scheduler.register_service(events)
    host = 99
    await leagues.create(
        league_opts.NewLeague(GUILD, "Club", CHANNEL, host, "host", "scrabble", name="Autumn")
    )
    for uid in range(100, 108):
        await leagues.join(Who(GUILD, CHANNEL, None, uid, False, "m"), (uid, f"m{uid}"), None)
    await leagues.start(Who(GUILD, CHANNEL, None, host, True, "host"))
    await ctx.scheduler.run_due()  # the divisions' games, and the event
    assert await _count(ctx, GameRecord) > 0
    async with ctx.reader() as uow:
        rows = (await uow.session.execute(select(GuildEventRecord))).scalars().all()
        assert [(r.owner_kind, r.name, r.discord_id) for r in rows] == [
            ("league_season", "Autumn: season 1", 555)
        ]
        assert rows[0].ends_at - rows[0].starts_at == timedelta(weeks=4)
    assert len(port.calls) == 1
