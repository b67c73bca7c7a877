"""A member's own puzzle page (issue #31): the ``puzzle`` kind of ``bot.web.boards``.

The link names a club, a member and one puzzle of the club's (``/puzzle`` gives it,
privately). The page is drawn by the puzzle's game: a Scrabble puzzle is the
Scrabble board page (its template's twin, ``board_puzzle_scrabble.html``, and the
same module, ``static/board/scrabble.js``) with the puzzle's board and rack: tiles
are put down by tap, drag or keyboard and ``preview`` says what they would score
(the engine, on the puzzle's board: never whether the words are in the word list,
which is the answer's judgement). ``play`` sends them to ``PuzzleService.answer``,
judged as the Answer form's typed word is: a try used, the tries left, solved, and
once the attempt is over the top plays and what was played in the game.
``solution`` is the form's Show solution. A member answering in Discord meanwhile
moves the page on (the attempt's version is what the page follows).

A chess puzzle's page is the chess board page (``board_puzzle_chess.html`` extends
``board_chess.html``; the same module, ``static/board/chess.js``) with the puzzle's
position from the solver's side: ``move`` sends the member's move (click, drag or
keyboard, the promotion asked) to ``PuzzleService.answer_move``, the Answer form's own
call, with the attempt's version the page shows (a move on a position the member left
in Discord meanwhile is refused, nothing judged). A right move's answer carries the
board after it (``played``) so the page shows it before the bot's reply; the state
has the reply as its last move. Once over, the state has the solution line and the
rating change. ``state`` picks the game's by ``PuzzlePage.kind``; the link, the
session and the routes are the same for both.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import chess

from bot.errors import InvalidInputError, NotFoundError
from bot.messages import puzzles as msg
from bot.messages import puzzles_page as say
from bot.messages.errors import refusal
from bot.messages.i18n import _
from bot.messages.scrabble.page import points_text, preview_text
from bot.services import ServiceContext
from bot.services.board_links import BoardSession, Kind
from bot.services.chess.snapshots import color_key
from bot.services.puzzles.chess import CHESS
from bot.services.puzzles.page import PuzzlePage, PuzzlePages
from bot.services.puzzles.service import SCRABBLE, AnswerOutcome, PuzzleService
from bot.web.board_chess import PROMOTIONS, _square, board_rows
from bot.web.board_scrabble import PREMIUM_ROWS, _placements
from bot.web.boards import BAD_BODY, Action
from engines.chess_game import legal_targets
from engines.scrabble.errors import ScrabbleError
from engines.scrabble.layout import LETTER_VALUES


class PuzzleBoard:
    """The puzzle page's state and actions (a ``bot.web.boards.BoardKind``)."""

    kind: Kind = "puzzle"

    def __init__(self, ctx: ServiceContext, service: PuzzleService | None = None) -> None:
        self.ctx = ctx
        self.service = service or PuzzleService(ctx)
        self.pages = PuzzlePages(ctx)

    def template(self, state: Mapping[str, Any]) -> str:
        return f"board_puzzle_{state['game']}.html"

    async def version(self, subject_id: int) -> dict[int, int]:
        return await self.pages.versions(subject_id)

    async def page_version(self, session: BoardSession) -> Callable[[dict[int, int]], int]:
        """A page follows its own member's attempt only."""
        user_id = session.grant.user_id
        return lambda versions: versions.get(user_id, 0)

    async def state(self, session: BoardSession) -> Mapping[str, Any]:
        page = await self._page(session)
        return chess_state(page) if page.kind == CHESS else scrabble_state(page)

    async def _page(self, session: BoardSession) -> PuzzlePage:
        grant = session.grant
        page = await self.pages.view(grant.guild_id, grant.user_id, grant.subject_id)
        if page.kind not in (SCRABBLE, CHESS):  # a game whose puzzles have no page
            raise NotFoundError(_(msg.NO_SUCH_PUZZLE))
        return page

    def actions(self) -> Mapping[str, Action]:
        return {
            "preview": self.preview,
            "play": self.play,
            "move": self.move,
            "solution": self.solution,
        }

    async def preview(self, session: BoardSession, body: dict[str, Any]) -> Mapping[str, Any]:
        """``{"tiles": [...]}`` as the Scrabble page sends them: the words and the score
        they would make on the puzzle's board, or the engine's refusal. Nothing changes."""
        placements = _placements(body)
        grant = session.grant
        version = (await self.pages.versions(grant.subject_id)).get(grant.user_id, 0)
        try:
            found = await self.pages.preview(grant.guild_id, grant.subject_id, placements)
        except ScrabbleError as error:
            refused = InvalidInputError.passing_on(error, sentence=True)
            return {
                "legal": False,
                "code": refused.code,
                "message": refusal(refused),
                "version": version,
            }
        words = [(w.word, w.score) for w in found.words]
        return {
            "legal": True,
            "version": version,
            "words": [{"word": word, "score": score} for word, score in words],
            "score": found.score,
            "bingo": found.bingo,
            "text": preview_text(words, found.score, bingo=found.bingo),
        }

    async def play(self, session: BoardSession, body: dict[str, Any]) -> Mapping[str, Any]:
        """``{"tiles": [...]}``: the answer, judged as the Answer form's (a try used)."""
        placements = _placements(body)
        grant = session.grant
        page = await self._page(session)
        outcome = await self.service.answer(
            grant.guild_id,
            grant.user_id,
            page.member_name,
            grant.subject_id,
            "",
            "",
            tiles=placements,
        )
        return await self._answer(session, outcome)

    async def move(self, session: BoardSession, body: dict[str, Any]) -> Mapping[str, Any]:
        """``{"from": "c4", "to": "f7", "promotion": null, "version": 1}`` as the chess
        page sends it: a chess puzzle's next move, judged as the Answer form's."""
        origin, target = _square(body.get("from")), _square(body.get("to"))
        promotion = body.get("promotion")
        if promotion is not None and (
            not isinstance(promotion, str) or promotion not in PROMOTIONS
        ):
            raise InvalidInputError(BAD_BODY)
        version = body.get("version")
        if not isinstance(version, int) or isinstance(version, bool):
            raise InvalidInputError(BAD_BODY)
        grant = session.grant
        page = await self._page(session)
        uci = f"{origin}{target}{promotion or ''}"
        outcome = await self.service.answer_move(
            grant.guild_id,
            grant.user_id,
            page.member_name,
            grant.subject_id,
            uci,
            expected_version=version,
        )
        answer = await self._answer(session, outcome)
        if not outcome.finished:
            # The board after the member's move, before the bot's reply (the state's last
            # move): the page shows it first. The service judged it legal there.
            board = chess.Board(page.fen)
            move = chess.Move.from_uci(uci)
            san = board.san(move)
            board.push(move)
            answer["played"] = {
                "board": board_rows(board),
                "last_move": {"from": origin, "to": target, "san": san},
                "check": _check(board),
            }
            # The form's answer goes on with the position in words: the board says it.
            answer["message"] = answer["message"].split("\n\n", 1)[0]
        return answer

    async def solution(self, session: BoardSession, body: dict[str, Any]) -> Mapping[str, Any]:
        """Show solution: the attempt given up (not solved), the top plays shown."""
        grant = session.grant
        page = await self._page(session)
        outcome = await self.service.show_solution(
            grant.guild_id, grant.user_id, page.member_name, grant.subject_id
        )
        return await self._answer(session, outcome)

    async def _answer(self, session: BoardSession, outcome: AnswerOutcome) -> dict[str, Any]:
        """The form's answer, and the state it left; the solution that ends a finished
        attempt's answer is the state's (the page shows it once, under the answers), and
        so is a chess puzzle's rating line (the state's ``result``)."""
        state = await self.state(session)
        message = say.plain_text(outcome.text)
        solution = state["solution"]
        if solution and message.endswith(solution):
            message = message[: -len(solution)].rstrip()
        result = state.get("result")
        if result:
            message = "\n".join(line for line in message.split("\n") if line != result["text"])
        return {"message": message, "finished": outcome.finished, "state": state}


