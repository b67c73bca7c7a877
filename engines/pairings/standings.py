"""Standings: points, then spread (Scrabble) or Buchholz then Sonneborn-Berger (chess).

Points: win 1, draw ½, loss 0; a bye scores what its game says (a win unless
stored otherwise); a forfeit scores as its result says.

Tie-breaks, over the games with a result:

* **Buchholz** is the sum of the entrant's opponents' points. An *unplayed*
  game (a bye, or a forfeit won or lost) counts as a game against a dummy
  opponent with the entrant's own points: the rule of FIDE's 2023 tie-break
  regulations (C.07, "unplayed rounds"), simpler than the older virtual
  opponent and neutral: a bye neither lifts nor sinks an entrant's Buchholz
  against the field. An opponent who withdrew counts with the points they
  have, forfeits included.
* **Sonneborn-Berger** is the sum over games of (the entrant's points from the
  game) x (the opponent's points); an unplayed game uses the same dummy
  opponent (own points).
* **Spread** (Scrabble) is the sum of the entrant's score differences; a bye
  or forfeit adds the spread stored with it.

Entrants equal on every criterion share a rank (1, 2, 2, 4) and are listed by
seed. Only ``entrants`` get a line; their games against anyone are counted.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from engines.pairings._model import Entrant, Game, GameKind, PairingError, Standing
from engines.text import N_


def points_table(games: Sequence[Game]) -> dict[int, float]:
    """Each entrant's points from the games with a result (byes included)."""
    points: dict[int, float] = {}
    for g in games:
        if g.second is None:
            points[g.first] = points.get(g.first, 0.0) + g.points_of(g.first)
        elif g.score is not None:
            points[g.first] = points.get(g.first, 0.0) + g.points_of(g.first)
            points[g.second] = points.get(g.second, 0.0) + g.points_of(g.second)
    return points


def standings(
    entrants: Sequence[Entrant], games: Sequence[Game], *, game_kind: GameKind
) -> list[Standing]:
    """The standings table, best first (see the module for the tie-breaks)."""
    if game_kind not in ("chess", "scrabble"):
        raise PairingError(N_("Unknown game kind {kind}."), kind=game_kind)
    if len({e.id for e in entrants}) != len(entrants):
        raise PairingError(N_("An entrant is listed twice."))
    points = points_table(games)
    lines: list[tuple[tuple[float, ...], int, Standing]] = []
    for e in entrants:
        own = points.get(e.id, 0.0)
        spread = byes = forfeits = played = wins = draws = losses = 0
        buchholz = sb = 0.0
        for g in games:
            if e.id != g.first and e.id != g.second:
                continue
            result = g.points_of(e.id)
            if g.second is None:
                byes += 1
                spread += g.spread
                buchholz += own
                sb += result * own
                continue
            if g.score is None:
                continue
            spread += g.spread if e.id == g.first else -g.spread
            wins += result == 1.0
            draws += result == 0.5
            losses += result == 0.0
            if g.forfeit:
                forfeits += 1
                buchholz += own
                sb += result * own
                continue
            played += 1
            opponent = g.opponent_of(e.id)
            theirs = points.get(opponent, 0.0) if opponent is not None else own
            buchholz += theirs
            sb += result * theirs
        key: tuple[float, ...]
        if game_kind == "scrabble":
            key = (-own, -spread)
        else:
            key = (-own, -buchholz, -sb)
        standing = Standing(
            entrant=e.id,
            rank=0,
            points=own,
            spread=spread,
            buchholz=buchholz,
            sonneborn_berger=sb,
            byes=byes,
            forfeits=forfeits,
            played=played,
            wins=wins,
            draws=draws,
            losses=losses,
        )
        lines.append((key, e.seed, standing))
    lines.sort(key=lambda t: (t[0], t[1], t[2].entrant))
    out: list[Standing] = []
    rank = 0
    previous: tuple[float, ...] | None = None
    for i, (key, _seed, standing) in enumerate(lines):
        if key != previous:
            rank = i + 1
            previous = key
        out.append(replace(standing, rank=rank))
    return out
