"""The words of agreeing a game's time (``/schedule propose|accept``) and of the
server's scheduled events of sessions, tournament rounds and league seasons."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from zoneinfo import ZoneInfo

from babel.dates import format_datetime

from bot.messages.i18n import N_, _, babel_locale
from bot.messages.text import absolute_time, plain, relative_time

MAX_TIMES = 3

NOT_LEAGUE_OR_TOURNAMENT = N_(
    "Times are agreed for league and tournament games only: this game is neither."
)
LIVE_CLOCK = N_(
    "This game is played on a live clock, in one sitting: times are agreed for games "
    "on a long clock (a day or more per move)."
)
NOT_A_PLAYER = N_("Only this game's players can propose or accept its times.")
OWN_PROPOSAL = N_("These are your own times: your opponent accepts one of them.")
NO_PROPOSAL = N_("No time is proposed for this game: `/schedule propose` proposes some.")
REPLACED = N_("These times were replaced by a newer proposal: pick from the latest one.")
PROPOSAL_GONE = N_("That proposal is gone.")
NO_SUCH_GAME = N_("There is no such game in this server.")
NO_TIME_GIVEN = N_("Give at least one time, like `Sat 3pm` or `tomorrow 19:30`.")
SAME_TIME_TWICE = N_("The same time is given twice: propose different times.")
ACCEPT_LABEL = N_("Accept {when}")


def game_title(kind: str, number: int) -> str:
    if kind == "chess":
        return _("Chess #{number}").format(number=number)
    return _("Scrabble #{number}").format(number=number)


def game_over(kind: str, number: int) -> str:
    return _("{game} is over: there is no time left to agree.").format(
        game=game_title(kind, number)
    )


def unreadable(typed: str, zone: str) -> str:
    shown = typed.strip()[:30].replace("`", "'")
    return _(
        "I couldn't read {typed} as a day and a time: write it like `Sat 3pm`, "
        "`tomorrow 19:30` or `2026-12-12 15:00` (the club's time zone, {zone})."
    ).format(typed=f"`{shown}`", zone=zone)


def in_the_past(when: datetime) -> str:
    return _("{when} has passed already: propose a time still to come.").format(
        when=absolute_time(when)
    )


def after_deadline(when: datetime, deadline: datetime) -> str:
    return _("{when} is after this game's deadline ({deadline}): propose a time before it.").format(
        when=absolute_time(when), deadline=absolute_time(deadline)
    )


def too_many_times(count: int) -> str:
    return _("Propose at most {count} times at once.").format(count=count)


def bad_choice(count: int) -> str:
    return _("Pick one of the proposed times: a number from 1 to {count}.").format(count=count)


def already_agreed(when: datetime) -> str:
    return _("This time is agreed already: {when}.").format(when=absolute_time(when, "F"))


def proposal_post(
    kind: str, number: int, proposer_id: int, opponent_ids: Sequence[int], times: Sequence[datetime]
) -> str:
    """The proposal in the game's thread: who proposes, to whom, the times numbered."""
    others = ", ".join(f"<@{u}>" for u in opponent_ids)
    lines = [
        _("**{game}**: <@{proposer}> proposes a time to play. {others}, accept one:").format(
            game=game_title(kind, number), proposer=proposer_id, others=others
        )
    ]
    lines += [
        f"{i}. {absolute_time(at, 'F')} ({relative_time(at)})" for i, at in enumerate(times, 1)
    ]
    lines.append(_("(`/schedule accept` or a button below; a new proposal replaces this one.)"))
    return "\n".join(lines)


def proposed_reply(place_id: int | None) -> str:
    if place_id is None:
        return _("Your times are proposed.")
    return _("Your times are proposed in <#{place}>.").format(place=place_id)


def agreed_post(kind: str, number: int, accepter_id: int, when: datetime) -> str:
    return _(
        "**{game}**: <@{accepter}> accepted. The game is on {when} ({relative}); both "
        "sides get a reminder an hour before."
    ).format(
        game=game_title(kind, number),
        accepter=accepter_id,
        when=absolute_time(when, "F"),
        relative=relative_time(when),
    )


def agreed_reply(when: datetime) -> str:
    return _("Agreed: {when}.").format(when=absolute_time(when, "F"))


def reminder(kind: str, number: int, opponents: Sequence[str], when: datetime) -> str:
    return _("Reminder: **{game}** against {names} is on {when} ({relative}), as agreed.").format(
        game=game_title(kind, number),
        names=", ".join(plain(n) for n in opponents) or "?",
        when=absolute_time(when, "F"),
        relative=relative_time(when),
    )


def reminder_fallback(kind: str, number: int, when: datetime) -> str:
    """What the thread says instead when a player's DMs are closed (after their mention)."""
    return _("reminder: **{game}** is on {when} ({relative}), as agreed.").format(
        game=game_title(kind, number), when=absolute_time(when, "F"), relative=relative_time(when)
    )


def accept_label(index: int, at: datetime, zone: ZoneInfo) -> str:
    """A proposal's button: its number and its time in the club's time zone, written in the
    club's language (a button cannot show Discord's timestamps)."""
    shown = format_datetime(at, "EEE d MMM HH:mm", tzinfo=zone, locale=babel_locale())
    return f"{index}. " + _(ACCEPT_LABEL).format(when=shown)


def choice_label(kind: str, number: int, opponents: Sequence[str]) -> str:
    """A game in the ``game`` option's suggestions."""
    vs = ", ".join(opponents)
    return _("{game} vs {names}").format(game=game_title(kind, number), names=vs)


# ------------------------------------------------------------------ server events


def session_event_name() -> str:
    return _("Scrabble session")


def round_event_name(tournament: str, number: int) -> str:
    return _("{tournament}: round {number}").format(tournament=tournament, number=number)


def season_event_name(league: str, number: int) -> str:
    return _("{league}: season {number}").format(league=league, number=number)


def in_the_room() -> str:
    return _("In the room")


NO_GAME = N_(
    "You have no league or tournament game on a long clock here: times are agreed for those."
)


def several_games(games: Sequence[tuple[str, int]]) -> str:
    listed = ", ".join(game_title(kind, number) for kind, number in games)
    return _("You have several games: pick one with `game` ({listed}).").format(listed=listed)
