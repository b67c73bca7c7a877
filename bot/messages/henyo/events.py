"""An event's texts: the live registration list, the standings table (its
plain lines are also what screen readers get), the word bank's listing, and
the private answers to registering, withdrawing, disqualifying and closing.

Embeds are built as ``Card``s within Discord's limits; ``bot.ui.henyo`` draws them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from bot.messages.henyo.names import Card, language_text, safe, seconds
from bot.messages.henyo.rounds import Person, polite_rule
from bot.messages.i18n import N_, _, ngettext
from bot.messages.limits import EMBED_FIELD_VALUE_CHARS, EMBEDS_PER_MESSAGE, EMBEDS_TOTAL_CHARS
from engines.henyo import ANY_LANGUAGE, WordEntry, format_time

# A margin below Discord's limit over all embeds of one message.
EMBEDS_TOTAL_BUDGET = EMBEDS_TOTAL_CHARS - 200
DESCRIPTION_BUDGET = 4000
BUILTIN_LIST_BUDGET = 1500


class Pair(Protocol):
    @property
    def number(self) -> int: ...
    @property
    def label(self) -> str: ...
    @property
    def status(self) -> str: ...


class Event(Protocol):
    """An event as its texts need it (``bot.services.henyo.EventSnapshot``)."""

    @property
    def id(self) -> int: ...
    @property
    def host(self) -> Person: ...
    @property
    def status(self) -> str: ...
    @property
    def pairs(self) -> int: ...
    @property
    def time_limit_ms(self) -> int: ...
    @property
    def penalty_ms(self) -> int: ...
    @property
    def categories(self) -> tuple[str, ...]: ...
    @property
    def language(self) -> str: ...
    @property
    def strict(self) -> bool: ...
    @property
    def playing(self) -> Sequence[Pair]: ...
    @property
    def waiting(self) -> Sequence[Pair]: ...


class Row(Protocol):
    @property
    def team(self) -> Pair: ...
    @property
    def status(self) -> str: ...
    @property
    def place(self) -> int | None: ...
    @property
    def tied(self) -> bool: ...
    @property
    def final_ms(self) -> int | None: ...
    @property
    def elapsed_ms(self) -> int | None: ...
    @property
    def penalties(self) -> int: ...
    @property
    def tiebreaks(self) -> tuple[int | None, ...]: ...


class Tie(Protocol):
    @property
    def level(self) -> int: ...
    @property
    def teams(self) -> Sequence[Pair]: ...
    @property
    def final_ms(self) -> int | None: ...


class Table(Protocol):
    """An event's standings (``bot.services.henyo.Standings``)."""

    @property
    def event(self) -> Event: ...
    @property
    def rows(self) -> Sequence[Row]: ...
    @property
    def ties(self) -> Sequence[Tie]: ...
    @property
    def complete(self) -> bool: ...
    @property
    def leaders(self) -> Sequence[Pair]: ...


class Words(Protocol):
    """The word bank's listing (``bot.services.henyo.WordList``)."""

    @property
    def club_words(self) -> Sequence[WordEntry]: ...
    @property
    def removed_builtin(self) -> Sequence[WordEntry]: ...
    @property
    def builtin(self) -> Sequence[WordEntry]: ...
    @property
    def builtin_count(self) -> int: ...


def _value(lines: Sequence[str]) -> str:
    return "\n".join(lines)[:EMBED_FIELD_VALUE_CHARS]


# --------------------------------------------------------------------------- posted for the event


def moved_up(label: str, number: int) -> str:
    return "⬆️ " + _("{pair} move up from the waiting list: they play as pair {number}.").format(
        pair=f"**{safe(label)}**", number=number
    )


def moved_up_dm(label: str, number: int, event_id: int, channel_id: int) -> tuple[str, str]:
    """What each member of a pair that moved up is told: the DM, and the line
    posted after a mention of only that member when their DMs are closed."""
    dm = "⬆️ " + _(
        "Your pair {pair} moved up from the waiting list of Library Henyo "
        "event #{id}: you play as pair {number}. Watch {channel} for your turn."
    ).format(pair=f"**{safe(label)}**", id=event_id, number=number, channel=f"<#{channel_id}>")
    fallback = _(
        "your pair {pair} moved up from the waiting list: you play as pair {number}."
    ).format(pair=f"**{safe(label)}**", number=number)
    return dm, fallback


def disqualified_pair(label: str) -> str:
    return "🚫 " + _("{pair} are disqualified by the host.").format(pair=f"**{safe(label)}**")


