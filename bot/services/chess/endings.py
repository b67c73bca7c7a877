"""The endings a player chooses: resigning, and draws offered, answered or claimed.

A draw offer stands until it is answered, withdrawn, or the opponent moves
instead of answering (``ChessCore.play`` lets it lapse then).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import Any

from bot.db.models import GameRecord, JobRecord
from bot.db.uow import UnitOfWork
from bot.errors import InvalidInputError
from bot.messages import chess as msg
from bot.messages.chess import refusals
from bot.services.chess.core import UseCase
from bot.services.chess.options import read_draw_action
from bot.services.chess.snapshots import ChessUpdate
from bot.services.chess.state import ChessState
from bot.services.games import WhichGame
from engines.chess_game import ChessError, agreement, claim_draw, resignation

# Takes the Accept and Decline buttons of a game's draw offer off the bot's posts in
# a channel: (channel_id, game_id); given by the cog (it is a call to Discord).
OfferButtonsRemover = Callable[[int, int], Awaitable[None]]


class OfferAnsweredError(InvalidInputError):
    """A draw offer's button pressed after the offer was answered (on the board page,
    by a command, by another post's button) or lapsed: nothing changes."""

    code = "offer_answered"


class Endings(UseCase):
    """The endings a player chooses: resigning, and draws offered, answered or claimed."""

    # Given by the cog: see ``OfferButtonsRemover``.
    offer_buttons_remover: OfferButtonsRemover | None = None

    async def resign(
        self,
        game_id: WhichGame,
        user_id: int,
        *,
        reply_channel_id: int | None = None,
        guild_id: int | None = None,
    ) -> ChessUpdate:
        """``user_id``'s side resigns: the game ends, a loss for them."""
        core = self.core
        now = core.now()
        async with core.ctx.uow() as uow:
            game, color, state = await core.players_turn(uow, game_id, user_id, guild_id)
            names = await uow.players.of_seats(game.seats)  # the member is seated
            update = await core.finish(
                uow,
                game,
                state,
                resignation(color),
                now,
                reply_channel_id=reply_channel_id,
                headline=msg.news(msg.RESIGNED, names.get(user_id) or msg.someone()),
            )
            await uow.commit()
        return update

    async def draw(
        self,
        game_id: WhichGame,
        user_id: int,
        action: str,
        *,
        reply_channel_id: int | None = None,
        guild_id: int | None = None,
        answering: bool = False,
    ) -> ChessUpdate:
        """``offer``, ``accept``, ``decline`` (or withdraw one's own offer) or ``claim``.
        ``answering``: pressed on an offer's own buttons, which answer that offer only:
        with none waiting (answered or lapsed since), ``OfferAnsweredError``."""
        chosen = read_draw_action(action)
        core = self.core
        now = core.now()
        async with core.ctx.uow() as uow:
            game = await core.game(uow, game_id, guild_id)
            if answering and (
                game.status != "active" or (game.state or {}).get("draw_offer") is None
            ):
                raise OfferAnsweredError(refusals.OFFER_ANSWERED)
            game, color, state = await core.players_turn(uow, game.id, user_id, guild_id)
            snap = await core.snapshot(uow, game, state)
            me, other = snap.player(color).name, snap.player(not color)
            theirs = state.draw_offer == (not color)
            if chosen == "claim":
                try:
                    finish = claim_draw(state.board(), color)
                except ChessError as error:
                    raise InvalidInputError.passing_on(error) from error
                update = await core.finish(
                    uow,
                    game,
                    state,
                    finish,
                    now,
                    reply_channel_id=reply_channel_id,
                    headline=msg.news(msg.DRAW_CLAIMED, me),
                )
            elif chosen == "accept" or (chosen == "offer" and theirs):
                if not theirs:
                    raise InvalidInputError(refusals.no_offer_to_accept(other.name))
                update = await core.finish(
                    uow,
                    game,
                    state,
                    agreement(),
                    now,
                    reply_channel_id=reply_channel_id,
                    headline=msg.news(msg.DRAW_ACCEPTED, me),
                )
            elif chosen == "offer":
                if other.is_computer:
                    raise InvalidInputError(refusals.COMPUTER_PLAYS_ON)
                if state.draw_offer == color:
                    raise InvalidInputError(refusals.offer_waiting(other.name))
                offered = replace(state, draw_offer=color)
                update = await self._set_offer(
                    uow, game, offered, msg.news(msg.DRAW_OFFERED, me), reply_channel_id
                )
            else:  # decline
                if state.draw_offer is None:
                    raise InvalidInputError(refusals.NO_OFFER_TO_DECLINE)
                headline = (
                    msg.news(msg.DRAW_WITHDRAWN, me)
                    if state.draw_offer == color
                    else msg.news(msg.DRAW_DECLINED, me)
                )
                withdrawn = replace(state, draw_offer=None)
                update = await self._set_offer(uow, game, withdrawn, headline, reply_channel_id)
            await uow.commit()
        return update

    async def _set_offer(
        self,
        uow: UnitOfWork,
        game: GameRecord,
        state: ChessState,
        headline: str,
        reply_channel_id: int | None,
    ) -> ChessUpdate:
        core = self.core
        await core.save(uow, game, state)
        snap = await core.snapshot(uow, game, state)
        return core.announce(uow, snap, headline, reply_channel_id)

    async def prepare_offer_answered(self, payload: dict[str, Any]) -> None:
        """Job ``JOB_OFFER_ANSWERED``, outside its transaction (it is a call to Discord):
        the answered offer's buttons come off the game's posts. Discord's own trouble is
        raised, so the job tries again later; taking them off twice changes nothing."""
        remover = self.offer_buttons_remover
        if remover is not None:
            await remover(int(payload["channel_id"]), int(payload["game_id"]))

    async def on_offer_answered(self, uow: UnitOfWork, job: JobRecord, prepared: None) -> None:
        """Nothing to write: the buttons came off in ``prepare_offer_answered``."""
