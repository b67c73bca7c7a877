"""Counts for the closing note: kill points survived, races run, fuzz cases tried.

Tests add to them as they go; ``tests/reliability/conftest.py`` prints them at
the end of the run (only the counts of tests that ran).
"""

from __future__ import annotations

from collections import Counter

COUNTS: Counter[str] = Counter()


def add(what: str, n: int = 1) -> None:
    COUNTS[what] += n


def summary() -> list[str]:
    return [f"{what}: {n}" for what, n in sorted(COUNTS.items())]
