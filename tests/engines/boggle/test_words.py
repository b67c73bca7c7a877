import pytest

from engines.boggle import (
    Grid,
    WordStatus,
    check_word,
    find_path,
    normalise_word,
    parse_word_list,
    read_words,
)
from engines.lexicon import Lexicon

# C  A  T  S
# O  R  E  N
# D  E  A  L
# Qu I  T  S
GRID = Grid.parse("C A T S/O R E N/D E A L/QU I T S")
LEXICON = Lexicon.from_words(["cats", "cart", "quit", "quits", "deal", "rent", "cat", "dote"])


def test_a_word_traced_through_touching_cells_is_valid():
    verdict = check_word(GRID, "cart", LEXICON)
    assert verdict.status is WordStatus.VALID
    assert verdict.ok
    assert verdict.path == (0, 1, 5, 2)


def test_word_shorter_than_the_minimum_is_too_short():
    assert check_word(GRID, "cat", LEXICON).status is WordStatus.TOO_SHORT
    assert check_word(GRID, "cat", LEXICON, min_length=3).status is WordStatus.VALID


def test_word_that_cannot_be_traced_is_not_on_grid():
    assert check_word(GRID, "dote", LEXICON).status is WordStatus.NOT_ON_GRID


def test_traceable_word_missing_from_the_list_is_not_a_word():
    verdict = check_word(GRID, "aret", LEXICON)
    assert verdict.status is WordStatus.NOT_A_WORD
    assert verdict.path is not None


def test_reasons_are_checked_short_then_grid_then_list():
    # "zz" is short, off the grid and not a word: too short wins.
    assert check_word(GRID, "zz", LEXICON).status is WordStatus.TOO_SHORT
    # "xylophone" is off the grid and not in the list: not on grid wins.
    assert check_word(GRID, "xylophone", LEXICON).status is WordStatus.NOT_ON_GRID


def test_qu_cell_gives_two_letters_so_quit_needs_three_cells_and_counts_four():
    verdict = check_word(GRID, "QUIT", LEXICON, min_length=4)
    assert verdict.ok
    assert verdict.path == (12, 13, 14)


def test_qu_cell_cannot_stand_for_a_lone_q_or_u():
    assert find_path(GRID, "qit") is None
    assert find_path(GRID, "uit") is None


def test_multi_letter_faces_read_in_printed_order_only():
    grid = Grid.parse("HE T/A S")
    assert find_path(grid, "the") == (1, 0)
    assert find_path(grid, "heat") == (0, 2, 1)
    assert find_path(grid, "teh") is None  # the HE cell never reads EH


def test_a_word_may_use_each_cell_only_once():
    grid = Grid.parse("A B/C D")
    assert find_path(grid, "abca") is None
    assert find_path(grid, "abcd") is not None


def test_diagonal_cells_touch_but_distant_cells_do_not():
    grid = Grid.parse("ABC/DEF/GHI")
    assert find_path(grid, "aei") == (0, 4, 8)
    assert find_path(grid, "ac") is None
    assert find_path(grid, "ai") is None


def test_words_are_judged_after_case_folding_and_trimming_punctuation():
    assert check_word(GRID, '"Cart!"', LEXICON).status is WordStatus.VALID
    assert check_word(GRID, "don't", LEXICON).status is WordStatus.NOT_ON_GRID


@pytest.mark.parametrize(
    ("written", "normalised"),
    [("Cats!", "cats"), ("  'tame',", "tame"), ("don't", "don't"), ("...", ""), ("QUIT", "quit")],
)
def test_normalise_word_folds_case_and_trims_end_punctuation(written, normalised):
    assert normalise_word(written) == normalised


def test_parse_word_list_splits_on_spaces_commas_semicolons_and_lines():
    text = "cat, dog;bird\nfish   tree,,\n\n  ant;"
    assert parse_word_list(text) == ["cat", "dog", "bird", "fish", "tree", "ant"]
    assert parse_word_list("   ") == []


def test_a_list_keeps_only_tokens_of_letters_and_says_which_it_left_out():
    read = read_words("Cats, word:QUIZ 8H dogs! don't e-mail ... cats quiz2 café")
    assert read.words == ("cats", "dogs", "café")
    assert read.not_letters == ("word:QUIZ", "8H", "don't", "e-mail", "quiz2")
    assert read.too_long == ()
    assert read.dropped == 5


def test_a_word_longer_than_the_grid_can_spell_is_left_out():
    assert GRID.letters == 17  # sixteen cells, one of them Qu
    long_run = "a" * 975
    read = read_words(f"cats {long_run} {'b' * 17} {'c' * 18} {long_run}", GRID.letters)
    assert read.words == ("cats", "b" * 17)
    assert read.too_long == (long_run, "c" * 18)  # each once
    assert read_words(long_run).words == (long_run,)  # no grid, no limit


def test_tokens_already_split_are_read_the_same_way():
    assert read_words(["CATS!", "12", "cats", "dogs"]).words == ("cats", "dogs")
    assert read_words(["CATS!", "12"]).not_letters == ("12",)
