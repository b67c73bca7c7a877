"""Henyo's refusals: why a command can't be done, fit to show the member privately."""

from __future__ import annotations

from collections.abc import Sequence

from bot.messages.text import plain


def channel_has_an_event(host_id: int) -> str:
    """One open event per channel: the host is named so members know whom to ask."""
    return (
        f"This channel already has an open Henyo event (hosted by <@{host_id}>). "
        "Close it with `/henyo event close` first."
    )


def host_only(host_id: int, what: str) -> str:
    return f"Only the event's host (<@{host_id}>) or a moderator can {what}."


def several_open_events(channel_ids: Sequence[int]) -> str:
    where = ", ".join(f"<#{channel_id}>" for channel_id in channel_ids)
    return f"Several Henyo events are open: use the command in the event's channel ({where})."


def already_registered(position: int) -> str:
    return f"You're already registered in this event (pair {position})."


def partner_taken(partner: str) -> str:
    return f"{plain(partner)} is already registered with someone else."


def only_the_answerer(answerer_id: int) -> str:
    return f"Only the answerer (<@{answerer_id}>) replies in this round."


def word_in_club_words(word: str, category: str) -> str:
    return f"`{word}` is already in the club's words ({category})."


def word_in_builtin_bank(word: str, category: str) -> str:
    return f"`{word}` is already in the built-in bank ({category})."


def word_not_in_bank(typed: str) -> str:
    return f"`{typed.strip()[:60]}` is not in the word bank."


def pairs_range(maximum: int) -> str:
    return f"An event has between 1 and {maximum} playing pairs."


def no_event(event_id: int) -> str:
    return f"There is no Henyo event #{event_id}."


def no_event_here(event_id: int) -> str:
    return f"There is no Henyo event #{event_id} in this server."


def event_already_closed(event_id: int) -> str:
    return f"Henyo event #{event_id} is already closed."


def no_round(round_id: int) -> str:
    return f"There is no Henyo round #{round_id}."


NO_OPEN_EVENT = "There's no open Henyo event. A host opens one with `/henyo event open`."
NO_OPEN_EVENT_HERE = "There's no open Henyo event in this channel."
NO_EVENT_TO_START = (
    "There's no open Henyo event in this channel. Open one with `/henyo event open`, "
    "or start a one-off round with `guesser:` and `answerer:`."
)
NO_EVENTS_YET = "There are no Henyo events here yet. A host opens one with `/henyo event open`."
MODERATORS_HOST = "Only the club's moderators can open Henyo events."
PARTNER_IS_YOU = "Pick a partner other than yourself: a Henyo team is a pair."
ROLE_CHOICES = "Your role is `guesser` or `answerer`."
NOT_REGISTERED = "You're not registered in this event."
ALREADY_PLAYED = "Your pair has already played, so it can't withdraw now."
ROUND_STILL_RUNNING = "A round is still running: close the event when it has ended."
WORD_KEEPERS = (
    "Only moderators and the host of an open Henyo event can change or see the word bank."
)
NO_PAIRS_YET = "No pairs have registered yet: members join with `/henyo register partner:@member`."
NO_PAIR_LEFT = (
    "Every pair has played and no tie is left to break. "
    "See `/henyo standings`, then `/henyo event close`."
)
BOTH_PLAYERS = (
    "Give both `guesser` and `answerer` for a one-off round, or neither for the event's next pair."
)
TWO_PLAYERS = "The guesser and the answerer must be two different members."
ROUND_IN_CHANNEL = "A round is already running in this channel: wait for it to end."
HOST_GUESSES = "You can't host a round you guess in: the host is sent the secret word."
WORD_USED = "That word was already used in this event: choose another."
CANNOT_BEGIN = "This round can no longer start: start a new one with `/henyo start`."
NOT_A_REPLY = "That button is not a Henyo reply."
ROUND_OVER = "This round is over."
TIME_IS_UP = "Time is up for this round."
NOT_IN_A_PAIR = "That member is not in a registered pair of this event."
PAIR_IS_WAITING = "That pair is on the waiting list: they can `/henyo withdraw` instead."
NO_ROUND_RUNNING = "No round is running in this channel."
ROUND_HOST_DISQUALIFIES = "Only the round's host or a moderator can disqualify a pair."
TOO_BUSY = "Too many things happened at once: please try again."
NO_BOTS = "Bots can't play Henyo: pick a member."
CANNOT_ANNOUNCE = (
    "I couldn't post the round in this channel (check my permissions); it did not start."
)
