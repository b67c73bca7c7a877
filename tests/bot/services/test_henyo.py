"""HenyoService on a real database (SQLite, and PostgreSQL with TEST_DATABASE_URL).

Message ids are real-shaped Discord snowflakes made at chosen moments on the
test's clock (tests/clock.py), so every timing here is exact.
"""

from __future__ import annotations

import asyncio
import random
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

import pytest
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.db.models import JobRecord, OutboxRecord, PlayerRecord, ResultRecord
from bot.db.models_henyo import HenyoRoundEventRecord, HenyoRoundRecord, HenyoTeamRecord
from bot.db.models_signups import SignupRecord
from bot.errors import InvalidInputError, NotFoundError, PermissionDeniedError
from bot.messages import henyo as messages
from bot.scheduler import Scheduler
from bot.services import ServiceContext, signups
from bot.services.henyo import (
    END_GRACE,
    JOB_KIND,
    START_WINDOW,
    EventClosed,
    HenyoService,
    Member,
    PreparedRound,
    UnfinishedEvent,
)
from engines.henyo import builtin_words
from engines.henyo.timing import datetime_ms, snowflake_at, snowflake_time
from tests.clock import FakeClock
from tests.leaks import shows_secret

GUILD = 10
CHANNEL = 20
OTHER_CHANNEL = 21
HOST = Member(1, "Keith")
NAMES = ["Ana", "Ben", "Cara", "Dan", "Ela", "Fe", "Gio", "Hana", "Ivo", "Jun", "Kim", "Lia"]
PLAYERS = [Member(100 + i, name) for i, name in enumerate(NAMES)]


@dataclass
class World:
    svc: HenyoService
    clock: FakeClock
    scheduler: Scheduler
    factory: Any
    notified: list[Any] = field(default_factory=list)
    sequence: int = 0

    def flake(self, at: datetime, offset_ms: int = 0) -> int:
        """A snowflake made ``offset_ms`` after ``at`` (each one unique)."""
        self.sequence += 1
        return snowflake_at(datetime_ms(at) + offset_ms, self.sequence)

    async def open(self, **options: Any):
        return await self.svc.events.open(
            guild_id=GUILD, guild_name="Library", channel_id=CHANNEL, host=HOST, **options
        )

    async def register(self, index: int, channel: int = CHANNEL):
        return await self.svc.events.register(
            guild_id=GUILD,
            guild_name="Library",
            channel_id=channel,
            user=PLAYERS[2 * index],
            partner=PLAYERS[2 * index + 1],
        )

    async def prepare(
        self, host: Member = HOST, moderator: bool = False, **options: Any
    ) -> PreparedRound:
        return await self.svc.rounds.prepare(
            guild_id=GUILD,
            guild_name="Library",
            channel_id=CHANNEL,
            host=host,
            is_moderator=moderator,
            **options,
        )

    async def start(self, **options: Any) -> tuple[PreparedRound, int]:
        """Prepare and begin a round; returns it and its announcement's id."""
        prepared = await self.prepare(**options)
        announce = self.flake(self.clock())
        await self.svc.rounds.begin(prepared.round_id, announce)
        return prepared, announce

    async def say(
        self, prepared: PreparedRound, announce: int, who: Member | int, text: str, after_ms: int
    ):
        author = who if isinstance(who, Member) else Member(who, "")
        self.sequence += 1
        message_id = snowflake_at(datetime_ms(snowflake_time(announce)) + after_ms, self.sequence)
        return await self.svc.referee.message(
            channel_id=prepared.channel_id,
            message_id=message_id,
            author_id=author.id,
            content=text,
            author_name=author.name,
        )

    async def outbox(self) -> list[OutboxRecord]:
        async with self.factory() as session:
            return list(
                (await session.execute(select(OutboxRecord).order_by(OutboxRecord.id))).scalars()
            )

    async def round(self, round_id: int) -> HenyoRoundRecord:
        async with self.factory() as session:
            rnd = await session.get(HenyoRoundRecord, round_id)
            assert rnd is not None
            return rnd

    async def results(self) -> list[ResultRecord]:
        async with self.factory() as session:
            return list(
                (await session.execute(select(ResultRecord).order_by(ResultRecord.id))).scalars()
            )


@pytest.fixture
async def world(ctx: ServiceContext, session_factory, clock: FakeClock) -> World:
    svc = HenyoService(ctx, rng=random.Random(5))
    ctx.scheduler.register_service(svc)
    w = World(svc, clock, ctx.scheduler, session_factory)
    svc.round_closed_listeners.append(w.notified.append)
    return w


# --------------------------------------------------------------------------- events and registration


async def test_an_event_opens_with_the_sheet_defaults(world: World) -> None:
    event = await world.open()
    assert (event.pairs, event.time_limit_ms, event.penalty_ms, event.language) == (
        5,
        120_000,
        5_000,
        "any",
    )
    assert event.categories == ("Tao", "Bagay", "Hayop", "Pagkain", "Lugar")
    assert event.host == HOST and event.teams == []


async def test_event_options_are_read_and_checked(world: World) -> None:
    event = await world.open(
        pairs=3, time_limit="90s", penalty="3s", categories="animal, food", language="Filipino"
    )
    assert (
        event.pairs,
        event.time_limit_ms,
        event.penalty_ms,
        event.categories,
        event.language,
    ) == (3, 90_000, 3_000, ("Hayop", "Pagkain"), "fil")
    with pytest.raises(InvalidInputError, match="from 10 s to 10 min"):
        await world.svc.events.open(
            guild_id=GUILD, guild_name="L", channel_id=OTHER_CHANNEL, host=HOST, time_limit="5s"
        )
    with pytest.raises(InvalidInputError, match="not a category"):
        await world.svc.events.open(
            guild_id=GUILD, guild_name="L", channel_id=OTHER_CHANNEL, host=HOST, categories="cars"
        )


