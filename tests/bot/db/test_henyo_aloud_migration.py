"""Henyo played aloud (migration 0014): a club's events and rounds of revision 0013
come through unchanged, refereed from typed replies and with the word off the
room's screen; a round played aloud is then stored with its presses; and back,
where the presses' table goes and the old rows stay."""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import inspect, text

from bot.db import migrate
from bot.db.engine import create_engine, create_session_factory
from bot.db.migrate import downgrade_to, head_revision, upgrade_to_head
from bot.db.models_henyo import HenyoEventRecord, HenyoRoundRecord
from bot.services.henyo import HenyoService, Member
from tests.bot.db.test_henyo_strict_migration import CHANNEL, CLUB, EVENT, ROUND, _club_at_0010
from tests.clock import FakeClock
from tests.conftest import make_service_context


async def test_old_henyo_rows_are_typed_and_a_round_played_aloud_keeps_its_presses(
    database_url: str,
) -> None:
    engine = create_engine(database_url)
    try:
        await migrate._run(engine, "upgrade", "0010_henyo_signups")
        async with engine.begin() as conn:
            await _club_at_0010(conn)
        await migrate._run(engine, "upgrade", "0013_dm_channels")

        assert await upgrade_to_head(engine) == head_revision()
        factory = create_session_factory(engine)
        async with factory() as session:
            event = await session.get(HenyoEventRecord, EVENT)
            rnd = await session.get(HenyoRoundRecord, ROUND)
            assert event is not None and rnd is not None
            assert (event.referee, rnd.referee, rnd.show_word_on_screen) == (
                "typed",
                "typed",
                False,
            )
            assert (rnd.status, rnd.final_ms) == ("guessed", 31000)

        clock = FakeClock(datetime(2026, 12, 6, 19, 0, tzinfo=UTC))
        svc = HenyoService(make_service_context(factory, clock, lexicon="default"))
        host = Member(99, "host")
        prepared = await svc.rounds.prepare(
            guild_id=CLUB,
            guild_name="Library",
            channel_id=CHANNEL + 1,
            host=host,
            is_moderator=True,
            guesser=Member(10, "ana"),
            answerer=Member(11, "ben"),
            word="kalabaw",
            referee="host",
        )
        console = await svc.host.announce(prepared.round_id, 1_400_000_000_000_000_000)
        started = await svc.host.press(
            prepared.round_id,
            user_id=99,
            is_moderator=False,
            action="start",
            version=console.version,
        )
        assert started.counted and started.console.status == "running"

        await downgrade_to(engine, "0013_dm_channels")
        async with engine.connect() as conn:
            tables = await conn.run_sync(lambda c: set(inspect(c).get_table_names()))
            assert "henyo_presses" not in tables
            for table in ("henyo_events", "henyo_rounds"):
                columns = await conn.run_sync(
                    lambda c, t=table: {col["name"] for col in inspect(c).get_columns(t)}
                )
                assert "referee" not in columns and "show_word_on_screen" not in columns
            rounds = await conn.execute(text("SELECT id, status FROM henyo_rounds ORDER BY id"))
            assert [tuple(r) for r in rounds] == [
                (ROUND, "guessed"),
                (prepared.round_id, "running"),
            ]
    finally:
        await engine.dispose()
