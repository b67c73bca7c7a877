"""Glicko-2 updates per second (the leaderboard rates every finished game)."""

from __future__ import annotations

import time

from benchmarks._core import Row, rate_row
from engines.ratings import RatingState, glicko2, rate_game


def _rate(fn, calls: int) -> float:
    t0 = time.perf_counter()
    for _ in range(calls):
        fn()
    return calls / (time.perf_counter() - t0)


def run(quick: bool) -> list[Row]:
    calls, runs = (2_000, 3) if quick else (20_000, 5)
    a, b = RatingState(1620, 80, 0.06), RatingState(1480, 200, 0.07)
    paper = [(1400, 30, 1), (1550, 100, 0), (1700, 300, 0)]
    return [
        rate_row(
            "ratings: rate_game (two Glicko-2 updates)",
            [_rate(lambda: rate_game(a, b, 1.0), calls) for _ in range(runs)],
            None,  # no budget: a club rates a few games a day
        ),
        rate_row(
            "ratings: glicko2 period of 3 games (paper example)",
            [_rate(lambda: glicko2(1500, 200, 0.06, paper), calls) for _ in range(runs)],
            None,
        ),
    ]