def settings_line(event: Event) -> str:
    language = (
        _("Filipino and English")
        if event.language == ANY_LANGUAGE
        else language_text(event.language)
    )
    return "\n".join(
        (
            _(
                "Host: {host} · {pairs} playing pairs · time limit {time_limit} · penalty {penalty}"
            ).format(
                host=f"**{safe(event.host.name)}**",
                pairs=event.pairs,
                time_limit=seconds(event.time_limit_ms),
                penalty=seconds(event.penalty_ms),
            ),
            _("Categories: {categories} · words in {language}").format(
                categories=", ".join(event.categories), language=language
            ),
            polite_rule(strict=event.strict),
        )
    )


def registration_card(event: Event) -> Card:
    """The live registration list (edited on every registration or withdrawal)."""
    if event.status == "open":
        title = _("Library Henyo — event #{id} (registration open)")
    else:
        title = _("Library Henyo — event #{id} (closed)")
    disqualified = " — " + _("disqualified")
    playing = [
        f"{t.number}. {safe(t.label)}" + (disqualified if t.status == "disqualified" else "")
        for t in event.playing
    ]
    fields = [
        (
            _("Playing ({count}/{pairs})").format(count=len(event.playing), pairs=event.pairs),
            _value(playing) or _("Nobody yet: `/henyo register partner:@member`"),
        )
    ]
    if event.waiting:
        waiting = [f"{t.number}. {safe(t.label)}" for t in event.waiting]
        fields.append((_("Waiting list"), _value(waiting)))
    return Card(
        title=title.format(id=event.id),
        description=settings_line(event),
        fields=tuple(fields),
        footer=_(
            "Guesser & answerer. Join: /henyo register partner:@member · leave: /henyo withdraw"
        ),
    )


def _row_text(row: Row) -> str:
    name = safe(row.team.label)
    if row.status == "ranked":
        detail = format_time(row.final_ms)
        if row.penalties:
            penalties = ngettext(
                "{time} + {count} penalty", "{time} + {count} penalties", row.penalties
            ).format(time=format_time(row.elapsed_ms), count=row.penalties)
            detail += f" ({penalties})"
        if row.tiebreaks:
            times = ", ".join(
                format_time(ms) if ms is not None else _("time up") for ms in row.tiebreaks
            )
            detail += " · " + _("tie-break {times}").format(times=times)
        tie = " " + _("(tied)") if row.tied else ""
        return f"**{row.place}.** {name} — **{detail}**{tie}"
    label = {
        "eliminated": N_("eliminated (time up)"),
        "disqualified": N_("disqualified"),
        "not_played": N_("yet to play"),
    }[row.status]
    return f"– {name} — {_(label)}"


def standings_text(table: Table) -> str:
    """The table in plain lines (also what screen readers get)."""
    lines = [_row_text(row) for row in table.rows] or [_("No pair has registered yet.")]
    for tie in table.ties:
        teams = _(" and ").join(safe(t.label) for t in tie.teams)
        if tie.level == 1:
            text = _("Tied at {time}: {pairs} play a tie-break word.")
        else:
            text = _("Tied at {time}: {pairs} play tie-break word {level}.")
        lines.append(
            "🤝 " + text.format(time=format_time(tie.final_ms), pairs=teams, level=tie.level)
        )
    if table.event.status == "closed" and len(table.leaders) == 1:
        lines.append(
            "🏆 " + _("Winners: {pair}").format(pair=f"**{safe(table.leaders[0].label)}**")
        )
    elif table.complete and table.rows and table.leaders:
        lines.append(
            "🏆 " + _("Leading: {pair}").format(pair=f"**{safe(table.leaders[0].label)}**")
        )
    return "\n".join(lines)


def standings_card(table: Table) -> Card:
    event = table.event
    if event.status == "open":
        title = _("Library Henyo — event #{id} standings (open)")
    else:
        title = _("Library Henyo — event #{id} standings (closed)")
    fields = []
    if event.waiting:
        fields.append((_("Waiting list"), _value([safe(t.label) for t in event.waiting])))
    return Card(
        title=title.format(id=event.id),
        description=standings_text(table)[:DESCRIPTION_BUDGET],
        fields=tuple(fields),
        footer=_(
            "Final time = time to guess + penalties, to the tenth of a second. Shortest wins."
        ),
    )


