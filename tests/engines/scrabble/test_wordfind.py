"""Word study on a small list: anagrams with blanks, hooks, patterns, and the
member's text read or refused; each search against a brute-force oracle."""

from __future__ import annotations

import re
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engines.lexicon import Lexicon
from engines.scrabble import wordfind
from engines.scrabble.wordfind import (
    WordQueryError,
    anagrams,
    hooks,
    pattern_words,
    read_letters,
    read_pattern,
    read_word,
)

WORDS = [
    "a",  # one letter: never a result (a board holds words of 2 or more)
    "at",
    "ta",
    "ate",
    "eat",
    "tea",
    "eta",
    "rate",
    "tear",
    "tare",
    "stare",
    "tears",
    "aster",
    "rates",
    "treats",
    "care",
    "scare",
    "cares",
    "cared",
    "carer",
    "scared",
    "qi",
    "qis",
    "zax",
    "abcdefghijklmnop",  # 16 letters: longer than a board
]
SMALL = Lexicon.from_words(WORDS, name="small")
BOARD_WORDS = sorted(w.upper() for w in WORDS if 2 <= len(w) <= 15)


def _fits(word: str, tiles: str) -> bool:
    have = Counter(tiles.replace("?", ""))
    need = Counter(word)
    missing = sum(max(0, n - have[letter]) for letter, n in need.items())
    return missing <= tiles.count("?")


# -- anagrams ------------------------------------------------------------------------------------


def test_anagrams_list_full_length_words_first_then_shorter_alphabetically():
    found = anagrams(SMALL, "stare", limit=100)
    assert found.words == (
        "ASTER",
        "RATES",
        "STARE",
        "TEARS",
        "RATE",
        "TARE",
        "TEAR",
        "ATE",
        "EAT",
        "ETA",
        "TEA",
        "AT",
        "TA",
    )
    assert found.total == 13 and found.left_out == 0
    assert found.lengths == ((5, 4), (4, 3), (3, 4), (2, 2))


def test_full_only_keeps_the_words_that_use_every_letter():
    assert anagrams(SMALL, "S T A R E", limit=10, full_only=True).words == (
        "ASTER",
        "RATES",
        "STARE",
        "TEARS",
    )


def test_a_blank_s_letter_is_lower_case_and_tiles_are_used_before_blanks():
    found = anagrams(SMALL, "TREAT?", limit=100, full_only=True)
    assert found.words == ("TREATs",)
    # Two blanks: QIS and QI with the tile I, AT and TA all blanks.
    assert anagrams(SMALL, "I??", limit=100).words == ("qIs", "at", "qI", "ta")
    # CARER from CARE and a blank: the tile R first, the blank's r second.
    assert anagrams(SMALL, "CARE?", limit=100, full_only=True).words == (
        "CAREd",
        "CAREr",
        "CAREs",
        "sCARE",
    )


def test_the_limit_keeps_the_first_words_and_counts_the_rest():
    found = anagrams(SMALL, "stare", limit=3)
    assert found.words == ("ASTER", "RATES", "STARE") and found.total == 13
    assert found.left_out == 10


@settings(max_examples=150, deadline=None)
@given(st.text(alphabet="ACDEIQRSTXZ", min_size=1, max_size=7), st.integers(0, 2))
def test_anagrams_are_every_word_the_tiles_make(letters, blanks):
    tiles = letters + "?" * blanks
    found = anagrams(SMALL, tiles, limit=1000)
    expected = [w for w in BOARD_WORDS if len(w) <= len(tiles) and _fits(w, tiles)]
    assert sorted(w.upper() for w in found.words) == expected
    assert found.total == len(expected)
    for word in found.words:  # the blanks shown are exactly the letters the tiles lack
        assert sum(c.islower() for c in word) <= blanks
        assert Counter(c for c in word if c.isupper()) <= Counter(letters)
    ordered = sorted(found.words, key=lambda w: (-len(w), w.upper()))
    assert list(found.words) == ordered


# -- hooks ---------------------------------------------------------------------------------------


