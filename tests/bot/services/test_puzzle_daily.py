"""The club's daily puzzle, through the services (SQLite and PostgreSQL): set with
/club setup, posted by its stored job at the club's local time (New York, across the
spring-forward night: still 18:00 on the wall clock), once a day whatever claims the
job (two processes, a restart, the setup again), the games in turn, never a puzzle of
a game still running, and nothing when there is none or the club turned it off."""

from __future__ import annotations

import asyncio
from datetime import UTC, date, datetime, time, timedelta
from types import SimpleNamespace
from zoneinfo import ZoneInfo

import pytest
from sqlalchemy import select, update

from bot.db.models import GameRecord, JobRecord, OutboxRecord
from bot.db.models_puzzle_daily import PuzzleDailyRecord
from bot.db.models_puzzles import PuzzleAttemptRecord, PuzzleRecord
from bot.errors import InvalidInputError
from bot.scheduler import Scheduler
from bot.services import ServiceContext
from bot.services.club import ClubService
from bot.services.puzzles.daily import (
    JOB_DAILY,
    VIEW_SOLVE,
    DailyPuzzles,
    daily_key,
    next_post,
    post_at,
)
from bot.services.puzzles.service import PuzzleService, PuzzleView
from bot.services.scrabble import LexiconCache, ScrabbleService
from engines.scrabble.puzzles import ScrabblePuzzle
from tests.bot.services.scrabble_support import CAROL, DAVE, GUILD
from tests.bot.services.test_puzzles import finished_game
from tests.conftest import make_service_context

NEW_YORK = ZoneInfo("America/New_York")
LONDON = ZoneInfo("Europe/London")
PUZZLE_CHANNEL = 4242
# Friday 12 March 2027, New York 07:00 (EST); its clocks spring forward on Sunday the 14th.
pytestmark = pytest.mark.clock("2027-03-12T12:00:00+00:00")


@pytest.fixture
def scrabble(ctx: ServiceContext) -> ScrabbleService:
    return ScrabbleService(ctx, lexicons=LexiconCache())


@pytest.fixture
def puzzles(ctx: ServiceContext) -> PuzzleService:
    service = PuzzleService(ctx, lexicons=LexiconCache())
    ctx.scheduler.register_service(service)
    return service


@pytest.fixture
def daily(ctx: ServiceContext) -> DailyPuzzles:
    service = DailyPuzzles(ctx)
    ctx.scheduler.register_service(service)
    return service


async def club_with_puzzles(ctx, scrabble, puzzles, count: int = 6) -> None:
    """A New York club with a finished game's puzzles (the game's own, and copies of
    its first at other moves, to have ``count``)."""
    await ClubService(ctx).setup(GUILD, "Club", timezone="America/New_York")
    await finished_game(ctx, scrabble)
    await ctx.scheduler.run_due()  # the puzzles' search
    async with ctx.uow() as uow:
        found = list(await uow.session.scalars(select(PuzzleRecord).order_by(PuzzleRecord.id)))
        first = found[0]
        for ply in range(500, 500 + count - len(found)):
            uow.session.add(
                PuzzleRecord(
                    guild_id=GUILD,
                    kind=first.kind,
                    game_id=first.game_id,
                    ply=ply,
                    data={**first.data, "ply": ply},
                )
            )
        await uow.commit()


async def posts(ctx: ServiceContext) -> list[dict]:
    async with ctx.reader() as uow:
        rows = await uow.session.scalars(
            select(OutboxRecord)
            .where(OutboxRecord.target_id == PUZZLE_CHANNEL)
            .order_by(OutboxRecord.id)
        )
        return [dict(r.payload) for r in rows]


async def dailies(ctx: ServiceContext) -> list[tuple[str, int, str]]:
    async with ctx.reader() as uow:
        rows = await uow.session.scalars(select(PuzzleDailyRecord).order_by(PuzzleDailyRecord.day))
        return [(r.day, r.puzzle_id, r.kind) for r in rows]