def word_list_cards(words: Words) -> list[Card]:
    """The club's words (private to the host), in at most ten embeds within Discord's limits."""
    club = ", ".join(f"{safe(w.text)} ({w.category}, {w.language})" for w in words.club_words)
    fields = []
    if words.removed_builtin:
        removed = ", ".join(safe(w.text) for w in words.removed_builtin)
        fields.append((_("Built-in words taken out"), removed[:EMBED_FIELD_VALUE_CHARS]))
    cards = [
        Card(
            title=_("Henyo words — the club's own"),
            description=(club or _("None added yet."))[:DESCRIPTION_BUDGET],
            fields=tuple(fields),
            footer=_(
                "{count} built-in words in use · add: /henyo words add · remove: /henyo words remove"
            ).format(count=words.builtin_count),
        )
    ]
    by_category: dict[str, list[str]] = {}
    for w in words.builtin:
        by_category.setdefault(f"{w.category} · {language_text(w.language)}", []).append(
            safe(w.text)
        )
    for title, items in list(by_category.items())[: EMBEDS_PER_MESSAGE - 1]:
        cards.append(
            Card(
                title=_("Built-in: {title}").format(title=title),
                description=", ".join(items)[:BUILTIN_LIST_BUDGET],
            )
        )
    while sum(len(c) for c in cards) > EMBEDS_TOTAL_BUDGET and len(cards) > 1:
        cards.pop()
    return cards


# --------------------------------------------------------------------------- private answers


CLOSE_LIST_CHARS = 1500


def close_needs_confirmation(
    event_id: int, not_played: Sequence[Pair], tie_break: Sequence[Pair] = ()
) -> str:
    """To the host only: the pairs still to play (their word, or a tie-break word),
    and what closing now means."""
    parts = [_("Event #{id} is not finished.").format(id=event_id)]
    if not_played:
        count = len(not_played)
        parts.append(
            ngettext(
                "{count} pair has not played yet:", "{count} pairs have not played yet:", count
            ).format(count=count)
        )
        parts.extend(f"{t.number}. **{safe(t.label)}**" for t in not_played)
    if tie_break:
        parts.append(_("Still to play a tie-break word:"))
        parts.extend(f"{t.number}. **{safe(t.label)}**" for t in tie_break)
    lines = "\n".join(parts)
    if len(lines) > CLOSE_LIST_CHARS:
        lines = lines[:CLOSE_LIST_CHARS].rsplit("\n", 1)[0] + "\n…"
    return (
        lines
        + "\n"
        + _(
            "Close it anyway? Pairs that have not played are shown as not played, "
            "and a closed event can't be reopened."
        )
    )


CLOSE_ANYWAY = N_("Close the event anyway")


def closed_as_confirmed(event_id: int) -> str:
    return _("Event #{id} is closed, as you confirmed.").format(id=event_id)


def event_closed(event_id: int, winner: str | None, *, tie_unbroken: bool) -> str:
    if winner is not None:
        return "🏆 " + _("Event #{id} is over. Winners: {pair}!").format(
            id=event_id, pair=f"**{safe(winner)}**"
        )
    if tie_unbroken:
        return _("Event #{id} is over, with a tie for first place still unbroken.").format(
            id=event_id
        )
    return _("Event #{id} is over: no pair guessed its word.").format(id=event_id)


def registered(label: str, number: int, *, waiting: bool) -> str:
    """``number``: the pair's place in the playing list, or on the waiting list."""
    if waiting:
        return _(
            "Registered: {pair} (guesser & answerer), on the waiting list (#{number}). "
            "If a playing pair withdraws you move up, and you'll both be told."
        ).format(pair=f"**{safe(label)}**", number=number)
    return _("Registered: {pair} (guesser & answerer), pair {number} — playing.").format(
        pair=f"**{safe(label)}**", number=number
    )


def withdrew(label: str, event_id: int, moved_up: str | None) -> str:
    text = _("{pair} withdrew from event #{id}.").format(pair=f"**{safe(label)}**", id=event_id)
    if moved_up is not None:
        text += " " + _("{pair} move up from the waiting list.").format(pair=safe(moved_up))
    return text


def round_disqualified(round_id: int) -> str:
    return _("Round #{id} ended: the pair is disqualified.").format(id=round_id)


def pair_disqualified(label: str) -> str:
    return _("{pair} are disqualified.").format(pair=f"**{safe(label)}**")


def word_added(word: WordEntry) -> str:
    return _("Added {word} ({category}, {language}).").format(
        word=f"**{safe(word.text)}**", category=word.category, language=word.language
    )


def word_removed(word: WordEntry) -> str:
    return _("Removed {word}.").format(word=f"**{safe(word.text)}**")
