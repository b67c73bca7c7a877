from __future__ import annotations

import io
import random
from datetime import UTC, datetime

import chess
import chess.pgn
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engines.chess_game import Termination
from engines.chess_pgn import PgnInfo, export_pgn, pgn_termination, tag_value

STARTED = datetime(2026, 11, 30, 18, 5, 9, tzinfo=UTC)
FINISHED = datetime(2026, 12, 2, 9, 0, tzinfo=UTC)


def read(text: str) -> chess.pgn.Game:
    game = chess.pgn.read_game(io.StringIO(text))
    assert game is not None and not game.errors
    return game


def test_the_export_carries_the_club_players_dates_result_and_time_control() -> None:
    info = PgnInfo(
        event="Library Games Club",
        white="alice",
        black="bob",
        started_at=STARTED,
        result="1-0",
        time_control="600+5",
        termination=Termination.CHECKMATE,
        finished_at=FINISHED,
        round="12",
    )
    text = export_pgn(["e2e4", "e7e5", "g1f3"], info)
    headers = read(text).headers
    assert text.startswith(
        '[Event "Library Games Club"]\n[Site "Discord"]\n[Date "2026.11.30"]\n[Round "12"]\n'
    )
    assert (headers["White"], headers["Black"], headers["Result"]) == ("alice", "bob", "1-0")
    assert (headers["TimeControl"], headers["Termination"]) == ("600+5", "normal")
    assert (headers["UTCDate"], headers["UTCTime"], headers["EndDate"]) == (
        "2026.11.30",
        "18:05:09",
        "2026.12.02",
    )
    assert text.rstrip().endswith("1-0")


def test_names_with_quotes_backslashes_and_newlines_stay_readable() -> None:
    info = PgnInfo(event='The "Rooks"\\Club', white="Niño\nBrave", black='"', started_at=None)
    headers = read(export_pgn([], info)).headers
    assert headers["Event"] == "The 'Rooks'/Club"
    assert headers["White"] == "Niño Brave"
    assert headers["Black"] == "'"
    assert headers["Date"] == "????.??.??"
    assert headers["Result"] == "*" and headers["Termination"] == "unterminated"


def test_the_closing_comment_is_kept_without_breaking_the_movetext() -> None:
    info = PgnInfo(
        event="c",
        white="a",
        black="b",
        started_at=STARTED,
        result="0-1",
        termination=Termination.RESIGNATION,
        comment="White resigns {sadly}.",
    )
    game = read(export_pgn(["e2e4"], info))
    assert game.end().comment == "White resigns (sadly)."
    assert game.headers["Result"] == "0-1"


@pytest.mark.parametrize(
    ("termination", "result", "tag"),
    [
        (Termination.TIMEOUT, "0-1", "time forfeit"),
        (Termination.TIMEOUT_VS_INSUFFICIENT, "1/2-1/2", "time forfeit"),
        (Termination.AGREEMENT, "1/2-1/2", "normal"),
        (None, "*", "unterminated"),
    ],
)
def test_terminations_use_the_pgn_standard_values(termination, result, tag) -> None:
    assert pgn_termination(termination, result) == tag


def test_an_unknown_result_is_refused() -> None:
    with pytest.raises(ValueError):
        export_pgn([], PgnInfo(event="c", white="a", black="b", started_at=None, result="2-0"))


def test_blank_tag_values_become_unknown() -> None:
    assert tag_value("  ") == "?"


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 100_000), plies=st.integers(0, 120))
def test_every_exported_game_reads_back_to_the_same_final_position(seed: int, plies: int) -> None:
    rng = random.Random(seed)
    board = chess.Board()
    for _ in range(plies):
        legal = list(board.legal_moves)
        if not legal or board.is_game_over():
            break
        board.push(rng.choice(legal))
    moves = [m.uci() for m in board.move_stack]
    outcome = board.outcome()
    result = outcome.result() if outcome else "*"
    text = export_pgn(
        moves, PgnInfo(event="Club", white="w", black="b", started_at=STARTED, result=result)
    )
    game = read(text)
    assert game.end().board().fen() == board.fen()
    assert [m.uci() for m in game.mainline_moves()] == moves
    assert game.headers["Result"] == result
