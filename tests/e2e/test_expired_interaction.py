"""An interaction that reaches the bot after Discord's 3 s (a saturated bot, a slow
network) cannot be answered: Discord refuses the acknowledgement with 10062,
unknown interaction. That is no bug of the command's: the bot logs one warning
line (no traceback, no "unexpected error" with an id) and tries no apology, which
Discord would refuse the same way (issue #32)."""

from __future__ import annotations

import logging

import pytest

from tests.e2e.club import Club

TOO_OLD_S = 10.0


def _lines(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.name == "clubbot.errors"]


async def test_a_command_that_came_too_late_is_one_warning_line(
    club: Club, caplog: pytest.LogCaptureFixture
) -> None:
    await club.start()
    club.dc.expect_violation("interaction_timeout", count=1)
    with caplog.at_level(logging.INFO, logger="clubbot.errors"):
        ix = await club.dc.slash(club.members["alice"], club.channel, "help", wait=False)
        ix.pretend_age(TOO_OLD_S)  # before the bot can answer: nothing was awaited yet
        await club.dc.wait_until(lambda: ix.rejected, what="the late acknowledgement refused")
        await club.dc.wait_until(lambda: _lines(caplog), what="the bot's log line")

    assert ix.response is None
    assert [(r.status, r.code) for r in ix.rejected] == [(404, 10062)]  # one try, no apology
    (line,) = _lines(caplog)
    assert line.levelno == logging.WARNING and line.exc_info is None
    assert f"interaction {ix.id} /help expired" in line.getMessage()
    assert "10062" in line.getMessage()
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


async def test_a_button_pressed_too_late_is_one_warning_line(
    club: Club, caplog: pytest.LogCaptureFixture
) -> None:
    # /help's page buttons are DynamicItems that discord.py runs (and logs) itself
    await club.start()
    page = await club.dc.slash(club.members["alice"], club.channel, "help")
    club.dc.expect_violation("interaction_timeout", count=1)
    with caplog.at_level(logging.INFO):
        ix = await club.dc.click(club.members["alice"], page.original, "help:club", wait=False)
        ix.pretend_age(TOO_OLD_S)
        await club.dc.wait_until(lambda: ix.rejected, what="the late acknowledgement refused")
        await club.dc.wait_until(
            lambda: [r for r in caplog.records if "10062" in r.getMessage()],
            what="the bot's log line",
        )

    assert [(r.status, r.code) for r in ix.rejected] == [(404, 10062)]
    (line,) = [r for r in caplog.records if "10062" in r.getMessage()]
    assert line.levelno == logging.WARNING and line.exc_info is None
    assert "answered too late" in line.getMessage()
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
