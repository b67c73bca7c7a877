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

from bot.messages.henyo.names import (
    REPLY_EMOJI,
    category_text,
    reply_label,
    reply_meaning,
    safe,
    seconds,
)
from bot.messages.i18n import N_, _
from bot.messages.text import relative_time
from engines.henyo import POLITE_FORMS, Reply, format_time


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
    @property
    def strict(self) -> bool: ...


def polite_rule(*, strict: bool) -> str:
    """Whether the polite forms (Opo, Oo po, Hindi po, Pwede po) count as replies."""
    forms = ", ".join(f"**{form}**" for form in POLITE_FORMS)
    if strict:
        return _("Bare words only: {forms} cost a penalty like any other reply.").format(
            forms=forms
        )
    return _("Polite is fine: {forms} count the same as the bare words.").format(forms=forms)


# --------------------------------------------------------------------------- a round's start


def secret_dm(card: RoundCard, *, for_host: bool) -> str:
    """The secret and its category, for the answerer or the host (DM only)."""
    where = f"<#{card.channel_id}>"
    lines = [
        "🤫 "
        + _("**Library Henyo — {title}** in {channel}").format(title=card.title, channel=where),
        _("The secret word is: {word}").format(word=f"**{safe(card.word)}**"),
        _("Category: {category}").format(category=f"**{category_text(card.category)}**"),
    ]
    if for_host:
        lines.append(
            _("You're hosting: {guesser} guesses, {answerer} answers.").format(
                guesser=f"**{safe(card.guesser.name)}**", answerer=f"**{safe(card.answerer.name)}**"
            )
        )
    else:
        lines.append(
            _(
                "You're the answerer: in {channel} reply only **Oo**, **Hindi** or **Pwede** "
                "(or press the buttons). Anything else costs {penalty}. "
                "Don't let {guesser} see this!"
            ).format(
                channel=where,
                penalty=seconds(card.penalty_ms),
                guesser=f"**{safe(card.guesser.name)}**",
            )
        )
        lines.append(polite_rule(strict=card.strict))
    return "\n".join(lines)


def announcement(card: RoundCard) -> str:
    """The channel post whose timestamp starts the clock. Never the secret."""
    return "\n".join(
        [
            "🎯 " + _("**Library Henyo — {title}**").format(title=card.title),
            _(
                "{guesser} guesses · {answerer} answers only "
                "**Oo**, **Hindi** or **Pwede** (or with the buttons below)."
            ).format(
                guesser=f"**{safe(card.guesser.name)}**", answerer=f"**{safe(card.answerer.name)}**"
            ),
            polite_rule(strict=card.strict),
            _(
                "The answerer has the secret word. Time: {time}, ending {when}. "
                "Any other reply from the answerer: +{penalty}. Audience: no coaching, please!"
            ).format(
                time=f"**{seconds(card.time_limit_ms)}**",
                when=relative_time(card.planned_end),
                penalty=seconds(card.penalty_ms),
            ),
            _("The clock is running — go!"),
        ]
    )


def start_confirmation(card: RoundCard, ends_at: datetime, *, host_dm_failed: bool) -> str:
    """The host's private reply once the round is running."""
    lines = [
        _(
            "Round #{id} is running: {guesser} guesses, {answerer} answers. The clock ends {when}."
        ).format(
            id=card.round_id,
            guesser=f"**{safe(card.guesser.name)}**",
            answerer=f"**{safe(card.answerer.name)}**",
            when=relative_time(ends_at),
        ),
    ]
    if card.host_set_word:
        lines.append(_("The answerer has your word by DM."))  # never echoed back
    elif host_dm_failed:
        # The host's DMs are closed: this reply is private, so the secret can go here.
        lines.append(
            _("Your DMs are closed, so here is the secret: {word} ({category}).").format(
                word=f"**{safe(card.word)}**", category=category_text(card.category)
            )
        )
    else:
        lines.append(_("I sent you and the answerer the secret word by DM."))
    lines.append(
        _(
            "Coaching from the audience is flagged to you; "
            "`/henyo disqualify` ends the round for the pair."
        )
    )
    return "\n".join(lines)


def answerer_unreachable(answerer: str) -> str:
    return _(
        "I couldn't DM {answerer} (their DMs are closed), so they can't get the secret word "
        "and the round did **not** start. Ask them to allow direct messages from server members "
        "(Server → Privacy Settings), then run `/henyo start` again."
    ).format(answerer=f"**{safe(answerer)}**")


