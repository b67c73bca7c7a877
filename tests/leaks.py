"""Whether a text shows a secret (a Henyo word, a rack, a bot token): the tests' one leak check.

A secret shows when it appears as whole words, read the way the Henyo referee
reads a guess (``engines.henyo.text.normalize``): case, accents and
punctuation do not count, and neither does how it is spaced or hyphenated
("ice cream", "Ice-Cream!", "icecream"). It never shows inside a longer word,
so a short secret is not "found" by chance: "ate" is not in "static gateway",
but it is in "the word was ATE.".

Secrets shorter than ``MIN_SECRET_LENGTH`` letters cannot be told apart from
ordinary text and are not looked for.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from engines.henyo.text import compact, normalize

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
        if pattern is not None and pattern.search(words):
            found.append(secret)
    return found


def redact(text: str, pattern: re.Pattern[str]) -> str:
    """``text`` normalised, with what ``pattern`` (from :func:`secret_pattern`) finds blacked out."""
    return pattern.sub(REDACTED, normalize(text))
