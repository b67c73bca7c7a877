"""A suggestion Discord refused because it came too late is logged as one line,
not as a traceback (it is no fault of the bot's); any other failure keeps its
traceback."""

from __future__ import annotations

import logging
from typing import Any

import discord
import pytest

import bot.client  # noqa: F401  (installs the filter on discord.py's tree logger)


def _http_error(cls: type[discord.HTTPException], status: int, code: int) -> Any:
    response = type("Response", (), {"status": status, "reason": "test"})()
    return cls(response, {"code": code, "message": "Unknown interaction"})


def _log(error: BaseException, caplog: pytest.LogCaptureFixture) -> logging.LogRecord:
    tree_log = logging.getLogger("discord.app_commands.tree")
    with caplog.at_level(logging.INFO, logger="discord.app_commands.tree"):
        try:
            raise error
        except BaseException:
            tree_log.exception(
                "Ignoring exception in autocomplete for %r (Guild: %s, User: %s)",
                "scrabble play",
                1,
                2,
            )
    return caplog.records[-1]


def test_an_answer_too_late_is_one_warning_line(caplog: pytest.LogCaptureFixture) -> None:
    record = _log(_http_error(discord.NotFound, 404, 10062), caplog)
    assert record.levelno == logging.WARNING and record.exc_info is None
    assert "'scrabble play'" in record.getMessage()
    assert "answered too late (10062)" in record.getMessage()


def test_any_other_failure_keeps_its_traceback(caplog: pytest.LogCaptureFixture) -> None:
    record = _log(ValueError("a bug"), caplog)
    assert record.levelno == logging.ERROR and record.exc_info is not None
    record = _log(_http_error(discord.NotFound, 404, 10008), caplog)
    assert record.levelno == logging.ERROR and record.exc_info is not None
