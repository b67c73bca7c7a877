"""CPU work off the event loop (bot/offload.py) and the image cache (bot/caches.py).

What the bot's own process spends per board image (process CPU time: the event loop
and any thread of it, which share the GIL), drawn in a thread (``CPU_WORKERS=0``, as
before), in the pool (two worker processes: what is left is pickling and the pipe),
and found in the cache (the thread post, the rack reply and the web page show one
board); the same for the position autocomplete's 450 tries and a hint. Then the
cache's hits over a realistic sequence, and the workers' resident memory.
"""

from __future__ import annotations

import asyncio
import os
import tempfile
import time
from pathlib import Path

from benchmarks._core import Row, ms_row
from bot.caches import IMAGES
from bot.compute.scrabble import AiOptions, hints_for, places_for
from bot.lexicons import WordListRef
from bot.offload import Offloader, rss_bytes
from bot.render.scrabble import scrabble_board_png
from engines.scrabble import ScrabbleGame, ScrabbleOptions

WORKERS = 2
# Budget: the 8 ms of event-loop CPU per interaction in all; an image may use
# a small part of it.
LOOP_CPU_PER_IMAGE_BUDGET_MS = 1.0
WORKER_RSS_BUDGET_MIB = 120


def _rows(move: int) -> tuple[str, ...]:
    rows = [["."] * 15 for _ in range(15)]
    for i, letter in enumerate("QUIXOTIC"):
        rows[7][3 + i] = letter
    for i, letter in enumerate("ZEBrA"):
        rows[2 + i][5] = letter
    for i, letter in enumerate("JOUSTED"[: 1 + move % 7]):
        rows[8 + i][10] = letter
    return tuple("".join(r) for r in rows)


def _pictures(n: int) -> list[tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...], int]]:
    # Distinct boards (the header names the move), so nothing is found in a cache.
    return [
        (_rows(i), ("K9", "K10"), (f"Ana {200 + i} · Ben 198", f"move {i} ▶ Ben"), 900)
        for i in range(n)
    ]


async def _measure(quick: bool) -> list[Row]:
    n = 30 if quick else 120
    rows: list[Row] = []
    pictures = _pictures(n)

    async def per_image(pool: Offloader) -> list[float]:
        samples = []
        for args in pictures:
            cpu = time.process_time()
            await pool.run(scrabble_board_png, *args)
            samples.append((time.process_time() - cpu) * 1000)
        return samples

    threads = Offloader(0)
    await threads.run(scrabble_board_png, *pictures[0])  # static layers cached
    rows.append(
        ms_row(
            "offload: bot-process CPU per 900 px board, in a thread (CPU_WORKERS=0)",
            await per_image(threads),
            None,
        )
    )
    pool = Offloader(WORKERS)
    try:
        started = time.perf_counter()
        await asyncio.gather(*(pool.run(scrabble_board_png, *pictures[0]) for _ in range(4)))
        first = (time.perf_counter() - started) * 1000
        rows.append(
            ms_row(
                f"offload: bot-process CPU per 900 px board, in the pool ({WORKERS} workers)",
                await per_image(pool),
                LOOP_CPU_PER_IMAGE_BUDGET_MS,
            )
        )
        image_rss = [b / 2**20 for b in pool.worker_rss().values()]

        # The same board drawn for the thread's post, the rack reply's board and the web
        # page, and the next move's board: three asks, two drawings.
        IMAGES.clear()
        hits, misses = IMAGES.hits, IMAGES.misses
        hit_cpu: list[float] = []
        for args in pictures:
            key = ("bench", args)
            for _ in range(3):
                cpu = time.process_time()
                await IMAGES.get_or_make(  # as bot.offload.draw does, with a readable key
                    str(hash(key)), lambda a=args: pool.run(scrabble_board_png, *a)
                )
                hit_cpu.append((time.process_time() - cpu) * 1000)
        got_hits, got_misses = IMAGES.hits - hits, IMAGES.misses - misses
        rows.append(
            ms_row(
                "offload: bot-process CPU per board asked 3× (1 draw + 2 cache hits)",
                hit_cpu,
                LOOP_CPU_PER_IMAGE_BUDGET_MS,
            )
        )
        rows.append(
            Row(
                "offload: image cache hit rate, each board asked 3× (post, rack reply, web)",
                "%",
                None,
                100.0 * got_hits / (got_hits + got_misses),
                spread=f"{got_hits} hits / {got_misses} misses, {IMAGES.bytes / 2**20:.1f} MiB",
            )
        )
        IMAGES.clear()

        # Move generation: the position autocomplete and a hint, with the word list by
        # name (each worker loads it once through the DAWG disk cache).
        game = ScrabbleGame.new(ScrabbleOptions(turn_order="fixed"), 7)
        seat = game.current_seat
        rack = game.racks[seat]
        word = "".join("e" if t == "?" else t for t in rack[:4])
        with tempfile.TemporaryDirectory() as cache:
            words = WordListRef("default", Path(cache))
            options = AiOptions(words)
            state = game.to_json()
            await asyncio.gather(*(pool.run(hints_for, state, options, seat, 3) for _ in range(4)))
            for label, runner in (("in a thread", threads), ("in the pool", pool)):
                auto, hints = [], []
                for _ in range(n // 3):
                    cpu = time.process_time()
                    await runner.run(places_for, game.board_copy(), rack, word)
                    auto.append((time.process_time() - cpu) * 1000)
                    cpu = time.process_time()
                    await runner.run(hints_for, state, options, seat, 3)
                    hints.append((time.process_time() - cpu) * 1000)
                rows.append(
                    ms_row(
                        f"offload: bot-process CPU per position autocomplete, {label}", auto, None
                    )
                )
                rows.append(ms_row(f"offload: bot-process CPU per hint, {label}", hints, None))
        movegen_rss = [b / 2**20 for b in pool.worker_rss().values()]
        rows.append(
            Row(
                f"offload: worker RSS after images and move generation ({WORKERS} workers)",
                "MiB",
                WORKER_RSS_BUDGET_MIB,
                max(movegen_rss),
                spread=(
                    f"images only {', '.join(f'{m:.0f}' for m in image_rss)} MiB; after move "
                    f"generation {', '.join(f'{m:.0f}' for m in movegen_rss)} MiB; first call "
                    f"with spawning {first:.0f} ms wall"
                ),
            )
        )
        own = rss_bytes(os.getpid())
        if own is not None:
            rows.append(Row("offload: the benchmark's own process RSS", "MiB", None, own / 2**20))
    finally:
        await pool.close()
    return rows


def run(quick: bool) -> list[Row]:
    return asyncio.run(_measure(quick))
