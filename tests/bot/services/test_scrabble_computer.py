"""The move generator in the Scrabble service: the computer's seat, hints,
analysis, and the game that ends when nobody can play (real database)."""

from __future__ import annotations

import random
import re

import pytest
from sqlalchemy import select

from bot.db.models import MoveRecord, RatingRecord, ResultRecord
from bot.errors import InvalidInputError
from bot.services.scrabble import JOB_COMPUTER, LexiconCache, Member, ScrabbleService, ai
from engines.lexicon import load_lexicon
from engines.scrabble import ScrabbleOptions, typed_notation
from engines.scrabble.movegen import MoveGenerator
from tests.bot.services.scrabble_support import (
    ALICE,
    BOB,
    CAROL,
    GUILD,
    THREAD,
    engine_of,
    jobs,
    outbox,
    posts,
    register,
    request,
    rig,
    seat_member,
    started,
)
from tests.conftest import sqlite_write_lock_free
from tests.engines.scrabble.support import rigged_game
from tests.leaks import shows_secret

COMPUTER = Member(99, "clubbot", is_bot=True, computer=True)


@pytest.fixture(scope="module")
def dictionary():
    return load_lexicon("default")


def service_with(ctx, lexicon) -> ScrabbleService:
    service = ScrabbleService(
        ctx,
        rng=random.Random(7),
        lexicons=LexiconCache(lambda name: lexicon),
        definitions=lambda: None,
    )
    register(ctx, service)
    return service


async def against_computer(service, **options) -> int:
    outcome = await service.invitations.create(request(COMPUTER, **options))
    assert outcome.all_accepted and outcome.waiting_for == ()
    await service.invitations.start(outcome.game_id, THREAD)
    return outcome.game_id


async def member_moves(service, ctx, game_id, lexicon) -> None:
    """The member's turn: their best-scoring play (or a pass)."""
    game = await engine_of(ctx, game_id)
    plays = MoveGenerator(lexicon).generate(game.board_copy(), game.racks[0])
    if plays:
        best = max(plays, key=lambda p: p.score)
        await service.moves.play(game_id, ALICE.user_id, best.word, best.position)
    else:
        await service.moves.pass_turn(game_id, ALICE.user_id)


async def computer_moves(ctx, clock) -> None:
    clock.advance(seconds=2)
    outcomes = await ctx.scheduler.run_due()
    assert all(o.ok for o in outcomes), outcomes


async def test_a_game_against_the_computer_starts_at_once_and_the_greedy_computer_plays_its_best(
    ctx, clock, dictionary
):
    service = service_with(ctx, dictionary)
    game_id = await against_computer(service, computer_level="strong")
    game = await engine_of(ctx, game_id)
    if game.current_seat == 0:
        await member_moves(service, ctx, game_id, dictionary)
    before = await engine_of(ctx, game_id)
    assert before.current_seat == 1
    pending = await jobs(ctx)
    assert pending[f"scrabble:{game_id}:computer"].kind == JOB_COMPUTER
    best = max(
        p.score for p in MoveGenerator(dictionary).generate(before.board_copy(), before.racks[1])
    )

    await computer_moves(ctx, clock)
    after = await engine_of(ctx, game_id)
    last = after.moves[-1]
    assert last["type"] == "play" and last["seat"] == 1 and last["score"] == best
    assert after.current_seat == 0
    async with ctx.uow() as uow:
        logged = (
            await uow.session.execute(
                select(MoveRecord.user_id, MoveRecord.seat)
                .where(MoveRecord.game_id == game_id)
                .order_by(MoveRecord.ply)
            )
        ).all()
    assert tuple(logged[-1]) == (COMPUTER.user_id, 1)
    board = (await posts(ctx))[-1].payload["content"]
    assert "**Computer (greedy)** played" in board and "Next: <@1>" in board
    # The computer is never reminded or DM'd, and its rack is never posted.
    assert all(p.target_id != COMPUTER.user_id for p in await outbox(ctx))
    assert not any(shows_secret(p.payload.get("content"), after.racks[1]) for p in await posts(ctx))


