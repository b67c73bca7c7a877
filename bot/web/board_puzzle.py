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

A puzzle of another game (chess) gets its page here: a state of its own (``state``
picks it by ``PuzzlePage.kind``), its template (``board_puzzle_<game>.html``) and its
actions beside these; the link, the session and the routes stay the same.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from bot.errors import InvalidInputError, NotFoundError
from bot.messages import puzzles as msg
from bot.messages import puzzles_page as say
from bot.messages.errors import refusal
from bot.messages.i18n import _
from bot.messages.scrabble.page import points_text, preview_text
from bot.services import ServiceContext
from bot.services.board_links import BoardSession, Kind
from bot.services.puzzles.page import PuzzlePage, PuzzlePages
from bot.services.puzzles.service import AnswerOutcome, PuzzleService
from bot.web.board_scrabble import PREMIUM_ROWS, _placements
from bot.web.boards import Action
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
        return scrabble_state(await self._page(session))

    async def _page(self, session: BoardSession) -> PuzzlePage:
        grant = session.grant
        page = await self.pages.view(grant.guild_id, grant.user_id, grant.subject_id)
        if page.kind != "scrabble":  # a game whose puzzles have no page yet
            raise NotFoundError(_(msg.NO_SUCH_PUZZLE))
        return page

    def actions(self) -> Mapping[str, Action]:
        return {"preview": self.preview, "play": self.play, "solution": self.solution}

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
        attempt's answer is the state's (the page shows it once, under the answers)."""
        state = await self.state(session)
        message = say.plain_text(outcome.text)
        solution = state["solution"]
        if solution and message.endswith(solution):
            message = message[: -len(solution)].rstrip()
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
