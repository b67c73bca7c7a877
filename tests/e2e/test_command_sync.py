"""Slash commands are synced only when they changed, through the loopback Discord.

Each start hashes the command tree per scope and compares it with the hash
stored at the last sync (``command_syncs``); ``python -m bot --sync`` sends
every scope regardless.
"""

from __future__ import annotations

import asyncio
import os
import re
import sys
from pathlib import Path
from typing import Any

import discord
import pytest
from discord import app_commands

from bot.client import ClubBot

REPO = Path(__file__).resolve().parents[2]
SYNC_PATH = re.compile(r"/applications/\d+(?:/guilds/(\d+))?/commands")


def sync_calls(dc: Any) -> list[str]:
    """Each bulk overwrite of application commands the bot sent: "global" or the guild id."""
    calls = []
    for request in dc.requests:
        match = SYNC_PATH.fullmatch(request.path)
        if request.method == "PUT" and match:
            calls.append(match.group(1) or "global")
    return calls


def add_a_command_at_start(monkeypatch: Any) -> None:
    """The next bots built have one more command than the last start's tree."""
    original = ClubBot.prepare

    async def prepare(self: ClubBot) -> None:
        await original(self)

        @app_commands.command(name="ping", description="Answers pong (added since the last sync)")
        async def ping(interaction: Any) -> None:
            await interaction.response.send_message("pong", ephemeral=True)

        self.tree.add_command(ping)

    monkeypatch.setattr(ClubBot, "prepare", prepare)


async def test_first_start_syncs_and_a_restart_with_the_same_tree_does_not(club) -> None:
    await club.start()
    assert sync_calls(club.dc) == [str(club.guild.id)]
    assert club.bot.synced_scopes == [f"guild:{club.guild.id}"]

    await club.restart()
    assert sync_calls(club.dc) == [str(club.guild.id)]  # still the first start's only
    assert club.bot.synced_scopes == []
    # The commands Discord kept from the first sync still work.
    ix = await club.dc.slash(club.members["alice"], club.channel, "help")
    assert ix.answer.ephemeral


async def test_a_changed_tree_is_synced_again(club, monkeypatch) -> None:
    await club.start()
    assert "ping" not in {c["name"] for c in club.dc.synced_commands(club.guild)}

    add_a_command_at_start(monkeypatch)
    await club.restart()
    assert sync_calls(club.dc) == [str(club.guild.id)] * 2
    assert "ping" in {c["name"] for c in club.dc.synced_commands(club.guild)}
    ix = await club.dc.slash(club.members["alice"], club.channel, "ping")
    assert ix.answer.content == "pong"

    await club.restart()  # the new tree is now the stored one
    assert sync_calls(club.dc) == [str(club.guild.id)] * 2


async def test_each_scope_is_decided_on_its_own(club) -> None:
    await club.start()
    second = club.dc.add_guild("Second Club")
    await club.stop()
    club.bot = ClubBot(
        club.settings(discord_guild_ids=[club.guild.id, second.id]), clock=club.clock
    )
    await club.dc.start_bot(club.bot, token="test-token")
    # The first guild already has this tree; only the newly listed one is sent it.
    assert sync_calls(club.dc) == [str(club.guild.id), str(second.id)]
    assert club.bot.synced_scopes == [f"guild:{second.id}"]
    assert {c["name"] for c in club.dc.synced_commands(second)} >= {"help", "club"}


async def test_global_commands_are_synced_once_too(club) -> None:
    await club.start(discord_guild_ids=[])
    await club.stop()
    await club.start(discord_guild_ids=[])
    assert sync_calls(club.dc) == ["global"]
    assert {c["name"] for c in club.dc.synced_commands()} >= {"help", "club"}


async def test_a_refused_sync_stores_nothing_and_is_tried_again_at_the_next_start(club) -> None:
    # 50001: the bot was added without the applications.commands scope.
    club.dc.fail_next(
        "PUT", r"/guilds/\d+/commands$", 403, {"code": 50001, "message": "Missing Access"}
    )
    with pytest.raises(discord.Forbidden):
        await club.start()
    club.bot = None
    await club.start()
    assert club.bot.synced_scopes == [f"guild:{club.guild.id}"]
    assert {c["name"] for c in club.dc.synced_commands(club.guild)} >= {"help", "club"}


async def test_sync_flag_sends_every_scope_even_when_unchanged(club) -> None:
    await club.start()
    await club.stop()
    assert sync_calls(club.dc) == [str(club.guild.id)]
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in {"DISCORD_TOKEN", "DATABASE_URL", "LEXICON", "DISCORD_GUILD_IDS"}
    }
    env.update(club.dc.env())
    env.update(
        PYTHONPATH=str(REPO),
        DATABASE_URL=f"sqlite+aiosqlite:///{club.db_path}",
        DISCORD_GUILD_IDS=str(club.guild.id),
        DISCORD_TOKEN="test-token",
    )
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot",
        "--sync",
        "--env-file",
        str(club.db_path.parent / "absent.env"),
        cwd=club.db_path.parent,
        env=env,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    out, err = await asyncio.wait_for(proc.communicate(), 120)
    assert proc.returncode == 0, err.decode()
    assert f"guild:{club.guild.id}" in out.decode()
    assert sync_calls(club.dc) == [str(club.guild.id)] * 2
    # --sync logs in over REST only: no second gateway session beside a running bot.
    assert len(club.dc.gateway.sessions) == 1

    await club.start()  # and the hash it stored is the tree's: a start after it sends nothing
    assert sync_calls(club.dc) == [str(club.guild.id)] * 2
