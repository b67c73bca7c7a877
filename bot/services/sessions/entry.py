"""A club session's sign-up stage: a moderator opens it, members sign up (the one
sign-up mechanism, ``bot.services.signups``) or withdraw, or a moderator names them."""

from __future__ import annotations

from bot.db.models_sessions import ClubSessionRecord
from bot.db.uow import UnitOfWork
from bot.errors import InvalidInputError, PermissionDeniedError
from bot.messages import sessions as messages
from bot.messages.errors import moderators_only
from bot.services import signups
from bot.services.sessions.core import OWNER, WHAT, SessionCore
from bot.services.sessions.options import read_options
from bot.services.sessions.snapshots import Member, SessionSnapshot, SignedUp
from bot.services.transactions import transact


class SessionEntry:
    """Opening a session and its sign-up list."""

    def __init__(self, core: SessionCore) -> None:
        self.core = core

    async def open(
        self,
        *,
        guild_id: int,
        guild_name: str,
        channel_id: int,
        moderator: Member,
        is_moderator: bool,
        clock: str | None = None,
        length: str | None = None,
        explain: bool | None = None,
        challenge: str | None = None,
        word_list: str | None = None,
        odd: str | None = None,
        where: str | None = None,
        board_pairs: int | None = None,
    ) -> SessionSnapshot:
        """A moderator opens a session in this channel, with its options; sign-ups open
        (``where`` 'room': played over real boards, the bot keeping the tally)."""
        if not is_moderator:
            raise PermissionDeniedError(moderators_only("open a session"))
        options = read_options(
            clock=clock,
            length=length,
            explain=explain,
            challenge=challenge,
            word_list=word_list,
            odd=odd,
            where=where,
            board_pairs=board_pairs,
        )
        # The word list is checked as a board would check it (2 seats: any count will do).
        self.core.boards.settings(
            seats=2,
            clock_seconds=options.clock_seconds,
            deadline_seconds=options.length_seconds,
            challenge=options.challenge,
            word_list=options.word_list,
            explain=options.explain,
            room=options.in_room,
        )
        now = self.core.ctx.clock()

        async def work(uow: UnitOfWork) -> SessionSnapshot:
            await uow.guilds.ensure(guild_id, guild_name)
            await uow.players.ensure(moderator.id, moderator.name)
            if await uow.sessions.current_in_channel(channel_id) is not None:
                raise InvalidInputError(messages.SESSION_ALREADY_OPEN)
            row = ClubSessionRecord(
                guild_id=guild_id,
                channel_id=channel_id,
                moderator_id=moderator.id,
                status="open",
                options=options.to_json(),
                groups=[],
                version=1,
                created_at=now,
            )
            uow.sessions.add(row)
            await uow.sessions.flush()
            await signups.open_list(
                uow, guild_id=guild_id, owner_kind=OWNER, owner_id=row.id, now=now
            )
            view = await self.core.view(uow, row)
            return view

        return await transact(self.core.ctx, work)

    async def set_message(self, session_id: int, message_id: int) -> None:
        """Remember the sign-up post (edited as members sign up)."""

        async def work(uow: UnitOfWork) -> None:
            row = await uow.sessions.get(session_id)
            if row is not None:
                await self.core.bump(uow, row, message_id=message_id)

        await transact(self.core.ctx, work)

    async def signup(
        self,
        *,
        guild_id: int,
        channel_id: int,
        user: Member,
        by: Member,
        is_moderator: bool,
        partner: Member | None = None,
        session_id: int | None = None,
    ) -> SignedUp:
        """``user`` signs up (with ``partner`` when they asked to play together);
        ``by`` someone else: a moderator naming who plays."""
        by_moderator = by.id != user.id
        if by_moderator and not is_moderator:
            raise PermissionDeniedError(messages.NAMING_IS_FOR_MODERATORS)
        if user.is_bot or (partner is not None and partner.is_bot):
            raise InvalidInputError(messages.NO_BOTS)
        now = self.core.ctx.clock()

        async def work(uow: UnitOfWork) -> SignedUp:
            row = await self.core.current(uow, guild_id, channel_id, session_id)
            if row.status != "open":
                raise InvalidInputError(messages.signups_closed(row.status))
            await uow.players.ensure(user.id, user.name)
            if partner is not None:
                await uow.players.ensure(partner.id, partner.name)
            lst = await signups.list_for(uow, OWNER, row.id)
            entrant = await signups.join(
                uow,
                lst,
                user_id=user.id,
                partner_id=partner.id if partner else None,
                added_by=by.id if by_moderator else None,
                what=WHAT,
                user_name=user.name,
                partner_name=partner.name if partner else "",
                now=now,
            )
            view = await self.core.view(uow, row)
            entry = next(e for e in view.entries if e.place == entrant.place)
            return SignedUp(view, entry, by_moderator)

        return await transact(self.core.ctx, work)

    async def withdraw(
        self, *, guild_id: int, channel_id: int, user_id: int, session_id: int | None = None
    ) -> SessionSnapshot:
        """A member leaves the sign-up list (before the groups are formed)."""
        now = self.core.ctx.clock()

        async def work(uow: UnitOfWork) -> SessionSnapshot:
            row = await self.core.current(uow, guild_id, channel_id, session_id)
            if row.status != "open":
                raise InvalidInputError(messages.signups_closed(row.status))
            lst = await signups.list_for(uow, OWNER, row.id)
            await signups.withdraw(uow, lst, user_id=user_id, what=WHAT, now=now)
            view = await self.core.view(uow, row)
            return view

        return await transact(self.core.ctx, work)
