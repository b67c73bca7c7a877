from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engines.henyo.timing import (
    DISCORD_EPOCH_MS,
    HenyoTimingError,
    Timing,
    datetime_ms,
    elapsed_ms,
    final_time_ms,
    format_time,
    snowflake_at,
    snowflake_ms,
    snowflake_time,
    tenths,
    within_limit,
)

START = datetime(2026, 11, 30, 18, 0, tzinfo=UTC)


def test_a_known_discord_snowflake_reads_as_its_creation_time() -> None:
    # Discord's documentation example: 175928847299117063 was made at 2016-04-30 11:18:25.796 UTC.
    assert snowflake_time(175928847299117063) == datetime(
        2016, 4, 30, 11, 18, 25, 796000, tzinfo=UTC
    )


def test_elapsed_time_is_the_difference_of_the_two_snowflakes_to_the_millisecond() -> None:
    start_ms = datetime_ms(START)
    start = snowflake_at(start_ms, 7)
    guess = snowflake_at(start_ms + 37_449, 3)
    assert elapsed_ms(start, guess) == 37_449


@settings(max_examples=100)
@given(
    st.integers(min_value=DISCORD_EPOCH_MS, max_value=DISCORD_EPOCH_MS + 2**41),
    st.integers(0, 2**22 - 1),
)
def test_snowflake_at_round_trips_through_snowflake_ms(unix_ms: int, sequence: int) -> None:
    flake = snowflake_at(unix_ms, sequence)
    assert snowflake_ms(flake) == unix_ms
    assert datetime_ms(snowflake_time(flake)) == unix_ms


def test_the_limit_itself_still_counts_but_a_millisecond_later_does_not() -> None:
    assert within_limit(120_000, 120_000)
    assert not within_limit(120_001, 120_000)
    assert not within_limit(-1, 120_000)


def test_final_time_adds_every_penalty() -> None:
    assert final_time_ms(27_400, 2, 5_000) == 37_400
    assert Timing(27_400, 2, 5_000).final_ms == 37_400
    assert Timing(27_400, 2, 5_000).penalty_total_ms == 10_000
    with pytest.raises(HenyoTimingError):
        final_time_ms(-1, 0, 5_000)


@pytest.mark.parametrize(
    ("ms", "shown"),
    [
        (0, "0.0 s"),
        (7_049, "7.0 s"),
        (7_050, "7.1 s"),
        (37_449, "37.4 s"),
        (59_949, "59.9 s"),
        (59_950, "1:00.0"),
        (65_050, "1:05.1"),
        (125_000, "2:05.0"),
        (None, "–"),
    ],
)
def test_times_are_shown_to_the_tenth_rounded_half_up(ms: int | None, shown: str) -> None:
    assert format_time(ms) == shown


def test_times_that_read_the_same_compare_equal() -> None:
    assert tenths(37_351) == tenths(37_449) == 374
    assert tenths(37_450) == 375


def test_naive_datetimes_are_refused() -> None:
    with pytest.raises(HenyoTimingError):
        datetime_ms(datetime(2026, 1, 1) + timedelta(0))
