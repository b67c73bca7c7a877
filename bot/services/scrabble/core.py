"""What every Scrabble use case shares: the context, loading a game in a unit of
work, and committing a change to it.

A change is a compare-and-set on the game's version (two plays sent at once
apply once): the engine's new log entries are appended to ``moves`` (ply = the
entry's index in the engine's log, so ``ScrabbleGame.replay`` rebuilds the
game), the timers move to the new turn, the thread is told through the outbox
and a finished game's result is recorded, all in the same transaction.

Timers (durable jobs, one key per game and purpose, so rescheduling moves them):
the turn clock (a turn that runs out is a pass), the reminder before it, the
challenge window of a play that would end the game, the game's deadline, the
invitation's expiry, and the computer's move.
"""

from __future__ import annotations

import logging
import random
from datetime import datetime, timedelta
from typing import Any

from bot.context import ServiceContext
from bot.db.models import JobRecord
from bot.db.uow import UnitOfWork
from bot.errors import InvalidInputError, NotFoundError
from bot.messages import scrabble as msg
from bot.messages.post import Post
from bot.services import achievements
from bot.services.puzzles.hooks import game_finished as puzzles_game_finished
from bot.services.results import SeatOutcome, record_game_result
from bot.services.scrabble import ai
from bot.services.scrabble.announce import Announcer
from bot.services.scrabble.lexicons import WordLists
from bot.services.scrabble.loaded import (
    KIND,
    LoadedGame,
    TurnMeta,
    load_game,
    member_game,
    when,
)
from bot.services.tournaments.hooks import game_finished as tournament_game_finished
from engines.scrabble.game import ACTIVE, ENDING, FINISHED, RACKS
from engines.scrabble.gcg import export_gcg

log = logging.getLogger(__name__)

JOB_TURN = "scrabble.turn_timeout"
JOB_REMINDER = "scrabble.reminder"
JOB_ENDING = "scrabble.ending_window"
JOB_DEADLINE = "scrabble.deadline"
JOB_INVITE = "scrabble.invite_expiry"
JOB_COMPUTER = "scrabble.computer_move"
JOB_KINDS = (JOB_TURN, JOB_REMINDER, JOB_ENDING, JOB_DEADLINE, JOB_INVITE, JOB_COMPUTER)

INVITE_TTL = timedelta(days=3)
# The computer answers after the board of the move before it is out.
COMPUTER_DELAY = timedelta(seconds=1)
# Log entries no member made (the clock, the deadline, the end of a window).
_NOBODY = ("close", "deadline", "blocked")


def job_key(game_id: int, purpose: str) -> str:
    """The job key of a game's timer for ``purpose`` (one per game and purpose, so
    rescheduling moves it)."""
    return f"scrabble:{game_id}:{purpose}"


def notation(entry: dict[str, Any]) -> str:
    """Public notation for the move log (never the tiles exchanged or a rack)."""
    kind: str = entry["type"]
    if kind == "play":
        return f"{entry['position']} {entry['word']}"
    if kind == "exchange":
        return f"-{entry.get('count') or len(entry['tiles'])}"
    if kind == "rack":
        return f"({entry['tiles']})"  # over the board: the tiles left at the end
    if kind == "pass":
        if entry.get("timed_out"):
            return "- (timed out)"
        return "- (lost turn)" if entry.get("lost_turn") else "-"
    if kind == "challenge":
        return f"challenge: {entry['result']}"
    if kind == "deadline" and entry.get("early"):
        return "ended"  # a club session's moderator ended the board before its deadline
    return kind


