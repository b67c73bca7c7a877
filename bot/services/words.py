"""The word list a game uses, loaded once per process and off the event loop."""

from __future__ import annotations

import asyncio

from bot.errors import InvalidInputError
from bot.services import ServiceContext
from engines.lexicon import Lexicon, LexiconError, load_lexicon

_LOCK_KEY = "lexicon_lock"
_CACHE_KEY = "lexicons"


async def get_lexicon(ctx: ServiceContext, name: str | None = None) -> Lexicon:
    """The named list (default: the ``LEXICON`` setting), cached on the context."""
    name = name or ctx.settings.lexicon
    cache: dict[str, Lexicon] = ctx.extras.setdefault(_CACHE_KEY, {})
    if name in cache:
        return cache[name]
    lock: asyncio.Lock = ctx.extras.setdefault(_LOCK_KEY, asyncio.Lock())
    async with lock:
        if name not in cache:
            try:
                cache[name] = await asyncio.to_thread(load_lexicon, name)
            except LexiconError as exc:
                raise InvalidInputError(f"The word list {name!r} can't be used: {exc}") from None
    return cache[name]
