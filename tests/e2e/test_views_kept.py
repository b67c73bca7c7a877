"""What discord.py keeps of the views the bot sends (issue #32, memory under load):
a view whose buttons are routed by their custom id is not kept — no 15-minute timer
per private /help — and its buttons still work; a view with a callback of its own is
kept as discord.py keeps it."""

from __future__ import annotations

import asyncio

import discord

from bot.ui.help import help_view
from bot.ui.views import routed_by_custom_id


def view_timers() -> list[asyncio.Task[object]]:
    """discord.py's timeout tasks of the views it keeps (one per view with a timeout)."""
    return [
        task
        for task in asyncio.all_tasks()
        if "timeout_task_impl" in getattr(task.get_coro(), "__qualname__", "")
    ]


async def test_a_private_help_keeps_no_view_and_its_buttons_still_turn_pages(club) -> None:
    bot = await club.start()
    store = bot._connection._view_store
    for _ in range(3):
        ix = await club.dc.slash(club.members["alice"], club.channel, "help")
        assert ix.response.ephemeral and "help:club" in ix.answer.custom_ids
    assert view_timers() == []
    assert store._synced_message_views == {} and store._views == {}

    turned = await club.dc.click(club.members["alice"], ix.answer, "help:club")
    await turned.wait_done()
    page = club.dc.messages[ix.answer.id]
    assert page.embeds[0]["title"].endswith("Club nights")
    assert view_timers() == [] and store._synced_message_views == {}


async def test_a_view_with_its_own_callback_is_still_kept(club) -> None:
    bot = await club.start()
    assert routed_by_custom_id(help_view())
    view = discord.ui.View(timeout=60)
    view.add_item(discord.ui.Button(label="own", custom_id="own-callback"))
    assert not routed_by_custom_id(view)
    bot._connection.store_view(view, 4242)
    try:
        assert bot._connection._view_store._synced_message_views[4242] is view
        assert len(view_timers()) == 1
    finally:
        view.stop()
