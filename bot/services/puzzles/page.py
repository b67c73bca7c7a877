"""What a member's puzzle page reads (``bot.web.board_puzzle``, issue #31): one puzzle of
their club's and their own attempt at it, never anyone else's; the solution only once
that attempt is over (solved, out of tries or given up), as the Answer form shows it.

The page's answers go through ``PuzzleService.answer`` (tiles put down, judged as the
form's typed word is), ``answer_move`` (a chess puzzle's move, as the form's) and
``show_solution``: the same tries, ratings and texts.

A puzzle page names its game (``kind``: ``scrabble`` or ``chess``), so the web layer
picks the board that draws it: a Scrabble puzzle's board and rack, or a chess puzzle's
position as the member has brought it (the bot's replies played), its moves so far,
and once it is over the solution line and the rating before and after.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import chess

from bot.context import ServiceContext
from bot.db.models_puzzles import PuzzleAttemptRecord, PuzzleRecord
from bot.db.repositories.puzzles import PuzzleRepository
from bot.errors import NotFoundError
from bot.messages import puzzles as msg
from bot.messages.i18n import _
from bot.services.puzzles.chess import CHESS
from bot.services.puzzles.service import CHESS_TRIES, MAX_TRIES
from bot.services.puzzles.service import _solution as solution_text  # its one writer
from engines.chess_puzzles import ChessPuzzle
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
    # A chess puzzle's: the position now (``fen``: after the moves found, the replies,
    # and the member's last move once the attempt is over), the move that led to it
    # (UCI), the moves since the puzzle's position (SAN, the member's and the bot's),
    # and once it is over the solution line (SAN) and the member's rating before and
    # after it.
    fen: str = ""
    side: chess.Color = chess.WHITE  # the solver's (the side to move in the puzzle)
    last_move: str | None = None
    moves: tuple[str, ...] = ()
    line: tuple[str, ...] = ()
    rating_before: float | None = None
    rating_after: float | None = None

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
    if puzzle.kind == CHESS:
        return _chess_page(puzzle, attempt, name)
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


def _chess_page(puzzle: PuzzleRecord, attempt: PuzzleAttemptRecord | None, name: str) -> PuzzlePage:
    """A chess puzzle's page: the position after the moves the member found and the bot's
    replies; once the attempt is over, with the move that ended it on the board (the
    last one found, which may be another mate than the line's, or the wrong one)."""
    position = ChessPuzzle.from_json(puzzle.data)
    status = attempt.status if attempt is not None else "open"
    answers = list(attempt.answers) if attempt is not None else []
    found = sum(1 for answer in answers if answer[1] is True)
    ending = None  # the member's move that ended the attempt (none when given up)
    if status == "solved":
        found, ending = found - 1, str(answers[-1][0])
    elif status == "failed" and answers and answers[-1][1] is False:
        ending = str(answers[-1][0])
    start = chess.Board(position.fen)
    board = start.copy()
    for uci in position.line[: 2 * found]:
        board.push_uci(uci)
    if ending is not None:
        board.push_san(ending)  # judged legal there when it was answered
    played = list(board.move_stack)
    line = [chess.Move.from_uci(uci) for uci in position.line]
    return PuzzlePage(
        puzzle_id=puzzle.id,
        kind=puzzle.kind,
        game_number=int(puzzle.data.get("game_number") or 0),
        move=start.fullmove_number,
        rows=(),
        rack="",
        status=status,
        tries_left=CHESS_TRIES if status == "open" else 0,
        version=attempt.version if attempt is not None else 0,
        rating=puzzle.rating,
        solved=puzzle.solved,
        tried=puzzle.attempts,
        answers=(),
        solution=solution_text(puzzle) if status != "open" else "",
        member_name=name,
        fen=board.fen(),
        side=start.turn,
        last_move=played[-1].uci() if played else position.last,
        moves=tuple(_sans(start, played)),
        line=tuple(_sans(start, line)) if status != "open" else (),
        rating_before=attempt.rating_before if attempt is not None else None,
        rating_after=attempt.rating_after if attempt is not None else None,
    )


def _sans(start: chess.Board, moves: Sequence[chess.Move]) -> list[str]:
    """``moves`` from ``start`` in SAN, one by one."""
    board = start.copy()
    sans = []
    for move in moves:
        sans.append(board.san(move))
        board.push(move)
    return sans
