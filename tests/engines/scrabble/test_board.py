"""Board-level reading, validation and hand-worked scores."""

from __future__ import annotations

import pytest

from engines.scrabble import (
    Board,
    NotationError,
    PlacementError,
    RackError,
    RunOnError,
    UndeclaredBlankError,
)
from engines.scrabble.board import face_value, parse_position, read_typed_word, typed_notation


def board_with(*plays: tuple[str, str]) -> Board:
    board = Board()
    for position, word in plays:
        board.apply(board.evaluate(word, position))
    return board


def rows_board(cells: dict[str, str]) -> Board:
    """A board with loose tiles put straight on squares (geometry-free set-up)."""
    board = Board()
    for square, cell in cells.items():
        row, col, _ = parse_position(square)
        board.cells[row * 15 + col] = cell
    board.count = len(cells)
    return board


# -- positions -------------------------------------------------------------------


def test_number_first_position_reads_across_and_letter_first_reads_down():
    assert parse_position("8H") == (7, 7, True)
    assert parse_position("h8") == (7, 7, False)
    assert parse_position(" 15 o ") == (14, 14, True)


def test_explicit_direction_overrides_the_position_order():
    assert parse_position("H8", "across") == (7, 7, True)
    assert parse_position("8H", "down") == (7, 7, False)


@pytest.mark.parametrize("text", ["", "H", "8", "Z8", "8Z", "16A", "A0", "A16", "HH8"])
def test_unreadable_or_off_board_positions_are_refused_with_a_hint(text):
    with pytest.raises(NotationError) as err:
        parse_position(text)
    assert "row" in str(err.value) or "column" in str(err.value)


def test_unknown_direction_word_is_refused():
    with pytest.raises(NotationError, match="across or down"):
        parse_position("8H", "sideways")


# -- hand-worked scores ------------------------------------------------------------


def test_opening_bingo_scores_letter_then_word_premium_plus_fifty():
    # R E T A I N S on H8..N8: I lands on L8 (double letter) -> 8, x2 (H8) = 16, +50.
    play = Board().evaluate("RETAINS", "8H")
    assert play.score == 66
    assert play.bingo


def test_word_covering_two_double_word_squares_counts_four_times():
    # C on E5 (DW) and S on K5 (DW) around ARTON already on the board.
    board = rows_board({"F5": "A", "G5": "R", "H5": "T", "I5": "O", "J5": "N"})
    play = board.evaluate("C.....S", "5E")
    assert [w.word for w in play.words] == ["CARTONS"]
    assert play.score == (3 + 1 + 1 + 1 + 1 + 1 + 1) * 4


def test_word_covering_two_triple_word_squares_counts_nine_times():
    # Q on A1 (TW), S on H1 (TW); the U on D1's double letter was placed earlier: no premium.
    board = rows_board({"B1": "U", "C1": "A", "D1": "R", "E1": "T", "F1": "E", "G1": "R"})
    play = board.evaluate("QUARTERS", "1A")
    assert play.score == (10 + 1 + 1 + 1 + 1 + 1 + 1 + 1) * 9 == 153


def test_blank_on_a_double_word_square_scores_zero_but_still_doubles_the_word():
    play = Board().evaluate("JoT", "8G")
    assert play.score == (8 + 0 + 1) * 2
    assert play.words[0].spelled == "JoT"
    assert play.words[0].word == "JOT"


def test_blank_written_with_question_mark_is_the_same_as_lower_case():
    assert Board().evaluate("J?OT", "8G") == Board().evaluate("JoT", "8G")


def test_cross_words_each_count_the_new_tile_with_its_premium():
    # AT on H8-I8; OX on H9-I9: X on I9 (double letter) counts doubled in OX and in TX.
    board = board_with(("8H", "AT"))
    play = board.evaluate("OX", "9H")
    scored = {w.word: w.score for w in play.words}
    assert scored == {"OX": 1 + 16, "AO": 2, "TX": 1 + 16}
    assert play.score == 36


def test_premium_under_an_old_tile_does_not_count_again():
    board = board_with(("8G", "ZA"))  # Z on G8, A on H8 (DW) -> 22
    play = board.evaluate("..G", "8G")
    assert play.score == 10 + 1 + 2


