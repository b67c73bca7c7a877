"""Memory the bot has freed goes back to the system (``bot.allocator``, issue #32).

Measured in a process of its own (so nothing else of the suite's is in its heaps),
by its resident memory (``/proc/self/statm``): blocks freed below one still in use
stay resident until ``trim`` gives their pages back.
"""

from __future__ import annotations

import asyncio
import json
import platform
import subprocess
import sys

import pytest

from bot import allocator

glibc = pytest.mark.skipif(platform.libc_ver()[0] != "glibc", reason="glibc's allocator only")

PROBE = """
import json, os
from bot import allocator

def rss():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") // 2**20

arenas = allocator.limit_arenas()
blocks = [bytes(2000) for _ in range(100_000)]  # ~200 MiB in blocks malloc keeps in its heap
pinned = blocks[-1]
del blocks  # every block freed but the last: the heap's top stays in use
freed = rss()
returned = allocator.trim()
print(json.dumps({"arenas": arenas, "freed": freed, "returned": returned, "after": rss()}))
"""


@glibc
def test_freed_memory_stays_resident_until_trimmed_then_goes_back() -> None:
    out = subprocess.run(
        [sys.executable, "-c", PROBE], capture_output=True, text=True, check=True, timeout=60
    )
    figures = json.loads(out.stdout)
    assert figures["arenas"] is True
    assert figures["returned"] is True
    assert figures["freed"] >= 150  # freed, but still the process's
    assert figures["after"] <= figures["freed"] - 150  # given back


@glibc
async def test_the_bots_task_trims_on_its_own_until_cancelled(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    calls: list[bool] = []
    real = allocator.trim

    def counted() -> bool:
        calls.append(real())
        return calls[-1]

    monkeypatch.setattr(allocator, "trim", counted)
    task = asyncio.create_task(allocator.trim_every(0.01))
    for _ in range(200):
        if len(calls) >= 3:
            break
        await asyncio.sleep(0.01)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert len(calls) >= 3


def test_elsewhere_nothing_is_done_and_it_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    allocator._glibc.cache_clear()
    monkeypatch.setattr(platform, "libc_ver", lambda: ("", ""))
    try:
        assert allocator.limit_arenas() is False and allocator.trim() is False
    finally:
        allocator._glibc.cache_clear()
