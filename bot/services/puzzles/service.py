"""``PuzzleService``: puzzles from the club's finished Scrabble and chess games (issue #31).

- Finding them: a finished game's job (``hooks.JOB_FIND``) searches it in its prepare
  step (no database transaction open). A Scrabble game is replayed with the move
  generator in a worker process, and each position whose best play beat the move made
  by ``PUZZLE_MARGIN`` points is kept. A chess game is searched by one Stockfish process
  (``puzzles.chess``, only when Stockfish is configured), and each position where one
  move was clearly best and the game's move was another is kept, with its solution
  line. A second run of the job adds nothing (one row per game and ply).
- Chess puzzles are solved move by move (``answer_move``): a right move gets the bot's
  reply and the next move asked for; a wrong one fails the puzzle (one try, as on
  Lichess); a move that is not legal there is refused and changes nothing. Without
  Stockfish no chess puzzles are found (``kinds``); those found before stay offered
  (their stored line is all solving needs), and with none ``/puzzle game:chess`` says
  why.
- Solving them: ``next_puzzle`` gives a member a puzzle of their club's they have not
  tried (one from a game they did not play in first, then the nearest to their puzzle
  rating), or the one they have under way; ``answer`` judges a play on its board (any
  play scoring the best score solves it; a play the board, rack or word list refuses
  is explained and counts as a try), three tries; ``show_solution`` gives up.
- A finished attempt moves the member's puzzle rating and the puzzle's own, one
  Glicko-2 period each (``engines.ratings``: the puzzle is the opponent), and a
  solved one counts for the member's streak: days in a row (club time zone) with a
  puzzle solved.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, tzinfo
from typing import Any

import chess

from bot.compute.puzzles import puzzles_of
from bot.compute.scrabble import AiOptions
from bot.context import ServiceContext
from bot.db.models import JobRecord
from bot.db.models_puzzles import PuzzleAttemptRecord, PuzzleRecord
from bot.db.uow import UnitOfWork
from bot.errors import ConflictError, InvalidInputError, NotFoundError, StaleBoardError
from bot.messages import puzzles as msg
from bot.messages.errors import refusal
from bot.messages.i18n import _
from bot.messages.web import STALE_BOARD
from bot.offload import offload
from bot.scheduler import JobSpec
from bot.services import achievements
from bot.services.achievements import Streak
from bot.services.boggle.options import club_zone
from bot.services.chess.engine import StockfishEngine, engine_from_settings
from bot.services.puzzles.chess import CHESS, ChessPuzzleFinder
from bot.services.puzzles.hooks import JOB_FIND
from bot.services.scrabble.lexicons import ClubLexicons, WordLists
from bot.services.scrabble.loaded import KIND as SCRABBLE_KIND
from bot.services.scrabble.loaded import loaded_game
from engines.chess_game import ChessMoveError
from engines.chess_puzzles import ChessPuzzle, judge_move
from engines.ratings import glicko2
from engines.scrabble.board import read_typed_word
from engines.scrabble.errors import ScrabbleError
from engines.scrabble.puzzles import ScrabblePuzzle, judge, judge_tiles

log = logging.getLogger(__name__)

SCRABBLE = SCRABBLE_KIND
# Every kind of puzzle there is; a service offers chess only with Stockfish (``kinds``).
KINDS = (SCRABBLE, CHESS)
RATING_KIND = "puzzle"  # the members' puzzle ratings in ``ratings``
STREAK_KIND = "puzzle"  # days in a row with a puzzle solved (/stats, the 7-day achievement)
MAX_TRIES = 3
CHESS_TRIES = 1  # one wrong move fails a chess puzzle, as on Lichess


@dataclass(frozen=True)
class PuzzleView:
    """A puzzle as a member sees it: the board rows, the rack and what is left to try; a
    chess puzzle's ``fen`` (the position now, after the moves found so far), the move
    that led to it (``last_move``, UCI) and the moves so far (``so_far``, SAN)."""

    puzzle_id: int
    game_number: int
    move: int
    rows: tuple[str, ...]
    rack: str
    tries_left: int
    resumed: bool
    rating: float = 1500.0
    solved: int = 0
    tried: int = 0
    kind: str = SCRABBLE
    fen: str = ""
    last_move: str | None = None
    so_far: str = ""

    @property
    def color(self) -> chess.Color:
        """A chess puzzle's solver: the side to move (the board is drawn from it)."""
        return chess.Board(self.fen).turn if self.fen else chess.WHITE

    @property
    def text(self) -> str:
        """The words under the board image."""
        if self.kind == CHESS:
            return msg.chess_puzzle_text(
                self.puzzle_id,
                self.game_number,
                self.move,
                self.color,
                rating=self.rating,
                solved=self.solved,
                tried=self.tried,
                resumed=self.resumed,
                so_far=self.so_far,
            )
        return msg.puzzle_text(
            self.puzzle_id,
            self.game_number,
            self.move,
            self.rack,
            self.tries_left,
            rating=self.rating,
            solved=self.solved,
            tried=self.tried,
            resumed=self.resumed,
        )

    @property
    def description(self) -> str:
        """The board image's alt text."""
        if self.kind == CHESS:
            return msg.chess_board_alt_text(self.fen, self.color)
        return msg.board_alt_text(self.rows, self.rack)


