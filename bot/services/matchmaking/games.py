"""A game made by matchmaking (a seek accepted, a rematch agreed) and its opening.

The game is made in the caller's transaction through the game's own ``seat_game``,
every seat accepted (they agreed to play), with a ``JOB_OPEN`` job due soon. After
the commit ``open`` gives it its thread (through the cog's ``thread_maker``: from
the seek's own post, or from a starter message posted once by its nonce) and has
the game's service post its first board there (``Starting.open_in`` for chess,
``Invitations.start`` for Scrabble; both idempotent). The job does the same after
a crash, so each board is posted once.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from bot.db.models import GameRecord
from bot.db.uow import UnitOfWork
from bot.messages import matchmaking as msg
from bot.services import ServiceContext
from bot.services.chess import ChessService, PlayerRef
from bot.services.chess.options import read_time_control
from bot.services.chess.seating import seat_game as seat_chess
from bot.services.scrabble import ScrabbleService
from bot.services.scrabble.options import GameSettings, Member
from bot.services.scrabble.seating import seat_game as seat_scrabble

OPEN_RETRY = timedelta(seconds=30)  # the opening job, should the click's own opening fail


@dataclass(frozen=True)
class ThreadRequest:
    """What opening a matched game's thread needs (for the cog's ``thread_maker``)."""

    channel_id: int
    message_id: int | None  # a message to start it from (the seek's post), or
    starter: str  # the text of a starter message posted once by ``nonce``
    nonce: str
    name: str
    user_ids: tuple[int, ...]
    live: bool


# -> the thread's id, or None to play in the channel
ThreadMaker = Callable[[ThreadRequest], Awaitable[int | None]]


@dataclass(frozen=True)
class Side:
    """One seat: one member, or a pair, as (user id, name)."""

    members: tuple[tuple[int, str], ...]


def job_open(kind: str) -> str:
    """The opening job's kind for one game kind."""
    return f"{kind}.match_open"


def open_key(game_id: int) -> str:
    """The opening job's key: one per game."""
    return f"match-open:{game_id}"


def nonce(game_id: int) -> str:
    """The starter message's nonce (Discord allows 25 characters)."""
    return f"match-game-{game_id}"


