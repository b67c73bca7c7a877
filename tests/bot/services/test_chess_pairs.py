"""Chess between pairs (consulting partners): either partner plays for the side,
both are told of their turn, and both are rated on the side's mean."""

from __future__ import annotations

import io
from datetime import timedelta

import chess.pgn
import pytest

from bot.db.models import OutboxRecord, RatingRecord, ResultRecord
from bot.errors import InvalidInputError, PermissionDeniedError
from bot.services.chess import PlayerRef
from bot.services.results import SeatOutcome, record_game_result
from tests.bot.services.test_chess import ALICE, BOB, CAROL, CHANNEL, GUILD, THREAD, World
from tests.bot.services.test_chess import world as world  # the fixture

DAVE, ERIN = PlayerRef(4, "dave"), PlayerRef(5, "erin")


async def pairs_game(world: World, time: str = "3d") -> int:
    """alice & dave (White) vs bob & carol (Black), everyone accepted, open in THREAD."""
    snap = await world.service.starting.challenge(
        guild_id=GUILD,
        guild_name="Club",
        channel_id=CHANNEL,
        challenger=ALICE,
        opponent=BOB,
        time_control=time,
        color="white",
        partner=DAVE,
        opponent_partner=CAROL,
    )
    for member in (BOB, CAROL, DAVE):
        await world.service.starting.accept(snap.game_id, member)
    await world.service.starting.open_in(snap.game_id, THREAD)
    return snap.game_id


async def test_a_pairs_game_starts_once_everyone_invited_accepts(world: World) -> None:
    snap = await world.service.starting.challenge(
        guild_id=GUILD,
        guild_name="Club",
        channel_id=CHANNEL,
        challenger=ALICE,
        opponent=BOB,
        time_control="3d",
        color="white",
        partner=DAVE,
        opponent_partner=CAROL,
    )
    assert (snap.white.name, snap.black.name) == ("alice & dave", "bob & carol")
    assert set(snap.waiting_for) == {"bob", "carol", "dave"}
    after_bob = await world.service.starting.accept(snap.game_id, BOB)
    assert after_bob.status == "invited" and set(after_bob.waiting_for) == {"carol", "dave"}
    with pytest.raises(InvalidInputError, match="accepted already"):
        await world.service.starting.accept(snap.game_id, BOB)
    await world.service.starting.accept(snap.game_id, CAROL)
    last = await world.service.starting.accept(snap.game_id, DAVE)
    assert last.status == "active" and last.clock is not None and last.waiting_for == ()


async def test_a_member_named_twice_is_refused(world: World) -> None:
    with pytest.raises(InvalidInputError, match="only one place"):
        await world.service.starting.challenge(
            guild_id=GUILD,
            guild_name="Club",
            channel_id=CHANNEL,
            challenger=ALICE,
            opponent=BOB,
            partner=BOB,
        )


async def test_either_partner_moves_and_a_non_partner_is_refused(world: World) -> None:
    game_id = await pairs_game(world)
    await world.service.moves.play(game_id, DAVE.user_id, "e4", reply_channel_id=THREAD)
    await world.service.moves.play(game_id, CAROL.user_id, "e5", reply_channel_id=THREAD)
    await world.service.moves.play(game_id, ALICE.user_id, "Nf3", reply_channel_id=THREAD)
    update = await world.service.moves.play(game_id, BOB.user_id, "Nc6", reply_channel_id=THREAD)
    assert update.snapshot.sans == ["e4", "e5", "Nf3", "Nc6"]
    assert update.headline == "bob played **Nc6**."
    with pytest.raises(PermissionDeniedError, match="not yours"):
        await world.service.moves.play(game_id, ERIN.user_id, "Bb5", reply_channel_id=THREAD)
    # White to move: Black's partners may not move for White.
    with pytest.raises(InvalidInputError):
        await world.service.moves.play(game_id, CAROL.user_id, "Bb5", reply_channel_id=THREAD)
    # The board mentions both partners to move; the PGN names both of each side.
    assert update.snapshot.mention_user_ids() == [ALICE.user_id, DAVE.user_id]
    assert f"<@{ALICE.user_id}> & <@{DAVE.user_id}>" in update.text
    _file, pgn = await world.service.reading.pgn(game_id)
    headers = chess.pgn.read_headers(io.StringIO(pgn))
    assert headers is not None
    assert (headers["White"], headers["Black"]) == ("alice & dave", "bob & carol")


