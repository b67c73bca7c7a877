"""Henyo's duration options read by the one grammar (``engines.durations``),
through the service: what each input means for the time limit and the penalty,
or why it is refused.

A bare number is seconds for both (the options' descriptions say so); both keep
milliseconds, so a penalty of ``2.5s`` is exactly 2,500 ms."""

from __future__ import annotations

import pytest

from bot.errors import InvalidInputError
from bot.messages import henyo as messages
from bot.services import ServiceContext
from bot.services.henyo import HenyoService, Member

SECOND, MINUTE = 1_000, 60_000
REFUSED = "refused"

TABLE = {
    # input: (time limit, penalty), in milliseconds, or REFUSED
    "3": (REFUSED, 3 * SECOND),  # a time limit is at least 10 seconds
    "90s": (90 * SECOND, REFUSED),  # a penalty is at most a minute
    "3m": (3 * MINUTE, REFUSED),
    "1h30m": (REFUSED, REFUSED),  # a time limit is at most 10 minutes
    "2d": (REFUSED, REFUSED),
    "1:30": (90 * SECOND, REFUSED),
    "2.5s": (REFUSED, 2_500),
    "12.5": (12_500, 12_500),
    "0": (REFUSED, 0),  # no penalty at all
    "10m": (10 * MINUTE, REFUSED),
    "soon": (REFUSED, REFUSED),
}


@pytest.fixture
def service(ctx: ServiceContext) -> HenyoService:
    return HenyoService(ctx)


async def open_event(service: HenyoService, **option: str):
    return await service.events.open(
        guild_id=10, guild_name="Library", channel_id=20, host=Member(1, "Keith"), **option
    )


@pytest.mark.parametrize("text", list(TABLE))
@pytest.mark.parametrize("option", ["time_limit", "penalty"])
async def test_each_duration_option_reads_the_shared_grammar_in_seconds(
    service: HenyoService, option: str, text: str
) -> None:
    expected = TABLE[text][0 if option == "time_limit" else 1]
    if expected == REFUSED:
        with pytest.raises(InvalidInputError, match=r"time limit|penalty|read"):
            await open_event(service, **{option: text})
        return
    event = await open_event(service, **{option: text})
    assert (event.time_limit_ms if option == "time_limit" else event.penalty_ms) == expected


async def test_the_defaults_are_two_minutes_and_five_seconds(service: HenyoService) -> None:
    event = await open_event(service)
    assert (event.time_limit_ms, event.penalty_ms) == (2 * MINUTE, 5 * SECOND)


async def test_a_refusal_says_the_limits_and_the_bare_unit(service: HenyoService) -> None:
    with pytest.raises(InvalidInputError, match="The time limit must be from 10 s to 10 min"):
        await open_event(service, time_limit="3")
    with pytest.raises(InvalidInputError, match="The penalty must be from 0 s to 1 min"):
        await open_event(service, penalty="90s")
    with pytest.raises(InvalidInputError, match="a plain number is seconds"):
        await open_event(service, penalty="soon")


def test_settings_and_penalties_are_written_back_by_the_shared_formatter() -> None:
    assert [messages.seconds(ms) for ms in (5_000, 2_500, 120_000, 90_000, 0)] == [
        "5 s",
        "2.5 s",
        "2 min",
        "1 min 30 s",
        "0 s",
    ]
    post = messages.penalty("Ana", 2_500, 3)
    assert "+2.5 s for **Ana**" in post and "Penalties so far: **7.5 s** (3)" in post
