"""Work the pool's tests send to worker processes: top-level functions in a module that
imports little, so a spawned worker starts quickly (a test module would bring pytest
and discord.py along)."""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

from bot.offload import in_worker


def worker_pid() -> int:
    return os.getpid()


def square_after_a_kill(x: int, marker: str) -> int:
    """The first run (no marker yet) says its pid and waits to be killed; a rerun answers."""
    path = Path(marker)
    if not path.exists():
        path.write_text(str(os.getpid()))
        time.sleep(120)
    return x * x


def dies_in_any_worker() -> str:
    if in_worker():
        os.kill(os.getpid(), signal.SIGKILL)
    return "answered in the bot's process"


def graph_built_here(options: object) -> tuple[int, bool]:
    """This worker's pid, and whether it has built the move generator's graph of the
    list ``options`` (``bot.compute.scrabble.AiOptions``) names."""
    from bot.compute.scrabble import AiOptions
    from bot.lexicons import WordListRef
    from engines.scrabble.wordgraph import word_graph_ready

    assert isinstance(options, AiOptions) and isinstance(options.lexicon, WordListRef)
    return os.getpid(), word_graph_ready(options.lexicon.lexicon())
