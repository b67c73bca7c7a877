"""End-to-end fixtures: the real ClubBot against the loopback Discord.

``club`` gives a guild with a games channel, a moderator and six members, and
starts/restarts the real bot on a SQLite file (see ``tests/e2e/club.py``). Time
is the test's ``clock`` (tests/clock.py), shared by the bot and the loopback;
the test moves it forward, and ``await club.tick()`` then runs whatever timers
became due.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from tests.clock import FakeClock
from tests.e2e.club import Club, open_club


@pytest.fixture
async def club(loopback: Any, tmp_path: Path, clock: FakeClock) -> AsyncIterator[Club]:
    async for c in open_club(loopback, tmp_path, clock):
        yield c
