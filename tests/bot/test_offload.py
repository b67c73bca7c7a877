"""The CPU pool (bot/offload.py) and the one cache (bot/caches.py): work really runs in
another process and gives the same bytes, a worker killed mid-task loses nothing, a
board drawn once is not drawn again until it changes, and CPU_WORKERS=0 is a thread."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot import offload as offload_module
from bot.caches import IMAGES, BoundedCache, content_key
from bot.offload import Offloader
from bot.render.scrabble import scrabble_board_png
from bot.services.scrabble.snapshots import BoardPicture
from bot.ui.scrabble import board_png, render_board_for_outbox
from tests.bot.offload_jobs import dies_in_any_worker, square_after_a_kill, worker_pid

REPO_ROOT = Path(__file__).resolve().parents[2]
ROWS = tuple("." * 15 if r != 7 else "....QUIz......." for r in range(15))
PICTURE = BoardPicture(ROWS, ("E8", "F8", "G8", "H8"), ("Ana 32 · Ben 0", "▶ Ben to play"))


@pytest.fixture
async def pool() -> AsyncIterator[Offloader]:
    pool = Offloader(1)
    try:
        yield pool
    finally:
        await pool.close()


async def test_the_pool_runs_work_in_another_process_and_draws_the_same_bytes(pool):
    assert pool.worker_pids() == []  # made on first use, not before
    assert await pool.run(worker_pid) != os.getpid()
    assert len(pool.worker_pids()) == 1
    args = (PICTURE.rows, PICTURE.last, PICTURE.header, 600)
    assert await pool.run(scrabble_board_png, *args) == scrabble_board_png(*args)
    rss = pool.worker_rss()
    assert set(rss) == set(pool.worker_pids()) and all(b > 0 for b in rss.values())


async def test_a_worker_killed_mid_task_does_not_lose_the_answer(pool, tmp_path):
    marker = tmp_path / "started"
    task = asyncio.create_task(pool.run(square_after_a_kill, 12, str(marker)))
    for _ in range(600):
        if marker.exists() and marker.read_text():
            break
        await asyncio.sleep(0.05)
    victim = int(marker.read_text())
    assert victim in pool.worker_pids()
    os.kill(victim, signal.SIGKILL)
    assert await task == 144
    assert pool.restarts == 1 and victim not in pool.worker_pids()


async def test_work_that_kills_every_worker_is_answered_in_a_thread(pool):
    assert await pool.run(dies_in_any_worker) == "answered in the bot's process"
    assert pool.restarts == 2 and pool.in_threads == 1


async def test_with_no_workers_the_work_runs_in_a_thread_of_this_process():
    threads = Offloader(0)
    assert await threads.run(worker_pid) == os.getpid()
    assert threads.worker_pids() == []
    assert await threads.run(scrabble_board_png, *ROWS_ARGS) == scrabble_board_png(*ROWS_ARGS)


ROWS_ARGS = (PICTURE.rows, PICTURE.last, PICTURE.header, 600)


async def test_a_closed_pool_still_answers_in_a_thread(pool):
    await pool.run(worker_pid)
    await pool.close()
    assert pool.worker_pids() == []
    assert await pool.run(worker_pid) == os.getpid()


def test_the_bot_configures_its_pool_from_the_setting_and_tests_run_without_one():
    from bot.config import load_settings

    assert load_settings(None).cpu_workers == 0  # tests/conftest.py's CPU_WORKERS=0
    assert load_settings(None, cpu_workers=3).cpu_workers == 3
    assert offload_module.current().workers == 0


# -- the cache


async def test_a_board_drawn_once_is_found_again_and_a_move_draws_a_new_one():
    IMAGES.clear()
    hits, misses = IMAGES.hits, IMAGES.misses
    first = await board_png(PICTURE)
    _, from_outbox = await render_board_for_outbox(dict(PICTURE.to_args()))
    again = await board_png(BoardPicture(PICTURE.rows, PICTURE.last, PICTURE.header, "other alt"))
    assert first == from_outbox == again
    assert (IMAGES.hits - hits, IMAGES.misses - misses) == (2, 1)

    moved = BoardPicture(
        tuple(r if i != 8 else ".......A......." for i, r in enumerate(ROWS)),
        ("H9",),
        PICTURE.header,
    )
    after = await board_png(moved)
    assert after != first
    assert (IMAGES.hits - hits, IMAGES.misses - misses) == (2, 2)


async def test_callers_asking_for_one_picture_at_once_draw_it_once():
    cache: BoundedCache[str, bytes] = BoundedCache("test", 1024)
    made = 0

    async def make() -> bytes:
        nonlocal made
        made += 1
        await asyncio.sleep(0.01)
        return b"png"

    results = await asyncio.gather(*(cache.get_or_make("k", make) for _ in range(5)))
    assert results == [b"png"] * 5 and made == 1


async def test_a_caller_who_gives_up_does_not_leave_the_others_without_the_picture():
    cache: BoundedCache[str, bytes] = BoundedCache("test", 1024)
    started = asyncio.Event()

    async def slow() -> bytes:
        started.set()
        await asyncio.sleep(10)
        return b"never"

    async def quick() -> bytes:
        return b"png"

    first = asyncio.create_task(cache.get_or_make("k", slow))
    await started.wait()
    second = asyncio.create_task(cache.get_or_make("k", quick))
    await asyncio.sleep(0)
    first.cancel()
    assert await second == b"png"
    assert first.cancelled() and cache.get("k") == b"png"


async def test_a_failed_drawing_is_not_kept():
    cache: BoundedCache[str, bytes] = BoundedCache("test", 1024)

    async def broken() -> bytes:
        raise ValueError("bad board")

    with pytest.raises(ValueError):
        await cache.get_or_make("k", broken)
    assert cache.get("k") is None and len(cache) == 0


def test_the_cache_keeps_to_its_byte_budget_dropping_the_least_recently_used():
    cache: BoundedCache[str, bytes] = BoundedCache("test", 100)
    cache.put("a", b"x" * 40)
    cache.put("b", b"x" * 40)
    assert cache.get("a") is not None  # "b" is now the least recently used
    cache.put("c", b"x" * 40)
    assert cache.get("b") is None and cache.get("a") is not None and cache.get("c") is not None
    assert cache.bytes == 80
    cache.put("huge", b"x" * 101)
    assert cache.get("huge") is None and cache.bytes == 80


def test_content_keys_tell_pictures_apart_by_what_they_show():
    assert content_key("f", ROWS) == content_key("f", tuple(ROWS))
    assert content_key("f", ROWS) != content_key("g", ROWS)
    assert content_key("f", ROWS, 600) != content_key("f", ROWS, 900)


PARENT = """
import asyncio, sys
from pathlib import Path
from bot.offload import Offloader
from tests.bot.offload_jobs import worker_pid

