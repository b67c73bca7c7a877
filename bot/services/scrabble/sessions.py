"""Scrabble boards made for a club session: games whose seats are already
accepted (the session formed them), opened in their thread once it exists, and
ended all at once at the session's deadline.

The session's service makes each board with ``seating.seat_game`` (dealt,
``active``, in the session's transaction); its turn clock does not run until ``open_in`` records the board's thread and posts the
first board there, so a board whose thread is made after a restart has lost no
time. ``end`` is the game's own deadline ending (unplayed tiles deducted), run
for every board of the session in one transaction; the normal finish records
results and ratings.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from bot.db.uow import UnitOfWork
from bot.errors import InvalidInputError
from bot.messages import scrabble as msg
from bot.services.scrabble.core import ScrabbleCore
from bot.services.scrabble.loaded import LoadedGame
from bot.services.scrabble.options import GameSettings, known_word_list
from engines.lexicon import available_lexicons
from engines.scrabble import ScrabbleError, ScrabbleOptions
from engines.scrabble.game import FINISHED, RACKS


@dataclass(frozen=True)
class BoardScore:
    """One seat of a board as it stands (final once the board is over)."""

    seat: int
    user_ids: tuple[int, ...]
    label: str
    score: int
    spread: int  # the seat's score less the best other seat's on its board


@dataclass(frozen=True)
class BoardState:
    """A session's board as it stands: each seat's score, the plays standing, if it is over."""

    game_id: int
    number: int
    home_id: int | None
    finished: bool
    seats: tuple[BoardScore, ...]
    plays: tuple[tuple[int, int, str], ...]  # (ply, seat, word) of every play standing
    no_contest: bool = False  # ended by the clock with no tile on the board (RULES.md)


class SessionBoards:
    """The boards of a club session: their settings, opened in their thread, read, and
    ended together."""

    def __init__(self, core: ScrabbleCore) -> None:
        self.core = core

    def settings(
        self,
        *,
        seats: int,
        clock_seconds: int | None,
        deadline_seconds: int | None,
        challenge: str,
        word_list: str | None,
        explain: bool,
        room: bool = False,
    ) -> GameSettings:
        """The session boards' settings, checked: a standard game with the session's clock,
        deadline, challenge rule and word list."""
        names = list(available_lexicons())
        default = self.core.ctx.settings.lexicon
        if default not in names:
            names.insert(0, default)
        lexicon = known_word_list(word_list or default, names)
        try:
            rules = ScrabbleOptions(seats=seats, challenge=challenge, room=room)
        except ScrabbleError as exc:
            raise InvalidInputError.passing_on(exc, sentence=True) from exc
        return GameSettings(
            rules=rules,
            clock_seconds=clock_seconds,
            deadline_seconds=deadline_seconds,
            lexicon=lexicon,
            explain=explain,
            variant="standard",
        )

    async def open_in(
        self, uow: UnitOfWork, game_id: int, thread_id: int | None, now: datetime
    ) -> bool:
        """Record the board's thread, start its turn clock and post the first board
        there; False (nothing done) when it was opened already."""
        loaded = await self.core.load(uow, game_id)
        if "moves" in loaded.meta or loaded.record.status != "active":
            return False
        engine = loaded.require_engine()
        columns: dict[str, object] = {}
        if thread_id is not None:
            columns["thread_id"] = thread_id
            loaded.record.thread_id = thread_id
        meta = await self.core.schedule_turn(uow, loaded, now, previous={}, new_turn=True)
        state = {"engine": engine.to_json(), **meta}
        await uow.games.save_state(
            loaded.record, expected_version=loaded.version, state=state, **columns
        )
        loaded.version += 1
        loaded.meta = meta
        self.core.announce.board(uow, loaded, [_first_draw(loaded)], new_turn=True)
        return True

    async def end(
        self, uow: UnitOfWork, game_id: int, now: datetime, *, early: bool = False
    ) -> None:
        """End the board now (unplayed tiles deducted), as its deadline would;
        ``early`` when the moderator ended the session before then."""
        loaded = await self.core.load(uow, game_id)
        engine = loaded.engine
        if loaded.record.status != "active" or engine is None or engine.status in (FINISHED, RACKS):
            return
        before = len(engine.moves)
        engine.end_by_deadline(early=early)
        await self.core.commit_changes(uow, loaded, before, now, actor=None)

    async def state(self, uow: UnitOfWork, game_id: int) -> BoardState:
        """The board as it stands: each seat's score and spread, the plays standing, and
        whether it is over (or a no contest)."""
        loaded = await self.core.load(uow, game_id)
        engine = loaded.require_engine()
        result = engine.result() if engine.status == FINISHED else None
        scores = [
            result.final_scores[s] if result is not None else engine.scores[s]
            for s in range(engine.seats)
        ]
        seats = tuple(
            BoardScore(
                seat=s,
                user_ids=tuple(loaded.seats.get(s, [])),
                label=loaded.label(s),
                score=scores[s],
                spread=scores[s] - max(v for i, v in enumerate(scores) if i != s),
            )
            for s in range(engine.seats)
        )
        plays = tuple(
            (ply, int(entry["seat"]), str((entry.get("words") or [entry["word"]])[0]))
            for ply, entry in enumerate(engine.moves)
            if entry["type"] == "play" and not _withdrawn(engine.moves, ply)
        )
        return BoardState(
            game_id=game_id,
            number=loaded.number,
            home_id=loaded.home,
            finished=engine.status == FINISHED,
            seats=seats,
            plays=plays,
            no_contest=result is not None
            and result.reason in ("deadline", "ended")
            and engine.board_copy().is_empty,
        )


def _withdrawn(moves: Sequence[dict[str, object]], ply: int) -> bool:
    """A play taken back by a successful challenge (the next challenge entry says so)."""
    for entry in moves[ply + 1 :]:
        if entry.get("type") == "challenge":
            return entry.get("result") == "withdrawn"
        if entry.get("type") in ("play", "exchange", "pass"):
            return False
    return False


def _first_draw(loaded: LoadedGame) -> str:
    engine = loaded.require_engine()
    draws = []
    if engine.first_draw:
        draws = [
            (loaded.label(seat), tile)
            for seat, tile in enumerate(engine.first_draw[-1])
            if tile is not None
        ]
    return msg.first_draw(
        loaded.number, loaded.settings.describe(), draws, loaded.label(engine.current_seat)
    )
