"""A tsh-style results file (the ``.t`` division file of John Chew's tsh) for Scrabble.

One line per entrant, numbered by seed (line k is player k)::

    Lastname, Firstname 1500 2 3 0; 412 389 50; p12 1 2 0

name, rating, the opponent's player number per round (0 for a bye or a
forfeit), ``;``, the entrant's own score per round, then ``; p12`` with 1
(went first), 2 (went second) or 0 (bye/forfeit) per round. A bye or a
forfeit's "score" is its spread, as tsh records them, and tsh reads its sign
as the result: so a stored spread that does not match the result (a forfeit
stored with spread 0) is written as tsh's usual 50 (or -50 for a loss). When
a game's board scores are not stored (``Game.scores``), its scores are
written as the spread and 0, so tsh's spread and wins still agree; board
scores that say another result than the stored one (a resignation at 0-0) are
moved the least that makes tsh read the stored result (see ``_agreeing``). A name's
word that is a bare number gets a dot ("Team 7."), since the first number on
a line is the rating. Rounds are the event's rounds in order (a knockout's
replays after the game they replay); a round with no game for the entrant
(after a withdrawal) is a 0-opponent, 0-score entry, and a withdrawn
entrant's line gets ``; off 0`` so tsh stops pairing them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from engines.pairings._model import Entrant, Game, PairingError
from engines.text import N_

UNPLAYED_SPREAD = 50  # tsh's customary spread for a bye or a forfeit


@dataclass(frozen=True, slots=True)
class TshLine:
    """One parsed line of a tsh results file."""

    name: str
    rating: int
    opponents: tuple[int, ...]
    scores: tuple[int, ...]
    p12: tuple[int, ...]
    off: bool = False


def tsh_results(
    entrants: Sequence[Entrant],
    games: Sequence[Game],
    *,
    names: Mapping[int, str],
    withdrawn: frozenset[int] = frozenset(),
) -> str:
    """The tsh results text (see the module). Knockout replays take the place of
    the round they replay in the order played (round, then replay)."""
    ordered = sorted(entrants, key=lambda e: (e.seed, -e.rating, e.id))
    number = {e.id: i + 1 for i, e in enumerate(ordered)}
    columns = sorted({(g.round, g.replay) for g in games})
    out = []
    for e in ordered:
        opponents: list[int] = []
        scores: list[int | None] = []
        p12: list[int] = []
        for column in columns:
            o, s, p = _entry(e.id, column, games, number)
            opponents.append(o)
            scores.append(s)
            p12.append(p)
        line = f"{_name(names.get(e.id, str(e.id)))} {int(e.rating + 0.5)}"
        line += "".join(f" {o}" for o in opponents) + ";"
        # Scores stop at the first game not played yet (its opponent is still listed).
        played = scores[: scores.index(None)] if None in scores else scores
        line += "".join(f" {s}" for s in played)
        line += "; p12" + "".join(f" {p}" for p in p12)
        if e.id in withdrawn:
            line += "; off 0"
        out.append(line)
    return "\n".join(out) + "\n"


def parse_tsh_results(text: str) -> list[TshLine]:
    """Read back a file written by ``tsh_results`` (or a plain tsh ``.t`` file)."""
    out = []
    for raw in text.splitlines():
        if not raw.strip() or raw.lstrip().startswith("#"):
            continue
        head, *fields = raw.split(";")
        words = head.split()
        # The name runs up to the first number (the rating).
        k = next((i for i, w in enumerate(words) if _is_int(w)), None)
        if k is None:
            raise PairingError(N_("No rating on the line {line}."), line=raw)
        name, rating = " ".join(words[:k]), int(words[k])
        opponents = tuple(int(w) for w in words[k + 1 :])
        scores = tuple(int(w) for w in fields[0].split()) if fields else ()
        p12: tuple[int, ...] = ()
        off = False
        for extra in fields[1:]:
            key, *values = extra.split()
            if key == "p12":
                p12 = tuple(int(v) for v in values)
            elif key == "off":
                off = True
        out.append(TshLine(name, rating, opponents, scores, p12, off))
    return out


def _entry(
    entrant: int, column: tuple[int, int], games: Sequence[Game], number: Mapping[int, int]
) -> tuple[int, int | None, int]:
    for g in games:
        if (g.round, g.replay) != column or entrant not in (g.first, g.second):
            continue
        spread = g.spread if entrant == g.first else -g.spread
        if g.second is None or g.forfeit:
            result = g.points_of(entrant)
            if result > 0.5 and spread <= 0:
                spread = UNPLAYED_SPREAD
            elif result < 0.5 and spread >= 0:
                spread = -UNPLAYED_SPREAD
            elif result == 0.5:
                spread = 0
            return (0, spread, 0)
        opponent = g.opponent_of(entrant)
        seat = 1 if entrant == g.first else 2
        if g.score is None:
            return (number.get(opponent, 0) if opponent is not None else 0, None, seat)
        first, second = g.scores if g.scores is not None else (max(g.spread, 0), max(-g.spread, 0))
        first, second = _agreeing(first, second, g.score, g.spread)
        own = first if entrant == g.first else second
        return (number.get(opponent, 0) if opponent is not None else 0, own, seat)
    return (0, 0, 0)


def _agreeing(first: int, second: int, score: float, spread: int) -> tuple[int, int]:
    """Board scores tsh reads as the stored result: tsh takes a played game's result
    from its scores, so a game won without the higher score (a resignation at 0-0,
    a director's decision) gets the winner the loser's score plus the stored spread,
    or plus 1 when that spread does not say the same (the least margin that does);
    a draw scored unequally is written at the lower score for both."""
    if score > 0.5 and first <= second:
        return second + (spread if spread > 0 else 1), second
    if score < 0.5 and second <= first:
        return first, first + (-spread if spread < 0 else 1)
    if score == 0.5 and first != second:
        low = min(first, second)
        return low, low
    return first, second


def _name(text: str) -> str:
    """One line, no ``;``, and no word that reads as a number (the rating ends the name)."""
    words = text.replace(";", ",").split() or ["?"]
    return " ".join(w + "." if _is_int(w) else w for w in words)


def _is_int(word: str) -> bool:
    return word.lstrip("-").isdigit()
