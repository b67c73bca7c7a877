"""A Word Boggle round's posts (the grid with its countdown, the heads-up of a
scheduled round, the notices when one is skipped or cancelled) and what the
bot says back when a round can't be started, joined or cancelled.

Built from plain data: a round's facts as any object with the fields of
``RoundFacts`` (the service's ``RoundInfo`` is one), numbers and ids.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from typing import Protocol

from bot.messages.boggle.room import room_lines
from bot.messages.i18n import N_, _
from bot.messages.limits import ALT_TEXT_CHARS
from bot.messages.post import FileSpec, Post, ViewSpec
from bot.messages.text import absolute_time, format_duration, relative_time

# Names the cog registers with the outbox: the grid image, a text file, the round's buttons.
GRID_RENDERER = "boggle_grid"
TEXT_RENDERER = "boggle_text"
ROUND_VIEW = "boggle_round"
# The slash command's choices (English, as command options are); texts use weekday_name.
WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
_WEEKDAY_NAMES = (
    N_("Monday"),
    N_("Tuesday"),
    N_("Wednesday"),
    N_("Thursday"),
    N_("Friday"),
    N_("Saturday"),
    N_("Sunday"),
)
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
    @property
    def entry_s(self) -> int: ...  # played in the room: the time to type the lists (else 0)


def _ends(moment: datetime | None) -> datetime:
    return moment if moment is not None else datetime.fromtimestamp(0, UTC)


def weekday_name(index: int) -> str:
    """A day of the week in the active language (0 is Monday)."""
    return _(_WEEKDAY_NAMES[index])


def letters_text(rows: Rows) -> str:
    """The grid in words for screen readers: "I T V A / T E V W / ..."."""
    return " / ".join(" ".join(face for face in row) for row in rows)


def grid_alt_text(rows: Rows, number: int) -> str:
    """The grid image's alt text: its letters, row by row."""
    side = len(rows)
    text = _(
        "Word Boggle round {number}, a {side}x{side} grid. Letters, row by row: {letters}"
    ).format(number=number, side=side, letters=letters_text(rows))
    return text[:ALT_TEXT_CHARS]


def grid_file(rows: Rows, number: int) -> FileSpec:
    """The grid image, drawn when the post is sent."""
    return FileSpec(
        GRID_RENDERER,
        {
            "rows": [list(r) for r in rows],
            "title": _("Round {number}").format(number=number),
            "round": number,
        },
        grid_alt_text(rows, number),
    )


def describe_options(size: int, duration_s: int, min_length: int) -> str:
    return _("{size}x{size} grid · {duration} · words of {min_length}+ letters").format(
        size=size, duration=format_duration(duration_s), min_length=min_length
    )


def round_options(options: OptionFacts) -> str:
    return describe_options(options.size, options.duration_s, options.min_length)


# -- posted in the round's channel


def announcement(info: RoundFacts) -> Post:
    """The grid, its letters in words, the countdown and the buttons."""
    ends = _ends(info.ends_at)
    entry_s = info.entry_s
    heading = "🎲 " + _("**Word Boggle — round #{number}** · {options}").format(
        number=info.number, options=round_options(info)
    )
    letters = _("Letters, row by row: {letters}").format(letters=f"**{letters_text(info.rows)}**")
    if entry_s:  # played in the room (bot.messages.boggle.room)
        countdown = ends - timedelta(seconds=entry_s)
        lines: tuple[str, ...] = (heading, *room_lines(entry_s, countdown, ends), letters)
    else:
        lines = (
            heading,
            _("Ends {when} (at {time}).").format(
                when=relative_time(ends), time=absolute_time(ends, "T")
            ),
            letters,
            _(
                "**DM me your words** (spaces, commas or new lines; send as many messages as "
                "you like) or press **Submit words**. A word on two players' lists is crossed "
                "off both!"
            ),
        )
    content = "\n".join(lines)
    return Post(
        content=content,
        files=(grid_file(info.rows, info.number),),
        view=ViewSpec(ROUND_VIEW, {"round_id": info.id}),
    )


def heads_up(info: RoundFacts) -> Post:
    """A scheduled round, an hour ahead."""
    opens = info.opens_at
    return Post(
        content="⏰ "
        + _(
            "**Word Boggle round #{number}** starts {when} ({time}) here: {options}. "
            "When the grid appears, DM me your words or press **Submit words**."
        ).format(
            number=info.number,
            when=relative_time(opens),
            time=absolute_time(opens, "F"),
            options=round_options(info),
        )
    )


