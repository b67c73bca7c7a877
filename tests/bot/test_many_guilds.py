"""A bot in many guilds starts without fetching their member lists, and a member it
has never seen is still named and judged right.

Discord sends a guild's members in GUILD_CREATE only to a bot with the presences
intent (the loopback does the same), so a bot that wants them all asks the
gateway for each guild (REQUEST_GUILD_MEMBERS, about 110 a minute per shard):
with 200 guilds that kept it from being ready for a minute. The bot asks for
none; what it needs comes with the interaction or message, or over REST.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

from bot.client import ClubBot
from bot.config import load_settings
from tests.clock import FakeClock

GUILDS = 200
REQUEST_GUILD_MEMBERS = 8


def _world(dc: Any) -> tuple[list[Any], dict[str, Any]]:
    guilds = []
    for number in range(GUILDS):
        guild = dc.add_guild(f"Club {number}")
        for seat in range(4):
            dc.add_member(guild, dc.add_user(f"m{number}-{seat}"))
        guilds.append(guild)
    club = guilds[137]
    games = dc.add_text_channel(club, "games")
    host_role = dc.add_role(club, "Game Host")
    people = {
        "games": games,
        "host_role": host_role,
        "admin": dc.add_user("admin"),
        "host": dc.add_user("host"),
        "bob": dc.add_user("bob"),
    }
    dc.add_member(club, people["admin"], admin=True)
    dc.add_member(club, people["host"], roles=[host_role], nick="Marisol")
    dc.add_member(club, people["bob"], nick="Roberto")
    return guilds, people


async def _bot(dc: Any, tmp_path: Path, template: Path, clock: FakeClock) -> ClubBot:
    shutil.copyfile(template, tmp_path / "club.db")
    settings = load_settings(
        None,
        discord_token="test-token",
        database_url=f"sqlite+aiosqlite:///{tmp_path / 'club.db'}",
        scheduler_poll_seconds=0.05,
    )
    bot = ClubBot(settings, clock=clock)
    await dc.start_bot(bot, token="test-token", timeout=60)
    return bot


async def test_two_hundred_guilds_become_ready_without_asking_for_their_members(
    loopback: Any, tmp_path: Path, migrated_sqlite_template: Path, clock: FakeClock
) -> None:
    dc = loopback
    guilds, _ = _world(dc)
    bot = await _bot(dc, tmp_path, migrated_sqlite_template, clock)
    assert bot.is_ready() and len(bot.guilds) == GUILDS
    asked = [f for f in dc.gateway.frames_received if f.get("op") == REQUEST_GUILD_MEMBERS]
    assert asked == []
    # The loopback sent no member list either: the cache knows the bot alone.
    some = bot.get_guild(guilds[0].id)
    assert (
        some is not None
        and not some.chunked
        and some.get_member(list(guilds[0].members)[-1]) is None
    )


async def test_a_member_the_cache_never_saw_is_named_and_judged_right(
    loopback: Any, tmp_path: Path, migrated_sqlite_template: Path, clock: FakeClock
) -> None:
    dc = loopback
    _, people = _world(dc)
    bot = await _bot(dc, tmp_path, migrated_sqlite_template, clock)
    games, host, bob = people["games"], people["host"], people["bob"]
    guild = bot.get_guild(games.guild_id)
    assert guild is not None and guild.get_member(host.id) is None

    # Permissions: the moderator role is judged from the interaction's own member.
    ix = await dc.slash(people["admin"], games, "club setup", moderator_role=people["host_role"])
    assert ix.answer.ephemeral
    ix = await dc.slash(bob, games, "boggle start")
    assert ix.answer.ephemeral and "moderators" in ix.answer.content
    ix = await dc.slash(host, games, "boggle start", duration="2m")
    reply = await ix.next_message()
    assert "Round #1 is on" in reply.content

    # Names: the inviter from the interaction, the opponent from the option's own data.
    ix = await dc.slash(host, games, "scrabble new", opponent=bob)
    assert "Marisol" in ix.answer.content and "Roberto" in ix.answer.content
    asked = [f for f in dc.gateway.frames_received if f.get("op") == REQUEST_GUILD_MEMBERS]
    assert asked == []
