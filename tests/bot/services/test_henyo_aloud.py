"""Henyo played aloud: the host's console on a real database (SQLite, and PostgreSQL
with TEST_DATABASE_URL). Press times are the test's clock, so every time is exact."""

from __future__ import annotations

import asyncio

import pytest
from sqlalchemy import select

from bot.db.models import RatingRecord
from bot.db.models_henyo import HenyoPressRecord
from bot.errors import InvalidInputError, PermissionDeniedError
from bot.services.henyo import ConsoleView, PreparedRound
from tests.bot.services import test_henyo
from tests.bot.services.test_henyo import HOST, PLAYERS, World
from tests.leaks import shows_secret

world = test_henyo.world  # the Henyo service tests' world (a fixture)


async def aloud(w: World, **options: object) -> tuple[PreparedRound, ConsoleView]:
    """A round played aloud, announced and waiting for the host's Start."""
    prepared = await w.prepare(referee="host", **options)
    console = await w.svc.host.announce(prepared.round_id, w.flake(w.clock()))
    return prepared, console


async def press(w: World, round_id: int, action: str, version: int | None = None, **kw: object):
    if version is None:
        version = (await w.svc.host.console(round_id, user_id=HOST.id, is_moderator=False)).version
    return await w.svc.host.press(
        round_id,
        user_id=kw.pop("user_id", HOST.id),  # type: ignore[arg-type]
        is_moderator=bool(kw.pop("is_moderator", False)),
        action=action,
        version=version,
    )


async def presses(w: World, round_id: int) -> list[tuple[str, bool]]:
    async with w.factory() as session:
        rows = await session.execute(
            select(HenyoPressRecord)
            .where(HenyoPressRecord.round_id == round_id)
            .order_by(HenyoPressRecord.seq)
        )
        return [(p.action, p.undone) for p in rows.scalars()]


async def test_an_event_can_make_host_refereeing_its_rounds_default(world: World) -> None:
    await world.open(referee="host")
    await world.register(0)
    prepared, console = await aloud(world)
    assert prepared.referee == "host" and console.status == "waiting"
    assert console.can == frozenset({"start", "undo"})  # undo: call it off
    with pytest.raises(InvalidInputError, match="typed"):
        await world.open(referee="loud")


async def test_the_time_is_got_it_minus_start_plus_the_penalties(world: World) -> None:
    prepared, _ = await aloud(world, guesser=PLAYERS[0], answerer=PLAYERS[1], word="kalabaw")
    rid = prepared.round_id
    await press(world, rid, "start")
    world.clock.advance(seconds=7.3)
    await press(world, rid, "penalty")
    world.clock.advance(seconds=4)
    await press(world, rid, "penalty")
    world.clock.advance(seconds=1)
    await press(world, rid, "penalty")
    undone = await press(world, rid, "undo")
    assert undone.console.penalties == 2
    world.clock.advance(seconds=10.2)
    done = await press(world, rid, "got_it")
    assert done.closed is not None and done.console.status == "guessed"
    rnd = await world.round(rid)
    assert (rnd.elapsed_ms, rnd.penalties, rnd.final_ms) == (22_500, 2, 32_500)
    assert await presses(world, rid) == [
        ("start", False),
        ("penalty", False),
        ("penalty", False),
        ("penalty", True),
        ("undo", False),
        ("got_it", False),
    ]
    posts = [r.payload["content"] for r in await world.outbox()]
    assert not any(shows_secret(p, "kalabaw") for p in posts[:-1])  # only the result says it


async def test_a_press_made_on_an_old_version_counts_once(world: World) -> None:
    prepared, console = await aloud(world, guesser=PLAYERS[0], answerer=PLAYERS[1])
    rid = prepared.round_id
    first, second = await asyncio.gather(
        press(world, rid, "start", console.version), press(world, rid, "start", console.version)
    )
    assert sorted([first.counted, second.counted]) == [False, True]
    running = first.console if first.counted else second.console
    again = await press(world, rid, "penalty", running.version)
    retried = await press(world, rid, "penalty", running.version)
    assert again.counted and not retried.counted
    assert retried.console.penalties == 1
    assert [a for a, _ in await presses(world, rid)] == ["start", "penalty"]


async def test_only_the_host_or_a_moderator_presses(world: World) -> None:
    prepared, console = await aloud(world, guesser=PLAYERS[0], answerer=PLAYERS[1])
    with pytest.raises(PermissionDeniedError, match="host"):
        await press(world, prepared.round_id, "start", console.version, user_id=PLAYERS[1].id)
    with pytest.raises(PermissionDeniedError):
        await world.svc.host.console(prepared.round_id, user_id=PLAYERS[0].id, is_moderator=False)
    assert await presses(world, prepared.round_id) == []
    done = await press(
        world, prepared.round_id, "start", console.version, user_id=999, is_moderator=True
    )
    assert done.counted


async def test_a_typed_round_has_no_console(world: World) -> None:
    prepared, _announce = await world.start(guesser=PLAYERS[0], answerer=PLAYERS[1])
    with pytest.raises(InvalidInputError, match="typed in the channel"):
        await press(world, prepared.round_id, "start", 1)


