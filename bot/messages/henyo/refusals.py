"""Henyo's refusals: why a command can't be done, fit to show the member privately.

The constants are message ids (``N_``): raised as they are, the error handler
writes them in the club's language."""

from __future__ import annotations

from collections.abc import Sequence

from bot.messages.i18n import N_, _
from bot.messages.text import plain


def channel_has_an_event(host_id: int) -> str:
    """One open event per channel: the host is named so members know whom to ask."""
    return _(
        "This channel already has an open Henyo event (hosted by {host}). "
        "Close it with `/henyo event close` first."
    ).format(host=f"<@{host_id}>")


def host_only(host_id: int, what: str) -> str:
    return _("Only the event's host ({host}) or a moderator can {what}.").format(
        host=f"<@{host_id}>", what=_(what)
    )


def several_open_events(channel_ids: Sequence[int]) -> str:
    where = ", ".join(f"<#{channel_id}>" for channel_id in channel_ids)
    return _(
        "Several Henyo events are open: use the command in the event's channel ({channels})."
    ).format(channels=where)


def already_registered(position: int) -> str:
    return _("You're already registered in this event (pair {number}).").format(number=position)


def partner_taken(partner: str) -> str:
    return _("{name} is already registered with someone else.").format(name=plain(partner))


def only_the_answerer(answerer_id: int) -> str:
    return _("Only the answerer ({answerer}) replies in this round.").format(
        answerer=f"<@{answerer_id}>"
    )


def word_in_club_words(word: str, category: str) -> str:
    return _("{word} is already in the club's words ({category}).").format(
        word=f"`{word}`", category=category
    )


def word_in_builtin_bank(word: str, category: str) -> str:
    return _("{word} is already in the built-in bank ({category}).").format(
        word=f"`{word}`", category=category
    )


def word_not_in_bank(typed: str) -> str:
    return _("{word} is not in the word bank.").format(word=f"`{typed.strip()[:60]}`")


def pairs_range(maximum: int) -> str:
    return _("An event has between 1 and {maximum} playing pairs.").format(maximum=maximum)


def no_event(event_id: int) -> str:
    return _("There is no Henyo event #{id}.").format(id=event_id)


def no_event_here(event_id: int) -> str:
    return _("There is no Henyo event #{id} in this server.").format(id=event_id)


def event_already_closed(event_id: int) -> str:
    return _("Henyo event #{id} is already closed.").format(id=event_id)


def no_round(round_id: int) -> str:
    return _("There is no Henyo round #{id}.").format(id=round_id)


NO_OPEN_EVENT = N_("There's no open Henyo event. A host opens one with `/henyo event open`.")
NO_OPEN_EVENT_HERE = N_("There's no open Henyo event in this channel.")
NO_EVENT_TO_START = N_(
    "There's no open Henyo event in this channel. Open one with `/henyo event open`, "
    "or start a one-off round with `guesser:` and `answerer:`."
)
NO_EVENTS_YET = N_("There are no Henyo events here yet. A host opens one with `/henyo event open`.")
MODERATORS_HOST = N_("Only the club's moderators can open Henyo events.")
PARTNER_IS_YOU = N_("Pick a partner other than yourself: a Henyo team is a pair.")
ROLE_CHOICES = N_("Your role is `guesser` or `answerer`.")
NOT_REGISTERED = N_("You're not registered in this event.")
ALREADY_PLAYED = N_("Your pair has already played, so it can't withdraw now.")
ROUND_STILL_RUNNING = N_("A round is still running: close the event when it has ended.")
WORD_KEEPERS = N_(
    "Only moderators and the host of an open Henyo event can change or see the word bank."
)
NO_PAIRS_YET = N_(
    "No pairs have registered yet: members join with `/henyo register partner:@member`."
)
NO_PAIR_LEFT = N_(
    "Every pair has played and no tie is left to break. "
    "See `/henyo standings`, then `/henyo event close`."
)
BOTH_PLAYERS = N_(
    "Give both `guesser` and `answerer` for a one-off round, or neither for the event's next pair."
)
TWO_PLAYERS = N_("The guesser and the answerer must be two different members.")
ROUND_IN_CHANNEL = N_("A round is already running in this channel: wait for it to end.")
HOST_GUESSES = N_("You can't host a round you guess in: the host is sent the secret word.")
WORD_USED = N_("That word was already used in this event: choose another.")
CANNOT_BEGIN = N_("This round can no longer start: start a new one with `/henyo start`.")
NOT_A_REPLY = N_("That button is not a Henyo reply.")
ROUND_OVER = N_("This round is over.")
TIME_IS_UP = N_("Time is up for this round.")
NOT_IN_A_PAIR = N_("That member is not in a registered pair of this event.")
PAIR_IS_WAITING = N_("That pair is on the waiting list: they can `/henyo withdraw` instead.")
NO_ROUND_RUNNING = N_("No round is running in this channel.")
ROUND_HOST_DISQUALIFIES = N_("Only the round's host or a moderator can disqualify a pair.")
TOO_BUSY = N_("Too many things happened at once: please try again.")
NO_BOTS = N_("Bots can't play Henyo: pick a member.")
CANNOT_ANNOUNCE = N_(
    "I couldn't post the round in this channel (check my permissions); it did not start."
)
