"""What the session use cases return: plain data for the cog and the texts."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from bot.services.sessions.options import SessionOptions


@dataclass(frozen=True)
class Member:
    id: int
    name: str
    is_bot: bool = False


@dataclass(frozen=True)
class Entry:
    """A sign-up: a member, or a pair that asked to play together."""

    place: int
    names: tuple[str, ...]
    user_ids: tuple[int, ...]


@dataclass(frozen=True)
class SeatSnapshot:
    user_ids: tuple[int, ...]
    names: tuple[str, ...]


@dataclass(frozen=True)
class BoardSnapshot:
    number: int  # 1, 2, … within the session
    seats: tuple[SeatSnapshot, ...]
    game_id: int | None = None
    game_number: int | None = None
    home_id: int | None = None  # the board's thread (or channel) once open


@dataclass(frozen=True)
class SessionSnapshot:
    id: int
    channel_id: int
    moderator_id: int
    status: str  # open | formed | started | ended | cancelled
    options: SessionOptions
    entries: tuple[Entry, ...]
    boards: tuple[BoardSnapshot, ...]
    deadline: datetime | None
    message_id: int | None

    @property
    def member_count(self) -> int:
        return sum(len(e.user_ids) for e in self.entries)


@dataclass(frozen=True)
class SignedUp:
    session: SessionSnapshot
    entry: Entry
    by_moderator: bool


@dataclass(frozen=True)
class Swapped:
    session: SessionSnapshot
    first: str
    second: str


@dataclass(frozen=True)
class PairResult:
    rank: int
    board: int
    label: str
    user_ids: tuple[int, ...]
    score: int
    spread: int


@dataclass(frozen=True)
class PlayNote:
    """A play on a board and whether its pair explained it (the moderator's view)."""

    board: int
    ply: int
    label: str
    word: str
    explanation: str | None


@dataclass(frozen=True)
class SessionResults:
    session: SessionSnapshot
    final: bool
    pairs: tuple[PairResult, ...]
    plays: tuple[PlayNote, ...]
    no_contest: tuple[int, ...] = ()  # boards that ended with no tile placed: not ranked


@dataclass(frozen=True)
class Explained:
    game_number: int
    home_id: int | None
    words: tuple[str, ...]
