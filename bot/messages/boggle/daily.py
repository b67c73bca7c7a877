"""The daily Boggle grid's words: the member's private grid and countdown, list
receipts and late notes, and the day's results post.

Built from plain data: a play's facts as any object with the fields of
``DailyFacts`` (the service's ``DailyInfo`` is one).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import date, datetime
from typing import Protocol

from bot.messages.boggle.results import (
    RoundSummary,
    results_embed,
    shown_missed,
    winner_line,
)
from bot.messages.boggle.rounds import GRID_RENDERER, describe_options, letters_text
from bot.messages.i18n import N_, _, ngettext
from bot.messages.limits import ALT_TEXT_CHARS, MESSAGE_CHARS
from bot.messages.post import FileSpec, Post
from bot.messages.text import absolute_time, clip, plain, relative_time
from engines.boggle import Grid

NOT_OPENED = N_("Open today's grid with `/boggle daily` first.")
RANKED_IN_CONTENT = 15

Rows = Sequence[Sequence[str]]


class DailyFacts(Protocol):
    """What the member's private grid says about their play."""

    @property
    def day(self) -> str: ...
    @property
    def size(self) -> int: ...
    @property
    def duration_s(self) -> int: ...
    @property
    def min_length(self) -> int: ...
    @property
    def ends_at(self) -> datetime: ...
    @property
    def day_ends_at(self) -> datetime: ...
    @property
    def words(self) -> int: ...
    @property
    def again(self) -> bool: ...
    @property
    def rows(self) -> tuple[tuple[str, ...], ...]: ...


class DailyReceiptFacts(Protocol):
    @property
    def guild_name(self) -> str: ...
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


class DailyLateFacts(Protocol):
    @property
    def guild_name(self) -> str: ...
    @property
    def ended_at(self) -> datetime: ...
    @property
    def day_ends_at(self) -> datetime: ...


def day_label(day: str) -> str:
    """The club day as a date ("2026-03-08")."""
    return date.fromisoformat(day).isoformat()


def grid_alt_text(rows: Rows, day: str) -> str:
    text = _(
        "Daily Word Boggle grid of {day}, {side}x{side}. Letters, row by row: {letters}"
    ).format(day=day_label(day), side=len(rows), letters=letters_text(rows))
    return text[:ALT_TEXT_CHARS]


def grid_file(rows: Rows, day: str) -> FileSpec:
    """The day's grid image (drawn by the project's Boggle renderer)."""
    return FileSpec(
        GRID_RENDERER,
        {"rows": [list(r) for r in rows], "title": day_label(day), "round": f"daily-{day}"},
        grid_alt_text(rows, day),
    )


def daily_reply(info: DailyFacts, now: datetime) -> str:
    """``/boggle daily``: the grid, the member's own countdown, how to send words."""
    lines = [
        "🎲 "
        + _("**Daily Word Boggle — {day}** · {options}").format(
            day=day_label(info.day),
            options=describe_options(info.size, info.duration_s, info.min_length),
        )
    ]
    if now >= info.ends_at:
        lines.append(countdown_over(info.ends_at, info.day_ends_at))
    else:
        if info.again:
            lines.append(_("You opened today's grid already: same grid, same countdown."))
        lines.append(
            _("Your countdown ends {when} (at {time}).").format(
                when=relative_time(info.ends_at), time=absolute_time(info.ends_at, "T")
            )
        )
        lines.append(
            _("**DM me your words** or press **Submit words**: one list, counted until then.")
        )
    lines.append(
        _("Letters, row by row: {letters}").format(letters=f"**{letters_text(info.rows)}**")
    )
    lines.append(
        _("Results in the club's channel at midnight (club time), {when}.").format(
            when=relative_time(info.day_ends_at)
        )
    )
    return "\n".join(lines)


def countdown_over(ends_at: datetime, day_ends_at: datetime) -> str:
    return _(
        "Your countdown for today's grid ended {when}: one play a day. Results {results}."
    ).format(when=relative_time(ends_at), results=relative_time(day_ends_at))


def form_title(day: str) -> str:
    return _("Your words — daily grid {day}").format(day=day_label(day))[:45]


def receipt_line(receipt: DailyReceiptFacts) -> str:
    added = ngettext("{count} new word", "{count} new words", receipt.new_words).format(
        count=receipt.new_words
    )
    where = (
        _("today's grid in {club}").format(club=f"**{plain(receipt.guild_name)}**")
        if receipt.guild_name
        else _("today's grid")
    )
    line = _("✅ {added} — your list for {grid} has {total} (your countdown ends {when}).").format(
        added=added,
        grid=where,
        total=f"**{receipt.total_words}**",
        when=relative_time(receipt.ends_at),
    )
    if receipt.full:
        line += " " + _("Your list is full, so some words were not added.")
    return line


def late_line(note: DailyLateFacts) -> str:
    return _(
        "Sorry, your countdown for today's grid ended {when}, so these words were not "
        "counted. Results {results}."
    ).format(when=relative_time(note.ended_at), results=relative_time(note.day_ends_at))


def dm_lines(receipts: Sequence[DailyReceiptFacts], late: Sequence[DailyLateFacts]) -> list[str]:
    return [receipt_line(r) for r in receipts if not r.repeated] + [late_line(n) for n in late]


def results_content(day: str, summary: RoundSummary, streaks: Mapping[int, int]) -> str:
    rows = Grid.parse(summary["grid"]).rows
    lines = [
        "📋 " + _("**Daily Word Boggle — {day} results**").format(day=day_label(day)),
        _("Letters, row by row: {letters}").format(letters=letters_text(rows)),
        winner_line(summary),
    ]
    players = summary["players"]
    if players:
        ranked = []
        for p in players[:RANKED_IN_CONTENT]:
            days = streaks.get(p["id"], 0)
            streak = " 🔥" + str(days) if days > 1 else ""
            ranked.append(f"{p['rank']}. {plain(p['name'])} {p['total']:g}{streak}")
        ranking = " · ".join(ranked)
        more = len(players) - RANKED_IN_CONTENT
        if more > 0:
            ranking += " · " + _("…and {count} more").format(count=more)
        lines.append(_("Today: {ranking}").format(ranking=ranking))
    missed = shown_missed(summary)
    if missed:
        lines.append(
            _("Best words nobody found: {words}").format(
                words=" · ".join(f"{w.upper()} ({p})" for w, p in missed)
            )
        )
    lines.append(_("A new grid is ready: `/boggle daily`. 🔥 marks days in a row."))
    return clip("\n".join(lines), MESSAGE_CHARS)


def results_post(day: str, summary: RoundSummary, streaks: Mapping[int, int]) -> Post:
    """The day's results: the ranking, every list (scored, cancelled, …), the best words
    nobody found, and the grid."""
    embed = results_embed(summary)
    if embed is not None:
        embed["title"] = _("Daily grid {day} — every list").format(day=day_label(day))
    rows = Grid.parse(summary["grid"]).rows
    return Post(
        content=results_content(day, summary, streaks),
        embeds=(embed,) if embed is not None else (),
        files=(grid_file(rows, day),),
    )
