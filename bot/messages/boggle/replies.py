"""What the bot answers a member privately: a DM'd or form list's receipt, the
"too late" note, the hint when no round is open, the grid by DM, and the
moderators' replies to start, schedule, cancel and season commands."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Protocol

from bot.messages.boggle.results import PreviousSeason, StandingFacts, standings_text
from bot.messages.boggle.room import scheduled_in_room, started_in_room
from bot.messages.boggle.rounds import (
    OptionFacts,
    RoundFacts,
    letters_text,
    round_options,
    weekday_name,
)
from bot.messages.i18n import N_, _, ngettext
from bot.messages.text import absolute_time, clip, format_duration, plain, relative_time

# The round's buttons and its form (message ids: bot.ui translates them).
SUBMIT_LABEL = N_("Submit words")
DM_GRID_LABEL = N_("DM me the grid")
FORM_TITLE_CHARS = 45  # Discord's limit for a modal's title
WORDS_LABEL = N_("Words (spaces, commas or new lines)")
WORDS_PLACEHOLDER = N_("tame, quit, tones …")

NO_ROUND_HINT = N_(
    "There's no Word Boggle round open for you right now. When a moderator starts one, "
    "DM me your words here while the timer runs (spaces, commas or new lines), "
    "or use the **Submit words** button under the grid."
)
DMS_CLOSED = N_(
    "I can't DM you: your DMs are closed to me. Use **Submit words** below to send your words "
    "with the form instead (you can use it as often as you like)."
)
GRID_SENT = N_("I've sent you the grid by DM: reply there with your words.")
ALREADY_HAVE = N_("I already have those words.")


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
    @property
    def pairs(self) -> str: ...


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
    @property
    def entry_s(self) -> int: ...


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


def _round_in(number: int, guild_name: str) -> str:
    """ "round #3", or "round #3 in **Club**" when the member may be in several clubs."""
    if guild_name:
        return _("round #{number} in {club}").format(number=number, club=f"**{plain(guild_name)}**")
    return _("round #{number}").format(number=number)


def _and(items: Sequence[str]) -> str:
    return _(" and ").join(items)


# -- answers to a list


LEFT_OUT_SHOWN = 3  # tokens quoted back when some were left out
LEFT_OUT_CHARS = 20  # each cut to this many characters


def left_out_text(tokens: Sequence[str]) -> str:
    """A few left-out tokens quoted back as plain text (no markdown, no mention), cut short."""
    shown = ", ".join(plain(clip(token, LEFT_OUT_CHARS)) for token in tokens[:LEFT_OUT_SHOWN])
    more = len(tokens) - LEFT_OUT_SHOWN
    return _("{shown} and {count} more").format(shown=shown, count=more) if more > 0 else shown


def receipt_line(receipt: ReceiptFacts) -> str:
    where = _round_in(receipt.round_number, receipt.guild_name)
    added = ngettext("{count} new word", "{count} new words", receipt.new_words).format(
        count=receipt.new_words
    )
    left_out = len(receipt.not_letters) + len(receipt.too_long)
    mark = "⚠️" if left_out and not receipt.new_words else "✅"
    line = _("{mark} {added} — your list for {round} has {total} (ends {when}).").format(
        mark=mark,
        added=added,
        round=where,
        total=f"**{receipt.total_words}**",
        when=relative_time(receipt.ends_at),
    )
    if receipt.not_letters:
        count = len(receipt.not_letters)
        line += " " + ngettext(
            "Left out {count} that is not letters only ({tokens}): "
            "a word is letters, no digits or `:`.",
            "Left out {count} that are not letters only ({tokens}): "
            "a word is letters, no digits or `:`.",
            count,
        ).format(count=count, tokens=left_out_text(receipt.not_letters))
    if receipt.too_long:
        line += " " + _(
            "Left out {count} longer than this grid can spell ({longest} letters at most)."
        ).format(count=len(receipt.too_long), longest=receipt.longest)
    if receipt.full:
        line += " " + _("Your list is full, so some words were not added.")
    if receipt.pairs == "pair":
        line += " " + _(
            "This round is played in pairs: your pair's list is the one of whichever of you "
            "sends words last."
        )
    elif receipt.pairs == "outside":
        line += " " + _(
            "This round is a games event's, for its pairs: your list is kept but not judged."
        )
    return line


def command_in_dm(shown: str | None, rounds: Sequence[ListFacts]) -> str:
    """The answer to a slash command typed into a DM (``shown``: the command, when it is
    the bot's), and, during a round, that the message did not go on the list."""
    if shown:
        text = _(
            "{command} is a command, and commands don't run from a DM. "
            "Commands work in the server: type / in a channel and pick it from the list."
        ).format(command=f"`{shown}`")
    else:
        text = _(
            "That looks like a command, and commands don't run from a DM. "
            "Commands work in the server: type / in a channel and pick one from the list "
            "(`/help` shows them all)."
        )
    if rounds:
        where = _and([_round_in(r.round_number, r.guild_name) for r in rounds])
        text += " " + _(
            "This message is not on your Word Boggle list for {rounds}: "
            "DM your words as they are, without a `/`."
        ).format(rounds=where)
    return text


def late_line(note: LateFacts) -> str:
    return _(
        "Sorry, {round} ended {when}, so these words were not counted. "
        "The results are in {channel}."
    ).format(
        round=_round_in(note.round_number, note.guild_name),
        when=relative_time(note.ended_at),
        channel=f"<#{note.channel_id}>",
    )


def dm_reply(receipts: Sequence[ReceiptFacts], late: Sequence[LateFacts]) -> str | None:
    """What to answer a DM'd list; None when there is nothing new to say (a replayed message)."""
    lines = [receipt_line(r) for r in receipts if not r.repeated]
    lines += [late_line(note) for note in late]
    return "\n".join(lines) if lines else None


def form_receipt(receipt: ReceiptFacts) -> str:
    return _(ALREADY_HAVE) if receipt.repeated else receipt_line(receipt)


def form_title(number: int) -> str:
    return _("Your words — round #{number}").format(number=number)[:FORM_TITLE_CHARS]


def grid_dm(info: RoundFacts, guild_name: str) -> str:
    return "\n".join(
        (
            "🎲 "
            + _("Word Boggle {round} · {options} · ends {when}").format(
                round=_round_in(info.number, guild_name),
                options=round_options(info),
                when=relative_time(info.ends_at or info.opens_at),
            ),
            _("Letters, row by row: {letters}").format(letters=f"**{letters_text(info.rows)}**"),
            _(
                "Reply here with your words: spaces, commas or new lines, "
                "as many messages as you like."
            ),
        )
    )


# -- moderators' commands


def start_reply(info: RoundFacts) -> str:
    text = _("Round #{number} is on in {channel} ({options}); it ends {when}.").format(
        number=info.number,
        channel=f"<#{info.channel_id}>",
        options=round_options(info),
        when=relative_time(info.ends_at or info.opens_at),
    )
    entry_s = info.entry_s
    if entry_s and info.ends_at is not None:  # played in the room
        countdown = info.ends_at - timedelta(seconds=entry_s)
        text += " " + started_in_room(entry_s, countdown)
    return text


def schedule_reply(info: ScheduleFacts, lead: timedelta) -> str:
    if info.replaced:
        text = _(
            "Replaced the weekly schedule: a Word Boggle round every {when} ({timezone}) in "
            "{channel}: {options}. The first one opens {time} ({relative}) and is announced "
            "{lead} before. Stop it with `/boggle cancel what:schedule`."
        )
    else:
        text = _(
            "Scheduled: a Word Boggle round every {when} ({timezone}) in {channel}: {options}. "
            "The first one opens {time} ({relative}) and is announced {lead} before. "
            "Stop it with `/boggle cancel what:schedule`."
        )
    options = info.options
    day_and_time = _("{day} at {time}").format(day=weekday_name(info.weekday), time=info.local_time)
    said = text.format(
        when=f"**{day_and_time}**",
        timezone=info.timezone,
        channel=f"<#{info.channel_id}>",
        options=_("{size}x{size} grid, {duration}, words of {min_length}+ letters").format(
            size=options.size,
            duration=format_duration(options.duration_s),
            min_length=options.min_length,
        ),
        time=absolute_time(info.next_at, "F"),
        relative=relative_time(info.next_at),
        lead=format_duration(lead),
    )
    if info.entry_s:  # its rounds are played in the room
        said += " " + scheduled_in_room(info.entry_s)
    return said


def schedule_cancelled(also_cancelled_round: int | None) -> str:
    text = _("Stopped the **weekly schedule**: no more rounds will start by themselves.")
    if also_cancelled_round is not None:
        text += " " + _("The announced round #{number} is cancelled too.").format(
            number=also_cancelled_round
        )
    return text


def round_cancelled_reply(
    number: int,
    was_open: bool,
    channel_id: int,
    schedule_remains: bool,
    schedule_next_at: datetime | None,
) -> str:
    if was_open:
        text = _("Cancelled the **running round #{number}** in {channel}.")
    else:
        text = _("Cancelled the **scheduled round #{number}** in {channel}.")
    text = text.format(number=number, channel=f"<#{channel_id}>")
    if schedule_remains:
        if schedule_next_at:
            carries_on = _(
                "The weekly schedule carries on (next round {when}); "
                "`/boggle cancel what:schedule` stops it."
            ).format(when=relative_time(schedule_next_at))
        else:
            carries_on = _(
                "The weekly schedule carries on (next round); "
                "`/boggle cancel what:schedule` stops it."
            )
        text += " " + carries_on
    return text


_EVERY = {"month": N_("every month"), "quarter": N_("every quarter"), "year": N_("every year")}


def season_lines(season: SeasonFacts) -> list[str]:
    if season.next_reset_at:
        heading = _(
            "**Season {number}** (first to {target} points) — started {started}, resets {when}"
        )
    else:
        heading = _("**Season {number}** (first to {target} points) — started {started}")
    lines = [
        heading.format(
            number=season.number,
            target=season.target,
            started=absolute_time(season.started_at, "D"),
            when=relative_time(season.next_reset_at) if season.next_reset_at else "",
        ),
        _("Standings: {standings}").format(standings=standings_text(season.standings)),
    ]
    previous = season.previous
    if previous and previous.get("winners"):
        names = _and([plain(name) for _id, name in previous["winners"]])
        lines.append(
            _("Season {number} went to {names} ({points} points).").format(
                number=previous["number"], names=names, points=f"{previous['points']:g}"
            )
        )
    return lines


def season_reply(season: SeasonFacts, ended_number: int | None) -> str:
    lines = []
    if ended_number is not None:
        lines.append(
            _("Season {ended} is closed; season {number} starts now.").format(
                ended=ended_number, number=season.number
            )
        )
    if season.every == "none":
        every = _("never (only the target or a moderator ends it)")
    elif season.every in _EVERY:
        every = _(_EVERY[season.every])
    else:
        every = _("every {period}").format(period=season.every)
    lines += season_lines(season)
    lines.append(_("Resets: {every}.").format(every=every))
    return "\n".join(lines)


def running_line(number: int, is_open: bool, when: datetime, channel_id: int) -> str:
    if is_open:
        text = _("Round #{number} ends {when} in {channel}.")
    else:
        text = _("Round #{number} opens {when} in {channel}.")
    return text.format(number=number, when=relative_time(when), channel=f"<#{channel_id}>")


NOTHING_SCORED = N_("No round has been scored yet.")
