"""Games made at the same moment take the guild's next numbers, one each, and
members' numbers (not ids) are what the resolver reads and autocomplete offers."""

from __future__ import annotations

import asyncio
import random

import pytest
from sqlalchemy.exc import IntegrityError

from bot.db.repositories.common import GameRepository
from bot.errors import NotFoundError
from bot.services import ServiceContext
from bot.services.chess import ChessService, PlayerRef
from bot.services.scrabble import ScrabbleService
from tests.bot.services.scrabble_support import BOB, CAROL, DAVE, GUILD, request

ANA, BEN, CY, DEE = (
    PlayerRef(i, n) for i, n in ((1, "Alice"), (2, "Bob"), (3, "Carol"), (4, "Dave"))
)


async def _members_known(ctx: ServiceContext) -> None:
    """The club and its members are stored already (as after their first game), so
    the two creations meet only on the game's number."""
    async with ctx.uow() as uow:
        await uow.guilds.ensure(GUILD, "Club")
        for member in (ANA, BEN, CY, DEE):
            await uow.players.ensure(member.user_id, member.name)
        await uow.commit()


def _chess(ctx: ServiceContext) -> ChessService:
    return ChessService(ctx, engine=None, rng=random.Random(7))


async def _challenge(service: ChessService, white: PlayerRef, black: PlayerRef) -> tuple[int, int]:
    snap = await service.starting.challenge(
        guild_id=GUILD,
        guild_name="Club",
        channel_id=20,
        challenger=white,
        opponent=black,
        time_control="3d",
        color="white",
    )
    return snap.game_id, snap.number


@pytest.fixture
def collisions(monkeypatch: pytest.MonkeyPatch) -> list[IntegrityError]:
    """Two creations reach their INSERT together where the database lets them
    (PostgreSQL; SQLite's writers queue, so there the wait gives up at once);
    the duplicate numbers refused on the way are collected."""
    barrier = asyncio.Barrier(2)
    refused: list[IntegrityError] = []
    original = GameRepository.add_with_seats
    calls = 0

    async def together(self, game, seats):  # type: ignore[no-untyped-def]
        nonlocal calls
        calls += 1
        if calls <= 2:  # the first attempts meet; retries go at once
            try:
                await asyncio.wait_for(barrier.wait(), timeout=0.5)
            except (TimeoutError, asyncio.BrokenBarrierError):
                pass
        try:
            return await original(self, game, seats)
        except IntegrityError as error:
            refused.append(error)
            raise

    monkeypatch.setattr(GameRepository, "add_with_seats", together)
    return refused


async def test_two_chess_games_made_at_once_take_numbers_one_and_two(
    ctx: ServiceContext, database_url: str, collisions: list[IntegrityError]
) -> None:
    service = _chess(ctx)
    await _members_known(ctx)
    made = await asyncio.gather(_challenge(service, ANA, BEN), _challenge(service, CY, DEE))
    assert sorted(number for _, number in made) == [1, 2]
    if database_url.startswith("postgresql"):
        assert collisions, "the two INSERTs should have met: one took the number first"
    # Each number names its own game.
    for game_id, number in made:
        found = await service.finder.resolve(
            guild_id=GUILD, user_id=0, channel_id=None, ref=f"#{number}"
        )
        assert found == game_id


async def test_two_scrabble_games_made_at_once_take_numbers_one_and_two(
    ctx: ServiceContext,
    service: ScrabbleService,
    database_url: str,
    collisions: list[IntegrityError],
) -> None:
    await _members_known(ctx)
    made = await asyncio.gather(
        service.invitations.create(request(BOB)), service.invitations.create(request(CAROL, DAVE))
    )
    numbers = []
    for outcome in made:
        assert outcome.text.startswith("**Scrabble #"), outcome.text
        numbers.append(int(outcome.text.split("#", 1)[1].split("*", 1)[0]))
    assert sorted(numbers) == [1, 2]
    if database_url.startswith("postgresql"):
        assert collisions


async def test_a_number_means_the_game_of_the_commands_kind(
    ctx: ServiceContext, service: ScrabbleService
) -> None:
    """Scrabble #1 and chess #1 both exist: each command reads its own."""
    scrabble = await service.invitations.create(request(BOB))
    chess = _chess(ctx)
    chess_id, chess_number = await _challenge(chess, ANA, BEN)
    assert (chess_id, chess_number) == (2, 1)  # the club's first chess game, its second game
    assert (
        await chess.finder.resolve(guild_id=GUILD, user_id=ANA.user_id, channel_id=None, ref=1)
        == chess_id
    )
    assert (
        await service.finder.resolve(guild_id=GUILD, user_id=1, channel_id=None, ref="#1")
        == scrabble.game_id
    )
    with pytest.raises(NotFoundError, match="There is no Chess #2 in this server"):
        await chess.finder.resolve(guild_id=GUILD, user_id=ANA.user_id, channel_id=None, ref=2)

    # Autocomplete offers numbers, and what it offers resolves to the same game.
    choices = await chess.finder.choices(guild_id=GUILD, user_id=ANA.user_id, typed="")
    assert [value for _, value in choices] == ["1"]
    assert choices[0][0].startswith("#1 ")
    assert (
        await chess.finder.resolve(
            guild_id=GUILD, user_id=ANA.user_id, channel_id=None, ref=choices[0][1]
        )
        == chess_id
    )
    scrabble_choices = await service.finder.choices(guild_id=GUILD, user_id=1, typed="#1")
    assert [value for _, value in scrabble_choices] == ["1"]
