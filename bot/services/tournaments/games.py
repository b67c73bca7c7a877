"""A round's games, through the games' own services.

Each game is made in the round's own transaction (``create``), so pairing a round
and making its games commit together or not at all: seated and accepted (the
entrants signed up), marked with the tournament in its options (``hooks`` reads
it when the game ends). Chess games start active with their clock; Scrabble
games wait for their deal. ``open`` then gives each game its thread (through the
cog's ``ThreadMaker``, idempotent by the starter message's nonce) and has the
game's service post its first board there (``Starting.open_in`` for chess,
``Invitations.start`` for Scrabble, both idempotent), so the opening job may run
again after a crash and posts each board once.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any

from bot.db.models import GameRecord
from bot.db.uow import UnitOfWork
from bot.services.chess import ChessService, PlayerRef
from bot.services.chess.options import KIND as CHESS
from bot.services.chess.options import read_time_control
from bot.services.chess.seating import seat_game as seat_chess
from bot.services.chess.state import ChessState
from bot.services.scrabble import ScrabbleService
from bot.services.scrabble.options import Member, NewGameRequest, read_settings
from bot.services.scrabble.seating import seat_game as seat_scrabble
from engines.scrabble import ScrabbleGame

# (channel_id, starter text, nonce, thread name, member ids) -> the thread's id, or
# None to play in the channel. Made once per nonce however often it runs.
ThreadMaker = Callable[[int, str, str, str, Sequence[int], bool], Awaitable[int | None]]


@dataclass(frozen=True)
class Side:
    """One entrant as a game seats it: one member, or a pair."""

    members: tuple[tuple[int, str], ...]  # (user id, name)


@dataclass(frozen=True)
class GameResult:
    """A finished game read back: the first seat's points (1, ½, 0) and spread."""

    score: float
    spread: int = 0
    totals: tuple[int, int] | None = None  # Scrabble: each side's final score


@dataclass(frozen=True)
class GameToOpen:
    """A round's game still to get its thread and first board: where it is played, and by whom."""

    game_id: int
    kind: str
    channel_id: int
    thread_id: int | None
    number: int
    user_ids: tuple[int, ...]
    live: bool


def nonce(game_id: int) -> str:
    """The starter message's nonce (Discord allows 25 characters)."""
    return f"tourn-game-{game_id}"


