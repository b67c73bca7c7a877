"""Chess through the loopback Discord: the issue's "done when" scenarios.

Each test drives the real bot with slash commands and button clicks; time
moves only through the FakeClock, and timers run with ``club.tick()``.
"""

from __future__ import annotations

import io
import os
import re
from typing import Any

import chess
import chess.pgn
import pytest

from tests.e2e.club import Club
from tests.e2e.games import number_of, shown_game

STOCKFISH = os.environ.get("STOCKFISH_PATH") or "/usr/games/stockfish"
HAVE_STOCKFISH = os.path.isfile(STOCKFISH) and os.access(STOCKFISH, os.X_OK)
needs_stockfish = pytest.mark.skipif(
    not HAVE_STOCKFISH,
    reason=f"Stockfish not found at {STOCKFISH} (apt-get install stockfish, or set STOCKFISH_PATH)",
)

# Castling, a promotion chosen with the buttons (and an ambiguous queen move), then mate.
MATE_AFTER_PROMOTION = [
    "e4",
    "d5",
    "exd5",
    "c6",
    "dxc6",
    "Nd7",
    "cxb7",
    "a5",
    "PROMOTE bxa8",
    "h6",
    "Bc4",
    "h5",
    "Nh3",
    "h4",
    "O-O",
    "a4",
    "Qdf3",
    "a3",
    "Qxf7#",
]


def _fen_in(text: str) -> str:
    match = re.search(r"FEN `([^`]+)`", text)
    assert match, text
    return match.group(1)


async def _start(club: Club, white: Any, black: Any, *, time: str = "3d") -> tuple[int, Any]:
    """White challenges Black, Black accepts: the game's id and its thread."""
    dc = club.dc
    before = {t.id for t in dc.threads_in(club.channel)}
    ix = await dc.slash(white, club.channel, "chess new", opponent=black, time=time, color="white")
    invite = ix.answer
    assert invite is not None and not invite.ephemeral, ix.response
    assert black.id in invite.mentioned_user_ids()
    game_id = shown_game(club.db_path, club.guild.id, "chess", invite.content)
    await dc.click(black, invite, f"chess:invite:accept:{game_id}")
    thread = await dc.wait_until(
        lambda: next((t for t in dc.threads_in(club.channel) if t.id not in before), None),
        what="the game's thread",
    )
    opening = await dc.wait_for_message(thread, predicate=lambda m: "Game on" in m.content)
    assert opening.files and opening.files[0][0].endswith(".png")
    return game_id, thread


ACK = re.compile(r"^Done\. (?P<headline>.+) The board is posted here for everyone\.$")


async def _board_post(club: Club, thread: Any, ix: Any, after: int) -> Any:
    """The board a move made in ``thread`` posted there (through the outbox), once;
    the move's own reply is a private acknowledgement naming it."""
    assert ix.response is not None and ix.answer.ephemeral, ix.response or ix
    ack = ACK.match(ix.answer.content)
    assert ack, ix.answer.content
    assert not ix.answer.files  # the board is not sent twice
    headline = ack.group("headline")

    def posts() -> list[Any]:
        return [
            m
            for m in club.dc.messages_in(thread)
            if m.id > after and m.author.id == club.dc.bot_user.id and headline in m.content
        ]

    (post,) = await club.dc.wait_until(posts, what=f"the board after {headline!r}")
    assert post.files and post.attachments[0].description
    return post


def _last_id(club: Club, thread: Any) -> int:
    return max((m.id for m in club.dc.messages_in(thread)), default=0)


async def _move(club: Club, user: Any, thread: Any, move: str) -> Any:
    """Play ``move`` in ``thread``: the board it posted there."""
    after = _last_id(club, thread)
    ix = await club.dc.slash(user, thread, "chess move", move=move)
    return await _board_post(club, thread, ix, after)


