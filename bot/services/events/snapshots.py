"""What the games event's use cases return: plain data the messages turn into text."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class PairSnapshot:
    """A registered pair: ``place`` in the playing list, or on the waiting list."""

    place: int
    user_id: int
    partner_id: int
    names: tuple[str, str]
    waiting: bool = False

    @property
    def members(self) -> tuple[int, int]:
        """The pair's two members: the one who registered, then the partner."""
        return (self.user_id, self.partner_id)


@dataclass(frozen=True)
class EventSnapshot:
    """A games event as it stands: its games, pairs playing and waiting, and rounds started."""

    id: int
    guild_id: int
    channel_id: int
    host_id: int
    name: str
    games: tuple[str, ...]
    capacity: int
    status: str
    playing: tuple[PairSnapshot, ...]
    waiting: tuple[PairSnapshot, ...]
    started: tuple[str, ...]  # the games whose round has started
    card_message_id: int | None = None  # the sign-up card, once posted


@dataclass(frozen=True)
class Row:
    """One pair's line in a game's standings. ``status``: ranked | eliminated |
    disqualified | not_played | no_list (Boggle) | withdrawn (a tournament).
    ``value``: the Henyo final time in ms, the Boggle points, or the tournament
    points (``spread`` beside them for Scrabble)."""

    place: int | None
    names: tuple[str, ...]
    members: tuple[int, ...]
    status: str = "ranked"
    value: float | None = None
    spread: int | None = None
    played: bool = True  # False: a tournament entrant with no game played (byes, void)


@dataclass(frozen=True)
class GameTable:
    """A game's standings. ``state``: not_started | playing | done."""

    game: str
    state: str
    rows: tuple[Row, ...] = ()

    @property
    def winners(self) -> tuple[Row, ...]:
        """The pairs in first place once the game is done (ties share it); none before."""
        if self.state != "done":
            return ()
        return tuple(r for r in self.rows if r.place == 1 and r.status == "ranked")


@dataclass(frozen=True)
class Prize:
    """The prize line a host wrote for a game's place."""

    game: str
    place: int
    text: str


@dataclass(frozen=True)
class EventStandings:
    """The event with each game's table and the prize lines."""

    event: EventSnapshot
    tables: tuple[GameTable, ...]
    prizes: tuple[Prize, ...] = field(default_factory=tuple)

    def prizes_of(self, game: str) -> list[Prize]:
        """The prize lines of ``game``."""
        return [p for p in self.prizes if p.game == game]


@dataclass(frozen=True)
class Registered:
    """A pair registered: the event after it, and the pair (playing or waiting)."""

    event: EventSnapshot
    pair: PairSnapshot


@dataclass(frozen=True)
class Withdrawn:
    """A pair withdrew: the event after it, and the waiting pairs that took a place."""

    event: EventSnapshot
    moved_up: tuple[PairSnapshot, ...]


@dataclass(frozen=True)
class RoundStarted:
    """A game's round started: the event, the game, its record (``ref_id``), how many pairs play."""

    event: EventSnapshot
    game: str
    ref_id: int
    pairs: int


@dataclass(frozen=True)
class Unfinished:
    """Closing with games still under way: nothing changed until the host confirms."""

    event: EventSnapshot
    games: tuple[str, ...]
