"""Every Boggle option that takes a duration, read through the service with the
one grammar (engines.durations): a plain number is minutes; a round lasts
10 seconds to an hour."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from bot.errors import InvalidInputError
from bot.services.boggle import BoggleService
from tests.conftest import make_service_context

pytestmark = pytest.mark.clock(datetime(2026, 11, 30, 18, 0, tzinfo=UTC))

TOO_LONG = "A round's length must be from 10 s to 1 h."
# Each input: the seconds it means, or the start of the error it gets.
INPUTS: dict[str, int | str] = {
    "3": 180,  # a plain number is minutes
    "90s": 90,
    "3m": 180,
    "1h30m": TOO_LONG,
    "2d": TOO_LONG,
    "1:30": 90,
    "5s": "A round's length must be from 10 s to 1 h.",
    "soon": "I can't read `soon` as a round's length",
}


@pytest.fixture
def service(session_factory, clock, tmp_path: Path) -> BoggleService:
    words = tmp_path / "words.txt"
    words.write_text("canoe\ntonic\n")
    return BoggleService(make_service_context(session_factory, clock, lexicon=str(words)))


async def start(service: BoggleService, duration: str) -> int:
    info = await service.starting.start_round(
        guild_id=1, guild_name="club", channel_id=100, started_by=9, duration=duration
    )
    return info.duration_s


async def schedule(service: BoggleService, duration: str) -> int:
    info = await service.schedule.schedule_weekly(
        guild_id=1,
        guild_name="club",
        channel_id=100,
        created_by=9,
        weekday=1,
        at="7pm",
        duration=duration,
    )
    return info.options.duration_s


@pytest.mark.parametrize("command", [start, schedule], ids=["start", "schedule"])
@pytest.mark.parametrize(("text", "meaning"), list(INPUTS.items()), ids=list(INPUTS))
async def test_round_durations_read_the_same_in_every_command(
    service: BoggleService, command, text: str, meaning: int | str
) -> None:
    if isinstance(meaning, int):
        assert await command(service, text) == meaning
    else:
        with pytest.raises(InvalidInputError) as refused:
            await command(service, text)
        assert str(refused.value).startswith(meaning)
    await service.core.wait_background()
