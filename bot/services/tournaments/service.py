"""TournamentService: the composition root of the tournament use cases.

Cogs and tests call them through its attributes: ``entry`` (create, join,
leave, check in), ``lifecycle`` (start, pairing, advancing), ``round_jobs`` (the jobs that run the rounds),
``director`` (the director's tools), ``room`` (the players' reports of their
over-the-board games) and ``reading`` (standings, log, exports,
suggestions).
"""

from __future__ import annotations

import random
from collections.abc import Mapping

from bot.scheduler import JobSpec
from bot.services import ServiceContext
from bot.services.chess import ChessService
from bot.services.scrabble import ScrabbleService
from bot.services.tournaments import options as opts
from bot.services.tournaments.core import TournamentCore
from bot.services.tournaments.director import Director
from bot.services.tournaments.entry import Entry
from bot.services.tournaments.games import RoundGames
from bot.services.tournaments.lifecycle import Lifecycle
from bot.services.tournaments.reading import Reading
from bot.services.tournaments.reports import OverTheBoard
from bot.services.tournaments.round_jobs import RoundJobs


class TournamentService:
    """The tournament use cases, one attribute per part of their life (see the module docstring)."""

    def __init__(
        self,
        ctx: ServiceContext,
        *,
        chess: ChessService | None = None,
        scrabble: ScrabbleService | None = None,
        rng: random.Random | None = None,
    ) -> None:
        self.ctx = ctx
        self.games = RoundGames(chess, scrabble)
        self.core = TournamentCore(ctx, self.games, rng or random.Random())
        self.entry = Entry(self.core)
        self.lifecycle = Lifecycle(self.core)
        self.round_jobs = RoundJobs(self.core, self.lifecycle)
        self.director = Director(self.core, self.lifecycle)
        self.reading = Reading(self.core)
        self.room = OverTheBoard(self.core, self.lifecycle)

    def job_handlers(self) -> Mapping[str, JobSpec]:
        """The tournament jobs for the scheduler, each with the work it does before its job's
        transaction."""
        life = self.round_jobs
        return {
            opts.JOB_GAME_FINISHED: JobSpec(
                life.on_game_finished, prepare=life.prepare_game_finished
            ),
            opts.JOB_ROUND_DEADLINE: JobSpec(
                life.on_round_deadline, prepare=life.prepare_round_deadline
            ),
            opts.JOB_OPEN_ROUND: JobSpec(life.on_open_round, prepare=life.prepare_open),
        }
