"""The words of the room's screen (issue #29): ``/club screen``'s answers, and every
word the screen page shows (``bot/web/screen.py`` puts them in the page's state, in
the club's language; the page's module only places them).

Plain text, not markdown: the page shows it as text.
"""

from __future__ import annotations

from bot.messages.i18n import N_, _, ngettext

# /club screen
SCREEN_WHAT = N_("open the room's screen")
OPEN_SCREEN = N_("Open the screen")
SCREEN_LINK = N_(
    "The room's screen for {club}: open it on the computer of the projector or TV "
    "(full screen: F11). It follows what the club is doing, live, with nothing to click. "
    "The link is private (anyone with it sees the screen): it lasts {days} days, or "
    "until `/club web action:rotate`."
)
SCREEN_OFF = N_(
    "The web pages are off on this bot, so there is no screen to open: its host turns "
    "them on with `WEB_PORT` and `WEB_BASE_URL`."
)

# The page
PAGE_TITLE = N_("{club}: the room's screen")
RECONNECTING = N_("Reconnecting…")
PRIORITY = N_(
    "This screen shows what the club is doing now: first a Henyo round, then a Boggle "
    "round, then results just in, a club session, a tournament, a games event."
)
BOGGLE_TITLE = N_("Word Boggle — round {number}")
TIME_LEFT = N_("Time left")
WRITE_NOW = N_("Write your words: at least {count} letters.")
LISTS_CLOSED = N_("Time is up: the lists are being judged.")
# A Boggle round played in the room (issue #29): on paper, then the lists typed.
WRITE_ON_PAPER = N_("Write your words on paper: at least {count} letters.")
TYPE_NOW = N_("Type your words now: DM the bot, or use your board page.")
TIME_TO_TYPE = N_("Time left to type")
RESULTS = N_("Results")
MISSED = N_("Best words nobody found")
NO_PLAYERS = N_("Nobody sent a list.")
HENYO_TITLE = N_("Library Henyo")
TIE_BREAK = N_("Tie-break word")
PAIR = N_("{guesser} guesses · {answerer} answers")
TIME = N_("Time")
PENALTIES = N_("Penalties")
READY = N_("Get ready: the clock starts with the host.")
GUESSED = N_("Guessed! Final time {time}")
TIMED_OUT = N_("Time is up: not guessed.")
DISQUALIFIED = N_("Disqualified.")
THE_WORD = N_("The word: {word}")
STANDINGS = N_("Standings")
SESSION_TITLE = N_("Club session")
SESSION_ENDS = N_("Session ends in")
BOARD = N_("Board {number}")
TO_PLAY = N_("To play: {name}")
BOARD_OVER = N_("Finished")
RANKING = N_("Ranking across boards")
ROUND_OF = N_("Round {round} of {rounds}")
ROUND = N_("Round {round}")
PAIRINGS = N_("Pairings")
BYE = N_("bye")
NOTHING_NOW = N_("Nothing is being played right now.")
LEADERBOARD = N_("Leaderboard")
COMING_UP = N_("Coming up")
UPCOMING_BOGGLE = N_("Word Boggle round {number}, {when}")
UPCOMING_SESSION = N_("A club session is taking sign-ups")
UPCOMING_TOURNAMENT = N_("{name}: taking sign-ups")
UPCOMING_EVENT = N_("{name}: registration open")
UPCOMING_HENYO = N_("Library Henyo: pairs are registering")


def t(message: str, **fields: object) -> str:
    """``message`` in the active language, its ``{fields}`` filled."""
    return _(message).format(**fields) if fields else _(message)


def penalties(count: int, seconds: float) -> str:
    """ "2 penalties (+10 s)"."""
    return ngettext(
        "{count} penalty (+{seconds} s)", "{count} penalties (+{seconds} s)", count
    ).format(count=count, seconds=f"{seconds:g}")


def points(count: int) -> str:
    return ngettext("{count} point", "{count} points", count).format(count=count)