async def the_job(ctx: ServiceContext) -> SimpleNamespace | None:
    """The club's daily puzzle job as stored (a plain copy)."""
    async with ctx.reader() as uow:
        job = await uow.jobs.by_key(daily_key(GUILD))
        if job is None:
            return None
        due = job.due_at if job.due_at.tzinfo else job.due_at.replace(tzinfo=UTC)
        return SimpleNamespace(status=job.status, kind=job.kind, due_at=due, payload=job.payload)


def local(moment: datetime, zone: ZoneInfo = NEW_YORK) -> str:
    return moment.astimezone(zone).strftime("%Y-%m-%d %H:%M")


# -- the times (pure) ----------------------------------------------------------------------


def test_the_post_stays_at_its_local_time_across_the_clock_changes() -> None:
    at = time(18, 0)
    # New York: EST (UTC-5) on the 13th, EDT (UTC-4) from the 14th.
    assert post_at(date(2027, 3, 13), at, NEW_YORK) == datetime(2027, 3, 13, 23, tzinfo=UTC)
    assert post_at(date(2027, 3, 14), at, NEW_YORK) == datetime(2027, 3, 14, 22, tzinfo=UTC)
    # London: GMT on the 27th, BST from the 28th; and back on 31 October.
    assert post_at(date(2027, 3, 27), at, LONDON) == datetime(2027, 3, 27, 18, tzinfo=UTC)
    assert post_at(date(2027, 3, 28), at, LONDON) == datetime(2027, 3, 28, 17, tzinfo=UTC)
    assert post_at(date(2027, 10, 31), at, LONDON) == datetime(2027, 10, 31, 18, tzinfo=UTC)


def test_a_skipped_time_posts_an_hour_later_and_a_doubled_one_at_its_first() -> None:
    # 02:30 does not exist in New York on 14 March 2027: posted at 03:30 EDT (07:30 UTC).
    skipped = post_at(date(2027, 3, 14), time(2, 30), NEW_YORK)
    assert skipped == datetime(2027, 3, 14, 7, 30, tzinfo=UTC) and local(skipped)[-5:] == "03:30"
    # 01:30 happens twice on 7 November 2027: the first (EDT, 05:30 UTC), once.
    doubled = post_at(date(2027, 11, 7), time(1, 30), NEW_YORK)
    assert doubled == datetime(2027, 11, 7, 5, 30, tzinfo=UTC)
    day, due = next_post(doubled, time(1, 30), NEW_YORK)
    assert (day, due) == (date(2027, 11, 8), datetime(2027, 11, 8, 6, 30, tzinfo=UTC))
    # London's doubled 01:30 (31 October 2027): first occurrence, BST.
    assert post_at(date(2027, 10, 31), time(1, 30), LONDON) == datetime(
        2027, 10, 31, 0, 30, tzinfo=UTC
    )


def test_the_next_post_is_today_before_the_time_and_tomorrow_after_it() -> None:
    at = time(18, 0)
    morning = datetime(2027, 3, 12, 12, tzinfo=UTC)
    assert next_post(morning, at, NEW_YORK) == (
        date(2027, 3, 12),
        datetime(2027, 3, 12, 23, tzinfo=UTC),
    )
    assert next_post(datetime(2027, 3, 12, 23, tzinfo=UTC), at, NEW_YORK)[0] == date(2027, 3, 13)
    # Just after New York's midnight in UTC terms (still the 12th there): the 12th's.
    assert next_post(datetime(2027, 3, 13, 3, tzinfo=UTC), time(23, 30), NEW_YORK) == (
        date(2027, 3, 12),
        datetime(2027, 3, 13, 4, 30, tzinfo=UTC),
    )


# -- the job ---------------------------------------------------------------------------------


