"""The Scrabble computer: its moves, hints and post-game analysis, off the event loop.

Thin async wrappers over ``engines.scrabble.movegen``. Each call rebuilds the
game from its saved state (``ScrabbleGame.to_json()``), runs the generator in
the bot's worker processes (``bot.offload``: a search takes milliseconds of
CPU the event loop would otherwise give up; a worker's first call also loads
the word list by name and builds its graph, about half a second, and keeps
them) and returns plain, JSON-ready data, so the Scrabble service can log it,
apply it and render it without knowing the generator.

    move = await computer_move(game.to_json(), AiOptions(await lexicons.ref(name)), seat, "equity", seed)
    apply_move_description(game, seat, move, lexicon)   # in the service's unit of work

(It was ``bot.services.scrabble_ai``; the use cases that call it are in ``computer.py``.)

A move description (``MoveDescription``) is a dict with ``"type"`` one of:

* ``"play"``: ``word`` and ``position`` (what ``ScrabbleGame.play`` takes),
  ``notation`` ("8H QUIZ"), ``score``, ``placements`` ([["H8", "Q"], ["I8",
  "?i"]] for ``play_tiles``), ``tiles`` (rack tiles used, ``?`` = blank),
  ``main_word`` and ``leave``;
* ``"exchange"``: ``tiles``;
* ``"pass"``;
* ``"challenge"``: the last play holds a word the computer's list lacks;
* ``"accept"``: the computer accepts a play that ends the game.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import TypeVar, TypeVarTuple, Unpack

from bot.caches import keep_for_good
from bot.compute.scrabble import (
    AiOptions,
    ComputerMoveError,
    GameState,
    MoveDescription,
    analysis_of,
    can_play,
    computer_move_of,
    decide,
    describe_move,
    generator_for,
    hints_for,
    is_blocked_now,
    warm_graph,
)
from bot.lexicons import WordListRef
from bot.messages.scrabble import Analysis
from bot.offload import Offloader, current, offload
from engines.scrabble.game import ScrabbleGame
from engines.scrabble.lexicon import Lexicon
from engines.scrabble.movegen import LEVELS, MoveGenerator
from engines.scrabble.wordgraph import word_graph_ready

log = logging.getLogger(__name__)

T = TypeVar("T")
Ts = TypeVarTuple("Ts")

HINT_LIMIT = 3


async def _run(fn: Callable[[Unpack[Ts]], T], options: AiOptions | None, *args: *Ts) -> T:
    # A loaded list (a test's own) can't travel: that work stays in a thread.
    return await offload(fn, *args, thread=not (options or AiOptions()).portable)


async def computer_move(
    state: GameState, options: AiOptions | None, seat: int, level: str, seed: int
) -> MoveDescription:
    """The computer's action for ``seat`` at ``level`` ("strong", "equity", "casual").

    In an active game on the computer's turn: a challenge if the last play
    holds a phony (and challenges are on), else its play, exchange or pass.
    While a finishing play awaits the computer: challenge or accept. The same
    state, level and seed always give the same answer.
    """
    if level not in LEVELS:
        raise ComputerMoveError(f"the computer's levels are {', '.join(LEVELS)}")
    return await _run(computer_move_of, options, state, options, seat, level, seed)


def apply_move_description(
    game: ScrabbleGame, seat: int, move: MoveDescription, lexicon: Lexicon | None = None
) -> object:
    """Make a described move in ``game`` (the engine checks it again).

    Returns what the engine returns: a ``PlayResult``, the tiles an exchange
    drew, a ``ChallengeResult``, whether an accept ended the game, or None.
    """
    kind = move["type"]
    if kind == "play":
        return game.play(seat, move["word"], move["position"], lexicon=lexicon)
    if kind == "exchange":
        return game.exchange(seat, move["tiles"])
    if kind == "pass":
        game.pass_turn(seat)
        return None
    if kind == "challenge":
        return game.challenge(seat, lexicon)
    if kind == "accept":
        return game.accept(seat)
    raise ComputerMoveError(f"unknown move type {kind!r}")


async def hint(
    state: GameState, options: AiOptions | None, seat: int, limit: int = HINT_LIMIT
) -> list[MoveDescription]:
    """The best few moves for ``seat``'s rack by equity (plays and exchanges), best
    first, each a move description with its ``equity``. Empty: nothing to play
    and no exchange allowed (the seat can only pass)."""
    return await _run(hints_for, options, state, options, seat, limit)


async def analyse_game(state: GameState, options: AiOptions | None) -> Analysis:
    """Each turn beside the best play that was available.

    ``{"turns": [{"ply", "seat", "rack", "played", "score", "best", "best_score",
    "left_on_table", "in_word_list", "withdrawn"}, ...], "left_on_table": {seat:
    total}}``. ``best`` is None where no play was possible; ``in_word_list``
    False marks a play with a word the list lacks (it stood unchallenged).
    """
    return await _run(analysis_of, options, state, options)


async def has_valid_play(state: GameState, options: AiOptions | None, seat: int) -> bool:
    """Whether ``seat`` could still make a legal play (so a forced pass is not forced)."""
    return await _run(can_play, options, state, options, seat)


async def is_blocked(state: GameState, options: AiOptions | None) -> bool:
    """Whether no seat can play any more (the game ends blocked)."""
    return await _run(is_blocked_now, options, state, options)


async def warm_up(options: AiOptions | None = None) -> None:
    """Load the word list and build its graph now (at start-up, say), not on the first
    move: in this process (a thread), where the Scrabble service checks graph_ready."""
    await asyncio.to_thread(generator_for, options)


_warming: dict[object, asyncio.Task[None]] = {}
_failed: dict[
    int, Lexicon
] = {}  # lists whose graph could not be built (kept so the id stays theirs)
# The lists whose graph the CPU pool's workers have built, by name, with the pool they
# were built in (a pool made anew has not): this process does not build a graph it
# never walks (27 MiB for the built-in list).
_warm_in_pool: dict[str, Offloader] = {}


def _pool_key(options: AiOptions | None) -> str | None:
    """The list's name when the move generator's work on it runs in the CPU pool's
    workers (``options`` name a list they can load by name, and the pool has worker
    processes), else None: the work, and so the graph, is this process's."""
    if options is None or not options.portable or not current().in_processes:
        return None
    source = options.lexicon
    return source.name if isinstance(source, WordListRef) else str(source)


