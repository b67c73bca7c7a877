"""How many threads discord.py keeps: a bounded number, the most recently made.

discord.py keeps every thread it hears of (``THREAD_CREATE``) until it is
archived or deleted, and a bot that opens a thread for every game hears of many:
under load they were one of the things that made a process's memory grow
without end (issue #32). Nothing of the bot needs them kept: an interaction
carries its channel, and where the bot posts to a thread by id it takes the
cached one if there is one and asks Discord for it otherwise
(``get_channel(id) or fetch_channel(id)``, ``get_partial_messageable``). So
only the ``KEEP_THREADS`` threads made or updated last stay cached (a live
game's posts go out without a lookup); an older one is dropped from its guild's
cache and costs one request the next time it is posted to.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable
from typing import Any

import discord

# Hundreds of games at once in one process; a thread is a few KiB with its members.
KEEP_THREADS = 500


def bound_thread_cache(client: discord.Client, keep: int | None = None) -> None:
    """Keep at most ``keep`` (default ``KEEP_THREADS``) of the threads the gateway
    announces in ``client``'s cache, dropping the least recently announced."""
    limit = KEEP_THREADS if keep is None else keep
    state = client._connection
    recent: OrderedDict[int, int] = OrderedDict()  # thread id -> its guild's id

    def trimmed(parse: Callable[[Any], None]) -> Callable[[Any], None]:
        def parse_and_trim(data: Any) -> None:
            parse(data)
            try:
                thread_id, guild_id = int(data["id"]), int(data["guild_id"])
            except (KeyError, TypeError, ValueError):
                return
            recent[thread_id] = guild_id
            recent.move_to_end(thread_id)
            while len(recent) > limit:
                old, old_guild_id = recent.popitem(last=False)
                guild = state._get_guild(old_guild_id)
                if guild is not None:
                    guild._remove_thread(discord.Object(old))

        return parse_and_trim

    for event in ("THREAD_CREATE", "THREAD_UPDATE"):
        state.parsers[event] = trimmed(state.parsers[event])
