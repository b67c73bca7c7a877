"""Event standings: shortest final time wins; ties play a tie-break word.

Pairs are compared on their final time to the tenth of a second (see
``timing.tenths``). Pairs that read the same are tied and play another word
(level 1); the shorter time on it wins; pairs still tied play again (level 2),
and so on. A pair that runs out of time on a tie-break word ranks below those
of its group who guessed it; several such pairs stay tied among themselves and
play again, as the sheet says ("repeat while still tied").

Pairs eliminated on their word, disqualified pairs and pairs yet to play have
no place; they are listed after the ranked pairs.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass, field

from engines.henyo.timing import tenths


class AttemptOutcome(str, enum.Enum):
    """How a pair's attempt at a word ended: guessed, or out of time."""

    GUESSED = "guessed"
    TIMED_OUT = "timed_out"


@dataclass(frozen=True)
class Attempt:
    """A pair's attempt at one word: guessed, with its final time, or timed out."""

    outcome: AttemptOutcome
    final_ms: int | None = None

    def __post_init__(self) -> None:
        if (self.outcome is AttemptOutcome.GUESSED) != (self.final_ms is not None):
            raise ValueError("a guessed attempt has a final time and only a guessed one does")

    @classmethod
    def guessed(cls, final_ms: int) -> Attempt:
        """A word guessed with ``final_ms`` as its final time."""
        return cls(AttemptOutcome.GUESSED, final_ms)

    @classmethod
    def timed_out(cls) -> Attempt:
        """A word the pair ran out of time on."""
        return cls(AttemptOutcome.TIMED_OUT)


@dataclass(frozen=True)
class PairRecord:
    """One registered pair as the ranking sees it.

    ``order`` is the registration order (it breaks nothing; it only lists tied
    pairs in a stable order). ``tiebreaks[i]`` is the attempt at level ``i + 1``.
    """

    pair_id: int
    order: int
    main: Attempt | None = None
    tiebreaks: tuple[Attempt, ...] = ()
    disqualified: bool = False


class StandingStatus(str, enum.Enum):
    """Where a pair stands: ranked, eliminated on its word, disqualified, or yet to play."""

    RANKED = "ranked"
    ELIMINATED = "eliminated"
    DISQUALIFIED = "disqualified"
    NOT_PLAYED = "not_played"


@dataclass(frozen=True)
class Standing:
    """A pair's line in the standings: its status, its place (ranked pairs only), its final
    time on its word and its tie-break attempts."""

    pair_id: int
    status: StandingStatus
    place: int | None = None
    final_ms: int | None = None
    tiebreaks: tuple[Attempt, ...] = ()
    tied: bool = False  # shares its place with another pair until a tie-break settles it


@dataclass(frozen=True)
class TieGroup:
    """Pairs tied for ``place`` who need a word at tie-break ``level``."""

    place: int
    level: int
    pair_ids: tuple[int, ...]
    waiting_ids: tuple[int, ...]  # those of ``pair_ids`` without an attempt at ``level`` yet


@dataclass(frozen=True)
class Ranking:
    """An event's standings, the ranked pairs first, and the ties still to break."""

    standings: list[Standing]
    ties: list[TieGroup] = field(default_factory=list)

    @property
    def unplayed(self) -> list[int]:
        """The pairs yet to play their word."""
        return [s.pair_id for s in self.standings if s.status is StandingStatus.NOT_PLAYED]

    @property
    def complete(self) -> bool:
        """Every pair has played and no tie is left to break."""
        return not self.unplayed and not self.ties

    @property
    def leaders(self) -> list[int]:
        """Pairs in first place (one when the event is decided; several while tied)."""
        return [s.pair_id for s in self.standings if s.place == 1]

    def standing(self, pair_id: int) -> Standing:
        """``pair_id``'s standing."""
        return next(s for s in self.standings if s.pair_id == pair_id)


def _attempt_key(attempt: Attempt) -> tuple[int, int]:
    # Guessed before timed out; among guesses, the shorter time (in tenths) first.
    if attempt.outcome is AttemptOutcome.GUESSED:
        assert attempt.final_ms is not None
        return (0, tenths(attempt.final_ms))
    return (1, 0)


def _order_group(
    group: list[PairRecord],
    level: int,
    place: int,
    out: list[tuple[PairRecord, int, bool]],
    ties: list[TieGroup],
) -> None:
    """Place ``group`` (pairs equal so far) from ``place`` on, using tie-break ``level``."""
    if len(group) == 1:
        out.append((group[0], place, False))
        return
    waiting = [p for p in group if len(p.tiebreaks) < level]
    if waiting:
        ties.append(
            TieGroup(
                place, level, tuple(p.pair_id for p in group), tuple(p.pair_id for p in waiting)
            )
        )
        out.extend((p, place, True) for p in sorted(group, key=lambda p: p.order))
        return
    keyed = sorted(group, key=lambda p: (_attempt_key(p.tiebreaks[level - 1]), p.order))
    start = 0
    while start < len(keyed):
        key = _attempt_key(keyed[start].tiebreaks[level - 1])
        end = start
        while end < len(keyed) and _attempt_key(keyed[end].tiebreaks[level - 1]) == key:
            end += 1
        _order_group(keyed[start:end], level + 1, place + start, out, ties)
        start = end


def rank_pairs(pairs: Sequence[PairRecord]) -> Ranking:
    """Standings for an event's pairs and the tie-breaks still to play."""
    # The pairs that guessed, each with the key of its main attempt, by time.
    guessed = sorted(
        (
            (p, _attempt_key(p.main))
            for p in pairs
            if not p.disqualified
            and p.main is not None
            and p.main.outcome is AttemptOutcome.GUESSED
        ),
        key=lambda entry: (entry[1], entry[0].order),
    )
    by_time = [p for p, _ in guessed]
    keys = [key for _, key in guessed]
    placed: list[tuple[PairRecord, int, bool]] = []
    ties: list[TieGroup] = []
    start = 0
    while start < len(by_time):
        key = keys[start]
        end = start
        while end < len(by_time) and keys[end] == key:
            end += 1
        _order_group(by_time[start:end], 1, start + 1, placed, ties)
        start = end

    standings = [
        Standing(
            p.pair_id,
            StandingStatus.RANKED,
            place,
            p.main.final_ms if p.main else None,
            p.tiebreaks,
            tied,
        )
        for p, place, tied in placed
    ]
    ranked_ids = {p.pair_id for p in by_time}
    rest = sorted((p for p in pairs if p.pair_id not in ranked_ids), key=lambda p: p.order)
    for status in (
        StandingStatus.ELIMINATED,
        StandingStatus.DISQUALIFIED,
        StandingStatus.NOT_PLAYED,
    ):
        for p in rest:
            if _status_of(p) is status:
                standings.append(Standing(p.pair_id, status, tiebreaks=p.tiebreaks))
    return Ranking(standings, ties)


def _status_of(pair: PairRecord) -> StandingStatus:
    if pair.disqualified:
        return StandingStatus.DISQUALIFIED
    if pair.main is None:
        return StandingStatus.NOT_PLAYED
    return StandingStatus.ELIMINATED
