"""Making a league, entering and leaving it, its settings, and reading it: each one
transaction (or one read)."""

from __future__ import annotations

from bot.db.models_leagues import LeagueRecord
from bot.db.uow import UnitOfWork
from bot.errors import ConflictError, InvalidInputError, NotFoundError, PermissionDeniedError
from bot.messages import leagues as msg
from bot.messages.post import Post
from bot.services import signups
from bot.services.leagues import options as opts
from bot.services.leagues.core import LeagueCore, Reply, Who
from bot.services.tournaments.director import Act
from bot.services.transactions import transact


class Entry(LeagueCore):
    """Make, join, withdraw, settings, standings and a season's summary."""

    # ------------------------------------------------------------------ making

    async def create(self, request: opts.NewLeague) -> Reply:
        """Make a league (moderators) and open its first season for sign-up."""
        if not request.is_moderator:
            raise PermissionDeniedError(msg.MODERATORS_MAKE)
        if request.in_thread:
            raise InvalidInputError(msg.NOT_IN_A_THREAD)
        kind = opts.read_kind(request.game)
        options = opts.checked(
            opts.defaults(),
            opts.Settings(request.weeks, request.division_size, request.movers, request.clock),
            kind,
        )
        options["seed"] = self.rng.randrange(2**31)
        name = (request.name or msg.default_name(kind)).strip()[:80]
        now = self.ctx.clock()
        async with self.ctx.uow() as uow:
            await uow.guilds.ensure(request.guild_id, request.guild_name)
            await uow.players.ensure(request.creator_id, request.creator_name)
            league = LeagueRecord(
                guild_id=request.guild_id,
                channel_id=request.channel_id,
                name=name,
                game_kind=kind,
                team_size=2 if request.pairs else 1,
                options=options,
                status="open",
                current_season=1,
                created_by=request.creator_id,
                version=1,
                created_at=now,
            )
            uow.leagues.add(league)
            await uow.leagues.flush()
            season = await self._open_season(uow, league, 1, {})
            del season
            uow.outbox.to_channel(
                league.channel_id, Post(content=msg.created_post(self._info(league)))
            )
            await uow.commit()
        return Reply(msg.created_reply(league.id, name), league.id)

    # ------------------------------------------------------------------ entry

    async def join(self, who: Who, user: tuple[int, str], partner: tuple[int, str] | None) -> Reply:
        """A member (or pair) enters the season in sign-up; a director may enter a member."""

        async def work(uow: UnitOfWork) -> Reply:
            league = await self._resolve(uow, who)
            by_director = who.actor_id != user[0]
            if by_director:
                self._require_director(league, who, msg.WHAT_ENTER)
                await uow.players.ensure(who.actor_id, who.actor_name)
            season = await self._season(uow, league)
            if season.status != "signup":
                raise InvalidInputError(
                    msg.season_under_way(league.name, season.number, season.ends_at)
                )
            if partner is None and league.team_size == 2:
                raise InvalidInputError(msg.PAIRS_JOIN)
            if partner is not None and league.team_size != 2:
                raise InvalidInputError(msg.NOT_PAIRS)
            await uow.players.ensure(*user)
            if partner is not None:
                await uow.players.ensure(*partner)
            lst = await signups.list_for(uow, opts.OWNER, season.id)
            entry = await signups.join(
                uow,
                lst,
                user_id=user[0],
                partner_id=partner[0] if partner else None,
                added_by=who.actor_id if by_director else None,
                what=msg.what(league.name, season.number),
                user_name=user[1],
                partner_name=partner[1] if partner else "",
                now=self.ctx.clock(),
            )
            names = [user[1]] + ([partner[1]] if partner else [])
            return Reply(msg.joined(league.name, season.number, names, entry.place), league.id)

        return await transact(self.ctx, work)

    async def withdraw(self, who: Who, member: tuple[int, str]) -> Reply:
        """Leave the league: before the season starts, off its sign-up list; during it,
        the member's unplayed games are forfeited (played ones stand) and they are not
        carried into the next season. A director may withdraw a member."""
        async with self.ctx.reader() as uow:
            league = await self._resolve(uow, who)
            if who.actor_id != member[0]:
                self._require_director(league, who, msg.WHAT_WITHDRAW)
            season = await self._season(uow, league)
            league_id, name, director = league.id, league.name, league.created_by
            tournament_id = None
            if season.status == "playing":
                tournament_id = await self._division_of(uow, season, member[0])
                if tournament_id is None:
                    raise InvalidInputError(msg.not_playing(member[1], league.name, season.number))
        if tournament_id is not None:
            reply = await self.tournaments.director.withdraw(
                Act(
                    guild_id=who.guild_id,
                    channel_id=who.channel_id,
                    ref=tournament_id,
                    actor_id=who.actor_id,
                    is_moderator=who.is_moderator or who.actor_id == director,
                    actor_name=who.actor_name,
                ),
                member,
            )
            return Reply(reply.text + "\n" + msg.not_carried(name), league_id)

        async def work(uow: UnitOfWork) -> Reply:
            league = await self._resolve(uow, who)
            season = await self._season(uow, league)
            if season.status != "signup":
                raise ConflictError(msg.MOVED_ON)
            lst = await signups.list_for(uow, opts.OWNER, season.id)
            await signups.withdraw(
                uow,
                lst,
                user_id=member[0],
                what=msg.what(league.name, season.number),
                by_other=member[1] if who.actor_id != member[0] else None,
                now=self.ctx.clock(),
            )
            return Reply(msg.left(league.name, season.number), league.id)

        return await transact(self.ctx, work)

    # ------------------------------------------------------------------ settings

    async def configure(self, who: Who, change: opts.Settings) -> Reply:
        """The director changes the league's settings: the weeks, division size and clock
        apply from the next start; the movers at the end of the season under way."""

        async def work(uow: UnitOfWork) -> Reply:
            league = await self._resolve(uow, who)
            self._require_director(league, who, msg.WHAT_SETTINGS)
            options = opts.checked(league.options, change, league.game_kind)
            await self._bump(uow, league, options=options)
            season = await self._season(uow, league)
            return Reply(
                msg.settings_reply(self._info(league), season.status == "playing"), league.id
            )

        return await transact(self.ctx, work)

    # ------------------------------------------------------------------ reading

    async def standings(
        self, who: Who, number: int | None = None, division: int | None = None
    ) -> Reply:
        """Each division's table of the season (default: the current one, or the last
        played while the next is in sign-up), live; ``division``: that one only."""
        async with self.ctx.reader() as uow:
            league = await self._resolve(uow, who)
            season = await self._shown_season(uow, league, number)
            if season.status == "signup":
                lst = await signups.list_for(uow, opts.OWNER, season.id)
                roster = await signups.roster(uow, lst)
                names = await uow.players.names(list(roster.members))
                labels = [
                    " & ".join(names.get(m, str(m)) for m in e.members) for e in roster.playing
                ]
                return Reply(msg.signup_list(league.name, season.number, labels), league.id)
            tables = await self._tables(uow, league, season)
            if division is not None:
                tables = [t for t in tables if t.number == division]
                if not tables:
                    raise NotFoundError(msg.no_division(league.name, season.number, division))
            return Reply(
                msg.standings(league.name, league.game_kind, season.number, season.status, tables),
                league.id,
                public=True,
            )

    async def season_summary(self, who: Who, number: int | None = None) -> Reply:
        """A season: its settings, dates, divisions and (once over) winners and moves."""
        async with self.ctx.reader() as uow:
            league = await self._resolve(uow, who)
            season = await self._shown_season(uow, league, number, latest=True)
            lst = await signups.list_for(uow, opts.OWNER, season.id)
            entered = len((await signups.roster(uow, lst)).playing)
            divisions: list[list[str]] = []
            for d in await uow.leagues.divisions(season.id):
                divisions.append([e.label for e in await uow.tournaments.entrants(d.tournament_id)])
            return Reply(
                msg.season_summary(
                    self._info(league),
                    season.number,
                    season.status,
                    season.starts_at,
                    season.ends_at,
                    entered,
                    divisions,
                    season.results or {},
                ),
                league.id,
            )
