"""A chess game's stored state (the ``games.state`` JSON) and its loading and dumping.

The moves are kept in UCI; the board is rebuilt from them, once per list of moves
(``positions``). The clock is ``engines.chess_clock``'s, as JSON.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import TypedDict, cast

import chess

from bot.db.models import GameRecord
from bot.services.chess.positions import Position, position_of
from bot.services.chess.snapshots import color_key
from engines.chess_clock import ChessClock, ClockDict


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
    # The position after ``moves``, once asked for (see ``position``); ``replace`` carries
    # it, and a state whose moves it is not for finds its own.
    _position: Position | None = field(default=None, repr=False, compare=False)

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

    def position(self) -> Position:
        """The position after the moves, with their SAN: replayed at most once for this
        state, and not at all when this process has it (``positions.position_of``)."""
        known = self._position
        if known is None or known.moves != tuple(self.moves):
            known = self._position = position_of(self.moves)
        return known

    def board(self) -> chess.Board:
        """The position's board, shared: read it, never push onto it (``Position.after``)."""
        return self.position().board

    def after(
        self, position: Position, *, clock: ChessClock, draw_offer: chess.Color | None
    ) -> ChessState:
        """This state once a move is played: ``position`` (this one's plus the move,
        ``Position.after``), with its moves, the clock and draw offer the move left;
        the new state has its position already."""
        return replace(
            self,
            moves=list(position.moves),
            clock=clock,
            draw_offer=draw_offer,
            _position=position,
        )

    @property
    def known_position(self) -> Position | None:
        """The position, if this state has it already (else None: nothing is replayed)."""
        known = self._position
        return known if known is not None and known.moves == tuple(self.moves) else None

    def running_clock(self) -> ChessClock:
        """The clock of a game in progress (it starts when the game does)."""
        assert self.clock is not None, "a chess game in progress has a clock"
        return self.clock