class LockProbe:
    """A word list that, while the move generator reads it (building its graph),
    checks whether anyone holds the SQLite database's write lock."""

    def __init__(self, path: str, words: set[str]) -> None:
        self.path, self.words, self.lock_free = path, words, []

    def __contains__(self, word: object) -> bool:
        return isinstance(word, str) and word.upper() in self.words

    def __iter__(self):
        self.lock_free.append(sqlite_write_lock_free(self.path))
        return iter(self.words)


async def test_the_computer_searches_with_no_database_lock_held(ctx, clock, database_url):
    if not database_url.startswith("sqlite"):
        pytest.skip("the write lock is SQLite's")
    words = {"QI", "ZA", "AE", "AA", "OE", "EA", "IT", "TI", "AT", "TA"} | {
        a + b for a in "AEIOU" for b in "NRST"
    }
    lexicon = LockProbe(database_url.split("///", 1)[1], words)
    service = service_with(ctx, lexicon)
    game_id = await against_computer(service)
    game = await engine_of(ctx, game_id)
    if game.current_seat == 0:
        await service.moves.pass_turn(game_id, ALICE.user_id)
    assert not ai.graph_ready(lexicon)
    await computer_moves(ctx, clock)
    game = await engine_of(ctx, game_id)
    assert game.moves[-1]["seat"] == 1 and game.current_seat == 0
    assert lexicon.lock_free == [True]  # the graph was built once, outside every transaction


@pytest.mark.parametrize(
    "options,message",
    [
        (dict(opponents=[BOB], computer_level="strong"), "name me as an opponent"),
        (dict(opponents=[COMPUTER], computer_level="genius"), "casual"),
        (dict(opponents=[BOB], partner=CAROL, opponent_partner=COMPUTER), "pair"),
        (dict(opponents=[Member(98, "otherbot", is_bot=True)]), "Other bots"),
    ],
)
async def test_computer_options_that_make_no_sense_are_refused(ctx, dictionary, options, message):
    service = service_with(ctx, dictionary)
    options = dict(options)
    opponents = options.pop("opponents")
    with pytest.raises(InvalidInputError, match=message):
        await service.invitations.create(request(*opponents, **options))
    assert await jobs(ctx) == {}


async def test_a_computer_playing_through_a_three_seat_game_waits_for_the_members(ctx, dictionary):
    service = service_with(ctx, dictionary)
    outcome = await service.invitations.create(request(BOB, COMPUTER))
    assert not outcome.all_accepted and outcome.waiting_for == ("Bob",)
    outcome = await service.invitations.accept(outcome.game_id, BOB.user_id, GUILD)
    assert outcome.all_accepted


async def test_hints_are_only_for_games_made_with_them_private_and_the_game_is_not_rated(
    ctx, dictionary
):
    service = service_with(ctx, dictionary)
    plain = await started(service, request(BOB))
    member = await seat_member(ctx, plain, 0)
    with pytest.raises(InvalidInputError, match="without hints"):
        await service.computer.hint(plain, member)

    game_id = await started(service, request(BOB, hints=True))
    game = await engine_of(ctx, game_id)
    user = await seat_member(ctx, game_id, game.current_seat)
    posted_before = len(await outbox(ctx))
    text = await service.computer.hint(game_id, user)
    assert (
        len(await outbox(ctx)) == posted_before
    )  # a hint is an answer to one member, never a post
    assert "Hints you have asked for in this game: 1" in text
    assert "in this game: 2" in await service.computer.hint(game_id, user)
    best = MoveGenerator(dictionary).best(
        game.board_copy(),
        game.racks[game.current_seat],
        by="equity",
        bag_count=game.bag_count,
        unseen=game.unseen_tiles(game.current_seat),
    )
    assert f"word:{typed_notation(best.word)} position:{best.position}`" in text.splitlines()[1]
    outcome = await service.moves.play(game_id, user, best.word, best.position)
    assert outcome.message.startswith("You played")

    await service.moves.resign(game_id, user)
    async with ctx.uow() as uow:
        assert (
            await uow.session.execute(select(ResultRecord).where(ResultRecord.game_id == game_id))
        ).first() is None
        assert (await uow.session.execute(select(RatingRecord))).first() is None
    final = (await posts(ctx))[-1].payload["content"]
    assert "Not rated (hints were on)" in final
    hinted, other = ("Alice", "Bob") if user == ALICE.user_id else ("Bob", "Alice")
    assert "Hints used: " in final and f"{hinted} 2" in final and f"{other} 0" in final


