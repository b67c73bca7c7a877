"""An event's texts: the live registration list, the standings table (its
plain lines are also what screen readers get), the word bank's listing, and
the private answers to registering, withdrawing, disqualifying and closing.

Embeds are built as ``Card``s within Discord's limits; ``bot.ui.henyo`` draws them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from bot.messages.henyo.names import Card, language_text, safe, seconds
from bot.messages.henyo.rounds import Person
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
    """An event as its texts need it (``bot.services.henyo.EventView``)."""

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
    return f"⬆️ **{safe(label)}** move up from the waiting list: they play as pair {number}."


def moved_up_dm(label: str, number: int, event_id: int, channel_id: int) -> tuple[str, str]:
    """What each member of a pair that moved up is told: the DM, and the line
    posted after a mention of only that member when their DMs are closed."""
    dm = (
        f"⬆️ Your pair **{safe(label)}** moved up from the waiting list of Library Henyo "
        f"event #{event_id}: you play as pair {number}. Watch <#{channel_id}> for your turn."
    )
    fallback = (
        f"your pair **{safe(label)}** moved up from the waiting list: you play as pair {number}."
    )
    return dm, fallback


def disqualified_pair(label: str) -> str:
    return f"🚫 **{safe(label)}** are disqualified by the host."


def settings_line(event: Event) -> str:
    language = (
        "Filipino and English" if event.language == ANY_LANGUAGE else language_text(event.language)
    )
    return (
        f"Host: **{safe(event.host.name)}** · {event.pairs} playing pairs · time limit "
        f"{seconds(event.time_limit_ms)} · penalty {seconds(event.penalty_ms)}\n"
        f"Categories: {', '.join(event.categories)} · words in {language}"
    )


def registration_card(event: Event) -> Card:
    """The live registration list (edited on every registration or withdrawal)."""
    state = "registration open" if event.status == "open" else "closed"
    playing = [
        f"{t.number}. {safe(t.label)}" + (" — disqualified" if t.status == "disqualified" else "")
        for t in event.playing
    ]
    fields = [
        (
            f"Playing ({len(event.playing)}/{event.pairs})",
            _value(playing) or "Nobody yet: `/henyo register partner:@member`",
        )
    ]
    if event.waiting:
        waiting = [f"{t.number}. {safe(t.label)}" for t in event.waiting]
        fields.append(("Waiting list", _value(waiting)))
    return Card(
        title=f"Library Henyo — event #{event.id} ({state})",
        description=settings_line(event),
        fields=tuple(fields),
        footer="Guesser & answerer. Join: /henyo register partner:@member · leave: /henyo withdraw",
    )


def _row_text(row: Row) -> str:
    name = safe(row.team.label)
    if row.status == "ranked":
        detail = format_time(row.final_ms)
        if row.penalties:
            detail += f" ({format_time(row.elapsed_ms)} + {row.penalties} penalt{'y' if row.penalties == 1 else 'ies'})"
        if row.tiebreaks:
            detail += " · tie-break " + ", ".join(
                format_time(ms) if ms is not None else "time up" for ms in row.tiebreaks
            )
        tie = " (tied)" if row.tied else ""
        return f"**{row.place}.** {name} — **{detail}**{tie}"
    label = {
        "eliminated": "eliminated (time up)",
        "disqualified": "disqualified",
        "not_played": "yet to play",
    }[row.status]
    return f"– {name} — {label}"


def standings_text(table: Table) -> str:
    """The table in plain lines (also what screen readers get)."""
    lines = [_row_text(row) for row in table.rows] or ["No pair has registered yet."]
    for tie in table.ties:
        teams = " and ".join(safe(t.label) for t in tie.teams)
        level = "a tie-break word" if tie.level == 1 else f"tie-break word {tie.level}"
        lines.append(f"🤝 Tied at {format_time(tie.final_ms)}: {teams} play {level}.")
    if table.event.status == "closed" and len(table.leaders) == 1:
        lines.append(f"🏆 Winners: **{safe(table.leaders[0].label)}**")
    elif table.complete and table.rows and table.leaders:
        lines.append(f"🏆 Leading: **{safe(table.leaders[0].label)}**")
    return "\n".join(lines)


def standings_card(table: Table) -> Card:
    event = table.event
    state = "open" if event.status == "open" else "closed"
    fields = []
    if event.waiting:
        fields.append(("Waiting list", _value([safe(t.label) for t in event.waiting])))
    return Card(
        title=f"Library Henyo — event #{event.id} standings ({state})",
        description=standings_text(table)[:DESCRIPTION_BUDGET],
        fields=tuple(fields),
        footer="Final time = time to guess + penalties, to the tenth of a second. Shortest wins.",
    )


def word_list_cards(words: Words) -> list[Card]:
    """The club's words (private to the host), in at most ten embeds within Discord's limits."""
    club = ", ".join(f"{safe(w.text)} ({w.category}, {w.language})" for w in words.club_words)
    fields = []
    if words.removed_builtin:
        removed = ", ".join(safe(w.text) for w in words.removed_builtin)
        fields.append(("Built-in words taken out", removed[:EMBED_FIELD_VALUE_CHARS]))
    cards = [
        Card(
            title="Henyo words — the club's own",
            description=(club or "None added yet.")[:DESCRIPTION_BUDGET],
            fields=tuple(fields),
            footer=f"{words.builtin_count} built-in words in use · add: /henyo words add · remove: /henyo words remove",
        )
    ]
    by_category: dict[str, list[str]] = {}
    for w in words.builtin:
        by_category.setdefault(f"{w.category} · {language_text(w.language)}", []).append(
            safe(w.text)
        )
    for title, items in list(by_category.items())[: EMBEDS_PER_MESSAGE - 1]:
        cards.append(
            Card(title=f"Built-in: {title}", description=", ".join(items)[:BUILTIN_LIST_BUDGET])
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
    parts = [f"Event #{event_id} is not finished."]
    if not_played:
        count = len(not_played)
        pairs = "1 pair has" if count == 1 else f"{count} pairs have"
        parts.append(f"{pairs} not played yet:")
        parts.extend(f"{t.number}. **{safe(t.label)}**" for t in not_played)
    if tie_break:
        parts.append("Still to play a tie-break word:")
        parts.extend(f"{t.number}. **{safe(t.label)}**" for t in tie_break)
    lines = "\n".join(parts)
    if len(lines) > CLOSE_LIST_CHARS:
        lines = lines[:CLOSE_LIST_CHARS].rsplit("\n", 1)[0] + "\n…"
    return (
        f"{lines}\nClose it anyway? Pairs that have not played are shown as not played, "
        "and a closed event can't be reopened."
    )


CLOSE_ANYWAY = "Close the event anyway"


def closed_as_confirmed(event_id: int) -> str:
    return f"Event #{event_id} is closed, as you confirmed."


def event_closed(event_id: int, winner: str | None, *, tie_unbroken: bool) -> str:
    if winner is not None:
        return f"🏆 Event #{event_id} is over. Winners: **{safe(winner)}**!"
    if tie_unbroken:
        return f"Event #{event_id} is over, with a tie for first place still unbroken."
    return f"Event #{event_id} is over: no pair guessed its word."


def registered(label: str, number: int, *, waiting: bool) -> str:
    """``number``: the pair's place in the playing list, or on the waiting list."""
    if waiting:
        return (
            f"Registered: **{safe(label)}** (guesser & answerer), on the waiting list (#{number}). "
            "If a playing pair withdraws you move up, and you'll both be told."
        )
    return f"Registered: **{safe(label)}** (guesser & answerer), pair {number} — playing."


def withdrew(label: str, event_id: int, moved_up: str | None) -> str:
    text = f"**{safe(label)}** withdrew from event #{event_id}."
    if moved_up is not None:
        text += f" {safe(moved_up)} move up from the waiting list."
    return text


def round_disqualified(round_id: int) -> str:
    return f"Round #{round_id} ended: the pair is disqualified."


def pair_disqualified(label: str) -> str:
    return f"**{safe(label)}** are disqualified."


def word_added(word: WordEntry) -> str:
    return f"Added **{safe(word.text)}** ({word.category}, {word.language})."


def word_removed(word: WordEntry) -> str:
    return f"Removed **{safe(word.text)}**."
