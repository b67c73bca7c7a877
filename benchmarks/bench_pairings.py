"""Swiss pairing time (engines.pairings) for a mid-event round of 64 and 256 entrants.

The field plays four rounds with seeded random results first; the timed call
pairs round 5 (score groups, colour histories and byes all in play). A club
tournament is far smaller, so 256 is the stress figure: the service pairs a
round once, when the previous one is complete.

A chess Swiss is paired by the FIDE Dutch system (``dutch_pairings``, through
caissify-pairings): 64 entrants (the most a tournament takes), round 5 and the
last of 11, timed as the service runs it, in a worker thread off the event
loop (``asyncio.to_thread``). Budget 2 s a round.
"""

from __future__ import annotations

import asyncio
import random

from benchmarks._core import Row, ms_row, time_calls
from engines.pairings import (
    Entrant,
    Game,
    dutch_pairings,
    round_robin,
    standings,
    swiss_pairings,
)


def _event(n: int, rounds: int, seed: int) -> tuple[list[Entrant], list[Game]]:
    rng = random.Random(seed)
    entrants = [Entrant(id=k, rating=2400 - 3 * k, seed=k) for k in range(1, n + 1)]
    games: list[Game] = []
    for r in range(1, rounds + 1):
        for p in swiss_pairings(entrants, games, round=r, colours=True):
            score = 1.0 if p.second is None else rng.choice([0.0, 0.5, 1.0])
            games.append(Game(r, p.first, p.second, score))
    return entrants, games


def _dutch_event(n: int, rounds: int, planned: int, seed: int) -> tuple[list[Entrant], list[Game]]:
    """``rounds`` rounds paired by the Dutch system, with draws and some forfeits."""
    rng = random.Random(seed)
    entrants = [Entrant(id=k, rating=2400 - 3 * k, seed=k) for k in range(1, n + 1)]
    games: list[Game] = []
    for r in range(1, rounds + 1):
        for p in dutch_pairings(entrants, games, round=r, rounds=planned):
            if p.second is None:
                games.append(Game(r, p.first, None, 1.0))
            else:
                forfeit = rng.random() < 0.03
                score = rng.choice([0.0, 1.0]) if forfeit else rng.choice([0.0, 0.5, 1.0])
                games.append(Game(r, p.first, p.second, score, forfeit=forfeit))
    return entrants, games


def _off_the_loop(entrants: list[Entrant], games: list[Game], round: int, planned: int) -> None:
    async def pair() -> None:
        await asyncio.to_thread(dutch_pairings, entrants, games, round=round, rounds=planned)

    asyncio.run(pair())


def run(quick: bool) -> list[Row]:
    rows = []
    for played in (4, 10):
        entrants, games = _dutch_event(64, played, 11, seed=64 + played)
        samples = time_calls(
            lambda e=entrants, g=games, r=played + 1: _off_the_loop(e, g, r, 11),
            repeat=3 if quick else 10,
            warmup=1,
        )
        rows.append(
            ms_row(
                f"pairings: chess Swiss (FIDE Dutch) round {played + 1} of 11, 64 entrants",
                samples,
                2000.0,
            )
        )
    budgets = {64: 500.0, 256: 15_000.0}
    for n in (64, 256):
        entrants, games = _event(n, 4, seed=n)
        repeat = (1 if quick else 3) if n > 100 else (5 if quick else 20)
        samples = time_calls(
            lambda e=entrants, g=games: swiss_pairings(e, g, round=5, colours=True),
            repeat=repeat,
            warmup=0 if n > 100 else 1,
        )
        rows.append(ms_row(f"pairings: Swiss round 5 of {n} entrants", samples, budgets[n]))
    entrants, games = _event(64, 7, seed=1)
    rows.append(
        ms_row(
            "pairings: chess standings of 64 after 7 rounds",
            time_calls(lambda: standings(entrants, games, game_kind="chess"), repeat=20),
            None,
        )
    )
    field = [Entrant(id=k, rating=2000, seed=k) for k in range(1, 21)]
    rows.append(
        ms_row(
            "pairings: round robin table of 20",
            time_calls(lambda: round_robin(field, colours=True), repeat=50),
            None,
        )
    )
    return rows