async def test_a_channel_has_one_open_event_at_a_time(world: World) -> None:
    await world.open()
    with pytest.raises(InvalidInputError, match="already has an open Henyo event"):
        await world.open()


async def test_the_first_pairs_play_and_later_pairs_wait_in_order(world: World) -> None:
    await world.open()
    for i in range(6):
        registration = await world.register(i)
    assert [t.status for t in registration.event.teams] == ["playing"] * 5 + ["waiting"]
    assert registration.team.status == "waiting" and registration.team.position == 6
    assert registration.team.guesser == PLAYERS[10] and registration.team.answerer == PLAYERS[11]


async def test_a_member_registers_once_and_never_with_themselves(world: World) -> None:
    await world.open()
    await world.register(0)
    with pytest.raises(InvalidInputError, match="already registered"):
        await world.svc.events.register(
            guild_id=GUILD, guild_name="L", channel_id=CHANNEL, user=PLAYERS[1], partner=PLAYERS[5]
        )
    with pytest.raises(InvalidInputError, match="already registered with someone else"):
        await world.svc.events.register(
            guild_id=GUILD, guild_name="L", channel_id=CHANNEL, user=PLAYERS[5], partner=PLAYERS[0]
        )
    with pytest.raises(InvalidInputError, match="other than yourself"):
        await world.svc.events.register(
            guild_id=GUILD, guild_name="L", channel_id=CHANNEL, user=PLAYERS[5], partner=PLAYERS[5]
        )


async def test_registering_as_answerer_makes_the_partner_the_guesser(world: World) -> None:
    await world.open()
    registration = await world.svc.events.register(
        guild_id=GUILD,
        guild_name="L",
        channel_id=CHANNEL,
        user=PLAYERS[0],
        partner=PLAYERS[1],
        role="answerer",
    )
    assert (registration.team.guesser, registration.team.answerer) == (PLAYERS[1], PLAYERS[0])


async def test_registration_from_another_channel_finds_the_guilds_only_open_event(
    world: World,
) -> None:
    await world.open()
    registration = await world.register(0, channel=OTHER_CHANNEL)
    assert registration.event.channel_id == CHANNEL


async def test_without_an_open_event_registration_says_how_to_open_one(world: World) -> None:
    with pytest.raises(InvalidInputError, match="/henyo event open"):
        await world.register(0)


async def test_a_withdrawal_moves_the_first_waiting_pair_up(world: World) -> None:
    await world.open(pairs=2)
    for i in range(4):
        await world.register(i)
    withdrawal = await world.svc.events.withdraw(
        guild_id=GUILD, channel_id=CHANNEL, user_id=PLAYERS[3].id
    )
    assert withdrawal.team.position == 2
    assert withdrawal.moved_up is not None and withdrawal.moved_up.position == 3
    assert [(t.position, t.status) for t in withdrawal.event.teams] == [
        (1, "playing"),
        (3, "playing"),
        (4, "waiting"),
    ]
    posts = [row.payload["content"] for row in await world.outbox()]
    assert any("move up from the waiting list" in p and "Ela & Fe" in p for p in posts)


async def test_both_members_of_a_pair_that_moves_up_are_told_by_dm_with_the_channel_to_fall_back_on(
    world: World,
) -> None:
    await world.open(pairs=2)
    for i in range(4):
        await world.register(i)
    await world.svc.events.withdraw(guild_id=GUILD, channel_id=CHANNEL, user_id=PLAYERS[0].id)
    dms = [row for row in await world.outbox() if row.target_kind == "user"]
    assert sorted(row.target_id for row in dms) == [PLAYERS[4].id, PLAYERS[5].id]
    for row in dms:
        assert row.fallback_channel_id == CHANNEL
        assert "Your pair **Ela & Fe** moved up" in row.payload["content"]
        assert "you play as pair 2" in row.payload["content"]
        assert row.payload["fallback_content"].startswith("your pair **Ela & Fe** moved up")
        assert "<@" not in row.payload["content"] + row.payload["fallback_content"]


async def test_the_playing_and_waiting_lists_are_numbered_without_gaps(world: World) -> None:
    await world.open(pairs=2)
    for i in range(5):
        await world.register(i)
    await world.svc.events.withdraw(guild_id=GUILD, channel_id=CHANNEL, user_id=PLAYERS[0].id)
    withdrawal = await world.svc.events.withdraw(
        guild_id=GUILD, channel_id=CHANNEL, user_id=PLAYERS[6].id
    )
    event = withdrawal.event
    assert [(t.label, t.number) for t in event.playing] == [("Cara & Dan", 1), ("Ela & Fe", 2)]
    assert [(t.label, t.number) for t in event.waiting] == [("Ivo & Jun", 1)]
    assert withdrawal.moved_up is None
    prepared = await world.prepare()
    assert (prepared.team_position, prepared.title) == (1, "Pair 1")
    with pytest.raises(InvalidInputError, match=r"\(pair 2\)"):
        await world.svc.events.register(
            guild_id=GUILD,
            guild_name="Library",
            channel_id=CHANNEL,
            user=PLAYERS[4],
            partner=PLAYERS[0],
        )


