"""Finding a game and playing it again (issue #30): open challenges any member may
accept (``/scrabble seek``, ``/chess seek``) and the Rematch button of a finished
game. One ``MatchmakingService`` per game kind, made by that game's cog on its
service; the games are made and opened through the games' own ``seat_game`` and
opening (``Starting.open_in``, ``Invitations.start``), as a tournament's are.
"""

from bot.services.matchmaking.games import MatchGames, Side
from bot.services.matchmaking.rematches import RematchOutcome
from bot.services.matchmaking.seeks import MAX_OPEN_SEEKS, SEEK_TTL, SeekSnapshot, SeekTaken
from bot.services.matchmaking.service import MatchmakingService

__all__ = [
    "MAX_OPEN_SEEKS",
    "SEEK_TTL",
    "MatchGames",
    "MatchmakingService",
    "RematchOutcome",
    "SeekSnapshot",
    "SeekTaken",
    "Side",
]
