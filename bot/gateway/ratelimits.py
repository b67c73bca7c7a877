"""discord.py's REST rate-limit buckets, looked through once in a while (issue #32).

discord.py keeps a rate-limit bucket (``discord.http.Ratelimit``) for each route and
channel (or webhook) it has called, and forgets those idle for five minutes. It
finds them by looking through every bucket it holds each time it makes a new one,
once it holds 256 (``HTTPClient._try_clear_expired_ratelimits``). A bot posting to
hundreds of game threads and members' DM channels holds thousands and makes a new
one every few requests, so that look-through grows with the clubs: 2.6% of the event
loop's busy time after six minutes at 50 interactions/s (py-spy, load benchmark).

``prune_buckets_every`` makes the same look-through happen at most once every
``seconds``: a bucket idle past its five minutes is kept up to ``seconds`` longer,
which changes nothing about what is sent or when. discord.py has no setting for
this, so the client's own method is replaced on its ``HTTPClient``; if a discord.py
release renames it the bot logs it once and runs as discord.py does.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any

log = logging.getLogger(__name__)

PRUNE_EVERY_S = 30.0
_METHOD = "_try_clear_expired_ratelimits"


class _Sparingly:
    """Calls ``prune`` at most once every ``seconds`` of ``clock``."""

    def __init__(
        self, prune: Callable[[], None], seconds: float, clock: Callable[[], float]
    ) -> None:
        self._prune = prune
        self._seconds = seconds
        self._clock = clock
        self._next = float("-inf")

    def __call__(self) -> None:
        now = self._clock()
        if now < self._next:
            return
        self._next = now + self._seconds
        self._prune()


def prune_buckets_every(
    http: Any,
    seconds: float = PRUNE_EVERY_S,
    *,
    clock: Callable[[], float] = time.monotonic,
) -> bool:
    """Make ``http`` (a discord.py ``HTTPClient``) forget idle buckets at most once every
    ``seconds``; False (and a log line) when this discord.py has no such method."""
    prune = getattr(http, _METHOD, None)
    if not callable(prune):
        log.warning(
            "discord.py has no HTTPClient.%s: its rate-limit buckets are as it keeps them", _METHOD
        )
        return False
    setattr(http, _METHOD, _Sparingly(prune, seconds, clock))
    return True