async def test_two_pairs_registering_for_the_last_place_at_once_one_plays_and_one_waits(
    world: World, engine: AsyncEngine, monkeypatch: pytest.MonkeyPatch
) -> None:
    await world.open(pairs=2)
    await world.register(0)
    async with world.factory() as session:  # members the bot knows: nothing to write first
        for player in PLAYERS[2:6]:
            session.add(PlayerRecord(id=player.id, display_name=player.name))
        await session.commit()
    if engine.dialect.name == "postgresql":
        # Both read the event and its list before either writes (SQLite's
        # BEGIN IMMEDIATE runs one writer at a time, so there they queue instead).
        both_read = asyncio.Barrier(2)
        list_for = signups.list_for
        calls = 0

        async def read_then_wait(*args: Any) -> Any:
            nonlocal calls
            found = await list_for(*args)
            calls += 1
            if calls <= 2:
                await asyncio.wait_for(both_read.wait(), 5)
            return found

        monkeypatch.setattr(signups, "list_for", read_then_wait)
    both = await asyncio.gather(world.register(1), world.register(2))
    assert sorted((r.team.status, r.team.number) for r in both) == [("playing", 2), ("waiting", 1)]
    view = await world.svc.events.get(both[0].event.id)
    assert [(t.position, t.status, t.number) for t in view.teams] == [
        (1, "playing", 1),
        (2, "playing", 2),
        (3, "waiting", 1),
    ]
    # Each pair is stored once: one entry on the event's list, one team row on it.
    async with world.factory() as session:
        entries = list((await session.execute(select(SignupRecord))).scalars())
        teams = list((await session.execute(select(HenyoTeamRecord))).scalars())
    assert sorted(e.position for e in entries) == [1, 2, 3]
    assert sorted(t.signup_id for t in teams) == sorted(e.id for e in entries)


async def test_a_pair_registering_twice_at_once_is_registered_once(world: World) -> None:
    await world.open()
    outcomes = await asyncio.gather(world.register(0), world.register(0), return_exceptions=True)
    registered = [o for o in outcomes if not isinstance(o, BaseException)]
    refused = [o for o in outcomes if isinstance(o, BaseException)]
    assert len(registered) == 1 and len(refused) == 1
    assert isinstance(refused[0], InvalidInputError)
    assert "already registered in this event (pair 1)" in str(refused[0])
    assert len((await world.svc.events.get(registered[0].event.id)).teams) == 1


async def test_registrations_and_the_waiting_list_outlive_a_restart(
    world: World, ctx: ServiceContext
) -> None:
    await world.open(pairs=1)
    await world.register(0)
    await world.register(1)
    restarted = HenyoService(ctx, rng=random.Random(6))  # nothing but the database
    with pytest.raises(InvalidInputError, match=r"already registered in this event \(pair 1\)"):
        await restarted.events.register(
            guild_id=GUILD, guild_name="L", channel_id=CHANNEL, user=PLAYERS[2], partner=PLAYERS[9]
        )
    out = await restarted.events.withdraw(guild_id=GUILD, channel_id=CHANNEL, user_id=PLAYERS[1].id)
    assert out.moved_up is not None and (out.moved_up.label, out.moved_up.number) == (
        "Cara & Dan",
        1,
    )
    assert [(t.label, t.status) for t in out.event.teams] == [("Cara & Dan", "playing")]


async def test_closing_with_pairs_still_to_play_names_them_and_changes_nothing_until_confirmed(
    world: World,
) -> None:
    opened = await world.open(pairs=3)
    for i in range(2):
        await world.register(i)
    close = dict(guild_id=GUILD, channel_id=CHANNEL, user_id=HOST.id, is_moderator=False)
    asked = await world.svc.events.close(**close)
    assert isinstance(asked, UnfinishedEvent)
    assert [(t.number, t.label) for t in asked.not_played] == [(1, "Ana & Ben"), (2, "Cara & Dan")]
    assert (await world.svc.events.get(opened.id)).status == "open"
    with pytest.raises(PermissionDeniedError):
        await world.svc.events.close(
            guild_id=GUILD,
            channel_id=CHANNEL,
            user_id=PLAYERS[0].id,
            is_moderator=False,
            event_id=opened.id,
            confirmed=True,
        )
    with pytest.raises(NotFoundError):
        await world.svc.events.close(
            **{**close, "guild_id": GUILD + 1}, event_id=opened.id, confirmed=True
        )
    closed = await world.svc.events.close(**close, event_id=opened.id, confirmed=True)
    assert isinstance(closed, EventClosed) and closed.winner is None
    assert {r.status for r in closed.standings.rows} == {"not_played"}
    with pytest.raises(InvalidInputError, match="already closed"):
        await world.svc.events.close(**close, event_id=opened.id, confirmed=True)


async def test_a_pair_that_played_cannot_withdraw(world: World) -> None:
    await world.open()
    await world.register(0)
    prepared, announce = await world.start()
    await world.say(prepared, announce, prepared.guesser, prepared.word, 5_000)
    with pytest.raises(InvalidInputError, match="already played"):
        await world.svc.events.withdraw(guild_id=GUILD, channel_id=CHANNEL, user_id=PLAYERS[0].id)


# --------------------------------------------------------------------------- starting rounds


async def test_rounds_go_to_the_playing_pairs_in_registration_order(world: World) -> None:
    await world.open(pairs=2)
    for i in range(3):
        await world.register(i)
    first, announce = await world.start()
    assert (first.guesser, first.answerer, first.team_position, first.stage) == (
        PLAYERS[0],
        PLAYERS[1],
        1,
        0,
    )
    await world.say(first, announce, first.guesser, first.word, 3_000)
    second, _ = await world.start()
    assert (second.guesser, second.team_position) == (PLAYERS[2], 2)


async def test_only_the_host_or_a_moderator_starts_the_events_rounds(world: World) -> None:
    await world.open()
    await world.register(0)
    with pytest.raises(PermissionDeniedError, match="host"):
        await world.prepare(host=PLAYERS[5])
    prepared = await world.prepare(host=PLAYERS[5], moderator=True)
    assert prepared.host == PLAYERS[5]