async def _pgn(club: Club, user: Any, thread: Any) -> chess.pgn.Game:
    ix = await club.dc.slash(user, thread, "chess pgn")
    assert ix.answer.ephemeral
    ((name, data),) = ix.answer.files
    assert name.endswith(".pgn")
    game = chess.pgn.read_game(io.StringIO(data.decode("utf-8")))
    assert game is not None and not game.errors
    return game


def _every_image_has_alt_text(club: Club) -> None:
    for message in club.dc.bot_messages(include_ephemeral=True):
        for attachment in message.attachments:
            assert attachment.description, f"{attachment.filename} in {message.content[:60]!r}"


async def test_each_player_s_board_is_drawn_from_their_side_and_says_so(club: Club) -> None:
    await club.start()
    dc = club.dc
    alice, bob = club.members["alice"], club.members["bob"]
    _game_id, thread = await _start(club, alice, bob, time="3d")
    opening = dc.messages_in(thread)[-1]
    assert "seen from White's side" in opening.attachments[0].description
    posted = await _move(club, alice, thread, "e4")  # Black to move now
    assert "after 1. e4, Black to move, seen from Black's side" in (
        posted.attachments[0].description
    )
    for user, side in ((alice, "White"), (bob, "Black")):
        ix = await dc.slash(user, thread, "chess board")
        (attachment,) = ix.response.message.attachments
        assert f"seen from {side}'s side" in attachment.description, attachment.description
        assert attachment.description.endswith(f"FEN {_fen_in(ix.answer.content)}")
    _every_image_has_alt_text(club)


async def test_correspondence_game_with_castling_and_promotion_ends_in_checkmate(
    club: Club,
) -> None:
    await club.start()
    dc = club.dc
    alice, bob = club.members["alice"], club.members["bob"]
    game_id, thread = await _start(club, alice, bob, time="3d")
    posted = len(dc.messages_in(thread))
    ix = await dc.slash(alice, thread, "chess move", move="e5")
    assert ix.answer.ephemeral and "no White pawn can move to e5" in ix.answer.content
    ix = await dc.slash(bob, thread, "chess move", move="e5")
    assert ix.answer.ephemeral and "It's alice's move" in ix.answer.content
    assert len(dc.messages_in(thread)) == posted  # bad moves post nothing

    players = {0: alice, 1: bob}
    for ply, move in enumerate(MATE_AFTER_PROMOTION):
        user = players[ply % 2]
        if move == "Qdf3":  # two queens reach f3: the short form is refused privately
            ix = await dc.slash(user, thread, "chess move", move="Qf3")
            assert (
                ix.answer.ephemeral
                and "`Qdf3`" in ix.answer.content
                and "`Qaf3`" in ix.answer.content
            )
            choices = await dc.autocomplete(user, thread, "chess move", "move", move="Q")
            assert {"Qdf3", "Qaf3", "Qxc8"} <= {c["value"] for c in choices}
        if move.startswith("PROMOTE "):
            ix = await dc.slash(user, thread, "chess move", move=move.split()[1])
            assert ix.answer.ephemeral and "which piece" in ix.answer.content
            after = _last_id(club, thread)
            choice = await dc.click(user, ix.answer, f"chess:promote:{game_id}:{ply}:b7a8q")
            assert "bxa8=Q" in (await _board_post(club, thread, choice, after)).content
            continue
        await _move(club, user, thread, move)

    final = dc.messages_in(thread)[-1]
    assert "**1-0**" in final.content and "checkmate" in final.content
    assert "Ratings: alice 1500 →" in final.content

    game = await _pgn(club, bob, thread)
    assert game.headers["Result"] == "1-0"
    assert game.headers["White"] == "alice" and game.headers["Black"] == "bob"
    assert game.headers["Event"] == "Library Games Club"
    assert game.headers["TimeControl"] == "1/259200"
    board = game.end().board()
    assert board.is_checkmate() and board.fen() == _fen_in(final.content)
    assert [board.move_stack[i].uci() for i in (8, 14)] == ["b7a8q", "e1g1"]
    _every_image_has_alt_text(club)


