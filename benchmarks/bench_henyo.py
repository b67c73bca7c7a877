"""Library Henyo referee speed: what the bot does for every message in a round.

Each answerer message gets a verdict (Oo / Hindi / Pwede or a penalty), each
guesser message is compared with the secret, and every message is checked for
a leaked secret. A busy round sees a few messages a second, so the budgets
only guard against an accidental slowdown (a regex compiled per call, a
normalisation loop gone quadratic), not a real bottleneck.
"""

from __future__ import annotations

import random
import time

from benchmarks._core import Row, ms_row, rate_row, time_calls
from engines.henyo import (
    Attempt,
    PairRecord,
    builtin_words,
    is_correct_guess,
    judge_answer,
    mentions_secret,
    rank_pairs,
)

VERDICTS_PER_SECOND_BUDGET = 50_000
GUESSES_PER_SECOND_BUDGET = 10_000
RANKING_MS_BUDGET = 5.0

ANSWERER_MESSAGES = [
    "Oo",
    "oo!",
    " Hindi. ",
    "PWEDE?!",
    "siguro",
    "oo po",
    "hindi, pero malapit",
    "pwede...",
    "ewan ko",
    "Hindi",
]
GUESSER_MESSAGES = [
    "Tao ba?",
    "hayop ba ito?",
    "kumakain ba ng damo?",
    "Is it a place?",
    "kalabaw!",
    "Ice Cream?",
    "Jose Rizal",
    "sari-sari store",
    "malaki ba?",
    "Niño",
]


def _rate(fn, items: list[str], repeat: int) -> list[float]:  # type: ignore[no-untyped-def]
    rates = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        for item in items:
            fn(item)
        rates.append(len(items) / (time.perf_counter() - t0))
    return rates


def run(quick: bool) -> list[Row]:
    repeat = 5 if quick else 20
    messages = ANSWERER_MESSAGES * (200 if quick else 1000)
    guesses = GUESSER_MESSAGES * (100 if quick else 500)
    secret = "Sari-sari store"
    rng = random.Random(3)
    pairs = [
        PairRecord(
            i,
            i,
            Attempt.guessed(rng.randrange(20_000, 120_000)),
            (Attempt.guessed(rng.randrange(5_000, 60_000)),),
        )
        for i in range(25)
    ]
    rows = [
        rate_row(
            "henyo: answerer verdicts (Oo/Hindi/Pwede or penalty) per second",
            _rate(judge_answer, messages, repeat),
            VERDICTS_PER_SECOND_BUDGET,
        ),
        rate_row(
            "henyo: guesses checked against the secret per second",
            _rate(lambda g: is_correct_guess(g, secret), guesses, repeat),
            GUESSES_PER_SECOND_BUDGET,
        ),
        rate_row(
            "henyo: messages checked for a leaked secret per second",
            _rate(lambda g: mentions_secret(g, secret), guesses, repeat),
            GUESSES_PER_SECOND_BUDGET,
        ),
        ms_row(
            "henyo: standings of 25 pairs with tie-breaks",
            time_calls(lambda: rank_pairs(pairs), repeat=repeat * 10),
            RANKING_MS_BUDGET,
        ),
        ms_row(
            "henyo: load the built-in word bank (cached)",
            time_calls(builtin_words, repeat=repeat),
            1.0,
        ),
    ]
    return rows
