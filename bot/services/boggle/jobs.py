"""Boggle's job kinds (stored in the jobs table: they never change) and the keys
that make each round's and each guild's timers one row apiece."""

from __future__ import annotations

JOB_OPEN = "boggle.open"  # a scheduled round opens: on_round_open
JOB_CLOSE = "boggle.close"  # the countdown (and its grace) is over: on_round_close
JOB_SCORE = "boggle.score"  # the frozen lists are judged: on_round_score
JOB_ENTRY = "boggle.entry"  # a room round's countdown is over, its lists are typed: on_entry_open
JOB_WEEKLY = "boggle.weekly"  # this week's round is made and announced: on_weekly_round
JOB_SEASON = "boggle.season"  # the season's time is up: on_season_end
JOB_DAILY_END = "boggle.daily_end"  # the club's midnight: the day's grid is scored: on_day_end
JOB_KINDS = (JOB_OPEN, JOB_CLOSE, JOB_SCORE, JOB_ENTRY, JOB_WEEKLY, JOB_SEASON, JOB_DAILY_END)


def open_key(round_id: int) -> str:
    """The key of a scheduled round's open job."""
    return f"boggle:open:{round_id}"


def close_key(round_id: int) -> str:
    """The key of a round's close job."""
    return f"boggle:close:{round_id}"


def entry_key(round_id: int) -> str:
    """The key of a room round's job at the end of its countdown."""
    return f"boggle:entry:{round_id}"


def score_key(round_id: int) -> str:
    """The key of a round's score job."""
    return f"boggle:score:{round_id}"


def weekly_key(schedule_id: int) -> str:
    """The key of a schedule's weekly job (it moves itself to the next week)."""
    return f"boggle:weekly:{schedule_id}"


def season_key(guild_id: int) -> str:
    """The key of a guild's season-end job."""
    return f"boggle:season:{guild_id}"


def daily_end_key(guild_id: int, day: str) -> str:
    """The key of a club day's end job (the daily grid's scoring)."""
    return f"boggle:daily:{guild_id}:{day}"
