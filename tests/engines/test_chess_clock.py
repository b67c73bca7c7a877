from __future__ import annotations

from datetime import UTC, datetime, timedelta

import chess
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engines.chess_clock import (
    CORRESPONDENCE,
    LIVE,
    MAX_VACATION_DAYS,
    ChessClock,
    ClockError,
    Pause,
    TimeControl,
    TimeControlError,
    VacationError,
    clock_face,
    parse_time_control,
)

T0 = datetime(2026, 11, 30, 18, 0, tzinfo=UTC)


def at(**delta: float) -> datetime:
    return T0 + timedelta(**delta)


# ------------------------------------------------------------------ parsing


@pytest.mark.parametrize(
    ("text", "kind", "base", "increment"),
    [
        ("10+5", LIVE, 600, 5),
        (" 3 + 2 ", LIVE, 180, 2),
        ("90s+2", LIVE, 90, 2),
        ("90s", LIVE, 90, 0),
        ("3m", LIVE, 180, 0),
        ("15+10s", LIVE, 900, 10),
        ("3d", CORRESPONDENCE, 3 * 86400, 0),
        ("12h", CORRESPONDENCE, 12 * 3600, 0),
        ("5", CORRESPONDENCE, 5 * 86400, 0),
        ("1.5", CORRESPONDENCE, 36 * 3600, 0),
        ("1h30m", CORRESPONDENCE, 5400, 0),
        ("2 days", CORRESPONDENCE, 2 * 86400, 0),
        ("1d12h", CORRESPONDENCE, 36 * 3600, 0),
        ("2w", CORRESPONDENCE, 14 * 86400, 0),
        ("1:30", LIVE, 90, 0),
        ("2m30s", LIVE, 150, 0),
        ("1:30+2", LIVE, 90, 2),
        ("5 min + 3 sec", LIVE, 300, 3),
        ("Correspondence", CORRESPONDENCE, 3 * 86400, 0),
        (None, CORRESPONDENCE, 3 * 86400, 0),
        ("", CORRESPONDENCE, 3 * 86400, 0),
    ],
)
def test_time_controls_are_read_from_the_ways_players_write_them(
    text, kind, base, increment
) -> None:
    control = parse_time_control(text)
    assert (control.kind, control.base_seconds, control.increment_seconds) == (
        kind,
        base,
        increment,
    )


@pytest.mark.parametrize(
    "text", ["5s", "4h+0", "0d", "15d", "200+0", "10+61", "blitz", "3w", "10+5+2", "-3d"]
)
def test_unreadable_or_out_of_bounds_time_controls_explain_how_to_write_them(text) -> None:
    with pytest.raises(TimeControlError) as error:
        parse_time_control(text)
    assert str(error.value)
    assert isinstance(error.value, ValueError)


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("blitz", "a plain number is days"),
        ("off", "`10+5`"),
        ("5s", "Each side's time on a live clock must be from 10 s to 3 h."),
        ("15d", "The time per move must be from 1 h to 2 weeks."),
        ("10+61", "The increment must be from 0 s to 1 min."),
    ],
)
def test_an_unreadable_time_says_how_to_write_one_and_an_out_of_range_one_its_limits(
    text, says
) -> None:
    with pytest.raises(TimeControlError) as error:
        parse_time_control(text)
    assert says in str(error.value)


@pytest.mark.parametrize(
    "text", ["10+5", "90s+2", "3d", "12h", "1+0", "180+60", "14d", "1h30m", "1.01h", "1:30", "1.5"]
)
def test_a_time_control_text_reads_back_to_the_same_control(text) -> None:
    control = parse_time_control(text)
    assert parse_time_control(control.text()) == control


def test_labels_and_pgn_tags_follow_the_kind_of_control() -> None:
    assert parse_time_control("10+5").label() == "10+5"
    assert parse_time_control("10+5").pgn_tag() == "600+5"
    assert parse_time_control("1d").label() == "1 day per move"
    assert parse_time_control("3d").label() == "3 days per move"
    assert parse_time_control("12h").label() == "12 hours per move"
    assert parse_time_control("1h30m").label() == "1.5 hours per move"
    assert parse_time_control("3d").pgn_tag() == "1/259200"


