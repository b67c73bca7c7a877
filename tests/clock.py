"""The tests' one clock: every time a test uses starts from here.

That is the bot's clock in the service tests and in the in-process end-to-end
and reliability tests, the clock of the bots the reliability tests run as
processes, and the loopback Discord's (the time inside the snowflakes it hands
out, and its message, member and thread timestamps). Built on one clock, the
loopback stamps a message with the time the bot is told it is, so "sent before
the round ended" means the same on both sides, on any day the tests run.

A test's clock starts at the machine's time when the test starts, in whole
seconds (under ``faketime``, the faked time). A test that needs a calendar date
(a weekday, the end of a month, a daylight-saving change) pins its clock, and so
the loopback's, with a marker on the test or the module::

    @pytest.mark.clock("2026-11-30T18:00:00+00:00")  # a Monday
    async def test_weekly_round(club): ...

Tests get it as the ``clock`` fixture (a standing ``FakeClock``); the
``loopback`` fixture is built on that same clock, and the reliability ``world``
on a running one from the same start (:func:`start_instant`).

PYTEST_DONT_REWRITE: conftest modules import this module before pytest loads it as a plugin
(tests/conftest.py), and it holds no asserts to rewrite.
"""

from __future__ import annotations

import datetime as dt

import pytest

UTC = dt.UTC
ZERO = dt.timedelta(0)


def machine_now() -> dt.datetime:
    """The machine's clock as an aware UTC datetime (what ``faketime`` moves)."""
    return dt.datetime.now(UTC)


def _instant(value: dt.datetime | str) -> dt.datetime:
    moment = dt.datetime.fromisoformat(value) if isinstance(value, str) else value
    if moment.tzinfo is None:
        raise ValueError(f"a pinned clock needs a time zone: {value!r}")
    return moment.astimezone(UTC)


def pinned(node: pytest.Item | None) -> dt.datetime | None:
    """The instant a ``@pytest.mark.clock(...)`` marker pins a test's clock at, if any."""
    marker = node.get_closest_marker("clock") if node is not None else None
    if marker is None:
        return None
    if len(marker.args) != 1:
        raise TypeError("@pytest.mark.clock takes one instant (a datetime or an ISO string)")
    return _instant(marker.args[0])


def start_instant(node: pytest.Item | None = None) -> dt.datetime:
    """The instant a test's clocks start at: its pinned one, or the machine's time now."""
    return pinned(node) or machine_now().replace(microsecond=0)


class FakeClock:
    """A clock the test moves: ``clock()`` is the time; ``advance(...)`` or ``clock.now = t`` move it.

    It stands still between moves: the bot's clock and the loopback's in one
    process, so a test decides exactly when a timer falls due.

    ``FakeClock(running=True)`` moves with the machine's clock instead,
    ``offset`` ahead of it: bots run as processes read the machine's clock
    and add that offset (``RELIABILITY_CLOCK_OFFSET``, see
    ``tests/reliability/botproc.py``), and the loopback serving them uses this
    clock, so both sides agree on the time.
    """

    def __init__(self, start: dt.datetime | str | None = None, *, running: bool = False) -> None:
        self.running = running
        self.start = start_instant() if start is None else _instant(start)
        self._now = self.start
        # Running: how far ahead of the machine's clock (none unless started at a chosen instant).
        self.offset = self.start - machine_now() if running and start is not None else ZERO

    def __call__(self) -> dt.datetime:
        if self.running:
            return machine_now() + self.offset
        return self._now

    @property
    def now(self) -> dt.datetime:
        return self()

    @now.setter
    def now(self, value: dt.datetime) -> None:
        value = _instant(value)
        if self.running:
            self.offset = value - machine_now()
        else:
            self._now = value

    def advance(self, **delta: float) -> dt.datetime:
        """Move the clock forward by ``timedelta(**delta)``; returns the new time."""
        step = dt.timedelta(**delta)
        if self.running:
            self.offset += step
        else:
            self._now += step
        return self()

    def __repr__(self) -> str:
        kind = f"running, {self.offset} ahead" if self.running else "standing"
        return f"FakeClock({self().isoformat()}, {kind})"


# -- the pytest side: the marker and the fixture (registered from tests/conftest.py) -------------


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "clock(instant): pin the test's clocks (the bot's and the loopback Discord's) at this "
        "instant (an aware datetime or an ISO 8601 string) instead of the machine's time",
    )


@pytest.fixture
def clock(request: pytest.FixtureRequest) -> FakeClock:
    """The test's standing clock, from the machine's time now or the test's ``clock`` marker."""
    return FakeClock(start_instant(request.node))
