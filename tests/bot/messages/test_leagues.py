"""League texts within Discord's limits: a season of many divisions posts its results in
as many messages as it takes, and the standings of many divisions fit one reply."""

from __future__ import annotations

from bot.messages import leagues as msg
from bot.messages.limits import MESSAGE_CHARS
from bot.messages.tournaments import StandingLine

INFO = msg.LeagueInfo(1, "Big League", "scrabble", False, 4, 6, 1, "3d", 2)


def _results(divisions: int) -> list[dict[str, object]]:
    return [
        {
            "number": d,
            "winners": [f"winner-of-division-{d}"],
            "up": [f"climber-{d}"] if d > 1 else [],
            "down": [f"faller-{d}"] if d < divisions else [],
        }
        for d in range(1, divisions + 1)
    ]


def test_the_results_of_34_divisions_post_in_several_messages_each_within_the_limit() -> None:
    posts = msg.season_over(INFO, 1, _results(34), 199)
    assert len(posts) >= 2
    assert all(len(p) <= MESSAGE_CHARS for p in posts)
    text = "\n".join(posts)
    assert all(f"Division {d}: won by winner-of-division-{d}" in text for d in range(1, 35))
    assert posts[-1].endswith("`/league withdraw` leaves.")
    assert "199 entries who stay" in posts[-1]


def test_the_standings_of_many_divisions_fit_one_reply() -> None:
    line = StandingLine(1, "a-rather-long-member-name", 3.5, 120, 0.0, 0.0, 5, False)
    tables = [msg.DivisionTable(d, [line] * 6, 10, 15) for d in range(1, 35)]
    text = msg.standings("Big League", "scrabble", 1, "playing", tables)
    assert len(text) <= MESSAGE_CHARS
    assert "Division 1 (10 of 15 games played)" in text
    assert "/league standings division:" in text  # where to see the ones left out
