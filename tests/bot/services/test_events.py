"""Games events on a real SQLite file and on PostgreSQL: bad input is refused
privately and changes nothing, two hosts acting at once apply once, and a Boggle
round played in pairs judges one list per pair (the partner who sent last)."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import func, select

from bot.db.models import OutboxRecord
from bot.db.models_boggle import BoggleSubmissionRecord
from bot.db.models_events import GamesEventRoundRecord
from bot.db.models_henyo import HenyoEventRecord, HenyoTeamRecord
from bot.errors import ClubError, InvalidInputError, NotFoundError, PermissionDeniedError
from bot.services.boggle.pairs import pair_choice
from bot.services.events.service import EventService, Member
from bot.services.events.snapshots import EventStandings, Unfinished

GUILD, CHANNEL = 1, 50
HOST = Member(10, "Ms. Keith")
PEOPLE = [Member(100 + i, f"member {i}") for i in range(8)]


async def _opened(ctx, games: str = "henyo boggle", pairs: int = 2) -> EventService:
    service = EventService(ctx)
    await service.entry.open(
        guild_id=GUILD,
        guild_name="Library",
        channel_id=CHANNEL,
        host=HOST,
        is_moderator=True,
        games=games,
        pairs=pairs,
    )
    return service


async def _register(service: EventService, a: Member, b: Member):
    return await service.entry.register(
        guild_id=GUILD, channel_id=CHANNEL, ref=None, user=a, partner=b
    )


async def _count(ctx, model, *where) -> int:
    async with ctx.reader() as uow:
        stmt = select(func.count()).select_from(model)
        for clause in where:
            stmt = stmt.where(clause)
        return int((await uow.session.execute(stmt)).scalar_one())


async def test_bad_input_gets_a_clear_refusal_and_changes_nothing(ctx) -> None:
    service = await _opened(ctx)
    first = await _register(service, PEOPLE[0], PEOPLE[1])
    assert (first.pair.place, first.pair.waiting) == (1, False)
    with pytest.raises(InvalidInputError, match="already signed up"):
        await _register(service, PEOPLE[1], PEOPLE[2])
    with pytest.raises(InvalidInputError, match="partner must be someone else"):
        await _register(service, PEOPLE[2], PEOPLE[2])
    await _register(service, PEOPLE[2], PEOPLE[3])
    third = await _register(service, PEOPLE[4], PEOPLE[5])  # the event is full: it waits
    assert (third.pair.place, third.pair.waiting) == (1, True)
    with pytest.raises(InvalidInputError, match="not signed up"):
        await service.entry.withdraw(
            guild_id=GUILD, channel_id=CHANNEL, ref=None, user_id=PEOPLE[7].id
        )
    with pytest.raises(PermissionDeniedError, match="Only the host"):
        await service.running.start_round(
            guild_id=GUILD,
            guild_name="Library",
            channel_id=CHANNEL,
            ref=None,
            user_id=PEOPLE[0].id,
            is_moderator=False,
            game="henyo",
        )
    with pytest.raises(InvalidInputError, match="not one of this event's games"):
        await service.running.start_round(
            guild_id=GUILD,
            guild_name="Library",
            channel_id=CHANNEL,
            ref=None,
            user_id=HOST.id,
            is_moderator=False,
            game="chess",
        )
    with pytest.raises(InvalidInputError, match="not one of this event's games"):
        await service.running.prize(
            guild_id=GUILD,
            channel_id=CHANNEL,
            ref=None,
            user_id=HOST.id,
            is_moderator=False,
            game="scrabble",
            place=1,
            text="A dictionary",
        )
    with pytest.raises(NotFoundError, match="no games event #99"):
        await service.reading.standings(guild_id=GUILD, channel_id=CHANNEL, ref=99)
    with pytest.raises(PermissionDeniedError, match="Only moderators"):
        await EventService(ctx).entry.open(
            guild_id=GUILD,
            guild_name="Library",
            channel_id=CHANNEL + 1,
            host=PEOPLE[0],
            is_moderator=False,
        )
    standings = await service.reading.standings(guild_id=GUILD, channel_id=CHANNEL, ref=None)
    assert [p.names for p in standings.event.playing] == [
        ("member 0", "member 1"),
        ("member 2", "member 3"),
    ]
    assert [p.names for p in standings.event.waiting] == [("member 4", "member 5")]
    assert await _count(ctx, GamesEventRoundRecord) == 0


async def test_a_withdrawal_moves_the_waiting_pair_up_and_tells_both_partners(ctx) -> None:
    service = await _opened(ctx)
    for a, b in ((0, 1), (2, 3), (4, 5)):
        await _register(service, PEOPLE[a], PEOPLE[b])
    gone = await service.entry.withdraw(
        guild_id=GUILD, channel_id=CHANNEL, ref=None, user_id=PEOPLE[3].id
    )
    assert [(p.names, p.place) for p in gone.moved_up] == [(("member 4", "member 5"), 2)]
    dms = await _count(ctx, OutboxRecord, OutboxRecord.target_kind == "user")
    assert dms == 2
    async with ctx.reader() as uow:
        rows = (
            await uow.session.execute(
                select(OutboxRecord).where(OutboxRecord.target_kind == "user")
            )
        ).scalars()
        assert {r.target_id for r in rows} == {PEOPLE[4].id, PEOPLE[5].id}


async def test_two_hosts_starting_the_henyo_round_at_once_start_it_once(ctx) -> None:
    service = await _opened(ctx)
    await _register(service, PEOPLE[0], PEOPLE[1])
    await _register(service, PEOPLE[2], PEOPLE[3])

    async def start(user_id: int):
        return await service.running.start_round(
            guild_id=GUILD,
            guild_name="Library",
            channel_id=CHANNEL,
            ref=None,
            user_id=user_id,
            is_moderator=True,
            game="henyo",
        )

    outcomes = await asyncio.gather(start(HOST.id), start(PEOPLE[7].id), return_exceptions=True)
    started = [o for o in outcomes if not isinstance(o, BaseException)]
    refused = [o for o in outcomes if isinstance(o, BaseException)]
    assert len(started) == 1 and len(refused) == 1
    assert isinstance(refused[0], ClubError), refused[0]
    assert await _count(ctx, GamesEventRoundRecord) == 1
    assert await _count(ctx, HenyoEventRecord) == 1
    async with ctx.reader() as uow:
        teams = (await uow.session.execute(select(HenyoTeamRecord))).scalars().all()
        assert [(t.guesser_id, t.answerer_id) for t in teams] == [
            (PEOPLE[0].id, PEOPLE[1].id),
            (PEOPLE[2].id, PEOPLE[3].id),
        ]
    with pytest.raises(InvalidInputError, match="registration is over"):
        await _register(service, PEOPLE[4], PEOPLE[5])


async def test_closing_waits_for_the_host_s_confirmation_and_closes_once(ctx) -> None:
    service = await _opened(ctx)
    await _register(service, PEOPLE[0], PEOPLE[1])
    await _register(service, PEOPLE[2], PEOPLE[3])

    async def close(confirmed: bool):
        return await service.closing.close(
            guild_id=GUILD,
            channel_id=CHANNEL,
            ref=None,
            user_id=HOST.id,
            is_moderator=False,
            confirmed=confirmed,
        )

    unfinished = await close(False)
    assert isinstance(unfinished, Unfinished) and unfinished.games == ("henyo", "boggle")
    outcomes = await asyncio.gather(close(True), close(True), return_exceptions=True)
    closed = [o for o in outcomes if isinstance(o, EventStandings)]
    assert len(closed) == 1, outcomes
    assert any(isinstance(o, ClubError) for o in outcomes), outcomes
    finals = await _count(ctx, OutboxRecord, OutboxRecord.target_kind == "channel")
    assert finals == 1  # one final post (the sign-up card is the cog's to post)


def _list(player: int, *sent: tuple[int, str]) -> BoggleSubmissionRecord:
    base = datetime(2026, 12, 5, 2, 0, tzinfo=UTC)
    entries = [
        {"id": str(i), "at": (base + timedelta(seconds=s)).isoformat(), "via": "dm", "text": t}
        for i, (s, t) in enumerate(sent)
    ]
    return BoggleSubmissionRecord(
        round_id=1,
        player_id=player,
        entries=entries,
        words=[w for _s, t in sent for w in t.split()],
        first_at=base,
        last_at=base,
        last_source_id=1,
    )


def test_a_pair_s_list_is_the_one_its_partner_sent_last_before_the_end() -> None:
    ends = datetime(2026, 12, 5, 2, 3, tzinfo=UTC)
    lists = [
        _list(1, (10, "toucan")),
        _list(2, (20, "convey"), (200, "canoe")),  # 200 s is after the end: 20 s counts
        _list(3, (30, "civet")),
        _list(4, (30, "covet")),  # the same instant as 3: the first member keeps it
        _list(5, (5, "naive")),  # not in a pair: not judged
        _list(7, (500, "envoy")),  # only late words: the pair has no list
    ]
    chosen = pair_choice(lists, [[1, 2], [3, 4], [6, 7]], ends)
    assert {lead: s.player_id for lead, s in chosen.items()} == {1: 2, 3: 3}
