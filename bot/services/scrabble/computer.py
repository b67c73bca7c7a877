"""Help from the move generator: the computer's seat, hints, post-game analysis.

The computer's move is a durable job with a prepare step: its search (and, the
first time, the word graph's build) runs before the job's transaction, so no
database lock is held meanwhile; the handler checks the game has not moved
since and commits the move like a member's. The generator's calls themselves
are in ``ai``.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from bot.db.models import JobRecord
from bot.db.uow import UnitOfWork
from bot.errors import InvalidInputError, NotFoundError
from bot.messages import scrabble as msg
from bot.messages.i18n import _
from bot.services.scrabble import ai
from bot.services.scrabble.core import ScrabbleCore
from bot.services.scrabble.loaded import LoadedGame
from bot.services.scrabble.options import DEFAULT_COMPUTER_LEVEL
from engines.scrabble import ScrabbleError, ScrabbleGame
from engines.scrabble.game import ACTIVE, ENDING

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class PreparedMove:
    """The computer's decision, made outside the job's transaction for this version."""

    version: int
    move: ai.MoveDescription


def _to_act(loaded: LoadedGame) -> bool:
    engine, seat = loaded.engine, loaded.settings.computer_seat
    return (
        loaded.record.status == "active"
        and engine is not None
        and seat is not None
        and (
            (engine.status == ACTIVE and engine.current_seat == seat)
            or (engine.status == ENDING and engine.can_challenge(seat))
        )
    )


def _hint_line(move: ai.MoveDescription) -> msg.HintLine:
    return msg.HintLine(
        kind="play" if move["type"] == "play" else "exchange",
        leave=move.get("leave", ""),
        tiles=move.get("tiles", ""),
        word=move.get("word", ""),
        main_word=move.get("main_word", ""),
        position=move.get("position", ""),
        score=move.get("score", 0),
    )


class Computer:
    """The move generator's help: the computer's seat, hints, and post-game analysis."""

    def __init__(self, core: ScrabbleCore) -> None:
        self.core = core
        self.ctx = core.ctx
        self._analysis_lock = asyncio.Lock()

    # -- the computer's seat -------------------------------------------------------------

    async def prepare_move(self, payload: dict[str, Any]) -> PreparedMove | None:
        """The computer's decision, made before its job's transaction (the scheduler's
        ``prepare`` step): a short read, then the search with no database lock held."""
        try:
            async with self.ctx.reader() as uow:
                loaded = await self.core.load(uow, int(payload["game_id"]))
                acts = _to_act(loaded)  # read while the row is loaded
        except NotFoundError:
            return None
        # A computer to act implies a game engine: the None test only tells mypy so.
        if not acts or loaded.engine is None or len(loaded.engine.moves) != payload.get("moves"):
            return None
        return PreparedMove(loaded.version, await self._decide(loaded))

    async def _decide(self, loaded: LoadedGame) -> ai.MoveDescription:
        engine = loaded.require_engine()
        seat = loaded.settings.computer_seat
        assert seat is not None
        level = loaded.settings.computer_level or DEFAULT_COMPUTER_LEVEL
        # The same position, the same choice.
        seed = (engine.seed * 1_000_003 + len(engine.moves)) % 2**62
        words = await self.core.lexicons.ref(loaded.settings.lexicon)
        return await ai.computer_move(engine.to_json(), ai.AiOptions(words), seat, level, seed)

    async def on_computer_move(
        self, uow: UnitOfWork, job: JobRecord, prepared: PreparedMove | None = None
    ) -> None:
        """The computer's move (prepared outside this transaction when the scheduler
        could), committed like a member's: the same checks, log, timers and board post."""
        loaded = await self.core.job_game(uow, job)
        if loaded is not None and _to_act(loaded):
            engine = loaded.require_engine()
            seat = loaded.settings.computer_seat
            assert seat is not None
            lexicon = await self.core.lexicons.get(loaded.settings.lexicon)
            if prepared is not None and prepared.version == loaded.version:
                move = prepared.move
            else:  # the game changed meanwhile: decide again
                move = await self._decide(loaded)
            before = len(engine.moves)
            try:
                ai.apply_move_description(engine, seat, move, lexicon)
            except ScrabbleError:
                # The generator and the engine disagree (a bug): never stall the game on it.
                log.exception(
                    "Scrabble #%s: the computer's %s was refused; it passes",
                    loaded.game_id,
                    move["type"],
                )
                engine = ScrabbleGame.from_json(loaded.record.state["engine"])  # as saved
                loaded.engine = engine
                if engine.status == ACTIVE:
                    engine.pass_turn(seat)
                else:
                    engine.accept(seat)
            await self.core.commit_changes(
                uow, loaded, before, self.ctx.clock(), actor=loaded.computer_user
            )
        self.core.wake_after_commit(uow)
        await uow.commit()

    # -- hints ------------------------------------------------------------------------------

    async def hint(self, game_id: int, user_id: int, *, guild_id: int | None = None) -> str:
        """The best plays for the member's rack, privately (only in games made with hints on)."""
        async with self.ctx.reader() as uow:
            loaded, seat = await self.core.member_game(uow, game_id, guild_id, user_id)
            engine = loaded.require_engine()
            number = loaded.number  # read while the row is loaded
        if not loaded.settings.hints:
            raise InvalidInputError(msg.no_hints(number))
        if engine.status != ACTIVE:
            raise InvalidInputError(
                _("Scrabble #{number} isn't waiting for a move: there's nothing to hint.").format(
                    number=number
                )
            )
        words = await self.core.lexicons.ref(loaded.settings.lexicon)
        moves = await ai.hint(engine.to_json(), ai.AiOptions(words), seat)
        async with self.ctx.uow() as uow:
            # A single UPDATE of the member's seat row: it never conflicts with a move.
            used = await uow.games.count_hint(game_id, user_id)
            await uow.commit()
        waiting_for = None if engine.current_seat == seat else loaded.label(engine.current_seat)
        return msg.hints(
            number,
            engine.racks[seat],
            [_hint_line(m) for m in moves],
            waiting_for=waiting_for,
            used=used,
        )

    # -- analysis ---------------------------------------------------------------------------

    async def prepare_analysis(
        self, game_id: int, *, guild_id: int
    ) -> Callable[[], Awaitable[tuple[str, str]]]:
        """Check that a finished game can be analysed; the returned call does the
        work: each play beside the best play available, ``(message, full table)``.

        Two steps so a command can refuse bad input privately before it shows
        "thinking…" in public. Anyone in the club may look (a finished game's
        racks are in its GCG record too). The work runs off the event loop, one
        analysis at a time.
        """
        async with self.ctx.reader() as uow:
            loaded = await self.core.load(uow, game_id, guild_id)
            finished = loaded.record.status == "finished"  # read while the row is loaded
            number = loaded.number
        engine = loaded.engine
        if not finished or engine is None:
            raise InvalidInputError(
                _("Scrabble #{number} isn't finished yet: analysis is for finished games.").format(
                    number=number
                )
            )
        words = await self.core.lexicons.ref(loaded.settings.lexicon)
        names = [loaded.name(seat) for seat in range(engine.seats)]
        labels = [loaded.label(seat) for seat in range(engine.seats)]

        async def run() -> tuple[str, str]:
            async with self._analysis_lock:
                analysis = await ai.analyse_game(engine.to_json(), ai.AiOptions(words))
            return msg.analysis_text(number, analysis, names, labels)

        return run

    async def analyse(self, game_id: int, *, guild_id: int) -> tuple[str, str]:
        """``prepare_analysis`` and its work in one call."""
        return await (await self.prepare_analysis(game_id, guild_id=guild_id))()
