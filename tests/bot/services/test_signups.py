"""The one sign-up mechanism on a real SQLite file and on PostgreSQL: places in
order, a waiting list that moves up, the refusals, check-in, and two joins at once."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace

import pytest

from bot.db.uow import UnitOfWork
from bot.errors import InvalidInputError
from bot.services import signups
from bot.services.transactions import transact

GUILD = 1


async def _list(factory, clock, *, capacity=None, team_size=1, owner_id=7) -> int:
    async with UnitOfWork(factory) as uow:
        await uow.guilds.ensure(GUILD, "Library Club")
        for user in range(100, 120):
            await uow.players.ensure(user, f"member {user}")
        row = await signups.open_list(
            uow,
            guild_id=GUILD,
            owner_kind="tournament",
            owner_id=owner_id,
            capacity=capacity,
            team_size=team_size,
            now=clock(),
        )
        await uow.commit()
        return row.id


async def _join(factory, clock, user_id, **kwargs) -> signups.Entrant:
    async def work(uow: UnitOfWork) -> signups.Entrant:
        lst = await signups.list_for(uow, "tournament", 7)
        return await signups.join(
            uow, lst, user_id=user_id, what="the tournament", now=clock(), **kwargs
        )

    return await transact(SimpleNamespace(uow=lambda: UnitOfWork(factory)), work)


async def _roster(factory) -> signups.Roster:
    async with UnitOfWork(factory) as uow:
        return await signups.roster(uow, await signups.list_for(uow, "tournament", 7))


async def test_the_first_capacity_entries_are_in_and_the_rest_wait(session_factory, clock) -> None:
    await _list(session_factory, clock, capacity=2)
    first = await _join(session_factory, clock, 100)
    pair = await _join(session_factory, clock, 101, partner_id=102)
    third = await _join(session_factory, clock, 103)
    assert (first.place, first.waiting) == (1, False)
    assert (pair.place, pair.members, pair.waiting) == (2, (101, 102), False)
    assert (third.place, third.waiting) == (3, True)
    roster = await _roster(session_factory)
    assert [e.user_id for e in roster.playing] == [100, 101]
    assert [e.user_id for e in roster.waiting] == [103]
    assert roster.members == (100, 101, 102)


async def test_a_withdrawal_moves_the_first_waiting_entry_up(session_factory, clock) -> None:
    await _list(session_factory, clock, capacity=2)
    for user in (100, 101, 102, 103):
        await _join(session_factory, clock, user)
    async with UnitOfWork(session_factory) as uow:
        lst = await signups.list_for(uow, "tournament", 7)
        gone = await signups.withdraw(uow, lst, user_id=101, now=clock())
        await uow.commit()
    assert gone.entrant.user_id == 101
    assert [(e.user_id, e.place, e.waiting) for e in gone.moved_up] == [(102, 2, False)]
    roster = await _roster(session_factory)
    assert [(e.user_id, e.waiting) for e in roster.entrants] == [
        (100, False),
        (102, False),
        (103, True),
    ]
    # A waiting entry leaving moves nobody up.
    async with UnitOfWork(session_factory) as uow:
        lst = await signups.list_for(uow, "tournament", 7)
        gone = await signups.withdraw(uow, lst, user_id=103, now=clock())
        await uow.commit()
    assert gone.moved_up == ()


async def test_a_pair_withdraws_together_when_the_partner_withdraws(session_factory, clock) -> None:
    await _list(session_factory, clock)
    await _join(session_factory, clock, 100, partner_id=101)
    async with UnitOfWork(session_factory) as uow:
        lst = await signups.list_for(uow, "tournament", 7)
        gone = await signups.withdraw(uow, lst, user_id=101, now=clock())
        await uow.commit()
    assert gone.entrant.members == (100, 101)
    assert (await _roster(session_factory)).entrants == ()


@pytest.mark.parametrize(
    ("user", "partner", "message"),
    [
        (100, None, r"You are already signed up for the tournament \(place 1\)"),
        (101, None, r"You are already signed up for the tournament \(place 1\)"),
        (102, 101, r"\*\*Partner\*\* is already signed up for the tournament \(place 1\)"),
    ],
)
async def test_a_member_already_on_the_list_is_refused_and_nothing_changes(
    session_factory, clock, user, partner, message
) -> None:
    await _list(session_factory, clock)
    await _join(session_factory, clock, 100, partner_id=101)
    with pytest.raises(InvalidInputError, match=message):
        await _join(session_factory, clock, user, partner_id=partner, partner_name="Partner")
    assert len((await _roster(session_factory)).entrants) == 1


async def test_a_moderator_naming_a_member_twice_is_told_the_name(session_factory, clock) -> None:
    await _list(session_factory, clock)
    await _join(session_factory, clock, 100)
    with pytest.raises(InvalidInputError, match=r"\*\*Ana\*\* is already signed up"):
        await _join(session_factory, clock, 100, added_by=999, user_name="Ana")


async def test_a_closed_list_and_a_full_list_without_waiting_refuse(session_factory, clock) -> None:
    await _list(session_factory, clock, capacity=1)
    await _join(session_factory, clock, 100)
    with pytest.raises(InvalidInputError, match="is full \\(1 places\\) and has no waiting"):
        await _join(session_factory, clock, 101, waiting=False)
    async with UnitOfWork(session_factory) as uow:
        await signups.close(uow, await signups.list_for(uow, "tournament", 7))
        await uow.commit()
    with pytest.raises(InvalidInputError, match="Sign-ups for the tournament are closed"):
        await _join(session_factory, clock, 101)
    assert [e.user_id for e in (await _roster(session_factory)).entrants] == [100]


async def test_a_pairs_list_needs_a_partner_or_a_request_for_one(session_factory, clock) -> None:
    await _list(session_factory, clock, team_size=2)
    with pytest.raises(InvalidInputError, match="is for pairs: name your partner"):
        await _join(session_factory, clock, 100)
    with pytest.raises(InvalidInputError, match="must be someone else"):
        await _join(session_factory, clock, 100, partner_id=100)
    looking = await _join(session_factory, clock, 100, wants_partner=True)
    assert looking.wants_partner and looking.partner_id is None


async def test_withdrawing_when_not_on_the_list_is_refused(session_factory, clock) -> None:
    await _list(session_factory, clock)
    async with UnitOfWork(session_factory) as uow:
        lst = await signups.list_for(uow, "tournament", 7)
        with pytest.raises(InvalidInputError, match="You are not signed up for the tournament"):
            await signups.withdraw(uow, lst, user_id=100, what="the tournament", now=clock())


async def test_check_in_keeps_the_first_time(session_factory, clock) -> None:
    await _list(session_factory, clock)
    await _join(session_factory, clock, 100, partner_id=101)
    first = clock()
    async with UnitOfWork(session_factory) as uow:
        lst = await signups.list_for(uow, "tournament", 7)
        entrant = await signups.check_in(uow, lst, user_id=101, now=first)
        await uow.commit()
    assert entrant.checked_in
    clock.advance(seconds=60)
    async with UnitOfWork(session_factory) as uow:
        lst = await signups.list_for(uow, "tournament", 7)
        await signups.check_in(uow, lst, user_id=100, now=clock())
        rows = await uow.signups.entries(lst.id)
        assert rows[0].checked_in_at == first


async def test_two_joins_at_once_of_one_member_store_one_entry(session_factory, clock) -> None:
    await _list(session_factory, clock)
    outcomes = await asyncio.gather(
        *(_join(session_factory, clock, 100) for _ in range(4)), return_exceptions=True
    )
    stored = [o for o in outcomes if isinstance(o, signups.Entrant)]
    refused = [o for o in outcomes if isinstance(o, InvalidInputError)]
    assert len(stored) == 1 and len(refused) == 3, outcomes
    assert [e.user_id for e in (await _roster(session_factory)).entrants] == [100]


async def test_many_members_joining_at_once_all_get_distinct_places(session_factory, clock) -> None:
    await _list(session_factory, clock, capacity=5)
    entrants = await asyncio.gather(*(_join(session_factory, clock, 100 + i) for i in range(8)))
    assert sorted(e.place for e in entrants) == list(range(1, 9))
    roster = await _roster(session_factory)
    assert len(roster.playing) == 5 and len(roster.waiting) == 3
    by_place = sorted(entrants, key=lambda e: e.place)
    assert roster.members == tuple(e.user_id for e in by_place[:5])


async def test_each_owner_has_one_list(session_factory, clock) -> None:
    await _list(session_factory, clock)
    with pytest.raises(Exception, match=r"(?i)unique|duplicate"):
        await _list(session_factory, clock)


async def test_join_all_enters_many_in_order_after_those_there_and_refuses_a_member_twice(
    session_factory, clock
) -> None:
    await _list(session_factory, clock)
    await _join(session_factory, clock, 100)
    async with UnitOfWork(session_factory) as uow:
        lst = await signups.list_for(uow, "tournament", 7)
        await signups.join_all(
            uow, lst, [(101, None), (102, 103), (104, None)], added_by=1, now=clock()
        )
        await uow.commit()
    roster = await _roster(session_factory)
    assert [e.members for e in roster.entrants] == [(100,), (101,), (102, 103), (104,)]
    async with UnitOfWork(session_factory) as uow:
        lst = await signups.list_for(uow, "tournament", 7)
        with pytest.raises(ValueError, match="already on list"):
            await signups.join_all(uow, lst, [(105, None), (103, None)], added_by=1, now=clock())
    assert len((await _roster(session_factory)).entrants) == 4  # nothing written
