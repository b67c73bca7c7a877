"""What the Scrabble use cases return: plain, frozen data a cog renders."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, TypedDict

from bot.messages import scrabble as msg
from bot.services.scrabble.options import GameSettings
from engines.scrabble.game import square_index
from engines.scrabble.layout import SIZE


@dataclass(frozen=True)
class SeatInfo:
    """A seat's members: their user ids and display names."""

    seat: int
    user_ids: tuple[int, ...]
    names: tuple[str, ...]  # as the members' display names are (not escaped)

    @property
    def label(self) -> str:
        """The seat's names as they are, partners joined by " & "."""
        return " & ".join(self.names)


class PictureArgs(TypedDict):
    """A board image's renderer input (stored in an outbox row's file spec)."""

    rows: list[str]
    last: list[str]
    header: list[str]


@dataclass(frozen=True)
class BoardPicture:
    """What the board image shows, as JSON-ready data (the renderer's args), and
    ``description``: the same in words, the image's alt text."""

    rows: tuple[str, ...]
    last: tuple[str, ...]
    header: tuple[str, ...]
    description: str = field(default="", compare=False)

    def to_args(self) -> PictureArgs:
        """The renderer's input, for an outbox row."""
        return {"rows": list(self.rows), "last": list(self.last), "header": list(self.header)}

    @classmethod
    def from_args(cls, args: Mapping[str, Any]) -> BoardPicture:
        """The picture again from the renderer's input (which has no alt text)."""
        return cls(
            tuple(args["rows"]), tuple(args.get("last") or ()), tuple(args.get("header") or ())
        )

    def tiles(self) -> list[list[str | None]]:
        """The board as rows of tiles, None for an empty square."""
        return [[None if ch == "." else ch for ch in row] for row in self.rows]

    def last_cells(self) -> frozenset[tuple[int, int]]:
        """The (row, column) squares of the last play, to show it apart."""
        return frozenset(divmod(square_index(square), SIZE) for square in self.last)


@dataclass(frozen=True)
class GameSnapshot:
    """A game as a member sees it: the seats, the board (as a picture and in words),
    whose turn and until when, the settings."""

    game_id: int
    status: str  # invited | active | finished | abandoned
    seats: tuple[SeatInfo, ...]
    home_channel_id: int | None
    summary: str  # text equivalent of the board image
    picture: BoardPicture | None
    current_seat: int | None
    turn_due: datetime | None
    deadline: datetime | None
    settings: GameSettings
    viewer_seat: int | None = None


@dataclass(frozen=True)
class RackSnapshot:
    """A member's rack and the game it is in, for their eyes only."""

    game: GameSnapshot
    seat: int
    tiles: str

    @property
    def text(self) -> str:
        """The rack in words, for the member's private reply."""
        return msg.rack_text(self.tiles)


@dataclass(frozen=True)
class ActionOutcome:
    """What the member who acted is told privately (the thread gets the board)."""

    game_id: int
    message: str
    home_channel_id: int | None
    finished: bool = False


@dataclass(frozen=True)
class InviteOutcome:
    """An invitation as it stands: who has yet to accept, its text, and where the
    game's thread is (or is to be made)."""

    game_id: int
    all_accepted: bool
    waiting_for: tuple[str, ...]
    text: str
    channel_id: int | None
    thread_id: int | None
    thread_name: str


@dataclass(frozen=True)
class GameSummary:
    """One of a member's games as their list shows it: opponents, whose turn, until when."""

    game_id: int
    number: int  # what members see and type (the id stays internal)
    status: str
    opponents: str  # names as they are: for a choice list, which shows no markdown
    your_turn: bool
    turn_due: datetime | None
    home_channel_id: int | None
    opponent_labels: str = ""  # the same names escaped, for a message

    def label(self) -> str:
        """The game as a choice list shows it (names as they are: choices show no markdown)."""
        return msg.game_label(self.number, self.status, self.opponents, self.your_turn)

    def listed(self) -> str:
        """The game as a message lists it (names escaped: no markdown, no mentions)."""
        others = self.opponent_labels or self.opponents
        return msg.game_label(self.number, self.status, others, self.your_turn)


@dataclass(frozen=True)
class PositionChoice:
    """A place the word fits, as a suggestion: the position, its label, its score."""

    position: str
    label: str
    score: int


@dataclass(frozen=True)
class BoardView:
    """A game as one member's own board page shows it (``bot.web.board_scrabble``):
    the board, the member's own rack (their seat's: a partner's too), the scores,
    whose turn and until when, the bag and the tiles this member has not seen, and
    what they may do now. Never another seat's rack."""

    game_id: int
    number: int
    version: int  # games.version: a change from the page names it
    status: str  # the row's: invited | active | finished | abandoned
    phase: str  # the engine's: active | ending | finished
    rows: tuple[str, ...]  # 15 rows: "." empty, a letter, a blank's letter in lower case
    last: tuple[str, ...]  # the squares of the last play still on the board
    seats: tuple[SeatInfo, ...]
    scores: tuple[int, ...]
    resigned: tuple[int, ...]
    seat: int  # the member's
    rack: str  # the member's own tiles, "?" a blank
    current_seat: int | None  # the seat to move, while the game waits for a move
    turn_due: datetime | None
    deadline: datetime | None
    as_of: datetime  # the moment it was read (the page's clock counts from it)
    bag: int
    unseen: str  # the bag and the other racks, sorted: what this member cannot see
    rack_size: int
    challenge_rule: str  # double | single | void
    can_exchange: bool  # the bag holds enough to exchange
    can_challenge: bool  # the last play is open to this member's challenge now
    can_accept: bool  # a play that ends the game waits for this member's say
    facts: msg.BoardFacts  # the last play and latest turn in words, names as they are
    description: str  # the board in words (the image's alt text)
    # Once the game is over: why it ended, the winning seats (several: a draw), and
    # whether it was no contest (``engines.scrabble.game.GameResult``); the scores
    # above are then the final ones.
    end_reason: str | None = None
    winners: tuple[int, ...] = ()
    no_contest: bool = False

    @property
    def my_turn(self) -> bool:
        """Whether the game waits for this member's seat to move."""
        return self.current_seat == self.seat


@dataclass(frozen=True)
class PlayPreview:
    """What tiles put down on a board page would make, as the engine scores them
    (nothing played): the words (main first) with their scores, the total."""

    version: int
    position: str  # where the main word starts: 8H across, H8 down
    words: tuple[tuple[str, int], ...]
    score: int
    bingo: bool
