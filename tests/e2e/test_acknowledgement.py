"""The acknowledgement comes before the work (issue #32).

Discord needs an answer within 3 seconds, and that first answer costs nothing to
send; the work (a database read, a move, a board image) may take longer under
load. Each test here makes one command's work wait on an ``asyncio.Event`` the
test holds, and checks that the loopback had recorded the acknowledgement (a
deferral) by the time the work began, while the work was still held. Ordering,
never wall-clock time: had the command worked first, the held work would block
the acknowledgement and the test would find none.

Then the work is let go, and the member sees the answer (a refusal after a
public "thinking…" privately, with the placeholder gone).
"""

from __future__ import annotations

import asyncio
import functools
import sys
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

import bot.services.boggle as boggle_service
from tests.e2e.club import Club
from tests.e2e.games import shown_game
from tests.loopback.handles import AUTOCOMPLETE, DEFERRED_CHANNEL_MESSAGE, DEFERRED_UPDATE

pytestmark = pytest.mark.clock(datetime(2026, 11, 30, 18, 0, tzinfo=UTC))


class Held:
    """Wraps an async callable so each call waits until the test lets it go, and
    notes whether the interaction had its acknowledgement when the call began."""

    def __init__(self) -> None:
        self.entered = asyncio.Event()
        self.release = asyncio.Event()
        self.ix: Any = None  # the interaction to look at (set once the test has it)
        self.acknowledged_when_entered: list[bool] = []

    def wrap(self, call: Callable[..., Awaitable[Any]]) -> Callable[..., Awaitable[Any]]:
        @functools.wraps(call)
        async def held(*args: Any, **kwargs: Any) -> Any:
            self.entered.set()
            await self.release.wait()
            return await call(*args, **kwargs)

        return held

    async def check(self, ix: Any, kind: int) -> None:
        """The work has begun and is held; the acknowledgement is recorded already."""
        await asyncio.wait_for(self.entered.wait(), 10)
        assert not self.release.is_set()
        assert ix.response is not None, "the work began before the acknowledgement"
        assert ix.response.type == kind, ix.response
        assert not ix.followups and ix.answer is ix.response  # nothing but the deferral yet
        self.release.set()


def hold(monkeypatch: pytest.MonkeyPatch, owner: Any, name: str) -> Held:
    held = Held()
    monkeypatch.setattr(owner, name, held.wrap(getattr(owner, name)))
    return held


def cog(club: Club, name: str) -> Any:
    assert club.bot is not None
    found = club.bot.get_cog(name)
    assert found is not None, name
    return found


async def test_chess_move_acknowledges_before_the_move_is_played(
    club: Club, monkeypatch: pytest.MonkeyPatch
) -> None:
    dc = club.dc
    white, black = club.members["alice"], club.members["bob"]
    await club.start()
    ix = await dc.slash(white, club.channel, "chess new", opponent=black, time="3d", color="white")
    game_id = shown_game(club.db_path, club.guild.id, "chess", ix.answer.content)
    await dc.click(black, ix.answer, f"chess:invite:accept:{game_id}")
    thread = await dc.wait_until(lambda: dc.threads_in(club.channel), what="the game's thread")
    await dc.wait_for_message(thread[0], predicate=lambda m: "Game on" in m.content)

    held = hold(monkeypatch, cog(club, "ChessCog").service.moves, "play")
    ix = await dc.slash(white, thread[0], "chess move", move="e4", wait=False)
    await held.check(ix, DEFERRED_CHANNEL_MESSAGE)
    answer = await ix.wait_done()
    assert answer is not None and answer.ephemeral and "e4" in answer.content, answer


async def test_scrabble_play_acknowledges_before_looking_for_the_game_and_refuses_privately(
    club: Club, monkeypatch: pytest.MonkeyPatch
) -> None:
    dc = club.dc
    await club.start()
    # The game is looked for in the play's own transaction (GameFinder.load).
    held = hold(monkeypatch, cog(club, "ScrabbleCog").finder, "load")
    ix = await dc.slash(
        club.members["alice"], club.channel, "scrabble play", word="QUIZ", position="8H", wait=False
    )
    await held.check(ix, DEFERRED_CHANNEL_MESSAGE)
    answer = await ix.wait_done()
    assert answer is not None and answer.ephemeral and answer.content, answer  # no game: refused


async def test_a_scrabble_invitation_s_accept_button_defers_before_the_acceptance(
    club: Club, monkeypatch: pytest.MonkeyPatch
) -> None:
    dc = club.dc
    alice, bob = club.members["alice"], club.members["bob"]
    await club.start()
    ix = await dc.slash(alice, club.channel, "scrabble new", opponent=bob)
    invite = ix.answer
    join = next(c for c in invite.custom_ids if c.startswith("scrabble:join"))

    held = hold(monkeypatch, cog(club, "ScrabbleCog").service.invitations, "accept")
    click = await dc.click(bob, invite, join, wait=False)
    await held.check(click, DEFERRED_UPDATE)
    await click.wait_done()
    await dc.wait_until(
        lambda: "scrabble:join" not in " ".join(dc.messages[invite.id].custom_ids),
        what="the invitation to lose its buttons as the game starts",
    )


