"""A tournament's life once it is made and entered (``entry``): started, and then
run by the bot round after round.

Each arrow is one committed transaction:

- ``start``: the entrants are frozen and seeded, round 1 is paired and its games
  made, all at once. ``pair_round`` writes the round row (unique per
  tournament and number), its pairings and its games together, so a restart or
  a second process pairing the same round fails on that key: nothing is paired
  twice, and a round is never half made.
- A game's finish schedules ``JOB_GAME_FINISHED`` (``hooks``); its handler
  records the result and, when it was the round's last, posts the standings and
  pairs the next round (or posts the final table) in the same transaction.
- ``JOB_ROUND_DEADLINE`` scores what is unfinished at the round's deadline.
- ``JOB_OPEN_ROUND`` gives the round's games their threads and first boards
  (idempotent, so it may run again after a crash and posts each board once).

Every change claims the tournament's version first, so two directors, or a
director and a game's job, never both apply: the second retries or is told.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from datetime import timedelta

from bot.db.models_tournaments import (
    TournamentEntrantRecord,
    TournamentPairingRecord,
    TournamentRecord,
    TournamentRoundRecord,
)
from bot.db.uow import UnitOfWork
from bot.errors import InvalidInputError
from bot.messages import tournaments as msg
from bot.messages.errors import refusal
from bot.messages.post import Post, ViewSpec
from bot.messages.text import plain, render
from bot.services import signups
from bot.services.scheduling import hooks as event_hooks
from bot.services.tournaments import hooks, pairing
from bot.services.tournaments import options as opts
from bot.services.tournaments.core import Reply, TournamentCore
from bot.services.tournaments.entry import OWNER
from bot.services.tournaments.games import Side
from bot.services.transactions import transact
from engines.pairings import PairingError, assign_seeds
from engines.text import Text


def pairing_reason(error: PairingError, entrants: Sequence[TournamentEntrantRecord]) -> str:
    """The pairing engine's refusal for the director, in the club's language, with
    the entrants it names by id (``first``, ``second``) named as the tables name them."""
    labels = {e.id: e.label for e in entrants}
    fields = {
        key: plain(labels.get(value, str(value)), 40)
        if key in ("first", "second", "entrant") and isinstance(value, int)
        else value
        for key, value in error.text.fields.items()
    }
    return render(Text(error.text.template, **fields))


class Lifecycle:
    """A tournament's life once entered: starting it, pairing and making its rounds, advancing
    them, ending it early."""

    def __init__(self, core: TournamentCore) -> None:
        self.core = core

    # ------------------------------------------------------------------ start

    async def start(
        self,
        *,
        guild_id: int,
        channel_id: int | None,
        ref: int | None,
        actor_id: int,
        is_moderator: bool,
        actor_name: str = "",
    ) -> Reply:
        """Start the tournament (directors only): seed the entrants (the checked-in ones, when it
        asks for check-in), close the sign-up list and pair round 1."""
        core = self.core

        async def work(uow: UnitOfWork) -> Reply:
            t = await core.resolve(uow, guild_id, channel_id, ref)
            core.require_director(t, actor_id, is_moderator, msg.WHAT_START)
            if actor_name:
                await uow.players.ensure(actor_id, actor_name)
            if t.status != "signup":
                raise InvalidInputError(msg.already_started(t.name))
            lst = await signups.list_for(uow, OWNER, t.id)
            roster = await signups.roster(uow, lst)
            entries = list(roster.playing)
            absent = []
            if t.options.get("checkin"):
                absent = [e for e in entries if not e.checked_in]
                entries = [e for e in entries if e.checked_in]
            self._check_field(t, len(entries))
            await core.bump(uow, t, status="running", started_at=core.now())
            await signups.close(uow, lst)
            entrants = await self.seed_entrants(uow, t, entries)
            t.rounds = pairing.planned_rounds(t, len(entrants))
            names = await uow.players.names([m for e in absent for m in e.members])
            for entry in absent:
                core.log(uow, t, None, "not_checked_in", member=entry.user_id)
            core.log(uow, t, actor_id, "start", entrants=len(entrants), rounds=t.rounds)
            await self.pair_round(uow, t, 1, actor_id=actor_id)
            left_out = [names.get(m, str(m)) for e in absent for m in e.members]
            return Reply(msg.started(t.name, len(entrants), t.rounds, left_out), t.id)

        # A game made elsewhere at the same moment may take a round game's number: again.
        return await transact(core.ctx, work)

    @staticmethod
    def _check_field(t: TournamentRecord, count: int) -> None:
        if count < opts.MIN_ENTRANTS:
            raise InvalidInputError(msg.too_few(t.name, count, opts.MIN_ENTRANTS))
        if count > opts.MAX_ENTRANTS:
            raise InvalidInputError(msg.too_many(count, opts.MAX_ENTRANTS))
        if count // 2 > opts.MAX_THREADS_PER_ROUND:
            raise InvalidInputError(msg.too_many_games(count // 2, opts.MAX_THREADS_PER_ROUND))
        if t.format == "swiss" and t.rounds > count - 1 + count % 2:
            raise InvalidInputError(msg.too_many_rounds(t.rounds, count))

    async def seed_entrants(
        self, uow: UnitOfWork, t: TournamentRecord, entries: Sequence[signups.Entrant]
    ) -> list[TournamentEntrantRecord]:
        """Entrants numbered by rating (a pair by its mean), equal ratings by lot
        with the tournament's stored seed: the same field gives the same seeds."""
        members = [m for e in entries for m in e.members]
        ratings = await uow.tournaments.ratings_of(t.guild_id, t.game_kind, members)
        names = await uow.players.names(members)

        def rating(entry: signups.Entrant) -> float:
            values = [ratings.get(m, 1500.0) for m in entry.members]
            return sum(values) / len(values)

        by_id = {e.id: e for e in entries}
        seeded = assign_seeds(
            [(e.id, rating(e)) for e in entries], random.Random(t.options.get("seed", 0))
        )
        rows = []
        for s in seeded:
            entry = by_id[s.id]
            label = " & ".join(names.get(m, str(m)) for m in entry.members)
            row = TournamentEntrantRecord(
                tournament_id=t.id,
                number=s.seed,
                user_id=entry.user_id,
                partner_id=entry.partner_id,
                label=label[:100],
                rating=s.rating,
                status="playing",
            )
            uow.tournaments.add(row)
            rows.append(row)
        await uow.tournaments.flush()
        return rows

    # ------------------------------------------------------------------ rounds

    async def pair_round(
        self, uow: UnitOfWork, t: TournamentRecord, number: int, *, actor_id: int | None
    ) -> None:
        """Pair round ``number`` and (unless the tournament is paused) make its games."""
        core = self.core
        entrants = await uow.tournaments.entrants(t.id)
        done = await uow.tournaments.pairings(t.id)
        try:
            paired = await pairing.next_pairings(t, entrants, done, number)
        except PairingError as error:
            raise InvalidInputError(msg.cannot_pair(pairing_reason(error, entrants))) from None
        boards = paired.boards
        held = t.status == "paused"
        rnd = TournamentRoundRecord(
            tournament_id=t.id,
            number=number,
            status="paired" if held else "playing",
            started_at=core.now(),
        )
        uow.tournaments.add(rnd)
        await uow.tournaments.flush()  # the (tournament, number) key: paired once
        t.current_round = number
        by_id = {e.id: e for e in entrants}
        # Games take boards 1, 2, … in the engine's order; a bye comes last.
        boards = sorted(boards, key=lambda p: p.second is None)
        for board, p in enumerate(boards, start=1):
            uow.tournaments.add(self._pairing(t, number, board, p.first, p.second, by_id))
        await uow.tournaments.flush()
        if paired.fell_back:
            core.log(uow, t, None, "pairing_fallback", round=number)  # the bot chose it
        core.log(uow, t, actor_id, "pair_round", round=number, boards=len(boards))
        pairings = await uow.tournaments.pairings(t.id, number)
        core.post(
            uow,
            t,
            Post(
                content=msg.round_paired(
                    t.name,
                    number,
                    t.rounds,
                    core.board_lines(entrants, pairings),
                    held,
                    room=opts.is_room(t.options),
                ),
                view=ViewSpec(opts.VIEW_REPORT, {"tournament_id": t.id, "round": number})
                if opts.is_room(t.options)
                else None,
            ),
        )
        if not held:
            await self.start_games(uow, t, rnd)

    @staticmethod
    def _pairing(
        t: TournamentRecord,
        number: int,
        board: int,
        first: int,
        second: int | None,
        by_id: dict[int, TournamentEntrantRecord],
    ) -> TournamentPairingRecord:
        row = TournamentPairingRecord(
            tournament_id=t.id,
            round=number,
            board=board,
            first_id=first,
            second_id=second,
            spread=0,
            forfeit=False,
            void=False,
        )
        Lifecycle.score_unplayed(row, by_id)
        return row

    @staticmethod
    def score_unplayed(
        row: TournamentPairingRecord, by_id: dict[int, TournamentEntrantRecord]
    ) -> None:
        """A board's result before any game: a bye is a win, a withdrawn entrant's
        game is forfeited (their opponent scores the win); any other waits for its game."""
        row.score, row.source, row.forfeit = None, None, False
        if row.second_id is None:
            row.score, row.source = 1.0, "bye"
            return
        gone = [by_id[e].status == "withdrawn" for e in (row.first_id, row.second_id)]
        if any(gone):
            row.score = 0.5 if all(gone) else (0.0 if gone[0] else 1.0)
            row.forfeit, row.source = True, "forfeit"

    async def start_games(
        self, uow: UnitOfWork, t: TournamentRecord, rnd: TournamentRoundRecord
    ) -> None:
        """Make the round's games (each pairing still to play), its deadline and
        the job that opens their threads."""
        core = self.core
        now = core.now()
        rnd.status = "playing"
        rnd.started_at = now
        if rnd.deadline is None:
            rnd.deadline = now + timedelta(seconds=int(t.options.get("deadline_seconds", 0)))
        await self.make_games(uow, t, await uow.tournaments.pairings(t.id, rnd.number))
        await uow.jobs.schedule(
            opts.JOB_ROUND_DEADLINE,
            rnd.deadline,
            {"tournament_id": t.id, "round": rnd.number},
            key=opts.deadline_key(t.id),
        )
        await event_hooks.round_scheduled(uow, t, rnd, now)
        await self.advance(uow, t)  # a round of byes and forfeits only is over at once

    async def make_games(
        self, uow: UnitOfWork, t: TournamentRecord, pairings: Sequence[TournamentPairingRecord]
    ) -> None:
        """Make the games of these pairings that still need one (not scored, voided or a bye),
        and the job that opens their threads. Over the board (``room``) there are none:
        the players report each result (``room.OverTheBoard``)."""
        core = self.core
        if opts.is_room(t.options):
            return
        entrants = {e.id: e for e in await uow.tournaments.entrants(t.id)}
        names = await uow.players.names(core.member_ids(list(entrants.values())))
        guild = await uow.guilds.get(t.guild_id)
        made = False
        for p in pairings:
            if p.score is not None or p.void or p.game_id is not None or p.second_id is None:
                continue
            first, second = entrants[p.first_id], entrants[p.second_id]
            p.game_id = await core.games.create(
                uow,
                kind=t.game_kind,
                guild_id=t.guild_id,
                guild_name=guild.name if guild is not None else "",
                channel_id=t.channel_id,
                director_id=t.created_by,
                first=self._side(first, names),
                second=self._side(second, names),
                time_control=t.options.get("time_control"),
                extra_options={
                    "tournament_id": t.id,
                    "tournament_round": p.round,
                    "rated": bool(t.options.get("rated", True)),
                },
            )
            made = True
        await uow.tournaments.flush()
        if made:
            rnd = max(p.round for p in pairings)
            await uow.jobs.schedule(
                opts.JOB_OPEN_ROUND,
                core.now(),
                {"tournament_id": t.id, "round": rnd},
                key=opts.open_round_key(t.id, rnd) + f":{max(p.board for p in pairings)}",
            )

    @staticmethod
    def _side(e: TournamentEntrantRecord, names: dict[int, str]) -> Side:
        members = [(e.user_id, names.get(e.user_id, str(e.user_id)))]
        if e.partner_id is not None:
            members.append((e.partner_id, names.get(e.partner_id, str(e.partner_id))))
        return Side(tuple(members))

    # ------------------------------------------------------------------ advancing

    async def advance(self, uow: UnitOfWork, t: TournamentRecord) -> None:
        """When the current round has every result: replays of drawn knockout
        matches, else the standings, then the next round or the final table."""
        if t.status not in ("running", "paused") or t.current_round == 0:
            return
        core = self.core
        number = t.current_round
        rnd = await uow.tournaments.round(t.id, number)
        if rnd is None or rnd.status != "playing":
            return
        pairings = await uow.tournaments.pairings(t.id)
        this_round = [p for p in pairings if p.round == number]
        if any(p.score is None and not p.void for p in this_round):
            return
        if t.format == "knockout":
            replays = pairing.replays_due(pairings, number)
            if replays:
                await self._replays(uow, t, number, this_round, replays)
                return
        rnd.status, rnd.finished_at = "done", core.now()
        await uow.jobs.cancel(opts.deadline_key(t.id))
        await event_hooks.round_over(uow, rnd, core.now())
        entrants = await uow.tournaments.entrants(t.id)
        lines = core.standings_lines(t, entrants, pairings)
        playing = sum(e.status == "playing" for e in entrants)
        if number >= t.rounds or (t.format == "swiss" and playing < 2):
            await core.bump(uow, t, status="finished", finished_at=core.now())
            core.log(uow, t, None, "finish", rounds=number)
            core.post(uow, t, Post(content=msg.final_table(t.name, t.game_kind, lines)))
            await hooks.tournament_finished(uow, t.options, core.now())
            return
        core.post(
            uow, t, Post(content=msg.standings_after(t.name, t.game_kind, number, t.rounds, lines))
        )
        try:
            await self.pair_round(uow, t, number + 1, actor_id=None)
        except InvalidInputError as error:
            # Nothing of the round was written (it is paired before anything is):
            # hold the tournament for its director instead of failing the job forever.
            # The reason is kept as the club reads it (the log shows it as it was written).
            t.status = "paused"
            reason = refusal(error)
            core.log(uow, t, None, "pairing_failed", round=number + 1, reason=reason)
            core.post(uow, t, Post(content=msg.pairing_held(t.name, number + 1, reason)))

    async def end_now(self, uow: UnitOfWork, t: TournamentRecord, *, actor_id: int | None) -> None:
        """End a tournament before its last round (its games event closed), in the
        caller's transaction: the current round's unfinished games are scored as
        they stand and ended as the director's decision (their threads say so, and
        they are not rated), a round paired but held is dropped, and the final
        table is posted with its winner. A tournament over already is left alone."""
        if t.status not in ("running", "paused"):
            return
        core = self.core
        number = t.current_round
        rnd = await uow.tournaments.round(t.id, number) if number else None
        for p in await uow.tournaments.pairings(t.id, number) if rnd is not None else []:
            if p.score is not None or p.void:
                continue
            if rnd is not None and rnd.status == "paired":
                p.void, p.source = True, "void"  # never started: it counts for nobody
                continue
            if p.game_id is None:
                continue
            game = await uow.games.get(p.game_id)
            result = core.games.result(game) or core.games.standing_result(game)
            p.score, p.spread, p.source = result.score, result.spread, "adjudicated"
            if result.totals is not None:
                p.first_total, p.second_total = result.totals
            await core.games.end_decided(
                uow,
                game.id,
                first_score=result.score,
                how="adjudicated",
                headline=msg.game_ended_by_close(t.name, number),
            )
        if rnd is not None and rnd.status != "done":
            rnd.status, rnd.finished_at = "done", core.now()
        if rnd is not None:
            await event_hooks.round_over(uow, rnd, core.now())
        await uow.jobs.cancel(opts.deadline_key(t.id))
        await uow.tournaments.flush()
        pairings = await uow.tournaments.pairings(t.id)
        lines = core.standings_lines(t, await uow.tournaments.entrants(t.id), pairings)
        await core.bump(uow, t, status="finished", finished_at=core.now())
        core.log(uow, t, actor_id, "end", round=number)
        core.post(uow, t, Post(content=msg.final_table(t.name, t.game_kind, lines)))
        await hooks.tournament_finished(uow, t.options, core.now())

    async def _replays(
        self,
        uow: UnitOfWork,
        t: TournamentRecord,
        number: int,
        this_round: Sequence[TournamentPairingRecord],
        replays: Sequence[pairing.Pairing],
    ) -> None:
        core = self.core
        entrants = await uow.tournaments.entrants(t.id)
        by_id = {e.id: e for e in entrants}
        board = max(p.board for p in this_round)
        added = []
        for replay in replays:
            board += 1
            row = self._pairing(t, number, board, replay.first, replay.second, by_id)
            uow.tournaments.add(row)
            added.append(row)
        await uow.tournaments.flush()
        core.log(uow, t, None, "replay", round=number, boards=len(added))
        core.post(
            uow, t, Post(content=msg.replays(t.name, number, core.board_lines(entrants, added)))
        )
        await self.make_games(uow, t, added)
        rnd = await uow.tournaments.round(t.id, number)
        now = core.now()
        if rnd is not None and (rnd.deadline is None or rnd.deadline <= now):
            # Replays after the deadline (drawn by it) get a deadline of their own.
            rnd.deadline = now + timedelta(seconds=int(t.options.get("deadline_seconds", 0)))
            await uow.jobs.schedule(
                opts.JOB_ROUND_DEADLINE,
                rnd.deadline,
                {"tournament_id": t.id, "round": number},
                key=opts.deadline_key(t.id),
            )
            await event_hooks.round_scheduled(uow, t, rnd, now)
        await self.advance(uow, t)
