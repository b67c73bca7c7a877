"""The language machinery: the active language per context, the catalogues
compiled from .po, durations and engine messages in a club's language."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest

from bot.errors import InvalidInputError
from bot.messages import i18n
from bot.messages.errors import refusal
from bot.messages.i18n import _, current_language, language_of, ngettext, use_language
from bot.messages.text import format_duration, render
from engines.durations import Duration, DurationError


def test_english_is_the_default_and_reads_the_source_text() -> None:
    assert current_language() == "en"
    assert _("Club settings") == "Club settings"


def test_filipino_comes_from_the_po_file_and_ends_with_the_block() -> None:
    with use_language("fil", 7) as code:
        assert code == "fil" and i18n.current_guild() == 7
        assert _("Club settings") == "Settings ng club"
    assert _("Club settings") == "Club settings" and i18n.current_guild() is None


def test_an_unknown_language_or_a_guild_without_one_speaks_english() -> None:
    with use_language("xx"):
        assert current_language() == "en"
    assert language_of(None) == "en"
    assert language_of({"language": "fil"}) == "fil"
    assert language_of({"language": "klingon"}) == "en"
    assert language_of({"language": 3}) == "en"


async def test_concurrent_tasks_each_keep_their_own_language() -> None:
    seen: dict[str, str] = {}

    async def speak(code: str) -> None:
        i18n.set_language(code)
        await asyncio.sleep(0)
        seen[code] = _("Club settings")

    await asyncio.gather(speak("fil"), speak("en"))
    assert seen == {"fil": "Settings ng club", "en": "Club settings"}
    assert current_language() == "en"


def test_plural_forms_follow_the_language() -> None:
    assert ngettext("{count} word", "{count} words", 1) == "{count} word"
    assert ngettext("{count} word", "{count} words", 2) == "{count} words"


@pytest.mark.parametrize(
    ("seconds", "english", "filipino"),
    [
        (2.5, "2.5 s", "2.5 segundo"),
        (180, "3 min", "3 minuto"),
        (90, "1 min 30 s", "1 minuto at 30 segundo"),
        (5400, "1 h 30 min", "1 oras at 30 minuto"),
        (3 * 86400, "3 days", "3 araw"),
        (2 * 604800, "2 weeks", "2 linggo"),
    ],
)
def test_durations_are_written_for_the_language(
    seconds: float, english: str, filipino: str
) -> None:
    assert format_duration(seconds) == english
    with use_language("fil"):
        assert format_duration(timedelta(seconds=seconds)) == filipino


def test_an_engine_error_raised_as_a_club_error_is_written_again_in_filipino() -> None:
    spec = Duration("the time limit", "s", timedelta(seconds=10), timedelta(minutes=10))
    try:
        spec.parse("5")
    except DurationError as error:
        english = str(error)
        cause = error
    passed_on = InvalidInputError.passing_on(cause)
    assert passed_on.code == "duration" and passed_on.text == cause.text
    assert refusal(passed_on) == english == str(passed_on)  # English: unchanged
    with use_language("fil"):
        filipino = refusal(passed_on)
        assert filipino == render(cause.text)
        assert "10 segundo" in filipino and "10 minuto" in filipino
        assert "must be" not in filipino


def test_shipped_language_names_are_babel_s_own() -> None:
    from babel import Locale

    from bot.messages.i18n import NAMES

    for code, name in NAMES.items():
        assert Locale.parse(code).get_display_name(code) == name
