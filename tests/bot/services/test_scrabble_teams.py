"""Scrabble seats in any mix (pairs, single players, the computer), the 9-tile
exchange rule, and looking words up, through the service on a real database."""

from __future__ import annotations

import pytest
from sqlalchemy import func, select

from bot.db.models import GameRecord
from bot.errors import InvalidInputError, PermissionDeniedError
from bot.services.scrabble import Member
from engines.scrabble import ScrabbleOptions
from tests.bot.services.scrabble_support import (
    ALICE,
    BOB,
    CAROL,
    DAVE,
    ERIN,
    GUILD,
    THREAD,
    Definitions,
    engine_of,
    make_service,
    outbox,
    posts,
    request,
    rig,
    seat_member,
    started,
)
from tests.engines.scrabble.support import rigged_game

FRANK, GINA, HUGO = Member(6, "Frank"), Member(7, "Gina"), Member(8, "Hugo")
COMPUTER = Member(99, "clubbot", is_bot=True, computer=True)


async def _games(ctx) -> int:
    async with ctx.uow() as uow:
        return (await uow.session.execute(select(func.count()).select_from(GameRecord))).scalar()


async def _seats(ctx, game_id: int) -> dict[int, list[int]]:
    async with ctx.uow() as uow:
        record = await uow.games.get(game_id)
        seats: dict[int, list[int]] = {}
        for row in record.seats:
            seats.setdefault(row.seat, []).append(row.user_id)
        return seats


# -- line-ups ------------------------------------------------------------------------------------


async def test_three_pairs_sit_as_named_and_every_member_is_invited(service, ctx):
    game_id = await started(
        service,
        request(BOB, CAROL, partner=DAVE, opponent_partner=ERIN, opponent2_partner=FRANK),
    )
    assert await _seats(ctx, game_id) == {0: [1, 4], 1: [2, 5], 2: [3, 6]}
    assert (await engine_of(ctx, game_id)).seats == 3


async def test_two_pairs_and_a_single_player_in_any_seat_order(service, ctx):
    game_id = await started(service, request(BOB, CAROL, partner=DAVE, opponent2_partner=ERIN))
    assert await _seats(ctx, game_id) == {0: [1, 4], 1: [2], 2: [3, 5]}
    (listed,) = await service.reading.games_for(GUILD, ALICE.user_id)
    assert " vs Bob, Carol & Erin · " in listed.listed()  # commas part seats, & joins partners


async def test_a_game_waits_for_every_member_of_every_seat(service):
    outcome = await service.invitations.create(
        request(BOB, CAROL, partner=DAVE, opponent_partner=ERIN)
    )
    assert set(outcome.waiting_for) == {"Bob", "Carol", "Dave", "Erin"}
    for member in (BOB, CAROL, DAVE):
        outcome = await service.invitations.accept(outcome.game_id, member.user_id, GUILD)
    assert not outcome.all_accepted and outcome.waiting_for == ("Erin",)
    outcome = await service.invitations.accept(outcome.game_id, ERIN.user_id, GUILD)
    assert outcome.all_accepted


@pytest.mark.parametrize(
    "bad,message",
    [
        (request(BOB, CAROL, partner=BOB), "Bob is named twice"),
        (request(BOB, opponent_partner=ALICE), "Alice is named twice"),
        (request(BOB, CAROL, opponent3_partner=DAVE), "name `opponent3`"),
        (request(BOB, COMPUTER, opponent2_partner=CAROL), "seat of its own"),
    ],
)
async def test_a_line_up_that_can_t_play_is_refused_and_nothing_is_made(service, ctx, bad, message):
    with pytest.raises(InvalidInputError, match=message):
        await service.invitations.create(bad)
    assert await _games(ctx) == 0


async def test_four_pairs_given_as_seats_start_at_once_when_accepted_for_them(service, ctx):
    members = [ALICE, BOB, CAROL, DAVE, ERIN, FRANK, GINA, HUGO]
    seats = [members[i : i + 2] for i in range(0, 8, 2)]
    outcome = await service.invitations.create_seated(request(clock="3m"), seats, accepted=True)
    assert outcome.all_accepted
    await service.invitations.start(outcome.game_id, THREAD)
    game = await engine_of(ctx, outcome.game_id)
    assert game.seats == 4
    # Partners share one rack, each sees it; the first board mentions both partners.
    seat = game.current_seat
    a, b = seats[seat]
    rack_a = await service.reading.rack(outcome.game_id, a.user_id)
    rack_b = await service.reading.rack(outcome.game_id, b.user_id)
    assert rack_a.tiles == rack_b.tiles == game.racks[seat]
    board = (await posts(ctx))[-1].payload
    assert sorted(board["mention_user_ids"]) == [a.user_id, b.user_id]
    # Either partner plays for the pair; the next seat's members are mentioned next.
    await service.moves.pass_turn(outcome.game_id, b.user_id)
    after = await engine_of(ctx, outcome.game_id)
    assert after.current_seat == (seat + 1) % 4
    nxt = seats[after.current_seat]
    board = (await posts(ctx))[-1].payload
    assert sorted(board["mention_user_ids"]) == sorted(m.user_id for m in nxt)