async def test_the_daily_puzzle_is_posted_at_the_clubs_time_across_the_clock_change(
    ctx, scrabble, puzzles, daily, clock
):
    await club_with_puzzles(ctx, scrabble, puzzles)
    settings = await ClubService(ctx).setup(
        GUILD, "Club", puzzle_channel_id=PUZZLE_CHANNEL, puzzle_time="18:00"
    )
    assert (settings.puzzle_channel_id, settings.puzzle_time) == (PUZZLE_CHANNEL, "18:00")
    assert settings.next_puzzle_at is not None and local(settings.next_puzzle_at) == (
        "2027-03-12 18:00"
    )
    seen: list[str] = []
    for day in ("2027-03-12", "2027-03-13", "2027-03-14", "2027-03-15"):
        job = await the_job(ctx)
        assert job is not None and job.status == "due" and job.kind == JOB_DAILY
        due = job.due_at
        assert local(due) == f"{day} 18:00"  # EST, then EDT from the 14th
        clock.now = due - timedelta(seconds=1)
        await ctx.scheduler.run_due()
        assert len(await posts(ctx)) == len(seen)  # not a second early
        clock.now = due
        await ctx.scheduler.run_due()
        seen.append(day)
        assert [d for d, _p, _k in await dailies(ctx)] == seen
    sent = await posts(ctx)
    assert len(sent) == 4 and len({p["view"]["args"]["puzzle_id"] for p in sent}) == 4
    # The post: the board and "find the best play", the Solve button; never an answer.
    async with ctx.reader() as uow:
        first = await uow.puzzles.get(sent[0]["view"]["args"]["puzzle_id"])
        assert first is not None
        position = ScrabblePuzzle.from_json(first.data)
    post = sent[0]
    assert post["view"]["kind"] == VIEW_SOLVE and "Solve" in post["content"]
    assert post["files"][0]["args"]["rows"] == list(position.board)
    shown = str(post)
    for play in position.top:
        assert play.position not in post["content"]
        assert f"{play.position} {play.word}" not in shown and f"'{play.word}'" not in shown
    assert str(position.best_score) not in post["content"]


async def test_the_post_is_made_once_after_a_restart_or_the_setup_again(
    ctx, scrabble, puzzles, daily, clock, session_factory
):
    await club_with_puzzles(ctx, scrabble, puzzles)
    await ClubService(ctx).setup(
        GUILD, "Club", puzzle_channel_id=PUZZLE_CHANNEL, puzzle_time="18:00"
    )
    clock.now = datetime(2027, 3, 12, 23, tzinfo=UTC)
    await ctx.scheduler.run_due()
    assert len(await posts(ctx)) == 1
    # A restart: a new process on the same database, at the same moment.
    restarted = make_service_context(session_factory, clock, lexicon="default")
    restarted.scheduler.register_service(DailyPuzzles(restarted))
    assert [o for o in await restarted.scheduler.run_due() if o.kind == JOB_DAILY] == []
    # The setup again, to a later time today: today's is out, so tomorrow's is next.
    clock.now = datetime(2027, 3, 12, 23, 30, tzinfo=UTC)
    again = await ClubService(restarted).setup(GUILD, "Club", puzzle_time="19:00")
    assert again.next_puzzle_at is not None
    assert local(again.next_puzzle_at) == "2027-03-13 19:00"
    # Even a job made to run for today again posts nothing more.
    async with restarted.uow() as uow:
        await uow.session.execute(
            update(JobRecord)
            .where(JobRecord.key == daily_key(GUILD))
            .values(
                due_at=clock.now, payload={"guild_id": GUILD, "day": "2027-03-12", "time": "19:00"}
            )
        )
        await uow.commit()
    assert [o.ok for o in await restarted.scheduler.run_due() if o.kind == JOB_DAILY] == [True]
    assert len(await posts(ctx)) == 1 and len(await dailies(ctx)) == 1
    job = await the_job(ctx)
    assert job is not None and job.payload["day"] == "2027-03-13"


