"""The daily Boggle grid and achievements (issue #31) on SQLite and PostgreSQL: one grid
per club day (its seed from the club and the day), each member's own countdown stored
(opening it again changes nothing), lists by DM and form refused after it, the day
scored at the club's midnight by a stored job (a daylight-saving day included), streaks,
and achievements granted once, also by a new service on the same database."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from sqlalchemy import select, update

import bot.services.boggle.daily as daily_module
from bot.db.models import GuildRecord
from bot.db.models_daily import AchievementRecord, BoggleDailyPlayRecord, BoggleDailyRecord
from bot.errors import NotFoundError
from bot.services.achievements import streak_of
from bot.services.boggle import BoggleService
from bot.services.boggle.daily import daily_seed, day_end
from bot.services.boggle.jobs import JOB_DAILY_END
from bot.services.leaderboard import LeaderboardService
from tests.bot.services.test_boggle import ANA, BEN, CHANNEL, CY, GUILD, SEED, T0, Env, lexicon_file
from tests.conftest import make_service_context

pytestmark = pytest.mark.clock(T0)
__all__ = ["lexicon_file"]
NEW_YORK = "America/New_York"


@pytest.fixture
async def env(session_factory, lexicon_file: Path, clock, monkeypatch: pytest.MonkeyPatch):
    # The day's grid is the test grid (tests.bot.services.test_boggle: SEED), whatever the day.
    monkeypatch.setattr(daily_module, "daily_seed", lambda guild_id, day: SEED)
    ctx = make_service_context(session_factory, clock, lexicon=str(lexicon_file))
    service = BoggleService(ctx)
    ctx.scheduler.register_service(service)
    yield Env(service, clock, ctx.scheduler, session_factory)
    await service.core.wait_background()


async def set_zone(env: Env, zone: str) -> None:
    async with env.factory() as session:
        if await session.get(GuildRecord, GUILD) is None:
            session.add(GuildRecord(id=GUILD, name="club 1", settings={}, timezone=zone))
        else:
            await session.execute(
                update(GuildRecord).where(GuildRecord.id == GUILD).values(timezone=zone)
            )
        await session.commit()


async def open_daily(env: Env, user: int):
    return await env.service.daily.open(
        guild_id=GUILD,
        guild_name="club 1",
        channel_id=CHANNEL,
        user_id=user,
        display_name=f"player{user}",
    )


async def form(env: Env, daily_id: int, user: int, text: str):
    env.next_message_id += 1
    return await env.service.daily.submit_form(
        daily_id=daily_id,
        user_id=user,
        display_name=f"player{user}",
        source_id=env.next_message_id,
        text=text,
    )


async def rows(env: Env, model):
    async with env.factory() as session:
        return list((await session.execute(select(model).order_by(model.id))).scalars())


def test_the_days_seed_is_fixed_per_club_and_day() -> None:
    assert daily_seed(1, "2026-03-08") == daily_seed(1, "2026-03-08")
    assert daily_seed(1, "2026-03-08") != daily_seed(1, "2026-03-09")
    assert daily_seed(1, "2026-03-08") != daily_seed(2, "2026-03-08")
    assert 0 <= daily_seed(1, "2026-03-08") < 2**62


def test_a_club_day_ends_at_its_midnight_on_the_days_the_clocks_change() -> None:
    zone = ZoneInfo(NEW_YORK)
    # Spring forward (8 March 2026): a 23-hour day; fall back (1 November 2026): 25 hours.
    assert day_end(date(2026, 3, 7), zone) == datetime(2026, 3, 8, 5, 0, tzinfo=UTC)
    assert day_end(date(2026, 3, 8), zone) == datetime(2026, 3, 9, 4, 0, tzinfo=UTC)
    assert day_end(date(2026, 11, 1), zone) == datetime(2026, 11, 2, 5, 0, tzinfo=UTC)
    assert day_end(date(2026, 10, 31), zone) == datetime(2026, 11, 1, 4, 0, tzinfo=UTC)


def test_streaks_count_days_in_a_row_up_to_today_or_yesterday() -> None:
    days = ["2026-03-01", "2026-03-02", "2026-03-03", "2026-03-05", "2026-03-06"]
    assert streak_of("boggle_daily", days, date(2026, 3, 6)).current == 2
    assert streak_of("boggle_daily", days, date(2026, 3, 7)).current == 2
    assert streak_of("boggle_daily", days, date(2026, 3, 8)).current == 0
    assert streak_of("boggle_daily", days, date(2026, 3, 8)).best == 3
    assert streak_of("boggle_daily", [], date(2026, 3, 8)).best == 0


async def test_three_members_play_the_day_at_their_own_hours_and_midnight_scores_it(
    env: Env,
) -> None:
    """New York, on the day the clocks spring forward: the day's results at its midnight."""
    await set_zone(env, NEW_YORK)
    early = datetime(2026, 3, 8, 6, 30, tzinfo=UTC)  # 01:30 EST
    midnight = datetime(2026, 3, 9, 4, 0, tzinfo=UTC)  # 00:00 EDT, 23 hours into the day
    env.clock.now = early
    ana = await open_daily(env, ANA)
    assert (ana.day, ana.ends_at, ana.day_ends_at) == (
        "2026-03-08",
        early + timedelta(minutes=3),
        midnight,
    )
    assert ana.grid == "I T V A/T E V W/Y O N I/L U C A" and not ana.again
    [job] = await env.jobs(JOB_DAILY_END)
    assert job.due_at == midnight
    await env.dm(ANA, "toucanet canoe tonic", at=early + timedelta(minutes=1))
    await form(env, ana.id, ANA, "acne zebra")

    # Opening it again: the same grid and the same countdown, not a new one.
    env.clock.now = early + timedelta(minutes=10)
    again = await open_daily(env, ANA)
    assert again.again and (again.id, again.ends_at) == (ana.id, ana.ends_at)
    assert again.words == 5
    with pytest.raises(NotFoundError):
        await form(env, ana.id, ANA, "envoy")  # after her countdown

    # Ben at noon (a new service on the same database: a restart gives the same grid).
    ctx = make_service_context(env.factory, env.clock, lexicon=env.service.ctx.settings.lexicon)
    restarted = BoggleService(ctx)
    ctx.scheduler.register_service(restarted)
    env = Env(restarted, env.clock, ctx.scheduler, env.factory, next_message_id=5000)
    noon = datetime(2026, 3, 8, 16, 0, tzinfo=UTC)
    env.clock.now = noon
    ben = await open_daily(env, BEN)
    assert (ben.id, ben.grid, ben.ends_at) == (ana.id, ana.grid, noon + timedelta(minutes=3))
    outcome = await env.dm(BEN, "canoe convey", at=noon + timedelta(seconds=30))
    assert [r.total_words for r in outcome.daily] == [2]

    # Cy in the evening sends a list after his countdown: refused with a note, not counted.
    evening = datetime(2026, 3, 9, 0, 0, tzinfo=UTC)  # 20:00 EDT
    env.clock.now = evening
    cy = await open_daily(env, CY)
    outcome = await env.dm(CY, "envoy", at=evening + timedelta(minutes=1))
    assert [r.total_words for r in outcome.daily] == [1]
    late = await env.dm(CY, "ovine naive", at=evening + timedelta(minutes=4))
    assert late.daily == [] and [n.ended_at for n in late.daily_late] == [cy.ends_at]

    # Not before midnight; at midnight the day is scored, cancellation across the day.
    env.clock.now = midnight - timedelta(seconds=1)
    assert await env.run_due() == []
    env.clock.now = midnight
    assert await env.run_due() == [JOB_DAILY_END]
    [day] = await rows(env, BoggleDailyRecord)
    assert day.status == "scored"
    players = {p["id"]: p for p in day.results["players"]}
    assert set(players) == {ANA, BEN, CY}
    assert players[ANA]["total"] == 11 + 2 + 1  # toucanet, tonic, acne; canoe cancelled
    assert ("canoe", "cancelled", 0) in [tuple(w) for w in players[BEN]["words"]]
    assert players[BEN]["total"] == 3  # convey
    assert players[CY]["total"] == 2  # envoy; the late words are not there
    posts = [row.payload.get("content", "") for row in await env.outbox()]
    results = [text for text in posts if "Daily Word Boggle — 2026-03-08 results" in text]
    assert len(results) == 1 and "Best words nobody found" in results[0]
    assert any("8+ letters" in text and f"<@{ANA}>" in text for text in posts)

    # Running the job again changes nothing; the next day's grid is a new one.
    await env.run_due()
    assert len(await rows(env, BoggleDailyRecord)) == 1
    env.clock.now = midnight + timedelta(hours=1)
    tomorrow = await open_daily(env, ANA)
    assert tomorrow.day == "2026-03-09" and tomorrow.id != ana.id
    assert tomorrow.day_ends_at == datetime(2026, 3, 10, 4, 0, tzinfo=UTC)