def weekly_round_skipped(busy_number: int, busy_open: bool, busy_channel_id: int) -> Post:
    if busy_open:
        text = _(
            "This week's scheduled Word Boggle round is skipped: "
            "round #{number} is still running in {channel}."
        )
    else:
        text = _(
            "This week's scheduled Word Boggle round is skipped: "
            "round #{number} is still coming up in {channel}."
        )
    return Post(content=text.format(number=busy_number, channel=f"<#{busy_channel_id}>"))


def missed_opening(number: int, planned: datetime) -> Post:
    return Post(
        content=_(
            "Word Boggle round #{number} could not open on time "
            "(planned for {time}), so it is skipped."
        ).format(number=number, time=absolute_time(planned))
    )


def opening_skipped(number: int, busy_number: int) -> Post:
    return Post(
        content=_("Scheduled round #{number} is skipped: round #{busy} is still running.").format(
            number=number, busy=busy_number
        )
    )


def round_cancelled(number: int, was_open: bool) -> Post:
    if was_open:
        text = _(
            "Word Boggle round #{number} was cancelled by a moderator: "
            "its lists will not be scored."
        )
    else:
        text = _("Word Boggle round #{number} was cancelled by a moderator.")
    return Post(content=text.format(number=number))


def schedule_stopped_round(number: int) -> Post:
    return Post(
        content=_(
            "The weekly Word Boggle schedule was stopped, so round #{number} will not open."
        ).format(number=number)
    )


# -- what the bot says back when it can't (errors)


def still_running(number: int, channel_id: int, ends_at: datetime | None) -> str:
    return _("Round #{number} is still running in {channel}: it ends {when}.").format(
        number=number, channel=f"<#{channel_id}>", when=relative_time(_ends(ends_at))
    )


STARTED_AT_ONCE = N_("Another round was started at the same moment: look at the channel.")
PICK_A_WEEKDAY = N_("Pick a day of the week.")
BAD_SIZE = N_("Boggle grids are 4x4, 5x5 or 6x6.")
BAD_MIN_LENGTH = N_("The minimum word length is 3, 4, 5 or 6 letters.")
BAD_SEASON_RESET = N_("A season resets every `month`, `quarter`, `year` or `none`.")
CANCEL_WHAT = N_("Cancel the `round` or the weekly `schedule`.")
NOTHING_TO_CANCEL = N_("There is no Boggle round running or scheduled, and no weekly schedule.")
NO_ROUND_TO_CANCEL = N_("No Boggle round is running or scheduled right now.")
JUST_ENDED = N_("That round has just ended: its results are on the way.")
NO_SCHEDULE_TO_CANCEL = N_("There is no weekly Boggle schedule to cancel.")
EMPTY_FORM = N_("The form was empty: write your words separated by spaces, commas or new lines.")
NO_OPEN_ROUND = N_("No Boggle round is open right now.")
EMPTY_PAGE_CHANGE = N_("Write a word of letters to add it to your list.")
NO_SUCH_ROUND = N_("That Boggle round doesn't exist.")
AM_PM_HOUR = N_("With am/pm the hour is 1 to 12 (e.g. `7pm`).")
BAD_CLOCK_TIME = N_("A time is 00:00 to 23:59.")
PICK_A_CHANNEL = N_("Pick a channel for the round.")


def dice_size_mismatch(dice: str, side: int, size: int) -> str:
    return _(
        "The {dice} dice make a {side}x{side} grid, not {size}x{size}: "
        "leave out the size or pick other dice."
    ).format(dice=dice, side=side, size=size)


def unreadable_time(text: str) -> str:
    shown = text[:20].replace("`", "'")
    return _(
        "I couldn't read {typed} as a time: write it like `15:00`, `3pm` or `3:30 pm`."
    ).format(typed=f"`{shown}`")


def season_target_range(low: int, high: int) -> str:
    return _("A season target is {low} to {high} points.").format(low=low, high=f"{high:,}")


def opens_later(number: int, opens_at: datetime) -> str:
    return _("Round #{number} opens {when}: send your words then.").format(
        number=number, when=relative_time(opens_at)
    )


def page_too_many(limit: int) -> str:
    return _("That is too many words at once: add or remove at most {limit} at a time.").format(
        limit=limit
    )


def was_cancelled(number: int) -> str:
    return _("Round #{number} was cancelled.").format(number=number)


def has_ended(number: int, channel_id: int) -> str:
    return _(
        "Round #{number} has ended, so words can't be added any more. "
        "The results are posted in {channel}."
    ).format(number=number, channel=f"<#{channel_id}>")


def cannot_post_grid(channel_id: int) -> str:
    return _(
        "I can't post the grid in {channel}: I need to see it, send messages, "
        "embed links and attach files there."
    ).format(channel=f"<#{channel_id}>")