async def test_live_clock_is_right_after_a_restart_and_the_flag_loses(club: Club) -> None:
    await club.start()
    dc = club.dc
    alice, bob = club.members["alice"], club.members["bob"]
    _game_id, thread = await _start(club, alice, bob, time="10+5")

    club.clock.advance(seconds=30)
    await _move(club, alice, thread, "e4")  # White: 10:00 - 0:30 + 0:05
    club.clock.advance(seconds=20)
    posted = await _move(club, bob, thread, "e5")  # Black: 10:00 - 0:20 + 0:05
    assert "White 9:35 · Black 9:45" in posted.content

    club.clock.advance(seconds=40)
    await club.restart()
    ix = await dc.slash(alice, thread, "chess board")
    assert "White 8:55 · Black 9:45" in ix.answer.content

    # White's 8:55 left run out 534 + 1 seconds from now: a second early, nothing happens.
    club.clock.advance(seconds=534)
    await club.tick()
    ix = await dc.slash(alice, thread, "chess board")
    assert "White 0:01" in ix.answer.content
    club.clock.advance(seconds=1)
    await club.tick()
    final = await dc.wait_for_message(thread, predicate=lambda m: "**0-1**" in m.content)
    assert "bob wins on time" in final.content and "Ratings:" in final.content

    ix = await dc.slash(alice, thread, "chess move", move="Nf3")
    assert ix.answer.ephemeral and "is over" in ix.answer.content
    game = await _pgn(club, alice, thread)
    assert game.headers["Result"] == "0-1"
    assert game.headers["Termination"] == "time forfeit"
    assert game.headers["TimeControl"] == "600+5"
    assert game.end().board().fen() == _fen_in(final.content)


async def test_a_draw_offered_by_command_is_accepted_with_the_button(club: Club) -> None:
    await club.start()
    dc = club.dc
    alice, bob = club.members["alice"], club.members["bob"]
    game_id, thread = await _start(club, alice, bob, time="2d")
    for user, move in ((alice, "d4"), (bob, "d5"), (alice, "c4")):
        await _move(club, user, thread, move)

    ix = await dc.slash(bob, thread, "chess draw", action="accept")
    assert ix.answer.ephemeral and "has not offered a draw" in ix.answer.content
    after = _last_id(club, thread)
    ix = await dc.slash(alice, thread, "chess draw", action="offer")
    offer = await _board_post(club, thread, ix, after)
    assert "alice offers a draw" in offer.content
    ix = await dc.click(alice, offer, f"chess:draw:accept:{game_id}")
    assert ix.answer.ephemeral and "has not offered" in ix.answer.content  # not your own offer

    await club.restart()  # the buttons are persistent: they work after a deploy
    after = _last_id(club, thread)
    ix = await dc.click(bob, offer, f"chess:draw:accept:{game_id}")
    final = await _board_post(club, thread, ix, after)
    assert "**1/2-1/2**" in final.content and "Draw: agreed." in final.content
    await dc.wait_until(
        lambda: not dc.messages[offer.id].components, what="the offer's buttons to go"
    )

    game = await _pgn(club, bob, thread)
    assert game.headers["Result"] == "1/2-1/2"
    assert game.end().board().fen() == _fen_in(final.content)


async def test_threefold_repetition_is_claimed_only_when_it_happened(club: Club) -> None:
    await club.start()
    dc = club.dc
    alice, bob = club.members["alice"], club.members["bob"]
    _game_id, thread = await _start(club, alice, bob, time="5+0")
    shuffle = ["Nf3", "Nf6", "Ng1", "Ng8"]
    for ply, move in enumerate(shuffle + shuffle[:2]):
        await _move(club, alice if ply % 2 == 0 else bob, thread, move)

    ix = await dc.slash(alice, thread, "chess draw", action="claim")
    assert ix.answer.ephemeral and "can't claim a draw now" in ix.answer.content
    await _move(club, alice, thread, "Ng1")
    # Black's Ng8 would repeat the start position a third time: Black may claim now.
    after = _last_id(club, thread)
    ix = await dc.slash(bob, thread, "chess draw", action="claim")
    final = await _board_post(club, thread, ix, after)
    assert "**1/2-1/2**" in final.content and "threefold repetition" in final.content

    game = await _pgn(club, alice, thread)
    assert game.headers["Result"] == "1/2-1/2"
    assert game.end().board().fen() == _fen_in(final.content)


