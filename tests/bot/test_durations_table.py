"""One duration grammar serves every command: what each option makes of the same
inputs, and each option's description says what a plain number means."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest

from bot.services.boggle.options import ROUND_DURATION
from bot.services.henyo.options import PENALTY, TIME_LIMIT
from bot.services.scrabble.options import CLOCK, DEADLINE
from engines.chess_clock import TimeControlError, parse_time_control
from engines.durations import UNIT_NAMES, Duration, DurationError

S, M, H, D = (timedelta(seconds=1), timedelta(minutes=1), timedelta(hours=1), timedelta(days=1))
NO = None  # refused: outside the option's limits

INPUTS = ("3", "90s", "3m", "1h30m", "2d", "1:30")
# option (command, option name, spec) -> what each of INPUTS means there
TABLE: list[tuple[str, str, Duration, tuple[timedelta | None, ...]]] = [
    ("scrabble new", "clock", CLOCK, (3 * H, 90 * S, 3 * M, 90 * M, 2 * D, 90 * S)),
    ("scrabble new", "deadline", DEADLINE, (3 * D, 90 * S, 3 * M, 90 * M, 2 * D, 90 * S)),
    ("boggle start", "duration", ROUND_DURATION, (3 * M, 90 * S, 3 * M, NO, NO, 90 * S)),
    ("boggle schedule", "duration", ROUND_DURATION, (3 * M, 90 * S, 3 * M, NO, NO, 90 * S)),
    ("henyo event open", "time_limit", TIME_LIMIT, (NO, 90 * S, 3 * M, NO, NO, 90 * S)),
    ("henyo event open", "penalty", PENALTY, (3 * S, NO, NO, NO, NO, NO)),
]


@pytest.mark.parametrize(("command", "option", "spec", "expected"), TABLE)
def test_each_option_reads_the_same_inputs_by_the_one_grammar(
    command: str, option: str, spec: Duration, expected: tuple[timedelta | None, ...]
) -> None:
    for typed, meaning in zip(INPUTS, expected, strict=True):
        if meaning is None:
            with pytest.raises(DurationError, match="must be from"):
                spec.parse(typed)
        else:
            assert spec.parse(typed) == meaning, f"/{command} {option}:{typed}"


def test_a_chess_time_control_reads_its_durations_by_the_same_grammar() -> None:
    # days and hours are time per move; minutes and seconds a live clock for each side
    read = {typed: parse_time_control(typed) for typed in INPUTS}
    assert {t: (c.kind, c.base_seconds) for t, c in read.items()} == {
        "3": ("correspondence", 3 * 86400),
        "90s": ("live", 90),
        "3m": ("live", 180),
        "1h30m": ("correspondence", 5400),
        "2d": ("correspondence", 2 * 86400),
        "1:30": ("live", 90),
    }
    with pytest.raises(TimeControlError):
        parse_time_control("3x")


def _option(tree: dict[str, dict[str, Any]], command: str, option: str) -> dict[str, Any]:
    words = command.split()
    node = tree[words[0]]
    for word in words[1:]:
        node = next(o for o in node["options"] if o["name"] == word)
    return next(o for o in node["options"] if o["name"] == option)


@pytest.mark.parametrize(("command", "option", "spec", "expected"), TABLE)
def test_each_option_says_what_a_plain_number_means(
    command_tree: dict[str, dict[str, Any]],
    command: str,
    option: str,
    spec: Duration,
    expected: tuple[timedelta | None, ...],
) -> None:
    description = _option(command_tree, command, option)["description"]
    assert f"a plain number is {UNIT_NAMES[spec.bare_unit]}" in description


def test_the_chess_time_option_says_a_plain_number_is_days(
    command_tree: dict[str, dict[str, Any]],
) -> None:
    assert "a plain number is days" in _option(command_tree, "chess new", "time")["description"]