class MatchGames:
    """Makes and opens one kind's matched games, on that game's own service."""

    def __init__(
        self, kind: str, chess: ChessService | None, scrabble: ScrabbleService | None
    ) -> None:
        self.kind = kind
        self.chess = chess
        self.scrabble = scrabble
        self.thread_maker: ThreadMaker | None = None

    # ------------------------------------------------------------------ making

    async def create(
        self,
        uow: UnitOfWork,
        *,
        guild_id: int,
        guild_name: str,
        channel_id: int,
        sides: Sequence[Side],
        options: Mapping[str, Any],
        created_by: int,
        marks: Mapping[str, Any],
    ) -> GameRecord:
        """The game of ``sides`` (chess: White first; Scrabble: in turn order, the first
        seat playing first when ``options`` fix it), every seat accepted, marked with
        ``marks``; its opening job scheduled."""
        if self.kind == "chess":
            game = await self._chess(
                uow, guild_id, guild_name, channel_id, sides, options, created_by, marks
            )
        else:
            game = await self._scrabble(
                uow, guild_id, guild_name, channel_id, sides, options, created_by, marks
            )
        now = self._now()
        await uow.jobs.schedule(
            job_open(self.kind), now + OPEN_RETRY, {"game_id": game.id}, key=open_key(game.id)
        )
        return game

    def _now(self) -> datetime:
        return self.ctx.clock()

    async def _chess(
        self,
        uow: UnitOfWork,
        guild_id: int,
        guild_name: str,
        channel_id: int,
        sides: Sequence[Side],
        options: Mapping[str, Any],
        created_by: int,
        marks: Mapping[str, Any],
    ) -> GameRecord:
        assert self.chess is not None, "chess is not loaded"
        core = self.chess.core
        white, black = ([PlayerRef(uid, name) for uid, name in side.members] for side in sides)
        return await seat_chess(
            core,
            uow,
            guild_id=guild_id,
            guild_name=guild_name,
            channel_id=channel_id,
            white=white,
            black=black,
            control=read_time_control(str(options.get("time_control") or "")),
            color=str(options.get("color") or "random"),
            created_by=created_by,
            now=core.now(),
            accepted=True,  # both agreed: the seeker by seeking, the other by accepting
            extra_options=dict(marks),
        )

    async def _scrabble(
        self,
        uow: UnitOfWork,
        guild_id: int,
        guild_name: str,
        channel_id: int,
        sides: Sequence[Side],
        options: Mapping[str, Any],
        created_by: int,
        marks: Mapping[str, Any],
    ) -> GameRecord:
        assert self.scrabble is not None, "Scrabble is not loaded"
        settings = GameSettings.from_json(options)
        seats = [[Member(uid, name) for uid, name in side.members] for side in sides]
        return await seat_scrabble(
            uow,
            guild_id=guild_id,
            guild_name=guild_name,
            channel_id=channel_id,
            seats=seats,
            settings=settings,
            created_by=created_by,
            now=self.scrabble.ctx.clock(),
            accepted=True,  # the deal waits for the thread
            extra_options=dict(marks),
        )

    @staticmethod
    def fixed_first(options: Mapping[str, Any]) -> dict[str, Any]:
        """Scrabble ``options`` whose first seat plays first (no draw for it)."""
        settings = GameSettings.from_json(options)
        rules = dataclasses.replace(settings.rules, turn_order="fixed")
        return dict(dataclasses.replace(settings, rules=rules).to_json())

    # ------------------------------------------------------------------ opening

    async def open(self, game_id: int) -> int | None:
        """Give the game its thread (once) and post its first board there (once); the
        place it is played in (None when it was opened already and is over)."""
        request = await self._request(game_id)
        if request is None:
            return await self._place(game_id)
        thread_id = None
        if self.thread_maker is not None:
            thread_id = await self.thread_maker(request)
        if self.kind == "chess":
            assert self.chess is not None
            snap = await self.chess.starting.open_in(game_id, thread_id)
            return snap.place_id
        assert self.scrabble is not None
        view = await self.scrabble.invitations.start(game_id, thread_id)
        return view.home_channel_id

    @property
    def ctx(self) -> ServiceContext:
        """The game service's context."""
        if self.chess is not None:
            return self.chess.core.ctx
        assert self.scrabble is not None
        return self.scrabble.ctx

    async def _place(self, game_id: int) -> int | None:
        async with self.ctx.reader() as uow:
            game = await uow.games.get(game_id)
            return game.thread_id or game.channel_id

    async def _request(self, game_id: int) -> ThreadRequest | None:
        async with self.ctx.reader() as uow:
            game = await uow.games.get(game_id)
            options = game.options or {}
            if game.kind == "chess":
                if game.status != "active" or options.get("opened"):
                    return None
            elif game.status != "invited":
                return None
            seats = sorted(game.seats, key=lambda s: (s.seat, s.user_id))
            names = await uow.players.names([s.user_id for s in seats])
            by_seat: dict[int, list[str]] = {}
            for s in seats:
                by_seat.setdefault(s.seat, []).append(names.get(s.user_id, "?"))
            labels = [" & ".join(n) for _seat, n in sorted(by_seat.items())]
            rematch = options.get("rematch_of") is not None
            live = bool(
                game.kind == "chess" and read_time_control(str(options.get("time_control"))).is_live
            ) or bool(game.kind == "scrabble" and GameSettings.from_json(options).live)
            message_id = options.get("seek_message_id")
            return ThreadRequest(
                channel_id=game.channel_id or 0,
                message_id=int(message_id) if message_id else None,
                starter=msg.match_starter(game.kind, game.number, labels, rematch),
                nonce=nonce(game.id),
                name=msg.thread_name(game.kind, game.number, labels),
                user_ids=tuple(s.user_id for s in seats),
                live=live,
            )

    # Job ``<kind>.match_open``: the opening again (after a crash, or a failed click).

    async def prepare_open(self, payload: dict[str, Any]) -> None:
        """The job's work, outside its transaction: calls to Discord, and the game's own
        opening transaction."""
        await self.open(int(payload["game_id"]))

    async def on_open(self, uow: UnitOfWork, job: Any, prepared: None) -> None:
        """Job ``<kind>.match_open``: its work is in ``prepare_open`` (safe to run again)."""
        return
