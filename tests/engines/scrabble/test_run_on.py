"""The word typed is the word played (RULES.md, Scrabble): a typed word that tiles
already on the board would lengthen, before it, after it or both, is refused with
the whole word and the tiles it runs into; it is never played as the longer word."""

from __future__ import annotations

import pytest

from engines.scrabble import Board, PlacementError, RunOnError, ScrabbleOptions, read_typed_word
from tests.engines.scrabble.support import rigged_game
from tests.engines.scrabble.test_board import rows_board

# S and I below the L of BAWL typed down from H5 (the example).
SI_BELOW = {"H9": "S", "H10": "I"}


def refusal(board: Board, word: str, position: str, direction: str | None = None) -> RunOnError:
    with pytest.raises(RunOnError) as refused:
        board.evaluate(word, position, direction)
    return refused.value


def test_a_word_that_runs_on_into_tiles_after_it_is_refused_with_the_whole_word():
    error = refusal(rows_board(SI_BELOW), "BAWL", "H5")
    assert str(error) == (
        "BAWL runs on into S and I (H9\u2013H10): the word would be BAWLSI. "
        "To play it, type BAWLSI."
    )


def test_the_refusal_carries_the_typed_word_the_whole_word_and_the_run_on_tiles():
    error = refusal(rows_board(SI_BELOW), "BAWL", "H5")
    assert isinstance(error, PlacementError)  # a placement the engine refuses
    assert (error.typed, error.whole, error.position) == ("BAWL", "BAWLSI", "H5")
    assert error.letters == ("S", "I")
    assert error.squares == ("H9", "H10")


def test_the_same_run_on_across_is_refused_the_same_way():
    error = refusal(rows_board({"I8": "S", "J8": "I"}), "BAWL", "8E")
    assert (error.whole, error.squares, error.position) == ("BAWLSI", ("I8", "J8"), "8E")
    assert str(error).endswith("To play it, type BAWLSI.")


def test_tiles_before_the_word_are_named_and_the_whole_word_starts_where_they_do():
    across = refusal(rows_board({"E8": "O", "F8": "X"}), "EN", "8G")
    assert str(across) == (
        "EN runs on into O and X (E8\u2013F8) before it: the word would be OXEN. "
        "To play it, type OXEN at 8E."
    )
    down = refusal(rows_board({"H6": "O", "H7": "X"}), "EN", "H8")
    assert (down.whole, down.letters, down.squares, down.position) == (
        "OXEN",
        ("O", "X"),
        ("H6", "H7"),
        "H6",
    )


def test_tiles_on_both_sides_are_named_on_both_sides():
    board = rows_board({"H3": "O", "H4": "X", **SI_BELOW})
    error = refusal(board, "BAWL", "H5")
    assert str(error) == (
        "BAWL runs on into O and X (H3\u2013H4) before it and S and I (H9\u2013H10) after it: "
        "the word would be OXBAWLSI. To play it, type OXBAWLSI at H3."
    )
    assert error.letters == ("O", "X", "S", "I")
    assert error.squares == ("H3", "H4", "H9", "H10")


def test_one_tile_run_on_is_named_alone_and_three_are_listed():
    one = refusal(rows_board({"H9": "S"}), "BAWL", "H5")
    assert "runs on into S (H9):" in str(one)
    three = refusal(rows_board({"H9": "S", "H10": "E", "H11": "A"}), "BAWL", "H5")
    assert "runs on into S, E and A (H9\u2013H11):" in str(three)


def test_a_blank_among_the_run_on_tiles_is_shown_as_the_board_shows_it_and_plays_through():
    board = rows_board({"H9": "s", "H10": "I"})  # the S is a blank
    error = refusal(board, "BAWL", "H5")
    assert error.letters == ("s", "I")
    assert error.whole == "BAWLsI"
    assert "runs on into s and I (H9\u2013H10)" in str(error)
    # The word as the refusal shows it is a play: the s is the blank already there.
    play = board.evaluate(error.whole, error.position)
    assert play.rack_tiles == "BAWL"
    assert play.words[0].spelled == "BAWLsI"


def test_a_blank_typed_in_the_word_is_spelled_as_a_blank_in_the_whole_word():
    board = rows_board(SI_BELOW)
    error = refusal(board, "BA?WL", "H5")
    assert (error.typed, error.whole) == ("BAwL", "BAwLSI")
    assert board.evaluate(error.whole, error.position).rack_tiles == "BA?L"


@pytest.mark.parametrize("typed", ["BAWLSI", "BAWL..", "BAWL(SI)", "BAWLS.", "bawlsi"])
def test_the_whole_word_with_play_through_letters_or_dots_still_plays(typed):
    board = rows_board(SI_BELOW)
    play = board.evaluate(read_typed_word(typed), "H5")
    assert (play.position, play.word, play.rack_tiles) == ("H5", "BAWL..", "BAWL")
    assert play.words[0].word == "BAWLSI"


def test_play_through_inside_the_word_is_unchanged():
    board = rows_board({"I8": "A", "J8": "W"})
    for typed in ("B..L", "BAWL", "B(AW)L"):
        play = board.evaluate(typed, "8H")
        assert (play.word, play.words[0].word) == ("B..L", "BAWL")


def test_the_whole_word_as_the_refusal_writes_it_is_a_legal_play_with_the_same_tiles():
    board = rows_board({"H3": "O", "H4": "X", **SI_BELOW})
    error = refusal(board, "BAWL", "H5")
    play = board.evaluate(error.whole, error.position)
    assert play.words[0].word == error.whole.upper()
    assert play.rack_tiles == "BAWL"


def test_a_lone_tile_typed_the_other_way_is_refused_with_the_word_it_makes_and_where():
    board = rows_board({"L5": "C", "L6": "A", "L7": "T"})
    error = refusal(board, "S", "8L")  # across: nothing beside it; CATS is down
    assert str(error) == (
        "S runs on into C, A and T (L5\u2013L7) before it: the word would be CATS. "
        "To play it, type CATS at L5."
    )
    below = refusal(rows_board({"L6": "A", "L7": "T"}), "S", "5L")
    assert str(below).endswith("the word would be SAT. To play it, type SAT at L5.")


def test_a_word_with_nothing_before_or_after_it_is_not_refused_as_a_run_on():
    board = rows_board({"H8": "A"})
    assert board.evaluate("B.T", "8G").words[0].word == "BAT"
    assert board.evaluate("BAT", "8G").words[0].word == "BAT"
    with pytest.raises(PlacementError) as far:
        board.evaluate("CAT", "2A")
    assert not isinstance(far.value, RunOnError)  # the connection rule, as before


def test_a_refused_run_on_changes_nothing_in_the_game():
    game = rigged_game(
        ScrabbleOptions(turn_order="fixed"), racks=["BAWLXYZ", "EEIOULN"], words=(("H8", "SI"),)
    )
    before = game.to_json()
    with pytest.raises(RunOnError):
        game.play(0, "BAWL", "H4")
    assert game.to_json() == before
    result = game.play(0, "BAWLSI", "H4")
    assert result.main_word == "BAWLSI"
    assert (game.moves[-1]["position"], game.moves[-1]["word"]) == ("H4", "BAWL..")
