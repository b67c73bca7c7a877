"""What a word list DM'd during an open round costs the database (issue #32): the
statements and transactions of the DM's own handling, counted as the bot sends them
(a ``before_cursor_execute`` listener on its engine), on a SQLite file and on
PostgreSQL, for a member's first list of the round and for a later one.

The bot is in a second guild whose members it has not fetched (as in a bot of many
clubs: the DM's guilds are then found with the one read of where rounds run).
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import event
from sqlalchemy.ext.asyncio import AsyncEngine

import bot.services.boggle as boggle_service
from tests.e2e.test_boggle_dms import SEED, WORDS, bot_dms, start_round, wait_dm

pytestmark = pytest.mark.clock(datetime(2026, 11, 30, 18, 0, tzinfo=UTC))
ON_MESSAGE = "discord.py: on_message"  # the task discord.py runs a message's listeners in


@pytest.fixture
def boggle_words(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "boggle-words.txt"
    path.write_text("\n".join(WORDS) + "\n")
    monkeypatch.setenv("LEXICON", str(path))
    monkeypatch.setattr(boggle_service, "new_seed", lambda: SEED)


@dataclass
class Sent:
    statements: list[str] = field(default_factory=list)
    transactions: int = 0  # units of work begun (a lookup's too, though it sends no BEGIN)


class Census:
    """The SQL the bot sends while handling messages (BEGIN and COMMIT counted apart),
    while ``counting()``. Listening from before the bot starts to after it stops: a
    listener removed while the bot's connections fire events breaks their iteration."""

    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine.sync_engine
        self.sent: Sent | None = None
        event.listen(self.engine, "before_cursor_execute", self._statement)
        event.listen(self.engine, "begin", self._begin)

    def close(self) -> None:
        event.remove(self.engine, "before_cursor_execute", self._statement)
        event.remove(self.engine, "begin", self._begin)

    @contextmanager
    def counting(self) -> Iterator[Sent]:
        self.sent = Sent()
        try:
            yield self.sent
        finally:
            self.sent = None

    def _handling_a_message(self) -> Sent | None:
        try:
            task = asyncio.current_task()
        except RuntimeError:
            return None
        return self.sent if task is not None and task.get_name() == ON_MESSAGE else None

    def _statement(self, conn: Any, cursor: Any, text: str, *args: Any) -> None:
        sent = self._handling_a_message()
        if sent is not None and not text.startswith(("BEGIN", "COMMIT", "ROLLBACK")):
            sent.statements.append(" ".join(text.split())[:100])

    def _begin(self, conn: Any) -> None:
        sent = self._handling_a_message()
        if sent is not None:
            sent.transactions += 1


async def test_a_word_list_dmd_during_a_round_costs_few_statements(
    club, boggle_words, database_url: str, engine: AsyncEngine
) -> None:
    # (``engine``: the database is at head, its rows emptied, before the bot starts on it.)
    dc, clock = club.dc, club.clock
    alice = club.members["alice"]
    quiet = dc.add_guild("Quiet Club")  # no round; its members never fetched
    for name in ("quinn", "rosa"):
        dc.add_member(quiet, dc.add_user(name))
    dc.add_member(quiet, alice)
    bot = await club.start(database_url=database_url)
    census = Census(bot.engine)
    try:
        await start_round(club)
        # Her first list of the round: she and her list are new.
        with census.counting() as first:
            await dc.dm(alice, "toucan canoe", at=clock.now)
            await wait_dm(club, alice, r"2 new words.*has \*\*2\*\*")
        seen = len(bot_dms(club, alice))
        # A later one: her list grows.
        with census.counting() as later:
            await dc.dm(alice, "convey envoy canoe", at=clock.now)
            await wait_dm(club, alice, r"2 new words.*has \*\*4\*\*", after=seen)
    finally:
        await club.stop()
        census.close()

    # Where rounds run (one read, no transaction of its own on PostgreSQL), then one
    # transaction: her round with its event's pairs and her list, her name, her list.
    assert len(first.statements) == 5, first.statements  # her name is written too
    assert len(later.statements) == 4, later.statements
    assert (first.transactions, later.transactions) == (2, 2)