async def test_the_host_cannot_be_the_guesser(world: World) -> None:
    with pytest.raises(PermissionDeniedError, match="guess in"):
        await world.prepare(host=PLAYERS[0], guesser=PLAYERS[0], answerer=PLAYERS[1])


async def test_a_one_off_round_needs_both_players(world: World) -> None:
    with pytest.raises(InvalidInputError, match="both"):
        await world.prepare(guesser=PLAYERS[0])
    with pytest.raises(InvalidInputError, match="no open Henyo event"):
        await world.prepare()
    prepared = await world.prepare(guesser=PLAYERS[0], answerer=PLAYERS[1], category="Hayop")
    assert (
        prepared.event_id is None
        and prepared.category == "Hayop"
        and prepared.title == "One-off round"
    )
    assert prepared.word in {w.text for w in builtin_words() if w.category == "Hayop"}


async def test_one_round_at_a_time_in_a_channel(world: World) -> None:
    await world.start(guesser=PLAYERS[0], answerer=PLAYERS[1])
    with pytest.raises(InvalidInputError, match="already running"):
        await world.prepare(guesser=PLAYERS[2], answerer=PLAYERS[3])


async def test_the_host_may_set_the_word(world: World) -> None:
    prepared = await world.prepare(
        guesser=PLAYERS[0], answerer=PLAYERS[1], word="  Mapúa   Library "
    )
    assert prepared.word == "Mapúa Library" and prepared.category is None


async def test_no_word_comes_up_twice_in_an_event(world: World) -> None:
    await world.svc.words.add(
        guild_id=GUILD,
        guild_name="L",
        user_id=HOST.id,
        is_moderator=True,
        text="Palabok",
        category="Pagkain",
        language="Filipino",
    )
    await world.open(pairs=25, categories="Pagkain", language="Filipino")
    seen = []
    for i in range(6):
        await world.register(i)
        prepared, announce = await world.start()
        seen.append(prepared.word)
        await world.say(prepared, announce, prepared.guesser, prepared.word, 1_000 + i)
    assert len(set(seen)) == len(seen)
    await world.svc.events.register(
        guild_id=GUILD,
        guild_name="L",
        channel_id=CHANNEL,
        user=Member(900, "X"),
        partner=Member(901, "Y"),
    )
    with pytest.raises(InvalidInputError, match="already used"):
        await world.prepare(word=seen[0].upper())


async def test_begin_starts_the_clock_at_the_announcements_own_timestamp(world: World) -> None:
    start = world.clock.start
    prepared = await world.prepare(guesser=PLAYERS[0], answerer=PLAYERS[1])
    async with world.factory() as session:
        watchdog = (await session.execute(select(JobRecord))).scalar_one()
    assert watchdog.due_at == start + START_WINDOW
    announce = world.flake(start - timedelta(seconds=3), 250)  # Discord's time, not the bot's clock
    running = await world.svc.rounds.begin(prepared.round_id, announce)
    assert running.started_at == start - timedelta(seconds=3) + timedelta(milliseconds=250)
    assert running.ends_at == running.started_at + timedelta(minutes=2)
    async with world.factory() as session:
        job = (await session.execute(select(JobRecord))).scalar_one()
    assert (job.kind, job.due_at, job.status) == (
        JOB_KIND,
        start + timedelta(minutes=2) + END_GRACE,
        "due",
    )


async def test_a_round_cancelled_for_closed_dms_gives_its_word_back(world: World) -> None:
    await world.open(categories="Hayop", language="English")
    await world.register(0)
    prepared = await world.prepare()
    await world.svc.rounds.cancel(prepared.round_id, "dm_closed")
    assert (await world.round(prepared.round_id)).status == "cancelled"
    again = await world.prepare()
    assert again.guesser == prepared.guesser  # the pair has not played yet
    async with world.factory() as session:
        jobs = list(
            (await session.execute(select(JobRecord.status).order_by(JobRecord.id))).scalars()
        )
    assert jobs == ["cancelled", "due"]


async def test_a_round_never_announced_is_cancelled_by_its_watchdog(world: World) -> None:
    prepared = await world.prepare(guesser=PLAYERS[0], answerer=PLAYERS[1])
    world.clock.advance(seconds=61)
    await world.scheduler.run_due()
    rnd = await world.round(prepared.round_id)
    assert (rnd.status, rnd.cancel_reason) == ("cancelled", "interrupted")
    assert any("could not start" in r.payload["content"] for r in await world.outbox())


# --------------------------------------------------------------------------- the referee


async def test_allowed_replies_cost_nothing_and_other_replies_cost_the_penalty(
    world: World,
) -> None:
    prepared, announce = await world.start(guesser=PLAYERS[0], answerer=PLAYERS[1])
    ans = prepared.answerer
    assert (await world.say(prepared, announce, ans, "Oo", 2_000)).kind == "reply"
    assert (await world.say(prepared, announce, ans, " hindi. ", 3_000)).kind == "reply"
    first = await world.say(prepared, announce, ans, "siguro", 4_000)
    second = await world.say(prepared, announce, ans, "Siguro nga", 5_000)
    assert (first.kind, first.penalties, second.kind, second.penalties) == (
        "penalty",
        1,
        "penalty",
        2,
    )
    posts = [r.payload["content"] for r in await world.outbox()]
    assert (
        "Penalties so far: **5 s** (1)" in posts[0] and "Penalties so far: **10 s** (2)" in posts[1]
    )
    assert not any(shows_secret(p, prepared.word) for p in posts)


