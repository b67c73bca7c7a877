"""Counts for the closing note: kill points survived, races run, fuzz cases tried.

Tests add to them as they go; at the end of the run this plugin (registered from
``tests/conftest.py``) prints them (only the counts of tests that ran). Under
pytest-xdist each worker hands its counts to the controller, which prints the sums.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

COUNTS: Counter[str] = Counter()
_WORKER_OUTPUT = "clubbot_tally"


def add(what: str, n: int = 1) -> None:
    COUNTS[what] += n


def summary() -> list[str]:
    return [f"{what}: {n}" for what, n in sorted(COUNTS.items())]


def pytest_sessionfinish(session: pytest.Session) -> None:
    workeroutput = getattr(session.config, "workeroutput", None)
    if workeroutput is not None:  # a pytest-xdist worker
        workeroutput[_WORKER_OUTPUT] = dict(COUNTS)


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node: Any, error: object) -> None:
    """pytest-xdist's controller: a worker finished; add its counts."""
    COUNTS.update(getattr(node, "workeroutput", {}).get(_WORKER_OUTPUT, {}))


def pytest_terminal_summary(terminalreporter: Any) -> None:
    lines = summary()
    if lines:
        terminalreporter.section("reliability counts")
        for line in lines:
            terminalreporter.line(line)
