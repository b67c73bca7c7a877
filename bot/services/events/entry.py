"""A games event's registration: the host opens it, pairs register (the club's one
sign-up list) or withdraw, and pairs that move up are told."""

from __future__ import annotations

from bot.db.models_events import GamesEventRecord
from bot.db.uow import UnitOfWork
from bot.errors import InvalidInputError, PermissionDeniedError
from bot.messages import events as msg
from bot.messages.i18n import _
from bot.messages.post import Post
from bot.services import signups
from bot.services.events.core import EventCore, Member
from bot.services.events.options import (
    NAME_CHARS,
    OWNER,
    read_games,
    read_pairs,
)
from bot.services.events.snapshots import (
    EventSnapshot,
    PairSnapshot,
    Registered,
    Withdrawn,
)
from bot.services.transactions import transact


class EventEntry:
    """Opening the event and its list of pairs."""

    def __init__(self, core: EventCore) -> None:
        self.core = core

    async def open(
        self,
        *,
        guild_id: int,
        guild_name: str,
        channel_id: int,
        host: Member,
        is_moderator: bool,
        games: str | None = None,
        pairs: int | None = None,
        name: str | None = None,
    ) -> EventSnapshot:
        """A moderator opens a games event in this channel: its games and how many pairs play."""
        if not is_moderator:
            raise PermissionDeniedError(_(msg.MODERATORS_HOST))
        chosen = read_games(games)
        capacity = read_pairs(pairs)
        title = " ".join((name or "").split())[:NAME_CHARS] or msg.default_name()
        now = self.core.ctx.clock()
        async with self.core.ctx.uow() as uow:
            await uow.guilds.ensure(guild_id, guild_name)
            await uow.players.ensure(host.id, host.name)
            if await uow.events.open_in_channel(channel_id) is not None:
                raise InvalidInputError(_(msg.CHANNEL_HAS_EVENT))
            event = GamesEventRecord(
                guild_id=guild_id,
                channel_id=channel_id,
                host_id=host.id,
                name=title,
                games=chosen,
                pairs=capacity,
                status="open",
                version=1,
                created_at=now,
            )
            uow.events.add(event)
            await uow.events.flush()
            await signups.open_list(
                uow,
                guild_id=guild_id,
                owner_kind=OWNER,
                owner_id=event.id,
                capacity=capacity,
                team_size=2,
                now=now,
            )
            # The sign-up card is the cog's to post (``set_card`` keeps it), before
            # the host's reply points at it: it is edited when registration closes.
            view = await self.core.view(uow, event)
            await uow.commit()
        return view

    async def set_card(self, event_id: int, message_id: int) -> None:
        """Remember the event's sign-up card (edited when registration closes and at the end)."""

        async def work(uow: UnitOfWork) -> None:
            event = await uow.events.get(event_id)
            if event is not None:
                await self.core.bump(uow, event, card_message_id=message_id)

        await transact(self.core.ctx, work)

    async def register(
        self,
        *,
        guild_id: int,
        channel_id: int | None,
        ref: int | None,
        user: Member,
        partner: Member,
    ) -> Registered:
        """A member registers a pair with their partner (later pairs wait for a place)."""
        if partner.id == user.id:
            raise InvalidInputError(_(msg.PARTNER_IS_YOU))

        async def work(uow: UnitOfWork) -> Registered:
            event = await self.core.resolve(uow, guild_id, channel_id, ref)
            self.core.require_open(event)
            if await uow.events.rounds(event.id):
                raise InvalidInputError(msg.registration_over(event.name))
            await uow.players.ensure(user.id, user.name)
            await uow.players.ensure(partner.id, partner.name)
            lst = await signups.list_for(uow, OWNER, event.id)
            entry = await signups.join(
                uow,
                lst,
                user_id=user.id,
                partner_id=partner.id,
                what=msg.what(event.name),
                user_name=user.name,
                partner_name=partner.name,
                now=self.core.ctx.clock(),
            )
            view = await self.core.view(uow, event)
            pair = next(p for p in (*view.playing, *view.waiting) if p.user_id == entry.user_id)
            return Registered(view, pair)

        return await transact(self.core.ctx, work)

    async def withdraw(
        self, *, guild_id: int, channel_id: int | None, ref: int | None, user_id: int
    ) -> Withdrawn:
        """A pair leaves before the rounds start; the first waiting pair moves up."""

        async def work(uow: UnitOfWork) -> Withdrawn:
            event = await self.core.resolve(uow, guild_id, channel_id, ref)
            self.core.require_open(event)
            if await uow.events.rounds(event.id):
                raise InvalidInputError(msg.withdraw_too_late(event.name))
            lst = await signups.list_for(uow, OWNER, event.id)
            gone = await signups.withdraw(
                uow, lst, user_id=user_id, what=msg.what(event.name), now=self.core.ctx.clock()
            )
            view = await self.core.view(uow, event)
            moved = tuple(
                p for p in view.playing if p.user_id in {e.user_id for e in gone.moved_up}
            )
            for pair in moved:
                self.tell_moved_up(uow, event, pair)
            return Withdrawn(view, moved)

        return await transact(self.core.ctx, work)

    def tell_moved_up(self, uow: UnitOfWork, event: GamesEventRecord, pair: PairSnapshot) -> None:
        """The channel hears it; each partner gets a DM (a mention here if DMs are closed)."""
        uow.outbox.to_channel(
            event.channel_id, Post(content=msg.moved_up_post(event.name, pair.names, pair.place))
        )
        for member in pair.members:
            uow.outbox.to_user(
                member,
                Post(
                    content=msg.moved_up_dm(event.name, pair.place, event.channel_id),
                    fallback_content=msg.moved_up_fallback(event.name, pair.place),
                ),
                fallback_channel_id=event.channel_id,
            )