def test_hooks_give_front_and_back_letters_and_whether_the_word_is_valid():
    assert hooks(SMALL, "care") == wordfind.Hooks("CARE", True, "S", "DRS")
    assert hooks(SMALL, "QI") == wordfind.Hooks("QI", True, "", "S")
    assert hooks(SMALL, "TARES") == wordfind.Hooks("TARES", False, "", "")
    assert hooks(SMALL, "ARE") == wordfind.Hooks("ARE", False, "CT", "")
    assert hooks(SMALL, "A").valid is False  # one letter: not a board word


# -- patterns ------------------------------------------------------------------------------------


def test_a_question_mark_is_one_letter_and_a_star_any_run():
    assert pattern_words(SMALL, "?A?E", limit=50).words == ("CARE", "RATE", "TARE")
    assert pattern_words(SMALL, "*ARE*", limit=50).words == (
        "SCARED",
        "CARED",
        "CARER",
        "CARES",
        "SCARE",
        "STARE",
        "CARE",
        "TARE",
    )
    assert pattern_words(SMALL, "Q*", limit=50).words == ("QIS", "QI")
    assert pattern_words(SMALL, "zax", limit=50).words == ("ZAX",)
    # A word longer than a board is never found, walked or scanned.
    assert pattern_words(SMALL, "AB*", limit=50).total == 0
    assert pattern_words(SMALL, "*P", limit=50).total == 0


def test_runs_of_blanks_and_stars_are_read_in_one_order():
    assert read_pattern("*?*?") == "??*"
    assert read_pattern("c a*?r ") == "CA?*R"
    assert read_pattern("**ing") == "*ING"


def _oracle(pattern: str) -> list[str]:
    expression = re.compile(
        "^" + "".join({"?": "[A-Z]", "*": "[A-Z]*"}.get(c, c) for c in pattern) + "$"
    )
    return [w for w in BOARD_WORDS if expression.match(w)]


@settings(max_examples=150, deadline=None)
@given(st.text(alphabet="ACERST?*", min_size=1, max_size=7))
def test_patterns_match_what_a_regular_expression_matches(text):
    try:
        pattern = read_pattern(text)
    except WordQueryError:
        assert text.replace("*", "") == ""  # only runs: refused
        return
    found = pattern_words(SMALL, pattern, limit=1000)
    assert sorted(found.words) == _oracle(pattern)
    assert list(found.words) == sorted(found.words, key=lambda w: (-len(w), w))


def test_a_pattern_too_broad_for_the_walk_is_scanned_with_the_same_answer(monkeypatch):
    walked = pattern_words(SMALL, "?A*", limit=50)
    monkeypatch.setattr(wordfind, "WALK_BUDGET", 3)
    scanned = pattern_words(SMALL, "?A*", limit=50)
    assert walked == scanned and walked.total == 10
    # A pattern starting with a run is scanned straight away, a plain set of words too.
    assert pattern_words(set(WORDS), "*S", limit=50).words == (
        "TREATS",
        "CARES",
        "RATES",
        "TEARS",
        "QIS",
    )


# -- refusals ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("read", "text", "says"),
    [
        (read_letters, "  ", "Give the letters"),
        (read_letters, "AB1", "A to Z, with `?` for a blank: `AB1` has others"),
        (read_letters, "AB???", "At most 2 blanks"),
        (read_letters, "A" * 16, "At most 15 letters"),
        (read_word, "", "Give a word"),
        (read_word, "CAN'T", "letters A to Z: `CAN'T` has others"),
        (read_word, "A" * 16, "At most 15 letters"),
        (read_pattern, "", "Give a pattern"),
        (read_pattern, "***", "`*` alone is every word"),
        (read_pattern, "C.T", "A pattern is letters A to Z, `?` and `*`: `C.T` has others"),
        (read_pattern, "?" * 16, "at most 15 letters and `?`"),
    ],
)
def test_text_that_can_t_be_read_is_refused_with_the_reason(read, text, says):
    with pytest.raises(WordQueryError) as refused:
        read(text)
    assert says in str(refused.value)
    assert refused.value.text.template  # kept for the club's language


def test_a_backtick_of_the_member_s_cannot_end_the_code_span_it_is_shown_in():
    with pytest.raises(WordQueryError, match="`A'B` has others"):
        read_word("a`b")


def test_letters_words_and_patterns_are_read_in_upper_case():
    assert read_letters("ae inr,st??") == "AEINRST??"
    assert read_word(" care ") == "CARE"
