"""The Scrabble computer's CPU work, as the bot's worker processes run it.

Pure functions of plain data (a saved game as ``ScrabbleGame.to_json()`` gives it,
the word list by name) returning JSON-ready data; ``bot.services.scrabble.ai`` sends
them to the pool (``bot.offload``). They live outside ``bot.services`` so a worker
imports no database layer: about 40 MiB less per worker.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal, Required, TypedDict, cast

from bot.errors import ClubError
from bot.lexicons import WordListRef
from bot.messages.scrabble import Analysis, AnalysisTurn
from engines.lexicon import load_lexicon
from engines.scrabble.board import Board
from engines.scrabble.errors import ScrabbleError
from engines.scrabble.game import ACTIVE, ENDING, ScrabbleGame
from engines.scrabble.layout import COLUMNS, SIZE
from engines.scrabble.lexicon import Lexicon
from engines.scrabble.movegen import (
    Exchange,
    Move,
    MoveGenerator,
    Play,
    TurnAnalysis,
    points_left,
)

# A saved game as ``ScrabbleGame.to_json()`` gives it (the engine's own JSON).
GameState = Mapping[str, Any]


class MoveDescription(TypedDict, total=False):
    """A move as JSON-ready data (see the module docstring)."""

    type: Required[Literal["play", "exchange", "pass", "challenge", "accept"]]
    word: str
    position: str
    notation: str
    score: int
    placements: list[list[str]]
    tiles: str
    main_word: str
    leave: str
    equity: float


class ComputerMoveError(ClubError):
    """The computer was asked to move when it cannot (a finished game, not its turn)."""


@dataclass(frozen=True)
class AiOptions:
    """What the computer plays with.

    ``lexicon`` is a word list by reference (``WordListRef``, what the services
    pass: it travels to a worker process by name), a loaded word list
    (``engines.lexicon.Lexicon`` or any set of words: the work then stays in a
    thread of this process) or the name/path ``load_lexicon`` takes. Loaded
    lists are cached per process by ``engines.lexicon``.
    """

    lexicon: WordListRef | Lexicon | str = "default"

    @property
    def portable(self) -> bool:
        """Whether these options can be sent to a worker process (by name, not by value)."""
        source = self.lexicon
        return isinstance(source, str) or (isinstance(source, WordListRef) and source.portable)


def generator_for(options: AiOptions | None) -> MoveGenerator:
    source = (options or AiOptions()).lexicon
    if isinstance(source, WordListRef):
        lexicon = source.words()
    elif isinstance(source, str):
        lexicon = load_lexicon(source)
    else:
        lexicon = source
    return MoveGenerator(lexicon)


def warm_graph(options: AiOptions | None) -> None:
    """Load the word list and build its move generator's graph in this process (a
    worker's), kept there for the checks and moves that follow."""
    generator_for(options)


def describe_move(move: Move, game: ScrabbleGame, seat: int) -> MoveDescription:
    """A move as JSON-ready data (see the module docstring)."""
    rack = game.racks[seat]
    if isinstance(move, Play):
        return {
            "type": "play",
            "word": move.word,
            "position": move.position,
            "notation": move.notation,
            "score": move.score,
            "placements": [list(pair) for pair in move.placements],
            "tiles": move.rack_tiles,
            "main_word": move.spelled(game.board_copy()).upper(),
            "leave": move.leave(rack),
        }
    if isinstance(move, Exchange):
        return {"type": "exchange", "tiles": move.tiles, "leave": move.leave(rack)}
    return {"type": "pass"}


def computer_move_of(
    state: GameState, options: AiOptions | None, seat: int, level: str, seed: int
) -> MoveDescription:
    return decide(ScrabbleGame.from_json(dict(state)), generator_for(options), seat, level, seed)


def decide(
    game: ScrabbleGame, generator: MoveGenerator, seat: int, level: str, seed: int
) -> MoveDescription:
    """What :func:`computer_move` answers, on a game already in memory (blocking:
    call it from a worker thread). ``game`` is only read."""
    if game.status == ENDING:
        if not game.can_challenge(seat):
            raise ComputerMoveError("the computer has nothing to decide about the finishing play")
        return {"type": "challenge" if generator.should_challenge(game, seat) else "accept"}
    if game.status != ACTIVE:
        raise ComputerMoveError("the game is over")
    if game.current_seat != seat:
        raise ComputerMoveError("it is not the computer's turn")
    if generator.should_challenge(game, seat):
        return {"type": "challenge"}
    move = generator.choose_play(game, seat, level, random.Random(seed))
    return describe_move(move, game, seat)


def hints_for(
    state: GameState, options: AiOptions | None, seat: int, limit: int
) -> list[MoveDescription]:
    game = ScrabbleGame.from_json(dict(state))
    if game.status != ACTIVE:
        raise ComputerMoveError("the game is over")
    generator = generator_for(options)
    rack = game.racks[seat]
    ranked = generator.ranked(
        game.board_copy(),
        rack,
        by="equity",
        bag_count=game.bag_count,
        unseen=game.unseen_tiles(seat),
        limit=limit,
    )
    return [
        {**describe_move(move, game, seat), "equity": round(value, 1)} for move, value in ranked
    ]


def analysis_of(state: GameState, options: AiOptions | None) -> Analysis:
    game = ScrabbleGame.from_json(dict(state))
    turns = generator_for(options).analyse(game)
    return {
        "turns": [_turn(turn) for turn in turns],
        "left_on_table": {seat: total for seat, total in sorted(points_left(turns).items())},
    }


def _turn(turn: TurnAnalysis) -> AnalysisTurn:
    # The same fields, by construction (AnalysisTurn mirrors TurnAnalysis).
    return cast(AnalysisTurn, turn._asdict())


def can_play(state: GameState, options: AiOptions | None, seat: int) -> bool:
    game = ScrabbleGame.from_json(dict(state))
    return generator_for(options).has_valid_play(game.board_copy(), game.racks[seat])


def is_blocked_now(state: GameState, options: AiOptions | None) -> bool:
    return generator_for(options).is_blocked(ScrabbleGame.from_json(dict(state)))


def places_for(board: Board, rack: str, word: str) -> list[tuple[str, bool, str, int]]:
    """Every position where ``word`` can be played from ``rack`` on ``board``:
    ``(position, across, main word, score)`` (450 tries: a few milliseconds of CPU, so
    the position autocomplete runs it in a worker process as a member types)."""
    found = []
    for row in range(SIZE):
        for col in range(SIZE):
            for across in (True, False):
                position = f"{row + 1}{COLUMNS[col]}" if across else f"{COLUMNS[col]}{row + 1}"
                try:
                    evaluation = board.evaluate(word, position, rack=rack)
                except ScrabbleError:
                    continue
                found.append((position, across, evaluation.words[0].word, evaluation.score))
    return found