# ------------------------------------------------------------------ live clocks


def test_a_live_move_spends_the_elapsed_time_and_earns_the_increment() -> None:
    clock = ChessClock.start(parse_time_control("10+5"), T0)
    clock = clock.after_move(at(seconds=30))
    assert clock.to_move == chess.BLACK
    assert clock.white_ms == 575_000
    clock = clock.after_move(at(seconds=50))
    assert clock.black_ms == 585_000
    assert clock.remaining_ms(chess.WHITE, at(seconds=90)) == 535_000
    assert clock.remaining_ms(chess.BLACK, at(seconds=90)) == 585_000  # not Black's turn: frozen


def test_the_flag_falls_exactly_when_the_bank_is_spent() -> None:
    clock = ChessClock.start(parse_time_control("1+0"), T0)
    assert clock.flag_time() == at(seconds=60)
    assert not clock.has_flagged(at(seconds=59.999))
    assert clock.has_flagged(at(seconds=60))
    assert clock.remaining_ms(chess.WHITE, at(seconds=75)) == 0


def test_a_move_after_the_flag_fell_is_refused() -> None:
    clock = ChessClock.start(parse_time_control("1+5"), T0)
    with pytest.raises(ClockError):
        clock.after_move(at(seconds=61))


def test_a_timestamp_before_the_turn_began_counts_as_no_time_used() -> None:
    clock = ChessClock.start(parse_time_control("3+2"), T0)
    assert clock.elapsed_ms(at(seconds=-5)) == 0
    assert clock.after_move(at(seconds=-5)).white_ms == 182_000


# ------------------------------------------------------------------ correspondence


def test_each_correspondence_move_gets_the_full_allowance_again() -> None:
    clock = ChessClock.start(parse_time_control("3d"), T0)
    assert clock.flag_time() == at(days=3)
    clock = clock.after_move(at(days=2, hours=23))
    assert clock.flag_time() == at(days=5, hours=23)
    assert clock.bank_ms(chess.WHITE) == clock.bank_ms(chess.BLACK) == 3 * 86_400_000


def test_the_reminder_comes_the_lead_time_before_the_deadline() -> None:
    clock = ChessClock.start(parse_time_control("3d"), T0)
    assert clock.reminder_time(timedelta(hours=24)) == at(days=2)
    assert clock.reminder_time(timedelta(days=5)) == T0  # shorter allowance than the lead: at once


# ------------------------------------------------------------------ vacations


def test_a_vacation_on_your_turn_moves_your_deadline_by_its_length() -> None:
    clock = ChessClock.start(parse_time_control("3d"), T0)
    clock = clock.with_vacation(chess.WHITE, at(days=1), 2)
    assert clock.vacation_until(chess.WHITE, at(days=2)) == at(days=3)
    assert clock.flag_time() == at(days=5)
    assert clock.remaining_ms(chess.WHITE, at(days=2)) == 2 * 86_400_000  # paused since day 1


def test_a_vacation_only_pauses_its_own_player() -> None:
    clock = ChessClock.start(parse_time_control("1d"), T0).with_vacation(chess.BLACK, T0, 5)
    assert clock.flag_time() == at(days=1)  # White's turn: Black's vacation changes nothing
    clock = clock.after_move(at(hours=1))
    assert clock.flag_time() == at(days=6)  # Black's turn begins during the vacation


def test_coming_back_early_restarts_the_clock_and_returns_the_unused_days() -> None:
    clock = ChessClock.start(parse_time_control("1d"), T0).with_vacation(
        chess.WHITE, at(hours=12), 3
    )
    clock = clock.with_vacation(chess.WHITE, at(days=1, hours=12), 0)
    assert clock.vacation_until(chess.WHITE, at(days=1, hours=12)) is None
    assert clock.flag_time() == at(days=2)  # 12 h used before, 12 h left after a 1-day break
    assert clock.vacation_days_left(chess.WHITE) == MAX_VACATION_DAYS - 1


