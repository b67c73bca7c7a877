from __future__ import annotations

import random

import chess
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engines.chess_game import (
    AmbiguousChessMoveError,
    ChessMoveError,
    ChessStateError,
    DrawClaimError,
    IllegalChessMoveError,
    PromotionChoiceError,
    Termination,
    UnreadableMoveError,
    agreement,
    automatic_finish,
    biggest_mistakes,
    board_from_moves,
    can_claim_draw,
    claim_draw,
    legal_targets,
    move_choices,
    numbered_moves,
    parse_move,
    play_stored,
    replay,
    resignation,
    san_moves,
    timeout_finish,
)


def board_after(*sans: str) -> chess.Board:
    board = chess.Board()
    for san in sans:
        board.push_san(san)
    return board


# ------------------------------------------------------------------ reading moves


@pytest.mark.parametrize(
    ("typed", "uci"),
    [
        ("e4", "e2e4"),
        ("e2e4", "e2e4"),
        ("E2-E4", "e2e4"),
        ("Nf3", "g1f3"),
        ("nf3", "g1f3"),
        ("Nf3!?", "g1f3"),
        ("Ng1-f3", "g1f3"),
        ("g1f3", "g1f3"),
        (" b4 ", "b2b4"),
    ],
)
def test_moves_are_read_in_san_uci_and_long_algebraic(typed: str, uci: str) -> None:
    assert parse_move(chess.Board(), typed).uci() == uci


@pytest.mark.parametrize("typed", ["O-O", "0-0", "o-o", "e1g1", "e1-g1"])
def test_castling_is_read_in_every_common_spelling(typed: str) -> None:
    board = board_after("e4", "e5", "Nf3", "Nc6", "Bc4", "Bc5")
    assert parse_move(board, typed).uci() == "e1g1"


def test_a_lowercase_b_is_a_pawn_when_it_can_be_and_a_bishop_otherwise() -> None:
    board = board_after("b4", "c5", "e3", "d6")
    assert parse_move(board, "bxc5").uci() == "b4c5"
    assert parse_move(board, "bb5").uci() == "f1b5"


def test_en_passant_is_read_with_or_without_its_suffix() -> None:
    board = board_after("e4", "a6", "e5", "d5")
    assert parse_move(board, "exd6").uci() == "e5d6"
    assert parse_move(board, "exd6 e.p.").uci() == "e5d6"


@pytest.mark.parametrize("typed", ["e8", "e7e8", "exd8", "e7d8"])
def test_a_promotion_without_a_piece_asks_which_piece(typed: str) -> None:
    board = chess.Board("3r4/4P3/8/8/8/8/k7/7K w - - 0 1")
    with pytest.raises(PromotionChoiceError) as error:
        parse_move(board, typed)
    choice = error.value
    assert [m.promotion for m in choice.moves] == [
        chess.QUEEN,
        chess.ROOK,
        chess.BISHOP,
        chess.KNIGHT,
    ]
    assert choice.suggestions[0].endswith("=Q")
    assert "which piece" in str(choice)


@pytest.mark.parametrize(
    ("typed", "uci"), [("e8=N", "e7e8n"), ("e8q", "e7e8q"), ("e8=q", "e7e8q"), ("e7d8r", "e7d8r")]
)
def test_a_named_promotion_piece_is_used(typed: str, uci: str) -> None:
    board = chess.Board("3r4/4P3/8/8/8/8/k7/7K w - - 0 1")
    assert parse_move(board, typed).uci() == uci


def test_a_promotion_piece_on_an_ordinary_move_is_pointed_out() -> None:
    with pytest.raises(IllegalChessMoveError) as error:
        parse_move(chess.Board(), "e2e4q")
    assert error.value.suggestions == ("e4",) and "only a pawn reaching the last rank" in str(
        error.value
    )


def test_an_ambiguous_move_lists_the_pieces_that_could_make_it() -> None:
    board = chess.Board("4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1")
    with pytest.raises(AmbiguousChessMoveError) as error:
        parse_move(board, "Nd2")
    assert sorted(error.value.suggestions) == ["Nbd2", "Nfd2"]
    assert "`Nbd2`" in str(error.value) and "`Nfd2`" in str(error.value)