async def main():
    pool = Offloader(1)
    Path(sys.argv[1]).write_text(str(await pool.run(worker_pid)))
    await asyncio.sleep(600)  # killed long before

asyncio.run(main())
"""


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
            return stat.read().split(") ")[1][0] != "Z"  # a zombie has left already
    except FileNotFoundError:
        return False


async def test_a_bot_killed_outright_leaves_no_worker_behind(tmp_path):
    """A bot SIGKILLed (or by the OOM killer) cannot shut its pool down: its worker,
    waiting for work, notices its parent is gone and leaves instead of holding its
    memory for ever."""
    said = tmp_path / "worker"
    parent = await asyncio.create_subprocess_exec(
        sys.executable, "-c", PARENT, str(said), cwd=REPO_ROOT
    )
    for _ in range(600):
        if said.exists() and said.read_text():
            break
        await asyncio.sleep(0.1)
    worker = int(said.read_text())
    assert worker != parent.pid and _alive(worker)
    parent.kill()
    await parent.wait()
    for _ in range(200):  # it checks every second; a loaded machine gets 20
        if not _alive(worker):
            break
        await asyncio.sleep(0.1)
    alive = _alive(worker)
    if alive:
        os.kill(worker, signal.SIGKILL)  # leave nothing behind, failed or not
    assert not alive
