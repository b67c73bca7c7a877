"""pytest plugin: the ``loopback`` fixture (a started LoopbackDiscord, no bot).

Load it with ``pytest_plugins = ["tests.loopback.plugin"]`` in the root conftest.
At teardown the fixture stops any bot still running, shuts the server down, and
fails the test if the bot broke one of Discord's rules that the test did not
declare with ``dc.expect_violation(kind)`` (or if an expected one never happened).

The loopback's clock (the time in its snowflakes and timestamps) is the test's
``clock`` fixture (tests/clock.py), the one the test gives the bot.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from tests.clock import FakeClock

from .server import LoopbackDiscord


@pytest.fixture
async def loopback(clock: FakeClock) -> AsyncIterator[LoopbackDiscord]:
    dc = LoopbackDiscord(clock=clock)
    await dc.start()
    try:
        yield dc
    finally:
        await dc.close()
    problems = dc.violation_report()
    if problems:
        pytest.fail("the bot broke Discord's rules:\n  " + "\n  ".join(problems), pytrace=False)