@pytest.mark.parametrize(
    ("typed", "reason"),
    [
        ("Ke2", "no White king can move to e2"),
        ("O-O", "White can't castle now"),
        ("e7e5", "is Black's and White is to move"),
        ("e3e4", "there is no piece on e3"),
        ("e2e5", "the pawn on e2 can't go to e5"),
    ],
)
def test_an_illegal_move_says_why_and_suggests_legal_ones(typed: str, reason: str) -> None:
    board = chess.Board()
    with pytest.raises(IllegalChessMoveError) as error:
        parse_move(board, typed)
    assert reason in str(error.value)
    assert 1 <= len(error.value.suggestions) <= 6
    assert all(board.parse_san(s) in board.legal_moves for s in error.value.suggestions)


def test_suggestions_for_an_illegal_move_start_with_that_piece_s_moves() -> None:
    with pytest.raises(IllegalChessMoveError) as error:
        parse_move(chess.Board(), "e2e5")
    assert error.value.suggestions[:2] == ("e3", "e4")


def test_a_move_while_in_check_mentions_the_check() -> None:
    board = board_after("e4", "e5", "f4", "Qh4+")
    with pytest.raises(IllegalChessMoveError) as error:
        parse_move(board, "Nf3")
    assert "White is in check" in str(error.value)
    assert set(error.value.suggestions) == {"g3", "Ke2"}


@pytest.mark.parametrize("typed", ["", "   ", "hello", "Zf3", "!!", "x" * 30])
def test_text_that_is_no_move_is_explained_with_the_notations(typed: str) -> None:
    with pytest.raises(UnreadableMoveError) as error:
        parse_move(chess.Board(), typed)
    assert isinstance(error.value, ChessMoveError) and isinstance(error.value, ValueError)
    assert error.value.suggestions


def test_autocomplete_matches_san_prefixes_then_uci_and_labels_both() -> None:
    board = chess.Board()
    assert [value for _, value in move_choices(board, "N")] == ["Na3", "Nc3", "Nf3", "Nh3"]
    assert [value for _, value in move_choices(board, "g1")] == ["Nf3", "Nh3"]
    assert move_choices(board, "Nf")[0] == ("Nf3 (g1f3)", "Nf3")
    assert len(move_choices(board, "")) == 20
    assert move_choices(board, "Qh5") == []


def test_autocomplete_offers_castling_when_written_with_zeros() -> None:
    board = board_after("e4", "e5", "Nf3", "Nc6", "Bc4", "Bc5")
    assert [v for _, v in move_choices(board, "0-0")] == ["O-O"]


def test_autocomplete_never_offers_more_than_discord_shows() -> None:
    board = chess.Board("4k3/8/8/8/8/8/8/QQQ1K3 w - - 0 1")
    assert len(move_choices(board, "")) == 25


# ------------------------------------------------------------------ replay and move lists


def test_a_game_replays_from_its_uci_moves() -> None:
    board = board_from_moves(["e2e4", "e7e5", "g1f3"])
    assert board.fen() == board_after("e4", "e5", "Nf3").fen()
    assert len(board.move_stack) == 3


@pytest.mark.parametrize("moves", [["e2e5"], ["xx"], ["e2e4", "e2e4"]])
def test_a_damaged_move_list_is_reported_not_replayed(moves: list[str]) -> None:
    with pytest.raises(ChessStateError):
        board_from_moves(moves)


def random_game(seed: int, plies: int) -> chess.Board:
    """Up to ``plies`` random legal moves from the start (fewer if the game ends)."""
    rng = random.Random(seed)
    board = chess.Board()
    for _ in range(plies):
        legal = list(board.legal_moves)
        if not legal:
            break
        board.push(rng.choice(legal))
    return board


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(0, 120))
def test_one_replay_gives_the_board_and_the_san_list_of_two(seed: int, plies: int) -> None:
    board = random_game(seed, plies)
    moves = [m.uci() for m in board.move_stack]
    replayed, sans = replay(moves)
    expected = board_from_moves(moves)
    assert replayed.fen() == expected.fen() and replayed.move_stack == expected.move_stack
    assert replayed.outcome(claim_draw=True) == expected.outcome(claim_draw=True)
    assert sans == san_moves(moves)


