"""``MatchmakingService``: one game kind's seeks and rematches, and their jobs."""

from __future__ import annotations

from collections.abc import Mapping

from bot.scheduler import JobSpec
from bot.services import ServiceContext
from bot.services.chess import ChessService
from bot.services.matchmaking.games import MatchGames, job_open
from bot.services.matchmaking.rematches import Rematches
from bot.services.matchmaking.seeks import Seeks, job_expiry
from bot.services.scrabble import ScrabbleService


class MatchmakingService:
    """Made by a game's cog on its service: ``MatchmakingService(ctx, chess=...)``."""

    def __init__(
        self,
        ctx: ServiceContext,
        *,
        chess: ChessService | None = None,
        scrabble: ScrabbleService | None = None,
    ) -> None:
        if (chess is None) == (scrabble is None):
            raise ValueError("one game's matchmaking: give its chess or its Scrabble service")
        self.kind = "chess" if chess is not None else "scrabble"
        self.games = MatchGames(self.kind, chess, scrabble)
        self.seeks = Seeks(ctx, self.games)
        self.rematches = Rematches(ctx, self.games)

    def job_handlers(self) -> Mapping[str, JobSpec]:
        """The opening and expiry jobs of this kind, for the scheduler."""
        return {
            job_open(self.kind): JobSpec(self.games.on_open, prepare=self.games.prepare_open),
            job_expiry(self.kind): JobSpec(
                self.seeks.on_seek_expiry, prepare=self.seeks.prepare_expiry
            ),
        }
