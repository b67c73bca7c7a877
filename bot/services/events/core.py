"""What every stage of a games event reads: the event a command means, the version
bump that serializes changes, the host check, and the event as members see it
(see ``bot.services.events.service`` for the whole)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from bot.db.models_events import GamesEventRecord
from bot.db.uow import UnitOfWork
from bot.errors import InvalidInputError, NotFoundError, PermissionDeniedError
from bot.messages import events as msg
from bot.messages.i18n import _
from bot.services import ServiceContext, signups
from bot.services.boggle import BoggleService
from bot.services.events.options import (
    OWNER,
)
from bot.services.events.snapshots import (
    EventSnapshot,
    PairSnapshot,
)
from bot.services.tournaments.service import TournamentService


@dataclass(frozen=True)
class Member:
    """A member as a command names them."""

    id: int
    name: str


class EventCore:
    """The context and the games' own services (the cog hands them over when it runs a
    round: they are loaded by their own cogs)."""

    def __init__(
        self,
        ctx: ServiceContext,
        *,
        boggle: Callable[[], BoggleService | None] = lambda: None,
        tournaments: Callable[[], TournamentService | None] = lambda: None,
    ) -> None:
        self.ctx = ctx
        self.boggle = boggle
        self.tournaments = tournaments

    async def bump(self, uow: UnitOfWork, event: GamesEventRecord, **changes: object) -> None:
        """Change the event at its version; another change first retries the unit of work."""
        if not await uow.events.bump(event, **changes):
            raise signups.ListChanged()  # retried from a fresh read

    async def resolve(
        self, uow: UnitOfWork, guild_id: int, channel_id: int | None, ref: int | None
    ) -> GamesEventRecord:
        """The event numbered ``ref``, else this channel's open event, else the
        guild's only open event."""
        if ref is not None:
            event = await uow.events.get(ref)
            if event is None or event.guild_id != guild_id:
                raise NotFoundError(msg.no_event(ref))
            return event
        if channel_id is not None:
            here = await uow.events.open_in_channel(channel_id)
            if here is not None:
                return here
        found = await uow.events.in_guild(guild_id, status="open")
        if not found:
            raise NotFoundError(_(msg.NO_OPEN_EVENT))
        if len(found) > 1:
            raise InvalidInputError(msg.several_events([e.id for e in found]))
        return found[0]

    @staticmethod
    def require_host(event: GamesEventRecord, user_id: int, is_moderator: bool) -> None:
        """Only the host (or a moderator) runs the event."""
        if user_id != event.host_id and not is_moderator:
            raise PermissionDeniedError(msg.host_only(event.host_id))

    @staticmethod
    def require_open(event: GamesEventRecord) -> None:
        """A closed event changes no more."""
        if event.status != "open":
            raise InvalidInputError(msg.event_closed(event.name))

    async def view(self, uow: UnitOfWork, event: GamesEventRecord) -> EventSnapshot:
        """The event as members see it: its pairs playing and waiting, its rounds started."""
        lst = await signups.list_for(uow, OWNER, event.id)
        roster = await signups.roster(uow, lst)
        names = await uow.players.names([m for e in roster.entrants for m in e.members])
        playing = tuple(self.pair(e, names, e.place) for e in roster.playing)
        waiting = tuple(
            self.pair(e, names, number) for number, e in enumerate(roster.waiting, start=1)
        )
        started = tuple(r.game for r in await uow.events.rounds(event.id))
        return EventSnapshot(
            event.id,
            event.guild_id,
            event.channel_id,
            event.host_id,
            event.name,
            tuple(event.games),
            event.pairs,
            event.status,
            playing,
            waiting,
            started,
            event.card_message_id,
        )

    @staticmethod
    def pair(entry: signups.Entrant, names: dict[int, str], place: int) -> PairSnapshot:
        """A sign-up entry as the event's pair at ``place``."""
        partner = entry.partner_id if entry.partner_id is not None else entry.user_id
        return PairSnapshot(
            place,
            entry.user_id,
            partner,
            (names.get(entry.user_id, str(entry.user_id)), names.get(partner, str(partner))),
            entry.waiting,
        )

    async def name_of(self, *, guild_id: int, event_id: int) -> str:
        """The event's name, as the partner picker names it."""
        async with self.ctx.reader() as uow:
            return (await self.resolve(uow, guild_id, None, event_id)).name
