"""Word Boggle's read-back of DMs after the bot lost its gateway session.

A DM sent while the bot was disconnected is read back from the DM channel when
it reconnects, and a DM that arrives live first (before the read-back runs)
does not hide it: the read-back starts after the last DM the bot handled
before it went down, not after the last one stored.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

import bot.services.boggle as boggle_service

pytestmark = pytest.mark.clock(datetime(2026, 11, 30, 18, 0, tzinfo=UTC))
SEED = 42  # classic16 → I T V A / T E V W / Y O N I / L U C A
WORDS = ["canoe", "tonic", "acne", "envoy"]


@pytest.fixture
def boggle_words(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "boggle-words.txt"
    path.write_text("\n".join(WORDS) + "\n")
    monkeypatch.setenv("LEXICON", str(path))
    monkeypatch.setattr(boggle_service, "new_seed", lambda: SEED)
    return path


def receipts_to(club: Any, user: Any) -> list[str]:
    return [
        m.content
        for m in club.dc.messages_in(user)
        if m.author.id == club.dc.bot_user.id and "your list for round" in m.content
    ]


async def wait_count(club: Any, user: Any, total: int) -> None:
    pattern = rf"has \*\*{total}\*\*"
    await club.dc.wait_until(
        lambda: any(re.search(pattern, text) for text in receipts_to(club, user)),
        10.0,
        f"a receipt saying the list has {total} words",
    )


async def test_a_dm_missed_while_disconnected_is_read_back_though_a_later_one_came_live_first(
    club, boggle_words
) -> None:
    dc, clock, channel = club.dc, club.clock, club.channel
    bob = club.members["bob"]
    await club.start()
    started = await dc.slash(club.moderator, channel, "boggle start", duration="10m")
    await started.wait_done()
    opened = clock()
    await dc.dm(bob, "canoe", at=opened + timedelta(seconds=10))
    await wait_count(club, bob, 1)

    # The session is lost (no resume): what Bob sends now never reaches the bot live.
    await dc.drop_gateway(resume=False)
    await dc.dm(bob, "tonic", at=opened + timedelta(seconds=20))
    # The bot identifies again; Bob's next DM arrives live before the read-back runs.
    await dc.wait_for_session()
    await dc.dm(bob, "acne", at=opened + timedelta(seconds=30))

    await wait_count(club, bob, 3)  # canoe, acne (live) and tonic (read back)
    assert len(receipts_to(club, bob)) == 3