@pytest.mark.parametrize("moves", [["e2e5"], ["xx"], ["e2e4", "e2e4"]])
def test_a_damaged_move_list_does_not_replay_with_its_sans_either(moves: list[str]) -> None:
    with pytest.raises(ChessStateError):
        replay(moves)


def test_a_stored_move_is_pushed_checked_and_named() -> None:
    board = board_after("e4", "e5")
    assert play_stored(board, 3, "g1f3") == "Nf3" and board.peek().uci() == "g1f3"
    with pytest.raises(ChessStateError, match="move 4"):
        play_stored(board, 4, "e7e5")  # that pawn has moved
    assert len(board.move_stack) == 3


def test_move_lists_are_numbered_and_can_show_only_the_tail() -> None:
    sans = san_moves(["e2e4", "e7e5", "g1f3", "b8c6", "f1b5"])
    assert numbered_moves(sans) == "1. e4 e5 2. Nf3 Nc6 3. Bb5"
    assert numbered_moves(sans, last=4) == "1... e5 2. Nf3 Nc6 3. Bb5"
    assert numbered_moves(sans, last=1) == "3. Bb5"
    assert numbered_moves([]) == ""


# ------------------------------------------------------------------ endings


def test_checkmate_ends_the_game_for_the_mating_side() -> None:
    finish = automatic_finish(board_after("f3", "e5", "g4", "Qh4#"))
    assert finish is not None
    assert (finish.result, finish.termination, finish.winner) == (
        "0-1",
        Termination.CHECKMATE,
        chess.BLACK,
    )
    assert finish.describe("alice", "bob") == "bob wins by checkmate."


@pytest.mark.parametrize(
    ("fen", "termination"),
    [
        ("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", Termination.STALEMATE),
        ("8/8/4k3/8/8/3BK3/8/8 w - - 0 1", Termination.INSUFFICIENT_MATERIAL),
        ("8/8/4k3/8/8/3RK3/8/8 w - - 150 100", Termination.SEVENTYFIVE_MOVES),
    ],
)
def test_dead_positions_draw_without_a_claim(fen: str, termination: str) -> None:
    finish = automatic_finish(chess.Board(fen))
    assert finish is not None and finish.result == "1/2-1/2" and finish.termination == termination
    assert finish.describe("a", "b").startswith("Draw:")


def test_fivefold_repetition_draws_without_a_claim() -> None:
    board = chess.Board()
    for _ in range(4):
        for san in ("Nf3", "Nf6", "Ng1", "Ng8"):
            assert automatic_finish(board) is None
            board.push_san(san)
    finish = automatic_finish(board)
    assert finish is not None and finish.termination == Termination.FIVEFOLD_REPETITION


def test_an_ongoing_game_has_no_automatic_finish() -> None:
    assert automatic_finish(board_after("e4", "e5")) is None


def test_threefold_repetition_may_be_claimed_by_either_player_once_it_happened() -> None:
    board = board_after("Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1", "Ng8")
    for color in chess.COLORS:
        assert claim_draw(board, color).termination == Termination.THREEFOLD_REPETITION


def test_the_player_to_move_may_claim_a_repetition_their_move_would_make() -> None:
    board = board_after("Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1")
    assert claim_draw(board, chess.BLACK).termination == Termination.THREEFOLD_REPETITION
    with pytest.raises(DrawClaimError):
        claim_draw(board, chess.WHITE)


def test_fifty_moves_without_capture_or_pawn_move_may_be_claimed() -> None:
    board = chess.Board("8/8/4k3/8/8/3RK3/8/8 w - - 100 80")
    assert claim_draw(board, chess.BLACK).termination == Termination.FIFTY_MOVES


def test_whether_a_draw_can_be_claimed_is_what_a_claim_would_answer() -> None:
    board = board_after("Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1")
    assert can_claim_draw(board, chess.BLACK) and not can_claim_draw(board, chess.WHITE)
    assert not can_claim_draw(board_after("e4", "e5"), chess.WHITE)


def test_an_unfounded_claim_says_how_far_the_position_is_from_a_draw() -> None:
    with pytest.raises(DrawClaimError) as error:
        claim_draw(chess.Board("8/8/4k3/8/8/3RK3/8/8 w - - 40 80"), chess.WHITE)
    assert "20 moves (of 50)" in str(error.value)


