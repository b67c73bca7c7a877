"""Vacations: a correspondence player pauses their own clock for some days.

The allowance is per player per game (``engines.chess_clock.MAX_VACATION_DAYS``);
a live clock is never paused.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta

from bot.db.models import GameRecord
from bot.db.uow import UnitOfWork
from bot.errors import InvalidInputError, NotFoundError
from bot.messages import chess as msg
from bot.messages.chess import refusals
from bot.messages.i18n import _
from bot.messages.post import Post
from bot.services.chess.core import UseCase
from bot.services.chess.options import KIND, options_of
from bot.services.chess.snapshots import ChessSnapshot, VacationResult
from bot.services.chess.state import ChessState
from engines.chess_clock import VacationError, parse_time_control


class Vacations(UseCase):
    """``/chess vacation``: correspondence players pausing their own clocks."""

    async def take(
        self, *, guild_id: int, user_id: int, days: int, game_id: int | None = None
    ) -> VacationResult:
        """Pause ``user_id``'s clock for ``days`` (0 ends the vacation) in one or all correspondence games."""
        core = self.core
        now = core.now()
        async with core.ctx.uow() as uow:
            games = await self._correspondence_games(uow, guild_id, user_id, game_id)
            snaps: list[ChessSnapshot] = []
            days_left = float("inf")
            for game in games:
                color = core.require_player(game, user_id)
                state = ChessState.load(game)
                clock = state.running_clock()
                if days == 0 and clock.vacation_until(color, now) is None:
                    continue  # not away in this game: nothing to end
                try:
                    clock = clock.with_vacation(color, now, days)
                except VacationError as error:
                    raise InvalidInputError.passing_on(
                        error, frame=refusals.IN_GAME, number=game.number
                    ) from error
                new = replace(state, clock=clock)
                await core.save(uow, game, new, deadline=clock.flag_time())
                snap = await core.snapshot(uow, game, new)
                await core.schedule_turn(uow, snap, now)
                days_left = min(days_left, clock.vacation_days_left(color))
                if snap.place_id is not None:
                    note = msg.vacation_note(
                        game.number, snap.player(color).name, clock.vacation_until(color, now)
                    )
                    uow.outbox.to_channel(snap.place_id, Post(content=note))
                snaps.append(snap)
            if not snaps:
                raise InvalidInputError(refusals.NOT_ON_VACATION)
            await uow.commit()
        until = now + timedelta(days=days) if days > 0 else None
        return VacationResult(tuple(snaps), until, days_left)

    async def _correspondence_games(
        self, uow: UnitOfWork, guild_id: int, user_id: int, game_id: int | None
    ) -> list[GameRecord]:
        """The one game asked for, else all the member's games in progress here; live ones left out."""
        core = self.core
        asked = None
        if game_id is not None:
            asked = await core.game(uow, game_id, guild_id)
            core.require_player(asked, user_id)
            core.require_active(asked)
            games = [asked]
        else:
            games = await uow.games.for_player(
                user_id, guild_id=guild_id, kind=KIND, statuses=("active",)
            )
        games = [
            g
            for g in games
            if not parse_time_control(options_of(g.options).get("time_control")).is_live
        ]
        if not games:
            raise NotFoundError(
                refusals.NO_CORRESPONDENCE_GAME
                if asked is None
                else _(refusals.LIVE_CLOCK_NO_VACATION).format(asked.number)
            )
        return games
