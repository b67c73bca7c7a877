"""``/word``: word study on the club's word list (anagrams, hooks, patterns, check).

The list is the one the club's Scrabble games use by default (the ``LEXICON``
setting), or another the club knows (as ``/scrabble new word_list`` offers them).
The searches walk the word list's graph (``engines.scrabble.wordfind``) in the bot's
worker processes (``bot.offload``), as the move generator does: a rack with two
blanks is some tens of milliseconds of CPU the event loop keeps.

A member seated in a running Scrabble game made with ``lookups:False`` is refused
every tool, as ``/scrabble check`` refuses them (``Lookups.ensure_open``, the one
rule), and ``/word check`` *is* ``/scrabble check``. Nothing is written.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from bot.compute.words import anagrams_in, hooks_in, pattern_in
from bot.errors import InvalidInputError
from bot.lexicons import WordListRef
from bot.messages import words as msg
from bot.offload import offload
from bot.services.scrabble import ScrabbleService
from bot.services.scrabble.options import known_word_list
from engines.scrabble.wordfind import WordQueryError, read_letters, read_pattern, read_word

T = TypeVar("T")


class WordTools:
    """The word tools on a Scrabble service's word lists and lookup rule."""

    def __init__(self, scrabble: ScrabbleService) -> None:
        self.scrabble = scrabble
        self.ctx = scrabble.ctx

    async def _list(self, guild_id: int, user_id: int, word_list: str | None) -> WordListRef:
        """The list asked for (the club's by default), once the member may look words up."""
        await self.scrabble.lookups.ensure_open(guild_id=guild_id, user_id=user_id)
        if word_list is not None and word_list.strip():
            name = known_word_list(word_list, self.scrabble.invitations.word_lists())
        else:
            name = self.ctx.settings.lexicon
        return await self.scrabble.core.lexicons.ref(name)

    async def anagram(
        self,
        *,
        guild_id: int,
        user_id: int,
        letters: str,
        full_only: bool = False,
        word_list: str | None = None,
    ) -> str:
        """The private answer to ``/word anagram letters``: the words the letters make
        (``?`` a blank, two at most), those using every letter first."""
        tiles = _read(read_letters, letters)
        words = await self._list(guild_id, user_id, word_list)
        found = await offload(
            anagrams_in, words, tiles, msg.SEARCH_LIMIT, full_only, thread=not words.portable
        )
        return msg.anagrams(found, word_list=words.name, full_only=full_only)

    async def hooks(
        self, *, guild_id: int, user_id: int, word: str, word_list: str | None = None
    ) -> str:
        """The private answer to ``/word hooks word``: its front and back hooks, and
        whether it is a word itself."""
        upper = _read(read_word, word)
        words = await self._list(guild_id, user_id, word_list)
        found = await offload(hooks_in, words, upper, thread=not words.portable)
        return msg.hooks(found, word_list=words.name)

    async def pattern(
        self, *, guild_id: int, user_id: int, pattern: str, word_list: str | None = None
    ) -> str:
        """The private answer to ``/word pattern pattern``: the words it matches."""
        spelled = _read(read_pattern, pattern)
        words = await self._list(guild_id, user_id, word_list)
        found = await offload(
            pattern_in, words, spelled, msg.SEARCH_LIMIT, thread=not words.portable
        )
        return msg.pattern(found, word_list=words.name)

    async def check(
        self,
        *,
        guild_id: int,
        user_id: int,
        text: str,
        channel_id: int | None = None,
        word_list: str | None = None,
    ) -> str:
        """``/word check words``: ``/scrabble check``'s answer, from its own service."""
        return await self.scrabble.lookups.check_words(
            guild_id=guild_id,
            user_id=user_id,
            text=text,
            channel_id=channel_id,
            word_list=word_list,
        )


def _read(read: Callable[[str], T], text: str) -> T:
    """The member's text read by the engine; a refusal passed on in the club's language."""
    try:
        return read(text)
    except WordQueryError as exc:
        raise InvalidInputError.passing_on(exc) from exc