def test_single_tile_scores_both_words_it_forms():
    board = board_with(("8H", "AT"), ("H7", "B."))
    # B is on H7 above the A; an S on I7 makes BS across and ST down (typed S. down).
    play = board.evaluate("S.", "I7", "down")
    words = sorted(w.word for w in play.words)
    assert words == ["BS", "ST"]


def test_a_single_tile_is_typed_as_the_word_it_makes_not_as_itself():
    board = board_with(("8H", "AT"))
    with pytest.raises(RunOnError) as refused:
        board.evaluate("S", "8J", "down")  # makes ATS across, nothing down
    assert (refused.value.whole, refused.value.position) == ("ATS", "8H")
    play = board.evaluate("..S", "8H")
    assert play.notation == "8H ..S"
    assert play.score == 3


def test_nine_tile_play_earns_one_bingo_bonus():
    play = Board().evaluate("RELATIONS", "8D")
    # D8..L8: R on D8 and S on L8 are doubled (double letter), T on H8 doubles the word.
    letters = 1 * 2 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 * 2
    assert play.score == letters * 2 + 50


def test_six_tiles_earn_no_bingo():
    play = Board().evaluate("RETAIN", "8H")
    assert not play.bingo
    assert play.score == (1 + 1 + 1 + 1 + 2 + 1) * 2


def test_face_value_counts_blanks_as_zero():
    assert face_value("Q?Z") == 20
    assert face_value("QeZ") == 20


# -- notation leniency -----------------------------------------------------------------


def test_capital_letter_over_a_matching_board_tile_plays_through_it():
    board = board_with(("8H", "CAT"))
    assert board.evaluate("CATS", "8H").tiles == board.evaluate("...S", "8H").tiles


def test_letters_in_brackets_play_through():
    board = board_with(("8H", "QI"))
    assert board.evaluate("(QI)S", "8H").rack_tiles == "S"


def test_lower_case_over_a_blank_on_the_board_plays_through_it():
    board = board_with(("8H", "CaT"))
    play = board.evaluate("caTS", "8H")
    assert play.rack_tiles == "S"
    assert play.word == "...S"


def test_canonical_notation_marks_the_tiles_already_there_with_dots():
    board = board_with(("8H", "CAT"))
    play = board.evaluate("CATS", "8H")
    assert (play.position, play.word) == ("8H", "...S")


# -- geometry errors ---------------------------------------------------------------------


def test_occupied_square_names_the_square():
    board = board_with(("8H", "CAT"))
    with pytest.raises(PlacementError, match="I8 is already taken"):
        board.evaluate("COT", "8H")


def test_dot_over_an_empty_square_is_a_gap():
    board = board_with(("8H", "CAT"))
    with pytest.raises(PlacementError, match="there is a gap at L8"):
        board.evaluate("...S.S", "8H")


def test_loose_tiles_with_a_hole_report_the_gap():
    board = board_with(("8H", "CAT"))
    with pytest.raises(PlacementError, match="there is a gap at L9"):
        board.evaluate_tiles([("K9", "A"), ("M9", "E")])


def test_loose_tiles_off_one_line_are_refused():
    with pytest.raises(PlacementError, match="words must be in one row or column"):
        Board().evaluate_tiles([("H8", "A"), ("I9", "T")])


def test_first_play_must_cover_the_centre():
    with pytest.raises(PlacementError, match="the first play must cover the centre square H8"):
        Board().evaluate("CAT", "7H")


def test_first_play_needs_two_tiles():
    with pytest.raises(PlacementError, match="the first play needs at least two tiles"):
        Board().evaluate("A", "8H")


def test_play_away_from_the_tiles_must_touch_the_board():
    board = board_with(("8H", "CAT"))
    with pytest.raises(PlacementError, match="tiles must touch the board"):
        board.evaluate("DOG", "2A")


def test_word_running_off_the_edge_is_refused():
    board = board_with(("8H", "CAT"))
    with pytest.raises(PlacementError, match="runs off the board after O8"):
        board.evaluate("...SESSES", "8H")


