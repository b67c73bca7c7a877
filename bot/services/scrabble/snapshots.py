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
    seat: int
    user_ids: tuple[int, ...]
    names: tuple[str, ...]  # as the members' display names are (not escaped)

    @property
    def label(self) -> str:
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
        return {"rows": list(self.rows), "last": list(self.last), "header": list(self.header)}

    @classmethod
    def from_args(cls, args: Mapping[str, Any]) -> BoardPicture:
        return cls(
            tuple(args["rows"]), tuple(args.get("last") or ()), tuple(args.get("header") or ())
        )

    def tiles(self) -> list[list[str | None]]:
        return [[None if ch == "." else ch for ch in row] for row in self.rows]

    def last_cells(self) -> frozenset[tuple[int, int]]:
        return frozenset(divmod(square_index(square), SIZE) for square in self.last)


@dataclass(frozen=True)
class GameSnapshot:
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
    game: GameSnapshot
    seat: int
    tiles: str

    @property
    def text(self) -> str:
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
    game_id: int
    all_accepted: bool
    waiting_for: tuple[str, ...]
    text: str
    channel_id: int | None
    thread_id: int | None
    thread_name: str


@dataclass(frozen=True)
class GameSummary:
    game_id: int
    number: int  # what members see and type (the id stays internal)
    status: str
    opponents: str  # names as they are: for a choice list, which shows no markdown
    your_turn: bool
    turn_due: datetime | None
    home_channel_id: int | None
    opponent_labels: str = ""  # the same names escaped, for a message

    def label(self) -> str:
        return msg.game_label(self.number, self.status, self.opponents, self.your_turn)

    def listed(self) -> str:
        """The game as a message lists it (names escaped: no markdown, no mentions)."""
        others = self.opponent_labels or self.opponents
        return msg.game_label(self.number, self.status, others, self.your_turn)


@dataclass(frozen=True)
class PositionChoice:
    position: str
    label: str
    score: int
