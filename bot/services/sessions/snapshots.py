"""What the session use cases return: plain data for the cog and the texts."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from bot.services.sessions.options import SessionOptions


@dataclass(frozen=True)
class Member:
    """A member as a command names them."""

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
    """A seat on a board: the members who play it together, and their names."""

    user_ids: tuple[int, ...]
    names: tuple[str, ...]


@dataclass(frozen=True)
class BoardSnapshot:
    """A board of the session: its seats and, once the boards start, its game and thread."""

    number: int  # 1, 2, … within the session
    seats: tuple[SeatSnapshot, ...]
    game_id: int | None = None
    game_number: int | None = None
    home_id: int | None = None  # the board's thread (or channel) once open


@dataclass(frozen=True)
class SessionSnapshot:
    """A club session as it stands: its options, sign-ups, boards and deadline."""

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
        """How many members signed up (a pair counts two)."""
        return sum(len(e.user_ids) for e in self.entries)


@dataclass(frozen=True)
class SignedUp:
    """A sign-up taken: the session after it and the entry (``by_moderator``: a moderator
    named the member)."""

    session: SessionSnapshot
    entry: Entry
    by_moderator: bool


@dataclass(frozen=True)
class Swapped:
    """Two members traded between the formed groups (by name), and the session after it."""

    session: SessionSnapshot
    first: str
    second: str


@dataclass(frozen=True)
class PairResult:
    """A pair's line in the session's results: rank across boards, board, score and spread."""

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
    """A session's pairs ranked across boards; ``final`` once it ended with every board
    finished. ``plays`` is empty but for the moderator."""

    session: SessionSnapshot
    final: bool
    pairs: tuple[PairResult, ...]
    plays: tuple[PlayNote, ...]
    no_contest: tuple[int, ...] = ()  # boards that ended with no tile placed: not ranked


@dataclass(frozen=True)
class Explained:
    """An explanation stored: its board's game number, the thread it went to, and the words."""

    game_number: int
    home_id: int | None
    words: tuple[str, ...]
