"""The director's tools (the tournament's creator and the club's moderators): set
a pairing of a held round, adjudicate or void a result, withdraw an entrant,
extend a round's deadline, pause and resume. Each act is one transaction that
claims the tournament's version (two directors at once: one applies, the other
is told) and writes a log row with who did it and when.

Pairings change only before their games exist: a paused tournament pairs its
next round and holds it (``paired``) until ``resume`` makes its games, so the
director may set pairings in between.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.db.models_tournaments import (
    TournamentEntrantRecord,
    TournamentPairingRecord,
    TournamentRecord,
)
from bot.db.uow import UnitOfWork
from bot.errors import InvalidInputError
from bot.messages import tournament_games as game_msg
from bot.messages import tournaments as msg
from bot.messages.post import Post
from bot.services.scheduling import hooks as event_hooks
from bot.services.tournaments import options as opts
from bot.services.tournaments import pairing
from bot.services.tournaments.core import Reply, TournamentCore
from bot.services.tournaments.games import GameResult
from bot.services.tournaments.lifecycle import Lifecycle
from bot.services.tournaments.room import rate_board
from bot.services.transactions import transact

RESULTS = {"win": 1.0, "draw": 0.5, "loss": 0.0}


@dataclass(frozen=True)
class Act:
    """Who acts, where, on which tournament."""

    guild_id: int
    channel_id: int | None
    ref: int | None
    actor_id: int
    is_moderator: bool
    actor_name: str = ""  # kept with the player, so the log names them


class Director:
    """The director's tools: set a pairing, adjudicate, void, withdraw, extend, pause and resume."""

    def __init__(self, core: TournamentCore, lifecycle: Lifecycle) -> None:
        self.core = core
        self.lifecycle = lifecycle

    async def _open(
        self, uow: UnitOfWork, act: Act, what: str, *, live: bool = True
    ) -> TournamentRecord:
        core = self.core
        t = await core.resolve(uow, act.guild_id, act.channel_id, act.ref)
        core.require_director(t, act.actor_id, act.is_moderator, what)
        if live and t.status not in ("running", "paused"):
            raise InvalidInputError(msg.not_running(t.name, t.status))
        await core.bump(uow, t)
        if act.actor_name:
            await uow.players.ensure(act.actor_id, act.actor_name)
        return t

    async def _entrant(
        self, uow: UnitOfWork, t: TournamentRecord, user_id: int, name: str
    ) -> TournamentEntrantRecord:
        entrant = self.core.entrant_of(await uow.tournaments.entrants(t.id), user_id)
        if entrant is None:
            raise InvalidInputError(msg.not_an_entrant(name, t.name))
        return entrant

    @staticmethod
    def _board_of(
        pairings: list[TournamentPairingRecord], entrant_id: int
    ) -> TournamentPairingRecord | None:
        return next(
            (p for p in reversed(pairings) if entrant_id in (p.first_id, p.second_id)), None
        )

    # ------------------------------------------------------------------ pairings

    async def pair(
        self,
        act: Act,
        first: tuple[int, str],
        second: tuple[int, str],
        *,
        confirm: bool = False,
    ) -> Reply:
        """Pair ``first`` against ``second`` in the held round (their former
        opponents then meet each other). Two who met already: a warning first,
        and the change only with ``confirm``."""
        core = self.core
        if first[0] == second[0]:
            raise InvalidInputError(msg.PAIR_SELF)
        async with core.ctx.uow() as uow:
            t = await self._open(uow, act, msg.WHAT_PAIR)
            if t.format != "swiss":
                # A round robin's table and a knockout's bracket follow from the seeds:
                # a hand-made pairing would break the rounds after it.
                raise InvalidInputError(msg.PAIR_ONLY_SWISS)
            rnd = await uow.tournaments.round(t.id, t.current_round)
            if rnd is None or rnd.status != "paired":
                raise InvalidInputError(msg.PAIR_NEEDS_PAUSE)
            a = await self._entrant(uow, t, *first)
            b = await self._entrant(uow, t, *second)
            if "withdrawn" in (a.status, b.status):
                raise InvalidInputError(msg.PAIR_WITHDRAWN)
            held = await uow.tournaments.pairings(t.id, rnd.number)
            earlier = [p for p in await uow.tournaments.pairings(t.id) if p.round < rnd.number]
            pa, pb = self._board_of(held, a.id), self._board_of(held, b.id)
            if pa is None or pb is None:
                raise InvalidInputError(msg.PAIR_NOT_IN_ROUND)
            if pa is pb:
                return Reply(msg.already_paired(a.label, b.label, pa.board), t.id)
            a_other = pa.second_id if pa.first_id == a.id else pa.first_id
            b_other = pb.second_id if pb.first_id == b.id else pb.first_id
            by_id = {e.id: e for e in await uow.tournaments.entrants(t.id)}
            met: list[msg.MetBefore] = []
            when = pairing.met_in(earlier, a.id, b.id)
            if when is not None:
                met.append(msg.MetBefore(a.label, b.label, when, knock_on=False))
            if a_other is not None and b_other is not None:
                # Their former opponents then meet each other: the warning names them.
                when = pairing.met_in(earlier, a_other, b_other)
                if when is not None:
                    met.append(
                        msg.MetBefore(
                            by_id[a_other].label, by_id[b_other].label, when, knock_on=True
                        )
                    )
            if met and not confirm:
                return Reply(msg.met_before(met), t.id, needs_confirm=True)
            # a keeps its board and plays first (White in chess) against b, as the
            # option says; their opponents take b's board.
            pa.first_id, pa.second_id = a.id, b.id
            if a_other is None:
                pb.first_id, pb.second_id = (b_other or a.id), None
            elif b_other is None:
                pb.first_id, pb.second_id = a_other, None
            else:
                pb.first_id, pb.second_id = a_other, b_other
            for p in (pa, pb):
                self.lifecycle.score_unplayed(p, by_id)
            await uow.tournaments.flush()
            core.log(
                uow,
                t,
                act.actor_id,
                "pair",
                round=rnd.number,
                first=a.user_id,
                second=b.user_id,
                warned=bool(met),
                repeat="them" if any(not m.knock_on for m in met) else ("others" if met else ""),
            )
            await uow.commit()
        return Reply(msg.paired(a.label, b.label, rnd.number, pa.board, t.game_kind), t.id)

    # ------------------------------------------------------------------ results

    async def adjudicate(
        self, act: Act, member: tuple[int, str], result: str, round_number: int | None
    ) -> Reply:
        """Set ``member``'s result in a round (default: the current one)."""
        core = self.core
        if result not in RESULTS:
            raise InvalidInputError(msg.RESULT_CHOICES)

        async def work(uow: UnitOfWork) -> Reply:
            t = await self._open(uow, act, msg.WHAT_ADJUDICATE)
            p, entrant = await self._pairing(uow, t, member, round_number)
            if p.second_id is None:
                raise InvalidInputError(msg.BYE_HAS_NO_RESULT)
            score = RESULTS[result]
            p.score = score if p.first_id == entrant.id else 1.0 - score
            p.source, p.void, p.forfeit = "adjudicated", False, False
            await uow.tournaments.flush()
            if opts.is_room(t.options):
                # Played over the board: rated as the game it was (once per board).
                await rate_board(core, uow, t, p)
            if p.game_id is not None:
                # The game itself ends with that result: its later moves would count for nothing.
                await core.games.end_decided(
                    uow,
                    p.game_id,
                    first_score=p.score,
                    how="adjudicated",
                    headline=game_msg.game_adjudicated(
                        t.name, entrant.label, result, p.round, p.board
                    ),
                )
            core.log(
                uow,
                t,
                act.actor_id,
                "adjudicate",
                round=p.round,
                board=p.board,
                member=member[0],
                result=result,
            )
            core.post(
                uow,
                t,
                Post(content=msg.adjudicated_post(t.name, entrant.label, result, p.round, p.board)),
            )
            await self.lifecycle.advance(uow, t)
            return Reply(msg.adjudicated(entrant.label, result, p.round, p.board), t.id)

        return await transact(core.ctx, work)

    async def void(self, act: Act, member: tuple[int, str], round_number: int | None) -> Reply:
        """Void ``member``'s result in a round (default: the current one): the board counts for
        nobody. Not in a knockout."""
        core = self.core

        async def work(uow: UnitOfWork) -> Reply:
            t = await self._open(uow, act, msg.WHAT_VOID)
            if t.format == "knockout":
                raise InvalidInputError(msg.NO_VOID_IN_KNOCKOUT)
            p, entrant = await self._pairing(uow, t, member, round_number)
            if p.second_id is None:
                raise InvalidInputError(msg.BYE_HAS_NO_RESULT)
            p.score, p.spread, p.void, p.source = None, 0, True, "void"
            p.first_total = p.second_total = None
            await uow.tournaments.flush()
            core.log(uow, t, act.actor_id, "void", round=p.round, board=p.board, member=member[0])
            await self.lifecycle.advance(uow, t)
            return Reply(msg.voided(entrant.label, p.round, p.board), t.id)

        return await transact(core.ctx, work)

    async def _pairing(
        self,
        uow: UnitOfWork,
        t: TournamentRecord,
        member: tuple[int, str],
        round_number: int | None,
    ) -> tuple[TournamentPairingRecord, TournamentEntrantRecord]:
        entrant = await self._entrant(uow, t, *member)
        number = round_number or t.current_round
        if t.format == "knockout" and number != t.current_round:
            raise InvalidInputError(msg.KNOCKOUT_PAST_ROUND)
        boards = await uow.tournaments.pairings(t.id, number)
        p = self._board_of(boards, entrant.id)
        if p is None:
            raise InvalidInputError(msg.no_game_in_round(entrant.label, number))
        return p, entrant

    # ------------------------------------------------------------------ entrants

    async def withdraw(self, act: Act, member: tuple[int, str]) -> Reply:
        """Withdraw an entrant (themselves, or a director for them): their games
        still to play in this round are forfeited, and later rounds pair without
        them (a round robin scores their games as forfeits)."""
        core = self.core

        async def work(uow: UnitOfWork) -> Reply:
            t = await core.resolve(uow, act.guild_id, act.channel_id, act.ref)
            if act.actor_id != member[0]:
                core.require_director(t, act.actor_id, act.is_moderator, msg.WHAT_WITHDRAW)
            if t.status == "signup":
                raise InvalidInputError(msg.USE_LEAVE)
            if t.status not in ("running", "paused"):
                raise InvalidInputError(msg.not_running(t.name, t.status))
            await core.bump(uow, t)
            entrant = await self._entrant(uow, t, *member)
            if entrant.status == "withdrawn":
                raise InvalidInputError(msg.already_withdrawn(entrant.label))
            entrant.status, entrant.withdrawn_round = "withdrawn", t.current_round
            forfeited = 0
            for p in await uow.tournaments.pairings(t.id, t.current_round):
                if entrant.id not in (p.first_id, p.second_id) or p.second_id is None:
                    continue
                if p.score is not None or p.void:
                    continue
                finished = await self._finished_result(uow, p)
                if finished is not None:
                    # Played to its end before the withdrawal, its finish job not yet run:
                    # the game stands.
                    p.score, p.spread, p.source = finished.score, finished.spread, "game"
                    if finished.totals is not None:
                        p.first_total, p.second_total = finished.totals
                    continue
                p.score = 0.0 if p.first_id == entrant.id else 1.0
                p.forfeit, p.source = True, "forfeit"
                forfeited += 1
                if p.game_id is not None:
                    # The game ends with the forfeit, in this transaction, as a result
                    # decided off the board: not rated (forfeits are not), and its
                    # thread says the entrant withdrew (not that they resigned).
                    await core.games.end_decided(
                        uow,
                        p.game_id,
                        first_score=p.score,
                        how="forfeit",
                        headline=msg.game_forfeited(entrant.label),
                    )
            await uow.tournaments.flush()
            core.log(
                uow,
                t,
                act.actor_id,
                "withdraw",
                member=member[0],
                round=t.current_round,
                forfeited=forfeited,
            )
            core.post(uow, t, Post(content=msg.withdrawn_post(t.name, entrant.label, forfeited)))
            await self.lifecycle.advance(uow, t)
            return Reply(msg.withdrew(entrant.label, forfeited), t.id)

        return await transact(core.ctx, work)

    async def _finished_result(
        self, uow: UnitOfWork, p: TournamentPairingRecord
    ) -> GameResult | None:
        """The board's game's result when the game is over already, else None."""
        if p.game_id is None:
            return None
        return self.core.games.result(await uow.games.get(p.game_id))

    # ------------------------------------------------------------------ time

    async def extend(self, act: Act, typed: str) -> Reply:
        """Extend the current round's deadline by ``typed`` (from now, once it has passed)."""
        core = self.core
        extra = opts.read_extension(typed)
        async with core.ctx.uow() as uow:
            t = await self._open(uow, act, msg.WHAT_EXTEND)
            rnd = await uow.tournaments.round(t.id, t.current_round)
            if rnd is None or rnd.status == "done":
                raise InvalidInputError(msg.NO_ROUND_TO_EXTEND)
            base = max(rnd.deadline or core.now(), core.now())
            rnd.deadline = base + extra
            if rnd.status == "playing":
                await uow.jobs.schedule(
                    opts.JOB_ROUND_DEADLINE,
                    rnd.deadline,
                    {"tournament_id": t.id, "round": rnd.number},
                    key=opts.deadline_key(t.id),
                )
                await event_hooks.round_scheduled(uow, t, rnd, core.now())
            core.log(
                uow,
                t,
                act.actor_id,
                "extend",
                round=rnd.number,
                seconds=int(extra.total_seconds()),
                deadline=rnd.deadline.isoformat(),
            )
            core.post(uow, t, Post(content=msg.extended(t.name, rnd.number, rnd.deadline)))
            await uow.commit()
        return Reply(msg.extended_reply(rnd.number, rnd.deadline), t.id)

    async def pause(self, act: Act) -> Reply:
        """Pause the tournament: the round's deadline waits, and the next round is paired but
        held until ``resume``."""
        core = self.core
        async with core.ctx.uow() as uow:
            t = await self._open(uow, act, msg.WHAT_PAUSE)
            if t.status == "paused":
                raise InvalidInputError(msg.already_paused(t.name))
            t.status = "paused"
            core.log(uow, t, act.actor_id, "pause", round=t.current_round)
            core.post(uow, t, Post(content=msg.paused_post(t.name)))
            await uow.commit()
        return Reply(msg.paused_reply(t.name), t.id)

    async def resume(self, act: Act) -> Reply:
        """Resume a paused tournament: a held round gets its games, a round in play its deadline
        again, and a round that could not be paired is tried again."""
        core = self.core

        async def work(uow: UnitOfWork) -> Reply:
            t = await self._open(uow, act, msg.WHAT_RESUME)
            if t.status != "paused":
                raise InvalidInputError(msg.not_paused(t.name))
            t.status = "running"
            core.log(uow, t, act.actor_id, "resume", round=t.current_round)
            rnd = await uow.tournaments.round(t.id, t.current_round)
            core.post(uow, t, Post(content=msg.resumed_post(t.name)))
            if rnd is not None and rnd.status == "paired":
                await self.lifecycle.start_games(uow, t, rnd)
            elif rnd is not None and rnd.status == "playing":
                due = max(rnd.deadline or core.now(), core.now())
                await uow.jobs.schedule(
                    opts.JOB_ROUND_DEADLINE,
                    due,
                    {"tournament_id": t.id, "round": rnd.number},
                    key=opts.deadline_key(t.id),
                )
                await self.lifecycle.advance(uow, t)
            elif rnd is not None and rnd.status == "done" and rnd.number < t.rounds:
                # Held because the next round could not be paired: try again (a
                # refusal reaches the director and changes nothing).
                await self.lifecycle.pair_round(uow, t, rnd.number + 1, actor_id=act.actor_id)
            return Reply(msg.resumed_reply(t.name), t.id)

        return await transact(core.ctx, work)
