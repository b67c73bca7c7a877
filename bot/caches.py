"""The bot's one cache helper: a least-recently-used map bounded by the bytes it holds.

Used for what repeats under load: a board image already drawn (the thread's post,
the rack reply and the web page all draw the same board) and the suggestions of an
unchanged position as a member types. A key must hold everything the value depends
on: where the value is one member's (their rack's suggestions), the key holds their
seat or user id, so a cache never shows one member what is another's.

    IMAGES.get(key) -> bytes | None      IMAGES.put(key, png)
    await IMAGES.get_or_make(key, make)  # make() once per key at a time

Counters (``hits``, ``misses``) are kept for ``/metrics`` and the benchmarks.

What the process keeps for good (a word list, its graph) is handed to
``keep_for_good`` once built, so the cyclic collector stops rescanning it.
"""

from __future__ import annotations

import asyncio
import gc
import hashlib
import pickle
import sys
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Hashable
from typing import Any, Generic, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")

MIB = 1024 * 1024


def _default_size(value: object) -> int:
    if isinstance(value, bytes | bytearray | memoryview):
        return len(value)
    return sys.getsizeof(value)


class BoundedCache(Generic[K, V]):
    """Values by key, the least recently used dropped once ``max_bytes`` is passed.

    ``size`` says what one value weighs (bytes by default: ``len`` of a ``bytes``).
    A value larger than the whole budget is not kept. Not thread-safe: it is used
    on the event loop only (the work it saves runs elsewhere).
    """

    def __init__(
        self,
        name: str,
        max_bytes: int,
        size: Callable[[V], int] = _default_size,
    ) -> None:
        self.name = name
        self.max_bytes = max_bytes
        self._size = size
        self._items: OrderedDict[K, tuple[V, int]] = OrderedDict()
        self._pending: dict[K, asyncio.Future[V]] = {}
        self.bytes = 0
        self.hits = 0
        self.misses = 0

    def __len__(self) -> int:
        return len(self._items)

    def get(self, key: K) -> V | None:
        """The value kept for ``key`` (now the most recently used), or None."""
        item = self._items.get(key)
        if item is None:
            self.misses += 1
            return None
        self._items.move_to_end(key)
        self.hits += 1
        return item[0]

    def put(self, key: K, value: V) -> None:
        """Keep ``value`` for ``key``, dropping the least recently used beyond the budget."""
        weight = self._size(value)
        old = self._items.pop(key, None)
        if old is not None:
            self.bytes -= old[1]
        if weight > self.max_bytes:
            return
        self._items[key] = (value, weight)
        self.bytes += weight
        while self.bytes > self.max_bytes:
            _, (_, dropped) = self._items.popitem(last=False)
            self.bytes -= dropped

    async def get_or_make(self, key: K, make: Callable[[], Awaitable[V]]) -> V:
        """The value for ``key``, made by ``make()`` on a miss. Callers asking for the
        same key while it is being made wait for that one making (a board drawn once,
        not once per asker); a failed making is not kept, and each waiter sees it."""
        while True:
            found = self.get(key)
            if found is not None:
                return found
            pending = self._pending.get(key)
            if pending is None:
                break
            try:
                return await asyncio.shield(pending)
            except asyncio.CancelledError:
                task = asyncio.current_task()
                if not pending.cancelled() or (task is not None and task.cancelling()):
                    raise  # this caller was cancelled
                # The caller making it was cancelled (its member gave up): make it here.
        future: asyncio.Future[V] = asyncio.get_running_loop().create_future()
        self._pending[key] = future
        try:
            value = await make()
        except asyncio.CancelledError:
            future.cancel()
            raise
        except BaseException as exc:
            future.set_exception(exc)
            future.exception()  # retrieved: nobody else may be waiting
            raise
        finally:
            self._pending.pop(key, None)
        self.put(key, value)
        future.set_result(value)
        return value

    def discard(self, key: K) -> None:
        """Forget the value for ``key``, if one is kept."""
        old = self._items.pop(key, None)
        if old is not None:
            self.bytes -= old[1]

    def clear(self) -> None:
        """Forget every value (the counters stay)."""
        self._items.clear()
        self.bytes = 0


def content_key(*parts: Any) -> str:
    """A key naming ``parts`` by their content (they must pickle): the same picture
    drawn from equal data has the same key wherever it was built."""
    return hashlib.blake2b(pickle.dumps(parts, protocol=5), digest_size=16).hexdigest()


# A drawn board or grid is 20–90 KB: 16 MiB holds a few hundred, the games of an evening.
IMAGES: BoundedCache[str, bytes] = BoundedCache("images", 16 * MIB)


def _rough_size(value: Any) -> int:
    # A list of small records: about 200 bytes an item is close enough for a budget.
    return 200 * (len(value) + 1) if hasattr(value, "__len__") else 200


# Suggestions of one position for one seat and one typed word: a few hundred bytes each.
SUGGESTIONS: BoundedCache[Hashable, Any] = BoundedCache("suggestions", 2 * MIB, _rough_size)


def keep_for_good(*, collect: bool = False) -> None:
    """Exempt every object alive now from the cyclic collector (``gc.freeze``): call it
    once something the process keeps for good has been built (the word list at
    start-up, a word list's move-generator graph). Such an index is a few hundred
    thousand small objects; left to the collector, each of its full passes rescans
    them all (100–190 ms on the event loop's thread, about three times a minute at
    50 interactions/s, measured with gc.callbacks under the load benchmark).

    Objects alive now that are not kept for good are still freed as usual when their
    last reference goes; only a reference cycle among them would stay. ``collect``
    first clears such cycles with a full collection: a pause of its own, for start-up."""
    if collect:
        gc.collect()
    gc.freeze()


__all__ = ["IMAGES", "MIB", "SUGGESTIONS", "BoundedCache", "content_key", "keep_for_good"]
