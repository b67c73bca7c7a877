"""A tournament's round jobs, run by the scheduler: a game's finish
(``JOB_GAME_FINISHED``) records its result and, the round's last, moves the
tournament on; the round's deadline (``JOB_ROUND_DEADLINE``) scores what is
unfinished; ``JOB_OPEN_ROUND`` gives the round's games their threads and first
boards (see ``lifecycle`` for the whole life of a tournament)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from bot.db.models import JobRecord
from bot.db.uow import UnitOfWork
from bot.messages import tournament_games as game_msg
from bot.messages import tournament_room as room_msg
from bot.messages import tournaments as msg
from bot.messages.i18n import language_of, use_language
from bot.messages.post import Post
from bot.services.tournaments import options as opts
from bot.services.tournaments.core import TournamentCore
from bot.services.tournaments.games import GameToOpen
from bot.services.tournaments.lifecycle import Lifecycle
from bot.services.transactions import transact


class RoundJobs:
    """The job handlers that run a tournament's rounds."""

    def __init__(self, core: TournamentCore, lifecycle: Lifecycle) -> None:
        self.core = core
        self.lifecycle = lifecycle

    # Jobs JOB_GAME_FINISHED and JOB_ROUND_DEADLINE do their work before the job's own
    # transaction, in units of work of their own: two games of a round finishing at
    # once (or a director's act) claim the tournament's version together on
    # PostgreSQL, and a round's game may meet a member's new game on its number;
    # the loser reads everything again and applies, instead of failing the job (and
    # logging an error) until the scheduler's retry. Each is safe to run again: a
    # scored board or a round moved on is left alone.

    async def prepare_game_finished(self, payload: dict[str, Any]) -> None:
        """Record a finished game's result and, when it was the round's last, move the tournament
        on (in a unit of work of its own)."""
        await self._in_own_unit(int(payload["tournament_id"]), self._game_finished, payload)

    async def on_game_finished(self, uow: UnitOfWork, job: JobRecord, prepared: None) -> None:
        """Job ``JOB_GAME_FINISHED``: its work is in ``prepare_game_finished``."""
        return  # the work is in ``prepare_game_finished``

    async def prepare_round_deadline(self, payload: dict[str, Any]) -> None:
        """Score the round's unfinished games as they stand at its deadline and end them, then
        move the tournament on (in a unit of work of its own)."""
        await self._in_own_unit(int(payload["tournament_id"]), self._round_deadline, payload)

    async def on_round_deadline(self, uow: UnitOfWork, job: JobRecord, prepared: None) -> None:
        """Job ``JOB_ROUND_DEADLINE``: its work is in ``prepare_round_deadline``."""
        return  # the work is in ``prepare_round_deadline``

    async def _in_own_unit(
        self,
        tournament_id: int,
        work: Callable[[UnitOfWork, dict[str, Any]], Awaitable[None]],
        payload: dict[str, Any],
    ) -> None:
        async def attempt(uow: UnitOfWork) -> None:
            t = await uow.tournaments.get(tournament_id)
            guild = await uow.guilds.get(t.guild_id) if t is not None else None
            # Outside the job's own block, so the tournament's club language is set here.
            language = language_of(guild.settings if guild is not None else None)
            with use_language(language, guild.id if guild is not None else None):
                await work(uow, payload)

        await transact(self.core.ctx, attempt, conflicts=True)

    async def _game_finished(self, uow: UnitOfWork, payload: dict[str, Any]) -> None:
        core = self.core
        game_id = int(payload["game_id"])
        p = await uow.tournaments.pairing_of_game(game_id)
        if p is None or p.score is not None or p.void:
            return  # scored already (a deadline, a forfeit, a director)
        t = await core.load(uow, p.tournament_id)
        game = await uow.games.get(game_id)
        result = core.games.result(game)
        if result is None:
            return
        await core.bump(uow, t)
        p.score, p.spread, p.source = result.score, result.spread, "game"
        if result.totals is not None:
            p.first_total, p.second_total = result.totals
        await uow.tournaments.flush()
        await self.lifecycle.advance(uow, t)

    async def _round_deadline(self, uow: UnitOfWork, payload: dict[str, Any]) -> None:
        core = self.core
        t = await uow.tournaments.get(int(payload["tournament_id"]))
        number = int(payload["round"])
        if t is None or t.status != "running" or t.current_round != number:
            return  # over, paused (resume looks again) or moved on
        rnd = await uow.tournaments.round(t.id, number)
        if rnd is None or rnd.status != "playing":
            return
        if rnd.deadline is not None and rnd.deadline > core.now():
            return  # extended since this was due
        await core.bump(uow, t)
        scored = 0
        for p in await uow.tournaments.pairings(t.id, number):
            if p.score is not None or p.void or p.game_id is None:
                continue
            game = await uow.games.get(p.game_id)
            result = core.games.result(game) or core.games.standing_result(game)
            p.score, p.spread, p.source = result.score, result.spread, "deadline"
            if result.totals is not None:
                p.first_total, p.second_total = result.totals
            scored += 1
            # The game itself ends as scored: its later moves would count for nothing.
            await core.games.end_decided(
                uow,
                game.id,
                first_score=result.score,
                how="round deadline",
                headline=game_msg.game_ended_by_deadline(t.name, number),
            )
        await uow.tournaments.flush()
        core.log(uow, t, None, "deadline", round=number, scored=scored)
        if opts.is_room(t.options):
            # Over the board: the boards still without an agreed result are the director's.
            boards = [
                p.board
                for p in await uow.tournaments.pairings(t.id, number)
                if p.score is None and not p.void and p.second_id is not None
            ]
            if boards:
                core.post(uow, t, Post(content=room_msg.deadline_open(t.name, number, boards)))
        else:
            core.post(uow, t, Post(content=msg.deadline_passed(t.name, number, scored)))
        await self.lifecycle.advance(uow, t)

    async def prepare_open(self, payload: dict[str, Any]) -> None:
        """Each game of the round without its thread gets one, and its first board.
        Outside the job's transaction: these are calls to Discord, and the games'
        services commit their own opening (idempotently)."""
        core = self.core
        async with core.ctx.reader() as uow:
            t = await uow.tournaments.get(int(payload["tournament_id"]))
            if t is None:
                return
            number = int(payload["round"])
            pairings = await uow.tournaments.pairings(t.id, number)
            entrants = {e.id: e for e in await uow.tournaments.entrants(t.id)}
            todo: list[tuple[GameToOpen, str, str]] = []
            for p in pairings:
                if p.game_id is None or p.second_id is None:
                    continue
                game = await uow.games.get(p.game_id)
                if game.status not in ("active", "invited") or (game.options or {}).get("opened"):
                    continue
                if game.kind == "scrabble" and game.status != "invited":
                    continue
                first, second = entrants[p.first_id], entrants[p.second_id]
                to_open = GameToOpen(
                    game_id=game.id,
                    kind=game.kind,
                    channel_id=t.channel_id,
                    thread_id=game.thread_id,
                    number=game.number,
                    user_ids=tuple(s.user_id for s in game.seats),
                    live=False,
                )
                starter = msg.game_starter(
                    t.name,
                    number,
                    p.board,
                    first.label,
                    second.label,
                    tuple(s.user_id for s in game.seats),
                )
                name = msg.thread_name(number, p.board, first.label, second.label)
                todo.append((to_open, starter, name))
        for to_open, starter, name in todo:
            await core.games.open(to_open, starter, name)

    async def on_open_round(self, uow: UnitOfWork, job: JobRecord, prepared: None) -> None:
        """Job ``JOB_OPEN_ROUND``: its work is in ``prepare_open``."""
        return  # the work is in ``prepare_open``: it is safe to run again