def reply_text(reply: Reply, answerer: str) -> str:
    """The channel's echo of a reply button the answerer pressed."""
    return _("{emoji} {reply} ({meaning}) — {answerer}").format(
        emoji=REPLY_EMOJI[reply],
        reply=f"**{reply_label(reply)}**",
        meaning=reply_meaning(reply),
        answerer=safe(answerer),
    )


# --------------------------------------------------------------------------- the referee's posts


def penalty(answerer: str, penalty_ms: int, count: int, *, strict: bool = False) -> str:
    if strict:
        text = _(
            "Penalty: +{penalty} for {answerer} (only Oo, Hindi or Pwede: bare words only). "
            "Penalties so far: {total} ({count})."
        )
    else:
        text = _(
            "Penalty: +{penalty} for {answerer} (only Oo, Hindi or Pwede; "
            "Opo and the po forms count too). Penalties so far: {total} ({count})."
        )
    return "⏱️ " + text.format(
        penalty=seconds(penalty_ms),
        answerer=f"**{safe(answerer)}**",
        total=f"**{seconds(count * penalty_ms)}**",
        count=count,
    )


def guessed(
    guesser: str, word: str, *, elapsed_ms: int, penalties: int, penalty_ms: int, final_ms: int
) -> list[str]:
    return [
        "🎉 "
        + _("{guesser} guessed it: {word}!").format(
            guesser=f"**{safe(guesser)}**", word=f"**{safe(word)}**"
        ),
        _("Time {time} + penalties {penalties} ({count}) = final time {final}.").format(
            time=format_time(elapsed_ms),
            # one reading for the three times of the line: 14.0 s + 5.0 s = 19.0 s
            penalties=format_time(penalties * penalty_ms),
            count=penalties,
            final=f"**{format_time(final_ms)}**",
        ),
    ]


def time_up(
    pair: str, *, time_limit_ms: int, in_event: bool, word: str, category: str | None
) -> str:
    if in_event:
        text = _("Time's up! {pair} didn't guess it in {time} and are eliminated.")
    else:
        text = _("Time's up! {pair} didn't guess it in {time} and ran out of time.")
    shown = f"**{safe(word)}**"
    if category:
        the_word = _("The word was {word} ({category}).").format(word=shown, category=category)
    else:
        the_word = _("The word was {word}.").format(word=shown)
    return (
        "⌛ " + text.format(pair=f"**{safe(pair)}**", time=seconds(time_limit_ms)) + " " + the_word
    )


def disqualified_in_round(pair: str, word: str) -> str:
    return "🚫 " + _(
        "{pair} are disqualified by the host (no coaching!). The word was {word}."
    ).format(pair=f"**{safe(pair)}**", word=f"**{safe(word)}**")


def could_not_start(round_id: int) -> str:
    """The watchdog's note for a round stored but never announced (the bot stopped)."""
    return "⚠️ " + _(
        "Henyo round #{id} could not start (the bot was interrupted). "
        "The host can start it again with `/henyo start`."
    ).format(id=round_id)


def next_up(position: int, label: str) -> str:
    return _("Next up: pair {number}, {pair} (host: `/henyo start`).").format(
        number=position, pair=f"**{safe(label)}**"
    )


def tie_break(final_ms: int | None, labels: Sequence[str], level: int) -> str:
    pairs = _and([f"**{safe(label)}**" for label in labels])
    if level == 1:
        text = _("Tie at {time}: {pairs} play a tie-break word — host: `/henyo start`.")
    else:
        text = _(
            "Tie at {time}: {pairs} play a tie-break word (tie-break {level}) — host: `/henyo start`."
        )
    return "🤝 " + text.format(time=format_time(final_ms), pairs=pairs, level=level)


def _and(items: Sequence[str]) -> str:
    return _(" and ").join(items)


EVERY_PAIR_PLAYED = N_(
    "🏁 Every pair has played: see `/henyo standings`; "
    "the host ends the event with `/henyo event close`."
)


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
        "🚩 "
        + _(
            "Audience message during Henyo round #{id} ({pair}) at {time}: "
            "{author} wrote in {channel} — {link}"
        ).format(
            id=round_id,
            pair=safe(pair),
            time=format_time(elapsed_ms),
            author=author,
            channel=f"<#{channel_id}>",
            link=link,
        )
        + "\n"
        + _("If it was coaching, `/henyo disqualify` in that channel ends the round for the pair.")
    )
    fallback = "🚩 " + _(
        "{author} posted during the round: host, please check (coaching is not allowed)."
    ).format(author=author)
    return content, fallback
