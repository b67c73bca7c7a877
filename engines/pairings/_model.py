"""The tournament engine's data: entrants, pairings, games, standings.

Every type is a frozen dataclass of plain values, so the service can rebuild
them from its rows and compare them, and a test can write them by hand.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from engines.text import N_, TextError

GameKind = Literal["chess", "scrabble"]


class PairingError(TextError):
    """A tournament input the engine cannot pair or score (an unfinished earlier
    round, a knockout match still undecided, ...). ``str(error)`` is English,
    ``error.text`` the template and fields (``engines.text``). Fields named
    ``first``/``second`` are entrant ids: the service puts names in their place
    before showing the director."""


@dataclass(frozen=True, slots=True)
class Entrant:
    """One player (or pair) in a tournament.

    ``seed`` is the entrant's starting rank, 1 = top (``assign_seeds`` gives
    seeds by rating, breaking equal ratings by a lot drawn with the
    tournament's stored RNG). Round robin takes Berger numbers from seeds;
    Swiss and knockout rank by seed where scores are equal.
    """

    id: int
    rating: float
    seed: int


@dataclass(frozen=True, slots=True)
class Pairing:
    """One board of a round: ``first`` plays White (chess) or goes first
    (Scrabble); ``second`` is ``None`` for a bye."""

    first: int
    second: int | None

    @property
    def is_bye(self) -> bool:
        return self.second is None


@dataclass(frozen=True, slots=True)
class Game:
    """One board's result as stored.

    ``score`` is first's points: 1, 0.5 or 0 (``None``: not played yet). A bye
    (``second is None``) scores ``score`` if given, else 1 (RULES.md: "a bye
    scores a win"). ``spread`` is first's Scrabble score minus second's.
    ``forfeit`` marks a result that was not played over the board (a
    withdrawal's forfeited games); such games count for points but give no
    colour and count as unplayed for the tie-breaks. A bye is unplayed by
    definition whatever ``forfeit`` says.

    ``replay`` numbers the games of one knockout match: 0 is the game itself,
    1 the first replay after a drawn chess game (colours reversed, possibly at
    a faster time control), 2 the next, and so on. Swiss and round robin games
    always have ``replay == 0``.

    ``scores`` is the optional board score of each side (first's, second's)
    for Scrabble; the tsh export writes it when present.
    """

    round: int
    first: int
    second: int | None
    score: float | None
    spread: int = 0
    forfeit: bool = False
    replay: int = 0
    scores: tuple[int, int] | None = None

    @property
    def is_bye(self) -> bool:
        return self.second is None

    @property
    def unplayed(self) -> bool:
        """A bye or a forfeit: points count, colours and tie-breaks treat it as not played."""
        return self.second is None or self.forfeit

    def points_of(self, entrant: int) -> float:
        """Points this game gives ``entrant`` (0 when it is not in the game or not played yet)."""
        if self.second is None:
            if entrant != self.first:
                return 0.0
            return 1.0 if self.score is None else float(self.score)
        if self.score is None:
            return 0.0
        if entrant == self.first:
            return float(self.score)
        if entrant == self.second:
            return 1.0 - float(self.score)
        return 0.0

    def opponent_of(self, entrant: int) -> int | None:
        return self.second if entrant == self.first else self.first


@dataclass(frozen=True, slots=True)
class Standing:
    """One line of the standings table.

    ``rank`` is shared by entrants equal on every criterion (1, 2, 2, 4).
    ``byes`` and ``forfeits`` count the entrant's byes and forfeited games
    (won or lost) so the table can show them as such; ``played`` counts games
    played over the board.
    """

    entrant: int
    rank: int
    points: float
    spread: int
    buchholz: float
    sonneborn_berger: float
    byes: int
    forfeits: int
    played: int
    wins: int = 0
    draws: int = 0
    losses: int = 0


def checked_history(entrants: Sequence[Entrant], games: Sequence[Game], round: int) -> list[Game]:
    """The games before ``round``, once the field and their results are checked: a Swiss
    round is paired only for a field of distinct entrants whose earlier games all ended."""
    if round < 1:
        raise PairingError(N_("Rounds are numbered from 1."))
    ids = [e.id for e in entrants]
    if len(set(ids)) != len(ids):
        raise PairingError(N_("An entrant is listed twice."))
    if len(ids) < 2:
        raise PairingError(N_("A Swiss round needs at least two entrants."))
    prior = [g for g in games if g.round < round]
    for g in prior:
        if g.second is not None and g.score is None:
            raise PairingError(
                N_("Round {round}: {first} v {second} has no result yet."),
                round=g.round,
                first=g.first,
                second=g.second,
            )
    return prior