async def _replies(world: World, round_id: int) -> list[tuple[str, str | None]]:
    async with world.factory() as session:
        rows = await session.execute(
            select(HenyoRoundEventRecord.kind, HenyoRoundEventRecord.reply)
            .where(HenyoRoundEventRecord.round_id == round_id)
            .order_by(HenyoRoundEventRecord.elapsed_ms)
        )
        return [(kind, reply) for kind, reply in rows]


async def test_polite_replies_are_the_same_answers_and_cost_nothing(world: World) -> None:
    prepared, announce = await world.start(guesser=PLAYERS[0], answerer=PLAYERS[1])
    assert not prepared.strict and not (await world.round(prepared.round_id)).strict
    ans = prepared.answerer
    for i, text in enumerate(["Opo", "oo po.", "Hindi po", "Pwede po…", "PWEDE PO"]):
        outcome = await world.say(prepared, announce, ans, text, 1_000 * (i + 1))
        assert (outcome.kind, outcome.penalties) == ("reply", 0), text
    # Near misses say more than yes / no / could be.
    for i, text in enumerate(["po", "Hindi po ba", "Oo po po", "opo oo"]):
        outcome = await world.say(prepared, announce, ans, text, 10_000 + 1_000 * i)
        assert (outcome.kind, outcome.penalties) == ("penalty", i + 1), text
    assert (
        await _replies(world, prepared.round_id)
        == [
            ("reply", "oo"),
            ("reply", "oo"),
            ("reply", "hindi"),
            ("reply", "pwede"),
            ("reply", "pwede"),
        ]
        + [("penalty", None)] * 4
    )
    posts = [r.payload["content"] for r in await world.outbox()]
    assert len(posts) == 4 and "Opo and the po forms count too" in posts[0]
    assert "Polite is fine: **Opo**, **Oo po**, **Hindi po**, **Pwede po**" in (
        messages.announcement(prepared)
    )
    assert "Polite is fine" in messages.secret_dm(prepared, for_host=False)


async def test_a_strict_event_penalises_the_polite_forms_in_all_its_rounds(
    world: World,
) -> None:
    event = await world.open(strict=True)
    assert event.strict and "Bare words only" in messages.settings_line(event)
    await world.register(0)
    await world.register(1)
    prepared, announce = await world.start()
    assert prepared.strict and (await world.round(prepared.round_id)).strict
    ans = prepared.answerer
    assert (await world.say(prepared, announce, ans, "Oo", 1_000)).kind == "reply"
    first = await world.say(prepared, announce, ans, "Opo", 2_000)
    second = await world.say(prepared, announce, ans, "Hindi po.", 3_000)
    assert (first.kind, first.penalties, second.kind, second.penalties) == (
        "penalty",
        1,
        "penalty",
        2,
    )
    posts = [r.payload["content"] for r in await world.outbox()]
    assert "bare words only" in posts[0] and "Penalties so far: **5 s** (1)" in posts[0]
    announced = messages.announcement(prepared)
    assert "Bare words only: **Opo**, **Oo po**, **Hindi po**, **Pwede po**" in announced
    assert "Bare words only" in messages.secret_dm(prepared, for_host=False)
    await world.say(prepared, announce, prepared.guesser, prepared.word, 4_000)
    # The event's next pair is strict too, without asking again.
    after, _ = await world.start()
    assert after.strict and after.team_position == 2
    assert (await world.svc.events.get(event.id)).strict


async def test_the_host_makes_one_round_strict_in_an_ordinary_event(world: World) -> None:
    event = await world.open()
    assert not event.strict and "Polite is fine" in messages.settings_line(event)
    await world.register(0)
    await world.register(1)
    strict, announce = await world.start(strict=True)
    assert strict.strict
    outcome = await world.say(strict, announce, strict.answerer, "Pwede po", 1_000)
    assert (outcome.kind, outcome.penalties) == ("penalty", 1)
    await world.say(strict, announce, strict.guesser, strict.word, 2_000)
    ordinary, announce = await world.start()
    assert not ordinary.strict and not (await world.round(ordinary.round_id)).strict
    outcome = await world.say(ordinary, announce, ordinary.answerer, "Pwede po", 1_000)
    assert (outcome.kind, outcome.penalties) == ("reply", 0)


async def test_a_strict_one_off_round_takes_the_bare_words_only(world: World) -> None:
    prepared, announce = await world.start(guesser=PLAYERS[0], answerer=PLAYERS[1], strict=True)
    assert prepared.strict
    ans = prepared.answerer
    assert (await world.say(prepared, announce, ans, "hindi!", 1_000)).kind == "reply"
    assert (await world.say(prepared, announce, ans, "Oo po", 2_000)).kind == "penalty"


async def test_a_correct_guess_stops_the_clock_at_its_own_timestamp(world: World) -> None:
    prepared, announce = await world.start(guesser=PLAYERS[0], answerer=PLAYERS[1])
    await world.say(prepared, announce, prepared.answerer, "siguro", 4_000)
    await world.say(prepared, announce, prepared.answerer, "siguro", 9_000)
    assert (
        await world.say(prepared, announce, prepared.guesser, "is it a dog?", 10_000)
    ).kind == "question"
    outcome = await world.say(
        prepared, announce, prepared.guesser, f"  {prepared.word.upper()}! ", 27_449
    )
    assert outcome.kind == "guessed" and outcome.round_over
    rnd = await world.round(prepared.round_id)
    assert (rnd.status, rnd.elapsed_ms, rnd.penalties, rnd.final_ms) == (
        "guessed",
        27_449,
        2,
        37_449,
    )
    post = (await world.outbox())[-1].payload["content"]
    assert "final time **37.4 s**" in post and prepared.word in post
    results = await world.results()
    assert [(r.player_id, r.time_ms, r.outcome, r.round_ref) for r in results] == [
        (PLAYERS[0].id, 37_449, None, f"henyo:round:{rnd.id}"),
        (PLAYERS[1].id, 37_449, None, f"henyo:round:{rnd.id}"),
    ]
    assert [c.status for c in world.notified] == ["guessed"]
    async with world.factory() as session:
        assert (await session.execute(select(JobRecord.status))).scalar_one() == "cancelled"


