"""The one duration grammar every option reads."""

from __future__ import annotations

from datetime import timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engines.durations import Duration, DurationError, format_duration, parse_duration

WIDE = Duration("the test", "m", timedelta(0), timedelta(weeks=10))


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("90s", timedelta(seconds=90)),
        ("3m", timedelta(minutes=3)),
        ("1h30m", timedelta(hours=1, minutes=30)),
        ("1h 30m", timedelta(hours=1, minutes=30)),
        ("2d", timedelta(days=2)),
        ("1w", timedelta(weeks=1)),
        ("1:30", timedelta(minutes=1, seconds=30)),
        ("1:30:00", timedelta(hours=1, minutes=30)),
        ("2.5s", timedelta(seconds=2.5)),
        ("2 min 30 sec", timedelta(minutes=2, seconds=30)),
        ("3 Minutes", timedelta(minutes=3)),
        ("  45 seconds ", timedelta(seconds=45)),
        ("3", timedelta(minutes=3)),  # the option's bare unit
        ("1.5", timedelta(minutes=1.5)),
    ],
)
def test_the_grammar_reads_what_members_write(text: str, expected: timedelta) -> None:
    assert parse_duration(text, WIDE) == expected


@pytest.mark.parametrize(
    "text", ["", "abc", "3x", "m3", "1h1h", "3m-", "1:75", "3 m s", "`@everyone`", "1e9s"]
)
def test_unreadable_text_is_a_clear_error_naming_the_examples(text: str) -> None:
    with pytest.raises(DurationError, match="write it like"):
        parse_duration(text, WIDE)


def test_a_bare_number_takes_the_unit_the_option_names() -> None:
    for unit, expected in [
        ("s", timedelta(seconds=3)),
        ("m", timedelta(minutes=3)),
        ("h", timedelta(hours=3)),
        ("d", timedelta(days=3)),
    ]:
        spec = Duration("x", unit, timedelta(0), timedelta(weeks=1))  # type: ignore[arg-type]
        assert spec.parse("3") == expected
    assert "a plain number is days" in Duration("x", "d", timedelta(0), timedelta(1)).describe()


def test_limits_are_per_option_and_say_both_ends() -> None:
    spec = Duration("the round", "m", timedelta(seconds=10), timedelta(hours=1))
    with pytest.raises(DurationError, match="The round must be from 10 s to 1 h"):
        spec.parse("5s")
    with pytest.raises(DurationError, match="from 10 s to 1 h"):
        spec.parse("61m")
    assert spec.parse("10s") == timedelta(seconds=10)


def test_off_only_where_the_option_allows_no_limit() -> None:
    clock = Duration("the turn clock", "h", timedelta(minutes=3), timedelta(days=3), True)
    assert clock.parse("off") is None
    assert clock.parse("none") is None
    assert clock.parse("0") is None
    round_ = Duration("the round", "m", timedelta(seconds=10), timedelta(hours=1))
    with pytest.raises(DurationError, match="cannot be off"):
        round_.parse("off")
    with pytest.raises(DurationError, match="cannot be off"):
        round_.parse_required("none")


def test_echoed_text_is_short_and_cannot_close_the_code_span() -> None:
    with pytest.raises(DurationError) as caught:
        parse_duration("`" * 5 + "x" * 200, WIDE)
    message = str(caught.value)
    assert "x" * 31 not in message
    assert message.count("`") == EXAMPLE_BACKTICKS + 2


EXAMPLE_BACKTICKS = 10  # the five examples, each in a code span


@pytest.mark.parametrize(
    ("seconds", "text"),
    [
        (45, "45 s"),
        (2.5, "2.5 s"),
        (180, "3 min"),
        (150, "2 min 30 s"),
        (5400, "1 h 30 min"),
        (3600, "1 h"),
        (86400, "1 day"),
        (3 * 86400, "3 days"),
        (86400 + 6 * 3600, "1 day 6 h"),
        (14 * 86400, "2 weeks"),
    ],
)
def test_format_says_it_as_people_do(seconds: float, text: str) -> None:
    assert format_duration(timedelta(seconds=seconds)) == text
    assert format_duration(seconds) == text


@given(st.integers(min_value=60, max_value=8 * 604800))
def test_whatever_the_bot_writes_reads_back_to_at_most_its_rounding(seconds: int) -> None:
    shown = format_duration(seconds)
    back = parse_duration(shown, WIDE)
    assert back is not None
    # two units at most: what is dropped is below the smaller unit shown
    assert timedelta(0) <= timedelta(seconds=seconds) - back < timedelta(days=1)
    assert parse_duration(format_duration(back), WIDE) == back


@given(st.integers(min_value=0, max_value=599))
def test_short_durations_read_back_exactly_to_the_tenth(tenths: int) -> None:
    value = timedelta(seconds=tenths / 10)
    assert parse_duration(format_duration(value), WIDE) == value