async def test_analysis_is_for_finished_games_and_lists_every_turn_beside_the_best(
    ctx, clock, dictionary
):
    service = service_with(ctx, dictionary)
    game_id = await against_computer(service, computer_level="casual")
    with pytest.raises(InvalidInputError, match="isn't finished"):
        await service.computer.analyse(game_id, guild_id=GUILD)
    for _ in range(3):
        game = await engine_of(ctx, game_id)
        if game.current_seat == 0:
            await member_moves(service, ctx, game_id, dictionary)
        await computer_moves(ctx, clock)
    await service.moves.resign(game_id, ALICE.user_id)
    with pytest.raises(Exception):
        await service.computer.analyse(
            game_id, guild_id=GUILD + 1
        )  # another club's game is not found
    message, table = await service.computer.analyse(game_id, guild_id=GUILD)
    game = await engine_of(ctx, game_id)
    turns = [m for m in game.moves if m["type"] in ("play", "exchange", "pass")]
    rows = [line for line in table.splitlines() if line[:3].strip().isdigit()]
    assert len(rows) == len(turns)
    assert not any(
        re.search(r"[A-Za-z]\.|\.[A-Za-z]", row) for row in rows
    )  # whole words, not GCG's dots
    assert (
        "Alice:" in message and "Computer (casual):" in message and "left on the table" in message
    )
    # The member always made the best-scoring play: nothing left on the table.
    assert (
        "Alice: " in message
        and ", 0 left on the table" in message.split("Alice: ")[1].splitlines()[0]
    )


def _endgame(lexicon_words: set[str]):
    game = rigged_game(
        ScrabbleOptions(turn_order="fixed"),
        racks=["ESVWX", "AIOUU"],
        bag="",
        words=(("8E", "QUIZ"),),
    )
    generator = MoveGenerator(lexicon_words)  # built now, as a running bot would have it
    return game, generator


async def test_a_game_nobody_can_play_on_ends_at_once_with_tiles_deducted(ctx, clock):
    lexicon = {"QUIZ"}
    service = service_with(ctx, lexicon)
    game_id = await started(service, request(BOB))
    game, generator = _endgame(lexicon)
    assert generator.is_blocked(game)
    await rig(ctx, game_id, game)
    await service.moves.pass_turn(game_id, await seat_member(ctx, game_id, 0))
    final = await engine_of(ctx, game_id)
    result = final.result()
    assert result is not None and result.reason == "blocked"
    assert list(result.adjustments) == [-(1 + 1 + 4 + 4 + 8), -(1 + 1 + 1 + 1 + 1)]
    content = (await posts(ctx))[-1].payload["content"]
    assert (
        "Nobody can make a play" in content
        and "Game over" in content
        and "no seat could make a play" in content
    )


async def test_a_game_where_one_seat_can_still_play_goes_on(ctx, clock):
    lexicon = {"QUIZ", "QUIZES"}  # seat 0 holds E and S, and I8 J8 are free
    service = service_with(ctx, lexicon)
    game_id = await started(service, request(BOB))
    game, generator = _endgame(lexicon)
    assert not generator.is_blocked(game)
    await rig(ctx, game_id, game)
    await service.moves.pass_turn(game_id, await seat_member(ctx, game_id, 0))
    after = await engine_of(ctx, game_id)
    assert after.status == "active" and after.current_seat == 1