@dataclass(frozen=True)
class AnswerOutcome:
    """What an answer (or "Show solution") did: ``status`` is the attempt's after it
    (open, solved, failed); ``text`` says so, with the solution once it is over; ``view``:
    the position to show next (a chess puzzle going on after a right move)."""

    puzzle_id: int
    status: str
    tries_left: int
    text: str
    rating: float | None = None
    rating_change: float | None = None
    view: PuzzleView | None = None

    @property
    def finished(self) -> bool:
        """Whether the attempt is over (solved or not)."""
        return self.status != "open"


@dataclass(frozen=True)
class PuzzleStreak:
    """Days in a row with a puzzle solved (going on, and the best run), the rating and
    how many puzzles were solved and missed."""

    current: int
    best: int
    rating: float | None
    solved: int = 0
    missed: int = 0


def streak_today(solved: list[datetime], zone: tzinfo | None, now: datetime) -> Streak:
    """The member's puzzle streak: days (in the club's time zone) with a puzzle solved,
    counted as every streak is (``achievements.streak_of``)."""
    days = [when.astimezone(zone).date().isoformat() for when in solved]
    return achievements.streak_of(STREAK_KIND, days, now.astimezone(zone).date())


class PuzzleService:
    """Finding, serving and judging puzzles; ``job_handlers()`` gives the scheduler its job."""

    def __init__(
        self,
        ctx: ServiceContext,
        *,
        lexicons: WordLists | None = None,
        chess_engine: StockfishEngine | None = None,
    ) -> None:
        self.ctx = ctx
        self.lexicons = lexicons or ClubLexicons(ctx)
        self.margin = int(getattr(ctx.settings, "puzzle_margin", 15))
        # None: no Stockfish configured, so no chess puzzles are found or offered.
        self.chess_engine = (
            chess_engine if chess_engine is not None else engine_from_settings(ctx.settings)
        )
        self.chess_finder = ChessPuzzleFinder(ctx, self.chess_engine)

    @property
    def kinds(self) -> tuple[str, ...]:
        """The kinds of puzzle found: chess only with Stockfish (those found before stay
        offered without it: a stored puzzle's line is all its solving needs)."""
        return KINDS if self.chess_engine is not None else (SCRABBLE,)

    def job_handlers(self) -> dict[str, JobSpec]:
        """The puzzle search job, with its prepare step."""
        return {JOB_FIND: JobSpec(self.on_game_finished, prepare=self.prepare_game_finished)}

    # -- finding puzzles ---------------------------------------------------------------

    async def prepare_game_finished(self, payload: dict[str, Any]) -> list[dict[str, Any]] | None:
        """The game's puzzles, found before the job's transaction (the move generator's
        replay runs in a worker process; a chess game's search in Stockfish's); None when
        the game is not there to search."""
        chess_found: tuple[list[str], list[chess.Color]] | None = None
        found: tuple[dict[str, Any], str, list[int]] | None = None
        try:
            async with self.ctx.reader() as uow:
                record = await uow.games.get(int(payload["game_id"]))
                if record.kind == CHESS:
                    chess_found = await self.chess_finder.searchable(uow, record.id)
                elif record.kind == SCRABBLE:
                    found = await self._searchable(uow, record.id)
        except NotFoundError:
            return None
        if chess_found is not None:  # Stockfish's own process: the loop only waits
            return await self.chess_finder.search(*chess_found)
        if found is None:
            return None
        state, lexicon, seats = found
        words = await self.lexicons.ref(lexicon)
        options = AiOptions(words)
        return await offload(
            puzzles_of, state, options, seats, self.margin, thread=not options.portable
        )

    async def _searchable(
        self, uow: UnitOfWork, game_id: int
    ) -> tuple[dict[str, Any], str, list[int]] | None:
        """A finished Scrabble game's saved state, word list and the seats members held
        (the computer's turns are its own choices, not lessons); None for anything else."""
        record = await uow.games.get(game_id, kind=SCRABBLE)
        if record.status != "finished":
            return None
        loaded = await loaded_game(uow, record)
        if loaded.engine is None or loaded.engine.options.room:
            return None  # over the board: no racks were ever known
        seats = [s for s in range(loaded.engine.seats) if not loaded.is_computer(s)]
        return loaded.engine.to_json(), loaded.settings.lexicon, seats

    async def on_game_finished(
        self, uow: UnitOfWork, job: JobRecord, prepared: list[dict[str, Any]] | None = None
    ) -> None:
        """Job ``JOB_FIND``: store the game's puzzles (those not stored by an earlier run)."""
        game_id = int(job.payload["game_id"])
        try:
            record = await uow.games.get(game_id)
        except NotFoundError:
            return
        if record.kind == CHESS:
            await self.chess_finder.store(uow, record, prepared)
            return
        if record.kind != SCRABBLE:
            return
        if prepared is None:
            found = await self._searchable(uow, game_id)
            if found is None:
                return
            state, lexicon, seats = found
            words = await self.lexicons.ref(lexicon)
            options = AiOptions(words)
            prepared = await offload(
                puzzles_of, state, options, seats, self.margin, thread=not options.portable
            )
        loaded = await loaded_game(uow, record)
        have = await uow.puzzles.plies_of_game(game_id)
        rows = []
        for data in prepared:
            if int(data["ply"]) in have:
                continue
            seat = int(data["seat"])
            facts = {
                **data,
                "lexicon": loaded.settings.lexicon,
                "game_number": record.number,
                "who": loaded.name(seat),
            }
            rows.append(
                PuzzleRecord(
                    guild_id=record.guild_id,
                    kind=SCRABBLE,
                    game_id=game_id,
                    ply=int(data["ply"]),
                    data=facts,
                    rating=1500.0,
                    rd=350.0,
                    volatility=0.06,
                    attempts=0,
                    solved=0,
                    created_at=self.ctx.clock(),
                )
            )
        if rows:
            await uow.puzzles.add(rows)
        log.info("Scrabble #%s: %d new puzzles", record.number, len(rows))

    # -- solving them ------------------------------------------------------------------

    async def next_puzzle(
        self, guild_id: int, user_id: int, display_name: str, kind: str = SCRABBLE
    ) -> PuzzleView:
        """The member's puzzle under way, or a new one (see the module): the club's daily
        puzzle of today first, when the member has not tried it."""
        if kind not in KINDS:
            raise InvalidInputError(_(msg.UNKNOWN_KIND))
        async with self.ctx.uow() as uow:
            guild = await uow.guilds.ensure(guild_id)
            await uow.players.ensure(user_id, display_name)
            attempt = await uow.puzzles.open_attempt(guild_id, kind, user_id)
            resumed = attempt is not None
            if attempt is not None:
                puzzle = await uow.puzzles.get(attempt.puzzle_id)
                assert puzzle is not None  # the attempt's row holds a key to it
            else:
                rating = await uow.ratings.get_or_new(guild_id, RATING_KIND, user_id)
                today = self.ctx.clock().astimezone(club_zone(guild.timezone)).date()
                found = await uow.puzzle_dailies.untried_today(
                    guild_id, today.isoformat(), kind, user_id
                ) or await uow.puzzles.next_for(guild_id, kind, user_id, rating.rating)
                if found is None:
                    # Chess puzzles already found are solved from their stored line: only
                    # finding new ones needs Stockfish, so its absence is news only here.
                    none_yet = await uow.puzzles.count(guild_id, kind) == 0
                    if kind == CHESS:
                        empty = (
                            msg.NO_CHESS_ENGINE
                            if self.chess_engine is None
                            else msg.NO_CHESS_PUZZLES
                        )
                    else:
                        empty = msg.NO_PUZZLES
                    raise InvalidInputError(_(empty if none_yet else msg.ALL_DONE))
                puzzle = found
                attempt = await uow.puzzles.add_attempt(
                    PuzzleAttemptRecord(
                        puzzle_id=puzzle.id,
                        guild_id=guild_id,
                        player_id=user_id,
                        status="open",
                        tries=0,
                        answers=[],
                        version=1,
                        started_at=self.ctx.clock(),
                    )
                )
            view = _view(puzzle, attempt, resumed=resumed)
            await uow.commit()
        return view

    async def open_puzzle(
        self, guild_id: int, user_id: int, display_name: str, puzzle_id: int
    ) -> PuzzleView | AnswerOutcome:
        """That puzzle for the member (the daily puzzle's Solve button): their attempt
        under way or a new one; one they finished shows its solution again."""
        async with self.ctx.uow() as uow:
            tried = await uow.puzzles.attempt(puzzle_id, user_id) is not None
            puzzle, attempt = await self._attempt(uow, guild_id, user_id, display_name, puzzle_id)
            if attempt.status != "open":
                return self._again(puzzle, attempt)
            view = _view(puzzle, attempt, resumed=tried)
            await uow.commit()
        return view

    async def answer(
        self,
        guild_id: int,
        user_id: int,
        display_name: str,
        puzzle_id: int,
        word: str,
        position: str,
        *,
        tiles: Sequence[tuple[str, str]] | None = None,
    ) -> AnswerOutcome:
        """Judge ``word`` at ``position`` on the puzzle's board (see the module); or, from
        the board page, ``tiles`` put down one by one (``[("H8", "Q"), ("H9", "?u")]``,
        ``word`` and ``position`` unused), judged the same way."""
        word, position = word.strip(), position.strip()
        if tiles is None and (not word or not position):
            raise InvalidInputError(_("Give the word and its position, like QUIZ and 8H."))
        if tiles is not None:
            word, position = "".join(t for _square, t in tiles), tiles[0][0] if tiles else ""
        async with self.ctx.uow() as uow:
            puzzle, attempt = await self._attempt(uow, guild_id, user_id, display_name, puzzle_id)
            if puzzle.kind != SCRABBLE:
                raise InvalidInputError(_(msg.GIVE_A_MOVE))
            if attempt.status != "open":
                return self._again(puzzle, attempt)
            lexicon = await self.lexicons.get(str(puzzle.data.get("lexicon") or "default"))
            position_ = ScrabblePuzzle.from_json(puzzle.data)
            tries = attempt.tries + 1
            left = MAX_TRIES - tries
            try:
                if tiles is None:
                    play = judge(position_, read_typed_word(word), position, lexicon)
                else:
                    play = judge_tiles(position_, tiles, lexicon)
            except ScrabbleError as exc:
                reason = refusal(InvalidInputError.passing_on(exc, sentence=True))
                answers = [*attempt.answers, [f"{position} {word}"[:40], None]]
                if left > 0:
                    await self._bump(uow, attempt, tries=tries, answers=answers)
                    await uow.commit()
                    return AnswerOutcome(puzzle.id, "open", left, msg.refused(reason, left))
                text = msg.refused(reason, None)
                return await self._finish(uow, puzzle, attempt, False, answers, text, tries)
            answers = [*attempt.answers, [play.notation, play.score]]
            if play.score >= position_.best_score:
                return await self._finish(uow, puzzle, attempt, True, answers, play.notation, tries)
            if left > 0:
                await self._bump(uow, attempt, tries=tries, answers=answers)
                await uow.commit()
                return AnswerOutcome(
                    puzzle.id, "open", left, msg.short_of_best(play.notation, play.score, left)
                )
            text = msg.short_of_best(play.notation, play.score, None)
            return await self._finish(uow, puzzle, attempt, False, answers, text, tries)

    async def answer_move(
        self,
        guild_id: int,
        user_id: int,
        display_name: str,
        puzzle_id: int,
        text: str,
        *,
        expected_version: int | None = None,
    ) -> AnswerOutcome:
        """Judge a chess puzzle's next move (SAN or UCI; see the module). The board page
        names the attempt's version it shows (0: none yet): a move made on a position
        the member has since moved on from (in Discord) is refused with
        ``StaleBoardError``, nothing changed, instead of being judged on another one."""
        if not text.strip():
            raise InvalidInputError(_(msg.GIVE_A_MOVE))
        async with self.ctx.uow() as uow:
            if expected_version is not None:
                seen = await uow.puzzles.attempt(puzzle_id, user_id)
                if (seen.version if seen is not None else 0) != expected_version:
                    raise StaleBoardError(STALE_BOARD)
            puzzle, attempt = await self._attempt(uow, guild_id, user_id, display_name, puzzle_id)
            if puzzle.kind != CHESS:
                raise InvalidInputError(_("Give the word and its position, like QUIZ and 8H."))
            if attempt.status != "open":
                return self._again(puzzle, attempt)
            position = ChessPuzzle.from_json(puzzle.data)
            try:
                verdict = judge_move(position, _found(attempt), text)
            except ChessMoveError as exc:  # not a legal move there: nothing changes
                raise InvalidInputError.passing_on(exc, sentence=True) from exc
            answers = [*attempt.answers, [verdict.said, verdict.right]]
            tries = attempt.tries + 1
            if not verdict.right:
                said = msg.chess_wrong_move(verdict.said)
                return await self._finish(uow, puzzle, attempt, False, answers, said, tries)
            if verdict.finished:
                return await self._finish(uow, puzzle, attempt, True, answers, verdict.said, tries)
            await self._bump(uow, attempt, tries=tries, answers=answers)
            view = _view(puzzle, attempt, resumed=False)
            await uow.commit()
        said = msg.chess_right_move(verdict.said, verdict.reply_san or "")
        return AnswerOutcome(puzzle.id, "open", CHESS_TRIES, f"{said}\n\n{view.text}", view=view)

    async def show_solution(
        self, guild_id: int, user_id: int, display_name: str, puzzle_id: int
    ) -> AnswerOutcome:
        """Give up the puzzle (it counts as not solved) and see its solution."""
        async with self.ctx.uow() as uow:
            puzzle, attempt = await self._attempt(uow, guild_id, user_id, display_name, puzzle_id)
            if attempt.status != "open":
                return self._again(puzzle, attempt)
            return await self._finish(uow, puzzle, attempt, False, list(attempt.answers), "", None)

    async def streak(self, guild_id: int, user_id: int) -> PuzzleStreak | None:
        """The member's puzzles in the club: streak, rating, solved and missed; None
        before any puzzle."""
        async with self.ctx.reader() as uow:
            solved = await uow.puzzles.solved_at(guild_id, user_id)
            ratings = await uow.ratings.for_member(guild_id, user_id)
            mine = next((r for r in ratings if r.game_kind == RATING_KIND and r.games), None)
            rating = mine.rating if mine is not None else None
            missed = mine.losses if mine is not None else 0
            guild = await uow.guilds.get(guild_id)
            zone = club_zone(guild.timezone if guild else None)
        if rating is None and not solved:
            return None
        streak = streak_today(solved, zone, self.ctx.clock())
        return PuzzleStreak(streak.current, streak.best, rating, len(solved), missed)

    # -- the parts ---------------------------------------------------------------------

    async def _attempt(
        self, uow: UnitOfWork, guild_id: int, user_id: int, display_name: str, puzzle_id: int
    ) -> tuple[PuzzleRecord, PuzzleAttemptRecord]:
        puzzle = await uow.puzzles.get(puzzle_id)
        if puzzle is None or puzzle.guild_id != guild_id:
            raise NotFoundError(_(msg.NO_SUCH_PUZZLE))
        attempt = await uow.puzzles.attempt(puzzle_id, user_id)
        if attempt is None:  # an answer to a puzzle the member never opened: open it now
            await uow.players.ensure(user_id, display_name)
            attempt = await uow.puzzles.add_attempt(
                PuzzleAttemptRecord(
                    puzzle_id=puzzle_id,
                    guild_id=guild_id,
                    player_id=user_id,
                    status="open",
                    tries=0,
                    answers=[],
                    version=1,
                    started_at=self.ctx.clock(),
                )
            )
        return puzzle, attempt

    async def _bump(self, uow: UnitOfWork, attempt: PuzzleAttemptRecord, **changes: Any) -> None:
        if not await uow.puzzles.bump(attempt, **changes):
            raise ConflictError(_("That answer crossed another one: look at the puzzle again."))

    async def _finish(
        self,
        uow: UnitOfWork,
        puzzle: PuzzleRecord,
        attempt: PuzzleAttemptRecord,
        solved: bool,
        answers: list[Any],
        said: str,
        tries: int | None,
    ) -> AnswerOutcome:
        """The attempt is over: both ratings move, the solution is shown."""
        now = self.ctx.clock()
        member = await uow.ratings.get_or_new(puzzle.guild_id, RATING_KIND, attempt.player_id)
        before, rd_before = member.rating, member.rd
        score = 1.0 if solved else 0.0
        member.rating, member.rd, member.volatility = glicko2(
            member.rating, member.rd, member.volatility, [(puzzle.rating, puzzle.rd, score)]
        )
        puzzle.rating, puzzle.rd, puzzle.volatility = glicko2(
            puzzle.rating, puzzle.rd, puzzle.volatility, [(before, rd_before, 1.0 - score)]
        )
        member.games += 1
        member.wins += solved
        member.losses += not solved
        member.last_played_at = now
        # A result row as a game's, so /leaderboard's puzzle table has its periods too.
        uow.results.record(
            guild_id=puzzle.guild_id,
            kind=RATING_KIND,
            player_id=attempt.player_id,
            played_at=now,
            outcome="win" if solved else "loss",
            round_ref=f"puzzle:{puzzle.id}",
            extra={
                "rating_before": round(before, 2),
                "rating_after": round(member.rating, 2),
            },
        )
        puzzle.attempts += 1
        puzzle.solved += solved
        await self._bump(
            uow,
            attempt,
            status="solved" if solved else "failed",
            tries=attempt.tries if tries is None else tries,
            answers=answers,
            rating_before=before,
            rating_after=member.rating,
            finished_at=now,
        )
        change = member.rating - before
        if solved:
            guild = await uow.guilds.get(puzzle.guild_id)
            zone = club_zone(guild.timezone if guild else None)
            days = await uow.puzzles.solved_at(puzzle.guild_id, attempt.player_id)
            streak = streak_today(days, zone, now).current
            await achievements.streak_reached(
                uow,
                guild_id=puzzle.guild_id,
                player_id=attempt.player_id,
                kind=STREAK_KIND,
                days=streak,
                now=now,
                channel_id=guild.default_channel_id if guild else None,
            )
            if puzzle.kind == CHESS:
                head = msg.chess_solved(said, member.rating, change, streak)
            else:
                best = ScrabblePuzzle.from_json(puzzle.data).best_score
                head = msg.solved(said, best, member.rating, change, streak)
        else:
            head = msg.failed(
                member.rating, change, gave_up=tries is None, one_try=puzzle.kind == CHESS
            )
            if said:
                head = f"{said}\n{head}"
        text = f"{head}\n\n{_solution(puzzle)}"
        await uow.commit()
        return AnswerOutcome(
            puzzle.id,
            "solved" if solved else "failed",
            0,
            text,
            rating=member.rating,
            rating_change=change,
        )

    def _again(self, puzzle: PuzzleRecord, attempt: PuzzleAttemptRecord) -> AnswerOutcome:
        solved = attempt.status == "solved"
        text = f"{msg.finished_before(solved)}\n\n{_solution(puzzle)}"
        return AnswerOutcome(puzzle.id, attempt.status, 0, text)


