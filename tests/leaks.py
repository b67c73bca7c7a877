"""Whether a text shows a secret (a Henyo word, a rack, a bot token): the tests' one leak check.

A secret shows when it appears as whole words, read the way the Henyo referee
reads a guess (``engines.henyo.text.normalize``): case, accents and
punctuation do not count, and neither does how it is spaced or hyphenated
("ice cream", "Ice-Cream!", "icecream"). It never shows inside a longer word,
so a short secret is not "found" by chance: "ate" is not in "static gateway",
but it is in "the word was ATE.".

Secrets shorter than ``MIN_SECRET_LENGTH`` letters cannot be told apart from
ordinary text and are not looked for.

Nor is a secret shown by the bot's own fixed wording: when the Henyo word is
"library" or "clock", "**Library Henyo**" and "The clock is running" are
printed whatever the word is, so they tell nobody anything. Those phrases are
the literal parts of the bot's messages (every message in the catalogue, in
English and in each translation, cut at its placeholders); where one holds the
secret among other words, that occurrence is not counted. The secret anywhere
else in the same text still is.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable
from pathlib import Path

from babel.messages.pofile import read_po

from engines.henyo.text import compact, normalize

LOCALE_DIR = Path(__file__).resolve().parent.parent / "bot" / "locale"
_PLACEHOLDER = re.compile(r"\{[^{}]*\}")
_FIXED = "\x00"  # what a fixed phrase becomes: never a letter of a secret

MIN_SECRET_LENGTH = 3
REDACTED = "«secret»"


def _form(secret: str) -> str:
    """The secret's letters and digits as compared (lowercase, no accents, no breaks)."""
    return compact(secret)


def secret_pattern(secrets: Iterable[str]) -> re.Pattern[str] | None:
    """One pattern that finds any of ``secrets`` in a ``normalize``d text (``None``: nothing to find).

    In normalised text words are separated by single spaces; a secret matches a
    run of whole words whose letters, put together, are the secret's.
    """
    forms = sorted(
        {f for f in map(_form, secrets) if len(f) >= MIN_SECRET_LENGTH}, key=len, reverse=True
    )
    if not forms:
        return None
    alternatives = "|".join(" ?".join(re.escape(char) for char in form) for form in forms)
    return re.compile(rf"(?<![^ ])(?:{alternatives})(?![^ ])")


@functools.cache
def fixed_phrases() -> tuple[str, ...]:
    """The literal parts of every message the bot prints, normalised, longest first."""
    catalogues = [LOCALE_DIR / "clubbot.pot", *sorted(LOCALE_DIR.glob("*/LC_MESSAGES/*.po"))]
    texts: set[str] = set()
    for path in catalogues:
        with path.open("rb") as handle:
            catalogue = read_po(handle)
        for message in catalogue:
            for text in (message.id, message.string):
                for one in text if isinstance(text, tuple | list) else (text,):
                    texts.update(normalize(part) for part in _PLACEHOLDER.split(one or ""))
    return tuple(sorted((t for t in texts if " " in t), key=len, reverse=True))


@functools.lru_cache(maxsize=1024)
def _phrases_holding(pattern: re.Pattern[str]) -> tuple[re.Pattern[str], ...]:
    """The bot's fixed phrases that hold a match of ``pattern`` among other words."""
    found = []
    for phrase in fixed_phrases():
        match = pattern.search(phrase)
        if match is not None and match.group(0) != phrase:
            found.append(re.compile(rf"(?<![^ ]){re.escape(phrase)}(?![^ ])"))
    return tuple(found)


def _shows(words: str, pattern: re.Pattern[str]) -> bool:
    """Whether normalised ``words`` hold a match of ``pattern`` outside the bot's fixed wording."""
    if not pattern.search(words):
        return False
    for phrase in _phrases_holding(pattern):
        words = phrase.sub(_FIXED, words)
    return bool(pattern.search(words))


def shows_secret(text: str | None, secret: str) -> bool:
    """Whether ``text`` shows ``secret`` as a word (or words)."""
    return bool(shown_secrets(text, [secret]))


def shown_secrets(text: str | None, secrets: Iterable[str]) -> list[str]:
    """The ones of ``secrets`` that ``text`` shows, in the order given."""
    if not text:
        return []
    words = normalize(text)
    found = []
    for secret in dict.fromkeys(secrets):
        pattern = secret_pattern([secret])
        if pattern is not None and _shows(words, pattern):
            found.append(secret)
    return found


def redact(text: str, pattern: re.Pattern[str]) -> str:
    """``text`` normalised, with what ``pattern`` (from :func:`secret_pattern`) finds blacked out."""
    return pattern.sub(REDACTED, normalize(text))
