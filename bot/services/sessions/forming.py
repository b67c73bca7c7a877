"""A club session's groups: the first ``start`` forms them from a stored seed
(``engines.sessions``), ``swap`` trades two members, and the second ``start`` makes
every board a Scrabble game and schedules its opening and the session's deadline."""

from __future__ import annotations

from datetime import datetime, timedelta

from bot.db.models_sessions import ClubSessionRecord, SessionBoardRecord
from bot.db.uow import UnitOfWork
from bot.errors import InvalidInputError, PermissionDeniedError
from bot.messages import sessions as messages
from bot.messages.errors import moderators_only
from bot.services import signups
from bot.services.scheduling import hooks as event_hooks
from bot.services.scrabble.options import Member as Seated
from bot.services.scrabble.seating import seat_game
from bot.services.sessions.core import (
    JOB_DEADLINE,
    JOB_OPEN_BOARD,
    JOB_WATCH,
    OWNER,
    WATCH_EVERY,
    SessionCore,
    deadline_key,
    open_key,
    watch_key,
)
from bot.services.sessions.options import SessionOptions
from bot.services.sessions.snapshots import Member, SessionSnapshot, Swapped
from bot.services.transactions import transact
from engines.sessions import MIN_MEMBERS, GroupingError, board_of, form_groups, swap_members


class SessionForming:
    """Forming the groups, swapping members, and starting the boards."""

    def __init__(self, core: SessionCore) -> None:
        self.core = core

    async def start(
        self, *, guild_id: int, channel_id: int, by: Member, is_moderator: bool
    ) -> SessionSnapshot:
        """First call: form the groups (nothing is played yet, swaps still allowed).
        Second call: the boards start."""
        if not is_moderator:
            raise PermissionDeniedError(moderators_only("start a session"))
        now = self.core.ctx.clock()
        seed = self.core.rng.randrange(2**62)

        async def work(uow: UnitOfWork) -> SessionSnapshot:
            row = await self.core.current(uow, guild_id, channel_id)
            if row.status == "open":
                await self._form(uow, row, seed)
            elif row.status == "formed":
                await self._begin(uow, row, by.id, now)
            else:
                raise InvalidInputError(messages.ALREADY_STARTED)
            view = await self.core.view(uow, row)
            return view

        return await transact(self.core.ctx, work)

    async def _form(self, uow: UnitOfWork, row: ClubSessionRecord, seed: int) -> None:
        lst = await signups.list_for(uow, OWNER, row.id)
        roster = await signups.roster(uow, lst)
        members = list(roster.members)
        if len(members) < MIN_MEMBERS:
            raise InvalidInputError(messages.too_few(len(members), MIN_MEMBERS))
        requested = [(e.user_id, e.partner_id) for e in roster.playing if e.partner_id is not None]
        options = SessionOptions.from_json(row.options)
        try:
            groups = form_groups(
                members, requested, seed, odd=options.odd, board_pairs=options.board_pairs
            )
        except GroupingError as exc:
            raise InvalidInputError.passing_on(exc, frame=messages.CANNOT_GROUP) from exc
        await signups.close(uow, lst)
        await self.core.bump(uow, row, status="formed", seed=seed, groups=groups)

    async def _begin(self, uow: UnitOfWork, row: ClubSessionRecord, by: int, now: datetime) -> None:
        options = SessionOptions.from_json(row.options)
        deadline = now + timedelta(seconds=options.length_seconds)
        names = await uow.players.names(
            [user for board in row.groups for seat in board for user in seat]
        )
        for number, board in enumerate(row.groups, start=1):
            settings = self.core.boards.settings(
                seats=len(board),
                clock_seconds=options.clock_seconds,
                deadline_seconds=options.length_seconds,
                challenge=options.challenge,
                word_list=options.word_list,
                explain=options.explain,
                room=options.in_room,
            )
            game = await seat_game(
                uow,
                guild_id=row.guild_id,
                channel_id=row.channel_id,
                seats=[
                    [Seated(user, names.get(user, str(user))) for user in seat] for seat in board
                ],
                settings=settings,
                created_by=by,
                now=now,
                accepted=True,  # they signed up
                rng=self.core.boards.core.rng,  # dealt now: its clock starts with its first board
                deadline=deadline,
                extra_options={"session_id": row.id},
            )
            uow.sessions.add(SessionBoardRecord(session_id=row.id, number=number, game_id=game.id))
            await uow.jobs.schedule(
                JOB_OPEN_BOARD,
                now,
                {"session_id": row.id, "board": number, "game_id": game.id},
                key=open_key(row.id, number),
            )
        await uow.jobs.schedule(
            JOB_DEADLINE, deadline, {"session_id": row.id}, key=deadline_key(row.id)
        )
        await uow.jobs.schedule(
            JOB_WATCH, now + WATCH_EVERY, {"session_id": row.id}, key=watch_key(row.id)
        )
        await self.core.bump(uow, row, status="started", started_at=now, deadline=deadline)
        await event_hooks.session_scheduled(uow, row, in_room=options.in_room, now=now)

    async def swap(
        self, *, guild_id: int, channel_id: int, first: Member, second: Member, is_moderator: bool
    ) -> Swapped:
        """A moderator trades two members between the formed groups (before the boards start)."""
        if not is_moderator:
            raise PermissionDeniedError(moderators_only("swap members in a session"))

        async def work(uow: UnitOfWork) -> Swapped:
            row = await self.core.current(uow, guild_id, channel_id)
            if row.status == "open":
                raise InvalidInputError(messages.NOT_FORMED_YET)
            if row.status != "formed":
                raise InvalidInputError(messages.BOARDS_STARTED)
            for member in (first, second):
                if board_of(row.groups, member.id) is None:
                    raise InvalidInputError(messages.not_in_groups(member.name))
            if first.id != second.id and any(
                first.id in seat and second.id in seat for board in row.groups for seat in board
            ):
                # Swapping partners changes nothing: say so rather than "Swapped".
                raise InvalidInputError(messages.already_partners(first.name, second.name))
            try:
                groups = swap_members(row.groups, first.id, second.id)
            except GroupingError as exc:
                raise InvalidInputError.passing_on(exc, frame=messages.CANNOT_GROUP) from exc
            await self.core.bump(uow, row, groups=groups)
            view = await self.core.view(uow, row)
            return Swapped(view, first.name, second.name)

        return await transact(self.core.ctx, work)
