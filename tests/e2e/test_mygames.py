"""Issue #30: ``/mygames``, one private list of everything waiting on the member here,
through the loopback Discord with the real bot: a Scrabble game, a chess game, a
tournament game, a chess invitation, an open Boggle round and a Henyo event."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

import bot.services.boggle as boggle_service
from tests.e2e.club import Club
from tests.e2e.games import shown_game
from tests.e2e.links import link_buttons, names

BASE = "https://games.example.org"
WORDS = ["toucan", "canoe", "envoy", "tonic", "cane", "acne", "civet", "covet", "naive"]


@pytest.fixture
def words(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "words.txt"
    path.write_text("\n".join(WORDS) + "\n")
    monkeypatch.setattr(boggle_service, "new_seed", lambda: 42)
    return path


async def _new_thread(club: Club, before: set[int]) -> Any:
    dc = club.dc
    return await dc.wait_until(
        lambda: next((t for t in dc.threads_in(club.channel) if t.id not in before), None),
        what="a new thread",
    )


async def _chess(club: Club, white: Any, black: Any) -> tuple[int, Any]:
    dc = club.dc
    before = {t.id for t in dc.threads_in(club.channel)}
    ix = await dc.slash(white, club.channel, "chess new", opponent=black, time="3d", color="white")
    game_id = shown_game(club.db_path, club.guild.id, "chess", ix.answer.content)
    await dc.click(black, ix.answer, f"chess:invite:accept:{game_id}")
    thread = await _new_thread(club, before)
    await dc.wait_for_message(thread, predicate=lambda m: "Game on" in m.content)
    return game_id, thread


async def _scrabble(club: Club, creator: Any, opponent: Any) -> tuple[int, Any]:
    dc = club.dc
    before = {t.id for t in dc.threads_in(club.channel)}
    ix = await dc.slash(creator, club.channel, "scrabble new", opponent=opponent, clock="1d")
    join = next(c for c in ix.answer.custom_ids if c.startswith("scrabble:join"))
    await dc.click(opponent, ix.answer, join)
    thread = await _new_thread(club, before)
    await dc.wait_for_message(thread, predicate=lambda m: "move 0" in (m.content or ""))
    return int(join.split(":")[2]), thread


def _line(lines: list[str], needle: str, text: str) -> str:
    found = [line for line in lines if needle in line]
    assert len(found) == 1, f"{needle!r} in {text}"
    return found[0]


async def test_mygames_lists_one_of_each_kind_privately_with_links_and_the_member_s_turns_first(
    club: Club, words: Path
) -> None:
    await club.start(lexicon=str(words), web_port=0, web_base_url=BASE)
    dc, channel = club.dc, club.channel
    alice, bob, carol = club.members["alice"], club.members["bob"], club.members["carol"]
    dave, erin, frank = club.members["dave"], club.members["erin"], club.members["frank"]

    ix = await dc.slash(alice, channel, "mygames")
    assert ix.answer.ephemeral and "Nothing is waiting on you" in ix.answer.content

    scrabble_id, scrabble_thread = await _scrabble(club, alice, bob)
    chess_id, chess_thread = await _chess(club, alice, carol)  # alice is White: her move
    invite = await dc.slash(frank, channel, "chess new", opponent=alice, time="2d")
    invited_id = shown_game(club.db_path, club.guild.id, "chess", invite.answer.content)

    # A tournament game (alice and dave, a round robin of two)
    ix = await dc.slash(
        club.moderator,
        channel,
        "tournament new",
        game="chess",
        format="round_robin",
        time_control="3d",
        name="Winter Cup",
    )
    found = re.search(r"tournament #(\d+)", ix.answer.content) or re.search(
        r"\(#(\d+)\)", ix.answer.content
    )
    assert found, ix.answer.content
    tid = int(found.group(1))
    post = await dc.wait_for_message(
        channel, predicate=lambda m: f"(tournament #{tid})" in m.content
    )
    for user in (alice, dave):
        await dc.click(user, post, f"tournament:join:{tid}")
    before = {t.id for t in dc.threads_in(channel)}
    await dc.slash(club.moderator, channel, "tournament start")
    round_thread = await _new_thread(club, before)

    # A Boggle round open, and a Henyo event alice's pair is in
    ix = await dc.slash(club.moderator, channel, "boggle start", duration="10m")
    await ix.wait_done()
    await dc.slash(club.moderator, channel, "henyo event open")
    await dc.slash(alice, channel, "henyo register", partner=erin)

    ix = await dc.slash(alice, channel, "mygames")
    answer = ix.answer
    assert answer.ephemeral, ix.response
    text = answer.content
    lines = [line for line in text.splitlines() if line.startswith("•")]
    assert len(lines) == 6, text
    needles = {
        "scrabble": "Scrabble #",
        "chess": "**Chess #1**",
        "invite": "an invitation for you to accept",
        "tournament": "Winter Cup",
        "boggle": "Boggle round #1",
        "henyo": "Library Henyo",
    }
    by_game = {key: _line(lines, needle, text) for key, needle in needles.items()}
    assert "vs carol: your turn, clock runs out <t:" in by_game["chess"]
    assert f"<#{chess_thread.id}>" in by_game["chess"]
    assert f"<#{scrabble_thread.id}>" in by_game["scrabble"] and "vs bob" in by_game["scrabble"]
    assert "frank" in by_game["invite"]
    assert f"<#{round_thread.id}>" in by_game["tournament"] and "dave" in by_game["tournament"]
    assert "send your word list" in by_game["boggle"]
    assert "your pair with erin is in" in by_game["henyo"]
    # The member's own turns and answers come first, the others after.
    mine = [i for i, line in enumerate(lines) if re.search("your turn|to accept|word list", line)]
    theirs = [i for i, line in enumerate(lines) if "their turn" in line]
    # (the tournament's colours and Scrabble's draw for first play are the bot's to choose)
    assert len(mine) + len(theirs) == 5 and len(mine) >= 3, text
    assert not theirs or max(mine) < min(theirs), text

    # Each board in play has the member's own link, on this private answer only.
    linked = {names(b["url"])[2:] for b in link_buttons(answer.components or ())}
    assert ("chess", chess_id) in linked and ("scrabble", scrabble_id) in linked
    assert ("chess", invited_id) not in linked  # an invitation has no board yet
    assert any(kind == "boggle" for kind, _ in linked)
    for button in link_buttons(answer.components or ()):
        assert names(button["url"])[:2] == (club.guild.id, alice.id)

    # Another member sees only their own.
    ix = await dc.slash(carol, channel, "mygames")
    assert ix.answer.ephemeral
    assert "**Chess #1** vs alice: their turn" in ix.answer.content
    assert "Scrabble #" not in ix.answer.content and "Library Henyo" not in ix.answer.content
