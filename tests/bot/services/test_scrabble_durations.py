"""Scrabble's duration options read by the one grammar (``engines.durations``),
through the service: what each input means for each option, or why it is refused.

A bare number is hours for the turn clock and days for the game deadline (the
options' descriptions say so); ``live`` is the society's 3-minute clock."""

from __future__ import annotations

import pytest

from bot.errors import InvalidInputError
from tests.bot.services.scrabble_support import BOB, request

MINUTE, HOUR, DAY = 60, 3600, 86400
REFUSED = "refused"

TABLE = {
    # input: (turn clock, game deadline), in seconds, None for "no limit", or REFUSED
    "3": (3 * HOUR, 3 * DAY),
    "90s": (90, 90),
    "30s": (30, REFUSED),  # a deadline is at least a minute
    "3m": (3 * MINUTE, 3 * MINUTE),
    "1h30m": (90 * MINUTE, 90 * MINUTE),
    "2d": (2 * DAY, 2 * DAY),
    "1:30": (90, 90),
    "1.5": (90 * MINUTE, 36 * HOUR),
    "off": (None, None),
    "0": (None, None),
    "live": (3 * MINUTE, REFUSED),
    "5s": (REFUSED, REFUSED),  # a live turn clock is at least 10 seconds
    "15d": (REFUSED, 15 * DAY),  # a turn clock is at most 14 days
    "91d": (REFUSED, REFUSED),  # a deadline is at most 90 days
    "soon": (REFUSED, REFUSED),
    "3x": (REFUSED, REFUSED),
}


async def stored(service, ctx, **option: str) -> tuple[int | None, int | None]:
    outcome = await service.invitations.create(request(BOB, **option))
    async with ctx.uow() as uow:
        options = (await uow.games.get(outcome.game_id)).options
    return options["clock_seconds"], options["deadline_seconds"]


@pytest.mark.parametrize("text", list(TABLE))
@pytest.mark.parametrize("option", ["clock", "deadline"])
async def test_each_duration_option_reads_the_shared_grammar_in_its_own_bare_unit(
    service, ctx, option, text
):
    expected = TABLE[text][0 if option == "clock" else 1]
    if expected == REFUSED:
        with pytest.raises(InvalidInputError, match=r"turn clock|game deadline|read"):
            await service.invitations.create(request(BOB, **{option: text}))
        return
    clock, deadline = await stored(service, ctx, **{option: text})
    assert (clock if option == "clock" else deadline) == expected


async def test_the_defaults_are_a_day_s_clock_and_a_week_s_deadline(service, ctx):
    assert await stored(service, ctx) == (DAY, 7 * DAY)


async def test_a_refusal_says_the_limits_in_the_shared_format(service):
    with pytest.raises(InvalidInputError, match="from 10 s to 2 weeks"):
        await service.invitations.create(request(BOB, clock="5s"))
    with pytest.raises(InvalidInputError, match="a plain number is days"):
        await service.invitations.create(request(BOB, deadline="soon"))
