"""What chess says back when a command can't be done, and the engine's troubles.

Templates with ``{}`` take a game's number (``_(TEMPLATE).format(number)``);
those that name a member are functions, so the name is always shown as plain
text. The constants are message ids (``N_``): raised as they are, the error
handler writes them in the club's language.
"""

from __future__ import annotations

from bot.messages.chess.facts import name
from bot.messages.i18n import N_, _

NOT_YOURS = N_("This game is not yours: only its two players can do that.")
NOT_FOR_YOU = N_("This challenge is for someone else.")
SELF_CHALLENGE = N_(
    "You can't challenge yourself. Pick another member, or me to play the computer."
)
OTHER_BOTS = N_("Other bots can't play here. Challenge a member — or me, to play the computer.")
CHOOSE_COLOUR = N_("Choose your colour: `white`, `black` or `random`.")
CHOOSE_DRAW_ACTION = N_("Choose `offer`, `accept`, `decline` or `claim`.")
WAIT_FOR_OPPONENT = N_("You made this challenge: wait for your opponent to accept it.")
ACCEPTED_ALREADY = N_("You accepted already: the game starts once everyone invited accepts.")
NAMED_TWICE = N_(
    "Each member can take only one place in a game (and you can't play yourself). Nothing was made."
)
COMPUTER_ONE_PLAYER = N_(
    "A game against the computer is one player against me: leave out `partner` and `opponent_partner`."
)
STALE_BUTTONS = N_(
    "The game moved on since those buttons appeared: look at the board and move again."
)
FLAG_FELL = N_("Too late: your time ran out before that move, so the game is over.")
COMPUTER_PLAYS_ON = N_(
    "The computer plays every game to the end: play on, or claim a draw when the rules allow."
)
NO_OFFER_TO_DECLINE = N_("There is no draw offer to decline.")
OFFER_ANSWERED = N_("This draw offer was already answered, so nothing changed.")
NOT_ON_VACATION = N_("You are not on vacation, so there is nothing to end: your clock is running.")
NO_CORRESPONDENCE_GAME = N_(
    "You have no correspondence chess game in progress here. A live clock can't be paused."
)
ANALYSIS_AFTER_THE_GAME = N_("Analysis is for finished games: no engine help while the game is on!")

# .format(number)
NOT_STARTED = N_("Chess #{} has not started: the challenge is still waiting to be accepted.")
GAME_OVER = N_("Chess #{} is over. `/chess board` shows how it ended, `/chess pgn` exports it.")
LIVE_CLOCK_NO_VACATION = N_("Chess #{} has a live clock, which can't be paused.")
NOTHING_TO_ANALYSE = N_("Chess #{} ended before any move was played: nothing to analyse.")

ENGINE_INSTALL_HINT = N_(
    "Playing the computer and `/chess analyse` need the Stockfish chess engine on the bot's machine: "
    "install it (Debian/Ubuntu: `apt-get install stockfish`, which puts it at `/usr/games/stockfish`; "
    "other systems: stockfishchess.org/download) and set `STOCKFISH_PATH` in the bot's `.env`."
)
ENGINE_WONT_START = N_("The chess engine would not start; tell the club's admins.")
ENGINE_STOPPED = N_("The chess engine stopped unexpectedly; try again in a moment.")
ENGINE_NO_MOVE = N_("The chess engine found no move in this position.")


def level_range(lowest: int, highest: int) -> str:
    return _(
        "The computer's level goes from {lowest} (gentle) to {highest} (full strength)."
    ).format(lowest=lowest, highest=highest)


def no_longer_waiting(number: int, status: str) -> str:
    return _("Chess #{number} is no longer waiting for an answer ({status}).").format(
        number=number, status=status
    )


# A refusal about one of several games (``{reason}`` is the engine's): ``Chess #12: …``.
IN_GAME = N_("Chess #{number}: {reason}")


def not_your_move(mover: str) -> str:
    return _("It's {name}'s move, not yours. I'll post the board when they've moved.").format(
        name=name(mover)
    )


def no_offer_to_accept(opponent: str) -> str:
    return _(
        "{name} has not offered a draw. You can offer one: `/chess draw action:offer`."
    ).format(name=name(opponent))


def offer_waiting(opponent: str) -> str:
    return _("Your draw offer is already waiting for {name}.").format(name=name(opponent))
