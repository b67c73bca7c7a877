"""A games event's standings: each game's table, with the prize lines."""

from __future__ import annotations

from bot.db.models_events import GamesEventRecord
from bot.db.uow import UnitOfWork
from bot.errors import InvalidInputError, NotFoundError
from bot.messages import events as msg
from bot.messages.i18n import _
from bot.services.events.core import EventCore
from bot.services.events.options import (
    read_game,
)
from bot.services.events.snapshots import (
    EventStandings,
    Prize,
)
from bot.services.events.standings import game_table


class EventReading:
    """Each game's table, as /event standings and the final post show it."""

    def __init__(self, core: EventCore) -> None:
        self.core = core

    async def standings(
        self, *, guild_id: int, channel_id: int | None, ref: int | None, game: str | None = None
    ) -> EventStandings:
        """The event's standings (this channel's, else the guild's latest), one game or all."""
        only = read_game(game) if game else None
        async with self.core.ctx.reader() as uow:
            if ref is None and channel_id is not None:
                event = await uow.events.open_in_channel(channel_id)
                if event is None:
                    latest = await uow.events.in_guild(guild_id)
                    if not latest:
                        raise NotFoundError(_(msg.NO_EVENTS_YET))
                    event = latest[0]
            else:
                event = await self.core.resolve(uow, guild_id, channel_id, ref)
            if only is not None and only not in event.games:
                raise InvalidInputError(msg.game_not_in_event(only, event.games))
            return await self.table(uow, event, only)

    async def table(
        self, uow: UnitOfWork, event: GamesEventRecord, only: str | None = None
    ) -> EventStandings:
        """Each game's table (or ``only`` one), with the prize lines."""
        view = await self.core.view(uow, event)
        by_game = {r.game: r for r in await uow.events.rounds(event.id)}
        members = [m for r in by_game.values() for p in r.pairs for m in p]
        members += [m for p in view.playing for m in p.members]
        names = await uow.players.names(members)
        tables = tuple(
            [
                await game_table(uow, g, by_game.get(g), names)
                for g in event.games
                if only is None or g == only
            ]
        )
        prizes = tuple(Prize(p.game, p.place, p.text) for p in await uow.events.prizes(event.id))
        return EventStandings(view, tables, prizes)
