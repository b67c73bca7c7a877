"""A saturated bot says so (issue #32, back-pressure): when every pooled database
connection stays busy for the pool's whole timeout, the command never started its
transaction, so nothing changed. The member is told that, privately and in a line
they can act on ("try again in a minute"), not "something went wrong" with an error
id; the log gets one warning line, not a traceback per refused member (under
saturation, formatting hundreds of tracebacks only slows the loop further)."""

from __future__ import annotations

import logging

import pytest
from discord import app_commands

from bot.db.engine import create_engine, create_session_factory
from bot.db.uow import UnitOfWork, is_overloaded
from bot.messages.errors import too_busy
from bot.ui.errors import user_message_for
from tests.conftest import postgres_url


async def _exhausted_pool_error(url: str) -> BaseException:
    """The error a unit of work meets when the one pooled connection is held elsewhere."""
    engine = create_engine(url, pool_size=1, max_overflow=0, pool_timeout=0.2)
    try:
        factory = create_session_factory(engine)
        async with engine.connect() as held:
            await held.exec_driver_sql("select 1")
            with pytest.raises(Exception) as caught:
                async with UnitOfWork(factory) as uow:
                    await uow.guilds.get(1)
        return caught.value
    finally:
        await engine.dispose()


async def test_a_command_refused_for_want_of_a_connection_says_the_bot_is_busy(
    caplog: pytest.LogCaptureFixture,
) -> None:
    url = postgres_url()
    if not url:
        pytest.skip("PostgreSQL is not configured (TEST_DATABASE_URL)")
    error = await _exhausted_pool_error(url)
    assert is_overloaded(error)

    with caplog.at_level(logging.INFO, logger="clubbot.errors"):
        # as discord.py hands a command's error over: wrapped
        wrapped = app_commands.CommandInvokeError.__new__(app_commands.CommandInvokeError)
        wrapped.__cause__ = error
        text = user_message_for(wrapped, where="/chess move")

    assert text == too_busy()
    assert "nothing was changed" in text and "error id" not in text
    (line,) = [r for r in caplog.records if r.name == "clubbot.errors"]
    assert line.levelno == logging.WARNING and line.exc_info is None
    assert "/chess move" in line.getMessage()


def test_any_other_failure_is_still_an_unexpected_error_with_its_id(
    caplog: pytest.LogCaptureFixture,
) -> None:
    error = RuntimeError("a bug")
    assert not is_overloaded(error)
    with caplog.at_level(logging.INFO, logger="clubbot.errors"):
        text = user_message_for(error, where="/chess move")
    assert text != too_busy() and "error id" in text
    (line,) = [r for r in caplog.records if r.name == "clubbot.errors"]
    assert line.levelno == logging.ERROR and line.exc_info is not None
