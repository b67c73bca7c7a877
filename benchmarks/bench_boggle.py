"""Word Boggle: solver throughput on seeded random grids, and scoring a big round."""

from __future__ import annotations

import random
import time
import tracemalloc

from benchmarks._core import Row, ms_row, rate_row, time_calls


def run(quick: bool) -> list[Row]:
    from engines.boggle import roll
    from engines.boggle.solver import _build_index, find_words, solver_index
    from engines.lexicon import load_lexicon

    lexicon = load_lexicon()
    rows: list[Row] = []

    # The index is built once per lexicon and process; measure it apart (the
    # traced build is slower, so its time comes from the untraced one below).
    _ = lexicon.dawg  # built on first use
    tracemalloc.start()
    index = _build_index(lexicon)
    index_mib = tracemalloc.get_traced_memory()[0] / 2**20
    tracemalloc.stop()
    del index
    t0 = time.perf_counter()
    solver_index(lexicon)
    rows.append(
        Row("boggle: solver index build (once per process)", "s", None, time.perf_counter() - t0)
    )
    rows.append(Row("boggle: solver index memory (tracemalloc)", "MiB", None, index_mib))

    # Enough boards for a stable rate; more only lengthens the full run (~1 s per 6x6 run).
    boards_per_run = 100 if quick else 200
    runs = 3 if quick else 5
    for dice, budget, label in (
        ("classic16", 2800, "4x4"),
        ("big25", 1000, "5x5"),
        ("super36", None, "6x6"),
    ):
        grids = [roll(dice, seed) for seed in range(boards_per_run)]
        find_words(grids[0], lexicon)
        rates = []
        for _ in range(runs):
            t0 = time.perf_counter()
            for grid in grids:
                find_words(grid, lexicon)
            rates.append(len(grids) / (time.perf_counter() - t0))
        rows.append(rate_row(f"boggle: solve {label} boards ({dice})", rates, budget))

    rows.append(_scoring_row(quick, lexicon))
    return rows


def _scoring_row(quick: bool, lexicon) -> Row:
    """50 players x 60 words on a 4x4 grid: real words, shared words and junk."""
    from engines.boggle import roll, score_round, solve

    grid = roll("classic16", 99)
    rng = random.Random(7)
    on_grid = sorted(solve(grid, lexicon, 3))
    elsewhere = rng.sample(list(lexicon), 500)
    junk = ["".join(rng.choice("aeiourstln") for _ in range(rng.randint(3, 8))) for _ in range(300)]
    submissions = {}
    for player in range(50):
        words = rng.sample(on_grid, min(30, len(on_grid))) + rng.sample(elsewhere, 20)
        words += rng.sample(junk, 60 - len(words))
        submissions[f"player{player}"] = ", ".join(w.upper() for w in words)
    samples = time_calls(
        lambda: score_round(grid, submissions, lexicon), repeat=10 if quick else 30
    )
    return ms_row("boggle: score a round, 50 players x 60 words", samples, 50)


if __name__ == "__main__":
    for row in run(quick=True):
        print(row)
