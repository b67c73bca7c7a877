"""Shared measuring helpers for the benchmark modules.

Each ``benchmarks/bench_*.py`` module exposes ``run(quick: bool) -> list[Row]``.
A row's ``ok`` compares the median against the budget; ``python -m benchmarks``
prints every row and exits non-zero on a miss only with ``--enforce``.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass


@dataclass
class Row:
    metric: str
    unit: str  # "ms", "s", "MiB", "KB" (lower is better) or "/s" (higher is better)
    budget: float | None
    median: float
    p99: float | None = None
    spread: str = ""  # e.g. "min 1.2 / max 1.9"
    budget_on: str = "median"  # or "p99": the budget bounds the tail, not the typical call

    @property
    def higher_is_better(self) -> bool:
        return self.unit.endswith("/s")

    @property
    def ok(self) -> bool | None:
        if self.budget is None:
            return None
        measured = self.p99 if self.budget_on == "p99" and self.p99 is not None else self.median
        if self.higher_is_better:
            return measured >= self.budget
        return measured <= self.budget


def time_calls(fn: Callable[[], object], *, repeat: int, warmup: int = 3) -> list[float]:
    """Wall time of each call in milliseconds, after ``warmup`` unmeasured calls."""
    for _ in range(warmup):
        fn()
    out = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        out.append((time.perf_counter() - t0) * 1000.0)
    return out


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    k = min(len(ordered) - 1, max(0, round(q / 100.0 * (len(ordered) - 1))))
    return ordered[k]


def ms_row(metric: str, samples_ms: list[float], budget_ms: float | None) -> Row:
    return Row(
        metric=metric,
        unit="ms",
        budget=budget_ms,
        median=statistics.median(samples_ms),
        p99=percentile(samples_ms, 99),
        spread=f"min {min(samples_ms):.3g} / max {max(samples_ms):.3g} (n={len(samples_ms)})",
    )


def rate_row(metric: str, rates: list[float], budget: float | None) -> Row:
    """``rates`` are per-second figures from repeated runs."""
    return Row(
        metric=metric,
        unit="/s",
        budget=budget,
        median=statistics.median(rates),
        spread=f"min {min(rates):.0f} / max {max(rates):.0f} (n={len(rates)})",
    )
