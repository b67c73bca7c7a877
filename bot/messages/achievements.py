"""Achievements' words: each one's name, its announcement in the channel, and the
list and streaks ``/stats`` shows."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime

from bot.messages.i18n import N_, _, ngettext
from bot.messages.post import Post
from bot.messages.text import absolute_time

# Message ids (N_): shown through _() where they are used. Order: as /stats lists them.
ACHIEVEMENT_NAMES = {
    "first_win": N_("First win"),
    "first_bingo": N_("First bingo"),
    "games_10": N_("10 games finished"),
    "boggle_long_word": N_("A Boggle word of 8+ letters"),
    "streak_7": N_("7-day streak"),
}
# What a streak is of, by kind (a puzzle streak can be added here).
STREAK_NAMES = {"boggle_daily": N_("daily Boggle grid"), "puzzle": N_("Puzzles solved")}
ACHIEVEMENTS_TITLE = N_("Achievements")
STREAKS_TITLE = N_("Streaks")


def achievement_name(code: str) -> str:
    known = ACHIEVEMENT_NAMES.get(code)
    return _(known) if known is not None else code


def streak_name(kind: str) -> str:
    known = STREAK_NAMES.get(kind)
    return _(known) if known is not None else kind


def _detail(code: str, detail: Mapping[str, object]) -> str:
    word = detail.get("word")
    if code == "boggle_long_word" and isinstance(word, str):
        return word.upper()
    kind = detail.get("kind")
    if code == "streak_7" and isinstance(kind, str):
        return streak_name(kind)
    return ""


def achievement_post(player_id: int, code: str, detail: Mapping[str, object]) -> Post:
    """The channel's one announcement of a member's achievement (the member is named,
    not pinged)."""
    extra = _detail(code, detail)
    name = f"**{achievement_name(code)}**" + (f" ({extra})" if extra else "")
    return Post(
        content="🏅 "
        + _("<@{member}> earned an achievement: {name}!").format(member=player_id, name=name)
    )


def achievement_lines(earned: Sequence[tuple[str, datetime, Mapping[str, object]]]) -> str:
    """``/stats``: each achievement with the date it was earned."""
    lines = []
    for code, at, detail in earned:
        extra = _detail(code, detail)
        label = achievement_name(code) + (f" ({extra})" if extra else "")
        lines.append(f"🏅 {label} · {absolute_time(at, 'D')}")
    return "\n".join(lines)


def streak_lines(streaks: Sequence[tuple[str, int, int]]) -> str:
    """``/stats``: each streak kind with its current and best run of days."""
    return "\n".join(
        ngettext(
            "{name}: {current} day in a row (best {best})",
            "{name}: {current} days in a row (best {best})",
            current,
        ).format(name=streak_name(kind), current=current, best=best)
        for kind, current, best in streaks
    )
