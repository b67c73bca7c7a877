"""Chess inputs and their validation, the names of its jobs and outbox pieces,
and the shape of a game's stored options.

Seat 0 is White, seat 1 Black. Durations (the time control) are read with the
one grammar of ``engines.durations`` by ``engines.chess_clock``.
"""

from __future__ import annotations

import random
from datetime import timedelta
from typing import Literal, TypedDict, cast, get_args

import chess

from bot.errors import InvalidInputError
from bot.messages.chess import refusals
from bot.services.chess.engine import MAX_LEVEL, MIN_LEVEL
from engines.chess_clock import TimeControl, TimeControlError, parse_time_control

KIND = "chess"
WHITE_SEAT, BLACK_SEAT = 0, 1
JOB_TIMEOUT = "chess.timeout"
JOB_REMINDER = "chess.reminder"
JOB_COMPUTER = "chess.computer_move"
JOB_INVITE = "chess.invite_expiry"
JOB_OPEN = "chess.open_thread"
JOB_OFFER_ANSWERED = "chess.offer_answered"
BOARD_RENDERER = "chess_board"  # outbox file renderer, registered by the cog
DRAW_OFFER_VIEW = "chess_draw_offer"  # outbox view builder, registered by the cog
REMINDER_LEAD = timedelta(hours=24)
INVITE_TTL_LIVE = timedelta(hours=1)
INVITE_TTL_CORRESPONDENCE = timedelta(days=7)
# The computer's first move waits this long for the game's thread to be opened,
# so it appears there; opening the thread moves it to "now".
COMPUTER_START_GRACE = timedelta(seconds=30)
# The opening job retries opening an accepted game this long after the acceptance
# (at once after a restart that came later): the Accept click opens it first.
OPEN_RETRY = timedelta(seconds=30)

ColorChoice = Literal["white", "black", "random"]
DrawAction = Literal["offer", "accept", "decline", "claim"]
COLOR_CHOICES: tuple[str, ...] = get_args(ColorChoice)
DRAW_ACTIONS: tuple[str, ...] = get_args(DrawAction)


class ChessOptions(TypedDict, total=False):
    """A chess game's ``options`` JSON."""

    time_control: str
    color: str
    computer_seat: int  # the seat Stockfish plays, in games against it
    computer_level: int
    # Set when the challenge is accepted: the invitation's message, from which the
    # game's thread is made; removed once the thread has the opening board.
    opening_message_id: int
    opened: bool  # the opening board is in the outbox (set once, by Starting.open_in)


def options_of(stored: object) -> ChessOptions:
    """A game's stored ``options`` JSON as ``ChessOptions`` (empty when it has none)."""
    return cast(ChessOptions, stored or {})


def seat_of(color: chess.Color) -> int:
    """The seat a colour sits in: 0 for White, 1 for Black."""
    return WHITE_SEAT if color == chess.WHITE else BLACK_SEAT


def timeout_key(game_id: int) -> str:
    """The job key of the game's flag (one per game, so rescheduling moves it)."""
    return f"chess:timeout:{game_id}"


def reminder_key(game_id: int) -> str:
    """The job key of the game's correspondence reminder."""
    return f"chess:reminder:{game_id}"


def computer_key(game_id: int) -> str:
    """The job key of the computer's reply in the game."""
    return f"chess:computer:{game_id}"


def invite_key(game_id: int) -> str:
    """The job key of the game's invitation expiry."""
    return f"chess:invite:{game_id}"


def open_key(game_id: int) -> str:
    """The job key of the game's opening (its thread and opening board)."""
    return f"chess:open:{game_id}"


def offer_answered_key(game_id: int) -> str:
    """The job key that takes an answered draw offer's buttons off the game's posts."""
    return f"chess:offer-answered:{game_id}"


def read_time_control(typed: str | None) -> TimeControl:
    """``3d``, ``12h``, ``1h30m``, a plain number of days, ``10+5``, ``3m``, ``90s``, ``1:30``."""
    try:
        return parse_time_control(typed)
    except TimeControlError as error:
        raise InvalidInputError.passing_on(error) from error


def challenger_plays_white(color: str | None, rng: random.Random) -> bool:
    """Whether the challenger takes White: ``white``, ``black``, or ``random`` (the
    default, drawn from ``rng``)."""
    choice = (color or "random").strip().lower()
    if choice not in COLOR_CHOICES:
        raise InvalidInputError(refusals.CHOOSE_COLOUR)
    if choice == "random":
        return rng.random() < 0.5
    return choice == "white"


def check_level(level: int) -> int:
    """The computer's level, if it is from ``MIN_LEVEL`` to ``MAX_LEVEL`` (else a refusal
    that says so)."""
    if not MIN_LEVEL <= level <= MAX_LEVEL:
        raise InvalidInputError(refusals.level_range(MIN_LEVEL, MAX_LEVEL))
    return level


def read_draw_action(action: str) -> DrawAction:
    """The ``/chess draw`` action as typed: ``offer``, ``accept``, ``decline`` or ``claim``."""
    cleaned = action.strip().lower()
    if cleaned not in DRAW_ACTIONS:
        raise InvalidInputError(refusals.CHOOSE_DRAW_ACTION)
    return cast(DrawAction, cleaned)
