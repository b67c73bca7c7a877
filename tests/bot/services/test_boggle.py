"""BoggleService on a real database: rounds, DM'd lists, closing, scoring,
weekly schedules, cancelling and seasons, with a clock the tests move."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from sqlalchemy import select

import bot.services.boggle.submissions as submissions_module
from bot.config import load_settings
from bot.db.models import (
    GuildRecord,
    JobRecord,
    OutboxRecord,
    PlayerRecord,
    RatingRecord,
    ResultRecord,
)
from bot.db.models_boggle import BoggleRoundRecord, BoggleSubmissionRecord
from bot.db.uow import UnitOfWork
from bot.errors import ConflictError, InvalidInputError, NotFoundError
from bot.messages.boggle import results_content, results_embed, results_text_file
from bot.scheduler import Scheduler
from bot.services.boggle import (
    ANNOUNCE_LEAD,
    CLOSE_GRACE,
    JOB_CLOSE,
    JOB_OPEN,
    JOB_SCORE,
    JOB_SEASON,
    JOB_WEEKLY,
    LATE_NOTE_WINDOW,
    BoggleService,
    RoundOptions,
    Standing,
    next_season_boundary,
    next_weekly_occurrence,
    parse_clock_time,
    resolve_options,
)
from bot.services.leaderboard import LeaderboardService
from engines.boggle import Grid, WordStatus, check_word, roll
from engines.lexicon import load_lexicon
from tests.clock import FakeClock
from tests.conftest import make_service_context

UTC = UTC
T0 = datetime(2026, 11, 30, 18, 0, tzinfo=UTC)  # a Monday
# Weekly schedules, seasons and a daylight-saving change need calendar dates: every test here
# runs on the test clock (tests/clock.py) pinned at T0.
pytestmark = pytest.mark.clock(T0)
SEED = 42  # classic16 → I T V A / T E V W / Y O N I / L U C A
GRID = "I T V A/T E V W/Y O N I/L U C A"
# Words on that grid, a few that are not ("zebra"), all in the test's word list.
# "ovin" can be traced on the grid but is not in the list: "not a word".
WORDS = [
    "toucanet",
    "toucan",
    "convey",
    "canoe",
    "civet",
    "covet",
    "envoy",
    "naive",
    "ovine",
    "tonic",
    "acne",
    "cane",
    "cain",
    "coven",
    "covey",
    "zebra",
    "quixotic",
    "cats",
]
GUILD, OTHER_GUILD, CHANNEL, OTHER_CHANNEL, HOST = 1, 2, 100, 200, 9
ANA, BEN, CY, DEE, EVE = 11, 12, 13, 14, 15


@dataclass
class Env:
    service: BoggleService
    clock: FakeClock
    scheduler: Scheduler
    factory: Any
    next_message_id: int = 1000

    async def start(self, guild: int = GUILD, channel: int = CHANNEL, **options: Any):
        return await self.service.starting.start_round(
            guild_id=guild,
            guild_name=f"club {guild}",
            channel_id=channel,
            started_by=HOST,
            **options,
        )

    async def dm(self, user: int, text: str, *, at: datetime | None = None, guilds=(GUILD,)):
        """``user`` DMs ``text``, a member of ``guilds``: as the bot's DM intake does when
        it does not know every member, after the read of where DMs go."""
        self.next_message_id += 1
        sent_at = at or self.clock()
        return await self.service.submissions.submit_dm(
            user_id=user,
            display_name=f"player{user}",
            message_id=self.next_message_id,
            sent_at=sent_at,
            text=text,
            guild_ids=guilds,
            seen=await self.service.catch_up.guilds_taking_dms(sent_at, user),
        )

    async def run_due(self) -> list[str]:
        done = []
        while outcomes := await self.scheduler.run_due():
            assert all(o.ok for o in outcomes), outcomes
            done += [o.kind for o in outcomes]
        return done

    async def outbox(self) -> list[OutboxRecord]:
        async with self.factory() as session:
            return list(
                (await session.execute(select(OutboxRecord).order_by(OutboxRecord.id))).scalars()
            )

    async def rounds(self) -> list[BoggleRoundRecord]:
        async with self.factory() as session:
            return list(
                (
                    await session.execute(select(BoggleRoundRecord).order_by(BoggleRoundRecord.id))
                ).scalars()
            )

    async def jobs(self, kind: str) -> list[JobRecord]:
        async with self.factory() as session:
            stmt = select(JobRecord).where(JobRecord.kind == kind).order_by(JobRecord.id)
            return list((await session.execute(stmt)).scalars())


@pytest.fixture
def lexicon_file(tmp_path: Path) -> Path:
    path = tmp_path / "boggle-words.txt"
    path.write_text("\n".join(WORDS) + "\n")
    return path


@pytest.fixture
async def env(session_factory, lexicon_file: Path, clock):
    assert clock() == T0
    ctx = make_service_context(session_factory, clock, lexicon=str(lexicon_file))
    service = BoggleService(ctx, seeds=lambda: SEED)
    ctx.scheduler.register_service(service)
    yield Env(service, clock, ctx.scheduler, session_factory)
    await service.core.wait_background()


async def finish(env: Env, round_info) -> list[str]:
    """Move past the end and the grace, and run the close and score jobs."""
    env.clock.now = round_info.ends_at + CLOSE_GRACE
    return await env.run_due()


# -- options -----------------------------------------------------------------------


def test_the_test_grid_and_word_list_are_what_the_tests_assume(lexicon_file: Path) -> None:
    grid = roll("classic16", SEED)
    assert str(grid) == GRID
    lexicon = load_lexicon(str(lexicon_file))
    assert check_word(grid, "ovin", lexicon).status is WordStatus.NOT_A_WORD
    assert check_word(grid, "zebra", lexicon).status is WordStatus.NOT_ON_GRID
    for word in ("toucanet", "convey", "canoe", "tonic", "acne", "envoy"):
        assert check_word(grid, word, lexicon).ok, word


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("19:00", "19:00"),
        ("15:00", "15:00"),
        ("7pm", "19:00"),
        ("3pm", "15:00"),
        ("3:30 pm", "15:30"),
        ("3:30PM", "15:30"),
        ("3 p.m.", "15:00"),
        ("3 p.m", "15:00"),
        ("7:30 am", "07:30"),
        ("07.30", "07:30"),
        ("15h30", "15:30"),
        ("12am", "00:00"),
        ("12pm", "12:00"),
        ("noon", "12:00"),
        ("Midnight", "00:00"),
        ("0930", None),
        ("13pm", None),
        ("25:00", None),
        ("half 3", None),
    ],
)
def test_clock_times_accept_24_hour_and_am_pm(text: str, expected: str | None) -> None:
    if expected is None:
        with pytest.raises(InvalidInputError):
            parse_clock_time(text)
    else:
        assert parse_clock_time(text).strftime("%H:%M") == expected


def test_options_default_to_the_rules_and_dice_decide_the_size() -> None:
    assert resolve_options() == RoundOptions(4, "classic16", 180, 4)
    assert resolve_options(size=5).dice == "big25"
    assert resolve_options(dice="super36").size == 6
    assert resolve_options(min_length=3).min_length == 3


@pytest.mark.parametrize(
    "options",
    [
        {"size": 7},
        {"dice": "big25", "size": 4},
        {"dice": "nope"},
        {"duration": "5s"},
        {"duration": "2h"},
        {"min_length": 2},
    ],
)
def test_bad_round_options_are_refused(options: dict[str, Any]) -> None:
    with pytest.raises(InvalidInputError):
        resolve_options(**options)


def test_weekly_occurrences_keep_the_club_wall_clock_across_daylight_saving() -> None:
    london = ZoneInfo("Europe/London")  # clocks go forward on 29 March 2026
    first = next_weekly_occurrence(
        datetime(2026, 3, 20, tzinfo=UTC), 3, parse_clock_time("19:00"), london
    )
    second = next_weekly_occurrence(first, 3, parse_clock_time("19:00"), london)
    assert first == datetime(2026, 3, 26, 19, 0, tzinfo=UTC)  # GMT
    assert second == datetime(2026, 4, 2, 18, 0, tzinfo=UTC)  # BST: still 19:00 in London
    assert all(o.astimezone(london).hour == 19 for o in (first, second))


def test_a_weekly_time_later_today_is_today_and_an_earlier_one_is_next_week() -> None:
    manila = ZoneInfo("Asia/Manila")  # T0 is Tuesday 02:00 in Manila
    assert next_weekly_occurrence(T0, 1, parse_clock_time("03:00"), manila) == T0 + timedelta(
        hours=1
    )
    assert next_weekly_occurrence(T0, 1, parse_clock_time("01:00"), manila) == T0 + timedelta(
        days=7, hours=-1
    )


def test_season_boundaries_are_midnight_in_the_club_time_zone() -> None:
    manila = ZoneInfo("Asia/Manila")
    # T0 is already 1 December in Manila: its next month starts on 1 January, 16:00 UTC the day before.
    assert next_season_boundary(T0, "month", manila) == datetime(2026, 12, 31, 16, 0, tzinfo=UTC)
    assert next_season_boundary(T0, "month", ZoneInfo("UTC")) == datetime(2026, 12, 1, tzinfo=UTC)
    assert next_season_boundary(T0, "quarter", ZoneInfo("UTC")) == datetime(2027, 1, 1, tzinfo=UTC)
    assert next_season_boundary(T0, "year", ZoneInfo("UTC")) == datetime(2027, 1, 1, tzinfo=UTC)
    assert next_season_boundary(T0, "none", manila) is None


# -- starting ----------------------------------------------------------------------


async def test_starting_a_round_posts_the_grid_with_its_letters_and_sets_the_close_timer(
    env: Env,
) -> None:
    info = await env.start(duration="2m")
    assert info.status == "open" and info.number == 1 and info.grid == GRID
    assert info.ends_at == T0 + timedelta(minutes=2)
    [post] = await env.outbox()
    assert post.target_id == CHANNEL
    content = post.payload["content"]
    assert "round #1" in content and "I T V A / T E V W / Y O N I / L U C A" in content
    assert f"<t:{int(info.ends_at.timestamp())}:R>" in content
    assert post.payload["files"][0]["render"] == "boggle_grid"
    assert post.payload["files"][0]["args"]["rows"][0] == ["I", "T", "V", "A"]
    assert "I T V A / T E V W / Y O N I / L U C A" in post.payload["files"][0]["description"]
    assert post.payload["view"] == {"kind": "boggle_round", "args": {"round_id": info.id}}
    [close] = await env.jobs(JOB_CLOSE)
    assert close.due_at == info.ends_at + CLOSE_GRACE and close.status == "due"


async def test_a_second_round_in_the_same_server_waits_for_the_first(env: Env) -> None:
    first = await env.start()
    with pytest.raises(ConflictError, match="still running"):
        await env.start()
    other = await env.start(guild=OTHER_GUILD, channel=OTHER_CHANNEL)
    assert (first.number, other.number) == (1, 1)
    assert len(await env.rounds()) == 2


async def test_bad_options_change_nothing(env: Env) -> None:
    with pytest.raises(InvalidInputError):
        await env.start(size=4, dice="big25")
    assert await env.rounds() == [] and await env.outbox() == []


async def test_a_word_list_that_cannot_load_stops_the_start(env: Env, tmp_path: Path) -> None:
    env.service.ctx.settings = load_settings(None, lexicon=str(tmp_path / "missing.txt"))
    with pytest.raises(InvalidInputError, match="word list"):
        await env.start()
    assert await env.rounds() == []


# -- DM'd lists ----------------------------------------------------------------------


async def test_dms_add_to_the_list_and_acknowledge_the_running_count(env: Env) -> None:
    info = await env.start()
    first = await env.dm(ANA, "Toucan, canoe\ntonic")
    second = await env.dm(ANA, "TONIC envoy   acne!")
    [r1], [r2] = first.receipts, second.receipts
    assert (r1.new_words, r1.total_words) == (3, 3)
    assert (r2.new_words, r2.total_words) == (2, 5)
    assert (
        r2.round_number == info.number
        and r2.guild_name == f"club {GUILD}"
        and r2.ends_at == info.ends_at
    )
    async with env.factory() as session:
        [row] = (await session.execute(select(BoggleSubmissionRecord))).scalars().all()
    assert row.words == ["toucan", "canoe", "tonic", "envoy", "acne"]
    assert [e["text"] for e in row.entries] == [
        "Toucan, canoe\ntonic",
        "TONIC envoy   acne!",
    ]  # kept as sent
    assert row.entries[0]["via"] == "dm" and row.last_source_id == env.next_message_id


async def test_the_same_message_seen_twice_is_stored_once(env: Env) -> None:
    await env.start()
    once = await env.service.submissions.submit_dm(
        user_id=ANA, display_name="ana", message_id=5, sent_at=T0, text="canoe", guild_ids=[GUILD]
    )
    again = await env.service.submissions.submit_dm(
        user_id=ANA, display_name="ana", message_id=5, sent_at=T0, text="canoe", guild_ids=[GUILD]
    )
    assert not once.receipts[0].repeated and again.receipts[0].repeated
    async with env.factory() as session:
        [row] = (await session.execute(select(BoggleSubmissionRecord))).scalars().all()
    assert len(row.entries) == 1


async def test_a_dm_sent_before_the_end_counts_even_when_it_arrives_after(env: Env) -> None:
    info = await env.start()
    env.clock.now = info.ends_at + timedelta(seconds=2)  # inside the grace, close job not yet run
    on_time = await env.dm(ANA, "canoe", at=info.ends_at - timedelta(milliseconds=1))
    too_late = await env.dm(BEN, "canoe", at=info.ends_at)
    assert on_time.receipts and not on_time.late
    assert not too_late.receipts and too_late.late[0].round_number == info.number


async def test_after_the_lists_close_dms_get_a_polite_note_and_change_nothing(env: Env) -> None:
    info = await env.start()
    await env.dm(ANA, "canoe")
    await finish(env, info)
    late = await env.dm(
        ANA, "tonic", at=info.ends_at - timedelta(seconds=1)
    )  # delivered after the close
    assert not late.receipts and late.late[0].channel_id == CHANNEL
    env.clock.advance(hours=2)
    assert (await env.dm(ANA, "tonic")).no_round  # long after: just "no round open"


async def test_a_dm_counts_in_every_open_round_of_the_members_servers(env: Env) -> None:
    await env.start()
    await env.start(guild=OTHER_GUILD, channel=OTHER_CHANNEL)
    both = await env.dm(ANA, "canoe", guilds=(GUILD, OTHER_GUILD))
    one = await env.dm(BEN, "canoe", guilds=(OTHER_GUILD,))
    assert {r.guild_id for r in both.receipts} == {GUILD, OTHER_GUILD}
    assert [r.guild_id for r in one.receipts] == [OTHER_GUILD]
    assert (await env.dm(CY, "canoe", guilds=())).no_round


async def test_without_an_open_round_a_dm_is_not_stored(env: Env) -> None:
    outcome = await env.dm(ANA, "canoe")
    assert outcome.no_round
    async with env.factory() as session:
        assert (await session.execute(select(BoggleSubmissionRecord))).scalars().all() == []


async def test_a_list_stops_growing_at_its_cap(env: Env, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(submissions_module, "MAX_WORDS_PER_LIST", 3)
    await env.start()
    receipt = (await env.dm(ANA, "canoe tonic acne envoy")).receipts[0]
    assert (receipt.new_words, receipt.total_words, receipt.full) == (3, 3, True)


async def test_two_first_messages_at_once_are_both_kept(env: Env) -> None:
    await env.start()
    await asyncio.gather(
        env.service.submissions.submit_dm(
            user_id=ANA,
            display_name="ana",
            message_id=1,
            sent_at=T0,
            text="canoe",
            guild_ids=[GUILD],
        ),
        env.service.submissions.submit_dm(
            user_id=ANA,
            display_name="ana",
            message_id=2,
            sent_at=T0,
            text="tonic",
            guild_ids=[GUILD],
        ),
    )
    async with env.factory() as session:
        [row] = (await session.execute(select(BoggleSubmissionRecord))).scalars().all()
    assert sorted(row.words) == ["canoe", "tonic"]


async def test_ten_messages_at_once_to_a_list_are_all_kept(
    session_factory, lexicon_file: Path, clock, database_url: str
) -> None:
    """The member's list is locked for each change (on PostgreSQL in the one statement
    that reads the round with it; SQLite has one writer): none of ten DMs at once is lost."""
    # The database's own settings: on PostgreSQL the DMs are not queued in this process.
    ctx = make_service_context(
        session_factory, clock, lexicon=str(lexicon_file), database_url=database_url
    )
    env = Env(BoggleService(ctx, seeds=lambda: SEED), clock, ctx.scheduler, session_factory)
    await env.start()
    await env.dm(ANA, "acne")
    # Connections for them all in the pool: none of the ten waits to connect.
    await asyncio.gather(*(env.service.catch_up.guilds_taking_dms(T0, ANA) for _ in range(10)))
    words = ["canoe", "tonic", "civet", "covet", "envoy", "naive", "ovine", "cane", "cain"]
    await asyncio.gather(
        *(
            env.service.submissions.submit_dm(
                user_id=ANA,
                display_name="ana",
                message_id=100 + number,
                sent_at=T0,
                text=word,
                guild_ids=[GUILD],
            )
            for number, word in enumerate([*words, "canoe"])
        )
    )
    async with env.factory() as session:
        [row] = (await session.execute(select(BoggleSubmissionRecord))).scalars().all()
    assert sorted(row.words) == sorted(["acne", *words]) and len(row.entries) == 11
    await env.service.core.wait_background()


async def test_the_form_adds_to_the_same_list_until_the_end(env: Env) -> None:
    info = await env.start()
    await env.dm(ANA, "canoe")
    receipt = await env.service.submissions.submit_form(
        round_id=info.id, user_id=ANA, display_name="ana", source_id=77, text="tonic, canoe"
    )
    assert (receipt.new_words, receipt.total_words) == (1, 2)
    env.clock.now = info.ends_at
    with pytest.raises(NotFoundError, match="has ended"):
        await env.service.submissions.submit_form(
            round_id=info.id, user_id=ANA, display_name="ana", source_id=78, text="acne"
        )
    with pytest.raises(NotFoundError):
        await env.service.submissions.round_for_form(guild_id=GUILD)


async def test_an_empty_form_is_refused(env: Env) -> None:
    info = await env.start()
    with pytest.raises(InvalidInputError, match="empty"):
        await env.service.submissions.submit_form(
            round_id=info.id, user_id=ANA, display_name="ana", source_id=1, text="  \n "
        )


async def test_catch_up_starts_after_each_players_last_stored_message(env: Env) -> None:
    await env.start()
    await env.service.submissions.submit_dm(
        user_id=ANA, display_name="a", message_id=50, sent_at=T0, text="canoe", guild_ids=[GUILD]
    )
    await env.service.submissions.submit_dm(
        user_id=ANA, display_name="a", message_id=70, sent_at=T0, text="acne", guild_ids=[GUILD]
    )
    await env.service.submissions.submit_dm(
        user_id=BEN, display_name="b", message_id=60, sent_at=T0, text="acne", guild_ids=[GUILD]
    )
    targets = await env.service.catch_up.catch_up_targets()
    assert [(t.user_id, t.after_message_id) for t in targets] == [(ANA, 70), (BEN, 60)]


async def test_catch_up_starts_after_the_last_dm_handled_before_the_restart(env: Env) -> None:
    # Ana's DM 50 was stored before the bot went down; 60 was sent while it was
    # away; 70 arrived live after the restart and was stored before the read-back.
    info = await env.start()
    for message_id in (50, 70):
        await env.service.submissions.submit_dm(
            user_id=ANA,
            display_name="a",
            message_id=message_id,
            sent_at=T0,
            text="canoe",
            guild_ids=[GUILD],
        )
    # Ben's only DM arrived live after the restart: his whole DM channel since the opening.
    await env.service.submissions.submit_dm(
        user_id=BEN, display_name="b", message_id=80, sent_at=T0, text="acne", guild_ids=[GUILD]
    )
    targets = await env.service.catch_up.catch_up_targets(live_since={ANA: 70, BEN: 80})
    assert [(t.user_id, t.after_message_id, t.since) for t in targets] == [
        (ANA, 50, None),
        (BEN, None, info.opens_at),
    ]


async def test_catch_up_reads_after_dms_not_after_a_form(env: Env) -> None:
    # A form is not a message in the DM channel: DMs sent before it may still be missed.
    info = await env.start()
    await env.service.submissions.submit_dm(
        user_id=ANA, display_name="a", message_id=50, sent_at=T0, text="canoe", guild_ids=[GUILD]
    )
    await env.service.submissions.submit_form(
        round_id=info.id, user_id=ANA, display_name="a", source_id=90, text="tonic"
    )
    await env.service.submissions.submit_form(
        round_id=info.id, user_id=BEN, display_name="b", source_id=91, text="tonic"
    )
    targets = await env.service.catch_up.catch_up_targets()
    assert [(t.user_id, t.after_message_id, t.since) for t in targets] == [
        (ANA, 50, None),
        (BEN, None, info.opens_at),
    ]


async def _add_result(env: Env, player: int, guild: int, kind: str = "chess") -> None:
    async with env.factory() as session:
        if await session.get(GuildRecord, guild) is None:
            session.add(GuildRecord(id=guild, name=f"club {guild}"))
        if await session.get(PlayerRecord, player) is None:
            session.add(PlayerRecord(id=player, display_name=f"player{player}"))
        session.add(
            ResultRecord(
                guild_id=guild,
                game_kind=kind,
                player_id=player,
                outcome="win",
                played_at=env.clock(),
            )
        )
        await session.commit()


async def test_catch_up_also_reads_likely_first_lists_from_the_rounds_opening(env: Env) -> None:
    first = await env.start()
    await env.dm(CY, "canoe")  # Cy played Boggle here before
    await finish(env, first)
    env.clock.advance(hours=1)
    await _add_result(env, DEE, GUILD)  # Dee played chess here
    await _add_result(env, EVE, OTHER_GUILD)  # Eve plays in another club only
    second = await env.start()
    await env.dm(ANA, "tonic")  # Ana already has a list: read after it
    targets = await env.service.catch_up.catch_up_targets({GUILD: [BEN, ANA, CY, 99]})
    ana_list = await env.service.catch_up.catch_up_targets()
    assert [(t.user_id, t.after_message_id, t.since) for t in targets] == [
        (ANA, env.next_message_id, None),
        (CY, None, second.opens_at),  # past Boggle players first, then other results, then members
        (DEE, None, second.opens_at),
        (BEN, None, second.opens_at),
        (99, None, second.opens_at),
    ]
    assert [t.user_id for t in ana_list] == [ANA, CY, DEE]  # without members: the known players


async def test_catch_up_reads_at_most_per_guild_likely_players_and_skips_a_large_servers_members(
    env: Env,
) -> None:
    await env.start()
    await _add_result(env, DEE, GUILD)
    env.clock.advance(seconds=1)
    await _add_result(env, EVE, GUILD)  # the latest first
    await env.dm(ANA, "tonic")
    capped = await env.service.catch_up.catch_up_targets({GUILD: [BEN]}, per_guild=1)
    assert [t.user_id for t in capped] == [ANA, EVE]  # Ana's list does not use up the one place
    large = await env.service.catch_up.catch_up_targets({GUILD: [BEN, CY, 99, 98]}, per_guild=3)
    assert [t.user_id for t in large] == [ANA, EVE, DEE]  # four members > 3: not read at all
    small = await env.service.catch_up.catch_up_targets({GUILD: [BEN, CY]}, per_guild=4)
    assert [t.user_id for t in small] == [ANA, EVE, DEE, BEN, CY]


async def test_catch_up_covers_each_open_round_and_a_member_of_two_from_the_earlier_opening(
    env: Env,
) -> None:
    first = await env.start()
    env.clock.advance(seconds=30)
    second = await env.start(guild=OTHER_GUILD, channel=OTHER_CHANNEL)
    targets = await env.service.catch_up.catch_up_targets(
        {GUILD: [ANA, BEN], OTHER_GUILD: [BEN, CY]}
    )
    assert [(t.user_id, t.since) for t in targets] == [
        (ANA, first.opens_at),
        (BEN, first.opens_at),
        (CY, second.opens_at),
    ]


async def test_catch_up_has_nothing_to_read_without_an_open_round(env: Env) -> None:
    info = await env.start()
    await env.dm(ANA, "tonic")
    await finish(env, info)
    assert await env.service.catch_up.catch_up_targets({GUILD: [ANA, BEN]}) == []


async def test_guilds_taking_dms_are_those_with_an_open_or_a_just_ended_round(env: Env) -> None:
    async def guilds(at: datetime) -> list[int]:
        found = await env.service.catch_up.guilds_taking_dms(at, ANA)
        assert not found.own_daily  # she never opened the daily grid
        return found.guild_ids

    assert await guilds(env.clock()) == []
    first = await env.start()
    assert await guilds(env.clock()) == [GUILD]
    await finish(env, first)
    await env.start(guild=OTHER_GUILD, channel=OTHER_CHANNEL)
    # The ended round still takes DMs a while (to tell a late player so), then not.
    assert await guilds(env.clock()) == [GUILD, OTHER_GUILD]
    later = env.clock() + LATE_NOTE_WINDOW + timedelta(minutes=1)
    assert await guilds(later) == [OTHER_GUILD]


# -- closing and scoring --------------------------------------------------------------


async def test_closing_scores_every_list_crosses_off_shared_words_and_records_points(
    env: Env,
) -> None:
    info = await env.start()
    await env.dm(ANA, "toucanet convey canoe ovin")  # 11 + 3 + (shared) + not a word
    await env.dm(BEN, "canoe, tonic, zebra, cat")  # shared + 2 + not on grid + too short
    await env.dm(CY, "canoe envoy")  # shared + 2
    ran = await finish(env, info)
    assert ran == [JOB_CLOSE, JOB_SCORE]

    [record] = await env.rounds()
    assert record.status == "scored" and record.season == "S1"
    players = {p["id"]: p for p in record.results["players"]}
    assert players[ANA]["total"] == 14 and players[ANA]["rank"] == 1
    assert dict((w, s) for w, s, _ in players[ANA]["words"]) == {
        "toucanet": "scored",
        "convey": "scored",
        "canoe": "cancelled",
        "ovin": "not_a_word",
    }
    assert dict((w, s) for w, s, _ in players[BEN]["words"]) == {
        "canoe": "cancelled",
        "tonic": "scored",
        "zebra": "not_on_grid",
        "cat": "too_short",
    }
    assert players[CY]["total"] == 2 and players[BEN]["rank"] == players[CY]["rank"] == 2
    assert record.results["winners"] == [ANA]
    assert all(word not in ("toucanet", "canoe") for word, _ in record.results["missed"])

    async with env.factory() as session:
        results = {r.player_id: r for r in (await session.execute(select(ResultRecord))).scalars()}
        standing = await session.get(RatingRecord, (GUILD, "boggle", ANA))
    assert {p: (r.points, r.outcome, r.season) for p, r in results.items()} == {
        ANA: (14, "win", "S1"),
        BEN: (2, "loss", "S1"),
        CY: (2, "loss", "S1"),
    }
    assert results[ANA].round_ref == f"boggle:{info.id}"
    assert (standing.points, standing.wins, standing.games) == (14, 1, 1)

    posts = await env.outbox()
    # The results, then the achievements they earned (a first win, a word of 8 letters).
    results_post = [p for p in posts if "achievement" not in p.payload["content"]][-1].payload
    assert "round #1 results" in results_post["content"]
    assert "**player11** wins with 14 points" in results_post["content"]
    assert "Best words nobody found:" in results_post["content"]
    fields = results_post["embeds"][0]["fields"]
    assert fields[0]["name"].startswith("1. player11 — 14 points")
    assert "Cancelled (on another list too): CANOE" in fields[0]["value"]
    assert "Not a word: OVIN" in fields[0]["value"]
    assert "Not on the grid: ZEBRA" in fields[1]["value"] and "Too short: CAT" in fields[1]["value"]
    assert [f["render"] for f in results_post["files"]] == ["boggle_grid", "boggle_text"]
    assert all(f["description"] for f in results_post["files"])  # alt text on both
    assert "TOUCANET (11)" in results_post["files"][1]["args"]["text"]


async def test_running_the_jobs_again_changes_nothing(env: Env) -> None:
    info = await env.start()
    await env.dm(ANA, "canoe")
    await finish(env, info)
    async with env.factory() as session:
        job = (
            await session.execute(select(JobRecord).where(JobRecord.kind == JOB_SCORE))
        ).scalar_one()
    async with UnitOfWork(env.factory) as uow:
        await env.service.closing.on_round_score(uow, job)
        await env.service.closing.on_round_close(uow, job)
    async with env.factory() as session:
        assert len((await session.execute(select(ResultRecord))).scalars().all()) == 1


async def test_a_round_nobody_played_posts_results_without_points(env: Env) -> None:
    info = await env.start()
    await finish(env, info)
    [record] = await env.rounds()
    assert record.status == "scored" and record.results["players"] == []
    assert "Nobody sent any words" in (await env.outbox())[-1].payload["content"]


async def test_words_cannot_be_added_once_the_lists_are_frozen(env: Env) -> None:
    info = await env.start()
    env.clock.now = info.ends_at + CLOSE_GRACE
    await env.scheduler.run_due()  # the close job only
    [record] = await env.rounds()
    assert record.status == "closed"
    outcome = await env.dm(ANA, "canoe", at=info.ends_at - timedelta(seconds=1))
    assert not outcome.receipts and outcome.late


# -- results, seasons ----------------------------------------------------------------------


async def test_results_show_the_last_round_and_the_season_table(env: Env) -> None:
    assert (await env.service.results.latest(GUILD)).last is None
    info = await env.start()
    await env.dm(ANA, "convey")
    await env.dm(BEN, "tonic")
    await finish(env, info)
    view = await env.service.results.latest(GUILD)
    assert view.last["number"] == 1 and view.running is None
    assert [(s.player_id, s.points, s.wins) for s in view.season.standings] == [
        (ANA, 3, 1),
        (BEN, 2, 0),
    ]
    assert view.season.number == 1 and view.season.target == 100


async def test_reaching_the_target_wins_the_season_and_starts_the_next(env: Env) -> None:
    await env.service.results.configure_season(
        guild_id=GUILD, guild_name="club", channel_id=None, target=10
    )
    info = await env.start()
    await env.dm(ANA, "toucanet")
    await env.dm(BEN, "tonic")
    await finish(env, info)
    last_post = [
        p.payload["content"]
        for p in await env.outbox()
        if "achievement" not in p.payload["content"]
    ][-1]
    assert "**player11** wins Word Boggle season 1 with 11 points (first to 10 points)" in last_post
    view = await env.service.results.latest(GUILD)
    assert view.season.number == 2 and view.season.standings == [] and view.season.target == 10
    assert view.season.previous["winners"] == [[ANA, "player11"]]

    # The leaderboard's "season" period now starts after the winning round.
    board = await LeaderboardService(env.service.ctx).table(GUILD, "boggle", "season")
    assert board.rows == [] and board.since > env.clock()
    second = await env.start()
    await env.dm(BEN, "convey")
    await finish(env, second)
    board = await LeaderboardService(env.service.ctx).table(GUILD, "boggle", "season")
    assert [(r.player_id, r.value) for r in board.rows] == [(BEN, "3")]


async def test_a_moderator_can_end_the_season_now(env: Env) -> None:
    info = await env.start()
    await env.dm(ANA, "convey")
    await finish(env, info)
    season = await env.service.results.configure_season(
        guild_id=GUILD, guild_name="club", channel_id=CHANNEL, reset=True
    )
    assert (
        season.number == 2
        and season.ended.winners == [(ANA, "player11")]
        and season.ended.reason == "moderator"
    )
    assert "season 1" in (await env.outbox())[-1].payload["content"]


async def test_a_season_can_reset_every_month_in_the_club_time_zone(env: Env) -> None:
    season = await env.service.results.configure_season(
        guild_id=GUILD, guild_name="club", channel_id=None, every="month"
    )
    boundary = datetime(2026, 12, 1, tzinfo=UTC)
    assert season.next_reset_at == boundary
    [job] = await env.jobs(JOB_SEASON)
    assert job.due_at == boundary
    info = await env.start()
    await env.dm(ANA, "convey")
    await finish(env, info)
    env.clock.now = boundary
    await env.run_due()
    view = await env.service.results.latest(GUILD)
    assert view.season.number == 2 and view.season.previous["winners"] == [[ANA, "player11"]]
    [job] = await env.jobs(JOB_SEASON)
    assert job.status == "due" and job.due_at == datetime(2027, 1, 1, tzinfo=UTC)
    assert "wins Word Boggle season 1" in (await env.outbox())[-1].payload["content"]


async def test_bad_season_settings_are_refused(env: Env) -> None:
    with pytest.raises(InvalidInputError):
        await env.service.results.configure_season(
            guild_id=GUILD, guild_name="club", channel_id=None, target=1
        )
    with pytest.raises(InvalidInputError):
        await env.service.results.configure_season(
            guild_id=GUILD, guild_name="club", channel_id=None, every="fortnight"
        )


# -- weekly schedules and cancelling ------------------------------------------------------


async def schedule_tuesday_19(env: Env) -> Any:
    """Tuesday 19:00 in Manila: 11:00 UTC on 1 December (T0 is Monday 18:00 UTC)."""
    async with env.factory() as session:
        from bot.db.repositories import GuildRepository

        guild = await GuildRepository(session).ensure(GUILD, "club")
        guild.timezone = "Asia/Manila"
        await session.commit()
    return await env.service.schedule.schedule_weekly(
        guild_id=GUILD,
        guild_name="club",
        channel_id=CHANNEL,
        created_by=HOST,
        weekday=1,
        at="7pm",
        duration="2m",
    )


async def test_a_weekly_round_is_announced_opens_by_itself_and_the_schedule_moves_on(
    env: Env,
) -> None:
    info = await schedule_tuesday_19(env)
    occurrence = datetime(2026, 12, 1, 11, 0, tzinfo=UTC)
    assert info.next_at == occurrence and info.timezone == "Asia/Manila" and not info.replaced
    [weekly] = await env.jobs(JOB_WEEKLY)
    assert weekly.due_at == occurrence - ANNOUNCE_LEAD

    env.clock.now = occurrence - ANNOUNCE_LEAD
    assert await env.run_due() == [JOB_WEEKLY]
    [record] = await env.rounds()
    assert (record.status, record.opens_at, record.grid) == ("scheduled", occurrence, None)
    assert "starts <t:" in (await env.outbox())[-1].payload["content"]
    [weekly] = await env.jobs(JOB_WEEKLY)  # the same job, moved to next week
    assert (
        weekly.status == "due" and weekly.due_at == occurrence + timedelta(days=7) - ANNOUNCE_LEAD
    )

    env.clock.now = occurrence
    assert await env.run_due() == [JOB_OPEN]
    [record] = await env.rounds()
    assert (
        record.status == "open"
        and record.grid == GRID
        and record.ends_at == occurrence + timedelta(minutes=2)
    )
    assert (await env.dm(ANA, "canoe")).receipts


async def test_a_weekly_job_run_twice_makes_one_round(env: Env) -> None:
    await schedule_tuesday_19(env)
    env.clock.now = datetime(2026, 12, 1, 10, 0, tzinfo=UTC)
    [weekly] = await env.jobs(JOB_WEEKLY)
    for _ in range(
        2
    ):  # as if a process died after the round was made but before the job was marked
        async with UnitOfWork(env.factory) as uow:
            await env.service.schedule.create_scheduled_round(
                uow,
                await uow.boggle.lock_schedule(weekly.payload["schedule_id"]),
                datetime(2026, 12, 1, 11, 0, tzinfo=UTC),
                env.clock(),
            )
            await uow.commit()
    assert len(await env.rounds()) == 1


async def test_a_weekly_round_missed_while_the_bot_was_down_is_skipped_not_stacked(
    env: Env,
) -> None:
    await schedule_tuesday_19(env)
    env.clock.now = datetime(2026, 12, 20, tzinfo=UTC)  # three weeks later
    await env.run_due()
    assert await env.rounds() == []
    [weekly] = await env.jobs(JOB_WEEKLY)
    assert weekly.due_at == datetime(2026, 12, 22, 11, 0, tzinfo=UTC) - ANNOUNCE_LEAD


async def test_cancel_without_a_choice_cancels_the_round_and_keeps_the_schedule(env: Env) -> None:
    await schedule_tuesday_19(env)
    info = await env.start()
    outcome = await env.service.cancelling.cancel(guild_id=GUILD)
    assert (outcome.what, outcome.round_number, outcome.round_status, outcome.schedule_remains) == (
        "round",
        info.number,
        "open",
        True,
    )
    [record] = await env.rounds()
    assert record.status == "cancelled"
    [close] = await env.jobs(JOB_CLOSE)
    assert close.status == "cancelled"
    assert "cancelled by a moderator" in (await env.outbox())[-1].payload["content"]
    assert (await env.dm(ANA, "canoe")).no_round


async def test_cancelling_the_schedule_stops_it_and_its_announced_round(env: Env) -> None:
    await schedule_tuesday_19(env)
    env.clock.now = datetime(2026, 12, 1, 10, 0, tzinfo=UTC)
    await env.run_due()  # the round is announced
    outcome = await env.service.cancelling.cancel(guild_id=GUILD, what="schedule")
    assert outcome.what == "schedule" and outcome.also_cancelled_round == 1
    [weekly] = await env.jobs(JOB_WEEKLY)
    [opener] = await env.jobs(JOB_OPEN)
    assert weekly.status == opener.status == "cancelled"
    with pytest.raises(NotFoundError):
        await env.service.cancelling.cancel(guild_id=GUILD)


async def test_a_scheduled_round_does_not_open_over_a_running_one(env: Env) -> None:
    await schedule_tuesday_19(env)
    env.clock.now = datetime(2026, 12, 1, 10, 0, tzinfo=UTC)
    await env.run_due()
    env.clock.now = datetime(2026, 12, 1, 10, 59, tzinfo=UTC)
    await env.start(duration="10m")
    env.clock.now = datetime(2026, 12, 1, 11, 0, tzinfo=UTC)
    await env.run_due()
    statuses = [(r.number, r.status, r.cancel_reason) for r in await env.rounds()]
    assert statuses == [(1, "cancelled", "busy"), (2, "open", None)]


# -- message limits ---------------------------------------------------------------------------


def test_results_for_fifty_long_lists_fit_discords_limits() -> None:
    players = [
        {
            "id": i,
            "name": f"player number {i}",
            "rank": i,
            "total": 60 - i,
            "words": [[f"word{i}x{j}", "scored" if j % 2 else "cancelled", 2] for j in range(60)],
        }
        for i in range(50)
    ]
    summary = {
        "number": 7,
        "grid": GRID,
        "players": players,
        "winners": [0],
        "missed": [["toucanet", 11]] * 10,
        "words_on_grid": 130,
        "points_on_grid": 300,
    }
    standings = [Standing(i, f"player number {i}", 99, 3, 1) for i in range(10)]
    content = results_content(summary, standings, 1, 100)
    embed = results_embed(summary)
    assert len(content) <= 2000
    assert len(embed["fields"]) <= 25
    assert all(len(f["value"]) <= 1024 and len(f["name"]) <= 256 for f in embed["fields"])
    assert (
        sum(len(f["name"]) + len(f["value"]) for f in embed["fields"])
        + len(embed["title"])
        + len(embed["footer"]["text"])
        <= 6000
    )
    assert "every list is in the attached file" in embed["footer"]["text"]


def test_results_never_show_a_blocklisted_word_among_the_best_nobody_found() -> None:
    # A summary stored before scoring left such words out is cleaned when shown.
    summary = {
        "number": 3,
        "grid": GRID,
        "winners": [1],
        "words_on_grid": 3,
        "points_on_grid": 14,
        "missed": [["motherfuckers", 11], ["toucanet", 11], ["shit", 1]],
        "players": [
            {"id": 1, "name": "ana", "rank": 1, "total": 1, "words": [["shits", "scored", 2]]}
        ],
    }
    content = results_content(summary, [], 1, 100)
    assert "Best words nobody found: TOUCANET (11)" in content
    assert "MOTHERFUCKERS" not in content and "SHIT (" not in content
    text = results_text_file(summary)
    assert "Best words nobody found: TOUCANET (11)\n" in text
    # A player's own word is reported as written: the rules count it.
    assert "Scored: SHITS (2)" in text


def test_member_names_in_results_cannot_format_or_mention() -> None:
    summary = {
        "number": 1,
        "grid": GRID,
        "winners": [1],
        "missed": [],
        "words_on_grid": 0,
        "points_on_grid": 0,
        "players": [
            {
                "id": 1,
                "name": "**@everyone**",
                "rank": 1,
                "total": 3,
                "words": [["convey", "scored", 3]],
            }
        ],
    }
    content = results_content(summary, [], 1, 100)
    assert "@everyone" not in content and "\\*\\*" in content
    assert Grid.parse(GRID)  # the content's grid line comes from the stored grid
