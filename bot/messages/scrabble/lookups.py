"""``/scrabble check words``: whether each word is in a word list, with a definition
when one is known, and the refusal while a game with lookups off is running.

Every word echoed is the member's own text, so it goes through ``plain``; the
definitions come from a dictionary file, and are made plain as well.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.messages.scrabble.names import game_title, lexicon_display_name
from bot.messages.text import clip, plain

MAX_WORDS = 10  # words checked in one command; the rest are named as not checked
MAX_INPUT_CHARS = 200  # what is read of the member's text
DEFINITION_CHARS = 200
WORD_CHARS = 20  # a Scrabble word has at most 15 letters; a longer token is shown cut


@dataclass(frozen=True)
class CheckedWord:
    word: str  # as the member typed it (upper-cased)
    valid: bool | None  # None: not a word that can be played (not letters, or 1 letter)
    definition: str | None = None


def checked_words(
    results: Sequence[CheckedWord],
    *,
    word_list: str,
    game_number: int | None,
    skipped: int,
) -> str:
    where = f"`{plain(lexicon_display_name(word_list))}`"
    if game_number is not None:
        where += f", the word list of {game_title(game_number)}"
    lines = [f"**Word check** in {where}:"]
    for result in results:
        word = f"**{plain(result.word, WORD_CHARS)}**"
        if result.valid is None:
            lines.append(f"➖ {word}: not a playable word (2 to 15 letters, A to Z).")
        elif not result.valid:
            lines.append(f"❌ {word}: not in the list.")
        elif result.definition:
            lines.append(f"✅ {word}: valid. {plain(result.definition, DEFINITION_CHARS)}")
        else:
            lines.append(f"✅ {word}: valid (no definition at hand).")
    if skipped:
        lines.append(f"({skipped} more not checked: at most {MAX_WORDS} words at a time.)")
    return clip("\n".join(lines))


NOTHING_TO_CHECK = "Give the words to check, e.g. `/scrabble check words:QI ZA`."


def lookups_off(game_number: int) -> str:
    return (
        f"Word lookups are off in {game_title(game_number)} while it runs, and you are "
        "playing in it: check words again when it is over."
    )
