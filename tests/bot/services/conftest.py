"""Fixtures of the service tests: the Scrabble service on the test's database and clock.

(The database fixtures and ``ctx`` are in tests/conftest.py; the clock is tests/clock.py's.)
"""

from __future__ import annotations

import pytest

from bot.services import ServiceContext
from bot.services.scrabble import ScrabbleService
from tests.bot.services.scrabble_support import Words, make_service


@pytest.fixture
def words() -> Words:
    return Words()


@pytest.fixture
def service(ctx: ServiceContext, words: Words) -> ScrabbleService:
    return make_service(ctx, words)
