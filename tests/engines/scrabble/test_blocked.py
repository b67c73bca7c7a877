"""A game nobody can play on: the move generator decides it, the engine ends it."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engines.scrabble import ScrabbleGame, ScrabbleOptions
from engines.scrabble.errors import TurnError
from engines.scrabble.gcg import check_game, export_gcg, parse_gcg
from engines.scrabble.movegen import MoveGenerator
from tests.engines.scrabble.support import play_randomly, rigged_game

STUCK_RACKS = ["ESVWX", "AIOUU"]


def stuck_game(**options) -> ScrabbleGame:
    return rigged_game(
        ScrabbleOptions(turn_order="fixed", **options),
        racks=list(STUCK_RACKS),
        bag="",
        words=(("8E", "QUIZ"),),
        scores=[30, 12],
    )


def test_a_blocked_game_ends_with_each_rack_deducted_and_replays_the_same():
    game = stuck_game()
    assert MoveGenerator({"QUIZ"}).is_blocked(game)
    game.end_blocked()
    result = game.result()
    assert game.status == "finished" and result.reason == "blocked"
    assert list(result.adjustments) == [-18, -5] and list(result.final_scores) == [12, 7]
    assert list(result.winners) == [0]
    assert game.moves[-1] == {"type": "blocked"}
    again = ScrabbleGame.from_json(game.to_json())
    assert again.result() == result


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_end_is_noted_in_the_gcg_record_which_still_checks(seed):
    rng = random.Random(seed)
    game = ScrabbleGame.new(ScrabbleOptions(), seed=seed)
    while game.status != "finished" and (game.bag_count >= 7 or game.status == "ending"):
        play_randomly(game, rng, set(), stop_after=1)
    assert game.status == "active", "the random game ended before its end game"
    if any(game.can_challenge(s) for s in range(game.seats)):
        game.pass_turn(game.current_seat)  # the last play stands
    assert MoveGenerator({"QQQ"}).is_blocked(
        game
    )  # nobody can spell the only word: one Q in the set
    game.end_blocked()
    text = export_gcg(game, ["Ana", "Ben"])
    assert "#note no seat could make a play" in text
    checked = check_game(parse_gcg(text), "blocked")
    assert checked.ok, checked


@pytest.mark.parametrize(
    "make",
    [
        lambda: rigged_game(
            ScrabbleOptions(turn_order="fixed"), racks=list(STUCK_RACKS)
        ),  # a full bag
        lambda: ScrabbleGame.new(ScrabbleOptions(), seed=3),
    ],
)
def test_a_game_with_tiles_to_exchange_is_never_blocked(make):
    game = make()
    assert not MoveGenerator({"QUIZ"}).is_blocked(game)
    with pytest.raises(TurnError):
        game.end_blocked()


def test_a_play_open_to_a_challenge_keeps_the_game_going():
    game = rigged_game(
        ScrabbleOptions(turn_order="fixed"),
        racks=["ESVWX", "AIOUU"],
        bag="",
        words=(("8E", "QUIZ"),),
    )
    game.play(0, "....ES", "8E")  # QUIZES: not in the list below, but nobody has challenged yet
    assert game.can_challenge(1)
    assert not MoveGenerator({"QUIZ"}).is_blocked(game)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), size=st.integers(1, 60), close_window=st.booleans())
def test_blocked_means_no_seat_has_any_play_near_the_end(seed, size, close_window):
    """On random end-game positions and small random word lists (small enough that
    some positions are stuck), ``is_blocked`` holds exactly when the full generator
    finds no play for any seat and no play is open to a challenge."""
    rng = random.Random(seed)
    game = ScrabbleGame.new(ScrabbleOptions(seats=2 + seed % 3), seed=seed)
    lexicon = {
        "".join(rng.choice("AEIOURSTLNQZXJK") for _ in range(rng.randint(2, 4)))
        for _ in range(size)
    }
    actions = 0
    while game.status == "active" and game.bag_count >= 7 and actions < 300:
        actions += 1
        play_randomly(game, rng, lexicon, stop_after=1)
    if (
        close_window
        and game.status == "active"
        and any(game.can_challenge(s) for s in range(game.seats))
    ):
        game.pass_turn(game.current_seat)
    if game.status != "active" or game.bag_count >= 7:
        return  # the random game ended early: nothing to check
    generator = MoveGenerator(lexicon)
    board = game.board_copy()
    playing = [s for s in game.turn_order if s not in game.resigned]
    anyone = any(generator.generate(board, game.racks[s]) for s in playing)
    pending = any(game.can_challenge(s) for s in playing)
    assert generator.is_blocked(game) == (not anyone and not pending)
    if generator.is_blocked(game):
        game.end_blocked()
        assert game.result().reason == "blocked"
