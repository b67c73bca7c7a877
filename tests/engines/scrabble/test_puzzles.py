"""Scrabble puzzles from a finished game (RULES.md, "Puzzles and daily play"): a
conformance GCG record played as a club game yields positions where the best play
beat the move made by the margin, each with the move generator's best score."""

from __future__ import annotations

import pytest

from engines.lexicon import load_lexicon
from engines.scrabble import Board, ScrabbleError
from engines.scrabble.errors import InvalidWordError
from engines.scrabble.movegen import MoveGenerator
from engines.scrabble.puzzles import (
    DEFAULT_MARGIN,
    TOP_PLAYS,
    ScrabblePuzzle,
    find_puzzles,
    judge,
)
from tests.engines.scrabble.puzzle_support import gcg_club_game


@pytest.fixture(scope="module")
def lexicon():
    return load_lexicon()


@pytest.fixture(scope="module")
def generator(lexicon) -> MoveGenerator:
    return MoveGenerator(lexicon)


@pytest.fixture(scope="module")
def game():
    return gcg_club_game()


@pytest.fixture(scope="module")
def puzzles(generator, game) -> list[ScrabblePuzzle]:
    return find_puzzles(generator, game.moves)


def test_a_finished_conformance_game_yields_puzzles(game, puzzles):
    assert game.result() is not None
    assert puzzles
    for puzzle in puzzles:
        move = game.moves[puzzle.ply]
        assert move["seat"] == puzzle.seat
        assert puzzle.rack == move["rack"]  # the mover's own rack at that turn
        assert puzzle.best_score - puzzle.played_score >= DEFAULT_MARGIN


def test_each_puzzles_best_score_is_the_move_generators_best_for_its_board_and_rack(
    generator, puzzles
):
    for puzzle in puzzles:
        board = Board.from_rows(list(puzzle.board))
        plays = generator.generate(board, puzzle.rack)
        assert puzzle.best_score == max(play.score for play in plays)
        ranked = generator.ranked(board, puzzle.rack, by="score", limit=TOP_PLAYS)
        assert [p.score for p in puzzle.top] == [int(score) for _, score in ranked]
        assert puzzle.top[0].score == puzzle.best_score


def test_the_board_is_the_position_before_the_move(game, puzzles):
    for puzzle in puzzles:
        board = Board.from_rows(list(puzzle.board))
        move = game.moves[puzzle.ply]
        if move["type"] == "play":
            evaluation = board.evaluate(move["word"], move["position"], rack=puzzle.rack)
            assert evaluation.score == puzzle.played_score


def test_every_top_play_is_judged_at_its_own_score(lexicon, puzzles):
    for puzzle in puzzles:
        for play in puzzle.top:
            assert judge(puzzle, play.word, play.position, lexicon).score == play.score


def test_a_larger_margin_keeps_fewer_puzzles_and_seats_filter_them(generator, game, puzzles):
    widest = max(p.margin for p in puzzles)
    assert find_puzzles(generator, game.moves, margin=widest + 1) == [
        p for p in puzzles if p.margin > widest
    ]
    assert len(find_puzzles(generator, game.moves, margin=1)) >= len(puzzles)
    for seat in (0, 1):
        mine = find_puzzles(generator, game.moves, seats=[seat])
        assert mine == [p for p in puzzles if p.seat == seat]


def test_a_puzzle_survives_json(puzzles):
    for puzzle in puzzles:
        assert ScrabblePuzzle.from_json(puzzle.to_json()) == puzzle


def test_answers_the_board_or_rack_refuse_raise_the_engines_own_error(lexicon, puzzles):
    puzzle = puzzles[0]
    with pytest.raises(ScrabbleError):
        judge(puzzle, "ZZZZZZZ", "8H", lexicon)  # not the rack's tiles
    with pytest.raises(ScrabbleError):
        judge(puzzle, puzzle.top[0].word, "Z99", lexicon)  # no such square
    best = puzzle.top[0]
    with pytest.raises(InvalidWordError):
        judge(puzzle, best.word, best.position, frozenset({"NOTHING"}))


def test_turns_without_a_recorded_rack_make_no_puzzle(generator, game):
    blind = [{k: v for k, v in move.items() if k != "rack"} for move in game.moves]
    assert find_puzzles(generator, blind) == []


def test_analysis_is_the_same_with_the_puzzles_hook(generator, game):
    seen = []
    turns = generator.analyse_moves(game.moves, on_turn=lambda i, b, p: seen.append(i))
    assert turns == generator.analyse(game)
    assert seen == list(range(len(turns)))