def _view(puzzle: PuzzleRecord, attempt: PuzzleAttemptRecord, *, resumed: bool) -> PuzzleView:
    if puzzle.kind == CHESS:
        return _chess_view(puzzle, attempt, resumed=resumed)
    data = puzzle.data
    return PuzzleView(
        puzzle_id=puzzle.id,
        game_number=int(data.get("game_number") or 0),
        move=int(data["ply"]) + 1,
        rows=tuple(data["board"]),
        rack=str(data["rack"]),
        tries_left=MAX_TRIES - attempt.tries,
        resumed=resumed,
        rating=puzzle.rating,
        solved=puzzle.solved,
        tried=puzzle.attempts,
    )


def _found(attempt: PuzzleAttemptRecord) -> int:
    """How many of a chess puzzle's moves the member has found (its right answers)."""
    return sum(1 for answer in attempt.answers if answer[1] is True)


def _chess_view(puzzle: PuzzleRecord, attempt: PuzzleAttemptRecord, *, resumed: bool) -> PuzzleView:
    """The chess puzzle's position after the moves the member found (and the replies)."""
    position = ChessPuzzle.from_json(puzzle.data)
    done = _found(attempt)
    start = chess.Board(position.fen)
    found = [chess.Move.from_uci(uci) for uci in position.line[: 2 * done]]
    return PuzzleView(
        puzzle_id=puzzle.id,
        game_number=int(puzzle.data.get("game_number") or 0),
        move=start.fullmove_number,
        rows=(),
        rack="",
        tries_left=CHESS_TRIES,
        resumed=resumed,
        rating=puzzle.rating,
        solved=puzzle.solved,
        tried=puzzle.attempts,
        kind=CHESS,
        fen=position.board_after(done).fen(),
        last_move=found[-1].uci() if found else position.last,
        so_far=start.variation_san(found) if found else "",
    )


def _solution(puzzle: PuzzleRecord) -> str:
    if puzzle.kind == CHESS:
        chess_position = ChessPuzzle.from_json(puzzle.data)
        return msg.chess_solution(
            chess_position.line_san(),
            chess_position.played_san(),
            int(puzzle.data.get("game_number") or 0),
            str(puzzle.data.get("who") or "?"),
        )
    position = ScrabblePuzzle.from_json(puzzle.data)
    return msg.solution(
        [(play.notation, play.score) for play in position.top],
        position.played,
        position.played_score,
        int(puzzle.data.get("game_number") or 0),
        str(puzzle.data.get("who") or "?"),
        withdrawn=position.withdrawn,
    )
