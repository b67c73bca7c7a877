"""Chess: challenge, accept, move, draw, resign, clocks, vacations, PGN, analysis.

- ``options``: inputs and validation, job and outbox names, stored options.
- ``snapshots``: what the use cases return (``ChessSnapshot``, ``ChessUpdate``, …).
- ``state``: a game's stored state; ``core``: loading and saving, checks, board
  posts, the steps of a turn.
- ``starting``, ``moves``, ``endings``, ``vacation``, ``reading``, ``analysis``,
  ``timers``: one use case each; ``service``: ``ChessService``, which holds them.
- ``engine``: Stockfish, the computer opponent and analyst.

Nothing here imports discord or SQLAlchemy: use cases return snapshots that
``bot/ui/chess.py`` and ``cogs/chess.py`` render, with texts from
``bot.messages.chess``.
"""

from bot.services.chess.options import (
    BOARD_RENDERER,
    DRAW_OFFER_VIEW,
    JOB_COMPUTER,
    JOB_INVITE,
    JOB_REMINDER,
    JOB_TIMEOUT,
    KIND,
)
from bot.services.chess.service import ChessService
from bot.services.chess.snapshots import (
    AnalysisReport,
    BoardImageArgs,
    ChessSnapshot,
    ChessUpdate,
    OpeningPlan,
    PlayerRef,
    PromotionNeeded,
    Seat,
    VacationResult,
)

__all__ = [
    "BOARD_RENDERER",
    "DRAW_OFFER_VIEW",
    "JOB_COMPUTER",
    "JOB_INVITE",
    "JOB_REMINDER",
    "JOB_TIMEOUT",
    "KIND",
    "AnalysisReport",
    "BoardImageArgs",
    "ChessService",
    "ChessSnapshot",
    "ChessUpdate",
    "OpeningPlan",
    "PlayerRef",
    "PromotionNeeded",
    "Seat",
    "VacationResult",
]
