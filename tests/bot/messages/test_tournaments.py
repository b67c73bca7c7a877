"""Tournament texts: tables fit one Discord message, and members' names stay text."""

from __future__ import annotations

from datetime import UTC, datetime

from bot.messages import tournaments as msg
from bot.messages.limits import MESSAGE_CHARS


def _line(rank: int, label: str, points: float = 1.5) -> msg.StandingLine:
    return msg.StandingLine(rank, label, points, 12, 4.5, 3.25, 3, withdrawn=False)


def test_a_table_of_64_fits_one_message_and_says_how_many_rows_are_left_out() -> None:
    lines = [_line(i, f"member-with-a-long-name-{i:02d}") for i in range(1, 65)]
    text = msg.standings_after("Big Swiss", "chess", 3, 7, lines)
    assert len(text) <= MESSAGE_CHARS
    shown = sum(1 for row in text.splitlines() if "member-with-a-long-name" in row)
    assert 10 < shown < 64
    assert f"…and {64 - shown} more (see `/tournament export`)" in text
    assert text.count("```") == 2  # the code block is closed


def test_names_cannot_ping_or_break_the_table() -> None:
    evil = "@everyone `x` <@&123>"
    table = msg.final_table("Cup", "scrabble", [_line(1, evil, 2)])
    assert "`x`" not in table and "@\u200beveryone" in table  # in the winner line: plain()
    assert table.count("```") == 2
    post = msg.round_paired(
        "@here **Cup**",
        1,
        3,
        [
            msg.BoardLine(1, evil, "bob", None, None, 7),
            msg.BoardLine(2, "carol", None, 1.0, "bye", None),
        ],
        held=False,
    )
    assert "@here" not in post and "\\*\\*Cup" in post
    assert "bye" in post and "playing" in post


def test_points_are_written_with_halves() -> None:
    lines = [_line(1, "a", 2.5), _line(2, "b", 0.5), _line(3, "c", 0)]
    text = msg.standings_after("T", "chess", 1, 3, lines)
    assert " 2½ " in text and " ½ " in text and " 0 " in text


def test_the_log_keeps_the_latest_acts_when_it_is_long() -> None:
    at = datetime(2026, 12, 2, 1, 0, tzinfo=UTC)
    lines = [
        msg.LogLine(at, "host", "adjudicate", {"member": f"m{i}", "result": "win"})
        for i in range(200)
    ]
    text = msg.log_text("Cup", lines)
    assert len(text) <= MESSAGE_CHARS
    assert "m199" in text and "earlier entries not shown" in text