class ScrabbleCore:
    """What every Scrabble use case shares: loading a game, committing a change to it,
    its timers; each use case holds the one core."""

    def __init__(
        self,
        ctx: ServiceContext,
        *,
        rng: random.Random,
        lexicons: WordLists,
        announce: Announcer,
    ) -> None:
        self.ctx = ctx
        self.rng = rng
        self.lexicons = lexicons
        self.announce = announce

    # -- loading ------------------------------------------------------------------------

    load = staticmethod(load_game)
    member_game = staticmethod(member_game)

    async def job_game(
        self, uow: UnitOfWork, job: JobRecord, *, status: str = "active"
    ) -> LoadedGame | None:
        """The game a timer is for, if it is still as the timer was set for it."""
        try:
            loaded = await load_game(uow, int(job.payload["game_id"]))
        except NotFoundError:
            return None
        if loaded.record.status != status or (status == "active" and loaded.engine is None):
            return None
        expected = job.payload.get("moves")
        engine = loaded.engine
        if expected is not None and engine is not None and len(engine.moves) != expected:
            return None  # the game moved on since this timer was set
        return loaded

    async def end_decided(
        self, uow: UnitOfWork, game_id: int, *, first_score: float, headline: str
    ) -> None:
        """End a game in play (or not dealt yet) with a result decided off the board
        (a tournament's director, its round's deadline), in the caller's transaction:
        finished, the first seat's points kept in ``state["decided"]``, every timer
        cancelled, ``headline`` posted in its thread; not rated. Later moves are
        refused as in any finished game."""
        loaded = await load_game(uow, game_id)
        record = loaded.record
        if record.status not in ("active", "invited"):
            return
        state = {**(record.state or {}), "decided": {"first_score": first_score}}
        await uow.games.save_state(
            record,
            expected_version=loaded.version,
            state=state,
            status="finished",
            finished_at=self.ctx.clock(),
            deadline=None,
        )
        for purpose in ("turn", "reminder", "ending", "deadline", "invite", "computer"):
            await uow.jobs.cancel(job_key(game_id, purpose))
        if record.thread_id is not None:
            uow.outbox.to_channel(record.thread_id, Post(content=headline))

    def wake_after_commit(self, uow: UnitOfWork) -> None:
        """Job handlers get a bare unit of work: wake the senders ourselves."""
        uow.on_commit(self.ctx.outbox_notify)
        uow.on_commit(self.ctx.scheduler.wake)

    # -- committing a change ---------------------------------------------------------------

    async def commit_changes(
        self, uow: UnitOfWork, loaded: LoadedGame, before: int, now: datetime, *, actor: int | None
    ) -> None:
        """Save state (version-checked), log moves, move timers, announce, finish."""
        engine = loaded.require_engine()
        record = loaded.record
        # The play that could be challenged before these moves, as last saved.
        pending_before = (record.state or {}).get("engine", {}).get("pending")
        if await self._nobody_can_play(loaded):
            engine.end_blocked()
        entries = engine.moves[before:]
        previous = loaded.meta
        new_turn = previous.get("seat") != engine.current_seat or any(
            e["type"] in ("play", "exchange", "pass") and not e.get("auto") for e in entries
        )
        meta = await self.schedule_turn(uow, loaded, now, previous=previous, new_turn=new_turn)
        columns: dict[str, object] = {}
        if engine.status == FINISHED:
            columns.update(status="finished", finished_at=now)
        state = {"engine": engine.to_json(), **meta}
        await uow.games.save_state(record, expected_version=loaded.version, state=state, **columns)
        loaded.meta = meta
        for offset, entry in enumerate(entries):
            await uow.moves.append(
                record.id,
                ply=before + offset,
                notation=notation(entry),
                seat=entry.get("seat"),
                user_id=None if entry.get("auto") or entry["type"] in _NOBODY else actor,
                score=entry.get("score"),
                data=entry,
                at=now,
            )
        lines = msg.describe_entries(entries, loaded.label)
        if engine.status == ENDING and previous.get("status") != ENDING:
            lines.append(self.announce.ending_line(loaded))
        if engine.status == FINISHED:
            await self._finish(uow, loaded, lines, now)
        else:
            self.announce.board(uow, loaded, lines, new_turn=new_turn)
            await self.announce.explain(uow, loaded, entries)
            if new_turn and engine.status == ACTIVE and not loaded.settings.live:
                self.announce.turn(uow, loaded)
        await self._bingos_final(uow, loaded, pending_before, now)

    async def _bingos_final(
        self,
        uow: UnitOfWork,
        loaded: LoadedGame,
        pending_before: dict[str, Any] | None,
        now: datetime,
    ) -> None:
        """A first bingo for the members whose bingo is now past challenge: granted (and
        announced) only then, so a phony challenged off the board never earns it. Not over
        the board (the tally can be corrected) nor for the computer."""
        engine = loaded.require_engine()
        if engine.options.room:
            return
        for seat in engine.bingos_now_final(pending_before):
            if loaded.is_computer(seat):
                continue
            await achievements.bingo_played(
                uow,
                guild_id=loaded.record.guild_id,
                player_ids=loaded.seats.get(seat, []),
                now=now,
                channel_id=loaded.home,
            )

    async def _nobody_can_play(self, loaded: LoadedGame) -> bool:
        """The game is stuck (bag too small to exchange, no seat has a play in the
        game's word list): the move generator says so, seat by seat, so a seat
        that could still play is never ended on. Only asked near the end."""
        engine = loaded.require_engine()
        if engine.status != ACTIVE or engine.bag_count >= engine.exchange_minimum:
            return False
        if engine.options.room:
            return False  # over the board the racks are not known: the players know
        try:
            lexicon = await self.lexicons.get(loaded.settings.lexicon)
        except InvalidInputError:
            log.warning(
                "Scrabble #%s: word list unavailable; not checking for a blocked game",
                loaded.game_id,
            )
            return False
        options = ai.AiOptions(await self.lexicons.ref(loaded.settings.lexicon))
        if not ai.graph_ready(lexicon, options):
            # Not built where the check runs yet (the CPU pool's workers, or this
            # process): build it in the background rather than inside this transaction;
            # the next move checks (six zeros still apply).
            ai.start_warm_up(lexicon, options)
            return False
        return await ai.is_blocked(engine.to_json(), options)

    async def schedule_turn(
        self,
        uow: UnitOfWork,
        loaded: LoadedGame,
        now: datetime,
        *,
        previous: TurnMeta,
        new_turn: bool,
    ) -> TurnMeta:
        """Move the game's timers to its new state; what ``games.state`` keeps of them."""
        engine = loaded.require_engine()
        game_id = loaded.game_id
        moves = len(engine.moves)
        meta = TurnMeta(status=engine.status, seat=engine.current_seat, moves=moves)
        await self._schedule_computer(uow, loaded, now)
        if engine.status != ACTIVE:
            await uow.jobs.cancel(job_key(game_id, "turn"))
            await uow.jobs.cancel(job_key(game_id, "reminder"))
        if engine.status == FINISHED:
            await uow.jobs.cancel(job_key(game_id, "ending"))
            await uow.jobs.cancel(job_key(game_id, "deadline"))
            return meta
        if engine.status == RACKS:
            await uow.jobs.cancel(job_key(game_id, "ending"))
            return meta  # over the board: no clock while the unplayed tiles are counted
        if engine.status == ENDING:
            # The window opens with the finishing play; an acceptance by one of
            # several opponents keeps its end but re-keys the job to the new log.
            kept = when(previous.get("ending_due")) if previous.get("status") == ENDING else None
            due = kept or now + loaded.settings.ending_window
            payload = {"game_id": game_id, "moves": moves}
            await uow.jobs.schedule(JOB_ENDING, due, payload, key=job_key(game_id, "ending"))
            meta["ending_due"] = due.isoformat()
            return meta
        await uow.jobs.cancel(job_key(game_id, "ending"))
        clock = loaded.settings.clock
        if clock is None:
            return meta
        kept = when(previous.get("turn_due"))
        if not new_turn and kept and previous.get("seat") == engine.current_seat:
            # A challenge between turns doesn't restart the clock of the seat to move;
            # the jobs are re-keyed to the new move count so they still fire.
            due = kept
        else:
            due = now + clock
        payload = {"game_id": game_id, "moves": moves, "seat": engine.current_seat}
        await uow.jobs.schedule(JOB_TURN, due, payload, key=job_key(game_id, "turn"))
        lead = loaded.settings.reminder_lead
        if lead is not None and due - lead > now and not loaded.is_computer(engine.current_seat):
            await uow.jobs.schedule(
                JOB_REMINDER, due - lead, payload, key=job_key(game_id, "reminder")
            )
        else:
            await uow.jobs.cancel(job_key(game_id, "reminder"))
        meta["turn_due"] = due.isoformat()
        return meta

    async def _schedule_computer(self, uow: UnitOfWork, loaded: LoadedGame, now: datetime) -> None:
        """The computer's turn (or its say on a finishing play) runs as a durable job,
        after the commit that handed it the turn: a restart in between loses nothing."""
        engine = loaded.require_engine()
        seat = loaded.settings.computer_seat
        if seat is None:
            return
        key = job_key(loaded.game_id, "computer")
        waiting = (engine.status == ACTIVE and engine.current_seat == seat) or (
            engine.status == ENDING and engine.can_challenge(seat)
        )
        if waiting:
            payload = {"game_id": loaded.game_id, "moves": len(engine.moves)}
            await uow.jobs.schedule(JOB_COMPUTER, now + COMPUTER_DELAY, payload, key=key)
        else:
            await uow.jobs.cancel(key)

    async def _finish(
        self, uow: UnitOfWork, loaded: LoadedGame, lines: list[str], now: datetime
    ) -> None:
        """Results and ratings (rated games), then the final post."""
        await tournament_game_finished(uow, loaded.record, now)
        engine = loaded.require_engine()
        if not engine.options.room:  # over the board no rack is known: no puzzles
            await puzzles_game_finished(uow, loaded.record, now)
        result = engine.result()
        assert result is not None
        record = loaded.record
        if result.reason in ("deadline", "ended") and engine.board_copy().is_empty:
            # Nobody placed a tile: what is left on the racks would decide a winner.
            options = record.options or {}
            part_of = (
                "tournament"
                if options.get("tournament_id") is not None
                else "session"
                if options.get("session_id") is not None
                else None
            )
            lines += msg.no_contest(result.reason, part_of=part_of)
            self.announce.final(uow, loaded, lines, self.gcg_text(loaded))
            return
        if loaded.settings.rated and loaded.record.options.get("rated", True) is not False:
            outcomes = [
                SeatOutcome(
                    seat=seat,
                    user_ids=list(loaded.seats.get(seat, [])),
                    rank=result.ranks[seat] - 1,
                    score=float(result.final_scores[seat]),
                    extra={"reason": result.reason, "seat": seat},
                )
                for seat in range(engine.seats)
            ]
            await record_game_result(
                uow,
                guild_id=record.guild_id,
                kind=KIND,
                game_id=record.id,
                seats=outcomes,
                played_at=now,
                announce_in=loaded.home,
            )
        standings = [
            msg.Standing(
                rank=result.ranks[seat],
                label=loaded.label(seat),
                final=result.final_scores[seat],
                before=result.scores_before[seat],
                adjustment=result.adjustments[seat],
                resigned=seat in result.resigned,
            )
            for seat in sorted(range(engine.seats), key=lambda s: result.ranks[s])
        ]
        hints = None
        if loaded.settings.hints:
            used = {row.user_id: row.hints_used or 0 for row in record.seats}
            hints = [
                (msg.seat_label([loaded.names.get(u, str(u))]), used.get(u, 0))
                for seat in sorted(loaded.seats)
                if not loaded.is_computer(seat)
                for u in loaded.seats[seat]
            ]
        lines += msg.game_over(
            result.reason,
            [loaded.label(s) for s in result.winners],
            draw=result.is_draw,
            standings=standings,
            hints=hints,
            rated=loaded.settings.rated,
            hinted=loaded.settings.hints,
        )
        self.announce.final(uow, loaded, lines, self.gcg_text(loaded))

    def gcg_text(self, loaded: LoadedGame) -> str:
        """The game's record in GCG, the seats under their names as they are."""
        engine = loaded.require_engine()
        return export_gcg(
            engine,
            [loaded.name(seat) for seat in range(engine.seats)],
            lexicon=msg.lexicon_display_name(loaded.settings.lexicon),
            title=f"Scrabble #{loaded.number}",
        )