async def test_the_same_message_seen_twice_counts_once(world: World) -> None:
    prepared, announce = await world.start(guesser=PLAYERS[0], answerer=PLAYERS[1])
    message_id = snowflake_at(datetime_ms(snowflake_time(announce)) + 4_000, 77)
    for _ in range(2):
        await world.svc.referee.message(
            channel_id=CHANNEL, message_id=message_id, author_id=PLAYERS[1].id, content="ewan"
        )
    assert (await world.round(prepared.round_id)).penalties == 1


async def test_messages_before_the_start_or_after_the_limit_do_not_count(world: World) -> None:
    prepared, announce = await world.start(guesser=PLAYERS[0], answerer=PLAYERS[1])
    assert (await world.say(prepared, announce, prepared.answerer, "ewan", -500)).kind == "early"
    late = await world.say(prepared, announce, prepared.guesser, prepared.word, 120_001)
    assert late.kind == "late"
    on_the_buzzer = await world.say(prepared, announce, prepared.guesser, prepared.word, 120_000)
    assert on_the_buzzer.kind == "guessed"


async def test_a_message_in_a_channel_without_a_round_is_none_of_our_business(world: World) -> None:
    assert (
        await world.svc.referee.message(
            channel_id=CHANNEL, message_id=1 << 40, author_id=5, content="hi"
        )
        is None
    )


async def test_audience_messages_are_flagged_to_the_host_privately(world: World) -> None:
    prepared, announce = await world.start(guesser=PLAYERS[0], answerer=PLAYERS[1])
    outcome = await world.say(prepared, announce, PLAYERS[4], "malapit na!", 6_000)
    assert outcome.kind == "audience" and not outcome.hide_message
    assert (await world.say(prepared, announce, HOST, "30 seconds left", 7_000)).kind == "host"
    flag = (await world.outbox())[-1]
    assert (flag.target_kind, flag.target_id, flag.fallback_channel_id) == (
        "user",
        HOST.id,
        CHANNEL,
    )
    assert "Ela" in flag.payload["content"] and "/henyo disqualify" in flag.payload["content"]
    assert "malapit" not in flag.payload["fallback_content"]


async def test_a_message_that_spells_out_the_secret_is_marked_for_removal(world: World) -> None:
    prepared, announce = await world.start(
        guesser=PLAYERS[0], answerer=PLAYERS[1], word="kare-kare"
    )
    outcome = await world.say(prepared, announce, PLAYERS[4], "psst: KARE KARE", 6_000)
    assert outcome.hide_message
    answerer = await world.say(prepared, announce, prepared.answerer, "karekare", 7_000)
    assert answerer.kind == "penalty" and answerer.hide_message


async def test_time_up_eliminates_the_pair_and_reveals_the_word(world: World) -> None:
    await world.open()
    await world.register(0)
    prepared, announce = await world.start()
    await world.say(prepared, announce, prepared.answerer, "ewan", 3_000)
    world.clock.advance(seconds=121)
    assert await world.scheduler.run_due() == []  # the grace period is not over yet
    world.clock.advance(seconds=2)
    outcomes = await world.scheduler.run_due()
    assert [o.ok for o in outcomes] == [True]
    rnd = await world.round(prepared.round_id)
    assert (rnd.status, rnd.final_ms, rnd.penalties) == ("timed_out", None, 1)
    assert rnd.ended_at == snowflake_time(announce) + timedelta(minutes=2)
    post = (await world.outbox())[-1].payload["content"]
    assert "Time's up" in post and "eliminated" in post and prepared.word in post
    assert [(r.outcome, r.time_ms) for r in await world.results()] == [
        ("loss", None),
        ("loss", None),
    ]
    # A guess arriving after the round was called changes nothing.
    assert await world.say(prepared, announce, prepared.guesser, prepared.word, 119_000) is None


async def test_the_answerer_presses_buttons_and_others_cannot(world: World) -> None:
    prepared, announce = await world.start(guesser=PLAYERS[0], answerer=PLAYERS[1])
    press = world.flake(snowflake_time(announce), 1_500)
    pressed = await world.svc.referee.button_reply(
        round_id=prepared.round_id, user_id=PLAYERS[1].id, reply="pwede", interaction_id=press
    )
    assert pressed.reply.label == "Pwede" and pressed.answerer == PLAYERS[1]
    with pytest.raises(PermissionDeniedError, match="Only the answerer"):
        await world.svc.referee.button_reply(
            round_id=prepared.round_id,
            user_id=PLAYERS[0].id,
            reply="oo",
            interaction_id=world.flake(snowflake_time(announce), 2_000),
        )
    await world.say(prepared, announce, prepared.guesser, prepared.word, 9_000)
    with pytest.raises(InvalidInputError, match="over"):
        await world.svc.referee.button_reply(
            round_id=prepared.round_id,
            user_id=PLAYERS[1].id,
            reply="oo",
            interaction_id=world.flake(snowflake_time(announce), 10_000),
        )
    async with world.factory() as session:
        kinds = list(
            (
                await session.execute(
                    select(HenyoRoundEventRecord.kind).order_by(HenyoRoundEventRecord.id)
                )
            ).scalars()
        )
    assert kinds == ["button", "guess"]


