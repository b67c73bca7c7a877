"""A member's move: read (SAN or UCI), checked against the rules and the clock, played."""

from __future__ import annotations

from bot.errors import ConflictError, InvalidInputError, StaleBoardError
from bot.messages.chess import refusals
from bot.messages.web import STALE_BOARD
from bot.services.chess.core import UseCase
from bot.services.chess.snapshots import ChessUpdate, PromotionNeeded
from bot.services.games import WhichGame
from engines.chess_game import ChessMoveError, PromotionChoiceError, parse_move


class Moves(UseCase):
    """A member's move: read (SAN or UCI), checked against the rules and the clock, played."""

    async def play(
        self,
        game_id: WhichGame,
        user_id: int,
        text: str,
        *,
        reply_channel_id: int | None = None,
        expected_ply: int | None = None,
        expected_version: int | None = None,
        guild_id: int | None = None,
    ) -> ChessUpdate:
        """Play ``text`` (SAN or UCI) for ``user_id`` in the game (its id, or as the
        command asked for it: found in the move's own transaction).

        Bad input raises a ``ClubError`` and changes nothing; a pawn reaching the
        last rank without a piece raises ``PromotionNeeded`` with the choices.
        With ``guild_id``, another server's game is "not found" (see ``GameFinder.resolve``).
        With ``expected_version`` (a board page's move, made on the game as it was at that
        version), a game that has changed since is refused with ``StaleBoardError``,
        checked in the move's own transaction (and the save compares it again).
        """
        core = self.core
        now = core.now()
        async with core.ctx.uow() as uow:
            game, color, state = await core.players_turn(uow, game_id, user_id, guild_id)
            if expected_ply is not None and expected_ply != len(state.moves):
                raise ConflictError(refusals.STALE_BUTTONS)
            if expected_version is not None and expected_version != game.version:
                raise StaleBoardError(STALE_BOARD)
            board = state.board()
            if board.turn != color:
                snap = await core.snapshot(uow, game, state)
                raise InvalidInputError(refusals.not_your_move(snap.to_move.name))
            if state.running_clock().has_flagged(now):
                await core.flag_fell(uow, game, state, now)
                await uow.commit()
                raise InvalidInputError(refusals.FLAG_FELL)
            try:
                move = parse_move(board, text)
            except PromotionChoiceError as choice:
                raise PromotionNeeded(
                    choice.text,
                    game_id=game.id,
                    ply=len(state.moves),
                    options=[
                        (san, m.uci())
                        for san, m in zip(choice.suggestions, choice.moves, strict=False)
                    ],
                ) from None
            except ChessMoveError as error:
                raise InvalidInputError.passing_on(error) from error
            update = await core.play(uow, game, state, move, user_id, now, reply_channel_id)
            await uow.commit()
        return update