async def test_a_countdown_opened_just_before_midnight_is_waited_for(env: Env) -> None:
    late_open = datetime(2026, 11, 30, 23, 59, tzinfo=UTC)  # UTC club
    env.clock.now = late_open
    info = await open_daily(env, ANA)
    await env.dm(ANA, "canoe", at=late_open + timedelta(minutes=2))
    env.clock.now = info.day_ends_at
    assert await env.run_due() == [JOB_DAILY_END]
    [day] = await rows(env, BoggleDailyRecord)
    assert day.status == "open"
    [job] = await env.jobs(JOB_DAILY_END)
    assert job.due_at > info.ends_at
    env.clock.now = job.due_at
    await env.run_due()
    [day] = await rows(env, BoggleDailyRecord)
    assert day.status == "scored" and day.results["players"][0]["total"] == 2


async def test_seven_days_in_a_row_make_a_streak_and_its_achievement_once(env: Env) -> None:
    start = datetime(2026, 11, 1, 12, 0, tzinfo=UTC)
    for offset in range(8):
        env.clock.now = start + timedelta(days=offset)
        await open_daily(env, ANA)
        if offset < 7:
            await open_daily(env, BEN)
        env.clock.now = start + timedelta(days=offset, hours=12)
        await env.run_due()
    stats = await LeaderboardService(env.service.ctx).stats(GUILD, ANA)
    assert [(s.kind, s.current, s.best) for s in stats.streaks] == [("boggle_daily", 8, 8)]
    assert [a.code for a in stats.achievements] == ["streak_7"]
    assert stats.achievements[0].earned_at == start + timedelta(days=6, hours=12)
    achievements = await rows(env, AchievementRecord)
    assert sorted((a.player_id, a.code) for a in achievements) == [
        (ANA, "streak_7"),
        (BEN, "streak_7"),
    ]
    posts = [row.payload.get("content", "") for row in await env.outbox()]
    assert sum("7-day streak" in text for text in posts) == 2  # once each, not on day 8
    # Ben skipped the eighth day: his streak is over.
    env.clock.now = start + timedelta(days=9)
    ben = await LeaderboardService(env.service.ctx).stats(GUILD, BEN)
    assert [(s.current, s.best) for s in ben.streaks] == [(0, 7)]
    assert len(await rows(env, BoggleDailyPlayRecord)) == 15
