"""Helpers for the Scrabble engine tests: rigged positions, a random player,
and where the shared conformance set lives."""

from __future__ import annotations

import os
import random
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import pytest

from engines.scrabble import Board, ScrabbleError, ScrabbleGame, ScrabbleOptions
from engines.scrabble.layout import BLANK, TILE_COUNTS


class AcceptAll:
    """A lexicon that knows every word."""

    def __contains__(self, word: object) -> bool:
        return True


class RejectLetter:
    """A lexicon that knows every word without ``letter`` (so phonies are easy to make)."""

    def __init__(self, letter: str) -> None:
        self.letter = letter.upper()

    def __contains__(self, word: object) -> bool:
        return isinstance(word, str) and self.letter not in word.upper()


def repo_root() -> Path:
    for parent in Path(__file__).resolve().parents:
        if (parent / "pyproject.toml").exists():
            return parent
    raise RuntimeError("no pyproject.toml above the tests")


def conformance_dir() -> Path:
    """The shared GCG conformance folder; skip (or fail on CI) when it is absent."""
    folder = repo_root().parent / "shared" / "conformance" / "scrabble" / "gcg"
    if not folder.is_dir():
        message = (
            f"the Scrabble conformance set is not at {folder} (it lives beside the repository)"
        )
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    return folder


def conformance_files() -> list[Path]:
    folder = repo_root().parent / "shared" / "conformance" / "scrabble" / "gcg"
    return sorted(folder.glob("*.gcg")) + sorted(folder.glob("synthetic/*.gcg"))


def rigged_game(
    options: ScrabbleOptions | None = None,
    *,
    racks: list[str],
    bag: str | None = None,
    words: tuple[tuple[str, str], ...] = (),
    scores: list[int] | None = None,
    current_seat: int = 0,
) -> ScrabbleGame:
    """A game with chosen racks, board words and bag (drawn from the front).

    ``bag=None`` puts every other tile in the bag; an explicit bag leaves the
    rest lying on rows 1-6 and 12-15 of the board, out of the way of plays
    on rows 8 and 9.
    """
    options = options or ScrabbleOptions(turn_order="fixed")
    game = ScrabbleGame.new(options, seed=0)
    board = Board()
    for position, word in words:
        board.apply(board.evaluate(word, position))
    remaining = Counter(TILE_COUNTS)
    remaining.subtract(Counter("".join(racks)))
    remaining.subtract(Counter(board.tile_counts()))
    leftover = sorted(remaining.elements())
    if bag is None:
        random.Random(0).shuffle(leftover)
        bag = "".join(leftover)
    else:
        remaining.subtract(Counter(bag))
        assert min(remaining.values()) >= 0, "rigged tiles exceed the set"
        junk = sorted(remaining.elements())
        aside = list(range(0, 6 * 15)) + list(range(11 * 15, 15 * 15))
        assert len(junk) <= len(aside), "too many tiles to lay aside"
        for index, tile in zip(aside, junk, strict=False):
            board.cells[index] = "e" if tile == BLANK else tile
        board.count += len(junk)
    state = game.to_json()
    state.update(
        board=board.rows(),
        bag=bag,
        racks=list(racks),
        scores=scores or [0] * options.seats,
        current_seat=current_seat,
    )
    return ScrabbleGame.from_json(state)


def anchor_squares(game: ScrabbleGame) -> list[int]:
    """The empty squares next to a tile (the centre on an empty board)."""
    cells = game.board_copy().cells
    if all(cell is None for cell in cells):
        return [7 * 15 + 7]
    anchors = []
    for index, cell in enumerate(cells):
        if cell is not None:
            continue
        row, col = divmod(index, 15)
        neighbours = [(row + dr, col + dc) for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1))]
        if any(
            0 <= r < 15 and 0 <= c < 15 and cells[r * 15 + c] is not None for r, c in neighbours
        ):
            anchors.append(index)
    return anchors


