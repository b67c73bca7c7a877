"""What every league use case shares (``LeagueCore``): loading with checks, the
version's compare-and-set, a new season's row and list, and the tables."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from bot.db.models_leagues import LeagueRecord, LeagueSeasonRecord
from bot.db.uow import UnitOfWork
from bot.errors import ConflictError, InvalidInputError, NotFoundError, PermissionDeniedError
from bot.messages import leagues as msg
from bot.services import ServiceContext, signups
from bot.services.leagues import options as opts
from bot.services.tournaments.service import TournamentService

RESULTS = {"win": 1.0, "draw": 0.5, "loss": 0.0}


@dataclass(frozen=True)
class Reply:
    """What a use case answers: its text, private unless ``public``."""

    text: str
    league_id: int
    public: bool = False


@dataclass(frozen=True)
class Who:
    """Who acts, where, on which league (``ref``: its id, None: the one meant here)."""

    guild_id: int
    channel_id: int | None
    ref: int | None
    actor_id: int
    is_moderator: bool
    actor_name: str = ""


class LeagueCore:
    """What every league use case shares: the context, the tournament service (the
    tournament cog's, looked up when needed), loading with checks and the version."""

    def __init__(
        self,
        ctx: ServiceContext,
        tournaments: Callable[[], TournamentService | None],
        rng: random.Random | None = None,
    ) -> None:
        self.ctx = ctx
        self._tournaments = tournaments
        self.rng = rng or random.Random()

    @property
    def tournaments(self) -> TournamentService:
        """The tournament service that plays the divisions (refused when not loaded)."""
        service = self._tournaments()
        if service is None:
            raise InvalidInputError(msg.NO_TOURNAMENTS)
        return service

    # ------------------------------------------------------------------ loading

    async def _resolve(self, uow: UnitOfWork, who: Who) -> LeagueRecord:
        if who.ref is not None:
            league = await uow.leagues.get(who.ref)
            if league is None or league.guild_id != who.guild_id:
                raise NotFoundError(msg.no_such(who.ref))
            return league
        live = await uow.leagues.open_in_guild(who.guild_id)
        here = [lg for lg in live if lg.channel_id == who.channel_id]
        if len(here) == 1:
            return here[0]
        if len(live) == 1:
            return live[0]
        if not live:
            raise NotFoundError(msg.NONE)
        raise InvalidInputError(msg.which_one([(lg.id, lg.name) for lg in live]))

    @staticmethod
    def _require_director(league: LeagueRecord, who: Who, what: str) -> None:
        if who.actor_id != league.created_by and not who.is_moderator:
            raise PermissionDeniedError(msg.directors_only(what))

    @staticmethod
    async def _season(uow: UnitOfWork, league: LeagueRecord) -> LeagueSeasonRecord:
        season = await uow.leagues.season(league.id, league.current_season)
        assert season is not None, "a league always has its current season"
        return season

    @staticmethod
    async def _bump(uow: UnitOfWork, league: LeagueRecord, **changes: Any) -> None:
        if not await uow.leagues.bump(league, **changes):
            raise ConflictError(msg.MOVED_ON)

    async def _open_season(
        self, uow: UnitOfWork, league: LeagueRecord, number: int, carried: dict[str, Any]
    ) -> LeagueSeasonRecord:
        now = self.ctx.clock()
        season = LeagueSeasonRecord(
            league_id=league.id,
            number=number,
            status="signup",
            carried=carried,
            results={},
            created_at=now,
        )
        uow.leagues.add(season)
        await uow.leagues.flush()  # (league, number) is unique: a season opens once
        await signups.open_list(
            uow,
            guild_id=league.guild_id,
            owner_kind=opts.OWNER,
            owner_id=season.id,
            team_size=league.team_size,
            now=now,
        )
        return season

    @staticmethod
    def _info(league: LeagueRecord) -> msg.LeagueInfo:
        o = league.options
        return msg.LeagueInfo(
            id=league.id,
            name=league.name,
            kind=league.game_kind,
            pairs=league.team_size == 2,
            weeks=int(o.get("weeks", opts.DEFAULT_WEEKS)),
            size=int(o.get("division_size", opts.DEFAULT_SIZE)),
            movers=int(o.get("movers", opts.DEFAULT_MOVERS)),
            clock=str(o.get("clock") or opts.DEFAULT_CLOCK),
            season=league.current_season,
        )

    @staticmethod
    async def _division_of(uow: UnitOfWork, season: LeagueSeasonRecord, user_id: int) -> int | None:
        for division in await uow.leagues.divisions(season.id):
            for e in await uow.tournaments.entrants(division.tournament_id):
                if user_id in (e.user_id, e.partner_id):
                    return division.tournament_id
        return None

    @staticmethod
    async def _shown_season(
        uow: UnitOfWork, league: LeagueRecord, number: int | None, *, latest: bool = False
    ) -> LeagueSeasonRecord:
        if number is not None:
            season = await uow.leagues.season(league.id, number)
            if season is None:
                raise NotFoundError(msg.no_season(league.name, number))
            return season
        season = await uow.leagues.season(league.id, league.current_season)
        assert season is not None
        if season.status == "signup" and league.current_season > 1 and not latest:
            before = await uow.leagues.season(league.id, league.current_season - 1)
            if before is not None:
                return before
        return season

    async def _tables(
        self, uow: UnitOfWork, league: LeagueRecord, season: LeagueSeasonRecord
    ) -> list[msg.DivisionTable]:
        core = self.tournaments.core
        out = []
        for d in await uow.leagues.divisions(season.id):
            t = await uow.tournaments.get(d.tournament_id)
            assert t is not None
            entrants = await uow.tournaments.entrants(t.id)
            pairings = await uow.tournaments.pairings(t.id)
            played = sum(p.score is not None and not p.void for p in pairings)
            out.append(
                msg.DivisionTable(
                    d.number,
                    core.standings_lines(t, entrants, pairings),
                    played,
                    len(pairings),
                )
            )
        return out
