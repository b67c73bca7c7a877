"""A Word Boggle round's posts (the grid with its countdown, the heads-up of a
scheduled round, the notices when one is skipped or cancelled) and what the
bot says back when a round can't be started, joined or cancelled.

Built from plain data: a round's facts as any object with the fields of
``RoundFacts`` (the service's ``RoundInfo`` is one), numbers and ids.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Protocol

from bot.messages.limits import ALT_TEXT_CHARS
from bot.messages.post import FileSpec, Post, ViewSpec
from bot.messages.text import absolute_time, relative_time
from engines.durations import format_duration

# Names the cog registers with the outbox: the grid image, a text file, the round's buttons.
GRID_RENDERER = "boggle_grid"
TEXT_RENDERER = "boggle_text"
ROUND_VIEW = "boggle_round"
WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
Rows = Sequence[Sequence[str]]


class OptionFacts(Protocol):
    """A round's options, as its messages describe them."""

    @property
    def size(self) -> int: ...
    @property
    def duration_s(self) -> int: ...
    @property
    def min_length(self) -> int: ...


class RoundFacts(OptionFacts, Protocol):
    """What a round's messages say about it."""

    @property
    def id(self) -> int: ...
    @property
    def number(self) -> int: ...
    @property
    def channel_id(self) -> int: ...
    @property
    def opens_at(self) -> datetime: ...
    @property
    def ends_at(self) -> datetime | None: ...
    @property
    def rows(self) -> tuple[tuple[str, ...], ...]: ...


def _ends(moment: datetime | None) -> datetime:
    return moment if moment is not None else datetime.fromtimestamp(0, UTC)


def letters_text(rows: Rows) -> str:
    """The grid in words for screen readers: "I T V A / T E V W / ..."."""
    return " / ".join(" ".join(face for face in row) for row in rows)


def grid_alt_text(rows: Rows, number: int) -> str:
    """The grid image's alt text: its letters, row by row."""
    side = len(rows)
    text = f"Word Boggle round {number}, a {side}x{side} grid. Letters, row by row: {letters_text(rows)}"
    return text[:ALT_TEXT_CHARS]


def grid_file(rows: Rows, number: int) -> FileSpec:
    """The grid image, drawn when the post is sent."""
    return FileSpec(
        GRID_RENDERER,
        {"rows": [list(r) for r in rows], "title": f"Round {number}", "round": number},
        grid_alt_text(rows, number),
    )


def describe_options(size: int, duration_s: int, min_length: int) -> str:
    return f"{size}x{size} grid · {format_duration(duration_s)} · words of {min_length}+ letters"


def round_options(options: OptionFacts) -> str:
    return describe_options(options.size, options.duration_s, options.min_length)


# -- posted in the round's channel


def announcement(info: RoundFacts) -> Post:
    """The grid, its letters in words, the countdown and the buttons."""
    ends = _ends(info.ends_at)
    content = (
        f"🎲 **Word Boggle — round #{info.number}** · {round_options(info)}\n"
        f"Ends {relative_time(ends)} (at {absolute_time(ends, 'T')}).\n"
        f"Letters, row by row: **{letters_text(info.rows)}**\n"
        "**DM me your words** (spaces, commas or new lines; send as many messages as you like) "
        "or press **Submit words**. A word on two players' lists is crossed off both!"
    )
    return Post(
        content=content,
        files=(grid_file(info.rows, info.number),),
        view=ViewSpec(ROUND_VIEW, {"round_id": info.id}),
    )


def heads_up(info: RoundFacts) -> Post:
    """A scheduled round, an hour ahead."""
    opens = info.opens_at
    return Post(
        content=(
            f"⏰ **Word Boggle round #{info.number}** starts {relative_time(opens)} ({absolute_time(opens, 'F')}) here: "
            f"{round_options(info)}. When the grid appears, DM me your words or press **Submit words**."
        )
    )


def weekly_round_skipped(busy_number: int, busy_open: bool, busy_channel_id: int) -> Post:
    return Post(
        content=f"This week's scheduled Word Boggle round is skipped: round #{busy_number} "
        f"is still {'running' if busy_open else 'coming up'} in <#{busy_channel_id}>."
    )


def missed_opening(number: int, planned: datetime) -> Post:
    return Post(
        content=f"Word Boggle round #{number} could not open on time "
        f"(planned for {absolute_time(planned)}), so it is skipped."
    )


def opening_skipped(number: int, busy_number: int) -> Post:
    return Post(
        content=f"Scheduled round #{number} is skipped: round #{busy_number} is still running."
    )


def round_cancelled(number: int, was_open: bool) -> Post:
    return Post(
        content=f"Word Boggle round #{number} was cancelled by a moderator"
        + (": its lists will not be scored." if was_open else ".")
    )


def schedule_stopped_round(number: int) -> Post:
    return Post(
        content=f"The weekly Word Boggle schedule was stopped, so round #{number} will not open."
    )


# -- what the bot says back when it can't (errors)


def still_running(number: int, channel_id: int, ends_at: datetime | None) -> str:
    return (
        f"Round #{number} is still running in <#{channel_id}>: "
        f"it ends {relative_time(_ends(ends_at))}."
    )


STARTED_AT_ONCE = "Another round was started at the same moment: look at the channel."
PICK_A_WEEKDAY = "Pick a day of the week."
BAD_SIZE = "Boggle grids are 4x4, 5x5 or 6x6."
BAD_MIN_LENGTH = "The minimum word length is 3, 4, 5 or 6 letters."
BAD_SEASON_RESET = "A season resets every `month`, `quarter`, `year` or `none`."
CANCEL_WHAT = "Cancel the `round` or the weekly `schedule`."
NOTHING_TO_CANCEL = "There is no Boggle round running or scheduled, and no weekly schedule."
NO_ROUND_TO_CANCEL = "No Boggle round is running or scheduled right now."
JUST_ENDED = "That round has just ended: its results are on the way."
NO_SCHEDULE_TO_CANCEL = "There is no weekly Boggle schedule to cancel."
EMPTY_FORM = "The form was empty: write your words separated by spaces, commas or new lines."
NO_OPEN_ROUND = "No Boggle round is open right now."
NO_SUCH_ROUND = "That Boggle round doesn't exist."
AM_PM_HOUR = "With am/pm the hour is 1 to 12 (e.g. `7pm`)."
BAD_CLOCK_TIME = "A time is 00:00 to 23:59."
PICK_A_CHANNEL = "Pick a channel for the round."


def dice_size_mismatch(dice: str, side: int, size: int) -> str:
    return (
        f"The {dice} dice make a {side}x{side} grid, not {size}x{size}: "
        "leave out the size or pick other dice."
    )


def unreadable_time(text: str) -> str:
    shown = text[:20].replace("`", "'")
    return f"I couldn't read `{shown}` as a time: write it like `15:00`, `3pm` or `3:30 pm`."


def season_target_range(low: int, high: int) -> str:
    return f"A season target is {low} to {high:,} points."


def opens_later(number: int, opens_at: datetime) -> str:
    return f"Round #{number} opens {relative_time(opens_at)}: send your words then."


def was_cancelled(number: int) -> str:
    return f"Round #{number} was cancelled."


def has_ended(number: int, channel_id: int) -> str:
    return (
        f"Round #{number} has ended, so words can't be added any more. "
        f"The results are posted in <#{channel_id}>."
    )


def cannot_post_grid(channel_id: int) -> str:
    return (
        f"I can't post the grid in <#{channel_id}>: I need to see it, send messages, "
        "embed links and attach files there."
    )
