"""Chess games: challenge, accept, move, draw, resign, clocks, vacations, PGN, analysis.

A game is a ``games`` row (kind ``chess``) whose ``state`` holds the moves in UCI
and the clock; the board is always rebuilt from the moves. Seat 0 is White,
seat 1 Black. Every change is one unit of work: the state's version is
compared-and-set, the move is appended to ``moves``, the clock's timers
(flag, reminder, computer reply) are moved, and whatever the channel must see
is written to the outbox, all before the commit. A finished game records its
result and Glicko-2 ratings in the same transaction.

Nothing here imports discord: methods return snapshots and texts that
``bot/ui/chess.py`` and ``cogs/chess.py`` turn into messages. The text builders
live here because timer jobs write the same messages to the outbox.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from functools import cached_property
from typing import Any

import chess

from bot.db.models import GameRecord, JobRecord
from bot.db.uow import UnitOfWork
from bot.errors import ConflictError, InvalidInputError, NotFoundError, PermissionDeniedError
from bot.scheduler import JobSpec
from bot.services import ServiceContext
from bot.services.chess_engine import (
    DEFAULT_LEVEL,
    INSTALL_HINT,
    MAX_LEVEL,
    MIN_LEVEL,
    ChessEngine,
    EngineUnavailableError,
    PositionEval,
    engine_from_settings,
)
from bot.services.results import RatingChange, SeatOutcome, record_game_result
from engines.chess_clock import (
    ChessClock,
    ClockError,
    TimeControl,
    TimeControlError,
    VacationError,
    clock_face,
    parse_time_control,
)
from engines.chess_game import (
    ChessError,
    ChessMoveError,
    Finish,
    Mistake,
    PromotionChoiceError,
    agreement,
    automatic_finish,
    biggest_mistakes,
    board_from_moves,
    claim_draw,
    color_name,
    move_choices,
    numbered_moves,
    parse_move,
    resignation,
    san_moves,
    timeout_finish,
)
from engines.chess_pgn import PgnInfo, export_pgn

log = logging.getLogger(__name__)

KIND = "chess"
WHITE_SEAT, BLACK_SEAT = 0, 1
JOB_TIMEOUT = "chess.timeout"
JOB_REMINDER = "chess.reminder"
JOB_COMPUTER = "chess.computer_move"
JOB_INVITE = "chess.invite_expiry"
BOARD_RENDERER = "chess_board"  # outbox file renderer, registered by the cog
DRAW_OFFER_VIEW = "chess_draw_offer"  # outbox view builder, registered by the cog
REMINDER_LEAD = timedelta(hours=24)
INVITE_TTL_LIVE = timedelta(hours=1)
INVITE_TTL_CORRESPONDENCE = timedelta(days=7)
# The computer's first move waits this long for the game's thread to be opened,
# so it appears there; opening the thread moves it to "now".
COMPUTER_START_GRACE = timedelta(seconds=30)
MOVES_SHOWN = 8  # plies of move list in each board message
COLOR_CHOICES = ("white", "black", "random")


def _timeout_key(game_id: int) -> str:
    return f"chess:timeout:{game_id}"


def _reminder_key(game_id: int) -> str:
    return f"chess:reminder:{game_id}"


def _computer_key(game_id: int) -> str:
    return f"chess:computer:{game_id}"


def _invite_key(game_id: int) -> str:
    return f"chess:invite:{game_id}"


def _color_key(color: chess.Color) -> str:
    return "white" if color == chess.WHITE else "black"


def _color_from_key(key: str | None) -> chess.Color | None:
    return {"white": chess.WHITE, "black": chess.BLACK}.get(key or "")


def unix(moment: datetime) -> int:
    return int(moment.timestamp())


# ======================================================================= results


@dataclass(frozen=True)
class PlayerRef:
    """A member as the cog knows them: id and display name."""

    user_id: int
    name: str


@dataclass(frozen=True)
class Seat:
    user_id: int
    name: str
    is_computer: bool = False


@dataclass(frozen=True)
class ChessSnapshot:
    """A game as it stands after a command: what every reply is built from."""

    game_id: int
    guild_id: int
    channel_id: int | None
    thread_id: int | None
    status: str
    white: Seat
    black: Seat
    moves: tuple[str, ...]
    control: TimeControl
    clock: ChessClock | None
    draw_offer: chess.Color | None
    result: str | None
    termination: str | None
    created_by: int | None
    started_at: datetime | None
    finished_at: datetime | None
    as_of: datetime
    level: int | None = None

    @cached_property
    def board(self) -> chess.Board:
        return board_from_moves(self.moves)

    @cached_property
    def sans(self) -> list[str]:
        return san_moves(self.moves)

    @property
    def place_id(self) -> int | None:
        """Where the game is played: its thread, else the channel it started in."""
        return self.thread_id or self.channel_id

    @property
    def is_live(self) -> bool:
        return self.control.is_live

    @property
    def vs_computer(self) -> bool:
        return self.white.is_computer or self.black.is_computer

    @property
    def ply(self) -> int:
        return len(self.moves)

    def player(self, color: chess.Color) -> Seat:
        return self.white if color == chess.WHITE else self.black

    def color_of(self, user_id: int) -> chess.Color | None:
        if self.white.user_id == user_id and not self.white.is_computer:
            return chess.WHITE
        if self.black.user_id == user_id and not self.black.is_computer:
            return chess.BLACK
        return None

    @property
    def to_move(self) -> Seat:
        return self.player(self.board.turn)

    @property
    def finish(self) -> Finish | None:
        if self.result is None or self.termination is None:
            return None
        winner = {"1-0": chess.WHITE, "0-1": chess.BLACK}.get(self.result)
        return Finish(self.result, self.termination, winner)

    def flag_time(self) -> datetime | None:
        return (
            self.clock.flag_time() if self.clock is not None and self.status == "active" else None
        )

    def remaining_ms(self, color: chess.Color) -> int | None:
        if self.clock is None:
            return None
        return self.clock.remaining_ms(color, self.finished_at or self.as_of)

    def title(self) -> str:
        return f"Chess #{self.game_id}: {self.white.name} vs {self.black.name}"


@dataclass(frozen=True)
class ChessUpdate:
    """What a command changed, for the reply."""

    snapshot: ChessSnapshot
    headline: str
    # True when the news went to the game's thread through the outbox because
    # the command was used elsewhere; the reply is then private.
    announced_elsewhere: bool = False
    rating_changes: tuple[RatingChange, ...] = ()

    @property
    def text(self) -> str:
        return board_text(self.snapshot, self.headline, self.rating_changes)

    @property
    def mention_user_ids(self) -> list[int]:
        return mentions_for(self.snapshot)


@dataclass(frozen=True)
class VacationResult:
    games: tuple[ChessSnapshot, ...]
    until: datetime | None  # None: the vacation was ended
    days_left: float  # of the per-game allowance, in the game with the least left

    @property
    def text(self) -> str:
        ids = ", ".join(f"#{g.game_id}" for g in self.games)
        if self.until is None:
            return f"Welcome back! Your clock runs again in {ids}."
        return (
            f"Enjoy your break: your clock is paused in {ids} until <t:{unix(self.until)}:f> "
            f"(<t:{unix(self.until)}:R>). Vacation left in this game: {self.days_left:.1f} days. "
            "Use `/chess vacation days:0` to come back early."
        )


@dataclass(frozen=True)
class AnalysisReport:
    snapshot: ChessSnapshot
    mistakes: dict[chess.Color, list[Mistake]]
    engine: str

    @property
    def text(self) -> str:
        return analysis_text(self)


class PromotionNeeded(InvalidInputError):
    """The move reaches the last rank without naming a piece: the cog offers buttons."""

    def __init__(
        self, message: str, *, game_id: int, ply: int, options: Sequence[tuple[str, str]]
    ) -> None:
        super().__init__(message)
        self.game_id = game_id
        self.ply = ply
        self.options = tuple(options)  # (SAN, UCI), queen first


# ======================================================================= state


@dataclass
class _State:
    moves: list[str]
    clock: ChessClock | None
    draw_offer: chess.Color | None = None
    result: str | None = None
    termination: str | None = None
    started_at: datetime | None = None
    analysis: dict[str, Any] | None = None

    @classmethod
    def load(cls, game: GameRecord) -> _State:
        data = game.state or {}
        clock = ChessClock.from_dict(data["clock"]) if data.get("clock") else None
        started = data.get("started_at")
        return cls(
            moves=list(data.get("moves", [])),
            clock=clock,
            draw_offer=_color_from_key(data.get("draw_offer")),
            result=data.get("result"),
            termination=data.get("termination"),
            started_at=datetime.fromisoformat(started) if started else None,
            analysis=data.get("analysis"),
        )

    def dump(self) -> dict[str, Any]:
        return {
            "moves": list(self.moves),
            "clock": self.clock.to_dict() if self.clock else None,
            "draw_offer": _color_key(self.draw_offer) if self.draw_offer is not None else None,
            "result": self.result,
            "termination": self.termination,
            "started_at": self.started_at.isoformat() if self.started_at else None,
            "analysis": self.analysis,
        }

    def board(self) -> chess.Board:
        return board_from_moves(self.moves)


# ======================================================================= texts


def _clock_line(snap: ChessSnapshot) -> str:
    clock = snap.clock
    if clock is None or snap.status != "active":
        return ""
    turn = snap.board.turn
    mover = snap.player(turn)
    flag = clock.flag_time()
    if snap.is_live:
        white = clock_face(snap.remaining_ms(chess.WHITE) or 0)
        black = clock_face(snap.remaining_ms(chess.BLACK) or 0)
        return (
            f"⏱ White {white} · Black {black} · {color_name(turn)}'s flag falls <t:{unix(flag)}:R>"
        )
    line = f"⏳ {mover.name} moves by <t:{unix(flag)}:f> (<t:{unix(flag)}:R>)"
    away = clock.vacation_until(turn, snap.as_of)
    if away is not None:
        line += f" — on vacation until <t:{unix(away)}:f>, clock paused"
    return line


def _status_line(snap: ChessSnapshot) -> str:
    if snap.status == "invited":
        return "Waiting for the challenge to be accepted."
    if snap.status == "abandoned":
        return "This game was called off before it started."
    finish = snap.finish
    if finish is not None:
        return f"**{finish.result}** — {finish.describe(snap.white.name, snap.black.name)}"
    board = snap.board
    mover = snap.to_move
    who = mover.name if mover.is_computer else f"<@{mover.user_id}>"
    line = f"Move {board.fullmove_number} · **{color_name(board.turn)}** to play: {who}"
    if board.is_check():
        line += " — check!"
    if snap.draw_offer is not None:
        line += f"\n🤝 {snap.player(snap.draw_offer).name} offers a draw."
    return line


def board_text(
    snap: ChessSnapshot, headline: str = "", rating_changes: Sequence[RatingChange] = ()
) -> str:
    """The message beside a board image; it carries everything the image shows."""
    lines = [
        f"**Chess #{snap.game_id}** · {snap.white.name} (White) vs {snap.black.name} (Black) · {snap.control.label()}"
    ]
    if headline:
        lines.append(headline)
    if snap.moves:
        lines.append(f"Moves: {numbered_moves(snap.sans, last=MOVES_SHOWN)}")
    lines.append(_status_line(snap))
    clock = _clock_line(snap)
    if clock:
        lines.append(clock)
    if rating_changes:
        names = {snap.white.user_id: snap.white.name, snap.black.user_id: snap.black.name}
        lines.append(
            "Ratings: "
            + ", ".join(
                f"{names.get(c.user_id, c.user_id)} {c.before:.0f} → {c.after:.0f}"
                for c in rating_changes
            )
        )
    lines.append(f"FEN `{snap.board.fen()}`")
    return "\n".join(lines)[:2000]


def board_image_args(snap: ChessSnapshot) -> dict[str, Any]:
    """Arguments for the board renderer: the position seen from the side to move."""
    board = snap.board
    return {
        "fen": board.fen(),
        "last_move": board.peek().uci() if board.move_stack else None,
        "orientation": _color_key(board.turn),
        "game_id": snap.game_id,
        "ply": snap.ply,
    }


def board_alt_text(snap: ChessSnapshot) -> str:
    board = snap.board
    last = f" after {numbered_moves(snap.sans, last=1)}" if snap.moves else ""
    return f"Chess board{last}, {color_name(board.turn)} to move, seen from {color_name(board.turn)}'s side. FEN {board.fen()}"


def mentions_for(snap: ChessSnapshot) -> list[int]:
    """Who a board post should notify: the player to move in a correspondence game.

    A live game's players are watching; pinging them on every move is noise.
    """
    if snap.status != "active" or snap.is_live:
        return []
    mover = snap.to_move
    return [] if mover.is_computer else [mover.user_id]


def board_post(
    snap: ChessSnapshot, headline: str, rating_changes: Sequence[RatingChange] = ()
) -> dict[str, Any]:
    """An outbox payload: the board image with its text."""
    payload: dict[str, Any] = {
        "content": board_text(snap, headline, rating_changes),
        "files": [{"render": BOARD_RENDERER, "args": board_image_args(snap)}],
    }
    mentions = mentions_for(snap)
    if mentions:
        payload["mention_user_ids"] = mentions
    if snap.draw_offer is not None and snap.status == "active":
        payload["view"] = {"kind": DRAW_OFFER_VIEW, "args": {"game_id": snap.game_id}}
    return payload


def analysis_text(report: AnalysisReport) -> str:
    snap = report.snapshot
    lines = [
        f"**Analysis of chess #{snap.game_id}** ({snap.white.name} vs {snap.black.name}, {report.engine})"
    ]
    for color in (chess.WHITE, chess.BLACK):
        found = report.mistakes.get(color, [])
        name = snap.player(color).name
        if not found:
            lines.append(
                f"**{name}** ({color_name(color)}): no move lost 50 centipawns or more. Well played!"
            )
            continue
        lines.append(f"**{name}** ({color_name(color)}): biggest mistakes")
        for m in found:
            better = f"; better was **{m.best_san}**" if m.best_san else ""
            lines.append(
                f"• {m.move_number} {m.san} — {m.label}, lost {m.loss_cp / 100:.1f} pawns{better}"
            )
    lines.append(
        "Losses are in centipawns from the engine's evaluation before and after each move (a mate counts as 10 pawns)."
    )
    return "\n".join(lines)[:2000]


def game_line(snap: ChessSnapshot, user_id: int) -> str:
    """One line for ``/chess games`` and the autocomplete of ``game``."""
    color = snap.color_of(user_id)
    opponent = snap.player(not color) if color is not None else None
    vs = f"vs {opponent.name}" if opponent else f"{snap.white.name} vs {snap.black.name}"
    if snap.status == "invited":
        state = "invitation pending"
    elif snap.status == "active":
        state = "your move" if snap.board.turn == color else f"{snap.to_move.name} to move"
    elif snap.finish is not None:
        state = snap.finish.result
    else:
        state = snap.status
    return f"#{snap.game_id} {vs} · {state} · {snap.control.label()}"


# ======================================================================= service


class ChessService:
    def __init__(
        self,
        ctx: ServiceContext,
        *,
        engine: ChessEngine | None = None,
        rng: random.Random | None = None,
    ) -> None:
        self.ctx = ctx
        # None: no Stockfish configured; the computer opponent and analysis explain how to add it.
        self.engine = engine if engine is not None else engine_from_settings(ctx.settings)
        self.rng = rng or random.Random()

    def job_handlers(self) -> Mapping[str, JobSpec]:
        return {
            JOB_TIMEOUT: JobSpec(self.on_turn_timeout),
            JOB_REMINDER: JobSpec(self.on_reminder),
            JOB_COMPUTER: JobSpec(self.on_computer_move, prepare=self.prepare_computer_move),
            JOB_INVITE: JobSpec(self.on_invite_expiry),
        }

    # ------------------------------------------------------------------ helpers

    def _now(self) -> datetime:
        return self.ctx.clock()

    async def _game(self, uow: UnitOfWork, game_id: int, guild_id: int | None = None) -> GameRecord:
        return await uow.games.get(game_id, guild_id=guild_id, kind=KIND)

    async def _snapshot(
        self, uow: UnitOfWork, game: GameRecord, state: _State | None = None
    ) -> ChessSnapshot:
        state = state or _State.load(game)
        seats = {s.seat: s.user_id for s in game.seats}
        names = await uow.players.names(list(seats.values()))
        computer_seat = (game.options or {}).get("computer_seat")

        def seat(index: int) -> Seat:
            uid = seats.get(index, 0)
            return Seat(uid, names.get(uid, str(uid)), is_computer=computer_seat == index)

        options = game.options or {}
        return ChessSnapshot(
            game_id=game.id,
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
            as_of=self._now(),
            level=options.get("computer_level"),
        )

    def _after_commit(self, uow: UnitOfWork) -> None:
        """Job handlers get a bare unit of work: wake the senders ourselves."""
        uow.on_commit(self.ctx.outbox_notify)
        uow.on_commit(self.ctx.scheduler.wake)

    async def _announce(
        self,
        uow: UnitOfWork,
        snap: ChessSnapshot,
        payload: dict[str, Any],
        reply_channel_id: int | None,
    ) -> bool:
        """Post to the game's place unless the command's own reply lands there."""
        place = snap.place_id
        if place is None or reply_channel_id == place:
            return False
        uow.outbox.to_channel(place, payload)
        return True

    @staticmethod
    def _seat_color(game: GameRecord, user_id: int) -> chess.Color | None:
        computer_seat = (game.options or {}).get("computer_seat")
        for seat in game.seats:
            if seat.user_id == user_id and seat.seat != computer_seat:
                return chess.WHITE if seat.seat == WHITE_SEAT else chess.BLACK
        return None

    def _require_player(self, game: GameRecord, user_id: int) -> chess.Color:
        color = self._seat_color(game, user_id)
        if color is None:
            raise PermissionDeniedError("This game is not yours: only its two players can do that.")
        return color

    @staticmethod
    def _require_active(game: GameRecord) -> None:
        if game.status == "invited":
            raise InvalidInputError(
                f"Chess #{game.id} has not started: the challenge is still waiting to be accepted."
            )
        if game.status != "active":
            raise InvalidInputError(
                f"Chess #{game.id} is over. `/chess board` shows how it ended, `/chess pgn` exports it."
            )

    # ------------------------------------------------------------------ starting games

    async def challenge(
        self,
        *,
        guild_id: int,
        guild_name: str,
        channel_id: int,
        challenger: PlayerRef,
        opponent: PlayerRef,
        time_control: str | None = None,
        color: str | None = None,
    ) -> ChessSnapshot:
        """Invite ``opponent``; the game starts when they accept."""
        if opponent.user_id == challenger.user_id:
            raise InvalidInputError(
                "You can't challenge yourself. Pick another member, or me to play the computer."
            )
        control = self._control(time_control)
        challenger_white = self._challenger_plays_white(color)
        now = self._now()
        async with self.ctx.uow() as uow:
            game = await self._new_game(
                uow,
                guild_id,
                guild_name,
                channel_id,
                challenger,
                opponent,
                control,
                color,
                challenger_white,
                status="invited",
                options={},
            )
            ttl = INVITE_TTL_LIVE if control.is_live else INVITE_TTL_CORRESPONDENCE
            await uow.jobs.schedule(
                JOB_INVITE, now + ttl, {"game_id": game.id}, key=_invite_key(game.id)
            )
            snap = await self._snapshot(uow, game)
            await uow.commit()
        return snap

    async def play_computer(
        self,
        *,
        guild_id: int,
        guild_name: str,
        channel_id: int,
        player: PlayerRef,
        computer: PlayerRef,
        level: int | None = None,
        time_control: str | None = None,
        color: str | None = None,
    ) -> ChessSnapshot:
        """A game against Stockfish: active at once; the thread is opened with ``open_in``."""
        if self.engine is None:
            raise EngineUnavailableError(INSTALL_HINT)
        level = DEFAULT_LEVEL if level is None else level
        if not MIN_LEVEL <= level <= MAX_LEVEL:
            raise InvalidInputError(
                f"The computer's level goes from {MIN_LEVEL} (gentle) to {MAX_LEVEL} (full strength)."
            )
        control = self._control(time_control)
        player_white = self._challenger_plays_white(color)
        now = self._now()
        async with self.ctx.uow() as uow:
            game = await self._new_game(
                uow,
                guild_id,
                guild_name,
                channel_id,
                player,
                computer,
                control,
                color,
                player_white,
                status="active",
                options={
                    "computer_seat": BLACK_SEAT if player_white else WHITE_SEAT,
                    "computer_level": level,
                },
            )
            for seat in game.seats:
                seat.accepted = True
            clock = ChessClock.start(control, now)
            state = _State(moves=[], clock=clock, started_at=now)
            await uow.games.save_state(
                game, expected_version=game.version, state=state.dump(), deadline=clock.flag_time()
            )
            snap = await self._snapshot(uow, game, state)
            await self._schedule_turn(uow, snap, now, computer_delay=COMPUTER_START_GRACE)
            await uow.commit()
        return snap

    def _control(self, text: str | None) -> TimeControl:
        try:
            return parse_time_control(text)
        except TimeControlError as error:
            raise InvalidInputError(str(error)) from None

    def _challenger_plays_white(self, color: str | None) -> bool:
        choice = (color or "random").strip().lower()
        if choice not in COLOR_CHOICES:
            raise InvalidInputError("Choose your colour: `white`, `black` or `random`.")
        if choice == "random":
            return self.rng.random() < 0.5
        return choice == "white"

    async def _new_game(
        self,
        uow: UnitOfWork,
        guild_id: int,
        guild_name: str,
        channel_id: int,
        creator: PlayerRef,
        other: PlayerRef,
        control: TimeControl,
        color: str | None,
        creator_white: bool,
        *,
        status: str,
        options: dict[str, Any],
    ) -> GameRecord:
        await uow.guilds.ensure(guild_id, guild_name)
        await uow.players.ensure(creator.user_id, creator.name)
        await uow.players.ensure(other.user_id, other.name)
        now = self._now()
        white, black = (creator, other) if creator_white else (other, creator)
        return await uow.games.add_with_seats(
            GameRecord(
                guild_id=guild_id,
                kind=KIND,
                channel_id=channel_id,
                status=status,
                version=1,
                options={"time_control": control.text(), "color": color or "random", **options},
                state=_State(moves=[], clock=None).dump(),
                created_by=creator.user_id,
                created_at=now,
                updated_at=now,
            ),
            [
                (WHITE_SEAT, white.user_id, white is creator),
                (BLACK_SEAT, black.user_id, black is creator),
            ],
        )

    async def accept(self, game_id: int, user: PlayerRef) -> ChessSnapshot:
        """The invited player accepts: the clock starts now."""
        now = self._now()
        async with self.ctx.uow() as uow:
            game = await self._game(uow, game_id)
            seat = next((s for s in game.seats if s.user_id == user.user_id), None)
            if seat is None:
                raise PermissionDeniedError("This challenge is for someone else.")
            if game.status != "invited":
                raise InvalidInputError(
                    f"Chess #{game_id} is no longer waiting for an answer ({game.status})."
                )
            if seat.accepted:
                raise InvalidInputError(
                    "You made this challenge: wait for your opponent to accept it."
                )
            await uow.players.ensure(user.user_id, user.name)
            seat.accepted = True
            control = parse_time_control(game.options.get("time_control"))
            state = _State(moves=[], clock=ChessClock.start(control, now), started_at=now)
            await uow.games.save_state(
                game,
                expected_version=game.version,
                state=state.dump(),
                status="active",
                deadline=state.clock.flag_time() if state.clock else None,
            )
            await uow.jobs.cancel(_invite_key(game.id))
            snap = await self._snapshot(uow, game, state)
            await self._schedule_turn(uow, snap, now)
            await uow.commit()
        return snap

    async def decline(self, game_id: int, user_id: int) -> ChessSnapshot:
        """The invited player declines, or the challenger withdraws."""
        async with self.ctx.uow() as uow:
            game = await self._game(uow, game_id)
            if not any(s.user_id == user_id for s in game.seats):
                raise PermissionDeniedError("This challenge is for someone else.")
            if game.status != "invited":
                raise InvalidInputError(
                    f"Chess #{game_id} is no longer waiting for an answer ({game.status})."
                )
            await uow.games.save_state(
                game, expected_version=game.version, status="abandoned", finished_at=self._now()
            )
            await uow.jobs.cancel(_invite_key(game.id))
            snap = await self._snapshot(uow, game)
            await uow.commit()
        return snap

    async def open_in(self, game_id: int, thread_id: int | None) -> ChessSnapshot:
        """Record the game's thread (None: play in the channel) and post the opening board there."""
        now = self._now()
        async with self.ctx.uow() as uow:
            game = await self._game(uow, game_id)
            if thread_id is not None and game.thread_id != thread_id:
                await uow.games.save_state(game, expected_version=game.version, thread_id=thread_id)
            snap = await self._snapshot(uow, game)
            if snap.status == "active":
                control = snap.control.label()
                headline = f"Game on! {snap.white.name} has White, {snap.black.name} has Black ({control})."
                if snap.place_id is not None:
                    uow.outbox.to_channel(snap.place_id, board_post(snap, headline))
                if snap.to_move.is_computer:
                    await self._schedule_computer(uow, snap, now)
            await uow.commit()
        return snap

    # ------------------------------------------------------------------ moves

    async def move(
        self,
        game_id: int,
        user_id: int,
        text: str,
        *,
        reply_channel_id: int | None = None,
        expected_ply: int | None = None,
        guild_id: int | None = None,
    ) -> ChessUpdate:
        """Play ``text`` (SAN or UCI) for ``user_id``.

        Bad input raises a ``ClubError`` and changes nothing; a pawn reaching the
        last rank without a piece raises ``PromotionNeeded`` with the choices.
        With ``guild_id``, another server's game is "not found" (see ``resolve_game``).
        """
        now = self._now()
        async with self.ctx.uow() as uow:
            game = await self._game(uow, game_id, guild_id)
            color = self._require_player(game, user_id)
            self._require_active(game)
            state = _State.load(game)
            if expected_ply is not None and expected_ply != len(state.moves):
                raise ConflictError(
                    "The game moved on since those buttons appeared: look at the board and move again."
                )
            board = state.board()
            if board.turn != color:
                snap = await self._snapshot(uow, game, state)
                raise InvalidInputError(
                    f"It's {snap.to_move.name}'s move, not yours. I'll post the board when they've moved."
                )
            if state.clock is not None and state.clock.has_flagged(now):
                await self._finish(
                    uow, game, state, timeout_finish(board, color), now, reply_channel_id=None
                )
                await uow.commit()
                raise InvalidInputError(
                    "Too late: your time ran out before that move, so the game is over."
                )
            try:
                move = parse_move(board, text)
            except PromotionChoiceError as choice:
                raise PromotionNeeded(
                    str(choice),
                    game_id=game_id,
                    ply=len(state.moves),
                    options=[
                        (san, m.uci())
                        for san, m in zip(choice.suggestions, choice.moves, strict=False)
                    ],
                ) from None
            except ChessMoveError as error:
                raise InvalidInputError(str(error)) from None
            update = await self._play(uow, game, state, move, user_id, now, reply_channel_id)
            await uow.commit()
        return update

    async def _play(
        self,
        uow: UnitOfWork,
        game: GameRecord,
        state: _State,
        move: chess.Move,
        user_id: int,
        now: datetime,
        reply_channel_id: int | None,
    ) -> ChessUpdate:
        """Apply a legal move: state, move log, timers, result, announcement."""
        board = state.board()
        mover = board.turn
        san = board.san(move)
        assert state.clock is not None
        try:
            clock = state.clock.after_move(now)
        except ClockError as error:  # callers check the flag first; this is the backstop
            raise InvalidInputError(str(error)) from None
        board.push(move)
        new = replace(
            state,
            moves=[*state.moves, move.uci()],
            clock=clock,
            # A pending offer from the opponent lapses when this player moves instead of answering.
            draw_offer=state.draw_offer if state.draw_offer == mover else None,
        )
        finish = automatic_finish(board)
        names = await uow.players.names([user_id])
        headline = f"{names.get(user_id, 'The computer')} played **{san}**."
        # The state's compare-and-set comes first: a second writer of this ply
        # fails there with ConflictError, before touching the move log.
        if finish is not None:
            update = await self._finish(
                uow, game, new, finish, now, reply_channel_id=reply_channel_id, headline=headline
            )
        else:
            await uow.games.save_state(
                game, expected_version=game.version, state=new.dump(), deadline=clock.flag_time()
            )
            snap = await self._snapshot(uow, game, new)
            await self._schedule_turn(uow, snap, now)
            elsewhere = await self._announce(
                uow, snap, board_post(snap, headline), reply_channel_id
            )
            update = ChessUpdate(snap, headline, elsewhere)
        await uow.moves.append(
            game.id,
            ply=len(new.moves),
            notation=san,
            seat=WHITE_SEAT if mover == chess.WHITE else BLACK_SEAT,
            user_id=user_id,
            data={"uci": move.uci(), "clock_ms": clock.bank_ms(mover)},
            at=now,
        )
        return update

    async def _finish(
        self,
        uow: UnitOfWork,
        game: GameRecord,
        state: _State,
        finish: Finish,
        now: datetime,
        *,
        reply_channel_id: int | None,
        headline: str = "",
    ) -> ChessUpdate:
        """End the game: state, timers, results and ratings, announcement — one transaction."""
        done = replace(state, result=finish.result, termination=finish.termination, draw_offer=None)
        await uow.games.save_state(
            game,
            expected_version=game.version,
            state=done.dump(),
            status="finished",
            finished_at=now,
            deadline=None,
        )
        for key in (_timeout_key(game.id), _reminder_key(game.id), _computer_key(game.id)):
            await uow.jobs.cancel(key)
        snap = await self._snapshot(uow, game, done)
        changes: list[RatingChange] = []
        if not snap.vs_computer:
            # Games against the computer are not rated: the leaderboard is for members.
            rank = {chess.WHITE: 0, chess.BLACK: 0}
            if finish.winner is not None:
                rank[not finish.winner] = 1
            score = {None: 0.5, chess.WHITE: 1.0, chess.BLACK: 0.0}[finish.winner]
            changes = await record_game_result(
                uow,
                guild_id=game.guild_id,
                kind=KIND,
                game_id=game.id,
                played_at=now,
                seats=[
                    SeatOutcome(
                        WHITE_SEAT,
                        [snap.white.user_id],
                        rank=rank[chess.WHITE],
                        score=score,
                        extra={"termination": finish.termination},
                    ),
                    SeatOutcome(
                        BLACK_SEAT,
                        [snap.black.user_id],
                        rank=rank[chess.BLACK],
                        score=1.0 - score,
                        extra={"termination": finish.termination},
                    ),
                ],
            )
        elsewhere = await self._announce(
            uow, snap, board_post(snap, headline, changes), reply_channel_id
        )
        return ChessUpdate(snap, headline, elsewhere, tuple(changes))

    # ------------------------------------------------------------------ timers

    async def _schedule_turn(
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
            JOB_TIMEOUT, clock.flag_time(), payload, key=_timeout_key(snap.game_id)
        )
        mover = snap.to_move
        if not snap.is_live and not mover.is_computer:
            lead = min(REMINDER_LEAD, timedelta(milliseconds=clock.bank_ms(clock.to_move) // 2))
            await uow.jobs.schedule(
                JOB_REMINDER,
                clock.reminder_time(lead),
                payload,
                key=_reminder_key(snap.game_id),
            )
        else:
            await uow.jobs.cancel(_reminder_key(snap.game_id))
        if mover.is_computer:
            await self._schedule_computer(uow, snap, now + computer_delay)

    async def _schedule_computer(
        self, uow: UnitOfWork, snap: ChessSnapshot, when: datetime
    ) -> None:
        await uow.jobs.schedule(
            JOB_COMPUTER,
            when,
            {"game_id": snap.game_id, "ply": snap.ply},
            key=_computer_key(snap.game_id),
        )

    async def on_turn_timeout(self, uow: UnitOfWork, job: JobRecord) -> None:
        """The side to move may have run out of time: finish the game if so."""
        now = self._now()
        game = await self._job_game(uow, job)
        if game is not None and game.status == "active":
            state = _State.load(game)
            assert state.clock is not None
            if state.clock.has_flagged(now):
                board = state.board()
                await self._finish(
                    uow, game, state, timeout_finish(board, board.turn), now, reply_channel_id=None
                )
            else:  # a vacation moved the flag after this timer was set
                await uow.jobs.schedule(
                    JOB_TIMEOUT,
                    state.clock.flag_time(),
                    {"game_id": game.id, "ply": len(state.moves)},
                    key=_timeout_key(game.id),
                )
        self._after_commit(uow)
        await uow.commit()

    async def on_reminder(self, uow: UnitOfWork, job: JobRecord) -> None:
        """Tell a correspondence player by DM (the game's thread if DMs are closed) that time is running out."""
        now = self._now()
        game = await self._job_game(uow, job)
        if game is not None and game.status == "active":
            state = _State.load(game)
            snap = await self._snapshot(uow, game, state)
            if (
                state.clock is not None
                and job.payload.get("ply") == snap.ply
                and not state.clock.has_flagged(now)
            ):
                mover = snap.to_move
                flag = state.clock.flag_time()
                opponent = snap.player(not snap.board.turn)
                where = f"<#{snap.place_id}>" if snap.place_id else "the game's channel"
                text = (
                    f"♟ Your move in chess #{snap.game_id} against {opponent.name}: your time runs out "
                    f"<t:{unix(flag)}:R> (<t:{unix(flag)}:f>). Play with `/chess move` in {where}"
                    " — or `/chess vacation` if you need a break."
                )
                uow.outbox.to_user(
                    mover.user_id,
                    {
                        "content": text,
                        "fallback_content": f"your move in chess #{snap.game_id}: time runs out <t:{unix(flag)}:R>.",
                    },
                    fallback_channel_id=snap.place_id,
                )
        self._after_commit(uow)
        await uow.commit()

    async def prepare_computer_move(self, payload: dict[str, Any]) -> dict[str, Any] | None:
        """Stockfish's reply, asked before the job's transaction (the scheduler's
        ``prepare`` step): a read without the write lock, then the engine's thinking
        (up to about a second) with no database lock held."""
        if self.engine is None:
            return None  # the job itself explains (and is retried)
        try:
            async with self.ctx.reader() as uow:
                game = await self._game(uow, int(payload["game_id"]))
                if game.status != "active":
                    return None
                state = _State.load(game)
                snap = await self._snapshot(uow, game, state)
                version = game.version
        except (NotFoundError, KeyError, ValueError):
            return None
        if not snap.to_move.is_computer or payload.get("ply") != snap.ply:
            return None
        move = await self.engine.best_move(snap.board, snap.level or DEFAULT_LEVEL)
        return {"version": version, "move": move.uci()}

    async def on_computer_move(
        self, uow: UnitOfWork, job: JobRecord, prepared: dict[str, Any] | None = None
    ) -> None:
        """The computer's reply, played after the member's move has committed (thought
        out before this transaction when the scheduler could: see ``prepare_computer_move``)."""
        game = await self._job_game(uow, job)
        if game is not None and game.status == "active":
            state = _State.load(game)
            snap = await self._snapshot(uow, game, state)
            if snap.to_move.is_computer and job.payload.get("ply") == snap.ply:
                move = None
                if prepared is not None and prepared.get("version") == game.version:
                    candidate = chess.Move.from_uci(prepared["move"])
                    move = candidate if candidate in snap.board.legal_moves else None
                if move is None:  # the game changed meanwhile, or nothing was prepared: think now
                    if self.engine is None:
                        raise EngineUnavailableError(
                            INSTALL_HINT
                        )  # retried with backoff: the admin may fix it
                    move = await self.engine.best_move(snap.board, snap.level or DEFAULT_LEVEL)
                now = self._now()
                assert state.clock is not None
                if state.clock.has_flagged(now):
                    board = state.board()
                    await self._finish(
                        uow,
                        game,
                        state,
                        timeout_finish(board, board.turn),
                        now,
                        reply_channel_id=None,
                    )
                else:
                    await self._play(
                        uow, game, state, move, snap.to_move.user_id, now, reply_channel_id=None
                    )
        self._after_commit(uow)
        await uow.commit()

    async def on_invite_expiry(self, uow: UnitOfWork, job: JobRecord) -> None:
        game = await self._job_game(uow, job)
        if game is not None and game.status == "invited":
            await uow.games.save_state(
                game, expected_version=game.version, status="abandoned", finished_at=self._now()
            )
            snap = await self._snapshot(uow, game)
            if snap.channel_id is not None:
                uow.outbox.to_channel(
                    snap.channel_id,
                    {
                        "content": f"The chess challenge #{snap.game_id} ({snap.white.name} vs {snap.black.name}) expired unanswered."
                    },
                )
        self._after_commit(uow)
        await uow.commit()

    async def _job_game(self, uow: UnitOfWork, job: JobRecord) -> GameRecord | None:
        try:
            return await self._game(uow, int(job.payload["game_id"]))
        except (NotFoundError, KeyError, ValueError):
            log.warning("chess job %s names no game (%s)", job.id, job.payload)
            return None

    # ------------------------------------------------------------------ resign and draws

    async def resign(
        self,
        game_id: int,
        user_id: int,
        *,
        reply_channel_id: int | None = None,
        guild_id: int | None = None,
    ) -> ChessUpdate:
        now = self._now()
        async with self.ctx.uow() as uow:
            game = await self._game(uow, game_id, guild_id)
            color = self._require_player(game, user_id)
            self._require_active(game)
            state = _State.load(game)
            names = await uow.players.names([user_id])
            headline = f"{names.get(user_id, 'A player')} resigned."
            update = await self._finish(
                uow,
                game,
                state,
                resignation(color),
                now,
                reply_channel_id=reply_channel_id,
                headline=headline,
            )
            await uow.commit()
        return update

    async def draw(
        self,
        game_id: int,
        user_id: int,
        action: str,
        *,
        reply_channel_id: int | None = None,
        guild_id: int | None = None,
    ) -> ChessUpdate:
        """``offer``, ``accept``, ``decline`` (or withdraw one's own offer) or ``claim``."""
        action = action.strip().lower()
        if action not in ("offer", "accept", "decline", "claim"):
            raise InvalidInputError("Choose `offer`, `accept`, `decline` or `claim`.")
        now = self._now()
        async with self.ctx.uow() as uow:
            game = await self._game(uow, game_id, guild_id)
            color = self._require_player(game, user_id)
            self._require_active(game)
            state = _State.load(game)
            snap = await self._snapshot(uow, game, state)
            me, other = snap.player(color), snap.player(not color)
            if action == "claim":
                try:
                    finish = claim_draw(state.board(), color)
                except ChessError as error:
                    raise InvalidInputError(str(error)) from None
                update = await self._finish(
                    uow,
                    game,
                    state,
                    finish,
                    now,
                    reply_channel_id=reply_channel_id,
                    headline=f"{me.name} claimed a draw.",
                )
            elif action == "accept" or (action == "offer" and state.draw_offer == (not color)):
                if state.draw_offer != (not color):
                    raise InvalidInputError(
                        f"{other.name} has not offered a draw. You can offer one: `/chess draw action:offer`."
                    )
                update = await self._finish(
                    uow,
                    game,
                    state,
                    agreement(),
                    now,
                    reply_channel_id=reply_channel_id,
                    headline=f"{me.name} accepted the draw offer.",
                )
            elif action == "offer":
                if other.is_computer:
                    raise InvalidInputError(
                        "The computer plays every game to the end: play on, or claim a draw when the rules allow."
                    )
                if state.draw_offer == color:
                    raise InvalidInputError(f"Your draw offer is already waiting for {other.name}.")
                update = await self._set_offer(
                    uow,
                    game,
                    replace(state, draw_offer=color),
                    f"{me.name} offers a draw.",
                    reply_channel_id,
                )
            else:  # decline
                if state.draw_offer is None:
                    raise InvalidInputError("There is no draw offer to decline.")
                headline = (
                    f"{me.name} withdrew their draw offer."
                    if state.draw_offer == color
                    else f"{me.name} declined the draw offer. Play on!"
                )
                update = await self._set_offer(
                    uow, game, replace(state, draw_offer=None), headline, reply_channel_id
                )
            await uow.commit()
        return update

    async def _set_offer(
        self,
        uow: UnitOfWork,
        game: GameRecord,
        state: _State,
        headline: str,
        reply_channel_id: int | None,
    ) -> ChessUpdate:
        await uow.games.save_state(game, expected_version=game.version, state=state.dump())
        snap = await self._snapshot(uow, game, state)
        elsewhere = await self._announce(uow, snap, board_post(snap, headline), reply_channel_id)
        return ChessUpdate(snap, headline, elsewhere)

    # ------------------------------------------------------------------ vacation

    async def vacation(
        self, *, guild_id: int, user_id: int, days: int, game_id: int | None = None
    ) -> VacationResult:
        """Pause ``user_id``'s clock for ``days`` (0 ends the vacation) in one or all correspondence games."""
        now = self._now()
        async with self.ctx.uow() as uow:
            if game_id is not None:
                games = [await self._game(uow, game_id, guild_id)]
                self._require_player(games[0], user_id)
                self._require_active(games[0])
            else:
                games = await uow.games.for_player(
                    user_id, guild_id=guild_id, kind=KIND, statuses=("active",)
                )
            games = [
                g
                for g in games
                if not parse_time_control((g.options or {}).get("time_control")).is_live
            ]
            if not games:
                raise NotFoundError(
                    "You have no correspondence chess game in progress here. A live clock can't be paused."
                    if game_id is None
                    else f"Chess #{game_id} has a live clock, which can't be paused."
                )
            snaps = []
            days_left = float("inf")
            for game in games:
                color = self._require_player(game, user_id)
                state = _State.load(game)
                assert state.clock is not None
                if days == 0 and state.clock.vacation_until(color, now) is None:
                    continue  # not away in this game: nothing to end
                try:
                    clock = state.clock.with_vacation(color, now, days)
                except VacationError as error:
                    raise InvalidInputError(f"Chess #{game.id}: {error}") from None
                new = replace(state, clock=clock)
                await uow.games.save_state(
                    game,
                    expected_version=game.version,
                    state=new.dump(),
                    deadline=clock.flag_time(),
                )
                snap = await self._snapshot(uow, game, new)
                await self._schedule_turn(uow, snap, now)
                days_left = min(days_left, clock.vacation_days_left(color))
                me = snap.player(color).name
                until = clock.vacation_until(color, now)
                note = (
                    f"{me} is on vacation until <t:{unix(until)}:f>: their clock is paused."
                    if until
                    else f"{me} is back from vacation: their clock runs again."
                )
                if snap.place_id is not None:
                    uow.outbox.to_channel(
                        snap.place_id, {"content": f"**Chess #{game.id}** · {note}"}
                    )
                snaps.append(snap)
            if not snaps:
                raise InvalidInputError(
                    "You are not on vacation, so there is nothing to end: your clock is running."
                )
            await uow.commit()
        until = now + timedelta(days=days) if days > 0 else None
        return VacationResult(tuple(snaps), until, days_left)

    # ------------------------------------------------------------------ reading

    async def snapshot(self, game_id: int, *, guild_id: int | None = None) -> ChessSnapshot:
        async with self.ctx.reader() as uow:
            game = await self._game(uow, game_id, guild_id)
            return await self._snapshot(uow, game)

    async def resolve_game(
        self,
        *,
        guild_id: int,
        user_id: int,
        channel_id: int | None,
        game_id: int | None,
        finished_ok: bool = False,
    ) -> int:
        """The game a command means: given, else the thread's game, else the member's only game.

        A given number is returned as it is, without a transaction of its own:
        the command's own unit of work loads the game with ``guild_id`` (every
        method the cog calls with it takes ``guild_id``), so another server's
        game, or no game, is "There is no chess #N in this server." there, and
        not yours / over are checked there as before.
        """
        if game_id is not None:
            return game_id
        async with self.ctx.reader() as uow:
            if channel_id is not None:
                here = await uow.games.by_thread(channel_id, kind=KIND)
                if here is not None and here.guild_id == guild_id:
                    return here.id
            active = await uow.games.for_player(
                user_id, guild_id=guild_id, kind=KIND, statuses=("active",)
            )
            if len(active) == 1:
                return active[0].id
            if len(active) > 1:
                listed = ", ".join(
                    [game_line(await self._snapshot(uow, g), user_id) for g in active[:5]]
                )
                raise InvalidInputError(
                    f"You have {len(active)} chess games going: {listed}. "
                    "Say which with the `game` option, or use the command in the game's thread."
                )
            if finished_ok:
                finished = await uow.games.for_player(
                    user_id, guild_id=guild_id, kind=KIND, statuses=("finished",)
                )
                if finished:
                    return finished[0].id
        raise NotFoundError(
            "You have no chess game going here. Start one with `/chess new opponent:@member`."
        )

    async def game_in_thread(self, *, guild_id: int, channel_id: int) -> int | None:
        """The chess game played in this thread, if any."""
        async with self.ctx.reader() as uow:
            game = await uow.games.by_thread(channel_id, kind=KIND)
            return game.id if game is not None and game.guild_id == guild_id else None

    async def games_of(
        self, *, guild_id: int, user_id: int, finished: int = 5
    ) -> list[ChessSnapshot]:
        """The member's invitations and games in progress, then their latest finished games."""
        async with self.ctx.reader() as uow:
            current = await uow.games.for_player(
                user_id, guild_id=guild_id, kind=KIND, statuses=("invited", "active")
            )
            done = await uow.games.for_player(
                user_id, guild_id=guild_id, kind=KIND, statuses=("finished",)
            )
            return [await self._snapshot(uow, g) for g in [*current, *done[:finished]]]

    async def game_choices(
        self, *, guild_id: int, user_id: int, typed: str
    ) -> list[tuple[str, int]]:
        """Autocomplete for ``game``: the member's games, newest first."""
        games = await self.games_of(guild_id=guild_id, user_id=user_id)
        needle = typed.strip().lstrip("#").lower()
        out = []
        for snap in games:
            line = game_line(snap, user_id)
            if needle and needle not in line.lower():
                continue
            out.append((line[:100], snap.game_id))
        return out[:25]

    async def move_choices(
        self,
        *,
        guild_id: int,
        user_id: int,
        channel_id: int | None,
        game_id: int | None,
        typed: str,
    ) -> list[tuple[str, str]]:
        """Autocomplete for ``move``: legal moves in the game's current position."""
        try:
            resolved = await self.resolve_game(
                guild_id=guild_id, user_id=user_id, channel_id=channel_id, game_id=game_id
            )
            snap = await self.snapshot(resolved, guild_id=guild_id)
        except (NotFoundError, InvalidInputError):
            return []
        if snap.status != "active":
            return []
        return move_choices(snap.board, typed)

    async def pgn(self, game_id: int, *, guild_id: int | None = None) -> tuple[str, str]:
        """``(filename, text)`` of the game as PGN."""
        async with self.ctx.reader() as uow:
            game = await self._game(uow, game_id, guild_id)
            snap = await self._snapshot(uow, game)
            guild = await uow.guilds.get(game.guild_id)
            club = guild.name if guild is not None and guild.name else "Club"
            created_at = game.created_at
        finish = snap.finish
        info = PgnInfo(
            event=club,
            white=snap.white.name,
            black=snap.black.name,
            started_at=snap.started_at or created_at,
            result=snap.result or "*",
            time_control=snap.control.pgn_tag(),
            termination=snap.termination,
            finished_at=snap.finished_at if snap.status == "finished" else None,
            round=str(snap.game_id),
            comment=finish.describe(snap.white.name, snap.black.name) if finish else None,
        )
        return f"chess-{snap.game_id}.pgn", export_pgn(snap.moves, info)

    # ------------------------------------------------------------------ analysis

    async def analysable(self, game_id: int, *, guild_id: int | None = None) -> ChessSnapshot:
        """The game, if ``analyse`` can run on it; the cog checks before it defers its reply."""
        if self.engine is None:
            raise EngineUnavailableError(INSTALL_HINT)
        snap = await self.snapshot(game_id, guild_id=guild_id)
        self._check_analysable(snap)
        return snap

    @staticmethod
    def _check_analysable(snap: ChessSnapshot) -> None:
        if snap.status != "finished":
            raise InvalidInputError(
                "Analysis is for finished games: no engine help while the game is on!"
            )
        if not snap.moves:
            raise InvalidInputError(
                f"Chess #{snap.game_id} ended before any move was played: nothing to analyse."
            )

    async def analyse(self, game_id: int, *, guild_id: int | None = None) -> AnalysisReport:
        """The biggest mistakes of each side of a finished game (computed once, then kept)."""
        if self.engine is None:
            raise EngineUnavailableError(INSTALL_HINT)
        async with self.ctx.reader() as uow:
            game = await self._game(uow, game_id, guild_id)
            snap = await self._snapshot(uow, game)
            state = _State.load(game)
            version = game.version
        self._check_analysable(snap)
        cached = state.analysis
        if cached and len(cached.get("evals", [])) == len(snap.moves) + 1:
            evals = [
                PositionEval(cp, best)
                for cp, best in zip(cached["evals"], cached["best"], strict=False)
            ]
            engine_name = cached.get("engine", "engine")
        else:
            evals = await self.engine.evaluate_positions(snap.moves)
            engine_name = self.engine.name
            await self._keep_analysis(game_id, version, state, evals, engine_name)
        mistakes = biggest_mistakes(
            snap.moves, [e.white_cp for e in evals], [e.best for e in evals]
        )
        return AnalysisReport(snap, mistakes, engine_name)

    async def _keep_analysis(
        self, game_id: int, version: int, state: _State, evals: list[PositionEval], engine_name: str
    ) -> None:
        analysis = {
            "engine": engine_name,
            "evals": [e.white_cp for e in evals],
            "best": [e.best for e in evals],
        }
        try:
            async with self.ctx.uow() as uow:
                game = await self._game(uow, game_id)
                await uow.games.save_state(
                    game, expected_version=version, state=replace(state, analysis=analysis).dump()
                )
                await uow.commit()
        except ConflictError:  # someone analysed at the same time; their copy is as good
            pass


__all__ = [
    "BOARD_RENDERER",
    "DRAW_OFFER_VIEW",
    "JOB_COMPUTER",
    "JOB_INVITE",
    "JOB_REMINDER",
    "JOB_TIMEOUT",
    "KIND",
    "AnalysisReport",
    "ChessService",
    "ChessSnapshot",
    "ChessUpdate",
    "PlayerRef",
    "PromotionNeeded",
    "Seat",
    "VacationResult",
    "analysis_text",
    "board_alt_text",
    "board_image_args",
    "board_post",
    "board_text",
    "game_line",
    "mentions_for",
]