async def test_leaderboard_acknowledges_before_its_table_is_drawn(
    club: Club, monkeypatch: pytest.MonkeyPatch
) -> None:
    dc = club.dc
    await club.start()
    # The image, drawn last; in the cog's module as the bot loaded it (discord.py
    # loads an extension as a new module object)
    held = hold(monkeypatch, sys.modules["cogs.leaderboard"], "table_file")
    ix = await dc.slash(club.members["carol"], club.channel, "leaderboard", wait=False)
    await held.check(ix, DEFERRED_CHANNEL_MESSAGE)
    answer = await ix.wait_done()
    assert answer is not None and not answer.ephemeral
    assert answer.attachments and answer.attachments[0].filename.endswith(".png")


async def test_a_refusal_after_a_public_thinking_is_private_and_the_placeholder_goes(
    club: Club, monkeypatch: pytest.MonkeyPatch
) -> None:
    dc = club.dc
    alice, bob = club.members["alice"], club.members["bob"]
    await club.start()
    held = hold(monkeypatch, cog(club, "ScrabbleCog").service.invitations, "create")
    ix = await dc.slash(alice, club.channel, "scrabble new", opponent=bob, clock="soon", wait=False)
    await held.check(ix, DEFERRED_CHANNEL_MESSAGE)
    assert not ix.response.ephemeral  # a public "thinking…"
    await ix.wait_done()
    placeholder = dc.messages[ix.original_id]
    assert placeholder.deleted
    (refusal,) = ix.followups
    assert refusal.ephemeral and refusal.content and not refusal.pings
    assert [m for m in dc.messages_in(club.channel) if not m.deleted and m.interaction_id] == []


@pytest.fixture
def boggle_words(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "boggle-words.txt"
    path.write_text("toucanet\ntoucan\nconvey\ncanoe\nenvoy\nnaive\novine\ntonic\n")
    monkeypatch.setenv("LEXICON", str(path))
    monkeypatch.setattr(boggle_service, "new_seed", lambda: 42)
    return path


async def test_a_boggle_form_is_acknowledged_before_its_words_are_taken(
    club: Club, boggle_words: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    dc = club.dc
    await club.start()
    started = await dc.slash(club.moderator, club.channel, "boggle start", duration="3m")
    assert started.answer.ephemeral
    grid = await dc.wait_until(
        lambda: next(
            (m for m in dc.messages_in(club.channel) if "Word Boggle — round #1**" in m.content),
            None,
        ),
        what="the grid",
    )
    bob = club.members["bob"]
    opened = await dc.click(bob, grid, "boggle:submit:1")
    assert opened.modal is not None  # the form is the first answer, as it must be

    held = hold(monkeypatch, cog(club, "BoggleCog").service.submissions, "submit_form")
    sent = await dc.submit_modal(bob, opened, {"boggle:words": "tonic canoe"}, wait=False)
    await held.check(sent, DEFERRED_CHANNEL_MESSAGE)
    receipt = await sent.wait_done()
    assert receipt is not None and receipt.ephemeral and "2 new words" in receipt.content


async def test_suggestions_discord_has_stopped_waiting_for_are_skipped(
    club: Club, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """Back-pressure: an autocomplete that reaches the bot already 3 s old (the bot
    was that far behind; Discord has given up on it) costs no work and gets no
    answer; a fresh one is answered as usual."""
    import logging
    from datetime import timedelta

    await club.start()
    dc, alice = club.dc, club.members["alice"]
    caplog.set_level(logging.INFO, logger="clubbot")
    # Unanswered, as Discord itself drops it: what the loopback would flag is expected.
    dc.allow_violation("interaction_timeout")
    issue = dc.ids.next
    monkeypatch.setattr(
        dc.ids, "next", lambda at=None: issue(at or club.clock() - timedelta(seconds=3))
    )
    late = asyncio.create_task(
        dc.autocomplete(alice, club.channel, "chess board", "game", game="", timeout=30)
    )
    await dc.wait_until(
        lambda: any("skipped" in r.getMessage() for r in caplog.records if r.name == "clubbot"),
        10,
        "the late autocomplete skipped",
    )
    monkeypatch.undo()
    stale = next(ix for ix in dc.interactions.values() if ix.type == AUTOCOMPLETE)
    offered = await dc.autocomplete(alice, club.channel, "chess board", "game", game="")
    assert offered == []  # answered (no games yet)
    assert stale.response is None
    late.cancel()
