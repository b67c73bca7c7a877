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
        return (self.user_id, self.partner_id)


@dataclass(frozen=True)
class EventSnapshot:
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
    disqualified | not_played. ``value``: the Henyo final time in ms, the Boggle
    points, or the tournament points (``spread`` beside them for Scrabble)."""

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
        if self.state != "done":
            return ()
        return tuple(r for r in self.rows if r.place == 1 and r.status == "ranked")


@dataclass(frozen=True)
class Prize:
    game: str
    place: int
    text: str


@dataclass(frozen=True)
class EventStandings:
    event: EventSnapshot
    tables: tuple[GameTable, ...]
    prizes: tuple[Prize, ...] = field(default_factory=tuple)

    def prizes_of(self, game: str) -> list[Prize]:
        return [p for p in self.prizes if p.game == game]


@dataclass(frozen=True)
class Registered:
    event: EventSnapshot
    pair: PairSnapshot


@dataclass(frozen=True)
class Withdrawn:
    event: EventSnapshot
    moved_up: tuple[PairSnapshot, ...]


@dataclass(frozen=True)
class RoundStarted:
    event: EventSnapshot
    game: str
    ref_id: int
    pairs: int


@dataclass(frozen=True)
class Unfinished:
    """Closing with games still under way: nothing changed until the host confirms."""

    event: EventSnapshot
    games: tuple[str, ...]
