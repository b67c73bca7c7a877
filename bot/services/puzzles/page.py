"""What a member's puzzle page reads (``bot.web.board_puzzle``, issue #31): one puzzle of
their club's and their own attempt at it, never anyone else's; the solution only once
that attempt is over (solved, out of tries or given up), as the Answer form shows it.

The page's answers go through ``PuzzleService.answer`` (tiles put down, judged as the
form's typed word is) and ``show_solution``: the same tries, ratings and texts.

A puzzle page names its game (``kind``: ``scrabble``; a chess puzzle's page is another
kind of view of the same link), so the web layer picks the board that draws it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.context import ServiceContext
from bot.db.models_puzzles import PuzzleAttemptRecord, PuzzleRecord
from bot.db.repositories.puzzles import PuzzleRepository
from bot.errors import NotFoundError
from bot.messages import puzzles as msg
from bot.messages.i18n import _
from bot.services.puzzles.service import MAX_TRIES
from bot.services.puzzles.service import _solution as solution_text  # its one writer
from engines.scrabble.board import Board, Evaluation
from engines.scrabble.puzzles import ScrabblePuzzle


@dataclass(frozen=True)
class PuzzlePage:
    """A puzzle as its member's page shows it. ``status`` is their attempt's: open (also
    before they first answered), solved or failed; ``version`` moves with each answer."""

    puzzle_id: int
    kind: str
    game_number: int
    move: int
    rows: tuple[str, ...]
    rack: str
    status: str
    tries_left: int
    version: int
    rating: float
    solved: int
    tried: int
    answers: tuple[tuple[str, int | None], ...]
    solution: str  # "" while the attempt is open
    member_name: str = ""  # the name the bot has for the member (a page knows none)

    @property
    def finished(self) -> bool:
        """Whether the attempt is over (its solution is shown)."""
        return self.status != "open"


class PuzzlePages:
    """The reads behind a member's puzzle page."""

    def __init__(self, ctx: ServiceContext) -> None:
        self.ctx = ctx

    async def view(self, guild_id: int, user_id: int, puzzle_id: int) -> PuzzlePage:
        """The puzzle and ``user_id``'s attempt at it; ``NotFoundError`` for a puzzle that
        is not the club's."""
        async with self.ctx.reader() as uow:
            puzzle = await self._puzzle(uow.puzzles, guild_id, puzzle_id)
            attempt = await uow.puzzles.attempt(puzzle_id, user_id)
            names = await uow.players.names([user_id])
            return _page(puzzle, attempt, names.get(user_id, ""))

    async def versions(self, puzzle_id: int) -> dict[int, int]:
        """Each member's attempt's version (a page follows its own member's)."""
        async with self.ctx.reader() as uow:
            return await uow.puzzles.attempt_versions(puzzle_id)

    async def preview(
        self, guild_id: int, puzzle_id: int, placements: Sequence[tuple[str, str]]
    ) -> Evaluation:
        """The words and the score tiles put down would make on the puzzle's board from its
        rack, or the engine's refusal (a ``ScrabbleError``). Whether the words are in the
        word list is not said: that is the answer's judgement, and it costs a try."""
        async with self.ctx.reader() as uow:
            puzzle = await self._puzzle(uow.puzzles, guild_id, puzzle_id)
            data = dict(puzzle.data)
        position = ScrabblePuzzle.from_json(data)
        board = Board.from_rows(list(position.board))
        return board.evaluate_tiles(placements, rack=position.rack)

    @staticmethod
    async def _puzzle(repo: PuzzleRepository, guild_id: int, puzzle_id: int) -> PuzzleRecord:
        puzzle = await repo.get(puzzle_id)
        if puzzle is None or puzzle.guild_id != guild_id:
            raise NotFoundError(_(msg.NO_SUCH_PUZZLE))
        return puzzle


def _page(puzzle: PuzzleRecord, attempt: PuzzleAttemptRecord | None, name: str) -> PuzzlePage:
    data = puzzle.data
    status = attempt.status if attempt is not None else "open"
    return PuzzlePage(
        puzzle_id=puzzle.id,
        kind=puzzle.kind,
        game_number=int(data.get("game_number") or 0),
        move=int(data.get("ply") or 0) + 1,
        rows=tuple(data["board"]),
        rack=str(data["rack"]),
        status=status,
        tries_left=MAX_TRIES - attempt.tries if attempt is not None else MAX_TRIES,
        version=attempt.version if attempt is not None else 0,
        rating=puzzle.rating,
        solved=puzzle.solved,
        tried=puzzle.attempts,
        answers=tuple(
            (str(notation), None if score is None else int(score))
            for notation, score in (attempt.answers if attempt is not None else [])
        ),
        solution=solution_text(puzzle) if status != "open" else "",
        member_name=name,
    )