async def test_undoing_got_it_strikes_the_result_off_and_the_round_runs_on(world: World) -> None:
    prepared, _ = await aloud(world, guesser=PLAYERS[0], answerer=PLAYERS[1])
    rid = prepared.round_id
    await press(world, rid, "start")
    world.clock.advance(seconds=20)
    await press(world, rid, "got_it")
    assert len(await world.results()) == 2
    reopened = await press(world, rid, "undo")
    assert reopened.console.status == "running" and reopened.console.final_ms is None
    assert await world.results() == []
    async with world.factory() as session:
        ratings = (await session.execute(select(RatingRecord))).scalars().all()
        assert all(r.games == 0 and r.best_time_ms is None for r in ratings)
    # Still on the clock from the Start: it runs out through the end job.
    world.clock.advance(seconds=103)  # past the 2 minutes from the Start and the grace
    await world.scheduler.run_due()
    assert (await world.round(rid)).status == "timed_out"
    with pytest.raises(InvalidInputError, match="ended by time"):
        await press(world, rid, "undo")


async def test_got_it_after_the_time_limit_is_refused_and_the_timer_ends_the_round(
    world: World,
) -> None:
    prepared, _ = await aloud(world, guesser=PLAYERS[0], answerer=PLAYERS[1])
    rid = prepared.round_id
    await press(world, rid, "start")
    world.clock.advance(seconds=121)
    with pytest.raises(InvalidInputError, match="Time is up"):
        await press(world, rid, "got_it")
    world.clock.advance(seconds=2)
    await world.scheduler.run_due()
    rnd = await world.round(rid)
    assert rnd.status == "timed_out" and rnd.final_ms is None


async def test_coaching_disqualifies_the_pair_and_undo_restores_it(world: World) -> None:
    await world.open(referee="host")
    await world.register(0)
    await world.register(1)
    prepared, _ = await aloud(world)
    rid = prepared.round_id
    await press(world, rid, "start")
    out = await press(world, rid, "coaching")
    assert out.console.status == "disqualified"
    table = await world.svc.standings.show(guild_id=10, channel_id=20)
    assert sorted(r.status for r in table.rows) == ["disqualified", "not_played"]
    back = await press(world, rid, "undo")
    assert back.console.status == "running"
    table = await world.svc.standings.show(guild_id=10, channel_id=20)
    assert all(r.status == "not_played" for r in table.rows)
    # Once the next round has started, the last press can no longer be undone.
    world.clock.advance(seconds=5)
    await press(world, rid, "got_it")
    await aloud(world)
    with pytest.raises(InvalidInputError, match="next round"):
        await press(world, rid, "undo")


async def test_the_screen_shows_the_word_only_when_the_host_turns_it_on(world: World) -> None:
    prepared, _ = await aloud(world, guesser=PLAYERS[0], answerer=PLAYERS[1], word="bangka")
    rid = prepared.round_id
    await press(world, rid, "start")
    world.clock.advance(seconds=12)
    await press(world, rid, "penalty")
    screen = await world.svc.host.screen(rid)
    assert screen.word is None
    assert (screen.running_ms, screen.with_penalties_ms, screen.remaining_ms) == (
        12_000,
        17_000,
        108_000,
    )
    shown = await world.svc.host.show_on_screen(
        rid, user_id=HOST.id, is_moderator=False, shown=True
    )
    assert shown.show_word_on_screen
    assert (await world.svc.host.screen(rid)).word == "bangka"
    assert (await world.round(rid)).show_word_on_screen is True
    await world.svc.host.show_on_screen(rid, user_id=HOST.id, is_moderator=False, shown=False)
    assert (await world.svc.host.screen_in_channel(20)).word is None  # type: ignore[union-attr]


async def test_the_referee_leaves_a_round_played_aloud_alone(world: World) -> None:
    prepared, console = await aloud(world, guesser=PLAYERS[0], answerer=PLAYERS[1])
    await press(world, prepared.round_id, "start", console.version)
    outcome = await world.svc.referee.message(
        channel_id=20,
        message_id=world.flake(world.clock(), 500),
        author_id=PLAYERS[1].id,
        content="siguro",
    )
    assert outcome is not None and outcome.kind == "aloud"
    assert (await world.round(prepared.round_id)).penalties == 0


async def test_undo_before_the_start_calls_the_round_off_and_frees_the_channel(
    world: World,
) -> None:
    prepared, console = await aloud(world, guesser=PLAYERS[0], answerer=PLAYERS[1])
    assert "undo" in console.can
    rid = prepared.round_id
    await press(world, rid, "start")
    await press(world, rid, "undo")  # the Start taken back: waiting again
    off = await press(world, rid, "undo")  # nothing left: the round itself
    assert off.console.status == "cancelled" and off.console.can == frozenset()
    posts = [r.payload["content"] for r in await world.outbox()]
    assert any("called off" in p for p in posts)
    again, _ = await aloud(world, guesser=PLAYERS[0], answerer=PLAYERS[1])
    assert again.round_id != rid
