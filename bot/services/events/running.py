"""A games event's rounds and prizes: the host starts each game's round (a Henyo
event of the pairs, a Boggle round, a Scrabble or chess tournament) and writes
the prize lines."""

from __future__ import annotations

from collections.abc import Sequence

from bot.db.models_events import GamesEventPrizeRecord, GamesEventRecord
from bot.db.uow import UnitOfWork
from bot.errors import InvalidInputError
from bot.messages import events as msg
from bot.messages.post import Post
from bot.services import signups
from bot.services.events import rounds
from bot.services.events.core import EventCore
from bot.services.events.options import (
    OWNER,
    TOURNAMENT_GAMES,
    read_format,
    read_game,
    read_place,
    read_prize,
)
from bot.services.events.snapshots import (
    Prize,
    RoundStarted,
)
from bot.services.henyo.options import read_referee
from bot.services.transactions import transact


class EventRunning:
    """Each game's round, and the host's prizes."""

    def __init__(self, core: EventCore) -> None:
        self.core = core

    async def start_round(
        self,
        *,
        guild_id: int,
        guild_name: str,
        channel_id: int | None,
        ref: int | None,
        user_id: int,
        is_moderator: bool,
        game: str,
        fmt: str | None = None,
        rounds_count: int | None = None,
        duration: str | None = None,
        referee: str | None = None,
    ) -> RoundStarted:
        """The host starts ``game``'s round for the pairs playing; registration closes.
        ``referee`` (Henyo): ``host`` plays the words aloud, refereed from the host's console."""
        chosen = read_game(game)
        refereed_by = read_referee(referee)
        tournament_format = read_format(fmt) if chosen in TOURNAMENT_GAMES else None

        async def claim(uow: UnitOfWork) -> tuple[GamesEventRecord, Sequence[signups.Entrant]]:
            event = await self.core.resolve(uow, guild_id, channel_id, ref)
            self.core.require_host(event, user_id, is_moderator)
            self.core.require_open(event)
            if chosen not in event.games:
                raise InvalidInputError(msg.game_not_in_event(chosen, event.games))
            existing = next(
                (r for r in await uow.events.rounds(event.id) if r.game == chosen), None
            )
            if existing is not None:
                # A Boggle round cancelled with /boggle cancel may be started again.
                record = await uow.boggle.get_round(existing.ref_id) if chosen == "boggle" else None
                if record is None or record.status != "cancelled":
                    raise InvalidInputError(msg.round_started_already(chosen))
                await uow.events.delete(existing)
            lst = await signups.list_for(uow, OWNER, event.id)
            playing = (await signups.roster(uow, lst)).playing
            if len(playing) < 2:
                raise InvalidInputError(msg.too_few_pairs(len(playing), 2))
            await self.core.bump(uow, event)
            await rounds.close_signups(uow, event)
            return event, playing

        if chosen == "boggle":
            boggle = self.core.boggle()
            if boggle is None:
                raise InvalidInputError(msg.game_not_loaded(chosen))
            async with self.core.ctx.reader() as uow:
                event = await self.core.resolve(uow, guild_id, channel_id, ref)
                event_id, event_channel = event.id, event.channel_id
            ref_id = await rounds.start_boggle(
                boggle,
                guild_id=guild_id,
                channel_id=event_channel,
                guild_name=guild_name,
                started_by=user_id,
                duration=duration,
                claim=claim,
            )
            async with self.core.ctx.reader() as uow:
                fresh = await self.core.resolve(uow, guild_id, None, event_id)
                view = await self.core.view(uow, fresh)
            return RoundStarted(view, chosen, ref_id, len(view.playing))

        async def work(uow: UnitOfWork) -> RoundStarted:
            event, playing = await claim(uow)
            now = self.core.ctx.clock()
            if chosen == "henyo":
                ref_id = await rounds.start_henyo(
                    uow, event, playing, user_id, now, referee=refereed_by
                )
                uow.outbox.to_channel(
                    event.channel_id, Post(content=msg.henyo_round(event.name, len(playing)))
                )
            else:
                tournaments = self.core.tournaments()
                if tournaments is None:
                    raise InvalidInputError(msg.game_not_loaded(chosen))
                assert tournament_format is not None
                ref_id = await rounds.start_tournament(
                    tournaments,
                    uow,
                    event,
                    chosen,
                    tournament_format,
                    rounds_count,
                    playing,
                    user_id,
                )
            view = await self.core.view(uow, event)
            return RoundStarted(view, chosen, ref_id, len(playing))

        return await transact(self.core.ctx, work)

    async def prize(
        self,
        *,
        guild_id: int,
        channel_id: int | None,
        ref: int | None,
        user_id: int,
        is_moderator: bool,
        game: str,
        place: int | None,
        text: str,
    ) -> Prize:
        """The host writes (or rewrites) the prize line of a game's place."""
        chosen = read_game(game)
        at = read_place(place)
        line = read_prize(text)

        async def work(uow: UnitOfWork) -> Prize:
            event = await self.core.resolve(uow, guild_id, channel_id, ref)
            self.core.require_host(event, user_id, is_moderator)
            self.core.require_open(event)
            if chosen not in event.games:
                raise InvalidInputError(msg.game_not_in_event(chosen, event.games))
            await self.core.bump(uow, event)
            existing = next(
                (
                    p
                    for p in await uow.events.prizes(event.id)
                    if p.game == chosen and p.place == at
                ),
                None,
            )
            if existing is None:
                uow.events.add(
                    GamesEventPrizeRecord(
                        event_id=event.id,
                        game=chosen,
                        place=at,
                        text=line,
                        written_by=user_id,
                        created_at=self.core.ctx.clock(),
                    )
                )
            else:
                existing.text, existing.written_by = line, user_id
            return Prize(chosen, at, line)

        return await transact(self.core.ctx, work)
