"""A season's life: its start (divisions placed, every game begun), the director's
adjudication, and its end (the rollover), each one committed transaction."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import timedelta
from typing import Any

from bot.db.models import JobRecord
from bot.db.models_leagues import LeagueDivisionRecord, LeagueRecord, LeagueSeasonRecord
from bot.db.models_tournaments import (
    TournamentEntrantRecord,
    TournamentPairingRecord,
    TournamentRecord,
)
from bot.db.uow import UnitOfWork
from bot.errors import InvalidInputError
from bot.messages import leagues as msg
from bot.messages import tournament_games as game_msg
from bot.messages.i18n import language_of, use_language
from bot.messages.post import Post
from bot.messages.text import render
from bot.services import signups
from bot.services.leagues import options as opts
from bot.services.leagues.core import RESULTS, LeagueCore, Reply, Who
from bot.services.results import record_points
from bot.services.scheduling import hooks as event_hooks
from bot.services.tournaments import pairing
from bot.services.tournaments.service import TournamentService
from bot.services.transactions import transact
from engines.leagues import Finish, LeagueError, Movement, Newcomer, movements, place


class Seasons(LeagueCore):
    """Start a season, adjudicate a game, end a season and open the next."""

    # ------------------------------------------------------------------ start

    async def start(self, who: Who) -> Reply:
        """Start the season in sign-up (the director): place its entrants in divisions
        and start every division's games at once; the season ends in its set weeks."""
        tournaments = self.tournaments

        async def work(uow: UnitOfWork) -> Reply:
            league = await self._resolve(uow, who)
            self._require_director(league, who, msg.WHAT_START)
            season = await self._season(uow, league)
            if season.status != "signup":
                raise InvalidInputError(msg.already_started(league.name, season.number))
            lst = await signups.list_for(uow, opts.OWNER, season.id)
            entries = list((await signups.roster(uow, lst)).playing)
            divisions = await self._placement(uow, league, season, entries)
            now = self.ctx.clock()
            weeks = int(league.options.get("weeks", opts.DEFAULT_WEEKS))
            ends_at = now + timedelta(weeks=weeks)
            await self._bump(uow, league)
            season.status, season.starts_at, season.ends_at = "playing", now, ends_at
            await event_hooks.season_scheduled(uow, league, season, now)
            await signups.close(uow, lst)
            by_id = {e.id: e for e in entries}
            uow.outbox.to_channel(
                league.channel_id,
                Post(
                    content=msg.season_started(
                        self._info(league),
                        season.number,
                        ends_at,
                        [len(d) for d in divisions],
                    )
                ),
            )
            for number, ids in enumerate(divisions, start=1):
                await self._start_division(
                    uow, tournaments, league, season, number, [by_id[i] for i in ids], ends_at
                )
            await uow.jobs.schedule(
                opts.JOB_SEASON_END,
                ends_at,
                {"season_id": season.id, "guild_id": league.guild_id},
                key=opts.season_end_key(season.id),
            )
            return Reply(
                msg.started(league.name, season.number, len(entries), [len(d) for d in divisions]),
                league.id,
            )

        return await transact(self.ctx, work)

    async def _placement(
        self,
        uow: UnitOfWork,
        league: LeagueRecord,
        season: LeagueSeasonRecord,
        entries: Sequence[signups.Entrant],
    ) -> list[list[int]]:
        """The divisions (lists of sign-up entry ids, top first): those carried from the
        last season by their tier, newcomers by rating."""
        members = [m for e in entries for m in e.members]
        ratings = await uow.tournaments.ratings_of(league.guild_id, league.game_kind, members)

        def rating(entry: signups.Entrant) -> float:
            values = [ratings.get(m, 1500.0) for m in entry.members]
            return sum(values) / len(values)

        carried = {int(c["user_id"]): c for c in (season.carried or {}).get("members", [])}
        returning: list[tuple[Movement, float]] = []
        newcomers: list[Newcomer] = []
        for e in entries:
            c = carried.get(e.user_id)
            if c is not None and c.get("partner_id") == e.partner_id:
                move = Movement(
                    e.id, int(c["tier"]), int(c["move"]), int(c["from"]), int(c["rank"])
                )
                returning.append((move, rating(e)))
            else:
                newcomers.append(Newcomer(e.id, rating(e)))
        size = int(league.options.get("division_size", opts.DEFAULT_SIZE))
        try:
            return place(returning, newcomers, size)
        except LeagueError as error:
            raise InvalidInputError(render(error.text)) from None

    async def _start_division(
        self,
        uow: UnitOfWork,
        tournaments: TournamentService,
        league: LeagueRecord,
        season: LeagueSeasonRecord,
        number: int,
        entries: Sequence[signups.Entrant],
        ends_at: Any,
    ) -> None:
        """Division ``number`` as a tournament: its entrants seeded, every game of its
        round robin made at once (one round), its deadline the season's end."""
        now = self.ctx.clock()
        seconds = int((ends_at - now).total_seconds())
        t = TournamentRecord(
            guild_id=league.guild_id,
            channel_id=league.channel_id,
            name=msg.division_name(league.name, season.number, number)[:100],
            game_kind=league.game_kind,
            format="round_robin",
            rounds=1,
            options={
                "seed": int(league.options.get("seed", 0)) + season.number * 1000 + number,
                "time_control": league.options.get("clock") or opts.DEFAULT_CLOCK,
                "deadline_seconds": seconds,
                "rated": True,
                "entry": "named",
                "checkin": False,
                "team_size": league.team_size,
                "all_at_once": True,
                "league_id": league.id,
                "league_season_id": season.id,
                "league_division": number,
            },
            status="running",
            current_round=0,
            created_by=league.created_by,
            version=1,
            created_at=now,
            started_at=now,
        )
        uow.tournaments.add(t)
        await uow.tournaments.flush()
        uow.leagues.add(
            LeagueDivisionRecord(season_id=season.id, number=number, tournament_id=t.id)
        )
        lst = await signups.open_list(
            uow,
            guild_id=league.guild_id,
            owner_kind="tournament",
            owner_id=t.id,
            team_size=league.team_size,
            now=now,
        )
        await signups.close(uow, lst)
        life = tournaments.lifecycle
        entrants = await life.seed_entrants(uow, t, entries)
        t.rounds = pairing.planned_rounds(t, len(entrants))
        tournaments.core.log(uow, t, league.created_by, "start", entrants=len(entrants), rounds=1)
        # Its games are made by a job of their own, one transaction per division: a season
        # of hundreds of games never holds the database in one long write.
        await uow.jobs.schedule(
            opts.JOB_OPEN_DIVISION,
            now,
            {"tournament_id": t.id, "guild_id": league.guild_id},
            key=opts.open_division_key(t.id),
        )

    # Job JOB_OPEN_DIVISION: a division's games, made in a unit of work of its own (a
    # member's new game may take a division game's number at the same moment: the loser
    # reads again); safe to run again, a division paired already is left alone.

    async def prepare_open_division(self, payload: dict[str, Any]) -> None:
        """Pair the division's round robin, all at once, and make its games and the job
        that opens their threads; its deadline is the season's end."""
        tournaments = self.tournaments
        tournament_id = int(payload["tournament_id"])

        async def work(uow: UnitOfWork) -> None:
            t = await uow.tournaments.get(tournament_id)
            if t is None or t.current_round != 0 or t.status != "running":
                return  # paired already (or ended)
            season = await uow.leagues.season_by_id(int(t.options["league_season_id"]))
            guild = await uow.guilds.get(t.guild_id)
            if season is None or season.ends_at is None:
                return
            with use_language(language_of(guild.settings if guild else None), t.guild_id):
                left = int((season.ends_at - self.ctx.clock()).total_seconds())
                t.options = {**t.options, "deadline_seconds": max(60, left)}
                await tournaments.lifecycle.pair_round(uow, t, 1, actor_id=None)

        await transact(self.ctx, work, conflicts=True)

    async def on_open_division(self, uow: UnitOfWork, job: JobRecord, prepared: None) -> None:
        """Job ``JOB_OPEN_DIVISION``: its work is in ``prepare_open_division``."""
        return

    # ------------------------------------------------------------------ director

    async def adjudicate(
        self, who: Who, member: tuple[int, str], opponent: tuple[int, str], result: str
    ) -> Reply:
        """The director decides the game of ``member`` against ``opponent`` this season
        (``result`` is ``member``'s: win, draw or loss), ending it if it is in play."""
        if result not in RESULTS:
            raise InvalidInputError(msg.RESULT_CHOICES)
        tournaments = self.tournaments
        core = tournaments.core

        async def work(uow: UnitOfWork) -> Reply:
            league = await self._resolve(uow, who)
            self._require_director(league, who, msg.WHAT_ADJUDICATE)
            season = await self._season(uow, league)
            if season.status != "playing":
                raise InvalidInputError(msg.not_under_way(league.name, season.number))
            tid = await self._division_of(uow, season, member[0])
            if tid is None:
                raise InvalidInputError(msg.not_playing(member[1], league.name, season.number))
            t = await core.load(uow, tid)
            entrants = await uow.tournaments.entrants(t.id)
            mine = core.entrant_of(entrants, member[0])
            theirs = core.entrant_of(entrants, opponent[0])
            if mine is None or theirs is None or mine.id == theirs.id:
                raise InvalidInputError(msg.no_game_between(member[1], opponent[1]))
            p = next(
                (
                    p
                    for p in await uow.tournaments.pairings(t.id)
                    if {p.first_id, p.second_id} == {mine.id, theirs.id}
                ),
                None,
            )
            if p is None:
                raise InvalidInputError(msg.no_game_between(member[1], opponent[1]))
            if t.status != "running":
                raise InvalidInputError(msg.not_under_way(league.name, season.number))
            await core.bump(uow, t)
            score = RESULTS[result]
            p.score = score if p.first_id == mine.id else 1.0 - score
            p.source, p.void, p.forfeit = "adjudicated", False, False
            await uow.tournaments.flush()
            if p.game_id is not None:
                await core.games.end_decided(
                    uow,
                    p.game_id,
                    first_score=p.score,
                    how="adjudicated",
                    headline=game_msg.game_adjudicated(
                        t.name, mine.label, result, p.round, p.board
                    ),
                )
            core.log(
                uow, t, who.actor_id, "adjudicate", board=p.board, member=member[0], result=result
            )
            text = msg.adjudicated(t.name, mine.label, theirs.label, result)
            core.post(uow, t, Post(content=text))
            await tournaments.lifecycle.advance(uow, t)
            return Reply(text, league.id)

        return await transact(self.ctx, work)

    # ------------------------------------------------------------------ the season's end

    async def on_season_end(self, uow: UnitOfWork, job: JobRecord) -> None:
        """Job ``JOB_SEASON_END``: the season's last day came; it ends once every division
        is over (their deadline jobs, due at the same time, score what is unfinished)."""
        await self.roll_over(uow, int(job.payload["season_id"]))

    async def on_division_finished(self, uow: UnitOfWork, job: JobRecord) -> None:
        """Job ``JOB_DIVISION_FINISHED``: a division is over; the season ends if it was the
        last and its date has come."""
        await self.roll_over(uow, int(job.payload["season_id"]))

    async def roll_over(self, uow: UnitOfWork, season_id: int) -> bool:
        """End the season and open the next, in the caller's (the job's) transaction, once
        its date has come and every division is over; else (or over already) nothing."""
        season = await uow.leagues.season_by_id(season_id)
        if season is None or season.status != "playing":
            return False
        now = self.ctx.clock()
        if season.ends_at is not None and season.ends_at > now:
            return False
        league = await uow.leagues.get(season.league_id)
        assert league is not None
        divisions = await uow.leagues.divisions(season.id)
        records: list[tuple[LeagueDivisionRecord, TournamentRecord]] = []
        for d in divisions:
            t = await uow.tournaments.get(d.tournament_id)
            assert t is not None
            if t.status not in ("finished", "cancelled"):
                return False  # its deadline job (or the director) ends it; it tells us then
            records.append((d, t))
        await self._bump(uow, league, current_season=season.number + 1)
        finishes: list[Finish] = []
        members: dict[int, TournamentEntrantRecord] = {}
        tables: list[msg.DivisionTable] = []
        core = self.tournaments.core
        results: list[dict[str, Any]] = []
        for index, (d, t) in enumerate(records):
            entrants = await uow.tournaments.entrants(t.id)
            pairings = await uow.tournaments.pairings(t.id)
            lines = core.standings_lines(t, entrants, pairings)
            tables.append(msg.DivisionTable(d.number, lines, self._played(pairings), len(pairings)))
            ranks = {s.entrant: s.rank for s in pairing.table(t, entrants, pairings)}
            for e in entrants:
                members[e.id] = e
                finishes.append(Finish(e.id, index, ranks[e.id], e.status == "withdrawn"))
            results.append({"number": d.number, "winners": [s.label for s in lines if s.rank == 1]})
        movers = int(league.options.get("movers", opts.DEFAULT_MOVERS))
        moves = movements(finishes, movers)
        for r, (_d, _t) in zip(results, records, strict=True):
            r["up"], r["down"] = [], []
        for m in moves:
            if m.move:
                results[m.came_from]["up" if m.move > 0 else "down"].append(members[m.id].label)
        for f in finishes:
            e = members[f.id]
            for player in [e.user_id] + ([e.partner_id] if e.partner_id is not None else []):
                await record_points(
                    uow,
                    guild_id=league.guild_id,
                    kind=opts.RESULT_KIND,
                    player_id=player,
                    points=None,
                    played_at=now,
                    round_ref=f"league:{league.id}:{season.number}:{f.division + 1}",
                    outcome="win" if f.rank == 1 and not f.withdrawn else None,
                    extra={
                        "type": "league_division",
                        "league_id": league.id,
                        "season": season.number,
                        "division": f.division + 1,
                        "rank": f.rank,
                    },
                )
        season.status, season.finished_at = "finished", now
        await event_hooks.season_over(uow, season.id, now)
        season.results = {"divisions": results}
        carried: list[dict[str, Any]] = [
            {
                "user_id": members[m.id].user_id,
                "partner_id": members[m.id].partner_id,
                "tier": m.tier,
                "move": m.move,
                "from": m.came_from,
                "rank": m.rank,
            }
            for m in moves
        ]
        nxt = await self._open_season(uow, league, season.number + 1, {"members": carried})
        lst = await signups.list_for(uow, opts.OWNER, nxt.id)
        await signups.join_all(
            uow,
            lst,
            [(int(c["user_id"]), c["partner_id"]) for c in carried],
            added_by=league.created_by,
            now=now,
        )
        info = self._info(league)
        for table in tables:
            uow.outbox.to_channel(
                league.channel_id,
                Post(
                    content=msg.division_final(league.name, league.game_kind, season.number, table)
                ),
            )
        for text in msg.season_over(info, season.number, results, len(carried)):
            uow.outbox.to_channel(league.channel_id, Post(content=text))
        return True

    @staticmethod
    def _played(pairings: Sequence[TournamentPairingRecord]) -> int:
        return sum(p.score is not None and not p.void for p in pairings)