def test_vacations_are_bounded_per_game() -> None:
    clock = ChessClock.start(parse_time_control("3d"), T0).with_vacation(chess.WHITE, T0, 10)
    with pytest.raises(VacationError) as error:
        clock.with_vacation(chess.WHITE, at(days=11), 5)
    assert "4.0 of 14 days" in str(error.value)
    with pytest.raises(VacationError):
        clock.with_vacation(chess.BLACK, T0, MAX_VACATION_DAYS + 1)
    assert clock.with_vacation(chess.WHITE, at(days=11), 4).vacation_days_left(chess.WHITE) == 0


def test_a_live_clock_cannot_be_paused() -> None:
    with pytest.raises(VacationError):
        ChessClock.start(parse_time_control("10+0"), T0).with_vacation(chess.WHITE, T0, 1)


# ------------------------------------------------------------------ storage and display


def test_a_clock_survives_a_json_round_trip() -> None:
    clock = (
        ChessClock.start(parse_time_control("2d"), T0)
        .with_vacation(chess.BLACK, at(hours=3), 2)
        .after_move(at(hours=5))
    )
    assert ChessClock.from_dict(clock.to_dict()) == clock


@pytest.mark.parametrize(
    ("ms", "text"),
    [
        (0, "0:00"),
        (-5, "0:00"),
        (59_999, "0:59"),
        (575_000, "9:35"),
        (3_723_000, "1:02:03"),
        (2 * 86_400_000 + 4 * 3_600_000, "2 days 4 h"),
    ],
)
def test_time_left_reads_like_a_chess_clock(ms, text) -> None:
    assert clock_face(ms) == text


# ------------------------------------------------------------------ properties

moves_strategy = st.lists(st.integers(min_value=0, max_value=400_000), min_size=1, max_size=30)


@settings(max_examples=60, deadline=None)
@given(
    think_ms=moves_strategy,
    base=st.integers(min_value=10, max_value=1800),
    increment=st.integers(min_value=0, max_value=30),
)
def test_live_banks_equal_the_start_plus_increments_minus_thinking_time(
    think_ms, base, increment
) -> None:
    control = TimeControl(LIVE, base, increment)
    clock = ChessClock.start(control, T0)
    now = T0
    spent = {chess.WHITE: 0, chess.BLACK: 0}
    moves = {chess.WHITE: 0, chess.BLACK: 0}
    for think in think_ms:
        now += timedelta(milliseconds=think)
        if clock.has_flagged(now):
            assert clock.remaining_ms(clock.to_move, now) == 0
            break
        mover = clock.to_move
        clock = clock.after_move(now)
        spent[mover] += think
        moves[mover] += 1
    for color in (chess.WHITE, chess.BLACK):
        assert clock.bank_ms(color) == base * 1000 + moves[color] * increment * 1000 - spent[color]
        assert clock.remaining_ms(color, now) >= 0


@settings(max_examples=60, deadline=None)
@given(
    pauses=st.lists(st.tuples(st.integers(0, 200), st.integers(1, 48)), max_size=4),
    probe_hours=st.integers(0, 400),
)
def test_the_flag_time_is_where_unpaused_time_reaches_the_allowance(pauses, probe_hours) -> None:
    spans, cursor = [], T0
    for gap, length in pauses:  # non-overlapping pauses, as vacations always are
        start = cursor + timedelta(hours=gap)
        spans.append(Pause(start, start + timedelta(hours=length)))
        cursor = start + timedelta(hours=length)
    clock = ChessClock(parse_time_control("3d"), chess.WHITE, T0, 0, 0, white_pauses=tuple(spans))
    flag = clock.flag_time()
    assert clock.elapsed_ms(flag) == 3 * 86_400_000
    probe = T0 + timedelta(hours=probe_hours)
    assert clock.has_flagged(probe) == (probe >= flag)
