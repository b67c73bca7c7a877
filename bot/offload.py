"""CPU-heavy work off the event loop: one process pool for the bot, or threads.

The event loop only waits. Board images, move generation, Boggle scoring and Swiss
pairing are pure functions of plain data, so they run in worker processes, where
they don't hold the event loop's GIL:

    png = await offload(board_png, rows, last, header, 900)

``fn`` must be a top-level function and its arguments and result must pickle.
The pool is made on first use (so ``python -m bot`` starts as fast as before) with
the ``spawn`` start method (never a plain fork of a process running an event loop
and threads), sized by the ``CPU_WORKERS`` setting; ``0`` runs the work in a thread,
as the bot did before. A worker that dies (killed, out of memory) costs nothing:
the pool is made again and the work tried once more, then in a thread; a bot that
dies leaves no workers behind (each leaves within a second of its parent). Workers keep
what they load (word lists, fonts, static board layers) for their lifetime.

Images go through :func:`draw`, which keeps what it drew in ``bot.caches.IMAGES``.
Where sending the data to a worker would cost more than the work, call it with
``thread=True`` and say why beside the call.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import signal
import threading
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import TypeVar, TypeVarTuple, Unpack

from bot.allocator import limit_arenas
from bot.caches import IMAGES, content_key

log = logging.getLogger(__name__)

Ts = TypeVarTuple("Ts")
T = TypeVar("T")


def default_workers() -> int:
    """Two workers, or one on a one-core machine: the event loop keeps a core."""
    return min(2, os.cpu_count() or 1)


def _worker_started() -> None:
    limit_arenas()  # as the bot's own process does (bot.allocator)
    # Ctrl-C reaches the whole process group; the bot shuts its workers down itself.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # A bot killed outright (SIGKILL, the OOM killer) cannot shut its workers down, and
    # a worker waiting for work would wait forever, holding its memory: it leaves once
    # its parent is gone (re-parented, its parent id changes).
    parent = os.getppid()
    threading.Thread(
        target=_leave_when_orphaned, args=(parent,), name="orphan-watch", daemon=True
    ).start()


ORPHAN_CHECK_SECONDS = 1.0


def _leave_when_orphaned(parent: int) -> None:
    while True:
        time.sleep(ORPHAN_CHECK_SECONDS)
        if os.getppid() != parent:
            os._exit(0)


def in_worker() -> bool:
    """Whether this process is one of the pool's workers."""
    return multiprocessing.parent_process() is not None


def rss_bytes(pid: int) -> int | None:
    """A process's resident memory (Linux ``/proc``), None where it can't be read."""
    try:
        with open(f"/proc/{pid}/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        return None
    return None


class Offloader:
    """A lazily made process pool of ``workers`` processes (0: threads only)."""

    def __init__(self, workers: int = 0) -> None:
        self.workers = workers
        self._pool: ProcessPoolExecutor | None = None
        self._lock = threading.Lock()
        self._closed = False
        self.restarts = 0  # pools made again after a worker died
        self.in_threads = 0  # calls that ran in a thread although a pool was configured

    @property
    def in_processes(self) -> bool:
        """Whether work sent now goes to worker processes (not to a thread)."""
        return self.workers > 0 and not self._closed

    def _executor(self) -> ProcessPoolExecutor:
        with self._lock:
            if self._pool is None:
                self._pool = ProcessPoolExecutor(
                    max_workers=self.workers,
                    mp_context=multiprocessing.get_context("spawn"),
                    initializer=_worker_started,
                )
            return self._pool

    def _discard(self, broken: ProcessPoolExecutor) -> None:
        with self._lock:
            if self._pool is broken:
                self._pool = None
                self.restarts += 1
        broken.shutdown(wait=False, cancel_futures=True)

    async def run(self, fn: Callable[[Unpack[Ts]], T], /, *args: *Ts, thread: bool = False) -> T:
        """``fn(*args)`` in a worker process (or a thread), awaited."""
        if thread or not self.in_processes:
            return await asyncio.to_thread(fn, *args)
        for attempt in (1, 2):
            pool = self._executor()
            try:
                return await asyncio.wrap_future(pool.submit(fn, *args))
            except BrokenProcessPool:
                log.warning(
                    "a CPU worker died during %s (attempt %d): starting the pool again",
                    getattr(fn, "__qualname__", fn),
                    attempt,
                )
                self._discard(pool)
            except RuntimeError:
                if not self._closed:  # "cannot schedule new futures after shutdown"
                    raise
                break
        self.in_threads += 1
        return await asyncio.to_thread(fn, *args)

    def worker_pids(self) -> list[int]:
        """The pool's live worker processes (none before the first call)."""
        pool = self._pool
        processes = getattr(pool, "_processes", None) or {}
        return [pid for pid, process in list(processes.items()) if process.is_alive()]

    def worker_rss(self) -> dict[int, int]:
        """Resident memory of each live worker, in bytes."""
        found = {pid: rss_bytes(pid) for pid in self.worker_pids()}
        return {pid: rss for pid, rss in found.items() if rss is not None}

    async def close(self) -> None:
        """Stop the workers (work under way finishes; nothing new goes to them)."""
        self._closed = True
        with self._lock:
            pool, self._pool = self._pool, None
        if pool is not None:
            await asyncio.to_thread(pool.shutdown, wait=True, cancel_futures=True)


# The bot's one pool. Until ``configure`` is called (the bot does it from CPU_WORKERS)
# work runs in threads: tests and tools that build services alone behave as before.
_offloader = Offloader(0)


def configure(workers: int) -> Offloader:
    """Use a pool of ``workers`` processes from now on (0: threads); returns it."""
    global _offloader
    if _offloader.workers != workers or _offloader._closed:
        old = _offloader
        _offloader = Offloader(workers)
        if old._pool is not None:
            old._pool.shutdown(wait=False, cancel_futures=False)
    return _offloader


def current() -> Offloader:
    """The pool in use (for its figures: workers' pids and memory)."""
    return _offloader


async def offload(fn: Callable[[Unpack[Ts]], T], /, *args: *Ts, thread: bool = False) -> T:
    """``fn(*args)`` off the event loop: in the bot's process pool, or in a
    thread with ``thread=True`` or ``CPU_WORKERS=0``."""
    return await _offloader.run(fn, *args, thread=thread)


async def draw(fn: Callable[[Unpack[Ts]], bytes], /, *args: *Ts) -> bytes:
    """An image ``fn(*args)`` drawn off the event loop, or the same image drawn before:
    kept in ``bot.caches.IMAGES`` under the content of its arguments (so the board the
    thread's post, the rack reply and the web page show is drawn once)."""
    key = content_key(fn.__module__, fn.__qualname__, args)
    return await IMAGES.get_or_make(key, lambda: offload(fn, *args))


async def shutdown() -> None:
    """Stop the bot's pool (the bot's close); a later call runs in a thread."""
    await _offloader.close()


__all__ = [
    "Offloader",
    "configure",
    "current",
    "default_workers",
    "draw",
    "in_worker",
    "offload",
    "rss_bytes",
    "shutdown",
]
