"""Puzzles from a finished club Scrabble game, through the services (SQLite and
PostgreSQL): the game's finish schedules the search, the job stores its puzzles once,
members solve and fail them, ratings move both ways and solved days make a streak."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime
from types import SimpleNamespace
from zoneinfo import ZoneInfo

import pytest
from sqlalchemy import select

from bot.db.models_puzzles import PuzzleAttemptRecord, PuzzleRecord
from bot.errors import InvalidInputError
from bot.messages import puzzles as puzzle_messages
from bot.messages.i18n import use_language
from bot.services import ServiceContext
from bot.services.leaderboard import LeaderboardService
from bot.services.puzzles.hooks import JOB_FIND, game_finished
from bot.services.puzzles.service import MAX_TRIES, PuzzleService, streak_today
from bot.services.scrabble import LexiconCache, Member, ScrabbleService
from engines.lexicon import load_lexicon
from engines.scrabble import Board
from engines.scrabble.movegen import MoveGenerator
from engines.scrabble.puzzles import ScrabblePuzzle, find_puzzles
from tests.bot.services.scrabble_support import (
    ALICE,
    BOB,
    CAROL,
    DAVE,
    GUILD,
    engine_of,
    request,
    rig,
    seat_member,
    started,
)
from tests.engines.scrabble.puzzle_support import gcg_club_game, gcg_turns


@pytest.fixture(scope="module")
def generator() -> MoveGenerator:
    return MoveGenerator(load_lexicon())


@pytest.fixture
def scrabble(ctx: ServiceContext) -> ScrabbleService:
    return ScrabbleService(ctx, lexicons=LexiconCache())


@pytest.fixture
def puzzles(ctx: ServiceContext) -> PuzzleService:
    service = PuzzleService(ctx, lexicons=LexiconCache())
    ctx.scheduler.register_service(service)
    return service


async def finished_game(
    ctx: ServiceContext, scrabble: ScrabbleService, players: tuple[Member, Member] = (ALICE, BOB)
) -> int:
    """A club game between two members (Alice and Bob): the record's turns but its last,
    then the last play made through the service and accepted, so the game finishes as
    any does."""
    creator, opponent = players
    game_id = await started(scrabble, replace(request(opponent), creator=creator))
    turns = gcg_turns()
    await rig(ctx, game_id, gcg_club_game(upto=len(turns) - 1))
    engine = await engine_of(ctx, game_id)
    last = turns[-1]
    seat = engine.current_seat
    await scrabble.moves.play(
        game_id, await seat_member(ctx, game_id, seat), last.word, last.position
    )
    await scrabble.moves.accept_play(game_id, await seat_member(ctx, game_id, 1 - seat))
    assert (await engine_of(ctx, game_id)).result() is not None
    return game_id


async def stored(ctx: ServiceContext) -> list[SimpleNamespace]:
    """The puzzles as stored (plain copies: read after their unit of work)."""
    async with ctx.reader() as uow:
        rows = (
            await uow.session.execute(select(PuzzleRecord).order_by(PuzzleRecord.ply))
        ).scalars()
        return [
            SimpleNamespace(
                id=r.id,
                ply=r.ply,
                guild_id=r.guild_id,
                data=dict(r.data),
                rating=r.rating,
                attempts=r.attempts,
                solved=r.solved,
            )
            for r in rows
        ]


async def test_a_finished_game_yields_its_puzzles_once(ctx, scrabble, puzzles, generator):
    game_id = await finished_game(ctx, scrabble)
    outcomes = await ctx.scheduler.run_due()
    assert [o.kind for o in outcomes if o.kind == JOB_FIND] == [JOB_FIND]
    rows = await stored(ctx)
    expected = find_puzzles(generator, (await engine_of(ctx, game_id)).moves)
    assert [r.ply for r in rows] == [p.ply for p in expected] and rows
    for row in rows:
        puzzle = ScrabblePuzzle.from_json(row.data)
        best = max(
            p.score for p in generator.generate(Board.from_rows(list(puzzle.board)), puzzle.rack)
        )
        assert puzzle.best_score == best
        assert row.guild_id == GUILD and row.data["game_number"] >= 1
    # The job again (a restart, a second finish): nothing new.
    async with ctx.uow() as uow:
        await game_finished(uow, await uow.games.get(game_id), ctx.clock())
        await uow.commit()
    await ctx.scheduler.run_due()
    assert [r.id for r in await stored(ctx)] == [r.id for r in rows]


async def test_members_solve_and_fail_puzzles_and_ratings_move(ctx, scrabble, puzzles):
    await finished_game(ctx, scrabble)
    await ctx.scheduler.run_due()
    first = await puzzles.next_puzzle(GUILD, CAROL.user_id, CAROL.name)
    assert first.tries_left == MAX_TRIES and len(first.rack) == 7 and len(first.rows) == 15
    # Asked again, the same puzzle (under way).
    again = await puzzles.next_puzzle(GUILD, CAROL.user_id, CAROL.name)
    assert again.puzzle_id == first.puzzle_id and again.resumed
    row = next(r for r in await stored(ctx) if r.id == first.puzzle_id)
    best = ScrabblePuzzle.from_json(row.data).top[0]
    solved = await puzzles.answer(
        GUILD, CAROL.user_id, CAROL.name, first.puzzle_id, best.word, best.position
    )
    assert solved.status == "solved" and solved.rating_change and solved.rating_change > 0
    assert (
        "Top plays" in solved.text
        and ScrabblePuzzle.from_json(row.data).played.split()[-1] in solved.text
    )
    after = next(r for r in await stored(ctx) if r.id == first.puzzle_id)
    assert after.rating < 1500 and after.attempts == 1 and after.solved == 1

    # Dave: a word not in the list, a play short of the best, then no play at all.
    mine = await puzzles.next_puzzle(GUILD, DAVE.user_id, DAVE.name)
    puzzle = ScrabblePuzzle.from_json(
        next(r for r in await stored(ctx) if r.id == mine.puzzle_id).data
    )
    lower = puzzle.top[-1]
    assert lower.score < puzzle.best_score
    one = await puzzles.answer(GUILD, DAVE.user_id, DAVE.name, mine.puzzle_id, "ZZZZ", "8H")
    assert one.status == "open" and one.tries_left == 2 and "can't be made" in one.text
    two = await puzzles.answer(
        GUILD, DAVE.user_id, DAVE.name, mine.puzzle_id, lower.word, lower.position
    )
    assert two.status == "open" and two.tries_left == 1 and str(lower.score) in two.text
    three = await puzzles.answer(GUILD, DAVE.user_id, DAVE.name, mine.puzzle_id, "Q", "Z99")
    assert three.status == "failed" and "Top plays" in three.text
    assert three.rating_change is not None and three.rating_change < 0
    # Answering a finished puzzle changes nothing and shows the solution again.
    four = await puzzles.answer(
        GUILD, DAVE.user_id, DAVE.name, mine.puzzle_id, lower.word, lower.position
    )
    assert four.status == "failed" and "Top plays" in four.text
    async with ctx.reader() as uow:
        tries = await uow.session.scalar(
            select(PuzzleAttemptRecord.tries).where(PuzzleAttemptRecord.player_id == DAVE.user_id)
        )
        dave = await uow.ratings.get_or_new(GUILD, "puzzle", DAVE.user_id)
        rating, losses = dave.rating, dave.losses
    assert tries == 3 and rating < 1500 and losses == 1


async def test_show_solution_gives_up(ctx, scrabble, puzzles):
    await finished_game(ctx, scrabble)
    await ctx.scheduler.run_due()
    mine = await puzzles.next_puzzle(GUILD, CAROL.user_id, CAROL.name)
    shown = await puzzles.show_solution(GUILD, CAROL.user_id, CAROL.name, mine.puzzle_id)
    assert shown.status == "failed" and "Top plays" in shown.text


async def test_a_streak_is_days_in_a_row_with_a_puzzle_solved(ctx, scrabble, puzzles, clock):
    await finished_game(ctx, scrabble)
    await ctx.scheduler.run_due()
    assert len(await stored(ctx)) >= 2
    assert await puzzles.streak(GUILD, CAROL.user_id) is None
    for _day in range(2):
        mine = await puzzles.next_puzzle(GUILD, CAROL.user_id, CAROL.name)
        row = next(r for r in await stored(ctx) if r.id == mine.puzzle_id)
        best = ScrabblePuzzle.from_json(row.data).top[0]
        await puzzles.answer(
            GUILD, CAROL.user_id, CAROL.name, mine.puzzle_id, best.word, best.position
        )
        clock.advance(days=1)
    streak = await puzzles.streak(GUILD, CAROL.user_id)
    assert streak is not None and (streak.current, streak.best) == (2, 2)
    assert streak.rating is not None and streak.rating > 1500
    assert (streak.solved, streak.missed) == (2, 0)
    stats = await LeaderboardService(ctx).stats(GUILD, CAROL.user_id)
    assert [(s.kind, s.current, s.best) for s in stats.streaks] == [("puzzle", 2, 2)]
    assert stats.games["puzzle"].wins == 2
    clock.advance(days=2)
    later = await puzzles.streak(GUILD, CAROL.user_id)
    assert later is not None and (later.current, later.best) == (0, 2)


async def test_no_puzzles_yet_is_refused_privately(ctx, puzzles):
    with pytest.raises(InvalidInputError, match="No puzzles yet"):
        await puzzles.next_puzzle(GUILD, ALICE.user_id, ALICE.name)


async def test_a_player_of_the_game_gets_another_games_puzzle_first(ctx, scrabble, puzzles):
    first = await finished_game(ctx, scrabble)  # Alice and Bob
    second = await finished_game(ctx, scrabble, (CAROL, DAVE))
    await ctx.scheduler.run_due()
    game_of = {row.id: row.data["game_number"] for row in await stored(ctx)}
    numbers = {}
    async with ctx.reader() as uow:
        for game_id in (first, second):
            numbers[game_id] = (await uow.games.get(game_id)).number
    for member, other_game in ((BOB, second), (CAROL, first), (ALICE, second)):
        view = await puzzles.next_puzzle(GUILD, member.user_id, member.name)
        assert game_of[view.puzzle_id] == numbers[other_game], member.name
        await puzzles.show_solution(GUILD, member.user_id, member.name, view.puzzle_id)
    # Once the other game's are done, a player gets their own game's all the same.
    for _ in range(2):
        view = await puzzles.next_puzzle(GUILD, BOB.user_id, BOB.name)
        await puzzles.show_solution(GUILD, BOB.user_id, BOB.name, view.puzzle_id)
    view = await puzzles.next_puzzle(GUILD, BOB.user_id, BOB.name)
    assert game_of[view.puzzle_id] == numbers[first]


def test_a_streak_counts_the_clubs_days_not_utcs():
    """In Manila (UTC+8) 15:30 and 16:30 UTC of one day are two club days."""
    manila = ZoneInfo("Asia/Manila")
    solved = [datetime(2026, 12, 1, 15, 30, tzinfo=UTC), datetime(2026, 12, 1, 16, 30, tzinfo=UTC)]
    streak = streak_today(solved, manila, datetime(2026, 12, 2, 3, 0, tzinfo=UTC))
    assert (streak.current, streak.best) == (2, 2)
    in_utc = streak_today(solved, ZoneInfo("UTC"), datetime(2026, 12, 2, 3, 0, tzinfo=UTC))
    assert (in_utc.current, in_utc.best) == (1, 1)
    later = streak_today(solved, manila, datetime(2026, 12, 5, 3, 0, tzinfo=UTC))
    assert (later.current, later.best) == (0, 2)


async def test_a_phony_challenged_off_makes_a_puzzle_that_says_it_was_challenged_off(
    ctx, scrabble, puzzles, generator
):
    """The position before a phony is a fair puzzle (the rack had its best play); what
    the game's player did is told honestly: the play, challenged off (not "for 0")."""
    game_id = await started(scrabble)
    turns = gcg_turns()
    game = gcg_club_game(upto=len(turns) - 1)
    seat = game.current_seat
    phony = min(generator.generate(game.board_copy(), game.racks[seat]), key=lambda p: p.score)
    game.play(seat, phony.word, phony.position)
    # Bob's challenge found it wanting (logged as the engine logs a challenge), then he passed.
    game.apply_entry(
        {
            "type": "challenge",
            "seat": 1 - seat,
            "challenged_seat": seat,
            "result": "withdrawn",
            "invalid_words": [phony.spelled(game.board_copy())],
            "score": -phony.score,
        }
    )
    game.pass_turn(1 - seat)
    await rig(ctx, game_id, game)
    last = turns[-1]
    await scrabble.moves.play(
        game_id, await seat_member(ctx, game_id, seat), last.word, last.position
    )
    await scrabble.moves.accept_play(game_id, await seat_member(ctx, game_id, 1 - seat))
    await ctx.scheduler.run_due()
    row = next(r for r in await stored(ctx) if r.data.get("withdrawn"))
    puzzle = ScrabblePuzzle.from_json(row.data)
    assert puzzle.played_score == 0 and puzzle.best_score > 0
    who = row.data["who"]
    shown = await puzzles.show_solution(GUILD, CAROL.user_id, CAROL.name, row.id)
    assert f"{who} played {puzzle.played}, challenged off." in shown.text, shown.text
    assert " for 0" not in shown.text


def test_a_phony_challenged_off_is_said_so_in_filipino_too():
    with use_language("fil"):
        text = puzzle_messages.solution([("4B rETAG", 16)], "3N Id", 0, 1, "Bob", withdrawn=True)
    assert text.endswith("tinira ni Bob ang 3N Id, tinanggal dahil sa challenge."), text
