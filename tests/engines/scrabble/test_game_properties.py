"""Property tests: random games end, conserve tiles, save, reload and replay exactly."""

from __future__ import annotations

import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engines.scrabble import Board, ScrabbleError, ScrabbleGame, ScrabbleOptions
from tests.engines.scrabble.support import AcceptAll, RejectLetter, play_randomly

option_sets = st.builds(
    ScrabbleOptions,
    seats=st.integers(2, 4),
    rack_size=st.sampled_from([7, 9]),
    challenge=st.sampled_from(["double", "single", "void"]),
    end_rule=st.sampled_from(["six_zeros", "two_passes"]),
    target_score=st.one_of(st.none(), st.integers(50, 400)),
    turn_order=st.sampled_from(["draw", "random", "fixed"]),
)
GAME_SETTINGS = settings(
    max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)


def lexicon_for(options: ScrabbleOptions) -> object:
    # Challenge games get a list that rejects words with V, so challenges bite.
    return AcceptAll() if options.challenge == "void" else RejectLetter("V")


def assert_tiles_conserved(game: ScrabbleGame) -> None:
    assert game.tile_total() == 100
    assert game.bag_count >= 0
    assert all(len(rack) <= game.options.rack_size for rack in game.racks)


@GAME_SETTINGS
@given(options=option_sets, seed=st.integers(0, 2**32))
def test_random_legal_game_always_ends_and_conserves_tiles(options, seed):
    game = ScrabbleGame.new(options, seed)
    play_randomly(
        game, random.Random(seed), lexicon_for(options), after_each=assert_tiles_conserved
    )
    assert game.status == "finished"
    result = game.result()
    assert result is not None
    assert list(result.final_scores) == game.scores
    assert set(result.winners) <= set(range(options.seats))


@GAME_SETTINGS
@given(options=option_sets, seed=st.integers(0, 2**32), stop=st.integers(0, 80))
def test_json_round_trip_and_replay_give_the_same_game_at_any_point(options, seed, stop):
    game = ScrabbleGame.new(options, seed)
    play_randomly(game, random.Random(seed), lexicon_for(options), stop_after=stop)
    reloaded = ScrabbleGame.from_json(json.loads(json.dumps(game.to_json())))
    assert reloaded == game
    assert ScrabbleGame.replay(options, seed, game.moves) == game
    # Both copies carry on identically: the bag and every later draw match.
    for copy in (game, reloaded):
        play_randomly(copy, random.Random(seed + 1), lexicon_for(options))
    assert reloaded == game


@settings(max_examples=200, deadline=None)
@given(
    seed=st.integers(0, 1000),
    seat=st.integers(-1, 4),
    word=st.text(max_size=12),
    position=st.text(max_size=5),
    direction=st.one_of(st.none(), st.text(max_size=6), st.sampled_from(["across", "down"])),
    tiles=st.text(max_size=8),
)
def test_garbage_input_raises_only_scrabble_errors_and_changes_nothing(
    seed, seat, word, position, direction, tiles
):
    game = ScrabbleGame.new(ScrabbleOptions(challenge="void"), seed)
    before = game.to_json()
    for attempt in (
        lambda: game.play(seat, word, position, direction, lexicon=set()),
        lambda: game.exchange(seat, tiles),
        lambda: game.challenge(seat, set()),
    ):
        try:
            attempt()
        except ScrabbleError:
            assert game.to_json() == before
        else:
            before = game.to_json()
    assert game.tile_total() == 100


@settings(max_examples=300, deadline=None)
@given(
    word=st.text(alphabet="ABCXYZaz?.()- é1", max_size=10),
    position=st.text(alphabet="18HOhz5 ", max_size=4),
)
def test_board_evaluation_of_odd_notation_raises_only_scrabble_errors(word, position):
    board = Board()
    board.apply(board.evaluate("CAT", "8H"))
    try:
        play = board.evaluate(word, position)
    except ScrabbleError:
        return
    assert play.score >= 0
    assert board.count == 3