async def test_correspondence_reminders_go_by_dm_or_to_the_thread_and_vacation_pauses_the_clock(
    club: Club,
) -> None:
    await club.start()
    dc = club.dc
    carol, dave = club.members["carol"], club.members["dave"]
    game_id, thread = await _start(club, carol, dave, time="1d")
    number = number_of(club.db_path, game_id)

    club.clock.advance(hours=12)  # half the day gone: carol is reminded by DM
    await club.tick()
    reminder = await dc.wait_for_message(carol, predicate=lambda m: f"Chess #{number}" in m.content)
    assert "Your move" in reminder.content and "<t:" in reminder.content

    await _move(club, carol, thread, "e4")
    dc.close_dms(dave)
    club.clock.advance(hours=12)
    await club.tick()
    fallback = await dc.wait_for_message(thread, predicate=lambda m: "time runs out" in m.content)
    assert dave.id in fallback.mentioned_user_ids()

    ix = await dc.slash(dave, thread, "chess vacation", days=2)
    assert ix.answer.ephemeral and "paused" in ix.answer.content
    club.clock.advance(hours=13)  # past dave's original deadline
    await club.tick()
    ix = await dc.slash(dave, thread, "chess board")
    assert (
        "on vacation until" in ix.answer.content
        and "Move 1 · **Black** to play" in ix.answer.content
    )

    ix = await dc.slash(dave, thread, "chess vacation", days=0)
    assert "Welcome back" in ix.answer.content
    club.clock.advance(hours=12)  # he had 12 hours left when the vacation began
    await club.tick()
    final = await dc.wait_for_message(thread, predicate=lambda m: "**1-0**" in m.content)
    assert "carol wins on time" in final.content
    _every_image_has_alt_text(club)


async def test_the_computer_option_explains_how_to_install_stockfish_when_it_is_missing(
    club: Club,
) -> None:
    await club.start(stockfish_path="")
    ix = await club.dc.slash(
        club.members["alice"], club.channel, "chess new", opponent=club.dc.bot_user
    )
    assert (
        ix.answer.ephemeral
        and "apt-get install stockfish" in ix.answer.content
        and "STOCKFISH_PATH" in ix.answer.content
    )


@needs_stockfish
async def test_the_computer_replies_after_each_move_and_analyses_the_game(club: Club) -> None:
    await club.start(stockfish_path=STOCKFISH)
    dc = club.dc
    erin = club.members["erin"]
    ix = await dc.slash(
        erin, club.channel, "chess new", opponent=dc.bot_user, color="white", level=1, time="10+0"
    )
    assert "Stockfish (level 1" in ix.answer.content
    thread = await dc.wait_until(
        lambda: next(iter(dc.threads_in(club.channel)), None), what="the game's thread"
    )
    await dc.wait_for_message(thread, predicate=lambda m: "Game on" in m.content)

    for move in ("e4", "Qh5"):
        await _move(club, erin, thread, move)
        reply = await dc.wait_for_message(
            thread, predicate=lambda m: "Stockfish played" in m.content, timeout=10
        )
        assert reply.files
    ix = await dc.slash(erin, thread, "chess analyse")
    assert ix.answer.ephemeral and "finished games" in (
        ix.followups[0].content if ix.followups else ix.answer.content
    )

    await dc.slash(erin, thread, "chess resign")
    ix = await dc.slash(erin, thread, "chess analyse")
    done = await ix.wait_done(timeout=15)
    assert done is not None and "Analysis of Chess" in done.content and "erin" in done.content
