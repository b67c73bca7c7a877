"""Reading chess games: a game's snapshot, the member's games, the game played in
a thread, the legal moves as suggestions, and a game as PGN.

Which game a command means, and the ``game`` autocomplete, are the one
``GameFinder`` of every game (``ChessService.finder``), with chess's labels.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.db.models import GameRecord
from bot.db.uow import UnitOfWork
from bot.errors import InvalidInputError, NotFoundError
from bot.messages import chess as msg
from bot.services.chess.core import ChessCore, UseCase
from bot.services.chess.options import KIND
from bot.services.chess.snapshots import ChessSnapshot
from bot.services.games import GameFinder, GameKind, WhichGame
from engines.chess_game import move_choices
from engines.chess_pgn import PgnInfo, export_pgn

CHESS = GameKind(KIND, "chess", msg.START_HINT)


class Reading(UseCase):
    """Reading chess games without changing them: snapshots, lists, move suggestions, PGN."""

    def __init__(self, core: ChessCore) -> None:
        super().__init__(core)
        self.finder = GameFinder(core.ctx, CHESS, self._labels)

    async def _labels(
        self, uow: UnitOfWork, games: Sequence[GameRecord], user_id: int
    ) -> list[str]:
        return [msg.game_line(await self.core.snapshot(uow, g), user_id) for g in games]

    async def snapshot(self, game_id: WhichGame, *, guild_id: int | None = None) -> ChessSnapshot:
        """The game (its id, or as a command asked for it) as it stands; with
        ``guild_id``, another server's game is "not found"."""
        async with self.core.ctx.reader() as uow:
            game = await self.core.game(uow, game_id, guild_id)
            return await self.core.snapshot(uow, game)

    async def game_in_thread(self, *, guild_id: int, channel_id: int) -> int | None:
        """The chess game played in this thread, if any."""
        async with self.core.ctx.reader() as uow:
            game = await uow.games.by_thread(channel_id, kind=KIND)
            return game.id if game is not None and game.guild_id == guild_id else None

    async def games_of(
        self, *, guild_id: int, user_id: int, finished: int = 5
    ) -> list[ChessSnapshot]:
        """The member's invitations and games in progress, then their latest finished games."""
        async with self.core.ctx.reader() as uow:
            current = await uow.games.for_player(
                user_id, guild_id=guild_id, kind=KIND, statuses=("invited", "active")
            )
            done = await uow.games.for_player(
                user_id, guild_id=guild_id, kind=KIND, statuses=("finished",)
            )
            return [await self.core.snapshot(uow, g) for g in [*current, *done[:finished]]]

    async def move_choices(
        self,
        *,
        guild_id: int,
        user_id: int,
        channel_id: int | None,
        game_id: str | int | None,
        typed: str,
    ) -> list[tuple[str, str]]:
        """Autocomplete for ``move``: legal moves in the game's current position
        (``game_id``: the ``game`` option as typed, a number like ``#3``)."""
        try:
            asked = self.finder.asked(
                guild_id=guild_id, user_id=user_id, channel_id=channel_id, ref=game_id
            )
            snap = await self.snapshot(asked, guild_id=guild_id)
        except (NotFoundError, InvalidInputError):
            return []
        if snap.status != "active":
            return []
        return move_choices(snap.board, typed)

    async def pgn(self, game_id: int, *, guild_id: int | None = None) -> tuple[str, str]:
        """``(filename, text)`` of the game as PGN."""
        async with self.core.ctx.reader() as uow:
            game = await self.core.game(uow, game_id, guild_id)
            snap = await self.core.snapshot(uow, game)
            guild = await uow.guilds.get(game.guild_id)
            club = guild.name if guild is not None and guild.name else "Club"
            created_at = game.created_at
        finish = snap.finish
        info = PgnInfo(
            event=club,
            white=snap.white.name,
            black=snap.black.name,
            started_at=snap.started_at or created_at,
            result=snap.result or "*",
            time_control=snap.control.pgn_tag(),
            termination=snap.termination,
            finished_at=snap.finished_at if snap.status == "finished" else None,
            round=str(snap.number),
            comment=finish.describe(snap.white.name, snap.black.name) if finish else None,
        )
        return f"chess-{snap.number}.pgn", export_pgn(snap.moves, info)
