"""Words to guess: categories, languages, the built-in bank, and picking one.

A word is never used twice in one event; the caller passes the keys already
used (see ``text.word_key``) and an RNG, so a pick is reproducible from a seed.
"""

from __future__ import annotations

import random
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from engines.henyo.bank import BANK_TEXT
from engines.henyo.text import compact, normalize, word_key
from engines.text import N_, Text, TextError

CATEGORIES: tuple[str, ...] = ("Tao", "Bagay", "Hayop", "Pagkain", "Lugar")
CATEGORY_MEANINGS = {
    "Tao": N_("person"),
    "Bagay": N_("thing"),
    "Hayop": N_("animal"),
    "Pagkain": N_("food"),
    "Lugar": N_("place"),
}
LANGUAGES: dict[str, str] = {"fil": N_("Filipino"), "en": N_("English")}
ANY_LANGUAGE = "any"
MAX_WORD_LENGTH = 60
MAX_WORDS_IN_PHRASE = 5

_CATEGORY_ALIASES = {
    **{c.lower(): c for c in CATEGORIES},
    **{meaning: c for c, meaning in CATEGORY_MEANINGS.items()},
    "people": "Tao",
    "persons": "Tao",
    "things": "Bagay",
    "object": "Bagay",
    "objects": "Bagay",
    "animals": "Hayop",
    "foods": "Pagkain",
    "places": "Lugar",
}
_LANGUAGE_ALIASES = {
    "fil": "fil",
    "filipino": "fil",
    "tagalog": "fil",
    "tl": "fil",
    "pilipino": "fil",
    "en": "en",
    "eng": "en",
    "english": "en",
    "ingles": "en",
    "any": ANY_LANGUAGE,
    "both": ANY_LANGUAGE,
    "all": ANY_LANGUAGE,
    "": ANY_LANGUAGE,
}


class HenyoWordError(TextError):
    """A word, category or language a member gave cannot be used; the message says why."""


@dataclass(frozen=True)
class WordEntry:
    """A word of the bank: its text, category and language (``fil`` or ``en``)."""

    text: str
    category: str
    language: str

    @property
    def key(self) -> str:
        """The word's identity in the bank: two entries with one key are one word."""
        return word_key(self.text)


def parse_category(text: str) -> str:
    """``hayop``, ``Animal`` or ``animals`` → ``Hayop``."""
    found = _CATEGORY_ALIASES.get(normalize(text))
    if found is None:
        raise HenyoWordError(
            N_("{typed} is not a category: use {categories}."),
            typed=f"`{text[:30]}`",
            categories=", ".join(CATEGORIES),
        )
    return found


def parse_categories(text: str | None) -> tuple[str, ...]:
    """A comma- or space-separated list of categories; empty means all of them."""
    if text is None or not text.strip():
        return CATEGORIES
    parts = [p for p in text.replace(",", " ").replace(";", " ").split() if p]
    chosen = {parse_category(p) for p in parts}
    return tuple(c for c in CATEGORIES if c in chosen)


def parse_language(text: str | None, *, allow_any: bool = True) -> str:
    """``Filipino``/``fil``/``tagalog`` → ``fil``; ``English``/``en`` → ``en``; ``both`` → ``any``."""
    found = _LANGUAGE_ALIASES.get(normalize(text or ""))
    if found is None or (found == ANY_LANGUAGE and not allow_any):
        choices = (
            Text(N_("Filipino or English (or both)"))
            if allow_any
            else Text(N_("Filipino or English"))
        )
        raise HenyoWordError(
            N_("{typed} is not a language here: use {choices}."),
            typed=f"`{(text or '')[:20]}`",
            choices=choices,
        )
    return found


def clean_word(text: str) -> str:
    """The word as it will be shown: trimmed, inner spacing collapsed; refused if unusable."""
    shown = " ".join(text.split())
    if not shown:
        raise HenyoWordError(N_("Give a word or a short phrase."))
    if len(shown) > MAX_WORD_LENGTH:
        raise HenyoWordError(
            N_("Keep it to {maximum} characters: a word or a short phrase."),
            maximum=MAX_WORD_LENGTH,
        )
    if not compact(shown):
        raise HenyoWordError(N_("That has no letters or digits to guess."))
    if len(normalize(shown).split()) > MAX_WORDS_IN_PHRASE:
        raise HenyoWordError(
            N_("A phrase of at most {maximum} words, please."), maximum=MAX_WORDS_IN_PHRASE
        )
    return shown


# Between a bank word's letters: spaces, hyphens (ASCII and Unicode) and
# apostrophes (straight and curly), as in "kare-kare" or "Jack 'n' Jill".
_JOINERS = frozenset(" -\u2010\u2011'\u2019")


def clean_bank_word(text: str) -> str:
    """A word or short phrase for the club's bank: letters (Filipino ones like
    ``Ñ`` too) joined by spaces, hyphens or apostrophes, at most
    ``MAX_WORD_LENGTH`` characters. The refusals never repeat what was typed."""
    shown = " ".join(unicodedata.normalize("NFC", text).split())
    if not shown:
        raise HenyoWordError(N_("Give a word or a short phrase."))
    if not all(char.isalpha() or char in _JOINERS for char in shown) or not any(
        char.isalpha() for char in shown
    ):
        raise HenyoWordError(
            N_(
                "A Henyo word is letters only (Ñ and other accented letters too), with spaces, "
                "hyphens or apostrophes between them: no digits, symbols, mentions, links or "
                "emoji. Nothing was added."
            )
        )
    if len(shown) > MAX_WORD_LENGTH:
        raise HenyoWordError(
            N_("Keep it to {maximum} characters (that one has {count}): a word or a short phrase."),
            maximum=MAX_WORD_LENGTH,
            count=len(shown),
        )
    return clean_word(shown)


def _parse_bank() -> tuple[WordEntry, ...]:
    entries = []
    for (category, language), block in BANK_TEXT.items():
        for line in block.splitlines():
            text = line.strip()
            if text:
                entries.append(WordEntry(text, category, language))
    return tuple(entries)


@lru_cache(maxsize=1)
def builtin_words() -> tuple[WordEntry, ...]:
    """Every built-in word, in bank order."""
    return _parse_bank()


def filter_words(
    words: Iterable[WordEntry],
    *,
    categories: Sequence[str] | None = None,
    language: str = ANY_LANGUAGE,
) -> list[WordEntry]:
    """The words in ``categories`` (all when none are given) and ``language`` (any by default)."""
    wanted = set(categories or CATEGORIES)
    return [
        w
        for w in words
        if w.category in wanted and (language == ANY_LANGUAGE or w.language == language)
    ]


def pick_word(
    words: Sequence[WordEntry],
    rng: random.Random,
    *,
    used_keys: Iterable[str] = (),
    categories: Sequence[str] | None = None,
    language: str = ANY_LANGUAGE,
) -> WordEntry:
    """A random word from ``words`` matching the filters that has not been used yet."""
    used = set(used_keys)
    seen: set[str] = set()
    candidates = []
    for word in filter_words(words, categories=categories, language=language):
        if word.key not in used and word.key not in seen:
            seen.add(word.key)
            candidates.append(word)
    if not candidates:
        where = "/".join(categories or CATEGORIES)
        if language == ANY_LANGUAGE:
            raise HenyoWordError(
                N_("No unused {categories} words are left: add some with `/henyo words add`."),
                categories=where,
            )
        raise HenyoWordError(
            N_(
                "No unused {categories} words are left in {language}: "
                "add some with `/henyo words add`."
            ),
            categories=where,
            language=Text(LANGUAGES[language]),
        )
    return rng.choice(candidates)
