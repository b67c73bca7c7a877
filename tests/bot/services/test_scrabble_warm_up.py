"""A word list's move-generator graph is built where the move generator's work runs
(issue #32): with a CPU pool, in its workers, and not in the bot's own process, where
nothing walks it (27 MiB of the bot's memory for the built-in list); without one, in
the bot's process, in a thread. Either way in the background, never in a transaction.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot import offload as offload_module
from bot.lexicons import WordListRef
from bot.services.scrabble import ai
from engines.scrabble.wordgraph import word_graph_ready
from tests.bot.offload_jobs import graph_built_here

WORDS = sorted({a + b + c for a in "BCDFGH" for b in "AEIOU" for c in "LMNRST"} | {"QI", "ZA"})


@pytest.fixture
def club_list(tmp_path: Path) -> WordListRef:
    """A club's own list, by its file's path: a worker loads it by that name."""
    path = tmp_path / "club.txt"
    path.write_text("\n".join(WORDS) + "\n")
    return WordListRef(str(path), tmp_path)


@pytest.fixture
async def one_worker() -> AsyncIterator[offload_module.Offloader]:
    pool = offload_module.configure(1)
    try:
        yield pool
    finally:
        await offload_module.shutdown()
        offload_module.configure(0)


async def ready(lexicon: object, options: ai.AiOptions) -> bool:
    for _ in range(1000):
        if ai.graph_ready(lexicon, options):  # type: ignore[arg-type]
            return True
        await asyncio.sleep(0.02)
    return False


async def test_with_a_cpu_pool_the_graph_is_built_in_its_workers_not_in_the_bot(
    club_list: WordListRef, one_worker: offload_module.Offloader
) -> None:
    lexicon = club_list.lexicon()  # the bot's own copy: it checks words with it
    options = ai.AiOptions(club_list)
    assert not ai.graph_ready(lexicon, options)
    ai.start_warm_up(lexicon, options)
    assert await ready(lexicon, options)
    pid, built = await offload_module.offload(graph_built_here, options)
    assert pid != os.getpid() and built
    assert not word_graph_ready(lexicon)  # the bot's process built nothing


async def test_without_a_pool_the_graph_is_built_in_this_process(club_list: WordListRef) -> None:
    assert offload_module.current().workers == 0
    lexicon = club_list.lexicon()
    options = ai.AiOptions(club_list)
    ai.start_warm_up(lexicon, options)
    assert await ready(lexicon, options)
    assert word_graph_ready(lexicon)
