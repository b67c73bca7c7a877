"""Henyo's strict mode (migration 0011): a club's events and rounds of revision
0010 come through unchanged and not strict, so polite replies are allowed in
them from now on; the bot then stores strict events and rounds; and back."""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import inspect, select, text

from bot.db import migrate
from bot.db.engine import create_engine, create_session_factory
from bot.db.migrate import downgrade_to, head_revision, upgrade_to_head
from bot.db.models_henyo import HenyoEventRecord, HenyoRoundRecord
from bot.services.henyo import HenyoService, Member
from tests.clock import FakeClock
from tests.conftest import make_service_context

CLUB, EVENT, ROUND, CHANNEL = 1, 7, 41, 207
WHEN = datetime(2026, 12, 1, 18, 0)  # naive: as the rows were written


async def _club_at_0010(conn) -> None:
    await conn.execute(
        text(
            "INSERT INTO guilds (id, name, timezone, settings, created_at, updated_at)"
            " VALUES (:id, 'Library', 'UTC', '{}', :at, :at)"
        ),
        {"id": CLUB, "at": WHEN},
    )
    for player, name in ((10, "ana"), (11, "ben"), (99, "host")):
        await conn.execute(
            text("INSERT INTO players (id, display_name, updated_at) VALUES (:id, :name, :at)"),
            {"id": player, "name": name, "at": WHEN},
        )
    await conn.execute(
        text(
            "INSERT INTO henyo_events (id, guild_id, channel_id, host_id, status, pairs,"
            " time_limit_ms, penalty_ms, categories, language, version, created_at)"
            " VALUES (:id, :guild, :channel, 99, 'open', 3, 90000, 4000, '[]', 'fil', 2, :at)"
        ),
        {"id": EVENT, "guild": CLUB, "channel": CHANNEL, "at": WHEN},
    )
    await conn.execute(  # 0010 gave every event its sign-up list
        text(
            "INSERT INTO signup_lists (guild_id, owner_kind, owner_id, capacity, team_size,"
            " status, version, created_at) VALUES (:guild, 'henyo', :event, 3, 2, 'open', 1,"
            " :at)"
        ),
        {"guild": CLUB, "event": EVENT, "at": WHEN},
    )
    await conn.execute(
        text(
            "INSERT INTO henyo_rounds (id, guild_id, channel_id, event_id, stage, host_id,"
            " guesser_id, answerer_id, word, word_key, word_source, status, time_limit_ms,"
            " penalty_ms, penalties, final_ms, version, created_at) VALUES (:id, :guild,"
            " :channel, :event, 0, 99, 10, 11, 'Aklatan', 'aklatan', 'bank', 'guessed',"
            " 90000, 4000, 2, 31000, 3, :at)"
        ),
        {"id": ROUND, "guild": CLUB, "channel": CHANNEL, "event": EVENT, "at": WHEN},
    )
    if conn.dialect.name == "postgresql":  # the rows came with their ids
        for table, last in (("henyo_events", EVENT), ("henyo_rounds", ROUND)):
            await conn.execute(text(f"SELECT setval('{table}_id_seq', {last})"))


async def test_old_henyo_events_and_rounds_are_kept_and_not_strict(database_url: str) -> None:
    engine = create_engine(database_url)
    try:
        await migrate._run(engine, "upgrade", "0010_henyo_signups")
        async with engine.begin() as conn:
            await _club_at_0010(conn)

        assert await upgrade_to_head(engine) == head_revision()
        factory = create_session_factory(engine)
        async with factory() as session:
            event = await session.get(HenyoEventRecord, EVENT)
            rnd = await session.get(HenyoRoundRecord, ROUND)
            assert event is not None and rnd is not None
            assert (event.pairs, event.time_limit_ms, event.penalty_ms, event.language) == (
                3,
                90000,
                4000,
                "fil",
            )
            assert (rnd.status, rnd.penalties, rnd.final_ms, rnd.word) == (
                "guessed",
                2,
                31000,
                "Aklatan",
            )
            assert event.strict is False and rnd.strict is False

        # The bot opens a strict event beside the old one and reads both.
        clock = FakeClock(datetime(2026, 12, 6, 19, 0, tzinfo=UTC))
        svc = HenyoService(make_service_context(factory, clock, lexicon="default"))
        new = await svc.events.open(
            guild_id=CLUB,
            guild_name="Library",
            channel_id=CHANNEL + 1,
            host=Member(99, "host"),
            strict=True,
        )
        assert new.strict is True
        assert (await svc.events.get(EVENT)).strict is False
        async with factory() as session:
            stored = await session.execute(select(HenyoEventRecord.id, HenyoEventRecord.strict))
            assert {event_id: strict for event_id, strict in stored} == {EVENT: False, new.id: True}

        # And back: 0010's tables, without the column, rows kept.
        await downgrade_to(engine, "0010_henyo_signups")
        async with engine.connect() as conn:
            for table in ("henyo_events", "henyo_rounds"):
                columns = await conn.run_sync(
                    lambda c, t=table: {col["name"] for col in inspect(c).get_columns(t)}
                )
                assert "strict" not in columns
            events = await conn.execute(text("SELECT id FROM henyo_events ORDER BY id"))
            assert [r[0] for r in events] == [EVENT, new.id]
            rounds = await conn.execute(text("SELECT id, final_ms FROM henyo_rounds"))
            assert [tuple(r) for r in rounds] == [(ROUND, 31000)]
    finally:
        await engine.dispose()
