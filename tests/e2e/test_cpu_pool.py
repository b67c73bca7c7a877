"""One end-to-end run with the CPU pool on (the rest of the suite runs CPU_WORKERS=0):
the computer game with hints and analysis, every board image and the restart through
worker processes, as the bot runs in production."""

from __future__ import annotations

import functools
import os

from bot import offload
from tests.e2e.test_scrabble_computer import (
    test_a_member_plays_the_computer_to_the_end_with_hints_and_analysis as computer_game,
)


async def test_the_computer_game_plays_to_the_end_with_images_and_search_in_workers(club, tmp_path):
    start = club.start
    club.start = functools.partial(start, cpu_workers=1)  # restarts too
    await computer_game(club, tmp_path)
    pool = offload.current()
    assert pool.workers == 1
    pids = pool.worker_pids()
    assert pids and os.getpid() not in pids
    assert pool.restarts == 0 and pool.in_threads == 0
