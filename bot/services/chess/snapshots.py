"""What the chess use cases return: a game's snapshot and what a command changed.

Plain data for ``cogs/chess.py`` and ``bot/ui/chess.py`` to render; their
texts come from ``bot.messages.chess``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from functools import cached_property
from typing import TypedDict

import chess

from bot.errors import InvalidInputError
from bot.messages import chess as msg
from bot.messages.post import FileSpec, ViewSpec
from bot.services.chess.options import BOARD_RENDERER, DRAW_OFFER_VIEW
from bot.services.chess.positions import Position, position_of
from bot.services.results import RatingChange
from engines.chess_clock import ChessClock, TimeControl
from engines.chess_game import Finish, Mistake
from engines.text import Text


@dataclass(frozen=True)
class PlayerRef:
    """A member as the cog knows them: id and display name."""

    user_id: int
    name: str


@dataclass(frozen=True)
class Seat:
    """One side of the board: a member, the computer, or a pair (``members``, whose
    ``name`` reads "alice & bob"); either partner of a pair plays for the side."""

    user_id: int  # the side's first member
    name: str
    is_computer: bool = False
    members: tuple[PlayerRef, ...] = ()  # a pair's members; empty for one player

    @property
    def user_ids(self) -> tuple[int, ...]:
        """Every member who plays for the side (one, or a pair's two)."""
        return tuple(m.user_id for m in self.members) or (self.user_id,)

    def member_names(self) -> dict[int, str]:
        """The side's members' display names, by user id."""
        return {m.user_id: m.name for m in self.members} or {self.user_id: self.name}


class BoardImageArgs(TypedDict):
    """The board renderer's input (``bot/ui/chess.py``), stored in outbox rows as JSON."""

    fen: str
    last_move: str | None
    orientation: str  # "white" or "black": the side at the bottom
    game_id: int
    number: int  # the game's number, for the file's name (rows written before it lack it)
    ply: int


def color_key(color: chess.Color) -> str:
    """A colour as stored and as the renderer takes it: ``"white"`` or ``"black"``."""
    return "white" if color == chess.WHITE else "black"


@dataclass(frozen=True)
class ChessSnapshot:
    """A game as it stands after a command: what every reply is built from."""

    game_id: int  # internal (buttons, jobs); members see and type ``number``
    number: int
    guild_id: int
    channel_id: int | None
    thread_id: int | None
    status: str
    white: Seat
    black: Seat
    moves: tuple[str, ...]
    control: TimeControl
    clock: ChessClock | None
    draw_offer: chess.Color | None
    result: str | None
    termination: str | None
    created_by: int | None
    started_at: datetime | None
    finished_at: datetime | None
    as_of: datetime
    level: int | None = None
    # The invitation's message while the game is accepted but its thread and
    # opening board are not there yet (None once the game is open).
    opening_message_id: int | None = None
    # An invitation's members who have not accepted yet (their names).
    waiting_for: tuple[str, ...] = ()
    # The game row's version when this was read (``games.version``): a board page's
    # move names it, and is refused if the game has moved on since.
    version: int = 0
    # The position after ``moves`` when the state this was made from had it already
    # (else it is found when first asked for: ``position``).
    known_position: Position | None = field(default=None, repr=False, compare=False)

    @property
    def half_open(self) -> bool:
        """Accepted, but its thread and opening board are not there yet."""
        return self.opening_message_id is not None

    @cached_property
    def position(self) -> Position:
        """The position after the moves, with their SAN (replayed once, and kept:
        ``positions``)."""
        known = self.known_position
        return known if known is not None and known.moves == self.moves else position_of(self.moves)

    @property
    def board(self) -> chess.Board:
        """The position's board, shared: read it, never push onto it."""
        return self.position.board

    @cached_property
    def sans(self) -> list[str]:
        """The moves in SAN, in the order played."""
        return list(self.position.sans)

    @property
    def place_id(self) -> int | None:
        """Where the game is played: its thread, else the channel it started in."""
        return self.thread_id or self.channel_id

    @property
    def is_live(self) -> bool:
        """A live clock (each side's total time), not correspondence's time per move."""
        return self.control.is_live

    @property
    def vs_computer(self) -> bool:
        """One side is the computer (such games are not rated)."""
        return self.white.is_computer or self.black.is_computer

    @property
    def ply(self) -> int:
        """How many moves (half-moves) have been played."""
        return len(self.moves)

    @property
    def offers_draw(self) -> bool:
        """A draw offer waits for its answer (its buttons go with the board)."""
        return self.draw_offer is not None and self.status == "active"

    def player(self, color: chess.Color) -> Seat:
        """The side playing ``color``."""
        return self.white if color == chess.WHITE else self.black

    def color_of(self, user_id: int) -> chess.Color | None:
        """The colour ``user_id`` plays; None for anyone else, the computer included."""
        if user_id in self.white.user_ids and not self.white.is_computer:
            return chess.WHITE
        if user_id in self.black.user_ids and not self.black.is_computer:
            return chess.BLACK
        return None

    @property
    def to_move(self) -> Seat:
        """The side whose move it is."""
        return self.player(self.board.turn)

    @property
    def finish(self) -> Finish | None:
        """How the game ended (result, termination, winner); None while it goes on."""
        if self.result is None or self.termination is None:
            return None
        winner = {"1-0": chess.WHITE, "0-1": chess.BLACK}.get(self.result)
        return Finish(self.result, self.termination, winner)

    def flag_time(self) -> datetime | None:
        """When the side to move runs out of time; None unless the game is in progress."""
        return (
            self.clock.flag_time() if self.clock is not None and self.status == "active" else None
        )

    def remaining_ms(self, color: chess.Color) -> int | None:
        """``color``'s time left in milliseconds as of this snapshot (or of the finish);
        None before the clock starts."""
        if self.clock is None:
            return None
        return self.clock.remaining_ms(color, self.finished_at or self.as_of)

    def mention_user_ids(self) -> list[int]:
        """Who a board post should notify: the player (both partners of a pair) to move
        in a correspondence game.

        A live game's players are watching; pinging them on every move is noise.
        """
        if self.status != "active" or self.is_live:
            return []
        mover = self.to_move
        return [] if mover.is_computer else list(mover.user_ids)

    def board_image(self, side: chess.Color | None = None) -> FileSpec:
        """The board picture drawn from ``side`` (default: the side to move), with its
        alt text saying that side, the last move and the FEN."""
        board = self.board
        side = board.turn if side is None else side
        args: BoardImageArgs = {
            "fen": board.fen(),
            "last_move": board.peek().uci() if board.move_stack else None,
            "orientation": color_key(side),
            "game_id": self.game_id,
            "number": self.number,
            "ply": self.ply,
        }
        return FileSpec(BOARD_RENDERER, args, msg.board_alt_text(self, side))

    def draw_offer_view(self) -> ViewSpec | None:
        """The buttons to answer a draw offer while one waits, else None."""
        return ViewSpec(DRAW_OFFER_VIEW, {"game_id": self.game_id}) if self.offers_draw else None


@dataclass(frozen=True)
class OpeningPlan:
    """What making an accepted game's thread needs (for the thread opener the cog gives)."""

    game_id: int
    channel_id: int
    message_id: int
    thread_name: str
    is_live: bool
    user_ids: tuple[int, ...]  # the members to add to the thread


@dataclass(frozen=True)
class ChessUpdate:
    """What a command changed, for the reply."""

    snapshot: ChessSnapshot
    headline: str
    # True when the news went to the game's thread through the outbox because
    # the command was used elsewhere; the reply is then private.
    announced_elsewhere: bool = False
    rating_changes: tuple[RatingChange, ...] = ()
    # True when the board went to the game's thread through the outbox and the
    # command was used there: the reply is a short private acknowledgement.
    posted_here: bool = False

    @property
    def text(self) -> str:
        """The message beside the board: the headline, all the image shows, any rating changes."""
        return msg.board_text(self.snapshot, self.headline, self.rating_changes)

    @property
    def mention_user_ids(self) -> list[int]:
        """Who the board post notifies (see ``ChessSnapshot.mention_user_ids``)."""
        return self.snapshot.mention_user_ids()


@dataclass(frozen=True)
class VacationResult:
    """What ``/chess vacation`` changed: the games paused (or running again), until when,
    and the vacation days left."""

    games: tuple[ChessSnapshot, ...]
    until: datetime | None  # None: the vacation was ended
    days_left: float  # of the per-game allowance, in the game with the least left

    @property
    def text(self) -> str:
        """The reply to ``/chess vacation``."""
        return msg.vacation_reply([g.number for g in self.games], self.until, self.days_left)


@dataclass(frozen=True)
class AnalysisReport:
    """A finished game's analysis: each side's biggest mistakes, and the engine's name."""

    snapshot: ChessSnapshot
    mistakes: dict[chess.Color, list[Mistake]]
    engine: str

    @property
    def text(self) -> str:
        """The reply to ``/chess analyse``."""
        return msg.analysis(self.snapshot, self.mistakes, self.engine)


class PromotionNeeded(InvalidInputError):
    """The move reaches the last rank without naming a piece: the cog offers buttons."""

    code = "promotion_needed"

    def __init__(
        self, message: str | Text, *, game_id: int, ply: int, options: Sequence[tuple[str, str]]
    ) -> None:
        super().__init__(message)
        self.game_id = game_id
        self.ply = ply
        self.options = tuple(options)  # (SAN, UCI), queen first
