"""What chess's texts read of a game, as protocols (the chess service's snapshot
is one), and how they show a member: a plain name, a mention, a channel."""

from __future__ import annotations

from datetime import datetime
from typing import Protocol

import chess

from bot.messages.text import plain
from engines.chess_clock import ChessClock, TimeControl
from engines.chess_game import Finish

NAME_CHARS = 72  # a display name is at most 32; a pair's side reads "alice & bob"


class SeatFacts(Protocol):
    @property
    def user_id(self) -> int: ...
    @property
    def name(self) -> str: ...
    @property
    def is_computer(self) -> bool: ...
    @property
    def user_ids(self) -> tuple[int, ...]: ...  # a pair's two members, else the one
    def member_names(self) -> dict[int, str]: ...


class GameFacts(Protocol):
    """A game as it stands."""

    @property
    def number(self) -> int: ...  # what members see and type: chess #3
    @property
    def status(self) -> str: ...
    @property
    def white(self) -> SeatFacts: ...
    @property
    def black(self) -> SeatFacts: ...
    @property
    def control(self) -> TimeControl: ...
    @property
    def clock(self) -> ChessClock | None: ...
    @property
    def draw_offer(self) -> chess.Color | None: ...
    @property
    def moves(self) -> tuple[str, ...]: ...
    @property
    def sans(self) -> list[str]: ...
    @property
    def board(self) -> chess.Board: ...
    @property
    def finish(self) -> Finish | None: ...
    @property
    def as_of(self) -> datetime: ...
    @property
    def place_id(self) -> int | None: ...
    @property
    def is_live(self) -> bool: ...
    @property
    def to_move(self) -> SeatFacts: ...
    def player(self, color: chess.Color) -> SeatFacts: ...
    def color_of(self, user_id: int) -> chess.Color | None: ...
    def remaining_ms(self, color: chess.Color) -> int | None: ...
    def flag_time(self) -> datetime | None: ...


class RatingLine(Protocol):
    @property
    def user_id(self) -> int: ...
    @property
    def before(self) -> float: ...
    @property
    def after(self) -> float: ...


def name(seat_or_name: SeatFacts | str) -> str:
    """A member's name as a message shows it: plain text (no markdown, no mentions)."""
    text = seat_or_name if isinstance(seat_or_name, str) else seat_or_name.name
    return plain(text, NAME_CHARS)


def mention(user_id: int) -> str:
    return f"<@{user_id}>"


def place(channel_id: int) -> str:
    return f"<#{channel_id}>"
