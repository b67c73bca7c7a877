"""Fixtures: a subprocess world (``world``) and an in-process club (``club``).

``world`` runs the bot as a real process against the loopback Discord on a
SQLite file; ``club`` is the e2e ``Club`` (the real ClubBot in this process, a
fake clock) for tests that need many quick interactions rather than kills.
"""

from __future__ import annotations

import os
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import reset_postgres
from tests.e2e.conftest import Club, FakeClock
from tests.reliability import tally
from tests.reliability.harness import World

WORDS = [
    "toucanet",
    "toucan",
    "convey",
    "canoe",
    "civet",
    "covet",
    "envoy",
    "naive",
    "ovine",
    "tonic",
    "acne",
    "cane",
    "cain",
    "coven",
    "covey",
]


def small_word_list(tmp_path: Path) -> Path:
    """A word list that loads at once (the bot's word games need one)."""
    path = tmp_path / "words.txt"
    path.write_text("\n".join(WORDS) + "\n", encoding="utf-8")
    return path


async def _world(tmp_path: Path, database_url: str) -> AsyncIterator[World]:
    w = World(tmp_path, database_url)
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
async def world(tmp_path: Path) -> AsyncIterator[World]:
    """The bot as a subprocess on a SQLite file."""
    async for w in _world(tmp_path, f"sqlite+aiosqlite:///{tmp_path / 'club.db'}"):
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
    async for w in _world(tmp_path, url):
        yield w


@pytest.fixture
async def club(
    loopback: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> AsyncIterator[Club]:
    """The e2e club (see tests/e2e/conftest.py), with a small word list."""
    monkeypatch.setenv("LEXICON", str(small_word_list(tmp_path)))
    dc = loopback
    c = Club(dc=dc, db_path=tmp_path / "club.db", clock=FakeClock())
    c.guild = dc.add_guild("Library Games Club")
    c.channel = dc.add_text_channel(c.guild, "games")
    c.mod_role = dc.add_role(c.guild, "Game Host")
    c.moderator = dc.add_user("host")
    dc.add_member(c.guild, c.moderator, roles=[c.mod_role], admin=True)
    for name in ("alice", "bob", "carol", "dave", "erin", "frank"):
        user = dc.add_user(name)
        dc.add_member(c.guild, user)
        c.members[name] = user
    try:
        yield c
    finally:
        await c.stop()


def postgres_url() -> str | None:
    return os.environ.get("TEST_DATABASE_URL")


def pytest_terminal_summary(terminalreporter: Any) -> None:
    lines = tally.summary()
    if lines:
        terminalreporter.section("reliability counts")
        for line in lines:
            terminalreporter.line(line)
