"""The word lists a Scrabble game is judged by, loaded once and off the event loop."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Protocol

from bot.context import ServiceContext
from bot.errors import InvalidInputError
from bot.lexicons import WordListRef
from bot.messages.i18n import _
from bot.services.words import get_lexicon, word_list_ref
from engines.lexicon import LexiconError, load_lexicon
from engines.scrabble.lexicon import Lexicon


class WordLists(Protocol):
    """Where a game's word list comes from, by the name its settings keep."""

    async def get(self, name: str) -> Lexicon:
        """The word list called ``name``; ``InvalidInputError`` when it can't be loaded."""

    async def ref(self, name: str) -> WordListRef:
        """The word list called ``name`` as the move generator's workers take it."""


class LexiconCache:
    """Word lists by name from a loader of their own, loaded once (off the event loop).

    Tests and benchmarks give a game a word list this way; the bot itself uses
    :class:`ClubLexicons`, the process-wide cache every service shares.
    """

    def __init__(self, loader: Callable[[str], Lexicon] = load_lexicon) -> None:
        self._loader = loader
        self._loaded: dict[str, Lexicon] = {}
        self._lock = asyncio.Lock()

    async def get(self, name: str) -> Lexicon:
        """The word list called ``name``, loaded the first time it is asked for."""
        if name in self._loaded:
            return self._loaded[name]
        async with self._lock:
            if name not in self._loaded:
                try:
                    self._loaded[name] = await asyncio.to_thread(self._loader, name)
                except LexiconError as exc:
                    raise InvalidInputError(
                        _("The game's word list can't be loaded: {reason}").format(reason=exc)
                    ) from None
            return self._loaded[name]

    async def ref(self, name: str) -> WordListRef:
        """The list, for work in this process only (its loader is this cache's own)."""
        return WordListRef(name, None, loaded=await self.get(name), portable=False)


class ClubLexicons:
    """Word lists by name through ``bot.services.words.get_lexicon``: one cache per bot."""

    def __init__(self, ctx: ServiceContext) -> None:
        self.ctx = ctx

    async def get(self, name: str) -> Lexicon:
        """The word list called ``name``, from the bot's one cache (a member is told to ask
        an admin when it can't be loaded)."""
        try:
            return await get_lexicon(self.ctx, name)
        except InvalidInputError:
            raise InvalidInputError(
                _(
                    "The game's word list can't be loaded: "
                    "ask an admin to check the bot's word lists."
                )
            ) from None

    async def ref(self, name: str) -> WordListRef:
        """The list by name (a worker process loads it through the same disk cache), with
        the loaded list for work that stays in this process."""
        await self.get(name)  # a member is told when it can't be loaded
        return await word_list_ref(self.ctx, name)
