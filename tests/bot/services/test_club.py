"""Club settings: time zones checked by name, with the closest zones offered for a typo."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from bot.config import load_settings
from bot.errors import InvalidInputError
from bot.scheduler import Scheduler
from bot.services import ServiceContext
from bot.services.club import (
    ClubService,
    club_timezones,
    suggest_timezones,
    timezone_choices,
    validate_timezone,
)

REPO = Path(__file__).resolve().parents[3]


@pytest.fixture
def service(session_factory) -> ClubService:
    ctx = ServiceContext(
        settings=load_settings(None),
        session_factory=session_factory,
        scheduler=Scheduler(session_factory),
    )
    return ClubService(ctx)


async def test_setup_stores_the_canonical_name_of_a_zone_typed_in_any_case(service) -> None:
    saved = await service.setup(42, "Library Club", timezone="asia/MANILA")
    assert saved.timezone == "Asia/Manila"
    assert (await service.get(42)).timezone == "Asia/Manila"


@pytest.mark.parametrize(
    ("typed", "suggested"),
    [
        ("Asia/Manilla", "Asia/Manila"),  # a typo
        ("manila", "Asia/Manila"),  # the city alone
        ("Manilla", "Asia/Manila"),  # both
        ("new york", "America/New_York"),
        ("Europe/Lond", "Europe/London"),
        ("est", "America/New_York"),  # an abbreviation
    ],
)
async def test_an_unknown_zone_is_refused_naming_the_closest_zones_and_changes_nothing(
    service, typed: str, suggested: str
) -> None:
    await service.setup(42, "Library Club", timezone="Europe/London")
    with pytest.raises(InvalidInputError) as refused:
        await service.setup(42, "Library Club", timezone=typed)
    message = str(refused.value)
    assert f"`{suggested}`" in message
    assert typed in message  # the member sees what they typed
    assert (await service.get(42)).timezone == "Europe/London"


@pytest.mark.parametrize("typed", ["est", "EST", "pst", "ist"])
def test_abbreviations_are_refused_even_where_they_are_zone_names(typed: str) -> None:
    # tz's EST is UTC-5 all year: a New York club that picked it would be an
    # hour out every summer. PST is Los Angeles or Manila: never guessed.
    with pytest.raises(InvalidInputError, match="abbreviation"):
        validate_timezone(typed)
    suggested = suggest_timezones(typed)
    assert suggested and all("/" in zone for zone in suggested)


def test_pst_offers_both_places_it_may_mean() -> None:
    assert {"America/Los_Angeles", "Asia/Manila"} <= set(suggest_timezones("pst"))


def test_a_name_with_no_close_zone_explains_the_form() -> None:
    with pytest.raises(InvalidInputError, match="Region/City"):
        validate_timezone("Mars/Olympus")


def test_input_that_would_break_the_reply_is_not_echoed() -> None:
    with pytest.raises(InvalidInputError) as refused:
        validate_timezone("``@everyone``")
    assert "@everyone" not in str(refused.value)


@pytest.mark.parametrize("typed", ["UTC", "utc", "Etc/GMT+8", "America/Argentina/Buenos_Aires"])
def test_every_listed_zone_form_is_accepted(typed: str) -> None:
    assert validate_timezone(typed).casefold() == typed.casefold()


def test_pseudo_zones_are_not_offered_or_accepted() -> None:
    assert "localtime" not in club_timezones() and "Factory" not in club_timezones()
    with pytest.raises(InvalidInputError):
        validate_timezone("Factory")


def test_autocomplete_finds_a_zone_by_its_city() -> None:
    assert timezone_choices("manila") == ["Asia/Manila"]
    assert "Asia/Manila" in timezone_choices("asia/ma")
    assert all(zone.startswith("Asia/Ma") for zone in timezone_choices("asia/ma"))
    assert len(timezone_choices("")) == 25


def test_zones_resolve_with_no_system_zone_data(tmp_path: Path) -> None:
    """An empty PYTHONTZPATH leaves zoneinfo only the tzdata package (as on Windows
    or a slim container): /club setup's service still knows Asia/Manila."""
    script = textwrap.dedent(
        """
        import asyncio, json, zoneinfo
        from datetime import datetime
        from bot.config import load_settings
        from bot.db.engine import create_engine, create_session_factory
        from bot.db.migrate import upgrade_to_head
        from bot.errors import InvalidInputError
        from bot.scheduler import Scheduler
        from bot.services import ServiceContext
        from bot.services.club import ClubService

        async def main():
            settings = load_settings(None, database_url="sqlite+aiosqlite:///club.db")
            engine = create_engine(settings.database_url)
            await upgrade_to_head(engine)
            factory = create_session_factory(engine)
            service = ClubService(ServiceContext(settings, factory, Scheduler(factory)))
            saved = await service.setup(42, "Library Club", timezone="asia/manila")
            try:
                await service.setup(42, "Library Club", timezone="manila")
                refused = None
            except InvalidInputError as exc:
                refused = str(exc)
            await engine.dispose()
            offset = datetime(2026, 7, 1).astimezone(zoneinfo.ZoneInfo(saved.timezone))
            print(json.dumps({
                "tzpath": list(zoneinfo.TZPATH),
                "zones": len(zoneinfo.available_timezones()),
                "saved": saved.timezone,
                "offset": offset.utcoffset().total_seconds(),
                "refused": refused,
            }))

        asyncio.run(main())
        """
    )
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "TZ"}}
    env.update(PYTHONTZPATH="", PYTHONPATH=str(REPO))
    proc = subprocess.run(
        [sys.executable, "-c", script],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    result = json.loads(proc.stdout.strip().splitlines()[-1])
    assert result["tzpath"] == []  # no system zone files were looked at
    assert result["zones"] > 400  # the tzdata package's list
    assert result["saved"] == "Asia/Manila"
    assert result["offset"] == 8 * 3600
    assert "`Asia/Manila`" in result["refused"]


def test_a_machine_with_no_zone_data_at_all_says_so_instead_of_blaming_the_name(
    tmp_path: Path,
) -> None:
    script = textwrap.dedent(
        """
        import sys
        sys.modules["tzdata"] = None  # as if the package were missing
        from bot.errors import InvalidInputError
        from bot.services.club import validate_timezone
        try:
            validate_timezone("Asia/Manila")
        except InvalidInputError as exc:
            print(exc)
        """
    )
    env = dict(os.environ, PYTHONTZPATH="", PYTHONPATH=str(REPO))
    proc = subprocess.run(
        [sys.executable, "-c", script], cwd=tmp_path, env=env, capture_output=True, text=True
    )
    assert proc.returncode == 0, proc.stderr
    assert "no time zone data" in proc.stdout and "tzdata" in proc.stdout