async def test_two_processes_claiming_post_it_once(ctx, scrabble, puzzles, clock, session_factory):
    await club_with_puzzles(ctx, scrabble, puzzles)
    await ClubService(ctx).setup(
        GUILD, "Club", puzzle_channel_id=PUZZLE_CHANNEL, puzzle_time="18:00"
    )
    clock.now = datetime(2027, 3, 12, 23, tzinfo=UTC)
    schedulers = []
    for name in ("one", "two"):
        process = make_service_context(session_factory, clock, lexicon="default")
        process.scheduler = Scheduler(session_factory, clock=clock, process_id=name)
        process.scheduler.register_service(DailyPuzzles(process))
        schedulers.append(process.scheduler)
    outcomes = await asyncio.gather(*(s.run_due() for s in schedulers))
    ran = [o for batch in outcomes for o in batch if o.kind == JOB_DAILY]
    assert [o.ok for o in ran] == [True]
    assert len(await posts(ctx)) == 1 and len(await dailies(ctx)) == 1


async def test_the_games_take_turns_and_a_running_games_puzzle_is_never_posted(
    ctx, scrabble, puzzles, clock
):
    await club_with_puzzles(ctx, scrabble, puzzles)
    async with ctx.uow() as uow:
        rows = list(await uow.session.scalars(select(PuzzleRecord).order_by(PuzzleRecord.id)))
        game_id = rows[0].game_id
        # Two "chess" puzzles (another kind: which game they are from does not matter here;
        # their data is a chess puzzle's, as its post draws the board).
        for ply in (900, 901):
            uow.session.add(
                PuzzleRecord(
                    guild_id=GUILD,
                    kind="chess",
                    game_id=game_id,
                    ply=ply,
                    data={
                        "ply": ply,
                        "game_number": 1,
                        "fen": "6k1/5ppp/8/8/8/8/8/RR4K1 w - - 0 1",
                        "line": ["a1a8"],
                        "played": "g1f1",
                        "best_score": 99999,
                        "second_score": 500,
                        "last": None,
                    },
                )
            )
        await uow.commit()
    daily = DailyPuzzles(ctx, kinds=("scrabble", "chess"))
    ctx.scheduler.register_service(daily)
    await ClubService(ctx).setup(
        GUILD, "Club", puzzle_channel_id=PUZZLE_CHANNEL, puzzle_time="18:00"
    )
    for _day in range(4):
        job = await the_job(ctx)
        assert job is not None
        clock.now = job.due_at
        await ctx.scheduler.run_due()
    assert [k for _d, _p, k in await dailies(ctx)] == ["scrabble", "chess", "scrabble", "chess"]
    # Chess has no more: Scrabble's again (whichever has one).
    job = await the_job(ctx)
    assert job is not None
    clock.now = job.due_at
    await ctx.scheduler.run_due()
    assert [k for _d, _p, k in await dailies(ctx)][-1] == "scrabble"
    # The game is played again (its status: running): none of its puzzles is posted.
    async with ctx.uow() as uow:
        await uow.session.execute(
            update(GameRecord).where(GameRecord.id == game_id).values(status="active")
        )
        await uow.commit()
    before = len(await posts(ctx))
    job = await the_job(ctx)
    assert job is not None
    clock.now = job.due_at
    await ctx.scheduler.run_due()
    assert len(await posts(ctx)) == before
    following = await the_job(ctx)
    assert following is not None and following.status == "due" and following.due_at > job.due_at


async def test_no_puzzle_posts_nothing_and_tomorrow_is_tried(ctx, daily, clock):
    await ClubService(ctx).setup(GUILD, "Club", timezone="America/New_York", channel_id=77)
    settings = await ClubService(ctx).setup(GUILD, "Club", puzzle_time="6pm")
    assert (settings.puzzle_channel_id, settings.puzzle_time) == (77, "18:00")  # games channel
    job = await the_job(ctx)
    assert job is not None
    clock.now = job.due_at
    assert [o.ok for o in await ctx.scheduler.run_due()] == [True]
    async with ctx.reader() as uow:
        assert await uow.session.scalar(select(OutboxRecord.id)) is None
    job = await the_job(ctx)
    assert job is not None and job.payload["day"] == "2027-03-13"


