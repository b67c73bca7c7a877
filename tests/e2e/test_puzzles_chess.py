"""Chess puzzles through the loopback Discord (issue #31), with the real Stockfish: alice
and bob's game, where alice missed Legal's mate (6.Bxf7+ Ke7 7.Nd5#) and resigned,
yields its puzzle; carol solves it move by move with the Answer form (the bot playing
bob's reply and showing the board after it), dave fails it with one wrong move; both
ratings move. The same in Filipino, and nothing of it outside the catalogue in the
pseudo-locale. Without Stockfish /puzzle game:chess says why, privately."""

from __future__ import annotations

import io
import re
from collections.abc import Iterator
from typing import Any

import chess
import pytest
from PIL import Image, ImageChops

from bot.messages import i18n
from bot.render.chess import chess_board_png
from bot.ui.chess import BOARD_SIZE
from tests.e2e.languages import PSEUDO, english_leaks, install_pseudo, labels, speak
from tests.e2e.test_chess import STOCKFISH, _move, _start, needs_stockfish
from tests.e2e.test_puzzles import puzzle_rating, puzzles_stored
from tests.e2e.test_puzzles_languages import _outside
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
        assert shown.ephemeral, shown.content
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
    assert "White to move: find the best move." in shown.content, shown.content
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


@pytest.fixture
def pseudo() -> Iterator[None]:
    install_pseudo()
    yield
    i18n.uninstall(PSEUDO)


async def chess_seen(club: Any, code: str) -> dict[str, Any]:
    """What carol (a typo, then the two moves) and dave (a wrong move) see of the chess
    puzzle in the club's language ``code``."""
    await club.start(stockfish_path=STOCKFISH)
    puzzle = await finished_game(club)  # (the game's own words are its tests' business)
    await speak(club, code)
    carol, dave = club.members["carol"], club.members["dave"]
    seen: dict[str, Any] = {"puzzle": await open_chess_puzzle(club, carol, puzzle)}
    opened = await club.dc.click(carol, seen["puzzle"], f"puzzle:answer:{puzzle['id']}:chess")
    seen["form"] = opened.response.modal
    seen["refused"] = (await answer(club, carol, seen["puzzle"], puzzle["id"], "Qh5")).content
    right = await answer(club, carol, seen["puzzle"], puzzle["id"], "Bxf7+")
    seen["right"] = right.content
    seen["solved"] = (await answer(club, carol, right, puzzle["id"], "Nd5#")).content
    theirs = await open_chess_puzzle(club, dave, puzzle)
    seen["failed"] = (await answer(club, dave, theirs, puzzle["id"], "Kxd1")).content
    return seen


@needs_stockfish
async def test_a_filipino_club_solves_chess_puzzles_in_filipino(club: Any) -> None:
    seen = await chess_seen(club, "fil")
    assert " mula sa Chess #" in seen["puzzle"].content
    assert "Puti ang titira: hanapin ang pinakamagandang tira." in seen["puzzle"].content
    assert labels(seen["puzzle"].components) == ["Sagot", "Ipakita ang sagot"]
    assert seen["form"]["title"] == "Ang sagot mo"
    assert seen["right"].startswith("✅ Tama ang **Bxf7+**. Ang sagot na tira: **Ke7**.")
    assert "Puti ang titira: hanapin ang susunod na tira." in seen["right"]
    assert seen["solved"].startswith("✅ Lutas na! **Nd5#** ang huling tirang hahanapin.")
    assert seen["failed"].startswith("❌ Hindi **Kxd1** ang tira.")
    assert "**Sagot:** 6. Bxf7+ Ke7 7. Nd5#" in seen["failed"]
    texts = [seen["puzzle"].content, seen["right"], seen["solved"], seen["failed"]]
    runs = english_leaks(club.dc, "fil")
    assert [leak for leak in runs if any(text in leak for text in texts)] == []


@needs_stockfish
async def test_in_the_pseudo_locale_nothing_of_chess_puzzles_escapes_the_catalogue(
    club: Any, pseudo: None
) -> None:
    seen = await chess_seen(club, PSEUDO)
    board = chess.Board(LEGAL_FEN)
    moves = [board.san(m) for m in board.legal_moves] + ["Ke7", "Nd5#", "Bxf7+", "Kxd1"]
    allowed = [*club.members, *moves]
    texts = [
        seen["puzzle"].content,
        *labels(seen["puzzle"].components),
        seen["form"]["title"],
        *[c.get("label", "") for row in seen["form"]["components"] for c in row["components"]],
        seen["refused"],
        seen["right"],
        seen["solved"],
        seen["failed"],
    ]
    left = [_outside(text, allowed) for text in texts]
    assert [text for text in left if re.search(r"[^\W\d_]", text)] == []
