"""A chess game's stored state (the ``games.state`` JSON) and its loading and dumping.

The moves are kept in UCI; the board is always rebuilt from them. The clock is
``engines.chess_clock``'s, as JSON.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import TypedDict, cast

import chess

from bot.db.models import GameRecord
from bot.services.chess.snapshots import color_key
from engines.chess_clock import ChessClock, ClockDict
from engines.chess_game import board_from_moves


class StoredAnalysis(TypedDict):
    """A finished game's analysis as its state keeps it, so the engine runs only once."""

    engine: str
    evals: list[int]  # centipawns from White's side, one per position
    best: list[str | None]  # the engine's move (UCI) in each position


class StoredState(TypedDict, total=False):
    """A chess game's ``state`` JSON."""

    moves: list[str]  # UCI
    clock: ClockDict | None
    draw_offer: str | None  # "white" or "black": who offers
    result: str | None
    termination: str | None
    started_at: str | None
    analysis: StoredAnalysis | None


def _color_from_key(key: str | None) -> chess.Color | None:
    return {"white": chess.WHITE, "black": chess.BLACK}.get(key or "")


@dataclass
class ChessState:
    """A game's stored state as the use cases work on it: moves, clock, draw offer, result."""

    moves: list[str]
    clock: ChessClock | None
    draw_offer: chess.Color | None = None
    result: str | None = None
    termination: str | None = None
    started_at: datetime | None = None
    analysis: StoredAnalysis | None = None

    @classmethod
    def load(cls, game: GameRecord) -> ChessState:
        """The state stored in the game's row."""
        data = cast(StoredState, game.state or {})
        clock = data.get("clock")
        started = data.get("started_at")
        return cls(
            moves=list(data.get("moves", [])),
            clock=ChessClock.from_dict(clock) if clock else None,
            draw_offer=_color_from_key(data.get("draw_offer")),
            result=data.get("result"),
            termination=data.get("termination"),
            started_at=datetime.fromisoformat(started) if started else None,
            analysis=data.get("analysis"),
        )

    def dump(self) -> StoredState:
        """The state as the ``games.state`` JSON."""
        return {
            "moves": list(self.moves),
            "clock": self.clock.to_dict() if self.clock else None,
            "draw_offer": color_key(self.draw_offer) if self.draw_offer is not None else None,
            "result": self.result,
            "termination": self.termination,
            "started_at": self.started_at.isoformat() if self.started_at else None,
            "analysis": self.analysis,
        }

    def board(self) -> chess.Board:
        """The position, rebuilt from the moves."""
        return board_from_moves(self.moves)

    def running_clock(self) -> ChessClock:
        """The clock of a game in progress (it starts when the game does)."""
        assert self.clock is not None, "a chess game in progress has a clock"
        return self.clock
