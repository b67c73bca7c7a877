"""The words of a member's own Boggle board page (``bot/web/board_boggle.py``) that
change with the round: where the round stands, a cell's name, a word's note, the
pair note, and what a change did to the list.

Plain text, not markdown: the page shows it as text. The page's fixed words (the
buttons, the headings) are its template's.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from zoneinfo import ZoneInfo

from bot.messages.boggle.results import STATUS_LABELS
from bot.messages.i18n import N_, _, ngettext
from bot.messages.web import local_time
from engines.boggle import WordStatus

TITLE = N_("Word Boggle round {number}")
OPENS = N_("Round #{number} opens at {time}: its grid shows here then.")
PLAYING = N_("Find words until the countdown ends: your list is saved as you go.")
TIME_UP = N_("Time is up: the lists are being judged.")
SCORED = N_("Round #{number} is over: here are its results.")
CELL = N_("row {row} column {column}, letter {face}")
IN_PAIRS = N_(
    "This round is played in pairs: your pair's list is the one of whichever of you "
    "sends words last."
)
OUTSIDE = N_("This round is a games event's, for its pairs: your list is kept but not judged.")
COUNTING_YOURS = N_("Your pair's list is yours now.")
COUNTING_PARTNERS = N_(
    "Your pair's list is {name}'s now: a change you make here makes yours the pair's list."
)
DAILY_TITLE = N_("Daily Word Boggle — {day}")
DAILY_PLAYING = N_(
    "Your own countdown runs: find words until it ends. Your list is saved as you go, "
    "with the words you DM to the bot."
)
DAILY_OVER = N_(
    "Your countdown is over (one play a day): your list is in. The day's results are "
    "posted in the club's channel at {time}."
)
DAILY_SCORED = N_("The day is over: its results are in the club's channel.")
DAILY_REFUSED = N_(
    "Your countdown for this grid ended at {time}: one play a day, so the list stays as it "
    "was. The day's results are posted in the club's channel at {results}."
)
NOT_LETTERS = N_("Left out (not letters only): {tokens}.")
TOO_LONG = N_("Left out {count} longer than this grid can spell ({longest} letters at most).")
FULL = N_("Your list is full, so some words were not added.")


def title(number: int) -> str:
    return _(TITLE).format(number=number)


def status_text(status: str, number: int, opens_at: datetime, taking: bool, zone: ZoneInfo) -> str:
    """One line: when the round opens, that words are being taken, or that it is over."""
    if status == "scheduled":
        return _(OPENS).format(number=number, time=local_time(opens_at, zone))
    if status == "scored":
        return _(SCORED).format(number=number)
    return _(PLAYING) if taking else _(TIME_UP)


def cell_label(row: int, column: int, face: str) -> str:
    """A grid cell's accessible name, counted from 1: "row 2 column 3, letter Qu"."""
    return _(CELL).format(row=row, column=column, face=face)


def word_note(on_grid: bool, long_enough: bool) -> str:
    """What the rules already say of a word on the list (never whether it is a word)."""
    if not on_grid:
        return _(STATUS_LABELS[WordStatus.NOT_ON_GRID.value])
    if not long_enough:
        return _(STATUS_LABELS[WordStatus.TOO_SHORT.value])
    return ""


def pair_note(pairs: str, counting: str, partner: str) -> str:
    """In a games event's round played in pairs: whose list counts for the member's pair."""
    if pairs == "outside":
        return _(OUTSIDE)
    if pairs != "pair":
        return ""
    line = _(IN_PAIRS)
    if counting == "you":
        line += " " + _(COUNTING_YOURS)
    elif counting == "partner":
        line += " " + _(COUNTING_PARTNERS).format(name=partner)
    return line


def change_note(
    not_letters: Sequence[str], too_long: Sequence[str], longest: int, full: bool
) -> str:
    """What a change from the page left out of the list (empty when nothing)."""
    parts = []
    if not_letters:
        parts.append(_(NOT_LETTERS).format(tokens=", ".join(not_letters[:3])))
    if too_long:
        parts.append(_(TOO_LONG).format(count=len(too_long), longest=longest))
    if full:
        parts.append(_(FULL))
    return " ".join(parts)


def points(count: int) -> str:
    return ngettext("{count} point", "{count} points", count).format(count=count)


def daily_title(day: str) -> str:
    """The daily grid's page: its club day ("2026-03-08")."""
    return _(DAILY_TITLE).format(day=day)


def daily_status(status: str, taking: bool, day_ends_at: datetime, zone: ZoneInfo) -> str:
    """Where the member's play of the day's grid stands: their countdown running, over,
    or the day scored."""
    if status == "scored":
        return _(DAILY_SCORED)
    if taking:
        return _(DAILY_PLAYING)
    return _(DAILY_OVER).format(time=local_time(day_ends_at, zone))


def daily_refused(ends_at: datetime, day_ends_at: datetime, zone: ZoneInfo) -> str:
    """A change from the page after the member's countdown: refused, nothing changed."""
    return _(DAILY_REFUSED).format(
        time=local_time(ends_at, zone), results=local_time(day_ends_at, zone)
    )
