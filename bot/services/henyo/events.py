"""An event's life: a moderator opens it, pairs register (the first ``pairs``
play, later ones wait), pairs withdraw (the first waiting pair moves up, and
both its members are told by DM, or by a mention in the event's channel when
their DMs are closed), and the host closes it, crowning the winners (with pairs
still to play, only once the host has confirmed).

Registering and withdrawing are the club's one sign-up mechanism on the event's
list (``bot.services.henyo.pairs``), in ``transact``; the refusals keep
Henyo's own words (the pair's number, the partner's name)."""

from __future__ import annotations

from bot.db.models_henyo import HenyoEventRecord
from bot.db.uow import UnitOfWork
from bot.errors import InvalidInputError, NotFoundError, PermissionDeniedError
from bot.messages import henyo as messages
from bot.messages.i18n import N_
from bot.messages.post import Post
from bot.services import signups
from bot.services.henyo.core import KIND, OPEN_ROUND, HenyoCore, require_host
from bot.services.henyo.options import event_options
from bot.services.henyo.pairs import (
    add_pair,
    close_event,
    event_pairs,
    new_event,
    number,
    signup_list,
)
from bot.services.henyo.snapshots import (
    EventClosed,
    EventSnapshot,
    Member,
    Registration,
    TeamSnapshot,
    UnfinishedEvent,
    Withdrawal,
)
from bot.services.henyo.standings import EventStandings, played_teams, ranking
from bot.services.results import record_points
from bot.services.transactions import transact


