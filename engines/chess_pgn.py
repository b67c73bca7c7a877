"""PGN export of a game kept as a list of UCI moves.

The output follows the PGN standard's export format (Seven Tag Roster first,
SAN movetext, the result at the end) so any reader imports it. Tag values are
cleaned of the characters some readers trip on (quotes, backslashes, control
characters) rather than escaped, because escape sequences are not read back
by every program.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime

import chess
import chess.pgn

from engines.chess_game import Termination, board_from_moves

RESULTS = ("1-0", "0-1", "1/2-1/2", "*")
_UNSAFE = re.compile(r"[\x00-\x1f\x7f]")

# The PGN standard's Termination values.
PGN_NORMAL, PGN_TIME_FORFEIT, PGN_ABANDONED, PGN_UNTERMINATED = (
    "normal",
    "time forfeit",
    "abandoned",
    "unterminated",
)


def pgn_termination(termination: str | None, result: str) -> str:
    """The PGN standard's ``Termination`` tag for how the game ended: unterminated while
    it runs, time forfeit, abandoned, else normal."""
    if result == "*":
        return PGN_UNTERMINATED
    if termination in (Termination.TIMEOUT, Termination.TIMEOUT_VS_INSUFFICIENT):
        return PGN_TIME_FORFEIT
    if termination == "abandoned":
        return PGN_ABANDONED
    return PGN_NORMAL


def tag_value(text: str) -> str:
    """A value safe inside ``[Tag "…"]`` for every reader."""
    cleaned = _UNSAFE.sub(" ", text).replace('"', "'").replace("\\", "/").strip()
    return cleaned or "?"


def pgn_date(moment: datetime | None) -> str:
    """A PGN date (``2024.03.09``); ``????.??.??`` when it is not known."""
    return moment.strftime("%Y.%m.%d") if moment is not None else "????.??.??"


@dataclass(frozen=True)
class PgnInfo:
    """What a PGN says about a game besides its moves: the tags and the closing comment."""

    event: str
    white: str
    black: str
    started_at: datetime | None
    result: str = "*"
    time_control: str = "-"
    termination: str | None = None
    finished_at: datetime | None = None
    site: str = "Discord"
    round: str = "-"
    comment: str | None = None  # placed after the last move, e.g. "White resigns."
    extra: dict[str, str] = field(default_factory=dict)


def export_pgn(moves: Sequence[str], info: PgnInfo) -> str:
    """The game as PGN text (ending in a newline)."""
    if info.result not in RESULTS:
        raise ValueError(f"result must be one of {RESULTS}")
    board = board_from_moves(moves)
    game = chess.pgn.Game()
    headers = game.headers
    headers["Event"] = tag_value(info.event)
    headers["Site"] = tag_value(info.site)
    headers["Date"] = pgn_date(info.started_at)
    headers["Round"] = tag_value(info.round)
    headers["White"] = tag_value(info.white)
    headers["Black"] = tag_value(info.black)
    headers["Result"] = info.result
    headers["TimeControl"] = tag_value(info.time_control)
    headers["Termination"] = pgn_termination(info.termination, info.result)
    if info.started_at is not None:
        headers["UTCDate"] = pgn_date(info.started_at)
        headers["UTCTime"] = info.started_at.strftime("%H:%M:%S")
    if info.finished_at is not None:
        headers["EndDate"] = pgn_date(info.finished_at)
    for key, value in info.extra.items():
        headers[key] = tag_value(value)
    node: chess.pgn.GameNode = game
    for move in board.move_stack:
        node = node.add_variation(move)
    if info.comment:
        node.comment = _UNSAFE.sub(" ", info.comment).replace("{", "(").replace("}", ")")
    exporter = chess.pgn.StringExporter(headers=True, variations=False, comments=True)
    return game.accept(exporter) + "\n"


__all__ = ["PgnInfo", "export_pgn", "pgn_date", "pgn_termination", "tag_value"]
