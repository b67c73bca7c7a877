"""Durations written the way Filipino club members write them, and engine
errors that keep their template for translation."""

from __future__ import annotations

from datetime import timedelta

import pytest

from engines.durations import Duration, DurationError
from engines.text import Text

ANY = Duration("the time", "m", timedelta(0), timedelta(weeks=10))


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("3 araw", timedelta(days=3)),
        ("5 minuto", timedelta(minutes=5)),
        ("2 oras", timedelta(hours=2)),
        ("30 segundo", timedelta(seconds=30)),
        ("45 seg", timedelta(seconds=45)),
        ("1 linggo", timedelta(weeks=1)),
        ("1 oras at 30 minuto", timedelta(hours=1, minutes=30)),
        ("1 hour and 30 minutes", timedelta(hours=1, minutes=30)),
        ("2 MINUTO, 30 SEGUNDO", timedelta(minutes=2, seconds=30)),
    ],
)
def test_filipino_and_spelled_out_units_are_read(text: str, expected: timedelta) -> None:
    assert ANY.parse(text) == expected


@pytest.mark.parametrize(
    "text", ["3 arawaraw", "at 3 araw", "3 araw at", "oras", "5 minuto minuto"]
)
def test_a_filipino_word_that_is_not_a_duration_is_refused(text: str) -> None:
    with pytest.raises(DurationError):
        ANY.parse(text)


def test_an_error_keeps_its_template_and_fields_and_reads_in_english() -> None:
    spec = Duration("the time limit", "s", timedelta(seconds=10), timedelta(minutes=10))
    with pytest.raises(DurationError) as caught:
        spec.parse("5")
    assert str(caught.value) == "The time limit must be from 10 s to 10 min."
    text = caught.value.text
    assert text.template == "{What} must be {limits}."
    assert text.fields["What"] == Text("the time limit")
    assert isinstance(text.fields["limits"], Text)
    assert text.fields["limits"].fields == {
        "minimum": timedelta(seconds=10),
        "maximum": timedelta(minutes=10),
    }