def test_resignation_and_agreement_results() -> None:
    assert resignation(chess.WHITE).result == "0-1"
    assert resignation(chess.BLACK).describe("alice", "bob") == "alice wins — bob resigned."
    assert agreement().result == "1/2-1/2"


def test_running_out_of_time_loses_when_the_opponent_can_still_mate() -> None:
    finish = timeout_finish(chess.Board("8/8/4k3/8/8/3RK3/8/8 b - - 0 1"), chess.BLACK)
    assert (finish.result, finish.termination) == ("1-0", Termination.TIMEOUT)
    assert finish.describe("alice", "bob") == "alice wins on time — bob ran out."


def test_running_out_of_time_draws_when_the_opponent_cannot_mate() -> None:
    finish = timeout_finish(chess.Board("8/8/4k3/8/8/3RK3/8/8 w - - 0 1"), chess.WHITE)
    assert (finish.result, finish.termination) == ("1/2-1/2", Termination.TIMEOUT_VS_INSUFFICIENT)


# ------------------------------------------------------------------ mistakes


def test_the_biggest_centipawn_losses_are_each_sides_mistakes() -> None:
    moves = ["e2e4", "e7e5", "d1h5", "b8c6", "f1c4", "g8f6", "h5f7"]
    evals = [20, 30, 25, -40, 50, 45, 600, 1000]
    best = ["e2e4", "e7e5", "g1f3", "b8c6", "g1f3", "g7g6", "h5f7", None]
    found = biggest_mistakes(moves, evals, best)
    assert [(m.san, m.loss_cp, m.label, m.best_san) for m in found[chess.BLACK]] == [
        ("Nf6", 555, "blunder", "g6")
    ]
    assert [(m.san, m.loss_cp, m.label) for m in found[chess.WHITE]] == [("Qh5", 65, "inaccuracy")]
    assert found[chess.WHITE][0].move_number == "2."
    assert found[chess.BLACK][0].move_number == "3..."


def test_a_best_move_is_never_a_mistake_and_mates_are_capped() -> None:
    moves = ["f2f3", "e7e5", "g2g4", "d8h4"]
    evals = [10, -60, -50, -100_000, -100_000]
    best = ["e2e4", "e7e5", "d2d4", "d8h4", None]
    found = biggest_mistakes(moves, evals, best)
    assert [m.san for m in found[chess.BLACK]] == []
    assert [(m.san, m.loss_cp) for m in found[chess.WHITE]] == [("g4", 950), ("f3", 70)]


def test_analysis_needs_one_evaluation_per_position() -> None:
    with pytest.raises(ValueError):
        biggest_mistakes(["e2e4"], [0], [None])


# ------------------------------------------------------------------ properties


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10_000), plies=st.integers(0, 60))
def test_every_legal_move_reads_back_from_its_san_and_its_uci(seed: int, plies: int) -> None:
    board = random_game(seed, plies)
    for move in board.legal_moves:
        assert parse_move(board, board.san(move)) == move
        assert parse_move(board, move.uci()) == move


# ------------------------------------------------------------------ a board's targets


def test_legal_targets_are_every_legal_move_by_its_square() -> None:
    board = board_after("e4", "e5", "Nf3")
    targets = legal_targets(board)
    assert set(targets["g8"]) == {("h6", False), ("f6", False), ("e7", False)}
    assert sum(len(t) for t in targets.values()) == board.legal_moves.count()


def test_legal_targets_show_castling_as_the_king_s_two_squares_and_en_passant() -> None:
    board = board_after("e4", "a6", "e5", "d5", "Nf3", "a5", "Bc4", "a4")
    assert {to for to, _ in legal_targets(board)["e1"]} == {"e2", "f1", "g1"}
    board = board_after("e4", "a6", "e5", "d5")
    assert ("d6", False) in legal_targets(board)["e5"]


def test_a_promotion_is_one_target_flagged_whatever_the_piece() -> None:
    board = board_after("e4", "d5", "exd5", "c6", "dxc6", "Nd7", "cxb7", "a5")
    assert sorted(legal_targets(board)["b7"]) == [("a8", True), ("b8", True), ("c8", True)]
