"""FIDE Dutch pairings for a chess Swiss (FIDE Handbook C.04.3), through caissify-pairings.

Why a library: a chess club compares a Swiss with Swiss-Manager, JaVaFo or
Lichess (bbpPairings), and those agree with each other because they follow the
Dutch rules to the letter, bracket by bracket. caissify-pairings (Apache-2.0,
pure Python) gives bbpPairings' exact pairs and colours; the corpus in
tests/engines/pairings_corpus holds it to that round by round. The project's
own matching (``engines.pairings.swiss``) stays for Scrabble and as the
fallback when no Dutch pairing is legal.

This module turns the project's ``Entrant``/``Game`` into the library's input
the way bbpPairings reads a TRF file:

* the pairing number is the seed (the starting rank, withdrawn entrants
  included, so the numbers keep their parity for the colour rule E.5);
* the score counts every earlier game: byes, forfeits and wins alike;
* a forfeited game is not a meeting (the two may be paired again) and gives
  no colour; the colour history holds the games played, in round order;
* the float of each earlier round: a played game floats the entrant who had
  more points before it down and the other up; an unplayed round that scored
  points (the bye, a forfeit win) is a down-float; a round without a game
  (absent) none;
* the pairing-allocated bye never goes twice, nor to an entrant who won a game
  by forfeit (FIDE C.04.1 and bbpPairings' ``eligibleForBye``);
* the last round is the planned number of rounds (``rounds``): there the
  topscorers' colour rules are relaxed.

The library is imported when a round is paired, not when the bot starts.
Its answer is checked against the absolute rules (everyone once, no repeat
of a game played, the bye only when the field is odd and to an eligible
entrant, no third colour in a row or colour difference beyond two except for
a last round's topscorer); a round it cannot pair legally raises
``NoDutchPairingError`` so the caller can fall back.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from engines.pairings._model import Entrant, Game, Pairing, PairingError, checked_history
from engines.text import N_


class NoDutchPairingError(PairingError):
    """No pairing of this round satisfies the Dutch system's absolute rules."""


@dataclass(frozen=True, slots=True)
class _History:
    points: float
    colours: tuple[str, ...]  # "white"/"black" of the games played, in round order
    floats: tuple[str, ...]  # "up"/"down"/"none", one per earlier round
    byes: int
    forfeit_wins: int
    met: frozenset[int]


def dutch_pairings(
    entrants: Sequence[Entrant],
    games: Sequence[Game],
    *,
    round: int,
    rounds: int,
) -> list[Pairing]:
    """Round ``round`` of a chess Swiss of ``rounds`` planned rounds, by the FIDE
    Dutch system: boards from the top score down (``first`` has White), the
    bye last.

    ``entrants`` are those to pair this round (leave out the withdrawn and the
    absent); ``games`` may hold every game of the event (only rounds before
    ``round`` are read; each must have a result). Raises ``PairingError`` on bad
    input and ``NoDutchPairingError`` when no legal Dutch pairing exists.
    """
    prior = checked_history(entrants, games, round)
    history = _histories(prior, round)
    planned = max(rounds, round)
    players: list[dict[str, Any]] = []
    for e in entrants:
        h = history.get(e.id, _History(0.0, (), ("none",) * (round - 1), 0, 0, frozenset()))
        players.append(
            {
                "id": e.id,
                "name": str(e.id),
                "score": h.points,
                "rating": int(e.rating),
                "starting_number": e.seed,
                "pairing_number": e.seed,
                "color_hist": list(h.colours),
                "float_history": list(h.floats),
                "bye_count": h.byes,
                "forfeit_win_count": h.forfeit_wins,
            }
        )
    met = {(e, other) for e, h in history.items() for other in h.met}
    # Imported here: a bot that never pairs a chess Swiss never loads the library.
    from caissify_pairings.engines.dutch import DutchEngine  # type: ignore[import-untyped]

    try:
        answer = DutchEngine(
            players=players,
            previous_pairings=met,
            round_number=round,
            total_rounds=planned,
            initial_color="white",
        ).generate_pairings()
    except Exception as error:  # the library's own failure: no pairing from it
        raise NoDutchPairingError(N_("No pairing found.")) from error
    seed = {e.id: e.seed for e in entrants}
    boards = [_allocate(int(b["white_id"]), _opponent(b), history, seed) for b in answer]
    _check(boards, entrants, history, round=round, planned=planned)
    return sorted(boards, key=lambda p: _board_order(p, history, seed))


_NOBODY = _History(0.0, (), (), 0, 0, frozenset())


def _opponent(board: dict[str, Any]) -> int | None:
    black = board.get("black_id")
    return None if black is None or board.get("bye") else int(black)


def _histories(prior: Sequence[Game], round: int) -> dict[int, _History]:
    """Every entrant's score, colours, floats, byes and opponents before ``round``."""
    by_round: dict[int, dict[int, Game]] = {}
    for game in sorted(prior, key=lambda g: (g.round, g.replay)):
        for side in (game.first, game.second):
            if side is not None:
                by_round.setdefault(game.round, {}).setdefault(side, game)
    everyone = {e for games in by_round.values() for e in games}
    before: dict[int, list[float]] = {e: [0.0] for e in everyone}  # points before round r+1
    for r in range(1, round):
        games = by_round.get(r, {})
        for e in everyone:
            played = games.get(e)
            before[e].append(before[e][-1] + (played.points_of(e) if played else 0.0))
    out: dict[int, _History] = {}
    for e in everyone:
        colours: list[str] = []
        floats: list[str] = []
        byes = forfeit_wins = 0
        met: set[int] = set()
        for r in range(1, round):
            g = by_round.get(r, {}).get(e)
            if g is None:
                floats.append("none")
                continue
            points = g.points_of(e)
            if g.unplayed:
                if points >= 1.0:
                    if g.second is None:
                        byes += 1
                    else:
                        forfeit_wins += 1
                floats.append("down" if points > 0 else "none")
                continue
            other = g.opponent_of(e)
            assert other is not None
            met.add(other)
            colours.append("white" if g.first == e else "black")
            mine, theirs = before[e][r - 1], before[other][r - 1]
            floats.append("down" if mine > theirs else "up" if mine < theirs else "none")
        out[e] = _History(
            before[e][-1], tuple(colours), tuple(floats), byes, forfeit_wins, frozenset(met)
        )
    return out


