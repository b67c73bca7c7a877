"""Shutting down: handlers already running finish their unit of work first."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path

import pytest

from bot.client import ClubBot
from bot.config import load_settings
from tests.clock import FakeClock


@pytest.fixture
async def bot(tmp_path: Path):
    club = ClubBot(
        load_settings(None, database_url=f"sqlite+aiosqlite:///{tmp_path / 'club.db'}"),
        clock=FakeClock(),
        sync_commands=False,
        run_background=False,
    )
    yield club
    await club.engine.dispose()


async def test_a_handler_in_flight_finishes_before_the_database_closes(bot: ClubBot) -> None:
    finished = asyncio.Event()

    async def handler() -> None:
        await asyncio.sleep(0.05)  # its unit of work
        finished.set()

    task = asyncio.get_running_loop().create_task(handler(), name="discord.py: on_message")
    await bot._drain_handlers(timeout=5)
    assert finished.is_set() and task.done()


async def test_a_handler_that_does_not_finish_is_left_after_the_timeout(
    bot: ClubBot, caplog: pytest.LogCaptureFixture
) -> None:
    stuck = asyncio.get_running_loop().create_task(
        asyncio.Event().wait(), name="CommandTree-invoker"
    )
    other = asyncio.get_running_loop().create_task(asyncio.Event().wait(), name="unrelated")
    with caplog.at_level(logging.WARNING, logger="clubbot"):
        await bot._drain_handlers(timeout=0.05)
    assert not stuck.done() and "handlers still running at shutdown, cancelled: 1" in caplog.text
    for task in (stuck, other):
        task.cancel()