async def test_a_new_time_moves_the_job_and_off_cancels_it(ctx, daily, clock):
    club = ClubService(ctx)
    with pytest.raises(InvalidInputError):  # no channel at all
        await club.setup(GUILD, "Club", puzzle_time="18:00")
    with pytest.raises(InvalidInputError):
        await club.setup(GUILD, "Club", puzzle_channel_id=PUZZLE_CHANNEL, puzzle_time="25:99")
    assert await the_job(ctx) is None
    await club.setup(GUILD, "Club", puzzle_channel_id=PUZZLE_CHANNEL, puzzle_time="18:00")
    await club.setup(GUILD, "Club", puzzle_time="07:15")  # UTC: tomorrow's 07:15
    job = await the_job(ctx)
    assert job is not None and job.due_at == datetime(2027, 3, 13, 7, 15, tzinfo=UTC)
    async with ctx.reader() as uow:
        count = await uow.session.scalar(
            select(JobRecord.id).where(JobRecord.kind == JOB_DAILY).limit(2).offset(1)
        )
    assert count is None  # one job per club
    # The club's zone changes: 07:15 in New York (07:00 there now: this morning's).
    await club.setup(GUILD, "Club", timezone="America/New_York")
    job = await the_job(ctx)
    assert job is not None and local(job.due_at) == "2027-03-12 07:15"
    off = await club.setup(GUILD, "Club", puzzle_time="off")
    assert off.puzzle_time is None and off.next_puzzle_at is None
    job = await the_job(ctx)
    assert job is not None and job.status == "cancelled"
    clock.now = datetime(2027, 3, 14, tzinfo=UTC)
    assert await ctx.scheduler.run_due() == []


async def test_the_channel_deleted_or_the_club_left_turns_it_off(ctx, daily, clock):
    club = ClubService(ctx)
    await club.setup(GUILD, "Club", puzzle_channel_id=PUZZLE_CHANNEL, puzzle_time="18:00")
    assert await daily.channel_gone(GUILD, 999) is False  # another channel: nothing
    assert (await club.get(GUILD)).puzzle_time == "18:00"
    assert await daily.channel_gone(GUILD, PUZZLE_CHANNEL) is True
    assert (await club.get(GUILD)).puzzle_time is None
    job = await the_job(ctx)
    assert job is not None and job.status == "cancelled"
    await club.setup(GUILD, "Club", puzzle_channel_id=PUZZLE_CHANNEL + 1, puzzle_time="18:00")
    assert await daily.club_left(GUILD) is True
    assert await daily.club_left(GUILD) is False
    assert (await club.get(GUILD)).puzzle_time is None
    # A job left from before (a process that had not seen it) does nothing either.
    async with ctx.uow() as uow:
        await uow.jobs.schedule(
            JOB_DAILY,
            clock.now,
            {"guild_id": GUILD, "day": "2027-03-12", "time": "18:00"},
            key=daily_key(GUILD),
        )
        await uow.commit()
    assert [o.ok for o in await ctx.scheduler.run_due()] == [True]
    async with ctx.reader() as uow:
        assert await uow.session.scalar(select(OutboxRecord.id)) is None


