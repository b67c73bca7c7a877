"""The words of finding a game (``/scrabble seek``, ``/chess seek``) and of a rematch."""

from __future__ import annotations

from datetime import datetime

from bot.messages.i18n import N_, _
from bot.messages.text import absolute_time, plain, relative_time

ACCEPT = N_("Accept")
CANCEL = N_("Cancel")
REMATCH = N_("Rematch")

TOO_MANY_SEEKS = N_(
    "You have {count} open challenges already: cancel one (its Cancel button) or wait "
    "for it to be taken or to expire."
)
OWN_SEEK = N_("This is your own challenge: wait for someone to accept it, or cancel it.")
NOT_YOUR_SEEK = N_("Only the member who posted this challenge can cancel it.")
SEEK_NOT_FOUND = N_("That challenge is gone.")
SEEK_TAKEN_ALREADY = N_("Too late: {name} accepted this challenge first.")
SEEK_CLOSED = {
    "cancelled": N_("This challenge was cancelled."),
    "expired": N_("This challenge has expired."),
}
SEEK_CANCELLED_REPLY = N_("Your challenge is cancelled.")
NO_REMATCH = N_("A rematch is offered only when the game is over, to its players.")
NOT_YOUR_GAME = N_("This game is not yours: only its players can ask for a rematch.")


def game_title(kind: str) -> str:
    return _("Scrabble") if kind == "scrabble" else _("Chess")


def seek_post(
    kind: str, seeker_id: int, options: str, expires_at: datetime, role_id: int | None
) -> str:
    """The open challenge: who, the game's options, until when; the club's role mentioned."""
    lines = [
        _("**{game}**: <@{seeker}> is looking for a game. Anyone may accept!").format(
            game=game_title(kind), seeker=seeker_id
        ),
        options,
        _("Open until {when} ({left}).").format(
            when=absolute_time(expires_at), left=relative_time(expires_at)
        ),
    ]
    if role_id is not None:
        lines.insert(0, f"<@&{role_id}>")
    return "\n".join(lines)


def seek_taken(kind: str, seeker_id: int, taker_id: int, number: int, options: str) -> str:
    return "\n".join(
        (
            _("**{game} #{number}**: <@{taker}> accepted <@{seeker}>'s challenge.").format(
                game=game_title(kind), number=number, taker=taker_id, seeker=seeker_id
            ),
            options,
        )
    )


def seek_ended(kind: str, seeker_id: int, status: str) -> str:
    if status == "expired":
        text = _("<@{seeker}>'s {game} challenge expired: nobody accepted it in time.")
    else:
        text = _("<@{seeker}>'s {game} challenge was cancelled.")
    return text.format(seeker=seeker_id, game=game_title(kind))


def seek_posted_reply(count: int, limit: int) -> str:
    return _("Your challenge is posted ({count} of {limit} open).").format(count=count, limit=limit)


def match_starter(kind: str, number: int, names: list[str], rematch: bool) -> str:
    """The message a new game's thread is started from."""
    players = _(" vs ").join(plain(n) for n in names)
    if rematch:
        return _("**{game} #{number}**: rematch! {players}").format(
            game=game_title(kind), number=number, players=players
        )
    return _("**{game} #{number}**: {players}").format(
        game=game_title(kind), number=number, players=players
    )


def thread_name(kind: str, number: int, names: list[str]) -> str:
    """A matched game's thread (names as they are: a thread's name shows no markdown)."""
    return _("{game} #{number}: {players}").format(
        game=game_title(kind), number=number, players=_(" vs ").join(names)
    )


def rematch_waiting(pressed: int, seats: int) -> str:
    return _(
        "Rematch asked: {pressed} of {seats} players ready. It starts when everyone presses."
    ).format(pressed=pressed, seats=seats)


def rematch_already(pressed: int, seats: int) -> str:
    return _("You asked already: {pressed} of {seats} players ready.").format(
        pressed=pressed, seats=seats
    )


def rematch_started(kind: str, number: int, place_id: int | None) -> str:
    where = f" <#{place_id}>" if place_id else ""
    return (
        _("The rematch is on: {game} #{number}.").format(game=game_title(kind), number=number)
        + where
    )


def scrabble_seek_options(rules: str, word_list: str) -> str:
    return _("{rules} · word list: {word_list}").format(rules=rules, word_list=word_list)


def chess_seek_options(control: str, color: str) -> str:
    colour = {
        "white": _("the seeker plays White"),
        "black": _("the seeker plays Black"),
    }.get(color, _("colours drawn at random"))
    return _("{control} · {colour}").format(control=control, colour=colour)


def rematch_asked(name: str, pressed: int, seats: int) -> str:
    return _(
        "**{name}** would like a rematch ({pressed} of {seats} ready): press Rematch to play again."
    ).format(name=plain(name), pressed=pressed, seats=seats)
