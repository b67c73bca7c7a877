"""Scrabble in the club: invitations, moves, turn clocks, challenges, the end.

One unit of work per command or timer. The game row holds the engine's JSON
state (``state["engine"]``) and a version: every change is a compare-and-set on
that version, so two plays sent at once apply once. Every engine log entry is
also appended to ``moves`` (ply = its index in the engine log), from which the
game can be rebuilt with ``ScrabbleGame.replay``.

Nothing reaches Discord from here: what the thread must see (the board after
each move, results, reminders) is written to the outbox in the same
transaction, so a committed move is always announced, even across a restart.
Racks only ever leave through the values returned to the member who asked
(the cog answers ephemerally); they are never written to a channel payload or
a log line.

The package, along its seams:

- ``options``: inputs and settings (``NewGameRequest``, ``GameSettings``, durations);
- ``snapshots``: what the use cases return;
- ``lexicons``: the word lists games are judged by;
- ``loaded``: a game as loaded from its rows, and the snapshots built from it;
- ``core``: what every use case shares: loading, committing a change, the timers;
- ``announce``: the posts and DMs, through the outbox;
- ``invitations``, ``moves``, ``reading``, ``timers``, ``computer``: the use cases;
- ``ai``: the move generator's calls, off the event loop;
- ``service``: ``ScrabbleService``, which builds them (``service.moves.play(...)``).

The texts are in ``bot.messages.scrabble`` (a few names are re-exported here for
the callers that used them from the one module this package replaces).
"""

from bot.messages.scrabble import COMPUTER_LEVELS, describe_entries, lexicon_display_name
from bot.services.games import parse_game_ref
from bot.services.scrabble.announce import (
    RENDER_BOARD,
    RENDER_TEXT_FILE,
    VIEW_BOARD,
    VIEW_EXPLAIN,
    VIEW_INVITE,
)
from bot.services.scrabble.core import JOB_COMPUTER, JOB_INVITE, JOB_KINDS, JOB_TURN, ScrabbleCore
from bot.services.scrabble.lexicons import ClubLexicons, LexiconCache, WordLists
from bot.services.scrabble.loaded import KIND
from bot.services.scrabble.options import (
    CLOCK,
    DEADLINE,
    GameSettings,
    Member,
    NewGameRequest,
    parse_duration,
)
from bot.services.scrabble.service import ScrabbleService
from bot.services.scrabble.snapshots import (
    ActionOutcome,
    BoardPicture,
    GameSnapshot,
    GameSummary,
    InviteOutcome,
    PositionChoice,
    RackSnapshot,
)

__all__ = [
    "CLOCK",
    "COMPUTER_LEVELS",
    "DEADLINE",
    "JOB_COMPUTER",
    "JOB_INVITE",
    "JOB_KINDS",
    "JOB_TURN",
    "KIND",
    "RENDER_BOARD",
    "RENDER_TEXT_FILE",
    "VIEW_BOARD",
    "VIEW_EXPLAIN",
    "VIEW_INVITE",
    "ActionOutcome",
    "BoardPicture",
    "ClubLexicons",
    "GameSettings",
    "GameSnapshot",
    "GameSummary",
    "InviteOutcome",
    "LexiconCache",
    "Member",
    "NewGameRequest",
    "PositionChoice",
    "RackSnapshot",
    "ScrabbleCore",
    "ScrabbleService",
    "WordLists",
    "describe_entries",
    "lexicon_display_name",
    "parse_duration",
    "parse_game_ref",
]
