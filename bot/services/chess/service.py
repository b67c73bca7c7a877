"""ChessService: the composition root of chess's use cases.

Cogs and tests call the use cases through its attributes: ``starting``
(challenges, the computer, a game's thread), ``moves``, ``endings`` (resigning,
draws), ``vacations``, ``reading`` (snapshots, lists, suggestions, PGN),
``analysis``, ``timers`` (the job handlers) and ``finder`` (which game a command
means, and the ``game`` autocomplete).
"""

from __future__ import annotations

import random
from collections.abc import Mapping

from bot.scheduler import JobSpec
from bot.services import ServiceContext
from bot.services.chess.analysis import Analysis
from bot.services.chess.core import ChessCore
from bot.services.chess.endings import Endings
from bot.services.chess.engine import ChessEngine, engine_from_settings
from bot.services.chess.moves import Moves
from bot.services.chess.options import (
    JOB_COMPUTER,
    JOB_INVITE,
    JOB_OFFER_ANSWERED,
    JOB_OPEN,
    JOB_REMINDER,
    JOB_TIMEOUT,
)
from bot.services.chess.reading import Reading
from bot.services.chess.starting import Starting
from bot.services.chess.timers import Timers
from bot.services.chess.vacation import Vacations


class ChessService:
    """Chess's use cases on one core; cogs and tests call them through its attributes."""

    def __init__(
        self,
        ctx: ServiceContext,
        *,
        engine: ChessEngine | None = None,
        rng: random.Random | None = None,
    ) -> None:
        self.ctx = ctx
        self.core = ChessCore(
            ctx,
            engine if engine is not None else engine_from_settings(ctx.settings),
            rng or random.Random(),
        )
        self.starting = Starting(self.core)
        self.moves = Moves(self.core)
        self.endings = Endings(self.core)
        self.vacations = Vacations(self.core)
        self.reading = Reading(self.core)
        self.finder = self.reading.finder
        self.analysis = Analysis(self.core)
        self.timers = Timers(self.core)

    @property
    def engine(self) -> ChessEngine | None:
        """Stockfish, or None when none is configured (every use case sees the same)."""
        return self.core.engine

    @engine.setter
    def engine(self, engine: ChessEngine | None) -> None:
        self.core.engine = engine

    def job_handlers(self) -> Mapping[str, JobSpec]:
        """Chess's jobs for the scheduler: each kind's handler (and prepare step)."""
        timers = self.timers
        return {
            JOB_TIMEOUT: JobSpec(timers.on_turn_timeout),
            JOB_REMINDER: JobSpec(timers.on_reminder),
            JOB_COMPUTER: JobSpec(timers.on_computer_move, prepare=timers.prepare_computer_move),
            JOB_INVITE: JobSpec(timers.on_invite_expiry),
            JOB_OPEN: JobSpec(self.starting.on_open_thread, prepare=self.starting.prepare_open),
            JOB_OFFER_ANSWERED: JobSpec(
                self.endings.on_offer_answered, prepare=self.endings.prepare_offer_answered
            ),
        }
