from __future__ import annotations

import random
from collections import Counter

import pytest

from engines.henyo.text import compact
from engines.henyo.words import (
    CATEGORIES,
    HenyoWordError,
    WordEntry,
    builtin_words,
    clean_bank_word,
    clean_word,
    parse_categories,
    parse_category,
    parse_language,
    pick_word,
)


def test_the_bank_has_at_least_300_words_in_every_category_and_both_languages() -> None:
    words = builtin_words()
    assert len(words) >= 300
    per_kind = Counter((w.category, w.language) for w in words)
    for category in CATEGORIES:
        for language in ("fil", "en"):
            assert per_kind[(category, language)] >= 25, (category, language)


def test_the_bank_has_no_word_twice_and_every_word_is_guessable() -> None:
    words = builtin_words()
    keys = Counter(w.key for w in words)
    assert [k for k, n in keys.items() if n > 1] == []
    for word in words:
        assert clean_word(word.text) == word.text
        assert clean_bank_word(word.text) == word.text


def test_a_pick_never_repeats_a_used_word_and_respects_filters() -> None:
    rng = random.Random(7)
    used: set[str] = set()
    for _ in range(30):
        word = pick_word(builtin_words(), rng, used_keys=used, categories=["Hayop"], language="fil")
        assert word.category == "Hayop" and word.language == "fil"
        assert word.key not in used
        used.add(word.key)


def test_a_pick_is_reproducible_from_its_seed() -> None:
    first = pick_word(builtin_words(), random.Random(42))
    again = pick_word(builtin_words(), random.Random(42))
    assert first == again


def test_running_out_of_words_says_how_to_add_more() -> None:
    words = [WordEntry("aso", "Hayop", "fil")]
    with pytest.raises(HenyoWordError, match="/henyo words add"):
        pick_word(words, random.Random(1), used_keys={compact("ASO")})


@pytest.mark.parametrize(
    ("typed", "category"),
    [("hayop", "Hayop"), ("Animal", "Hayop"), ("places", "Lugar"), ("TAO", "Tao")],
)
def test_categories_are_read_in_filipino_or_english(typed: str, category: str) -> None:
    assert parse_category(typed) == category


def test_a_category_list_keeps_the_sheet_order_and_empty_means_all() -> None:
    assert parse_categories("food, animal") == ("Hayop", "Pagkain")
    assert parse_categories(None) == CATEGORIES
    with pytest.raises(HenyoWordError, match="not a category"):
        parse_categories("food, cars")


def test_languages_are_read_by_name_or_code() -> None:
    assert [parse_language(t) for t in ("Filipino", "tagalog", "en", "both", None)] == [
        "fil",
        "fil",
        "en",
        "any",
        "any",
    ]
    with pytest.raises(HenyoWordError):
        parse_language("both", allow_any=False)
    with pytest.raises(HenyoWordError):
        parse_language("klingon")


@pytest.mark.parametrize("typed", ["", "   ", "!!!", "x" * 61, "one two three four five six"])
def test_unusable_words_are_refused(typed: str) -> None:
    with pytest.raises(HenyoWordError):
        clean_word(typed)


def test_a_word_is_trimmed_and_its_spacing_collapsed() -> None:
    assert clean_word("  Sari-sari   store ") == "Sari-sari store"


@pytest.mark.parametrize(
    "typed", ["Niño", "ÑANDU", "Jack 'n' Jill", "Ñora’s pie", "ube-keso", "n\u0303a"]
)
def test_the_bank_takes_letters_of_any_alphabet_with_spaces_hyphens_and_apostrophes(
    typed: str,
) -> None:
    assert clean_bank_word(typed)


@pytest.mark.parametrize(
    "typed", ["<@&1>", "@everyone", "a1", "pusa 🐱", "http://x", "a_b", "a.b", "-'-", "`x`"]
)
def test_the_bank_refuses_anything_else_without_repeating_it(typed: str) -> None:
    with pytest.raises(HenyoWordError, match="letters only") as refused:
        clean_bank_word(typed)
    assert typed not in str(refused.value)


def test_the_bank_says_its_length_limit() -> None:
    with pytest.raises(HenyoWordError, match="60 characters"):
        clean_bank_word("a" * 61)
