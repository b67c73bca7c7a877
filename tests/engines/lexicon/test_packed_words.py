"""The packed word list answers exactly as a plain sorted list would."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engines.lexicon.dawg import word_list_fingerprint
from engines.lexicon.lexicon import Lexicon, LexiconError

LETTERS = "abq"
word = st.text(alphabet=LETTERS, min_size=1, max_size=7)


@settings(max_examples=60, deadline=None)
@given(words=st.sets(word, min_size=1, max_size=300))
def test_membership_prefixes_iteration_and_fingerprint_match_a_sorted_list(words):
    ordered = sorted(words)
    lexicon = Lexicon.from_words(ordered)
    assert list(lexicon) == ordered and len(lexicon) == len(ordered)
    assert lexicon.fingerprint == word_list_fingerprint(ordered).hex()
    for length in range(0, 7):
        for letters in itertools.product(LETTERS + "z", repeat=length):
            probe = "".join(letters)
            expected = [w for w in ordered if w.startswith(probe)]
            assert list(lexicon.words_with_prefix(probe)) == expected, probe
            assert lexicon.has_prefix(probe) == bool(expected), probe
            assert (probe in lexicon) == (probe in words), probe
            assert (probe.upper() in lexicon) == (probe in words), probe


def test_nothing_with_a_line_break_or_of_another_type_is_a_word():
    lexicon = Lexicon.from_words(["cat", "cats"])
    assert "cat\ncats" not in lexicon and "\ncat" not in lexicon and 3 not in lexicon
    assert not lexicon.has_prefix("cat\n") and list(lexicon.words_with_prefix("ca\n")) == []


def test_an_empty_list_is_refused_whether_given_as_words_or_text():
    for empty in ([], ""):
        with pytest.raises(LexiconError, match="has no words"):
            Lexicon("empty", empty, source="memory")


def test_a_word_list_file_edited_twice_is_kept_once(tmp_path):
    from engines.lexicon import lexicon as module
    from engines.lexicon import load_lexicon

    path = tmp_path / "club.txt"
    for words in ("cat\n", "cat\ndog\n", "cat\ndog\nemu\n"):
        path.write_text(words)
        latest = load_lexicon(str(path))
    assert list(latest) == ["cat", "dog", "emu"]
    kept = [key for key in module._loaded if key[:2] == ("file", str(path.resolve()))]
    assert len(kept) == 1
