"""Chess puzzles through the loopback Discord (issue #31), with the real Stockfish: alice
and bob's game, where alice missed Legal's mate (6.Bxf7+ Ke7 7.Nd5#) and resigned,
yields its puzzle; carol solves it move by move with the Answer form (the bot playing
bob's reply and showing the board after it), dave fails it with one wrong move; both
ratings move. Without Stockfish /puzzle game:chess says why, privately."""

from __future__ import annotations

import io
from typing import Any

from PIL import Image, ImageChops

from bot.render.chess import chess_board_png
from bot.ui.chess import BOARD_SIZE
from tests.e2e.test_chess import STOCKFISH, _move, _start, needs_stockfish
from tests.e2e.test_puzzles import puzzle_rating, puzzles_stored
from tests.e2e.test_scrabble import reply_text

LEGAL_MISSED = ["e4", "e5", "Nf3", "d6", "Bc4", "Bg4", "Nc3", "g6", "Nxe5", "Bxd1", "Kxd1", "dxe5"]
LEGAL_FEN = "rn1qkbnr/ppp2p1p/3p2p1/4N3/2B1P3/2N5/PPPP1PPP/R1BbK2R w KQkq - 0 6"


async def finished_game(club: Any) -> dict[str, Any]:
    """Alice (White) and bob play the game above in its thread; alice resigns. The
    puzzles' job runs (retried after its backoff on a loaded machine): its puzzle."""
    alice, bob = club.members["alice"], club.members["bob"]
    _game_id, thread = await _start(club, alice, bob)
    for index, san in enumerate(LEGAL_MISSED):
        await _move(club, alice if index % 2 == 0 else bob, thread, san)
    resign = await club.dc.slash(alice, thread, "chess resign")
    await resign.wait_done()
    for _attempt in range(5):
        await club.tick()
        try:
            await club.dc.wait_until(
                lambda: [p for p in puzzles_stored(club) if p.get("fen") == LEGAL_FEN],
                what="the game's puzzle",
                timeout=30,
            )
            break
        except AssertionError:  # the loopback's timeout
            club.clock.advance(minutes=1)
    [puzzle] = [p for p in puzzles_stored(club) if p.get("fen") == LEGAL_FEN]
    return puzzle


async def open_chess_puzzle(club: Any, user: Any, puzzle: dict[str, Any]) -> Any:
    """/puzzle game:chess as ``user`` (other puzzles of the game given up first)."""
    while True:
        ix = await club.dc.slash(user, club.channel, "puzzle", game="chess")
        await ix.wait_done()
        shown = ix.followups[-1] if ix.followups else ix.answer
        assert shown.ephemeral and "find the best move" in shown.content, shown.content
        [answer_id] = [c for c in shown.custom_ids if c.startswith("puzzle:answer:")]
        if answer_id == f"puzzle:answer:{puzzle['id']}:chess":
            assert f"puzzle:solution:{puzzle['id']}:chess" in shown.custom_ids
            return shown
        other = answer_id.split(":")[2]
        await club.dc.click(user, shown, f"puzzle:solution:{other}:chess")


async def answer(club: Any, user: Any, shown: Any, puzzle_id: int, move: str) -> Any:
    """The Answer button's form, with ``move``: the private reply."""
    opened = await club.dc.click(user, shown, f"puzzle:answer:{puzzle_id}:chess")
    assert opened.modal is not None
    sent = await club.dc.submit_modal(user, opened, {"puzzle:move": move})
    await reply_text(sent)
    reply = sent.followups[-1] if sent.followups else sent.answer
    assert reply.ephemeral
    return reply


def drawn(data: bytes, fen: str, last: str | None) -> bool:
    """Whether ``data`` is the chess board renderer's picture of ``fen`` from White's side."""
    expected = Image.open(io.BytesIO(chess_board_png(fen, last, "white", BOARD_SIZE)))
    shown = Image.open(io.BytesIO(data))
    return ImageChops.difference(shown.convert("RGB"), expected.convert("RGB")).getbbox() is None


@needs_stockfish
async def test_a_missed_mate_becomes_a_chess_puzzle_solved_move_by_move(club):
    await club.start(stockfish_path=STOCKFISH)
    puzzle = await finished_game(club)
    assert puzzle["line"] == ["c4f7", "e8e7", "c3d5"] and puzzle["played"] == "e1d1"
    carol, dave = club.members["carol"], club.members["dave"]

    shown = await open_chess_puzzle(club, carol, puzzle)
    assert "White to move: find the best move." in shown.content
    ((name, data),) = shown.files
    assert name == f"puzzle-{puzzle['id']}.png" and drawn(data, LEGAL_FEN, "g4d1")
    assert "seen from White's side" in shown.attachments[0].description

    # A typo is refused and changes nothing; then the right moves, one at a time.
    refused = await answer(club, carol, shown, puzzle["id"], "Qh5")
    assert "Bxf7+" not in refused.content and refused.custom_ids == []
    right = await answer(club, carol, shown, puzzle["id"], "Bxf7+")
    assert right.content.startswith("✅ **Bxf7+** is right. The reply: **Ke7**."), right.content
    assert "So far: 6. Bxf7+ Ke7" in right.content and "find the next move" in right.content
    ((_name, after),) = right.files
    assert drawn(after, "rn1q1bnr/ppp1kB1p/3p2p1/4N3/4P3/2N5/PPPP1PPP/R1BbK2R w KQ - 2 7", "e8e7")
    solved = await answer(club, carol, right, puzzle["id"], "Nd5")
    assert solved.content.startswith("✅ Solved! **Nd5#**"), solved.content
    assert "**Solution:** 6. Bxf7+ Ke7 7. Nd5#" in solved.content
    assert "alice played Kxd1" in solved.content and solved.custom_ids == []
    assert puzzle_rating(club, carol) > 1500

    # Dave takes the bishop back, as alice did: one wrong move ends it.
    shown = await open_chess_puzzle(club, dave, puzzle)
    failed = await answer(club, dave, shown, puzzle["id"], "e1d1")
    assert failed.content.startswith("❌ **Kxd1** is not the move."), failed.content
    assert "**Solution:** 6. Bxf7+ Ke7 7. Nd5#" in failed.content
    assert puzzle_rating(club, dave) < 1500


async def test_without_stockfish_chess_puzzles_are_not_offered(club):
    await club.start(stockfish_path="")
    ix = await club.dc.slash(club.members["carol"], club.channel, "puzzle", game="chess")
    text = await reply_text(ix)
    shown = ix.followups[-1] if ix.followups else ix.answer
    assert shown.ephemeral and "Stockfish" in text and "STOCKFISH_PATH" in text, text