async def test_a_partner_accepts_the_other_sides_draw_offer(world: World) -> None:
    game_id = await pairs_game(world)
    await world.service.moves.play(game_id, ALICE.user_id, "e4", reply_channel_id=THREAD)
    await world.service.endings.draw(game_id, BOB.user_id, "offer", reply_channel_id=THREAD)
    update = await world.service.endings.draw(
        game_id, DAVE.user_id, "accept", reply_channel_id=THREAD
    )
    assert update.snapshot.result == "1/2-1/2"


async def test_both_partners_to_move_get_the_reminder(world: World) -> None:
    game_id = await pairs_game(world)
    world.clock.advance(days=2)
    await world.run_due()
    dms = await world.rows(OutboxRecord, OutboxRecord.target_kind == "user")
    assert sorted(d.target_id for d in dms) == [ALICE.user_id, DAVE.user_id]
    assert all(f"Chess #{game_id}" in d.payload["content"] for d in dms)
    assert all(d.fallback_channel_id == THREAD for d in dms)
    await world.service.moves.play(game_id, DAVE.user_id, "d4", reply_channel_id=THREAD)
    world.clock.advance(days=2, hours=1)
    await world.run_due()
    dms = await world.rows(OutboxRecord, OutboxRecord.target_kind == "user")
    assert sorted(d.target_id for d in dms) == [
        ALICE.user_id,
        BOB.user_id,
        CAROL.user_id,
        DAVE.user_id,
    ]


async def test_a_resignation_rates_every_member_on_the_sides_mean(world: World) -> None:
    game_id = await pairs_game(world)
    await world.service.moves.play(game_id, ALICE.user_id, "e4", reply_channel_id=THREAD)
    update = await world.service.endings.resign(game_id, CAROL.user_id, reply_channel_id=THREAD)
    assert update.snapshot.result == "1-0" and update.headline == "carol resigned."
    results = await world.rows(ResultRecord, ResultRecord.game_id == game_id)
    outcome = {r.player_id: r.outcome for r in results}
    assert outcome == {
        ALICE.user_id: "win",
        DAVE.user_id: "win",
        BOB.user_id: "loss",
        CAROL.user_id: "loss",
    }
    ratings = {r.player_id: r.rating for r in await world.rows(RatingRecord)}
    assert ratings[ALICE.user_id] == pytest.approx(ratings[DAVE.user_id])
    assert ratings[ALICE.user_id] > 1500 > ratings[BOB.user_id]
    assert {c.user_id for c in update.rating_changes} == set(outcome)
    assert "dave 1500 →" in update.text and "carol 1500 →" in update.text
    # The same numbers as the one seat-mean implementation gives for these seats.
    async with world.service.core.ctx.uow() as uow:
        await uow.guilds.ensure(GUILD + 1, "Other club")
        expected = await record_game_result(
            uow,
            guild_id=GUILD + 1,
            kind="chess",
            game_id=None,
            played_at=world.clock(),
            seats=[SeatOutcome(0, [1, 4], rank=0), SeatOutcome(1, [2, 3], rank=1)],
        )
    assert ratings[ALICE.user_id] == pytest.approx(expected[0].after)
    assert ratings[BOB.user_id] == pytest.approx(expected[2].after)


async def test_a_one_sided_pair_still_plays_a_single_member(world: World) -> None:
    snap = await world.service.starting.challenge(
        guild_id=GUILD,
        guild_name="Club",
        channel_id=CHANNEL,
        challenger=ALICE,
        opponent=BOB,
        time_control="1d",
        color="black",
        partner=DAVE,
    )
    assert (snap.white.name, snap.black.name) == ("bob", "alice & dave")
    await world.service.starting.accept(snap.game_id, BOB)
    started = await world.service.starting.accept(snap.game_id, DAVE)
    assert started.status == "active" and started.flag_time() == world.clock() + timedelta(days=1)
    await world.service.moves.play(snap.game_id, BOB.user_id, "e4", reply_channel_id=THREAD)
    await world.service.moves.play(snap.game_id, DAVE.user_id, "c5", reply_channel_id=THREAD)