def _check(
    boards: Sequence[Pairing],
    entrants: Sequence[Entrant],
    history: dict[int, _History],
    *,
    round: int,
    planned: int,
) -> None:
    """The library's answer against the absolute rules; ``NoDutchPairingError`` if broken."""
    seated = [p.first for p in boards] + [p.second for p in boards if p.second is not None]
    ids = {e.id for e in entrants}
    byes = [p.first for p in boards if p.second is None]
    fail = NoDutchPairingError(N_("No pairing found."))
    if sorted(seated) != sorted(ids) or len(byes) != len(ids) % 2:
        raise fail
    for entrant in byes:
        h = history.get(entrant, _NOBODY)
        if h.byes or h.forfeit_wins:
            raise fail
    last = round >= planned
    topscore = (round - 1) / 2  # more than half the points of the rounds played
    for p in boards:
        if p.second is None:
            continue
        white = history.get(p.first, _NOBODY)
        black = history.get(p.second, _NOBODY)
        if p.second in white.met:
            raise fail
        if last and (white.points > topscore or black.points > topscore):
            continue
        if _breaks_colour(white.colours, "white") or _breaks_colour(black.colours, "black"):
            raise fail


def _breaks_colour(colours: Sequence[str], given: str) -> bool:
    """A third game in a row with one colour, or a colour difference beyond two."""
    after = [*colours, given]
    difference = sum(1 if c == "white" else -1 for c in after)
    return abs(difference) > 2 or after[-3:] == [given] * 3


# ---------------------------------------------------------------- colours
# FIDE C.04.3 E.1-E.5 as bbpPairings applies them (``choosePlayerColor``): the
# library's own allocation ranks two entrants by pairing number alone, where
# the rules (A.2) rank by score first, and the corpus showed the difference.


@dataclass(frozen=True, slots=True)
class _Preference:
    colour: str | None
    absolute: bool
    strong: bool
    imbalance: int


def _preference(colours: Sequence[str]) -> _Preference:
    whites = colours.count("white")
    blacks = len(colours) - whites
    lower = "black" if whites > blacks else "white"
    imbalance = abs(whites - blacks)
    run = 0
    for c in reversed(colours):
        if c != colours[-1]:
            break
        run += 1
    if imbalance > 1:
        colour: str | None = lower
    elif run > 1:
        colour = _other(colours[-1])
    elif imbalance > 0:
        colour = lower
    elif run:
        colour = _other(colours[-1])
    else:
        colour = None
    absolute = imbalance > 1 or run > 1
    return _Preference(colour, absolute, not absolute and imbalance > 0, imbalance)


def _other(colour: str) -> str:
    return "black" if colour == "white" else "white"


def _neutral(a: _History, b: _History) -> str | None:
    """``a``'s colour by E.1-E.3, or None when those leave it open."""
    pa, pb = _preference(a.colours), _preference(b.colours)
    if pa.colour != pb.colour or pa.colour is None or pb.colour is None:
        if pa.colour is not None:
            return pa.colour
        return _other(pb.colour) if pb.colour is not None else None
    if pa.absolute and (pa.imbalance > pb.imbalance or not pb.absolute):
        return pa.colour
    if pb.absolute and (pb.imbalance > pa.imbalance or not pa.absolute):
        return _other(pb.colour)
    if pa.strong and not pb.strong:
        return pa.colour
    if pb.strong and not pa.strong:
        return _other(pb.colour)
    # E.3: the most recent round both played with different colours, alternated.
    for mine, theirs in zip(reversed(a.colours), reversed(b.colours), strict=False):
        if mine != theirs:
            return theirs
    return None


def _allocate(
    first: int, second: int | None, history: dict[int, _History], seed: dict[int, int]
) -> Pairing:
    if second is None:
        return Pairing(first, None)
    a, b = history.get(first, _NOBODY), history.get(second, _NOBODY)
    colour = _neutral(a, b)
    if colour is None:
        # E.4 / E.5: the higher-ranked entrant (score, then pairing number) has
        # its preference, or with none the initial colour (White) on an odd
        # pairing number.
        a_higher = (a.points, -seed[first]) > (b.points, -seed[second])
        higher, h = (a, seed[first]) if a_higher else (b, seed[second])
        wanted = _preference(higher.colours).colour
        if wanted is None:
            wanted = "white" if h % 2 == 1 else "black"
        colour = wanted if a_higher else _other(wanted)
    return Pairing(first, second) if colour == "white" else Pairing(second, first)


def _board_order(
    p: Pairing, history: dict[int, _History], seed: dict[int, int]
) -> tuple[bool, float, float, int]:
    """bbpPairings' board order: the bye last; then by the higher-ranked entrant's
    score, the other's score, and the higher one's pairing number."""
    if p.second is None:
        return (True, 0.0, 0.0, seed[p.first])
    sides = sorted((p.first, p.second), key=lambda e: (-history.get(e, _NOBODY).points, seed[e]))
    high, low = (history.get(e, _NOBODY).points for e in sides)
    return (False, -high, -low, seed[sides[0]])
