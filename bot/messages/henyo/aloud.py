"""Henyo played aloud: the channel's posts of a round the host referees in the room,
the host's console (its buttons and its text, private: Discord's ephemeral answer
or the phone page), and its refusals.

The console is the host's own, so it may show the secret (the host wrote the
card); it shows it behind a spoiler, so a glance over the host's shoulder does not
give it away. Channel posts never show it before the round is over.
"""

from __future__ import annotations

from datetime import datetime
from typing import Protocol

from bot.messages.henyo.names import category_text, safe, seconds
from bot.messages.henyo.rounds import RoundCard, polite_rule
from bot.messages.i18n import N_, _
from bot.messages.text import relative_time
from engines.henyo import format_time

# The console's buttons (Discord and the phone page).
START = N_("Start")
GOT_IT = N_("Got it")
COACHING = N_("Coaching")
UNDO_LAST = N_("Undo last")
SCREEN_WORD_ON = N_("Show the word on the screen")
SCREEN_WORD_OFF = N_("Hide the word from the screen")
OPEN_ON_PHONE = N_("Open the console on your phone")

# Refusals.
REFEREE_CHOICES = N_(
    "The referee is `typed` (the answerer types replies in the channel) or `host` "
    "(played aloud in the room: you press the console's buttons)."
)
NOT_ALOUD = N_("This round is refereed from the replies typed in the channel, not from a console.")
CONSOLE_HOST_ONLY = N_("Only the round's host or a moderator can use its console.")
ALREADY_COUNTED = N_(
    "That press was already counted (a double tap, or a press from your other device): "
    "the console now shows the round as it is. Press again if you meant another one."
)
ALREADY_STARTED = N_("The clock has already started.")
NOT_STARTED = N_("The clock hasn't started: press **Start** first.")
NOTHING_TO_UNDO = N_("There is no press to undo.")
UNDO_TOO_LATE = N_("Too late to undo: the next round has started.")
UNDO_EVENT_CLOSED = N_("Too late to undo: the event is closed.")
UNDO_TIMED_OUT = N_("The round ended by time: there is no press to undo.")
NO_ALOUD_ROUND = N_(
    "No round played aloud in this channel: start one with `/henyo start referee:host`."
)
UNKNOWN_PRESS = N_("The console has no such button.")

PRESS_NAMES = {
    "start": START,
    "got_it": GOT_IT,
    "coaching": COACHING,
    "undo": UNDO_LAST,
}


def penalty_label(penalty_ms: int) -> str:
    """The +5 s button: a reply other than Oo, Hindi or Pwede."""
    return _("+{penalty}").format(penalty=seconds(penalty_ms))


def press_name(action: str, penalty_ms: int) -> str:
    """A press as the console names it."""
    if action == "penalty":
        return penalty_label(penalty_ms)
    return _(PRESS_NAMES[action])


class Person(Protocol):
    @property
    def name(self) -> str: ...


class Console(Protocol):
    """The host's console (``bot.services.henyo.ConsoleView``), as its texts need it."""

    @property
    def round_id(self) -> int: ...
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
    def status(self) -> str: ...
    @property
    def started_at(self) -> datetime | None: ...
    @property
    def ends_at(self) -> datetime | None: ...
    @property
    def penalties(self) -> int: ...
    @property
    def penalty_ms(self) -> int: ...
    @property
    def elapsed_ms(self) -> int | None: ...
    @property
    def final_ms(self) -> int | None: ...
    @property
    def show_word_on_screen(self) -> bool: ...


# --------------------------------------------------------------------------- the channel


