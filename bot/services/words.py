"""The word list a game uses, loaded once per process and off the event loop.

Built-in lists are loaded once. A word-list file is checked (one ``stat``) on
each use and read again when it has changed, so a club can edit its own list
without restarting the bot: games started before the change judge with the
new list from then on, as a club's printed dictionary would be replaced.
"""

from __future__ import annotations

import asyncio
import os

from bot.errors import InvalidInputError
from bot.lexicons import WordListRef, dawg_cache_dir, load_word_list
from bot.messages.errors import word_list_unusable
from bot.services import ServiceContext
from engines.lexicon import Lexicon, LexiconError, available_lexicons

_LOCK_KEY = "lexicon_lock"
_CACHE_KEY = "lexicons"


def _signature(name: str) -> tuple[int, int] | None:
    """What tells a file's versions apart (None: a built-in list, or no such file)."""
    if name in available_lexicons():
        return None
    try:
        stat = os.stat(os.path.expanduser(name))
    except OSError:
        return None
    return (stat.st_mtime_ns, stat.st_size)


async def get_lexicon(ctx: ServiceContext, name: str | None = None) -> Lexicon:
    """The named list (default: the ``LEXICON`` setting), cached on the context."""
    name = name or ctx.settings.lexicon
    cache: dict[str, tuple[tuple[int, int] | None, Lexicon]] = ctx.extras.setdefault(_CACHE_KEY, {})
    signature = _signature(name)
    hit = cache.get(name)
    if hit is not None and hit[0] == signature:
        return hit[1]
    lock: asyncio.Lock = ctx.extras.setdefault(_LOCK_KEY, asyncio.Lock())
    async with lock:
        hit = cache.get(name)
        if hit is None or hit[0] != signature:
            try:
                lexicon = await asyncio.to_thread(load_word_list, name, ctx.settings)
            except LexiconError as exc:
                raise InvalidInputError(word_list_unusable(name, exc)) from None
            cache[name] = (signature, lexicon)
    return cache[name][1]


async def word_list_ref(ctx: ServiceContext, name: str | None = None) -> WordListRef:
    """The named list as work in the bot's worker processes takes it: by name (a worker
    loads it through the same disk cache and keeps it), with the list loaded here for
    work that stays in this process."""
    name = name or ctx.settings.lexicon
    return WordListRef(name, dawg_cache_dir(ctx.settings), loaded=await get_lexicon(ctx, name))
