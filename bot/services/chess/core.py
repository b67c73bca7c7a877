"""What every chess use case shares: loading a game into a snapshot, saving it
(version checked), the checks on who may act, posting boards through the
outbox, and the steps of a turn (a move played, a game finished, the timers moved).

A game is a ``games`` row (kind ``chess``) whose ``state`` holds the moves and
the clock (``state.ChessState``). Every change is
one unit of work: the state's version is compared-and-set, the move appended to
``moves``, the timers (flag, reminder, computer reply) moved, and whatever the
channel must see written to the outbox, all before the commit. A finished game
records its result and Glicko-2 ratings in the same transaction.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime, timedelta

import chess

from bot.db.models import GameRecord, JobRecord
from bot.db.uow import UnitOfWork
from bot.errors import InvalidInputError, NotFoundError, PermissionDeniedError
from bot.messages import chess as msg
from bot.messages.chess import refusals
from bot.messages.i18n import _
from bot.messages.post import Post, ViewSpec
from bot.services import ServiceContext
from bot.services.chess.engine import ChessEngine
from bot.services.chess.options import (
    BLACK_SEAT,
    JOB_COMPUTER,
    JOB_OFFER_ANSWERED,
    JOB_REMINDER,
    JOB_TIMEOUT,
    KIND,
    REMINDER_LEAD,
    WHITE_SEAT,
    computer_key,
    invite_key,
    offer_answered_key,
    open_key,
    options_of,
    reminder_key,
    seat_of,
    timeout_key,
)
from bot.services.chess.snapshots import ChessSnapshot, ChessUpdate, PlayerRef, Seat, color_key
from bot.services.chess.state import ChessState
from bot.services.games import GameAsked, WhichGame
from bot.services.puzzles.hooks import game_finished as puzzles_game_finished
from bot.services.rematch_offer import rematch_offered, rematch_view
from bot.services.results import RatingChange, SeatOutcome, record_game_result
from bot.services.tournaments.hooks import game_finished as tournament_game_finished
from engines.chess_clock import ClockError, parse_time_control
from engines.chess_game import Finish, automatic_finish, timeout_finish

log = logging.getLogger(__name__)


class ChessCore:
    """The pieces the use cases are made of; each use case holds the one core."""

    def __init__(self, ctx: ServiceContext, engine: ChessEngine | None, rng: random.Random) -> None:
        self.ctx = ctx
        # None: no Stockfish configured; the computer opponent and analysis explain how to add it.
        self.engine = engine
        self.rng = rng

    def now(self) -> datetime:
        """The time now, by the service's clock."""
        return self.ctx.clock()

    # ------------------------------------------------------------------ loading

    async def game(
        self, uow: UnitOfWork, game_id: WhichGame, guild_id: int | None = None
    ) -> GameRecord:
        """The game, by its id or as a command asked for it (found in ``uow``, see
        ``GameAsked``); with ``guild_id``, another server's game is "not found"."""
        if isinstance(game_id, GameAsked):
            return await game_id.load(uow)
        return await uow.games.get(game_id, guild_id=guild_id, kind=KIND)

    async def job_game(self, uow: UnitOfWork, job: JobRecord) -> GameRecord | None:
        """The game a timer's job is for; None (and a warning logged) when its payload
        names no game."""
        try:
            return await self.game(uow, int(job.payload["game_id"]))
        except (NotFoundError, KeyError, ValueError):
            log.warning("chess job %s names no game (%s)", job.id, job.payload)
            return None

    async def snapshot(
        self, uow: UnitOfWork, game: GameRecord, state: ChessState | None = None
    ) -> ChessSnapshot:
        """The game as a ``ChessSnapshot``: its sides and their names, moves, clock and
        result (``state``: the state to show, when it is not yet the stored one)."""
        state = state or ChessState.load(game)
        seats: dict[int, list[int]] = {}
        for row in game.seats:  # a pair is two rows with the same seat
            seats.setdefault(row.seat, []).append(row.user_id)
        names = await uow.players.of_seats(game.seats)
        options = options_of(game.options)
        computer_seat = options.get("computer_seat")

        def seat(index: int) -> Seat:
            ids = seats.get(index) or [0]
            members = tuple(PlayerRef(uid, names.get(uid, str(uid))) for uid in ids)
            return Seat(
                ids[0],
                " & ".join(m.name for m in members),
                is_computer=computer_seat == index,
                members=members if len(members) > 1 else (),
            )

        return ChessSnapshot(
            game_id=game.id,
            number=game.number,
            guild_id=game.guild_id,
            channel_id=game.channel_id,
            thread_id=game.thread_id,
            status=game.status,
            white=seat(WHITE_SEAT),
            black=seat(BLACK_SEAT),
            moves=tuple(state.moves),
            control=parse_time_control(options.get("time_control")),
            clock=state.clock,
            draw_offer=state.draw_offer,
            result=state.result,
            termination=state.termination,
            created_by=game.created_by,
            started_at=state.started_at,
            finished_at=game.finished_at,
            as_of=self.now(),
            level=options.get("computer_level"),
            opening_message_id=None if options.get("opened") else options.get("opening_message_id"),
            waiting_for=tuple(
                names.get(row.user_id, str(row.user_id))
                for row in game.seats
                if not row.accepted and game.status == "invited"
            ),
            version=game.version,
            known_position=state.known_position,
        )

    async def save(
        self, uow: UnitOfWork, game: GameRecord, state: ChessState | None, **changes: object
    ) -> None:
        """Write the game if nobody else did since it was loaded (else ``ConflictError``).

        A draw offer that ends here (accepted, declined, withdrawn, lapsed with a
        move, or the game over) leaves its Accept and Decline buttons on the posts
        that offered it, wherever it was answered (the board page, a command, a
        button of another post): a job, in this transaction, takes them off."""
        offered = (game.state or {}).get("draw_offer")
        offers = state.draw_offer if state is not None else None
        answered = offered is not None and (offers is None or color_key(offers) != offered)
        await uow.games.save_state(
            game,
            expected_version=game.version,
            state=dict(state.dump()) if state is not None else None,
            **changes,
        )
        place = game.thread_id or game.channel_id
        if answered and place is not None:
            await uow.jobs.schedule(
                JOB_OFFER_ANSWERED,
                self.now(),
                {"game_id": game.id, "channel_id": place},
                key=offer_answered_key(game.id),
            )

    # ------------------------------------------------------------------ who may act

    @staticmethod
    def seat_color(game: GameRecord, user_id: int) -> chess.Color | None:
        """The colour ``user_id`` plays in the game; None if they don't play in it (the
        computer's side is nobody's)."""
        computer_seat = options_of(game.options).get("computer_seat")
        for seat in game.seats:
            if seat.user_id == user_id and seat.seat != computer_seat:
                return chess.WHITE if seat.seat == WHITE_SEAT else chess.BLACK
        return None

    def require_player(self, game: GameRecord, user_id: int) -> chess.Color:
        """The colour ``user_id`` plays; a member not playing in the game is refused."""
        color = self.seat_color(game, user_id)
        if color is None:
            raise PermissionDeniedError(refusals.NOT_YOURS)
        return color

    @staticmethod
    def require_active(game: GameRecord) -> None:
        """Refuse a game that has not started yet or is over."""
        if game.status == "invited":
            raise InvalidInputError(_(refusals.NOT_STARTED).format(game.number))
        if game.status != "active":
            raise InvalidInputError(_(refusals.GAME_OVER).format(game.number))

    async def players_turn(
        self, uow: UnitOfWork, game_id: WhichGame, user_id: int, guild_id: int | None
    ) -> tuple[GameRecord, chess.Color, ChessState]:
        """A game in progress, the colour ``user_id`` plays in it, and its state."""
        game = await self.game(uow, game_id, guild_id)
        color = self.require_player(game, user_id)
        self.require_active(game)
        return game, color, ChessState.load(game)

    # ------------------------------------------------------------------ posting

    def after_commit(self, uow: UnitOfWork) -> None:
        """Job handlers get a bare unit of work: wake the senders ourselves."""
        uow.on_commit(self.ctx.outbox_notify)
        uow.on_commit(self.ctx.scheduler.wake)

    @staticmethod
    def board_post(
        snap: ChessSnapshot,
        headline: str,
        rating_changes: Sequence[RatingChange] = (),
        view: ViewSpec | None = None,
    ) -> Post:
        """The board image (alt text included) with its text, and the draw offer's buttons
        (or ``view``: a finished game's Rematch)."""
        return Post(
            content=msg.board_text(snap, headline, rating_changes),
            files=(snap.board_image(),),
            view=snap.draw_offer_view() or view,
            mention_user_ids=tuple(snap.mention_user_ids()),
        )

    def announce(
        self,
        uow: UnitOfWork,
        snap: ChessSnapshot,
        headline: str,
        reply_channel_id: int | None,
        rating_changes: Sequence[RatingChange] = (),
        view: ViewSpec | None = None,
    ) -> ChessUpdate:
        """The board, in this transaction's outbox for the game's place, so a kill
        after the commit cannot lose it; the command's own reply (see ``ChessUpdate``)
        only acknowledges it, with a private copy when used elsewhere."""
        place = snap.place_id
        if place is not None:
            uow.outbox.to_channel(place, self.board_post(snap, headline, rating_changes, view))
        here = place is not None and reply_channel_id == place
        return ChessUpdate(
            snap,
            headline,
            announced_elsewhere=place is not None and not here,
            rating_changes=tuple(rating_changes),
            posted_here=here,
        )

    # ------------------------------------------------------------------ turns

    async def play(
        self,
        uow: UnitOfWork,
        game: GameRecord,
        state: ChessState,
        move: chess.Move,
        user_id: int,
        now: datetime,
        reply_channel_id: int | None,
    ) -> ChessUpdate:
        """Apply a legal move: state, move log, timers, result, announcement."""
        mover = state.board().turn
        try:
            clock = state.running_clock().after_move(now)
        except ClockError as error:  # callers check the flag first; this is the backstop
            raise InvalidInputError.passing_on(error) from error
        position = state.position().after(move)
        san = position.sans[-1]
        new = state.after(
            position,
            clock=clock,
            # A pending offer from the opponent lapses when this player moves instead of answering.
            draw_offer=state.draw_offer if state.draw_offer == mover else None,
        )
        finish = automatic_finish(position.board)
        names = await uow.players.of_seats(game.seats)  # the mover is seated
        headline = msg.played(names.get(user_id) or msg.someone(), san)
        # The state's compare-and-set comes first: a second writer of this ply
        # fails there with ConflictError, before touching the move log.
        if finish is not None:
            update = await self.finish(
                uow, game, new, finish, now, reply_channel_id=reply_channel_id, headline=headline
            )
        else:
            await self.save(uow, game, new, deadline=clock.flag_time())
            snap = await self.snapshot(uow, game, new)
            await self.schedule_turn(uow, snap, now)
            update = self.announce(uow, snap, headline, reply_channel_id)
        await uow.moves.append(
            game.id,
            ply=len(new.moves),
            notation=san,
            seat=seat_of(mover),
            user_id=user_id,
            data={"uci": move.uci(), "clock_ms": clock.bank_ms(mover)},
            at=now,
        )
        return update

    async def finish(
        self,
        uow: UnitOfWork,
        game: GameRecord,
        state: ChessState,
        finish: Finish,
        now: datetime,
        *,
        reply_channel_id: int | None,
        headline: str = "",
        rated: bool = True,
    ) -> ChessUpdate:
        """End the game: state, timers, results and ratings, announcement — one transaction.
        ``rated=False``: a result nobody played out (a director's) leaves the ratings be."""
        done = replace(state, result=finish.result, termination=finish.termination, draw_offer=None)
        await self.save(uow, game, done, status="finished", finished_at=now, deadline=None)
        await tournament_game_finished(uow, game, now)
        await puzzles_game_finished(uow, game, now)  # its puzzles, searched later (Stockfish)
        for key in (timeout_key(game.id), reminder_key(game.id), computer_key(game.id)):
            await uow.jobs.cancel(key)
        snap = await self.snapshot(uow, game, done)
        changes: list[RatingChange] = []
        # Games against the computer are not rated: the leaderboard is for members
        # (and an unrated tournament's games are not either).
        if rated and not snap.vs_computer and game.options.get("rated", True) is not False:
            changes = await self._record_result(uow, snap, finish, now)
        again = rematch_view(KIND, game.id) if rematch_offered(KIND, game.options) else None
        return self.announce(uow, snap, headline, reply_channel_id, changes, again)

    async def end_decided(
        self, uow: UnitOfWork, game: GameRecord, *, white_score: float, how: str, headline: str
    ) -> None:
        """End a game in play with a result decided off the board (a tournament's
        director, its round's deadline), in the caller's transaction: finished with
        that result, its timers cancelled, ``headline`` on the board posted in its
        place; not rated. Later moves are refused as in any finished game."""
        if game.status not in ("active", "invited"):
            return
        winner = {1.0: chess.WHITE, 0.0: chess.BLACK}.get(white_score)
        result = "1/2-1/2" if winner is None else ("1-0" if winner == chess.WHITE else "0-1")
        await uow.jobs.cancel(invite_key(game.id))
        await uow.jobs.cancel(open_key(game.id))
        await self.finish(
            uow,
            game,
            ChessState.load(game),
            Finish(result, how, winner),
            self.now(),
            reply_channel_id=None,
            headline=headline,
            rated=False,
        )

    async def flag_fell(
        self, uow: UnitOfWork, game: GameRecord, state: ChessState, now: datetime
    ) -> ChessUpdate:
        """The side to move ran out of time: the game ends (a draw if the other can't mate)."""
        board = state.board()
        return await self.finish(
            uow, game, state, timeout_finish(board, board.turn), now, reply_channel_id=None
        )

    @staticmethod
    async def _record_result(
        uow: UnitOfWork, snap: ChessSnapshot, finish: Finish, now: datetime
    ) -> list[RatingChange]:
        """A row for every member of each side; a pair is rated on its mean (as in Scrabble)."""
        rank = {chess.WHITE: 0, chess.BLACK: 0}
        if finish.winner is not None:
            rank[not finish.winner] = 1
        score = {None: 0.5, chess.WHITE: 1.0, chess.BLACK: 0.0}[finish.winner]
        extra = {"termination": finish.termination}
        return await record_game_result(
            uow,
            guild_id=snap.guild_id,
            kind=KIND,
            game_id=snap.game_id,
            played_at=now,
            announce_in=snap.place_id,
            seats=[
                SeatOutcome(
                    WHITE_SEAT,
                    list(snap.white.user_ids),
                    rank=rank[chess.WHITE],
                    score=score,
                    extra=extra,
                ),
                SeatOutcome(
                    BLACK_SEAT,
                    list(snap.black.user_ids),
                    rank=rank[chess.BLACK],
                    score=1.0 - score,
                    extra=extra,
                ),
            ],
        )

    async def schedule_turn(
        self,
        uow: UnitOfWork,
        snap: ChessSnapshot,
        now: datetime,
        *,
        computer_delay: timedelta = timedelta(0),
    ) -> None:
        """Move the flag, reminder and computer-reply timers to the new turn."""
        clock = snap.clock
        assert clock is not None
        payload = {"game_id": snap.game_id, "ply": snap.ply}
        await uow.jobs.schedule(
            JOB_TIMEOUT, clock.flag_time(), payload, key=timeout_key(snap.game_id)
        )
        mover = snap.to_move
        if not snap.is_live and not mover.is_computer:
            lead = min(REMINDER_LEAD, timedelta(milliseconds=clock.bank_ms(clock.to_move) // 2))
            await uow.jobs.schedule(
                JOB_REMINDER, clock.reminder_time(lead), payload, key=reminder_key(snap.game_id)
            )
        else:
            await uow.jobs.cancel(reminder_key(snap.game_id))
        if mover.is_computer:
            await self.schedule_computer(uow, snap, now + computer_delay)

    async def schedule_computer(self, uow: UnitOfWork, snap: ChessSnapshot, when: datetime) -> None:
        """Set the computer's reply to the current position for ``when``."""
        await uow.jobs.schedule(
            JOB_COMPUTER,
            when,
            {"game_id": snap.game_id, "ply": snap.ply},
            key=computer_key(snap.game_id),
        )


class UseCase:
    """One of chess's use cases: they all work on the one core."""

    def __init__(self, core: ChessCore) -> None:
        self.core = core
