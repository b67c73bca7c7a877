"""What a member reads when a command cannot go ahead: a refusal, a permission
missing, or an apology for a fault on the bot's side (with the id the log has)."""

from __future__ import annotations

import logging

from bot.errors import ClubError, GameNotFoundError
from bot.messages.i18n import N_, _
from bot.messages.limits import MESSAGE_CHARS
from bot.messages.text import render
from engines.text import as_sentence

log = logging.getLogger(__name__)

# A private reply is cut here: the room left is for what Discord adds around it.
PRIVATE_REPLY_CHARS = MESSAGE_CHARS - 100

MANAGE_SERVER_NEEDED = N_("You need the **Manage Server** permission for that.")
SERVER_ONLY = N_("That command works in a server channel, not in DMs.")
NOT_HERE = N_("You can't use that command here.")
GAME_MOVED_ON = N_("The game moved on while you were typing: look at the board and try again.")
# Which game a command means (bot/services/games.py); {title} is the game's name.
PICK_A_GAME = N_("Pick a game from the list, or give its number like `#12`.")
NO_FINISHED_GAME = N_("You have no finished {title} game here: give a game number with `game`.")
NO_GAME_GOING = N_("You have no {title} game going here. Start one with {start}.")
SEVERAL_GAMES = N_(
    "You have {count} {title} games going: {listed}. Say which with the `game` option, "
    "or use the command in the game's thread."
)

# Discord's option types as the error names them, for unreadable_option.
_TYPE_NAMES = {
    name: name
    for name in (
        N_("user"),
        N_("member"),
        N_("integer"),
        N_("number"),
        N_("boolean"),
        N_("channel"),
        N_("role"),
        N_("mentionable"),
        N_("string"),
        N_("attachment"),
    )
}


def unreadable_option(value: object, type_name: str) -> str:
    """An option Discord sent that could not be read as its type (a member, a number)."""
    known = _TYPE_NAMES.get(type_name.lower())
    shown = _(known) if known else type_name.lower().replace("_", " ")
    return _("I couldn't read {value} as {type}.").format(value=f"`{value!s:.50}`", type=shown)


def slow_down(retry_after: float) -> str:
    return _("Slow down a little: try again in {seconds} s.").format(seconds=f"{retry_after:.0f}")


def moderators_only(what: str) -> str:
    return _("Only the club's moderators can {what}.").format(what=what)


def something_went_wrong(error_id: str) -> str:
    return _(
        "Sorry, something went wrong on my side (error id {error_id}). "
        "The club's admins can look it up in the bot's log."
    ).format(error_id=f"`{error_id}`")


def too_busy() -> str:
    return _(
        "I'm too busy to do that right now, so nothing was changed. Please try again in a minute."
    )


def word_list_unusable(name: str, reason: object) -> str:
    return _("The word list {name} can't be used: {reason}").format(name=repr(name), reason=reason)


def not_available(game: str) -> str:
    """A game's buttons clicked while its handler is not loaded (a restart)."""
    return _("{game} is not available right now; try again in a minute.").format(game=game)


def translated(message: str) -> str:
    """A refusal's text in the active language: a message marked with ``N_`` and
    raised as is is translated here; one translated when raised comes back
    unchanged (it is not a message id)."""
    return _(message) if message else message


# The games' names, as "There is no Chess #3 in this server." names them.
GAME_KINDS = {
    "chess": N_("Chess"),
    "scrabble": N_("Scrabble"),
    "boggle": N_("Word Boggle"),
    "henyo": N_("Library Henyo"),
}


def game_not_found(error: GameNotFoundError) -> str:
    """``GameNotFoundError`` (raised where there is no catalogue) in the club's language."""
    if error.kind is None:
        return _("There is no game #{number} in this server.").format(number=error.game_id)
    title = _(GAME_KINDS[error.kind]) if error.kind in GAME_KINDS else error.kind.capitalize()
    return _("There is no {game} in this server.").format(game=f"{title} #{error.game_id}")


def refusal(error: ClubError) -> str:
    """What a ``ClubError`` says, in the active language: written from its template
    and fields when it carries them (an engine's refusal passed on), else its
    message id translated (a message translated when raised comes back as it is)."""
    if isinstance(error, GameNotFoundError):
        return game_not_found(error)
    shown = translated(error.message)
    if error.text is not None:
        try:
            shown = render(error.text)
        except (KeyError, IndexError, ValueError):  # a translation's fields are wrong
            log.exception("could not translate %r", error.text.template)
            shown = error.message
    return as_sentence(shown) if error.sentence else shown
