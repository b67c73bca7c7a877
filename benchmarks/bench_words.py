"""The word tools (``/word``) on the built-in list: anagrams with two blanks, hooks,
patterns.

What is timed is what a worker process does for one command: the search
(``engines.scrabble.wordfind``) and the reply's text (``bot.messages.words``); the
word graph is built once before (``bench_movegen`` measures that build, which a
worker pays on its first word search or move generation). Each query is timed as
the fastest of a few calls (so another process on a shared machine does not count
as the code's cost); the rows give the median and p99 of those times over the
queries.

* ``/word anagram`` with two blanks: 7 tiles drawn (seeded) from a full bag without
  its blanks, plus ``??``, for 100 racks (30 with ``--quick``); the budget is on the
  p99 (100 ms). ``AEINRST??``, the most prolific rack there is, has a row of its own.
  A row gives the same racks in CPU time, which another process on the machine
  does not inflate.
* ``/word hooks``: 200 words of the list (seeded).
* ``/word pattern``: patterns with letters for the walk to follow (``?A?E``,
  ``Q*``, ``RE*ING``...), and broad ones (``*ING``, ``*A*``, ``???????``...) that go
  past the walk's budget, or start with a run, and are scanned instead.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable
from functools import partial

from benchmarks._core import Row, ms_row, time_calls
from bot.messages import words as msg
from engines.lexicon import load_lexicon
from engines.scrabble.layout import BLANK, TILE_COUNTS
from engines.scrabble.wordfind import anagrams, hooks, pattern_words
from engines.scrabble.wordgraph import word_graph

ANAGRAM_P99_BUDGET_MS = 100.0
NARROW_PATTERNS = ("?A?E", "Q*", "C?T*", "RE*ING", "?U?E?T", "EX*", "ZA*", "??Z", "S?????", "A*A*A")
BROAD_PATTERNS = ("*ING", "*A*", "*S", "???????", "A*", "??????S", "*Z*Z*", "?*")


def _racks(count: int) -> list[str]:
    bag = [tile for tile, n in sorted(TILE_COUNTS.items()) if tile != BLANK for _ in range(n)]
    rng = random.Random(31)
    return ["".join(rng.sample(bag, 7)) + BLANK * 2 for _ in range(count)]


def _anagram(lexicon: object, letters: str) -> str:
    found = anagrams(lexicon, letters, limit=msg.SEARCH_LIMIT)
    return msg.anagrams(found, word_list="default", full_only=False)


def _pattern(lexicon: object, pattern: str) -> str:
    return msg.pattern(pattern_words(lexicon, pattern, limit=msg.SEARCH_LIMIT), word_list="default")


def _hooks(lexicon: object, word: str) -> str:
    return msg.hooks(hooks(lexicon, word), word_list="default")


def _fastest(fn: Callable[[], object], repeat: int) -> float:
    return min(time_calls(fn, repeat=repeat, warmup=1))


def _cpu_fastest(fn: Callable[[], object], repeat: int) -> float:
    """The fastest of ``repeat`` calls in this process's CPU time (ms): on a machine
    shared with other work, what the code itself costs."""
    samples = []
    for _ in range(repeat):
        start = time.process_time()
        fn()
        samples.append((time.process_time() - start) * 1000)
    return min(samples)


def run(quick: bool) -> list[Row]:
    lexicon = load_lexicon()
    word_graph(lexicon)  # a worker builds it once (bench_movegen times the build)
    repeat = 2 if quick else 3
    rows: list[Row] = []

    racks = _racks(30 if quick else 100)
    times = [_fastest(partial(_anagram, lexicon, rack), repeat) for rack in racks]
    totals = [anagrams(lexicon, rack, limit=0).total for rack in racks]
    row = ms_row(
        f"words: /word anagram, 7 tiles + 2 blanks ({len(racks)} racks)",
        times,
        ANAGRAM_P99_BUDGET_MS,
    )
    row.budget_on = "p99"
    row.spread += f"; words found median {statistics.median(totals):.0f}, max {max(totals)}"
    rows.append(row)
    cpu = [_cpu_fastest(partial(_anagram, lexicon, rack), repeat) for rack in racks]
    rows.append(ms_row("words: /word anagram, 2 blanks, CPU time (same racks)", cpu, None))
    worst = [_fastest(lambda: _anagram(lexicon, "AEINRST??"), 1) for _ in range(repeat * 2)]
    row = ms_row("words: /word anagram AEINRST?? (the most prolific rack)", worst, None)
    row.spread += f"; {anagrams(lexicon, 'AEINRST??', limit=0).total} words"
    rows.append(row)

    words = random.Random(7).sample([w for w in lexicon if 2 <= len(w) <= 14], 200)
    times = [_fastest(partial(_hooks, lexicon, word), repeat) for word in words]
    rows.append(ms_row(f"words: /word hooks ({len(words)} words)", times, None))

    start = time.perf_counter()
    pattern_words(lexicon, "*Q", limit=0)  # the first scan makes the list's text, once
    first_scan_ms = (time.perf_counter() - start) * 1000
    for label, patterns in (("narrow", NARROW_PATTERNS), ("broad", BROAD_PATTERNS)):
        times = [_fastest(partial(_pattern, lexicon, pattern), repeat) for pattern in patterns]
        row = ms_row(f"words: /word pattern, {label} ({len(patterns)} patterns)", times, None)
        if label == "broad":
            row.spread += f"; the first scan {first_scan_ms:.0f} ms (makes the list's text)"
        rows.append(row)
    return rows


__all__ = ["run"]