def random_placement(
    game: ScrabbleGame, rng: random.Random, *, anchors: list[int] | None = None
) -> tuple[str, str] | None:
    """A (word, position) notation laying some of the current seat's tiles through an anchor.

    Not always legal (it may run off the board); the engine decides. ``anchors``: the
    board's anchor squares, when the caller tries many placements on one board (they
    are the costly part: the load benchmark's generator spent most of its time here).
    """
    rack = list(game.racks[game.current_seat])
    if anchors is None:
        anchors = anchor_squares(game)
    if not rack or not anchors:
        return None
    cells = game.board_copy().cells
    anchor = rng.choice(anchors)
    across = rng.random() < 0.5
    step = 1 if across else 15
    count = rng.randint(1, len(rack))
    if game.board_copy().is_empty:
        count = max(2, count) if len(rack) >= 2 else count
    tiles = rng.sample(rack, count)
    before = rng.randint(0, count - 1)
    # Walk back from the anchor over `before` empty squares (and any tiles between).
    start = anchor
    placed_before = 0
    row = anchor // 15
    while placed_before < before:
        nxt = start - step
        if nxt < 0 or (across and nxt // 15 != row):
            break
        start = nxt
        if cells[start] is None:
            placed_before += 1
    while True:  # include tiles touching the start so the notation begins the word
        nxt = start - step
        if nxt < 0 or (across and nxt // 15 != row) or cells[nxt] is None:
            break
        start = nxt
    notation = []
    index = start
    queue = list(tiles)
    while queue:
        if index >= 225 or (across and index // 15 != row):
            break
        if cells[index] is not None:
            notation.append(".")
        else:
            tile = queue.pop()
            # A blank as ?x: the notation reads the same typed into /scrabble play.
            notation.append(
                BLANK + rng.choice("abcdefghijklmnopqrstuvwxyz") if tile == BLANK else tile
            )
        index += step
    # ...and the tiles touching its end, so the notation is the whole word.
    while index < 225 and not (across and index // 15 != row) and cells[index] is not None:
        notation.append(".")
        index += step
    r, c = divmod(start, 15)
    cols = "ABCDEFGHIJKLMNO"
    position = f"{r + 1}{cols[c]}" if across else f"{cols[c]}{r + 1}"
    return "".join(notation), position


def play_randomly(
    game: ScrabbleGame,
    rng: random.Random,
    lexicon: object,
    max_actions: int = 600,
    after_each: Callable[[ScrabbleGame], None] | None = None,
    stop_after: int | None = None,
) -> None:
    """Drive ``game`` to its end (or ``stop_after`` actions) with random legal moves and challenges."""
    for action in range(max_actions):
        if after_each is not None:
            after_each(game)
        if game.status == "finished" or action == stop_after:
            return
        if game.status == "ending":
            others = [s for s in range(game.seats) if game.can_challenge(s)]
            if others and rng.random() < 0.5:
                game.challenge(rng.choice(others), lexicon)  # type: ignore[arg-type]
            else:
                game.close_challenge_window()
            continue
        challengers = [s for s in range(game.seats) if game.can_challenge(s)]
        if challengers and rng.random() < 0.3:
            game.challenge(rng.choice(challengers), lexicon)  # type: ignore[arg-type]
            continue
        seat = game.current_seat
        roll = rng.random()
        if roll < 0.04 and game.bag_count >= game.exchange_minimum:
            rack = game.racks[seat]
            game.exchange(seat, "".join(rng.sample(rack, rng.randint(1, len(rack)))))
            continue
        if roll < 0.07:
            game.pass_turn(seat)
            continue
        for _attempt in range(40):
            move = random_placement(game, rng)
            if move is None:
                break
            try:
                game.play(seat, move[0], move[1], lexicon=lexicon)  # type: ignore[arg-type]
                break
            except ScrabbleError:
                continue
        else:
            game.pass_turn(seat)
            continue
        if move is None:
            game.pass_turn(seat)
    raise AssertionError(f"the game did not end within {max_actions} actions: {game!r}")
