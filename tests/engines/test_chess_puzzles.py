"""What a chess puzzle is (``engines.chess_puzzles``): the margin between the two best
lines with mates counted, the solution line's judging move by move, its round trip."""

from __future__ import annotations

import chess
import pytest

from engines.chess_game import IllegalChessMoveError
from engines.chess_puzzles import (
    MATE_SCORE,
    PUZZLE_MARGIN_CP,
    ChessPuzzle,
    EngineLine,
    clearly_best,
    continues,
    judge_move,
)

# Legal's mate missed: 6.Bxf7+ Ke7 7.Nd5# was there; the game went 6.Kxd1.
LEGAL = ChessPuzzle(
    ply=10,
    fen="rn1qkbnr/ppp2p1p/3p2p1/4N3/2B1P3/2N5/PPPP1PPP/R1BbK2R w KQkq - 0 6",
    line=("c4f7", "e8e7", "c3d5"),
    played="e1d1",
    best_score=MATE_SCORE - 3,
    second_score=-188,
    last="g4d1",
)


def line(score: int) -> EngineLine:
    return EngineLine("a2a3", score)


@pytest.mark.parametrize(
    ("best", "second", "clear"),
    [
        (PUZZLE_MARGIN_CP, 0, True),
        (PUZZLE_MARGIN_CP - 1, 0, False),
        (-50, -300, True),  # the only move that holds counts as clearly best
        (MATE_SCORE - 1, 900, True),  # mate in one against a queen up
        (MATE_SCORE - 3, MATE_SCORE - 5, False),  # two mates: no one clear move
        (-(MATE_SCORE - 4), -(MATE_SCORE - 2), False),  # both lose to mate
    ],
)
def test_a_move_is_clearly_best_by_the_margin_with_mates_counted(best, second, clear):
    assert clearly_best([line(best), line(second)]) is clear


def test_a_forced_move_is_no_puzzle_and_a_line_goes_on_only_while_winning():
    assert not clearly_best([line(900)])
    assert not continues([line(-50), line(-300)])  # clearly best, but not winning
    assert continues([line(MATE_SCORE - 1), line(0)])


def test_the_puzzle_is_solved_move_by_move_the_bot_replying():
    first = judge_move(LEGAL, 0, "Bxf7+")
    assert (first.said, first.right, first.finished) == ("Bxf7+", True, False)
    assert (first.reply, first.reply_san) == ("e8e7", "Ke7")
    last = judge_move(LEGAL, 1, "c3d5")  # UCI as well as SAN
    assert (last.said, last.right, last.finished) == ("Nd5#", True, True)
    wrong = judge_move(LEGAL, 0, "Kxd1")
    assert (wrong.said, wrong.right, wrong.finished) == ("Kxd1", False, True)
    with pytest.raises(IllegalChessMoveError):
        judge_move(LEGAL, 0, "Qh5")  # no legal move: the service refuses it, no try spent


def test_any_checkmate_solves_the_puzzle():
    # A back rank with two rooks: the line says Ra8#, and Rb8# mates as well.
    board = chess.Board("6k1/5ppp/8/8/8/8/8/RR4K1 w - - 0 1")
    puzzle = ChessPuzzle(0, board.fen(), ("a1a8",), "g1f1", MATE_SCORE - 1, 500)
    other = judge_move(puzzle, 0, "Rb8#")
    assert other.right and other.finished and other.said == "Rb8#"


def test_a_puzzle_reads_back_and_says_its_line():
    assert ChessPuzzle.from_json(LEGAL.to_json()) == LEGAL
    assert LEGAL.line_san() == "6. Bxf7+ Ke7 7. Nd5#" and LEGAL.played_san() == "Kxd1"
    assert LEGAL.solver_moves == 2 and LEGAL.color == chess.WHITE
    assert (
        LEGAL.board_after(1).fen().split()[0]
        == "rn1q1bnr/ppp1kB1p/3p2p1/4N3/4P3/2N5/PPPP1PPP/R1BbK2R"
    )