async def test_the_host_disqualifies_the_running_pair(world: World) -> None:
    await world.open()
    await world.register(0)
    await world.register(1)
    prepared, announce = await world.start()
    await world.say(prepared, announce, PLAYERS[6], "it's an animal!", 8_000)
    with pytest.raises(PermissionDeniedError):
        await world.svc.ending.disqualify(
            guild_id=GUILD, channel_id=CHANNEL, user_id=PLAYERS[6].id, is_moderator=False
        )
    result = await world.svc.ending.disqualify(
        guild_id=GUILD, channel_id=CHANNEL, user_id=HOST.id, is_moderator=False
    )
    assert result.round is not None and result.round.status == "disqualified"
    assert result.team is not None and result.team.position == 1 and result.event_id is not None
    post = (await world.outbox())[-1].payload["content"]
    assert "disqualified" in post and prepared.word in post and "Next up: pair 2" in post
    standings = await world.svc.standings.show(guild_id=GUILD, channel_id=CHANNEL)
    assert {r.team.position: r.status for r in standings.rows} == {
        1: "disqualified",
        2: "not_played",
    }


async def test_the_host_can_disqualify_a_pair_between_rounds(world: World) -> None:
    await world.open()
    await world.register(0)
    await world.register(1)
    result = await world.svc.ending.disqualify(
        guild_id=GUILD,
        channel_id=CHANNEL,
        user_id=HOST.id,
        is_moderator=False,
        member_id=PLAYERS[1].id,
    )
    assert result.round is None and result.team is not None and result.team.position == 1
    prepared = await world.prepare()
    assert prepared.team_position == 2


# --------------------------------------------------------------------------- standings, ties, closing


async def play(world: World, *, guess_after_ms: int | None, penalties: int = 0) -> PreparedRound:
    prepared, announce = await world.start()
    for i in range(penalties):
        await world.say(prepared, announce, prepared.answerer, "siguro", 1_000 + i)
    if guess_after_ms is None:
        world.clock.advance(seconds=123)
        await world.scheduler.run_due()
    else:
        await world.say(prepared, announce, prepared.guesser, prepared.word, guess_after_ms)
    return prepared


async def test_closing_while_a_tie_break_is_still_to_play_asks_the_host_and_names_the_pairs(
    world: World,
) -> None:
    opened = await world.open(pairs=3)
    for i in range(3):
        await world.register(i)
    await play(world, guess_after_ms=30_000)
    await play(world, guess_after_ms=30_000)
    close = dict(guild_id=GUILD, channel_id=CHANNEL, user_id=HOST.id, is_moderator=False)
    asked = await world.svc.events.close(**close)
    assert isinstance(asked, UnfinishedEvent)
    assert [t.label for t in asked.not_played] == ["Ela & Fe"]
    assert [t.label for t in asked.tie_break] == ["Ana & Ben", "Cara & Dan"]
    await play(world, guess_after_ms=None)
    asked = await world.svc.events.close(**close)
    assert isinstance(asked, UnfinishedEvent) and asked.not_played == []
    assert [t.number for t in asked.tie_break] == [1, 2]
    closed = await world.svc.events.close(**close, event_id=opened.id, confirmed=True)
    assert isinstance(closed, EventClosed) and closed.winner is None


async def test_tied_pairs_play_a_tie_break_word_and_the_winner_is_recorded(world: World) -> None:
    await world.open(pairs=4)
    for i in range(4):
        await world.register(i)
    await play(world, guess_after_ms=37_400)
    await play(world, guess_after_ms=27_440, penalties=2)  # 27.44 s + 10 s reads 37.4 s too
    await play(world, guess_after_ms=None)
    last = await play(world, guess_after_ms=50_000)
    post = (await world.outbox())[-1].payload["content"]
    assert "Tie at 37.4 s" in post and "Ana & Ben" in post and "Cara & Dan" in post
    standings = await world.svc.standings.show(guild_id=GUILD, channel_id=CHANNEL)
    assert [(r.team.position, r.place, r.tied) for r in standings.rows[:2]] == [
        (1, 1, True),
        (2, 1, True),
    ]
    assert [t.level for t in standings.ties] == [1] and not standings.complete

    tiebreak = await play(world, guess_after_ms=25_300)
    assert (tiebreak.team_position, tiebreak.stage, tiebreak.title) == (
        1,
        1,
        "Pair 1 — tie-break word 1",
    )
    assert tiebreak.word != last.word
    other = await play(world, guess_after_ms=20_000)
    assert (other.team_position, other.stage) == (2, 1)
    standings = await world.svc.standings.show(guild_id=GUILD, channel_id=CHANNEL)
    assert [
        (r.team.position, r.place, r.status, r.final_ms, r.tiebreaks) for r in standings.rows
    ] == [
        (2, 1, "ranked", 37_440, (20_000,)),
        (1, 2, "ranked", 37_400, (25_300,)),
        (4, 3, "ranked", 50_000, ()),
        (3, None, "eliminated", None, ()),
    ]
    assert standings.complete
    with pytest.raises(InvalidInputError, match="Every pair has played"):
        await world.prepare()
    with pytest.raises(PermissionDeniedError):
        await world.svc.events.close(
            guild_id=GUILD, channel_id=CHANNEL, user_id=PLAYERS[0].id, is_moderator=False
        )
    closed = await world.svc.events.close(
        guild_id=GUILD, channel_id=CHANNEL, user_id=HOST.id, is_moderator=False
    )
    assert isinstance(closed, EventClosed)
    assert closed.winner is not None and closed.winner.label == "Cara & Dan"
    wins = [r for r in await world.results() if r.outcome == "win"]
    assert sorted(r.player_id for r in wins) == [PLAYERS[2].id, PLAYERS[3].id]
    assert all(r.time_ms is None and r.round_ref == f"henyo:event:{closed.event.id}" for r in wins)
    word_results = [r for r in await world.results() if r.extra.get("type") == "word"]
    assert sorted({r.time_ms for r in word_results if r.time_ms}) == [
        20_000,
        25_300,
        37_400,
        37_440,
        50_000,
    ]
    with pytest.raises(NotFoundError):
        await world.svc.standings.show(guild_id=GUILD + 1, channel_id=CHANNEL)


