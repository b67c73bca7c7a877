"""Issue #30: the **Rematch** button on a finished game's last post, through the loopback
Discord with the real bot: the same game again once every player pressed it (a
press twice counts once, and the presses survive a restart), colours swapped in
chess, the other player first in Scrabble."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.club import Club
from tests.e2e.games import shown_game

WORDS = ["toucan", "canoe", "envoy", "tonic", "cane", "acne", "civet", "covet", "naive"]


@pytest.fixture
def words(tmp_path: Path) -> Path:
    path = tmp_path / "words.txt"
    path.write_text("\n".join(WORDS) + "\n")
    return path


def _rows(club: Club, sql: str, *args: Any) -> list[tuple[Any, ...]]:
    with sqlite3.connect(club.db_path) as db:
        return list(db.execute(sql, args))


async def _new_thread(club: Club, before: set[int]) -> Any:
    dc = club.dc
    return await dc.wait_until(
        lambda: next((t for t in dc.threads_in(club.channel) if t.id not in before), None),
        what="a new thread",
    )


async def _final_post(club: Club, thread: Any, custom_id: str) -> Any:
    dc = club.dc
    return await dc.wait_until(
        lambda: next((m for m in dc.messages_in(thread) if custom_id in m.custom_ids), None),
        what="the last post with its Rematch button",
    )


def _private(ix: Any) -> str:
    answers = [m for m in (ix.answer, *ix.followups) if m is not None and m.ephemeral]
    assert answers, ix.response
    return answers[-1].content


async def test_a_chess_rematch_starts_when_both_press_with_colours_swapped(club: Club) -> None:
    await club.start()
    dc = club.dc
    alice, bob = club.members["alice"], club.members["bob"]
    before = {t.id for t in dc.threads_in(club.channel)}
    ix = await dc.slash(alice, club.channel, "chess new", opponent=bob, time="3d", color="white")
    game_id = shown_game(club.db_path, club.guild.id, "chess", ix.answer.content)
    await dc.click(bob, ix.answer, f"chess:invite:accept:{game_id}")
    thread = await _new_thread(club, before)
    await dc.wait_for_message(thread, predicate=lambda m: "Game on" in m.content)
    await dc.slash(alice, thread, "chess resign")
    button = f"rematch:chess:{game_id}"
    final = await _final_post(club, thread, button)

    ix = await dc.click(bob, final, button)
    assert "1 of 2 players ready" in _private(ix)
    await dc.wait_for_message(thread, predicate=lambda m: "would like a rematch" in m.content)
    ix = await dc.click(bob, final, button)  # twice: still one
    assert "You asked already: 1 of 2" in _private(ix)

    ix = await dc.click(club.members["carol"], final, button)
    assert "not yours" in _private(ix)

    await club.restart()  # the press is kept, the button still works
    before = {t.id for t in dc.threads_in(club.channel)}
    ix = await dc.click(alice, final, button)
    assert "The rematch is on: Chess #2" in _private(ix)
    new_thread = await _new_thread(club, before)
    opening = await dc.wait_for_message(new_thread, predicate=lambda m: "Game on" in m.content)
    assert "bob has White, alice has Black" in opening.content  # swapped
    assert button not in dc.messages[final.id].custom_ids  # the button goes once it is on
    assert _rows(club, "select count(*) from games where kind = 'chess'") == [(2,)]
    ((options,),) = _rows(club, "select options from games where number = 2 and kind = 'chess'")
    assert json.loads(options)["time_control"] == "3d"


async def test_a_scrabble_rematch_gives_the_first_play_to_the_other_player(
    club: Club, words: Path
) -> None:
    await club.start(lexicon=str(words))
    dc = club.dc
    alice, bob = club.members["alice"], club.members["bob"]
    before = {t.id for t in dc.threads_in(club.channel)}
    ix = await dc.slash(alice, club.channel, "scrabble new", opponent=bob, clock="2d")
    join = next(c for c in ix.answer.custom_ids if c.startswith("scrabble:join"))
    game_id = int(join.split(":")[2])
    await dc.click(bob, ix.answer, join)
    thread = await _new_thread(club, before)
    await dc.wait_for_message(thread, predicate=lambda m: "move 0" in (m.content or ""))
    await dc.slash(bob, thread, "scrabble resign")
    button = f"rematch:scrabble:{game_id}"
    final = await _final_post(club, thread, button)

    ((state,),) = _rows(club, "select state from games where id = ?", game_id)
    first = json.loads(state)["engine"]["first_seat"]
    seats = dict(_rows(club, "select seat, user_id from game_seats where game_id = ?", game_id))
    first_player = seats[first]

    for user in (alice, alice, bob):
        ix = await dc.click(user, final, button)
    assert "The rematch is on: Scrabble #2" in _private(ix)
    new_thread = await _new_thread(club, before | {thread.id})
    await dc.wait_for_message(new_thread, predicate=lambda m: "move 0" in (m.content or ""))
    ((new_id, new_state, new_options),) = _rows(
        club, "select id, state, options from games where kind = 'scrabble' and number = 2"
    )
    engine = json.loads(new_state)["engine"]
    new_seats = dict(_rows(club, "select seat, user_id from game_seats where game_id = ?", new_id))
    assert new_seats[engine["first_seat"]] != first_player  # the other one plays first
    assert json.loads(new_options)["clock_seconds"] == 2 * 86400
