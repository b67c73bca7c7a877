"""Analysis of a finished game: each side's biggest mistakes by the engine's
evaluations, computed once and kept in the game's state."""

from __future__ import annotations

from dataclasses import replace

from bot.errors import ConflictError, InvalidInputError
from bot.messages.chess import refusals
from bot.messages.i18n import _
from bot.services.chess.core import UseCase
from bot.services.chess.engine import (
    INSTALL_HINT,
    ChessEngine,
    EngineUnavailableError,
    PositionEval,
)
from bot.services.chess.snapshots import AnalysisReport, ChessSnapshot
from bot.services.chess.state import ChessState, StoredAnalysis
from engines.chess_game import biggest_mistakes


class Analysis(UseCase):
    """``/chess analyse``: each side's biggest mistakes in a finished game, by Stockfish."""

    def _engine(self) -> ChessEngine:
        if self.core.engine is None:
            raise EngineUnavailableError(INSTALL_HINT)
        return self.core.engine

    async def analysable(self, game_id: int, *, guild_id: int | None = None) -> ChessSnapshot:
        """The game, if ``analyse`` can run on it; the cog checks before it defers its reply."""
        self._engine()
        async with self.core.ctx.reader() as uow:
            snap = await self.core.snapshot(uow, await self.core.game(uow, game_id, guild_id))
        self._check_analysable(snap)
        return snap

    @staticmethod
    def _check_analysable(snap: ChessSnapshot) -> None:
        if snap.status != "finished":
            raise InvalidInputError(refusals.ANALYSIS_AFTER_THE_GAME)
        if not snap.moves:
            raise InvalidInputError(_(refusals.NOTHING_TO_ANALYSE).format(snap.number))

    async def analyse(self, game_id: int, *, guild_id: int | None = None) -> AnalysisReport:
        """The biggest mistakes of each side of a finished game (computed once, then kept)."""
        engine = self._engine()
        async with self.core.ctx.reader() as uow:
            game = await self.core.game(uow, game_id, guild_id)
            snap = await self.core.snapshot(uow, game)
            state = ChessState.load(game)
            version = game.version
        self._check_analysable(snap)
        cached = state.analysis
        if cached and len(cached["evals"]) == len(snap.moves) + 1:
            evals = [
                PositionEval(cp, best)
                for cp, best in zip(cached["evals"], cached["best"], strict=False)
            ]
            engine_name = cached.get("engine", "engine")
        else:
            evals = await engine.evaluate_positions(snap.moves)
            engine_name = engine.name
            kept: StoredAnalysis = {
                "engine": engine_name,
                "evals": [e.white_cp for e in evals],
                "best": [e.best for e in evals],
            }
            await self._keep(game_id, version, replace(state, analysis=kept))
        mistakes = biggest_mistakes(
            snap.moves, [e.white_cp for e in evals], [e.best for e in evals]
        )
        return AnalysisReport(snap, mistakes, engine_name)

    async def _keep(self, game_id: int, version: int, state: ChessState) -> None:
        try:
            async with self.core.ctx.uow() as uow:
                game = await self.core.game(uow, game_id)
                await uow.games.save_state(game, expected_version=version, state=dict(state.dump()))
                await uow.commit()
        except ConflictError:  # someone analysed at the same time; their copy is as good
            pass
