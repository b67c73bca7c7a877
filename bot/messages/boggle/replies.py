"""What the bot answers a member privately: a DM'd or form list's receipt, the
"too late" note, the hint when no round is open, the grid by DM, and the
moderators' replies to start, schedule, cancel and season commands."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Protocol

from bot.messages.boggle.results import PreviousSeason, StandingFacts, standings_text
from bot.messages.boggle.rounds import (
    WEEKDAYS,
    OptionFacts,
    RoundFacts,
    letters_text,
    round_options,
)
from bot.messages.text import absolute_time, clip, plain, relative_time
from engines.durations import format_duration

# The round's buttons and its form.
SUBMIT_LABEL = "Submit words"
DM_GRID_LABEL = "DM me the grid"
FORM_TITLE_CHARS = 45  # Discord's limit for a modal's title
WORDS_LABEL = "Words (spaces, commas or new lines)"
WORDS_PLACEHOLDER = "tame, quit, tones …"

NO_ROUND_HINT = (
    "There's no Word Boggle round open for you right now. When a moderator starts one, "
    "DM me your words here while the timer runs (spaces, commas or new lines), "
    "or use the **Submit words** button under the grid."
)
DMS_CLOSED = (
    "I can't DM you: your DMs are closed to me. Use **Submit words** below to send your words "
    "with the form instead (you can use it as often as you like)."
)
GRID_SENT = "I've sent you the grid by DM: reply there with your words."
ALREADY_HAVE = "I already have those words."


class ListFacts(Protocol):
    """Which round a list was for."""

    @property
    def round_number(self) -> int: ...
    @property
    def guild_name(self) -> str: ...


class ReceiptFacts(ListFacts, Protocol):
    @property
    def ends_at(self) -> datetime: ...
    @property
    def new_words(self) -> int: ...
    @property
    def total_words(self) -> int: ...
    @property
    def repeated(self) -> bool: ...
    @property
    def full(self) -> bool: ...
    @property
    def not_letters(self) -> Sequence[str]: ...
    @property
    def too_long(self) -> Sequence[str]: ...
    @property
    def longest(self) -> int: ...


class LateFacts(ListFacts, Protocol):
    @property
    def channel_id(self) -> int: ...
    @property
    def ended_at(self) -> datetime: ...


class ScheduleFacts(Protocol):
    @property
    def weekday(self) -> int: ...
    @property
    def local_time(self) -> str: ...
    @property
    def timezone(self) -> str: ...
    @property
    def channel_id(self) -> int: ...
    @property
    def next_at(self) -> datetime: ...
    @property
    def options(self) -> OptionFacts: ...
    @property
    def replaced(self) -> bool: ...


class SeasonFacts(Protocol):
    @property
    def number(self) -> int: ...
    @property
    def started_at(self) -> datetime: ...
    @property
    def target(self) -> int: ...
    @property
    def every(self) -> str: ...
    @property
    def next_reset_at(self) -> datetime | None: ...
    @property
    def standings(self) -> Sequence[StandingFacts]: ...
    @property
    def previous(self) -> PreviousSeason | None: ...


def _in_guild(name: str) -> str:
    return f" in **{plain(name)}**" if name else ""


# -- answers to a list


LEFT_OUT_SHOWN = 3  # tokens quoted back when some were left out
LEFT_OUT_CHARS = 20  # each cut to this many characters


def left_out_text(tokens: Sequence[str]) -> str:
    """A few left-out tokens quoted back as plain text (no markdown, no mention), cut short."""
    shown = ", ".join(plain(clip(token, LEFT_OUT_CHARS)) for token in tokens[:LEFT_OUT_SHOWN])
    more = len(tokens) - LEFT_OUT_SHOWN
    return shown + (f" and {more} more" if more > 0 else "")


def receipt_line(receipt: ReceiptFacts) -> str:
    where = f"round #{receipt.round_number}{_in_guild(receipt.guild_name)}"
    added = f"{receipt.new_words} new word{'' if receipt.new_words == 1 else 's'}"
    left_out = len(receipt.not_letters) + len(receipt.too_long)
    mark = "⚠️" if left_out and not receipt.new_words else "✅"
    line = f"{mark} {added} — your list for {where} has **{receipt.total_words}** (ends {relative_time(receipt.ends_at)})."
    if receipt.not_letters:
        count = len(receipt.not_letters)
        line += (
            f" Left out {count} that {'is' if count == 1 else 'are'} not letters only "
            f"({left_out_text(receipt.not_letters)}): a word is letters, no digits or `:`."
        )
    if receipt.too_long:
        count = len(receipt.too_long)
        line += (
            f" Left out {count} longer than this grid can spell "
            f"({receipt.longest} letters at most)."
        )
    if receipt.full:
        line += " Your list is full, so some words were not added."
    return line


def command_in_dm(shown: str | None, rounds: Sequence[ListFacts]) -> str:
    """The answer to a slash command typed into a DM (``shown``: the command, when it is
    the bot's), and, during a round, that the message did not go on the list."""
    if shown:
        text = f"`{shown}` is a command, and commands don't run from a DM. "
    else:
        text = "That looks like a command, and commands don't run from a DM. "
    text += "Commands work in the server: type / in a channel and pick "
    text += "it from the list." if shown else "one from the list (`/help` shows them all)."
    if rounds:
        where = " and ".join(f"round #{r.round_number}{_in_guild(r.guild_name)}" for r in rounds)
        text += (
            f" This message is not on your Word Boggle list for {where}: "
            "DM your words as they are, without a `/`."
        )
    return text


def late_line(note: LateFacts) -> str:
    return (
        f"Sorry, round #{note.round_number}{_in_guild(note.guild_name)} ended {relative_time(note.ended_at)}, "
        f"so these words were not counted. The results are in <#{note.channel_id}>."
    )


def dm_reply(receipts: Sequence[ReceiptFacts], late: Sequence[LateFacts]) -> str | None:
    """What to answer a DM'd list; None when there is nothing new to say (a replayed message)."""
    lines = [receipt_line(r) for r in receipts if not r.repeated]
    lines += [late_line(note) for note in late]
    return "\n".join(lines) if lines else None


def form_receipt(receipt: ReceiptFacts) -> str:
    return ALREADY_HAVE if receipt.repeated else receipt_line(receipt)


def form_title(number: int) -> str:
    return f"Your words — round #{number}"[:FORM_TITLE_CHARS]


def grid_dm(info: RoundFacts, guild_name: str) -> str:
    return (
        f"🎲 Word Boggle round #{info.number}{_in_guild(guild_name)} · {round_options(info)} · "
        f"ends {relative_time(info.ends_at or info.opens_at)}\n"
        f"Letters, row by row: **{letters_text(info.rows)}**\n"
        "Reply here with your words: spaces, commas or new lines, as many messages as you like."
    )


# -- moderators' commands


def start_reply(info: RoundFacts) -> str:
    return (
        f"Round #{info.number} is on in <#{info.channel_id}> ({round_options(info)}); "
        f"it ends {relative_time(info.ends_at or info.opens_at)}."
    )


def schedule_reply(info: ScheduleFacts, lead: timedelta) -> str:
    verb = "Replaced the weekly schedule" if info.replaced else "Scheduled"
    options = info.options
    return (
        f"{verb}: a Word Boggle round every **{WEEKDAYS[info.weekday]} at {info.local_time}** "
        f"({info.timezone}) in <#{info.channel_id}>: {options.size}x{options.size} grid, "
        f"{format_duration(options.duration_s)}, words of {options.min_length}+ letters. "
        f"The first one opens {absolute_time(info.next_at, 'F')} ({relative_time(info.next_at)}) and is announced "
        f"{format_duration(lead)} before. "
        "Stop it with `/boggle cancel what:schedule`."
    )


def schedule_cancelled(also_cancelled_round: int | None) -> str:
    text = "Stopped the **weekly schedule**: no more rounds will start by themselves."
    if also_cancelled_round is not None:
        text += f" The announced round #{also_cancelled_round} is cancelled too."
    return text


def round_cancelled_reply(
    number: int,
    was_open: bool,
    channel_id: int,
    schedule_remains: bool,
    schedule_next_at: datetime | None,
) -> str:
    what = "running round" if was_open else "scheduled round"
    text = f"Cancelled the **{what} #{number}** in <#{channel_id}>."
    if schedule_remains:
        nxt = f" {relative_time(schedule_next_at)}" if schedule_next_at else ""
        text += f" The weekly schedule carries on (next round{nxt}); `/boggle cancel what:schedule` stops it."
    return text


def season_lines(season: SeasonFacts) -> list[str]:
    resets = f", resets {relative_time(season.next_reset_at)}" if season.next_reset_at else ""
    lines = [
        f"**Season {season.number}** (first to {season.target} points) — started "
        f"{absolute_time(season.started_at, 'D')}{resets}",
        f"Standings: {standings_text(season.standings)}",
    ]
    previous = season.previous
    if previous and previous.get("winners"):
        names = " and ".join(plain(name) for _, name in previous["winners"])
        lines.append(
            f"Season {previous['number']} went to {names} ({previous['points']:g} points)."
        )
    return lines


def season_reply(season: SeasonFacts, ended_number: int | None) -> str:
    lines = []
    if ended_number is not None:
        lines.append(f"Season {ended_number} is closed; season {season.number} starts now.")
    every = (
        "never (only the target or a moderator ends it)"
        if season.every == "none"
        else f"every {season.every}"
    )
    lines += season_lines(season)
    lines.append(f"Resets: {every}.")
    return "\n".join(lines)


def running_line(number: int, is_open: bool, when: datetime, channel_id: int) -> str:
    verb = "ends" if is_open else "opens"
    return f"Round #{number} {verb} {relative_time(when)} in <#{channel_id}>."


NOTHING_SCORED = "No round has been scored yet."