async def test_solve_opens_the_days_puzzle_and_puzzle_offers_it_first(
    ctx, scrabble, puzzles, daily, clock
):
    await club_with_puzzles(ctx, scrabble, puzzles)
    await ClubService(ctx).setup(
        GUILD, "Club", puzzle_channel_id=PUZZLE_CHANNEL, puzzle_time="18:00"
    )
    clock.now = datetime(2027, 3, 12, 23, tzinfo=UTC)
    await ctx.scheduler.run_due()
    [(_day, puzzle_id, _kind)] = await dailies(ctx)
    # /puzzle: today's daily first.
    offered = await puzzles.next_puzzle(GUILD, DAVE.user_id, DAVE.name)
    assert offered.puzzle_id == puzzle_id and not offered.resumed
    # Solve: that puzzle, privately, as /puzzle gives it.
    opened = await puzzles.open_puzzle(GUILD, CAROL.user_id, CAROL.name, puzzle_id)
    assert isinstance(opened, PuzzleView) and opened.puzzle_id == puzzle_id
    assert opened.tries_left == 3 and not opened.resumed
    again = await puzzles.open_puzzle(GUILD, CAROL.user_id, CAROL.name, puzzle_id)
    assert isinstance(again, PuzzleView) and again.resumed
    async with ctx.reader() as uow:
        row = await uow.puzzles.get(puzzle_id)
        assert row is not None
        best = ScrabblePuzzle.from_json(row.data).top[0]
    solved = await puzzles.answer(
        GUILD, CAROL.user_id, CAROL.name, puzzle_id, best.word, best.position
    )
    assert solved.status == "solved"
    shown = await puzzles.open_puzzle(GUILD, CAROL.user_id, CAROL.name, puzzle_id)
    assert not isinstance(shown, PuzzleView) and "Top plays" in shown.text
    # Carol's next /puzzle: not the daily again (she did it).
    other = await puzzles.next_puzzle(GUILD, CAROL.user_id, CAROL.name)
    assert other.puzzle_id != puzzle_id
    async with ctx.reader() as uow:
        attempts = await uow.session.scalar(
            select(PuzzleAttemptRecord.id).where(PuzzleAttemptRecord.puzzle_id == puzzle_id)
        )
    assert attempts is not None


async def test_a_stored_chess_puzzle_is_posted_and_solved_without_stockfish(
    ctx, scrabble, puzzles, daily, clock
):
    """Stockfish removed after chess puzzles were stored: /puzzle offers no chess, but the
    daily post keeps them in turn, and Solve with the Answer form solves one from its
    stored line (the bot's replies need no engine)."""
    assert puzzles.chess_engine is None and puzzles.kinds == ("scrabble",)
    await club_with_puzzles(ctx, scrabble, puzzles)
    async with ctx.uow() as uow:
        game_id = (await uow.session.scalars(select(PuzzleRecord.game_id))).first()
        chess_puzzle = PuzzleRecord(
            guild_id=GUILD,
            kind="chess",
            game_id=game_id,
            ply=900,
            data={
                "ply": 900,
                "game_number": 1,
                "fen": "6k1/5ppp/8/8/8/8/8/RR4K1 w - - 0 1",
                "line": ["a1a8"],
                "played": "g1f1",
                "best_score": 99999,
                "second_score": 500,
                "last": None,
            },
        )
        uow.session.add(chess_puzzle)
        await uow.commit()
        chess_id = chess_puzzle.id
    await ClubService(ctx).setup(
        GUILD, "Club", puzzle_channel_id=PUZZLE_CHANNEL, puzzle_time="18:00"
    )
    for _day in range(2):
        job = await the_job(ctx)
        assert job is not None
        clock.now = job.due_at
        await ctx.scheduler.run_due()
    assert [(p, k) for _d, p, k in await dailies(ctx)][-1] == (chess_id, "chess")
    opened = await puzzles.open_puzzle(GUILD, CAROL.user_id, CAROL.name, chess_id)  # Solve
    assert isinstance(opened, PuzzleView) and opened.kind == "chess"
    solved = await puzzles.answer_move(GUILD, CAROL.user_id, CAROL.name, chess_id, "Ra8#")
    assert solved.status == "solved" and "Ra8#" in solved.text
