"""discord.py keeps a bounded number of threads (issue #32, memory under load): the
most recently made; an older one is asked of Discord when the bot needs it."""

from __future__ import annotations

import asyncio

import pytest

from bot.gateway import threads as thread_cache
from bot.ui.threads import open_thread


async def test_only_the_latest_threads_stay_cached_and_an_older_one_is_fetched(
    club, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(thread_cache, "KEEP_THREADS", 3)
    bot = await club.start()
    last = asyncio.ensure_future(
        bot.wait_for("thread_create", check=lambda t: t.name == "game 5", timeout=5)
    )
    made = [club.dc.add_thread(club.channel, f"game {n}") for n in range(6)]
    await last
    guild = bot.get_guild(club.guild.id)
    assert guild is not None
    assert [t.id for t in guild.threads] == [t.id for t in made[-3:]]

    # A game played in an older thread still finds it: Discord is asked for it.
    assert bot.get_channel(made[0].id) is None
    found = await open_thread(
        bot, made[0].id, name="again", archive_minutes=60, message_id=made[0].id
    )
    assert found == made[0].id
