"""End-to-end fixtures: the real ClubBot against the loopback Discord.

``club`` gives a guild with a games channel, a moderator and six members, and
starts/restarts the real bot on a SQLite file (see ``tests/e2e/club.py``). Time
is the test's ``clock`` (tests/clock.py), shared by the bot and the loopback;
the test moves it forward, and ``await club.tick()`` then runs whatever timers
became due.
"""

from __future__ import annotations

import os
import re
import shutil
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from tests.clock import FakeClock
from tests.e2e.club import Club, open_club
from tests.e2e.links import public_link_leaks


@pytest.fixture
async def club(
    loopback: Any, tmp_path: Path, clock: FakeClock, migrated_sqlite_template: Path
) -> AsyncIterator[Club]:
    # The club's database starts as a copy of one migrated once per run: the bot
    # finds it at head and starts at once (tests/bot/test_main.py starts on none).
    shutil.copyfile(migrated_sqlite_template, tmp_path / "club.db")
    async for c in open_club(loopback, tmp_path, clock):
        yield c


@pytest.fixture(autouse=True)
async def every_file_the_bot_sends_says_what_it_shows(loopback: Any) -> AsyncIterator[None]:
    """DESIGN.md: every image says its essentials in text. After each end-to-end test,
    every file the bot posted, DM'd or replied with must carry alt text."""
    yield
    bot_id = loopback.bot_user.id
    missing = [
        f"{attachment.filename} in {message.content[:60]!r}"
        for message in list(loopback.messages.values())
        if message.author.id == bot_id
        for attachment in message.attachments
        if not (attachment.description or "").strip()
    ]
    assert not missing, f"files sent without alt text: {missing}"


@pytest.fixture(autouse=True)
async def no_public_message_carries_a_board_link(loopback: Any) -> AsyncIterator[None]:
    """Issue #28: a member's board link is a secret (whoever holds it acts as them), so
    it goes only on answers they alone see and DMs. After each end-to-end test, no
    public message the bot posted or edited, in a channel or a thread, carries one."""
    yield
    leaks = public_link_leaks(loopback)
    assert not leaks, f"board links in public messages: {leaks}"


@pytest.fixture(autouse=True)
async def what_the_bot_posted_is_kept_to_look_at(
    loopback: Any, request: pytest.FixtureRequest
) -> AsyncIterator[None]:
    """With ``CLUBBOT_TEST_ARTIFACTS`` set, every end-to-end test leaves what the bot
    sent where a person can look at it: ``discord/<test>/`` holds each file the bot
    posted, DM'd or answered with (board images, grids, exports) and ``messages.txt``,
    every message of the bot's in order (where, private or not, its text and files)."""
    yield
    root = os.environ.get("CLUBBOT_TEST_ARTIFACTS")
    if not root:
        return
    bot_id = loopback.bot_user.id
    folder = Path(root) / "discord" / re.sub(r"[^\w.-]+", "_", request.node.nodeid)[-120:]
    lines: list[str] = []
    for message in sorted(loopback.messages.values(), key=lambda m: m.id):
        if message.author.id != bot_id:
            continue
        private = " (private)" if message.flags & 64 else ""
        names = []
        for attachment in message.attachments:
            name = f"{message.id}-{attachment.filename}"
            folder.mkdir(parents=True, exist_ok=True)
            (folder / name).write_bytes(attachment.data)
            names.append(name)
        files = f" [files: {', '.join(names)}]" if names else ""
        lines.append(f"#{message.channel_id}{private}{files}\n{message.content}\n")
    if lines:
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "messages.txt").write_text("\n".join(lines), encoding="utf-8")
