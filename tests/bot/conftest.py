"""Fixtures of the bot tests: the slash-command tree as the bot syncs it."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from bot.client import ClubBot
from bot.config import load_settings
from tests.clock import FakeClock


@pytest.fixture(scope="session")
def command_tree(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, Any]]:
    """The slash commands as the bot syncs them (what `python -m bot --check` builds)."""
    db = Path(tmp_path_factory.mktemp("help")) / "club.db"

    async def build() -> list[dict[str, Any]]:
        bot = ClubBot(
            load_settings(None, database_url=f"sqlite+aiosqlite:///{db}"),
            clock=FakeClock(),
            sync_commands=False,
            run_background=False,
        )
        try:
            await bot.prepare()
            return [cmd.to_dict(bot.tree) for cmd in bot.tree.get_commands()]
        finally:
            await bot.engine.dispose()

    return {payload["name"]: payload for payload in asyncio.run(build())}
