"""Achievements (issue #31) on SQLite and PostgreSQL, granted where their events happen,
in the event's transaction: a first bingo on a Scrabble play of all seven tiles, a first
win and 10 games finished when a game's results are recorded; each once per member and
club, announced once, also through a new service on the same database (a restart)."""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import select

from bot.db.models_daily import AchievementRecord
from bot.services import ServiceContext
from bot.services.leaderboard import LeaderboardService
from bot.services.results import SeatOutcome, record_game_result
from bot.services.scrabble import ScrabbleService
from tests.bot.services.scrabble_support import (
    ALICE,
    BOB,
    GUILD,
    Words,
    engine_of,
    make_service,
    posts,
    request,
    seat_member,
    set_racks,
    started,
)
from tests.conftest import make_service_context

CHANNEL = 77


async def achievements_of(ctx: ServiceContext) -> list[tuple[int, str]]:
    async with ctx.uow() as uow:
        rows = (
            await uow.session.execute(select(AchievementRecord).order_by(AchievementRecord.id))
        ).scalars()
        return [(row.player_id, row.code) for row in rows]


async def chess_game(ctx: ServiceContext, winner: int, loser: int) -> None:
    async with ctx.uow() as uow:
        await uow.guilds.ensure(GUILD, "Club")
        for member in (winner, loser):
            await uow.players.ensure(member, f"member{member}")
        await record_game_result(
            uow,
            guild_id=GUILD,
            kind="chess",
            game_id=None,
            seats=[SeatOutcome(0, [winner], rank=0), SeatOutcome(1, [loser], rank=1)],
            played_at=ctx.clock(),
            announce_in=CHANNEL,
        )
        await uow.commit()


async def test_a_first_win_and_ten_games_are_earned_once_and_announced_once(
    ctx: ServiceContext, session_factory
) -> None:
    await chess_game(ctx, ALICE.user_id, BOB.user_id)
    assert await achievements_of(ctx) == [(ALICE.user_id, "first_win")]
    for _ in range(8):
        await chess_game(ctx, ALICE.user_id, BOB.user_id)
    assert await achievements_of(ctx) == [(ALICE.user_id, "first_win")]  # 9 games each
    # A restart: a new context on the same database; the tenth game earns "10 games" for both.
    again = make_service_context(session_factory, ctx.clock)
    await chess_game(again, BOB.user_id, ALICE.user_id)
    assert sorted(await achievements_of(again)) == [
        (ALICE.user_id, "first_win"),
        (ALICE.user_id, "games_10"),
        (BOB.user_id, "first_win"),
        (BOB.user_id, "games_10"),
    ]
    await chess_game(again, BOB.user_id, ALICE.user_id)
    assert len(await achievements_of(again)) == 4
    announced = [p.payload["content"] for p in await posts(again)]
    assert sum("First win" in text for text in announced) == 2
    assert sum("10 games finished" in text for text in announced) == 2
    stats = await LeaderboardService(again).stats(GUILD, BOB.user_id)
    assert [a.code for a in stats.achievements] == ["first_win", "games_10"]


async def bingo(ctx: ServiceContext, service: ScrabbleService, game_id: int) -> tuple[int, int]:
    """The member to move plays RETAINS (all seven tiles); their id and their opponent's."""
    game = await engine_of(ctx, game_id)
    seat = game.current_seat
    await set_racks(ctx, game_id, {seat: "RETAINS"})
    user = await seat_member(ctx, game_id, seat)
    other = await seat_member(ctx, game_id, 1 - seat)
    await service.moves.play(game_id, user, "RETAINS", "8H")
    return user, other


async def bingos_announced(ctx: ServiceContext) -> int:
    return sum("First bingo" in p.payload["content"] for p in await posts(ctx))


async def test_a_play_of_all_seven_tiles_is_a_first_bingo_once_it_can_no_longer_be_challenged(
    ctx: ServiceContext, service: ScrabbleService, words: Words
) -> None:
    game_id = await started(service)
    user, other = await bingo(ctx, service, game_id)
    # Bob may still challenge it: not earned yet.
    assert await achievements_of(ctx) == []
    await service.moves.pass_turn(game_id, other)
    assert await achievements_of(ctx) == [(user, "first_bingo")]
    assert await bingos_announced(ctx) == 1

    # Another bingo in another game, after a restart: not earned or announced again.
    restarted = make_service(ctx, words)
    second = await started(restarted)
    ctx.clock.now += timedelta(minutes=1)
    _, other2 = await bingo(ctx, restarted, second)
    await restarted.moves.pass_turn(second, other2)
    earned = await achievements_of(ctx)
    assert earned.count((user, "first_bingo")) == 1
    assert await bingos_announced(ctx) == len(set(earned))


async def test_a_bingo_challenged_off_the_board_is_neither_earned_nor_announced(
    ctx: ServiceContext, service: ScrabbleService, words: Words
) -> None:
    words.phonies.add("RETAINS")
    game_id = await started(service)
    _, other = await bingo(ctx, service, game_id)
    outcome = await service.moves.challenge(game_id, other)
    assert "RETAINS" in outcome.message
    # The play is off the board.
    game = await engine_of(ctx, game_id)
    assert game.last_play is None
    assert await achievements_of(ctx) == []
    assert await bingos_announced(ctx) == 0


async def test_a_bingo_that_survives_a_challenge_is_earned_at_once(
    ctx: ServiceContext, service: ScrabbleService
) -> None:
    game_id = await started(service)
    user, other = await bingo(ctx, service, game_id)
    await service.moves.challenge(game_id, other)
    assert await achievements_of(ctx) == [(user, "first_bingo")]
    assert await bingos_announced(ctx) == 1


async def test_under_the_void_rule_a_bingo_is_earned_as_it_is_played(
    ctx: ServiceContext, service: ScrabbleService
) -> None:
    game_id = await started(service, request(BOB, challenge="void"))
    user, _ = await bingo(ctx, service, game_id)
    assert await achievements_of(ctx) == [(user, "first_bingo")]
    assert await bingos_announced(ctx) == 1
