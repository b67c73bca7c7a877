"""Fixtures of the service tests: the Scrabble service on the test's database and clock.

(The database fixtures are in tests/conftest.py; the clock is tests/clock.py's.)
"""

from __future__ import annotations

import pytest

from bot.config import load_settings
from bot.scheduler import Scheduler
from bot.services import ServiceContext
from bot.services.scrabble import ScrabbleService
from tests.bot.services.scrabble_support import Words, make_service
from tests.clock import FakeClock


@pytest.fixture
def words() -> Words:
    return Words()


@pytest.fixture
def ctx(session_factory, clock: FakeClock) -> ServiceContext:
    settings = load_settings(None, lexicon="default")
    scheduler = Scheduler(session_factory, clock=clock)
    return ServiceContext(
        settings=settings, session_factory=session_factory, scheduler=scheduler, clock=clock
    )


@pytest.fixture
def service(ctx: ServiceContext, words: Words) -> ScrabbleService:
    return make_service(ctx, words)