class RoundGames:
    """Makes, opens and reads a tournament's games; the cog hands it the games'
    services (one of each, from their cogs) and its ``thread_maker``."""

    def __init__(self, chess: ChessService | None, scrabble: ScrabbleService | None) -> None:
        self.chess = chess
        self.scrabble = scrabble
        self.thread_maker: ThreadMaker | None = None

    # ------------------------------------------------------------------ making

    async def create(
        self,
        uow: UnitOfWork,
        *,
        kind: str,
        guild_id: int,
        guild_name: str,
        channel_id: int,
        director_id: int,
        first: Side,
        second: Side,
        time_control: str | None,
        extra_options: dict[str, Any],
    ) -> int:
        """Make a game of ``first`` against ``second`` in the caller's transaction, seated and
        accepted, marked with ``extra_options``; its id."""
        if kind == CHESS:
            return await self._chess(
                uow, guild_id, guild_name, channel_id, first, second, time_control, extra_options
            )
        return await self._scrabble(
            uow,
            guild_id,
            guild_name,
            channel_id,
            director_id,
            first,
            second,
            time_control,
            extra_options,
        )

    async def _chess(
        self,
        uow: UnitOfWork,
        guild_id: int,
        guild_name: str,
        channel_id: int,
        white: Side,
        black: Side,
        time_control: str | None,
        extra_options: dict[str, Any],
    ) -> int:
        assert self.chess is not None, "chess is not loaded"
        core = self.chess.core
        marks = dict(extra_options)
        # A pair plays one side: either partner moves for it.
        game = await seat_chess(
            core,
            uow,
            guild_id=guild_id,
            guild_name=guild_name,
            channel_id=channel_id,
            white=[PlayerRef(uid, name) for uid, name in white.members],
            black=[PlayerRef(uid, name) for uid, name in black.members],
            control=read_time_control(time_control),
            color="white",
            created_by=white.members[0][0],
            now=core.now(),
            accepted=True,  # they entered the tournament
            rated=bool(marks.pop("rated", True)),
            extra_options=marks,
        )
        return game.id

    async def _scrabble(
        self,
        uow: UnitOfWork,
        guild_id: int,
        guild_name: str,
        channel_id: int,
        director_id: int,
        first: Side,
        second: Side,
        clock: str | None,
        extra_options: dict[str, Any],
    ) -> int:
        assert self.scrabble is not None, "Scrabble is not loaded"
        ctx = self.scrabble.ctx
        marks = dict(extra_options)
        seats = [[Member(uid, name) for uid, name in side.members] for side in (first, second)]
        request = NewGameRequest(
            guild_id=guild_id,
            guild_name=guild_name,
            channel_id=channel_id,
            creator=seats[0][0],
            clock=clock,
        )
        settings = read_settings(
            request,
            len(seats),
            None,
            word_lists=self.scrabble.invitations.word_lists(),
            default_word_list=ctx.settings.lexicon,
        )
        game = await seat_scrabble(
            uow,
            guild_id=guild_id,
            guild_name=guild_name,
            channel_id=channel_id,
            seats=seats,
            settings=settings,
            created_by=director_id,
            now=ctx.clock(),
            accepted=True,  # they entered the tournament; the deal waits for the thread
            rated=bool(marks.pop("rated", True)),
            extra_options=marks,
        )
        return game.id

    # ------------------------------------------------------------------ opening

    async def open(self, game: GameToOpen, starter: str, thread_name: str) -> None:
        """Give the game its thread (once) and post its first board there (once)."""
        thread_id = game.thread_id
        if thread_id is None and self.thread_maker is not None:
            thread_id = await self.thread_maker(
                game.channel_id, starter, nonce(game.game_id), thread_name, game.user_ids, game.live
            )
        if game.kind == CHESS:
            assert self.chess is not None
            await self.chess.starting.open_in(game.game_id, thread_id)
        else:
            assert self.scrabble is not None
            await self.scrabble.invitations.start(game.game_id, thread_id)

    # ------------------------------------------------------------------ ending

    async def end_decided(
        self, uow: UnitOfWork, game_id: int, *, first_score: float, how: str, headline: str
    ) -> None:
        """End a game still in play with the result the tournament gave it (``how``:
        ``adjudicated`` by the director, ``round deadline``, ``forfeit``), through the
        game's own service, in the caller's transaction: later moves are refused and
        its thread is told ``headline``."""
        game = await uow.games.get(game_id)
        if game.status not in ("active", "invited"):
            return
        if game.kind == CHESS:
            assert self.chess is not None, "chess is not loaded"
            await self.chess.core.end_decided(
                uow, game, white_score=first_score, how=how, headline=headline
            )
        else:
            assert self.scrabble is not None, "Scrabble is not loaded"
            await self.scrabble.core.end_decided(
                uow, game_id, first_score=first_score, headline=headline
            )

    # ------------------------------------------------------------------ results

    @staticmethod
    def result(game: GameRecord) -> GameResult | None:
        """The finished game's result for its first seat; None while it is not over."""
        if game.status != "finished":
            return None
        state = game.state or {}
        decided = state.get("decided")
        if isinstance(decided, dict) and "first_score" in decided:
            return GameResult(float(decided["first_score"]))  # ended by the tournament
        if game.kind == CHESS:
            outcome = ChessState.load(game).result
            return GameResult({"1-0": 1.0, "0-1": 0.0}.get(outcome or "", 0.5))
        return _scrabble_result(state, finished=True)

    @staticmethod
    def standing_result(game: GameRecord) -> GameResult:
        """What an unfinished game at its round's deadline counts as: chess a draw (the
        director may adjudicate it), Scrabble the scores as they stand."""
        if game.kind == CHESS or not (game.state or {}).get("engine"):
            return GameResult(0.5)
        return _scrabble_result(game.state, finished=False) or GameResult(0.5)


def _scrabble_result(state: dict[str, Any], *, finished: bool) -> GameResult | None:
    if not state.get("engine"):
        return GameResult(0.5)  # never dealt: nobody played
    engine = ScrabbleGame.from_json(state["engine"])
    result = engine.result()
    if result is not None:
        scores: Sequence[int] = result.final_scores
        ranks: Sequence[int] = result.ranks
    elif finished:
        return GameResult(0.5)
    else:
        scores = list(engine.scores)
        ranks = [1 if scores[0] >= scores[1] else 2, 1 if scores[1] >= scores[0] else 2]
    spread = int(scores[0] - scores[1])
    totals = (int(scores[0]), int(scores[1]))
    if ranks[0] == ranks[1]:
        return GameResult(0.5, spread, totals)
    return GameResult(1.0 if ranks[0] < ranks[1] else 0.0, spread, totals)