def test_question_mark_without_a_letter_asks_which_letter_the_blank_is():
    with pytest.raises(UndeclaredBlankError, match="say which letter the blank is"):
        Board().evaluate("CA?", "8H")


def test_strange_characters_in_the_word_are_refused():
    with pytest.raises(NotationError, match="can't read '3'"):
        Board().evaluate("C3T", "8H")


@pytest.mark.parametrize("word", ["C\ufb06", "?\ufb06A", "?éA", "ÇA"])
def test_non_english_letters_are_refused_even_when_upper_case_looks_english(word):
    with pytest.raises(NotationError):
        Board().evaluate(word, "8H")


def test_loose_tile_with_a_ligature_is_refused():
    with pytest.raises(NotationError):
        Board().evaluate_tiles([("H8", "\ufb06"), ("I8", "?\ufb06")])


def test_play_that_only_covers_existing_tiles_places_nothing():
    board = board_with(("8H", "CAT"))
    with pytest.raises(PlacementError, match="place at least one tile"):
        board.evaluate("CAT", "8H")


@pytest.mark.parametrize(
    ("rack", "word", "message"),
    [
        ("ABCDEFG", "EE", "you have no second E"),
        ("ABCDFGH", "EH", "you have no E"),
        ("ABCDFG?", "EA", "write ?E in its place"),
        ("ABCDFGH", "EA", "you have no E and no blank"),
        ("ABCDEFG", "eA", "you have no blank"),
        ("EEABCDF", "EEE", "you have no third E"),
    ],
)
def test_missing_tiles_say_exactly_which_tile_is_missing(rack, word, message):
    with pytest.raises(RackError, match=message.replace("?", r"\?")):
        Board().evaluate(word, "8H", rack=rack)


def test_evaluation_leaves_the_board_unchanged():
    board = board_with(("8H", "CAT"))
    before = board.rows()
    board.evaluate("...S", "8H")
    with pytest.raises(RunOnError):
        board.evaluate("S", "8K")
    with pytest.raises(PlacementError):
        board.evaluate("DOG", "2A")
    assert board.rows() == before


def test_rows_round_trip_through_from_rows():
    board = board_with(("8H", "CaT"), ("H7", "B."))
    assert Board.from_rows(board.rows()) == board
    assert Board.from_rows(board.rows()).count == 4


# -- words as members type them -------------------------------------------------------------------


@pytest.mark.parametrize(
    "typed,read",
    [
        ("enjoy", "ENJOY"),  # all lower case: plain letters (as phones type)
        ("ENJOY", "ENJOY"),
        ("?enjoy", "?eNJOY"),  # ?x: a blank, whatever the case around it
        ("en?Joy", "EN?JOY"),
        ("ENjOY", "ENjOY"),  # capitals with a lower-case letter: that letter is a blank (GCG)
        ("j.be", "J.BE"),
        ("(j)ibe", "(J)IBE"),
    ],
)
def test_a_typed_word_is_plain_letters_unless_a_blank_is_marked(typed, read):
    assert read_typed_word(typed) == read


def test_a_typed_word_in_lower_case_plays_its_letters_and_a_marked_blank_plays_as_a_blank():
    board = Board()
    plain = board.evaluate(read_typed_word("enjoy"), "8H", rack="ENJOYAB")
    assert plain.rack_tiles == "ENJOY" and plain.score > 0
    blank = board.evaluate(read_typed_word("en?joy"), "8H", rack="ENOY?AB")
    assert blank.rack_tiles == "EN?OY" and blank.word == "ENjOY"
    with pytest.raises(RackError, match=r"no J .*write \?J in its place"):
        board.evaluate(read_typed_word("enjoy"), "8H", rack="ENOY?AB")


def test_typed_notation_marks_each_blank_so_any_case_reads_the_same():
    assert typed_notation("ENjOY") == "EN?JOY" and typed_notation(".e") == ".?E"
    assert read_typed_word(typed_notation(".e")) == ".?E"
    assert typed_notation("EN?jOY") == "EN?JOY"  # already marked: unchanged
