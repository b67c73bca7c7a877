"""A round's texts: the secret's DMs, the announcement whose timestamp starts
the clock, the host's private confirmation, what the referee posts (penalties,
the guess, time up, disqualification, what the event needs next), the flag an
audience message raises with the host, and the reply buttons' echo.

Only ``secret_dm`` and ``start_confirmation`` (private to the answerer or the
host) show a running round's secret; channel posts show it once it is over.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Protocol

from bot.messages.henyo.names import REPLY_EMOJI, category_text, safe, seconds
from bot.messages.text import relative_time
from engines.henyo import Reply, format_time


class Person(Protocol):
    @property
    def name(self) -> str: ...


class RoundCard(Protocol):
    """A prepared round, as its texts need it (``bot.services.henyo.PreparedRound``)."""

    @property
    def round_id(self) -> int: ...
    @property
    def channel_id(self) -> int: ...
    @property
    def title(self) -> str: ...
    @property
    def guesser(self) -> Person: ...
    @property
    def answerer(self) -> Person: ...
    @property
    def word(self) -> str: ...
    @property
    def category(self) -> str | None: ...
    @property
    def time_limit_ms(self) -> int: ...
    @property
    def penalty_ms(self) -> int: ...
    @property
    def planned_end(self) -> datetime: ...
    @property
    def host_set_word(self) -> bool: ...


# --------------------------------------------------------------------------- a round's start


def secret_dm(card: RoundCard, *, for_host: bool) -> str:
    """The secret and its category, for the answerer or the host (DM only)."""
    where = f"<#{card.channel_id}>"
    lines = [
        f"🤫 **Library Henyo — {card.title}** in {where}",
        f"The secret word is: **{safe(card.word)}**",
        f"Category: **{category_text(card.category)}**",
    ]
    if for_host:
        lines.append(
            f"You're hosting: **{safe(card.guesser.name)}** guesses, **{safe(card.answerer.name)}** answers."
        )
    else:
        lines.append(
            f"You're the answerer: in {where} reply only **Oo**, **Hindi** or **Pwede** (or press the buttons). "
            f"Anything else costs {seconds(card.penalty_ms)}. "
            f"Don't let **{safe(card.guesser.name)}** see this!"
        )
    return "\n".join(lines)


def announcement(card: RoundCard) -> str:
    """The channel post whose timestamp starts the clock. Never the secret."""
    return "\n".join(
        [
            f"🎯 **Library Henyo — {card.title}**",
            f"**{safe(card.guesser.name)}** guesses · **{safe(card.answerer.name)}** answers only "
            "**Oo**, **Hindi** or **Pwede** (or with the buttons below).",
            f"The answerer has the secret word. Time: **{seconds(card.time_limit_ms)}**, "
            f"ending {relative_time(card.planned_end)}. Any other reply from the answerer: "
            f"+{seconds(card.penalty_ms)}. Audience: no coaching, please!",
            "The clock is running — go!",
        ]
    )


def start_confirmation(card: RoundCard, ends_at: datetime, *, host_dm_failed: bool) -> str:
    """The host's private reply once the round is running."""
    lines = [
        f"Round #{card.round_id} is running: **{safe(card.guesser.name)}** guesses, "
        f"**{safe(card.answerer.name)}** answers. The clock ends {relative_time(ends_at)}.",
    ]
    if card.host_set_word:
        lines.append("The answerer has your word by DM.")  # never echoed back
    elif host_dm_failed:
        # The host's DMs are closed: this reply is private, so the secret can go here.
        lines.append(
            f"Your DMs are closed, so here is the secret: **{safe(card.word)}** ({category_text(card.category)})."
        )
    else:
        lines.append("I sent you and the answerer the secret word by DM.")
    lines.append(
        "Coaching from the audience is flagged to you; `/henyo disqualify` ends the round for the pair."
    )
    return "\n".join(lines)


def answerer_unreachable(answerer: str) -> str:
    return (
        f"I couldn't DM **{safe(answerer)}** (their DMs are closed), so they can't get the secret word "
        "and the round did **not** start. Ask them to allow direct messages from server members "
        "(Server → Privacy Settings), then run `/henyo start` again."
    )


def reply_text(reply: Reply, answerer: str) -> str:
    """The channel's echo of a reply button the answerer pressed."""
    return f"{REPLY_EMOJI[reply]} **{reply.label}** ({reply.meaning}) — {safe(answerer)}"


# --------------------------------------------------------------------------- the referee's posts


def penalty(answerer: str, penalty_ms: int, count: int) -> str:
    return (
        f"⏱️ Penalty: +{seconds(penalty_ms)} for **{safe(answerer)}** "
        f"(only Oo, Hindi or Pwede). Penalties so far: **{seconds(count * penalty_ms)}** ({count})."
    )


def guessed(
    guesser: str, word: str, *, elapsed_ms: int, penalties: int, penalty_ms: int, final_ms: int
) -> list[str]:
    return [
        f"🎉 **{safe(guesser)}** guessed it: **{safe(word)}**!",
        f"Time {format_time(elapsed_ms)} + penalties {seconds(penalties * penalty_ms)} ({penalties}) "
        f"= final time **{format_time(final_ms)}**.",
    ]


def time_up(
    pair: str, *, time_limit_ms: int, in_event: bool, word: str, category: str | None
) -> str:
    outcome = "are eliminated" if in_event else "ran out of time"
    shown_category = f" ({category})" if category else ""
    return (
        f"⌛ Time's up! **{safe(pair)}** didn't guess it in {seconds(time_limit_ms)} and "
        f"{outcome}. The word was **{safe(word)}**{shown_category}."
    )


def disqualified_in_round(pair: str, word: str) -> str:
    return f"🚫 **{safe(pair)}** are disqualified by the host (no coaching!). The word was **{safe(word)}**."


def could_not_start(round_id: int) -> str:
    """The watchdog's note for a round stored but never announced (the bot stopped)."""
    return (
        f"⚠️ Henyo round #{round_id} could not start (the bot was interrupted). "
        "The host can start it again with `/henyo start`."
    )


def next_up(position: int, label: str) -> str:
    return f"Next up: pair {position}, **{safe(label)}** (host: `/henyo start`)."


def tie_break(final_ms: int | None, labels: Sequence[str], level: int) -> str:
    pairs = " and ".join(f"**{safe(label)}**" for label in labels)
    again = "" if level == 1 else f" (tie-break {level})"
    return f"🤝 Tie at {format_time(final_ms)}: {pairs} play a tie-break word{again} — host: `/henyo start`."


EVERY_PAIR_PLAYED = "🏁 Every pair has played: see `/henyo standings`; the host ends the event with `/henyo event close`."


def audience_flag(
    *,
    round_id: int,
    pair: str,
    elapsed_ms: int,
    author_name: str,
    author_id: int,
    link: str,
    channel_id: int,
) -> tuple[str, str]:
    """The host's DM about an audience message, and what the channel sees instead
    when the host's DMs are closed (just the flag: no link that could quote a hint)."""
    author = f"**{safe(author_name)}**" if author_name else f"<@{author_id}>"
    content = (
        f"🚩 Audience message during Henyo round #{round_id} ({safe(pair)}) at {format_time(elapsed_ms)}: "
        f"{author} wrote in <#{channel_id}> — {link}\n"
        "If it was coaching, `/henyo disqualify` in that channel ends the round for the pair."
    )
    fallback = f"🚩 {author} posted during the round: host, please check (coaching is not allowed)."
    return content, fallback
