"""Making a tournament and entering it: ``create`` (with its sign-up list, on the
club's one sign-up mechanism, and its post with the Join button), ``join`` (a
member, a pair, or a member a director names), ``leave`` before the start, and
``check_in``. Each is one transaction; two joins at once are retried by the
sign-up list's own compare-and-set."""

from __future__ import annotations

from bot.db.models_tournaments import TournamentRecord
from bot.db.uow import UnitOfWork
from bot.errors import InvalidInputError, PermissionDeniedError
from bot.messages import tournaments as msg
from bot.messages.post import Post, ViewSpec
from bot.services import signups
from bot.services.tournaments import options as opts
from bot.services.tournaments.core import Reply, TournamentCore
from bot.services.transactions import transact

OWNER = "tournament"


class Entry:
    """Making a tournament and entering it: create, join, leave, check in."""

    def __init__(self, core: TournamentCore) -> None:
        self.core = core

    # ------------------------------------------------------------------ making

    async def create(self, request: opts.NewTournament) -> Reply:
        """Make a tournament (moderators only) with its sign-up list, and post it in its channel
        (with the Join button when members join by button)."""
        if not request.is_moderator:
            raise PermissionDeniedError(msg.MODERATORS_MAKE)
        if request.in_thread:
            raise InvalidInputError(msg.NOT_IN_A_THREAD)
        kind = opts.read_kind(request.game)
        if (kind == "chess" and self.core.games.chess is None) or (
            kind == "scrabble" and self.core.games.scrabble is None
        ):
            raise InvalidInputError(msg.game_not_here(kind))
        fmt = opts.read_format(request.format)
        rounds = opts.read_rounds(fmt, request.rounds)
        engine = opts.read_pairing(kind, fmt, request.pairing)
        where = opts.read_where(kind, request.where)
        deadline = opts.read_deadline(request.deadline, kind)
        if request.entry not in opts.ENTRY_KINDS:
            raise InvalidInputError(msg.UNKNOWN_ENTRY)
        if request.time_control is not None:
            self._check_time_control(kind, request.time_control)
        core = self.core
        now = core.now()
        name = (request.name or msg.default_name(kind, fmt)).strip()[:100]
        options: opts.StoredOptions = {
            "seed": core.rng.randrange(2**31),
            "time_control": request.time_control,
            "deadline_seconds": int(deadline.total_seconds()),
            "rated": request.rated,
            "entry": request.entry,
            "checkin": request.checkin,
            "team_size": 2 if request.pairs else 1,
        }
        if engine is not None:
            options["pairing"] = engine
        if where is not None:
            options["where"] = where
        async with core.ctx.uow() as uow:
            await uow.guilds.ensure(request.guild_id, request.guild_name)
            await uow.players.ensure(request.creator_id, request.creator_name)
            t = TournamentRecord(
                guild_id=request.guild_id,
                channel_id=request.channel_id,
                name=name,
                game_kind=kind,
                format=fmt,
                rounds=rounds,
                options=dict(options),
                status="signup",
                current_round=0,
                created_by=request.creator_id,
                version=1,
                created_at=now,
            )
            uow.tournaments.add(t)
            await uow.tournaments.flush()
            await signups.open_list(
                uow,
                guild_id=request.guild_id,
                owner_kind=OWNER,
                owner_id=t.id,
                team_size=options["team_size"],
                now=now,
            )
            core.log(uow, t, request.creator_id, "create", format=fmt, game=kind, pairing=engine)
            text = msg.created(
                t.id,
                name,
                kind,
                fmt,
                rounds,
                deadline,
                request.time_control,
                rated=request.rated,
                entry=request.entry,
                checkin=request.checkin,
                pairs=request.pairs,
                pairing=engine,
                room=where is not None,
            )
            view = ViewSpec(opts.VIEW_ENTRY, {"tournament_id": t.id, "checkin": request.checkin})
            core.post(
                uow,
                t,
                Post(content=text, view=view if request.entry == "button" else None),
            )
            await uow.commit()
        return Reply(msg.created_reply(t.id, name), t.id)

    @staticmethod
    def _check_time_control(kind: str, typed: str) -> None:
        if kind == "chess":
            from bot.services.chess.options import read_time_control

            read_time_control(typed)
        else:
            from bot.services.scrabble.options import CLOCK, parse_duration

            parse_duration(typed, CLOCK)

    # ------------------------------------------------------------------ entry

    async def join(
        self,
        *,
        guild_id: int,
        channel_id: int | None,
        ref: int | None,
        user: tuple[int, str],
        partner: tuple[int, str] | None,
        actor_id: int,
        is_moderator: bool,
        actor_name: str = "",
    ) -> Reply:
        """A member enters (or a director enters a member: ``actor_id`` differs)."""
        core = self.core

        async def work(uow: UnitOfWork) -> Reply:
            t = await core.resolve(uow, guild_id, channel_id, ref)
            by_director = actor_id != user[0]
            if by_director:
                core.require_director(t, actor_id, is_moderator, msg.WHAT_ENTER)
                await uow.players.ensure(actor_id, actor_name)
            elif t.options.get("entry") == "named":
                raise InvalidInputError(msg.NAMED_ENTRY)
            if t.status != "signup":
                raise InvalidInputError(msg.entry_closed(t.name))
            if partner is None and t.options.get("team_size", 1) == 2:
                raise InvalidInputError(msg.PAIRS_JOIN)
            await uow.players.ensure(*user)
            if partner is not None:
                await uow.players.ensure(*partner)
            lst = await signups.list_for(uow, OWNER, t.id)
            entry = await signups.join(
                uow,
                lst,
                user_id=user[0],
                partner_id=partner[0] if partner else None,
                added_by=actor_id if by_director else None,
                what=msg.what(t.name),
                user_name=user[1],
                partner_name=partner[1] if partner else "",
                now=core.now(),
            )
            if by_director:
                core.log(uow, t, actor_id, "enter", member=user[0])
            names = [user[1]] + ([partner[1]] if partner else [])
            return Reply(msg.joined(t.name, names, entry.place, by_director), t.id)

        return await transact(core.ctx, work)

    async def leave(
        self, *, guild_id: int, channel_id: int | None, ref: int | None, user_id: int
    ) -> Reply:
        """Take the member off the sign-up list before the start (after it, a withdrawal)."""
        core = self.core

        async def work(uow: UnitOfWork) -> Reply:
            t = await core.resolve(uow, guild_id, channel_id, ref)
            if t.status != "signup":
                raise InvalidInputError(msg.USE_WITHDRAW)
            lst = await signups.list_for(uow, OWNER, t.id)
            await signups.withdraw(uow, lst, user_id=user_id, what=msg.what(t.name), now=core.now())
            return Reply(msg.left(t.name), t.id)

        return await transact(core.ctx, work)

    async def check_in(
        self, *, guild_id: int, channel_id: int | None, ref: int | None, user_id: int
    ) -> Reply:
        """Check the member in on the sign-up list of a tournament that asks for it."""
        core = self.core

        async def work(uow: UnitOfWork) -> Reply:
            t = await core.resolve(uow, guild_id, channel_id, ref)
            if t.status != "signup":
                raise InvalidInputError(msg.entry_closed(t.name))
            if not t.options.get("checkin"):
                raise InvalidInputError(msg.NO_CHECKIN)
            lst = await signups.list_for(uow, OWNER, t.id)
            await signups.check_in(uow, lst, user_id=user_id, what=msg.what(t.name), now=core.now())
            return Reply(msg.checked_in(t.name), t.id)

        return await transact(core.ctx, work)