async def test_an_event_cannot_close_while_a_round_runs(world: World) -> None:
    await world.open()
    await world.register(0)
    await world.start()
    with pytest.raises(InvalidInputError, match="still running"):
        await world.svc.events.close(
            guild_id=GUILD, channel_id=CHANNEL, user_id=HOST.id, is_moderator=False
        )


# --------------------------------------------------------------------------- words


@pytest.mark.parametrize(
    "typed",
    [
        "<@&12345>",
        "@everyone",
        "abc123",
        "pusa 🐱",
        "https://x.ph",
        "a_b",
        "**bold**",
        "'-'",
        "a" * 61,
    ],
)
async def test_the_word_bank_refuses_anything_but_letters_spaces_hyphens_and_apostrophes(
    world: World, typed: str
) -> None:
    add = dict(guild_id=GUILD, guild_name="L", user_id=HOST.id, is_moderator=True)
    with pytest.raises(InvalidInputError) as refused:
        await world.svc.words.add(**add, text=typed, category="Hayop", language="Filipino")
    assert typed not in str(refused.value) and "@" not in str(refused.value)
    assert ("60 characters" if len(typed) > 60 else "letters only") in str(refused.value)
    with pytest.raises(InvalidInputError):
        await world.svc.words.remove(**add, text=typed)
    listing = await world.svc.words.show(guild_id=GUILD, user_id=HOST.id, is_moderator=True)
    assert listing.club_words == [] and listing.removed_builtin == []


async def test_the_word_bank_takes_filipino_letters_and_phrases(world: World) -> None:
    add = dict(guild_id=GUILD, guild_name="L", user_id=HOST.id, is_moderator=True)
    for text in ("Ñandu", "Jack 'n' Jill", "ube-keso", "Ñora’s  pie"):
        await world.svc.words.add(**add, text=text, category="Hayop", language="Filipino")
    listing = await world.svc.words.show(guild_id=GUILD, user_id=HOST.id, is_moderator=True)
    assert sorted(w.text for w in listing.club_words) == sorted(
        ["Ñandu", "Jack 'n' Jill", "ube-keso", "Ñora’s pie"]
    )


async def test_the_club_adds_and_removes_words_and_the_picker_follows(world: World) -> None:
    add = dict(guild_id=GUILD, guild_name="L", user_id=HOST.id, is_moderator=True)
    added = await world.svc.words.add(
        **add, text="Sorbetes", category="pagkain", language="Filipino"
    )
    assert (added.text, added.category, added.language) == ("Sorbetes", "Pagkain", "fil")
    with pytest.raises(InvalidInputError, match="already in the club's words"):
        await world.svc.words.add(**add, text="SORBETES", category="Pagkain", language="fil")
    with pytest.raises(InvalidInputError, match="built-in"):
        await world.svc.words.add(**add, text="Adobo", category="Pagkain", language="fil")
    fil_food = [w for w in builtin_words() if w.category == "Pagkain" and w.language == "fil"]
    for word in fil_food:
        await world.svc.words.remove(**add, text=word.text)
    listed = await world.svc.words.show(
        guild_id=GUILD, user_id=HOST.id, is_moderator=True, category="Pagkain"
    )
    assert [w.text for w in listed.club_words] == ["Sorbetes"] and len(
        listed.removed_builtin
    ) == len(fil_food)
    await world.open(categories="Pagkain", language="Filipino")
    await world.register(0)
    prepared = await world.prepare()
    assert prepared.word == "Sorbetes"
    await world.svc.words.add(
        **add, text="Adobo", category="Pagkain", language="fil"
    )  # a removed built-in comes back
    with pytest.raises(NotFoundError):
        await world.svc.words.remove(**add, text="no such word")


async def test_only_moderators_and_open_event_hosts_keep_the_word_bank(world: World) -> None:
    with pytest.raises(PermissionDeniedError):
        await world.svc.words.show(guild_id=GUILD, user_id=HOST.id, is_moderator=False)
    await world.open()
    listed = await world.svc.words.show(
        guild_id=GUILD, user_id=HOST.id, is_moderator=False, include_builtin=True
    )
    assert listed.builtin_count == len(builtin_words()) == len(listed.builtin)


async def test_concurrent_penalties_are_all_counted(world: World) -> None:
    import asyncio

    prepared, announce = await world.start(guesser=PLAYERS[0], answerer=PLAYERS[1])
    await asyncio.gather(
        *(world.say(prepared, announce, prepared.answerer, f"hmm {i}", 1_000 + i) for i in range(5))
    )
    rnd = await world.round(prepared.round_id)
    assert rnd.penalties == 5
    contents = sorted(r.payload["content"].split("(")[-1] for r in await world.outbox())
    assert contents == ["1).", "2).", "3).", "4).", "5)."]


async def test_two_hosts_starting_at_once_get_one_round(world: World) -> None:
    import asyncio

    attempts = await asyncio.gather(
        world.prepare(guesser=PLAYERS[0], answerer=PLAYERS[1]),
        world.prepare(host=PLAYERS[4], guesser=PLAYERS[2], answerer=PLAYERS[3]),
        return_exceptions=True,
    )
    assert sum(isinstance(a, PreparedRound) for a in attempts) == 1
    assert (
        sum(isinstance(a, InvalidInputError) and "already running" in str(a) for a in attempts) == 1
    )
