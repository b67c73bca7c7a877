"""Comparing what a guesser typed with the secret (RULES.md "Library Henyo").

A guess counts when it equals the secret once case, accents, punctuation and
spacing are ignored, with ``ñ`` read as ``n``. ``normalize`` keeps single spaces
between words (for display keys and word lists); ``compact`` drops them too, so
"ice cream", "Ice-Cream!" and "icecream" are the same answer.
"""

from __future__ import annotations

import unicodedata

# Letters that do not decompose into a base letter plus marks under NFKD, mapped
# to what a player would type on a keyboard without them.
_FOLDS = str.maketrans(
    {"ø": "o", "đ": "d", "ł": "l", "ħ": "h", "ı": "i", "æ": "ae", "œ": "oe", "ŋ": "ng"}
)


def _is_word_character(char: str) -> bool:
    category = unicodedata.category(char)
    return category[0] in ("L", "N")


def _one_pass(text: str) -> str:
    decomposed = unicodedata.normalize("NFKD", text.translate(_FOLDS).casefold())
    kept = []
    for char in decomposed:
        if unicodedata.combining(char):
            continue
        kept.append(char if _is_word_character(char) else " ")
    return " ".join("".join(kept).translate(_FOLDS).split())


# Plain ASCII (most chat) needs no Unicode work: lowercase, and every character
# that is not a letter or digit becomes a word break.
_ASCII_BREAKS = str.maketrans({chr(c): " " for c in range(128) if not chr(c).isalnum()})


def normalize(text: str) -> str:
    """Lowercase words without accents, separated by single spaces.

    Accents and other combining marks go (``Niño`` → ``nino``); punctuation and
    symbols become word breaks (``kare-kare`` → ``kare kare``).
    """
    if text.isascii():
        return " ".join(text.lower().translate(_ASCII_BREAKS).split())
    # Case folding and compatibility decomposition can each expose work for the
    # other (a black-letter capital decomposes to a plain capital), so repeat
    # until nothing changes: normalising twice must equal normalising once.
    result = _one_pass(text)
    for _ in range(4):
        again = _one_pass(result)
        if again == result:
            break
        result = again
    return result


def compact(text: str) -> str:
    """``normalize`` without spaces: the form guesses and secrets are compared in."""
    return normalize(text).replace(" ", "")


def word_key(text: str) -> str:
    """The identity of a word in the bank: two entries with one key are one word."""
    return compact(text)


def is_correct_guess(guess: str, secret: str) -> bool:
    """True when ``guess`` names the secret (an empty guess never does)."""
    wanted = compact(secret)
    return bool(wanted) and compact(guess) == wanted


def mentions_secret(text: str, secret: str) -> bool:
    """True when ``text`` spells out the secret as whole words somewhere (a leak to hide).

    Whole words only, however they are spaced ("ice cream", "icecream",
    "ice-cream"): a short secret like "aso" must not match inside "pasok".
    """
    wanted = compact(secret)
    if not wanted:
        return False
    words = normalize(text).split()
    for start in range(len(words)):
        joined = ""
        for word in words[start:]:
            joined += word
            if len(joined) >= len(wanted):
                break
        if joined == wanted:
            return True
    return False