def announcement(card: RoundCard) -> str:
    """The channel's post of a round played aloud: the clock starts with the host's Start.
    Never the secret."""
    return "\n".join(
        [
            "🎯 " + _("**Library Henyo — {title}** (played aloud)").format(title=card.title),
            _(
                "{guesser} guesses · {answerer} answers aloud only **Oo**, **Hindi** or "
                "**Pwede**. The host referees in the room."
            ).format(
                guesser=f"**{safe(card.guesser.name)}**", answerer=f"**{safe(card.answerer.name)}**"
            ),
            polite_rule(strict=card.strict),
            _(
                "Time: {time} from the host's **Start**. Any other reply from the answerer: "
                "+{penalty}. Audience: no coaching, please!"
            ).format(time=f"**{seconds(card.time_limit_ms)}**", penalty=seconds(card.penalty_ms)),
        ]
    )


def clock_started(pair: str, time_limit_ms: int, ends_at: datetime) -> str:
    return "⏱️ " + _("Go! The clock is running for {pair}: {time}, ending {when}.").format(
        pair=f"**{safe(pair)}**", time=seconds(time_limit_ms), when=relative_time(ends_at)
    )


def start_undone(pair: str) -> str:
    return "↩️ " + _(
        "The host took back the start: {pair} wait for a new **Start** (the clock is reset)."
    ).format(pair=f"**{safe(pair)}**")


def penalty_undone(penalty_ms: int, count: int) -> str:
    return "↩️ " + _("The host took back a penalty. Penalties so far: {total} ({count}).").format(
        total=f"**{seconds(count * penalty_ms)}**", count=count
    )


def called_off(title: str, pair: str) -> str:
    """Undo last before the Start, with nothing pressed: the round is taken back."""
    return "↩️ " + _("The host called off {title} ({pair}) before its start.").format(
        title=title, pair=f"**{safe(pair)}**"
    )


def end_undone(pair: str, action: str) -> str:
    """The host took back Got it or Coaching: the round goes on, its result struck off."""
    return "↩️ " + _(
        "The host took back **{press}**: that result is struck off and {pair} play on, "
        "the clock still running from the start."
    ).format(press=_(PRESS_NAMES[action]), pair=f"**{safe(pair)}**")


# --------------------------------------------------------------------------- the console


def console_text(view: Console) -> str:
    """The host's console in Discord (an ephemeral answer): the round, the secret behind
    a spoiler, the clock and the penalties."""
    lines = [
        "🎛️ "
        + _("**Host console — {title}** (round #{id})").format(title=view.title, id=view.round_id),
        _("{guesser} guesses · {answerer} answers").format(
            guesser=f"**{safe(view.guesser.name)}**", answerer=f"**{safe(view.answerer.name)}**"
        ),
        _("The secret: {word} ({category})").format(
            word=f"||{safe(view.word)}||", category=category_text(view.category)
        ),
        status_line(view, discord=True),
        screen_line(view.show_word_on_screen),
    ]
    return "\n".join(lines)


def status_line(view: Console, *, discord: bool) -> str:
    """Where the round is, for the host (``discord``: with Discord's relative times)."""
    penalties = _("Penalties: {count} (+{total}).").format(
        count=view.penalties, total=seconds(view.penalties * view.penalty_ms)
    )
    if view.status in ("ready", "waiting"):
        return _("Waiting for your **Start**.")
    if view.status == "running":
        if discord and view.started_at is not None and view.ends_at is not None:
            return (
                _("The clock started {start} and ends {end}.").format(
                    start=relative_time(view.started_at), end=relative_time(view.ends_at)
                )
                + " "
                + penalties
            )
        return _("The clock is running.") + " " + penalties
    if view.status == "guessed":
        return _("Got it in {time} + penalties {penalties} ({count}) = **{final}**.").format(
            time=format_time(view.elapsed_ms),
            penalties=format_time(view.penalties * view.penalty_ms),
            count=view.penalties,
            final=format_time(view.final_ms),
        )
    if view.status == "timed_out":
        return _("Time's up: not guessed.") + " " + penalties
    if view.status == "disqualified":
        return _("Disqualified for coaching.")
    return _("This round was cancelled.")


def screen_line(shown: bool) -> str:
    if shown:
        return _("The room's screen shows the word (the guesser must not look).")
    return _("The room's screen keeps the word hidden.")
