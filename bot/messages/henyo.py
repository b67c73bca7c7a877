"""Library Henyo's texts: what the bot posts in a round's channel, DMs to the
host, and says back when a command can't be done.

Built from plain data (names, words, ids, milliseconds). Names and words are
escaped with ``plain`` (no markdown, no mentions), which also keeps them from
breaking out of the bold they are shown in. The secret word appears only in
texts for a finished round (its result) or for the answerer and the host.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.messages.text import plain
from engines.henyo import format_seconds, format_time

# Long enough for a pair's two display names (32 characters each) or a secret.
NAME_CHARS = 100


def safe(text: str) -> str:
    """A member's name, a pair's label or a word, safe inside bold text."""
    return plain(text, NAME_CHARS)


def pair_label(guesser: str, answerer: str) -> str:
    return f"{guesser} & {answerer}"


def round_title(event_id: int | None, team_position: int | None, stage: int) -> str:
    if event_id is None:
        return "One-off round"
    pair = f"Pair {team_position}"
    return f"{pair} — tie-break word {stage}" if stage else pair


# --------------------------------------------------------------------------- posted in the channel


def moved_up(label: str, position: int) -> str:
    return f"⬆️ **{safe(label)}** move up from the waiting list: they play as pair {position}."


def penalty(answerer: str, penalty_ms: int, count: int) -> str:
    return (
        f"⏱️ Penalty: +{format_seconds(penalty_ms)} for **{safe(answerer)}** "
        f"(only Oo, Hindi or Pwede). Penalties so far: **{format_seconds(count * penalty_ms)}** ({count})."
    )


def guessed(
    guesser: str, word: str, *, elapsed_ms: int, penalties: int, penalty_ms: int, final_ms: int
) -> list[str]:
    return [
        f"🎉 **{safe(guesser)}** guessed it: **{safe(word)}**!",
        f"Time {format_time(elapsed_ms)} + penalties {format_seconds(penalties * penalty_ms)} ({penalties}) "
        f"= final time **{format_time(final_ms)}**.",
    ]


def time_up(
    pair: str, *, time_limit_ms: int, in_event: bool, word: str, category: str | None
) -> str:
    outcome = "are eliminated" if in_event else "ran out of time"
    shown_category = f" ({category})" if category else ""
    return (
        f"⌛ Time's up! **{safe(pair)}** didn't guess it in {format_seconds(time_limit_ms)} and "
        f"{outcome}. The word was **{safe(word)}**{shown_category}."
    )


def disqualified_in_round(pair: str, word: str) -> str:
    return f"🚫 **{safe(pair)}** are disqualified by the host (no coaching!). The word was **{safe(word)}**."


def disqualified_pair(label: str) -> str:
    return f"🚫 **{safe(label)}** are disqualified by the host."


def could_not_start(round_id: int) -> str:
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


# --------------------------------------------------------------------------- to the host


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


# --------------------------------------------------------------------------- refusals


def host_only(host_id: int, what: str) -> str:
    return f"Only the event's host (<@{host_id}>) or a moderator can {what}."


def channel_has_an_event(host_id: int) -> str:
    return (
        f"This channel already has an open Henyo event (hosted by <@{host_id}>). "
        "Close it with `/henyo event close` first."
    )


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
