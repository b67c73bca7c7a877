"""The word tools' searches (``/word anagram``, ``/word hooks``, ``/word pattern``), as
the bot's worker processes run them: the word list by name (a worker loads it and its
graph once, as it does for the move generator, and keeps them), the query already read
by the service (``engines.scrabble.wordfind.read_…``), so a refusal never has to travel
back from a worker."""

from __future__ import annotations

from bot.lexicons import WordListRef
from engines.scrabble.wordfind import Found, Hooks, anagrams, hooks, pattern_words


def anagrams_in(words: WordListRef, letters: str, limit: int, full_only: bool) -> Found:
    """``anagrams`` on the list ``words`` names."""
    return anagrams(words.words(), letters, limit=limit, full_only=full_only)


def hooks_in(words: WordListRef, word: str) -> Hooks:
    """``hooks`` on the list ``words`` names."""
    return hooks(words.words(), word)


def pattern_in(words: WordListRef, pattern: str, limit: int) -> Found:
    """``pattern_words`` on the list ``words`` names."""
    return pattern_words(words.words(), pattern, limit=limit)
