"""Fixtures: a subprocess world (``world``) and an in-process club (``club``).

``world`` runs the bot as a real process against the loopback Discord on a
SQLite file, both on the world's running clock (tests/clock.py: the machine's
time, moved forward with ``world.time_passes``); ``club`` is the e2e ``Club``
(the real ClubBot in this process, the test's standing clock) for tests that
need many quick interactions rather than kills.
"""

from __future__ import annotations

import os
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from tests.clock import FakeClock, pinned
from tests.conftest import reset_postgres
from tests.e2e.club import Club, open_club
from tests.reliability import tally
from tests.reliability.harness import World, small_word_list


async def _world(
    request: pytest.FixtureRequest, tmp_path: Path, database_url: str
) -> AsyncIterator[World]:
    w = World(tmp_path, database_url, clock=FakeClock(pinned(request.node), running=True))
    w.lexicon = small_word_list(tmp_path)
    await w.open()
    problems: list[str] = []
    try:
        yield w
    finally:
        problems = await w.close()
    tally.add("kill points survived (bot SIGKILLed and restarted)", len(w.kill_points))
    if problems:
        pytest.fail("the bot misbehaved:\n  " + "\n  ".join(problems), pytrace=False)


@pytest.fixture
async def world(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[World]:
    """The bot as a subprocess on a SQLite file."""
    async for w in _world(request, tmp_path, f"sqlite+aiosqlite:///{tmp_path / 'club.db'}"):
        yield w


@pytest.fixture(
    params=[
        "sqlite",
        pytest.param(
            "postgres",
            marks=[
                pytest.mark.postgres,
                pytest.mark.skipif(
                    not os.environ.get("TEST_DATABASE_URL"), reason="TEST_DATABASE_URL is not set"
                ),
            ],
        ),
    ]
)
async def any_world(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[World]:
    """``world`` on SQLite, then on PostgreSQL (``TEST_DATABASE_URL``, emptied first)."""
    if request.param == "sqlite":
        url = f"sqlite+aiosqlite:///{tmp_path / 'club.db'}"
    else:
        url = os.environ["TEST_DATABASE_URL"]
        await reset_postgres(url)
    async for w in _world(request, tmp_path, url):
        yield w


@pytest.fixture
async def club(
    loopback: Any, tmp_path: Path, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> AsyncIterator[Club]:
    """The e2e club (see tests/e2e/club.py), with a small word list."""
    monkeypatch.setenv("LEXICON", str(small_word_list(tmp_path)))
    async for c in open_club(loopback, tmp_path, clock):
        yield c