def graph_ready(lexicon: Lexicon, options: AiOptions | None = None) -> bool:
    """Whether the move generator for this word list can answer at once where its work
    runs (``options``, as the work is sent): the CPU pool's workers, or this process."""
    key = _pool_key(options)
    if key is not None:
        return _warm_in_pool.get(key) is current()
    return word_graph_ready(lexicon)


def start_warm_up(lexicon: Lexicon, options: AiOptions | None = None) -> None:
    """Build the word list's graph where the work runs (``graph_ready``), in the
    background, once at a time per list: callers inside a transaction use this
    instead of building it there (0.4 s for the built-in list, a few seconds for a
    large club list). In the CPU pool each worker is asked once; a worker made later
    (one that died is replaced) builds it on its first use."""
    pool_key = _pool_key(options)
    if pool_key is not None:
        pool = current()
        if _warm_in_pool.get(pool_key) is pool or pool_key in _warming:
            return

        async def warm_workers() -> None:
            try:
                await asyncio.gather(*(offload(warm_graph, options) for _ in range(pool.workers)))
                _warm_in_pool[pool_key] = pool
            except Exception:  # the next check asks again
                log.exception("building the move generator's word graph in the workers failed")
            finally:
                _warming.pop(pool_key, None)

        _warming[pool_key] = asyncio.get_running_loop().create_task(warm_workers())
        return
    key = id(lexicon)
    if word_graph_ready(lexicon) or key in _warming or _failed.get(key) is lexicon:
        return

    async def build() -> None:
        try:
            await asyncio.to_thread(MoveGenerator, lexicon)
            # The graph stays as long as the list: not rescanned by each full collection.
            keep_for_good()
        except Exception:  # logged once; this list is not tried again in the background
            log.exception("building the move generator's word graph failed")
            _failed[key] = lexicon
        finally:
            _warming.pop(key, None)

    _warming[key] = asyncio.get_running_loop().create_task(build())


__all__ = [
    "HINT_LIMIT",
    "AiOptions",
    "ComputerMoveError",
    "GameState",
    "MoveDescription",
    "analyse_game",
    "apply_move_description",
    "computer_move",
    "decide",
    "describe_move",
    "graph_ready",
    "has_valid_play",
    "hint",
    "is_blocked",
    "start_warm_up",
    "warm_up",
]
