"""Issue #28: the bot offers each member a private **Open the board** link wherever they
act in a game, through the loopback Discord with the real bot.

The link goes only on what that member alone sees (an ephemeral answer, a DM),
names them, their club and the one game or round, and is an absolute address
under ``WEB_BASE_URL``. Partners of a pair each get their own. With ``WEB_PORT``
unset, or without an absolute address, there is none anywhere. (That no public
message ever carries one is checked after every end-to-end test: conftest.py.)
"""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path
from typing import Any

import pytest

import bot.services.boggle as boggle_service
from bot.services.scrabble.options import MAX_REMINDER_LEAD
from tests.e2e.club import Club
from tests.e2e.games import shown_game
from tests.e2e.languages import speak
from tests.e2e.links import board_link, link_buttons, messages_with_links, names

BASE = "https://games.example.org"
WORDS = ["toucan", "canoe", "envoy", "tonic", "cane", "acne", "civet", "covet", "naive"]
BOGGLE_SEED = 42  # classic16 → I T V A / T E V W / Y O N I / L U C A
DAY = 86400


@pytest.fixture
def words(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A small word list (quick to load) and a known Boggle grid."""
    path = tmp_path / "words.txt"
    path.write_text("\n".join(WORDS) + "\n")
    monkeypatch.setattr(boggle_service, "new_seed", lambda: BOGGLE_SEED)
    return path


def bot_dms(club: Club, user: Any, pattern: str) -> list[Any]:
    return [m for m in club.dc.dms_to(user) if re.search(pattern, m.content or "")]


async def dm_saying(club: Club, user: Any, pattern: str) -> Any:
    """The first DM to ``user`` matching ``pattern``, once it has come."""
    found = await club.dc.wait_until(
        lambda: bot_dms(club, user, pattern), what=f"a DM to {user.name} saying {pattern!r}"
    )
    return found[0]


def private_answer(ix: Any) -> Any:
    answer = ix.answer
    assert answer is not None and answer.ephemeral, ix.response
    return answer


def link_naming(club: Club, message: Any, user: Any, kind: str, subject_id: int) -> str:
    """The message's one link button, checked to be ``user``'s own to that board."""
    label, url = board_link(message)
    assert url.startswith(f"{BASE}/p/"), url
    assert names(url) == (club.guild.id, user.id, kind, subject_id), url
    return label


def no_link(message: Any) -> None:
    assert not link_buttons(message.components or ()), message.components


def game_status(club: Club, game_id: int, table: str = "games") -> str:
    with sqlite3.connect(club.db_path) as db:
        (status,) = db.execute(f"select status from {table} where id = ?", (game_id,)).fetchone()
    return str(status)


async def next_dm(club: Club, user: Any, seen: int) -> Any:
    """The first DM to ``user`` after the ``seen`` they had."""
    found = await club.dc.wait_until(
        lambda: club.dc.dms_to(user)[seen:], what=f"a new DM to {user.name}"
    )
    return found[0]


# -- Scrabble --------------------------------------------------------------------------------


async def open_scrabble(club: Club, creator: Any, **options: Any) -> tuple[int, Any]:
    """``creator`` invites; everyone invited accepts: the game's id and its thread."""
    dc = club.dc
    before = {t.id for t in dc.threads_in(club.channel)}
    ix = await dc.slash(creator, club.channel, "scrabble new", **options)
    invite = ix.answer
    join = next(c for c in invite.custom_ids if c.startswith("scrabble:join"))
    game_id = int(join.split(":")[2])
    invited = [options[k] for k in ("opponent", "partner", "opponent_partner") if k in options]
    for member in invited:
        await dc.click(member, invite, join)
    thread = await dc.wait_until(
        lambda: next((t for t in dc.threads_in(club.channel) if t.id not in before), None),
        what="the game's thread",
    )
    await dc.wait_for_message(thread, predicate=lambda m: "move 0" in (m.content or ""))
    return game_id, thread


async def test_scrabble_rack_show_my_rack_turn_dms_and_reminders_carry_each_member_s_own_link(
    club: Club, words: Path
) -> None:
    await club.start(lexicon=str(words), web_port=0, web_base_url=BASE)
    dc = club.dc
    alice, bob, carol, dave, erin = (
        club.members[n] for n in ("alice", "bob", "carol", "dave", "erin")
    )
    game_id, thread = await open_scrabble(
        club, alice, opponent=bob, partner=carol, opponent_partner=dave, clock="1d", deadline="14d"
    )
    pairs = [[alice, carol], [bob, dave]]
    await club.flush()
    turn = await dc.wait_until(
        lambda: next((p for p in pairs if bot_dms(club, p[0], "your turn")), None),
        what="the first turn's DMs",
    )
    waiting = next(p for p in pairs if p is not turn)

    # The turn DM: each partner's names that partner, the same text beside it.
    texts = set()
    for member in turn:
        dm = await dm_saying(club, member, "your turn")
        assert link_naming(club, dm, member, "scrabble", game_id) == "Open the board"
        texts.add(dm.content)
    assert len(texts) == 1

    # /scrabble rack, for every player, privately, each with their own link.
    for member in (alice, bob, carol, dave):
        ix = await dc.slash(member, thread, "scrabble rack")
        answer = private_answer(ix)
        assert answer.content.startswith("Your rack:")
        link_naming(club, answer, member, "scrabble", game_id)
    # Someone not in the game gets no rack and no link.
    ix = await dc.slash(erin, thread, "scrabble rack", game=str(1))
    no_link(private_answer(ix))

    # Show my rack, on the board in the thread (whose own buttons carry no link).
    board = next(m for m in dc.messages_in(thread) if f"scrabble:rack:{game_id}" in m.custom_ids)
    no_link(board)
    ix = await dc.click(carol, board, f"scrabble:rack:{game_id}")
    link_naming(club, private_answer(ix), carol, "scrabble", game_id)

    # The reminder, to both partners of the seat to move, each with their own link.
    club.clock.advance(seconds=DAY - min(DAY / 3, MAX_REMINDER_LEAD.total_seconds()) + 1)
    await club.tick()
    for member in turn:
        dm = await dm_saying(club, member, "Reminder")
        link_naming(club, dm, member, "scrabble", game_id)

    # The other seat's DMs are closed: its turn notice comes to the thread, naming
    # both partners, without a link (conftest checks every public message too).
    for member in waiting:
        dc.close_dms(member)
    before = len(dc.messages_in(thread))
    ix = await dc.slash(turn[0], thread, "scrabble pass")
    assert private_answer(ix).content == "You passed."
    fallback = await dc.wait_for_message(
        thread, predicate=lambda m: "your turn" in (m.content or ""), timeout=10
    )
    assert set(fallback.mentioned_user_ids()) == {m.id for m in waiting}
    no_link(fallback)
    assert all(not link_buttons(m.components) for m in dc.messages_in(thread)[before:])

    # Once the game is over (a seat resigns), the rack's answer offers no board.
    private_answer(await dc.slash(waiting[0], thread, "scrabble resign"))
    await dc.wait_until(lambda: game_status(club, game_id) == "finished", what="the game's end")
    ix = await dc.slash(alice, thread, "scrabble rack")
    no_link(private_answer(ix))


# -- Chess -----------------------------------------------------------------------------------


async def start_chess(club: Club, white: Any, black: Any, *, time: str = "1d") -> tuple[int, Any]:
    """White challenges Black, Black accepts: the game's id and its thread."""
    dc = club.dc
    before = {t.id for t in dc.threads_in(club.channel)}
    ix = await dc.slash(white, club.channel, "chess new", opponent=black, time=time, color="white")
    game_id = shown_game(club.db_path, club.guild.id, "chess", ix.answer.content)
    await dc.click(black, ix.answer, f"chess:invite:accept:{game_id}")
    thread = await dc.wait_until(
        lambda: next((t for t in dc.threads_in(club.channel) if t.id not in before), None),
        what="the game's thread",
    )
    await dc.wait_for_message(thread, predicate=lambda m: bool(m.attachments))
    return game_id, thread


async def test_chess_board_and_reminder_carry_the_player_s_own_link_in_the_club_s_language(
    club: Club, words: Path
) -> None:
    await club.start(lexicon=str(words), web_port=0, web_base_url=BASE)
    dc = club.dc
    carol, dave, erin = (club.members[n] for n in ("carol", "dave", "erin"))
    game_id, thread = await start_chess(club, carol, dave)

    # /chess board answers privately: each player's answer carries their own link.
    for member in (carol, dave):
        ix = await dc.slash(member, thread, "chess board")
        answer = private_answer(ix)
        assert answer.files and link_naming(club, answer, member, "chess", game_id)
    # A member watching sees the board too, with no link (they have no seat).
    no_link(private_answer(await dc.slash(erin, thread, "chess board")))

    # In a Filipino club the button speaks Filipino, in the answer and in the reminder.
    await speak(club, "fil")
    ix = await dc.slash(carol, thread, "chess board")
    assert link_naming(club, private_answer(ix), carol, "chess", game_id) == "Buksan ang board"
    seen = len(dc.dms_to(carol))
    club.clock.advance(hours=12)
    await club.tick()
    reminder = await next_dm(club, carol, seen)
    assert link_naming(club, reminder, carol, "chess", game_id) == "Buksan ang board"

    # The game over, no board is offered.
    await dc.slash(dave, thread, "chess resign")
    await dc.wait_until(
        lambda: game_status(club, game_id) == "finished", what="the game to be over"
    )
    no_link(private_answer(await dc.slash(carol, thread, "chess board", game="1")))


async def test_chess_partners_are_each_reminded_with_their_own_link(
    club: Club, words: Path
) -> None:
    await club.start(lexicon=str(words), web_port=0, web_base_url=BASE)
    dc = club.dc
    alice, bob, carol, dave = (club.members[n] for n in ("alice", "bob", "carol", "dave"))
    before = {t.id for t in dc.threads_in(club.channel)}
    ix = await dc.slash(
        alice,
        club.channel,
        "chess new",
        opponent=bob,
        partner=carol,
        opponent_partner=dave,
        time="1d",
        color="white",
    )
    game_id = shown_game(club.db_path, club.guild.id, "chess", ix.answer.content)
    for member in (bob, carol, dave):
        await dc.click(member, ix.answer, f"chess:invite:accept:{game_id}")
    await dc.wait_until(
        lambda: next((t for t in dc.threads_in(club.channel) if t.id not in before), None),
        what="the game's thread",
    )
    club.clock.advance(hours=12)
    await club.tick()
    for member in (alice, carol):  # white's partners
        reminder = await dm_saying(club, member, r"Chess #\d")
        link_naming(club, reminder, member, "chess", game_id)


# -- Word Boggle ------------------------------------------------------------------------------


async def test_boggle_submit_words_flow_offers_the_round_s_board_privately(
    club: Club, words: Path
) -> None:
    await club.start(lexicon=str(words), web_port=0, web_base_url=BASE)
    dc = club.dc
    alice, bob, carol, dave = (club.members[n] for n in ("alice", "bob", "carol", "dave"))
    ix = await dc.slash(club.moderator, club.channel, "boggle start", duration="3m")
    no_link(private_answer(ix))  # the moderator's own answer: they start it, not play in it
    grid_post = await dc.wait_for_message(
        club.channel, predicate=lambda m: "Word Boggle — round #1" in (m.content or "")
    )
    submit = next(c for c in grid_post.custom_ids if c.startswith("boggle:submit:"))
    round_id = int(submit.rsplit(":", 1)[1])
    no_link(grid_post)

    # DM me the grid: the DM and the private answer both carry Alice's link.
    ix = await dc.click(alice, grid_post, f"boggle:dm:{round_id}")
    await ix.wait_done()
    link_naming(club, private_answer(ix), alice, "boggle", round_id)
    grid_dm = await dm_saying(club, alice, "Letters, row by row")
    link_naming(club, grid_dm, alice, "boggle", round_id)

    # Submit words opens a form (which holds no link): the receipt carries it.
    opened = await dc.click(bob, grid_post, submit)
    assert opened.modal is not None
    sent = await dc.submit_modal(bob, opened, {"boggle:words": "canoe envoy"})
    receipt = private_answer(sent)
    assert "has **2**" in receipt.content
    link_naming(club, receipt, bob, "boggle", round_id)

    # /boggle submit: the same form, the same receipt.
    opened = await dc.slash(dave, club.channel, "boggle submit")
    sent = await dc.submit_modal(dave, opened, {"boggle:words": "tonic"})
    link_naming(club, private_answer(sent), dave, "boggle", round_id)

    # DMs closed: the private note offers the form and the board.
    dc.close_dms(carol)
    ix = await dc.click(carol, grid_post, f"boggle:dm:{round_id}")
    await ix.wait_done()
    note = ix.followups[-1]
    assert note.ephemeral and "DMs are closed" in note.content
    assert note.custom_ids == [submit]
    link_naming(club, note, carol, "boggle", round_id)


# -- Without an address ------------------------------------------------------------------------


@pytest.mark.parametrize("web", [{}, {"web_port": 0}], ids=["WEB_PORT unset", "no WEB_BASE_URL"])
async def test_without_an_absolute_address_no_link_is_offered_in_whole_games(
    club: Club, words: Path, web: dict[str, Any]
) -> None:
    await club.start(lexicon=str(words), **web)
    dc = club.dc
    alice, bob, carol, dave = (club.members[n] for n in ("alice", "bob", "carol", "dave"))

    # Scrabble: the rack, Show my rack, turn DMs and a reminder, to the game's end.
    game_id, thread = await open_scrabble(club, alice, opponent=bob, clock="1d", deadline="14d")
    await club.flush()
    for member in (alice, bob):
        private_answer(await dc.slash(member, thread, "scrabble rack"))
    board = next(m for m in dc.messages_in(thread) if f"scrabble:rack:{game_id}" in m.custom_ids)
    private_answer(await dc.click(bob, board, f"scrabble:rack:{game_id}"))
    club.clock.advance(seconds=DAY - min(DAY / 3, MAX_REMINDER_LEAD.total_seconds()) + 1)
    await club.tick()
    await dc.wait_until(
        lambda: bot_dms(club, alice, "Reminder") or bot_dms(club, bob, "Reminder"),
        what="a reminder",
    )
    for _ in range(6):  # six scoreless turns in a row end the game
        for member in (alice, bob):  # whoever's turn it is passes
            ix = await dc.slash(member, thread, "scrabble pass")
            if private_answer(ix).content == "You passed.":
                break
    await dc.wait_until(lambda: game_status(club, game_id) == "finished", what="the game's end")

    # Chess: the board, a reminder, moves, a resignation.
    chess_id, chess_thread = await start_chess(club, carol, dave)
    private_answer(await dc.slash(carol, chess_thread, "chess board"))
    club.clock.advance(hours=12)
    await club.tick()
    await dm_saying(club, carol, r"Chess #\d")
    await dc.slash(carol, chess_thread, "chess move", move="e4")
    await dc.slash(dave, chess_thread, "chess resign")
    await dc.wait_until(lambda: game_status(club, chess_id) == "finished", what="chess over")

    # Word Boggle: the grid by DM, the form, the round's end.
    await dc.slash(club.moderator, club.channel, "boggle start", duration="3m")
    grid_post = await dc.wait_for_message(
        club.channel, predicate=lambda m: "Word Boggle — round #1" in (m.content or "")
    )
    round_id = int(grid_post.custom_ids[0].rsplit(":", 1)[1])
    ix = await dc.click(alice, grid_post, f"boggle:dm:{round_id}")
    await ix.wait_done()
    await dm_saying(club, alice, "Letters, row by row")
    opened = await dc.click(bob, grid_post, f"boggle:submit:{round_id}")
    private_answer(await dc.submit_modal(bob, opened, {"boggle:words": "canoe"}))
    club.clock.advance(minutes=4)
    await club.tick()
    await dc.wait_until(
        lambda: game_status(club, round_id, "boggle_rounds") == "scored", what="the results"
    )
    await club.flush()

    assert messages_with_links(dc) == []
    assert not [m for m in dc.bot_messages() if link_buttons(m.components)]