class Events:
    """An event's life: open it, register and withdraw pairs, keep its live list, close it."""

    def __init__(self, core: HenyoCore, standings: EventStandings) -> None:
        self.core = core
        self.standings = standings

    async def open(
        self,
        *,
        guild_id: int,
        guild_name: str,
        channel_id: int,
        host: Member,
        pairs: int | None = None,
        time_limit: str | None = None,
        penalty: str | None = None,
        categories: str | None = None,
        language: str | None = None,
        is_moderator: bool = True,
        strict: bool = False,
        referee: str | None = None,
    ) -> EventSnapshot:
        """``strict``: the event's rounds take the bare Oo / Hindi / Pwede only;
        ``referee``: ``host`` plays them aloud from the host's console by default."""
        options = event_options(
            pairs=pairs,
            time_limit=time_limit,
            penalty=penalty,
            categories=categories,
            language=language,
            strict=strict,
            referee=referee,
        )
        # The host of an open event may see the club's word bank: only moderators host.
        if not is_moderator:
            raise PermissionDeniedError(messages.MODERATORS_HOST)

        async def work(uow: UnitOfWork) -> EventSnapshot:
            await uow.guilds.ensure(guild_id, guild_name)
            await uow.players.ensure(host.id, host.name)
            existing = await uow.henyo.open_event_in_channel(channel_id)
            if existing is not None:
                raise InvalidInputError(messages.channel_has_an_event(existing.host_id))
            event, _lst = await new_event(
                uow,
                guild_id=guild_id,
                channel_id=channel_id,
                host_id=host.id,
                options=options,
                now=self.core.ctx.clock(),
            )
            view = await self.core.event_view(uow, event)
            return view

        return await transact(self.core.ctx, work)

    async def set_list_message(self, event_id: int, message_id: int) -> None:
        """Remember the live registration list message (edited on every change)."""
        async with self.core.ctx.uow() as uow:
            await uow.henyo.set_list_message(event_id, message_id)
            await uow.commit()

    async def get(self, event_id: int) -> EventSnapshot:
        """The event by id, as members see it."""
        async with self.core.ctx.uow() as uow:
            event = await uow.henyo.event(event_id)
            if event is None:
                raise NotFoundError(messages.no_event(event_id))
            return await self.core.event_view(uow, event)

    async def register(
        self,
        *,
        guild_id: int,
        guild_name: str,
        channel_id: int,
        user: Member,
        partner: Member,
        role: str = "guesser",
    ) -> Registration:
        """Register ``user`` and ``partner`` as a pair (``user`` plays ``role``) in the open
        event here, or the guild's only one; past the event's ``pairs``, the pair waits."""
        if partner.id == user.id:
            raise InvalidInputError(messages.PARTNER_IS_YOU)
        if role not in ("guesser", "answerer"):
            raise InvalidInputError(messages.ROLE_CHOICES)

        async def work(uow: UnitOfWork) -> Registration:
            await uow.guilds.ensure(guild_id, guild_name)
            event = await self.core.event_for_members(uow, guild_id, channel_id)
            await uow.players.ensure(user.id, user.name)
            await uow.players.ensure(partner.id, partner.name)
            lst = await signup_list(uow, event)
            try:
                team = await add_pair(
                    uow,
                    event,
                    lst,
                    user_id=user.id,
                    partner_id=partner.id,
                    user_guesses=role == "guesser",
                    now=self.core.ctx.clock(),
                )
            except signups.AlreadyOnList as refused:
                if refused.member_id == user.id:
                    place = number(refused.entrant, lst.capacity)
                    raise InvalidInputError(messages.already_registered(place)) from None
                raise InvalidInputError(messages.partner_taken(partner.name)) from None
            view = await self.core.event_view(uow, event)
            return Registration(view, next(t for t in view.teams if t.id == team.id))

        return await transact(self.core.ctx, work)

    async def withdraw(self, *, guild_id: int, channel_id: int, user_id: int) -> Withdrawal:
        """Take the member's pair out of the event before it has played; the first waiting pair
        moves up and is told."""

        async def work(uow: UnitOfWork) -> Withdrawal:
            event = await self.core.event_for_members(uow, guild_id, channel_id)
            lst = await uow.signups.lock(await signup_list(uow, event))
            team = (await event_pairs(uow, event)).registered(user_id)
            if team is None:
                raise InvalidInputError(messages.NOT_REGISTERED)
            rounds = await uow.henyo.event_rounds(event.id)
            if any(r.team_id == team.id and r.status != "cancelled" for r in rounds):
                raise InvalidInputError(messages.ALREADY_PLAYED)
            out = await signups.withdraw(uow, lst, user_id=user_id, now=self.core.ctx.clock())
            # The event's version too: a disqualification at the same time is redone.
            await self.core.bump(uow, event)
            pairs = await event_pairs(uow, event)
            names = await self.core.names(uow, pairs.members)
            moved = [pairs.view(t, names) for t in pairs.with_entries(out.moved_up)]
            for pair in moved:
                self.core.post(uow, event.channel_id, messages.moved_up(pair.label, pair.number))
                self._tell_moved_up(uow, event, pair)
            view = await self.core.event_view(uow, event)
            return Withdrawal(view, pairs.view(team, names), moved[0] if moved else None)

        return await transact(self.core.ctx, work)

    def _tell_moved_up(self, uow: UnitOfWork, event: HenyoEventRecord, pair: TeamSnapshot) -> None:
        """A DM to each member of the pair; closed DMs: a mention of that member only,
        in the event's channel."""
        dm, fallback = messages.moved_up_dm(pair.label, pair.number, event.id, event.channel_id)
        for player in (pair.guesser, pair.answerer):
            uow.outbox.to_user(
                player.id,
                Post(content=dm, fallback_content=fallback),
                fallback_channel_id=event.channel_id,
            )

    async def close(
        self,
        *,
        guild_id: int,
        channel_id: int,
        user_id: int,
        is_moderator: bool,
        event_id: int | None = None,
        confirmed: bool = False,
    ) -> EventClosed | UnfinishedEvent:
        """Close the event (``event_id``, or the one the channel finds).

        While pairs have still to play their word, nothing changes until the
        host confirms (``confirmed``): the answer lists those pairs instead.
        """

        async def work(uow: UnitOfWork) -> EventClosed | UnfinishedEvent:
            if event_id is None:
                event = await self.core.event_for_members(uow, guild_id, channel_id)
            else:
                found = await uow.henyo.event(event_id)
                if found is None or found.guild_id != guild_id:
                    raise NotFoundError(messages.no_event_here(event_id))
                event = found
            require_host(event, user_id, is_moderator, N_("close the event"))
            if event.status != "open":
                raise InvalidInputError(messages.event_already_closed(event.id))
            rounds = await uow.henyo.event_rounds(event.id)
            if any(r.status in OPEN_ROUND for r in rounds):
                raise InvalidInputError(messages.ROUND_STILL_RUNNING)
            if not confirmed:
                view = await self.core.event_view(uow, event)
                played = played_teams(rounds)
                not_played = [t for t in view.teams if t.status == "playing" and t.id not in played]
                table = ranking(await event_pairs(uow, event), rounds)
                waiting = {i for tie in table.ties for i in tie.waiting_ids}
                tie_break = [t for t in view.teams if t.id in waiting]
                if not_played or tie_break:
                    return UnfinishedEvent(view, not_played, tie_break)
            standings = await self.standings.build(uow, event, rounds)
            winner = standings.leaders[0] if len(standings.leaders) == 1 else None
            now = self.core.ctx.clock()
            if winner is not None:
                row = next(r for r in standings.rows if r.team.id == winner.id)
                for player in (winner.guesser, winner.answerer):
                    await record_points(
                        uow,
                        guild_id=event.guild_id,
                        kind=KIND,
                        player_id=player.id,
                        points=None,
                        played_at=now,
                        round_ref=f"henyo:event:{event.id}",
                        outcome="win",
                        time_ms=None,
                        extra={
                            "type": "event_win",
                            "event_id": event.id,
                            "final_ms": row.final_ms,
                        },
                    )
            await close_event(uow, event, winner.id if winner else None, now)
            standings = await self.standings.build(uow, event, rounds)
            return EventClosed(standings.event, standings, winner)

        return await transact(self.core.ctx, work)