def scrabble_state(page: PuzzlePage) -> dict[str, Any]:
    """What the Scrabble board's module draws, for a puzzle: its board and rack, what the
    member may do (answer, give up), where it stands; no seats, bag or clock."""
    playing = not page.finished
    return {
        "game": "scrabble",
        "version": page.version,
        "number": page.puzzle_id,
        "status": "active" if playing else "finished",
        "phase": page.status,
        "board": list(page.rows),
        "premiums": list(PREMIUM_ROWS),
        "last": [],
        "rack": page.rack,
        "values": LETTER_VALUES,
        "points": {str(v): points_text(v) for v in sorted(set(LETTER_VALUES.values()))},
        "my_turn": playing,
        "tries_left": page.tries_left,
        "can": {"play": playing, "solution": playing},
        "status_text": say.status_text(page.status, page.tries_left),
        "result_text": "",
        "last_text": say.source_text(
            page.game_number, page.move, page.rating, page.solved, page.tried
        ),
        "answers": [say.answer_line(play, score) for play, score in page.answers],
        "solution": say.plain_text(page.solution),
    }


def chess_state(page: PuzzlePage) -> dict[str, Any]:
    """What the chess board's module draws, for a puzzle: the position from the solver's
    side, their legal moves while the attempt is open, the moves so far from the
    puzzle's position, and once it is over the solution line and the rating change; no
    players, clocks or draw offers."""
    playing = not page.finished
    board = chess.Board(page.fen)
    last = chess.Move.from_uci(page.last_move) if page.last_move else None
    change = (
        page.rating_after - page.rating_before
        if page.rating_after is not None and page.rating_before is not None
        else None
    )
    return {
        "game": "chess",
        "version": page.version,
        "number": page.puzzle_id,
        "status": "active" if playing else "finished",
        "phase": page.status,
        "fen": page.fen,
        "board": board_rows(board),
        "me": color_key(page.side),
        "turn": color_key(board.turn),
        "my_turn": playing,
        "last_move": (
            {
                "from": chess.square_name(last.from_square),
                "to": chess.square_name(last.to_square),
                "san": page.moves[-1] if page.moves else None,
            }
            if last is not None
            else None
        ),
        "check": _check(board),
        "legal": (
            {
                origin: [{"to": to, "promotion": promotion} for to, promotion in targets]
                for origin, targets in legal_targets(board).items()
            }
            if playing
            else {}
        ),
        "sans": list(page.moves),
        "first_move": {"number": page.move, "black": page.side == chess.BLACK},
        "clock": None,
        "can": {"move": playing, "solution": playing},
        "can_resign": False,
        "status_text": say.chess_status_text(page.status, page.side, started=bool(page.moves)),
        "last_text": say.chess_source_text(
            page.game_number, page.move, page.rating, page.solved, page.tried
        ),
        "solution": say.plain_text(page.solution),
        "line": list(page.line),
        "result": (
            {
                "solved": page.status == "solved",
                "rating": round(page.rating_after, 1),
                "rating_change": round(change, 1),
                "text": say.rating_text(page.rating_after, change),
            }
            if page.finished and page.rating_after is not None and change is not None
            else None
        ),
    }


def _check(board: chess.Board) -> str | None:
    king = board.king(board.turn) if board.is_check() else None
    return chess.square_name(king) if king is not None else None