async def test_seats_given_twice_over_are_refused_and_nothing_is_made(service, ctx):
    with pytest.raises(InvalidInputError, match="Carol is named twice"):
        await service.invitations.create_seated(
            request(), [[ALICE, CAROL], [BOB, CAROL]], accepted=True
        )
    with pytest.raises(InvalidInputError, match="2 to 4 seats"):
        await service.invitations.create_seated(request(), [[ALICE, BOB]])
    assert await _games(ctx) == 0


async def test_your_turn_is_told_to_both_partners_by_dm(service, ctx):
    game_id = await started(service, request(BOB, CAROL, partner=DAVE, clock="1d"))
    first = (await engine_of(ctx, game_id)).current_seat
    expected = (await _seats(ctx, game_id))[first]
    dms = [p.target_id for p in await outbox(ctx) if p.target_kind == "user"]
    assert sorted(dms) == sorted(expected)


async def test_the_computer_takes_a_seat_of_its_own_beside_pairs(service, ctx):
    outcome = await service.invitations.create(
        request(BOB, COMPUTER, partner=CAROL, opponent_partner=DAVE)
    )
    assert set(outcome.waiting_for) == {"Bob", "Carol", "Dave"}
    for member in (BOB, CAROL, DAVE):
        outcome = await service.invitations.accept(outcome.game_id, member.user_id, GUILD)
    await service.invitations.start(outcome.game_id, THREAD)
    async with ctx.uow() as uow:
        record = await uow.games.get(outcome.game_id)
        assert record.options["computer_seat"] == 2
    with pytest.raises(PermissionDeniedError):
        await service.reading.rack(outcome.game_id, COMPUTER.user_id)


# -- the 9-tile exchange -----------------------------------------------------------------------------


async def test_a_nine_tile_exchange_with_eight_in_the_bag_is_refused_and_nothing_changes(
    service, ctx
):
    game_id = await started(service, request(BOB, variant="nine_tiles"))
    rigged = rigged_game(
        ScrabbleOptions(rack_size=9, turn_order="fixed"),
        racks=["QVWWKJXZY", "AEIOULNRS"],
        bag="ABCDEFGH",
    )
    await rig(ctx, game_id, rigged)
    user = await seat_member(ctx, game_id, 0)
    async with ctx.uow() as uow:
        version = (await uow.games.get(game_id)).version
    with pytest.raises(InvalidInputError, match="at least 9 tiles; it holds 8"):
        await service.moves.exchange(game_id, user, "QV")
    game = await engine_of(ctx, game_id)
    assert game.racks[0] == "QVWWKJXZY" and game.bag_count == 8 and game.moves == []
    async with ctx.uow() as uow:
        assert (await uow.games.get(game_id)).version == version


# -- looking words up ------------------------------------------------------------------------------------


async def test_check_words_says_which_are_valid_with_a_definition(ctx, words):
    words.phonies.add("QIZ")
    service = make_service(ctx, words, Definitions())
    text = await service.lookups.check_words(
        guild_id=GUILD, user_id=ERIN.user_id, text="qi, QIZ zz x1 <@123> " + "A" * 400
    )
    assert "✅ **QI**: valid. a thing that is tested" in text
    assert "❌ **QIZ**: not in the list" in text
    assert "✅ **ZZ**: valid (no definition at hand)" in text
    assert "➖ **X1**" in text and "<@123>" not in text
    assert len(text) < 2000


async def test_check_words_uses_the_thread_s_game_word_list_or_the_named_one(service, ctx):
    game_id = await started(service, request(BOB))
    async with ctx.uow() as uow:
        number = (await uow.games.get(game_id)).number
    text = await service.lookups.check_words(
        guild_id=GUILD, user_id=ERIN.user_id, text="QI", channel_id=THREAD
    )
    assert f"the word list of Scrabble #{number}" in text
    with pytest.raises(InvalidInputError, match="know that word list"):
        await service.lookups.check_words(
            guild_id=GUILD, user_id=ERIN.user_id, text="QI", word_list="/etc/passwd"
        )
    with pytest.raises(InvalidInputError, match="Give the words"):
        await service.lookups.check_words(guild_id=GUILD, user_id=ERIN.user_id, text=" , ")


async def test_lookups_off_refuse_the_game_s_players_while_it_runs(service, ctx):
    game_id = await started(service, request(BOB, partner=CAROL, lookups=False))
    async with ctx.uow() as uow:
        number = (await uow.games.get(game_id)).number
    for member in (ALICE, BOB, CAROL):
        with pytest.raises(InvalidInputError, match=f"off in Scrabble #{number}"):
            await service.lookups.check_words(guild_id=GUILD, user_id=member.user_id, text="QI")
    # Not a player: the lookup is open, in the game's own list too.
    text = await service.lookups.check_words(
        guild_id=GUILD, user_id=DAVE.user_id, text="QI", game_id=game_id
    )
    assert "✅ **QI**" in text
    # Once it is over, its players may look words up again.
    await service.moves.resign(game_id, BOB.user_id)
    assert "✅ **QI**" in await service.lookups.check_words(
        guild_id=GUILD, user_id=ALICE.user_id, text="QI"
    )


async def test_lookups_off_is_said_with_the_game_s_rules(service):
    outcome = await service.invitations.create(request(BOB, lookups=False))
    assert "word lookups off" in outcome.text
    outcome = await service.invitations.create(request(CAROL))
    assert "lookups" not in outcome.text
