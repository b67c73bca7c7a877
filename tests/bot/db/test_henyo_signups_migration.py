"""Henyo registrations on the one sign-up list (migration 0010): a club's events of
revision 0009, with pairs playing, withdrawn, disqualified and waiting, and a
round already played, come through with every place, time and round kept."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from sqlalchemy import select, text

from bot.db import migrate
from bot.db.engine import create_engine, create_session_factory
from bot.db.migrate import downgrade_to, head_revision, upgrade_to_head
from bot.db.models_henyo import HenyoRoundRecord, HenyoTeamRecord
from bot.db.models_signups import SignupListRecord, SignupRecord
from bot.services.henyo import HenyoService, Member
from tests.clock import FakeClock
from tests.conftest import make_service_context

CLUB = 1
OPEN_EVENT, CLOSED_EVENT = 7, 8
WHEN = datetime(2026, 11, 30, 18, 0, tzinfo=UTC)
NAMES = {10: "ana", 11: "ben", 12: "cara", 13: "dan", 14: "ela", 15: "fe", 16: "gio", 17: "hana"}
# (team id, event, position, guesser, answerer, status, minutes after WHEN, withdrawn after)
TEAMS = [
    (31, OPEN_EVENT, 1, 10, 11, "disqualified", 1, None),
    (32, OPEN_EVENT, 2, 12, 13, "withdrawn", 2, 5),
    (33, OPEN_EVENT, 3, 14, 15, "registered", 3, None),
    (34, OPEN_EVENT, 4, 16, 17, "registered", 4, None),
    (35, CLOSED_EVENT, 1, 10, 12, "registered", 0, None),
]


def _at(minutes: int) -> datetime:
    return (WHEN + timedelta(minutes=minutes)).replace(tzinfo=None)


async def _club_at_0009(conn) -> None:
    """The rows as the bot wrote them before Henyo used the sign-up lists."""
    await conn.execute(
        text(
            "INSERT INTO guilds (id, name, timezone, settings, created_at, updated_at)"
            " VALUES (:id, 'Library', 'UTC', '{}', :at, :at)"
        ),
        {"id": CLUB, "at": _at(0)},
    )
    for player, name in NAMES.items():
        await conn.execute(
            text("INSERT INTO players (id, display_name, updated_at) VALUES (:id, :name, :at)"),
            {"id": player, "name": name, "at": _at(0)},
        )
    for event, status, pairs in ((OPEN_EVENT, "open", 2), (CLOSED_EVENT, "closed", 5)):
        await conn.execute(
            text(
                "INSERT INTO henyo_events (id, guild_id, channel_id, host_id, status, pairs,"
                " time_limit_ms, penalty_ms, categories, language, version, created_at)"
                " VALUES (:id, :guild, :channel, 99, :status, :pairs, 120000, 5000, '[]',"
                " 'any', 3, :at)"
            ),
            {
                "id": event,
                "guild": CLUB,
                "channel": 200 + event,
                "status": status,
                "pairs": pairs,
                "at": _at(0),
            },
        )
    for team, event, position, guesser, answerer, status, minutes, withdrawn in TEAMS:
        await conn.execute(
            text(
                "INSERT INTO henyo_teams (id, event_id, position, guesser_id, answerer_id,"
                " status, registered_at, withdrawn_at) VALUES (:id, :event, :position,"
                " :guesser, :answerer, :status, :at, :withdrawn)"
            ),
            {
                "id": team,
                "event": event,
                "position": position,
                "guesser": guesser,
                "answerer": answerer,
                "status": status,
                "at": _at(minutes),
                "withdrawn": _at(withdrawn) if withdrawn is not None else None,
            },
        )
    # The disqualified pair's round, and what happened in it.
    await conn.execute(
        text(
            "INSERT INTO henyo_rounds (id, guild_id, channel_id, event_id, team_id, stage,"
            " host_id, guesser_id, answerer_id, word, word_key, word_source, status,"
            " time_limit_ms, penalty_ms, penalties, version, created_at) VALUES (41, :guild,"
            " :channel, :event, 31, 0, 99, 10, 11, 'Aklatan', 'aklatan', 'bank',"
            " 'disqualified', 120000, 5000, 0, 2, :at)"
        ),
        {"guild": CLUB, "channel": 200 + OPEN_EVENT, "event": OPEN_EVENT, "at": _at(6)},
    )
    await conn.execute(
        text(
            "INSERT INTO henyo_round_events (round_id, source_id, user_id, kind, at, elapsed_ms)"
            " VALUES (41, 1234, 11, 'penalty', :at, 800)"
        ),
        {"at": _at(6)},
    )
    if conn.dialect.name == "postgresql":  # the rows came with their ids
        for table, last in (("henyo_events", 8), ("henyo_teams", 35), ("henyo_rounds", 41)):
            await conn.execute(text(f"SELECT setval('{table}_id_seq', {last})"))


async def test_henyo_registrations_move_onto_sign_up_lists_with_places_times_and_rounds(
    database_url: str,
) -> None:
    engine = create_engine(database_url)
    try:
        await migrate._run(engine, "upgrade", "0009_events")
        async with engine.begin() as conn:
            await _club_at_0009(conn)

        assert await upgrade_to_head(engine) == head_revision()
        factory = create_session_factory(engine)
        async with factory() as session:
            lists = {
                row.owner_id: row
                for row in (await session.execute(select(SignupListRecord))).scalars()
                if row.owner_kind == "henyo"
            }
            assert {k: (v.capacity, v.team_size, v.status) for k, v in lists.items()} == {
                OPEN_EVENT: (2, 2, "open"),
                CLOSED_EVENT: (5, 2, "closed"),
            }
            entries = {
                (row.list_id, row.position): row
                for row in (await session.execute(select(SignupRecord))).scalars()
            }
            teams = {t.id: t for t in (await session.execute(select(HenyoTeamRecord))).scalars()}
            for team, event, position, guesser, answerer, status, minutes, withdrawn in TEAMS:
                entry = entries[(lists[event].id, position)]
                assert teams[team].signup_id == entry.id
                assert (teams[team].guesser_id, teams[team].answerer_id) == (guesser, answerer)
                assert (entry.user_id, entry.partner_id) == (guesser, answerer)
                assert teams[team].status == (
                    "disqualified" if status == "disqualified" else "registered"
                )
                assert entry.status == ("withdrawn" if status == "withdrawn" else "entered")
                assert entry.created_at.replace(tzinfo=None) == _at(minutes)
                if withdrawn is None:
                    assert entry.withdrawn_at is None
                else:
                    assert entry.withdrawn_at is not None
                    assert entry.withdrawn_at.replace(tzinfo=None) == _at(withdrawn)
            assert len(entries) == len(TEAMS)
            # The rebuilt pairs table took no round with it.
            rnd = await session.get(HenyoRoundRecord, 41)
            assert rnd is not None and rnd.team_id == 31
            kept = await session.execute(text("SELECT count(*) FROM henyo_round_events"))
            assert kept.scalar_one() == 1

        # The bot reads the old event as before: the disqualified pair keeps place 1,
        # the withdrawn one is gone, pair 3 plays second and pair 4 waits.
        clock = FakeClock(WHEN + timedelta(hours=1))
        svc = HenyoService(make_service_context(factory, clock, lexicon="default"))
        view = await svc.events.get(OPEN_EVENT)
        assert [(t.id, t.position, t.status, t.number) for t in view.teams] == [
            (31, 1, "disqualified", 1),
            (33, 3, "playing", 2),
            (34, 4, "waiting", 1),
        ]
        # New registrations continue after the old positions; a withdrawal moves pair 4 up.
        later = await svc.events.register(
            guild_id=CLUB,
            guild_name="Library",
            channel_id=200 + OPEN_EVENT,
            user=Member(12, "cara"),
            partner=Member(13, "dan"),
        )
        assert (later.team.position, later.team.status, later.team.number) == (5, "waiting", 2)
        out = await svc.events.withdraw(guild_id=CLUB, channel_id=200 + OPEN_EVENT, user_id=15)
        assert out.moved_up is not None and (out.moved_up.id, out.moved_up.number) == (34, 2)

        # And back: 0009's columns hold the positions, times and withdrawals again.
        await downgrade_to(engine, "0009_events")
        async with engine.connect() as conn:
            rows = await conn.execute(
                text("SELECT id, position, status FROM henyo_teams ORDER BY id")
            )
            assert [tuple(r) for r in rows] == [
                (31, 1, "disqualified"),
                (32, 2, "withdrawn"),
                (33, 3, "withdrawn"),
                (34, 4, "registered"),
                (35, 1, "registered"),
                (36, 5, "registered"),
            ]
            left = await conn.execute(text("SELECT count(*) FROM henyo_rounds WHERE team_id = 31"))
            assert left.scalar_one() == 1
    finally:
        await engine.dispose()
