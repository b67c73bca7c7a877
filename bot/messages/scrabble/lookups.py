"""``/scrabble check words``: whether each word is in a word list, with a definition
when one is known, and the refusal while a game with lookups off is running.

Every word echoed is the member's own text, so it goes through ``plain``; the
definitions come from a dictionary file, and are made plain as well.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.messages.i18n import N_, _
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
        where += ", " + _("the word list of {title}").format(title=game_title(game_number))
    lines = [_("**Word check** in {where}:").format(where=where)]
    for result in results:
        word = f"**{plain(result.word, WORD_CHARS)}**"
        if result.valid is None:
            text = _("{word}: not a playable word (2 to 15 letters, A to Z).")
            lines.append("➖ " + text.format(word=word))
        elif not result.valid:
            lines.append("❌ " + _("{word}: not in the list.").format(word=word))
        elif result.definition:
            lines.append(
                "✅ "
                + _("{word}: valid. {definition}").format(
                    word=word, definition=plain(result.definition, DEFINITION_CHARS)
                )
            )
        else:
            lines.append("✅ " + _("{word}: valid (no definition at hand).").format(word=word))
    if skipped:
        lines.append(
            _("({count} more not checked: at most {maximum} words at a time.)").format(
                count=skipped, maximum=MAX_WORDS
            )
        )
    return clip("\n".join(lines))


NOTHING_TO_CHECK = N_("Give the words to check, e.g. `/scrabble check words:QI ZA`.")


def lookups_off(game_number: int) -> str:
    return _(
        "Word lookups are off in {title} while it runs, and you are "
        "playing in it: check words again when it is over."
    ).format(title=game_title(game_number))
