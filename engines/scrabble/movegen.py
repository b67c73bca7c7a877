"""Every legal play for a position, the best of them, and a computer opponent.

    from engines.lexicon import load_lexicon
    from engines.scrabble.movegen import MoveGenerator

    generator = MoveGenerator(load_lexicon())
    plays = generator.generate(game.board_copy(), "AEINRST")   # every legal placement
    top = generator.best(board, rack, by="equity", bag_count=game.bag_count)
    move = generator.choose_play(game, seat, "equity", random.Random(seed))
    apply_move(game, seat, move, lexicon)                         # play / exchange / pass
    turns = generator.analyse(game)                               # per-turn best play

How plays are found (``_movegen_core.py``)
-------------------------------------------
Appel & Jacobson's algorithm ("The World's Fastest Scrabble Program", 1988)
over the word list as a DAWG (``wordgraph.py``: the shared lexicon's own DAWG,
re-shaped into linked Python objects once per lexicon and kept with it):

* *anchors* are the empty squares next to a tile (the centre on an empty
  board); every play covers at least one with a new tile;
* *cross-checks*: for each empty square, the letters that make a word with the
  tiles above and below it (or left and right, for plays down), with the
  points those tiles are worth;
* each play is made once, from its first anchor: what lies before that anchor
  is either the tiles already there or a prefix spelled from the rack on
  squares that are not anchors (these prefixes depend only on the rack, so
  they are spelled once per call and reused at every anchor); the rest is
  extended square by square, through tiles on the board, against the
  cross-checks;
* a lone tile that makes words both ways is kept by the across pass only.

Scores are added up during the search from the engine's own premium and
letter tables (``board.py``), the same sums ``Board.evaluate`` makes; the
tests compare every generated score with ``Board.evaluate``, and the whole
set of plays with a brute-force enumeration, over thousands of positions.

Leaves and equity
-----------------
Equity is score plus the value of the tiles kept (the *leave*). The table
``LEAVE_VALUES`` and the three adjustments below it were derived by self-play
with :func:`derive_leave_values` (``derive_leave_values(load_lexicon(),
games=1200, seed=2024)``, about 20 minutes): two "strongest play" computers
played 1,200 games on the built-in word list; every turn taken while the bag
still held tiles gave a sample (the tiles kept, and the points the same seat
scored on its next turn), 24,124 samples in all, and a least-squares fit of
those points on the count of each tile kept, the number of repeated tiles,
the vowel/consonant imbalance and "a Q kept without a U" gave the weights. A
weight is what keeping that tile is worth, in points of the next turn,
against drawing a fresh one: a blank +19, an S +4.5, a V -3.1, each repeat
-4.2. They describe greedy play (a Z is kept only when it had no good spot,
and then scores well next turn: +7.4), which is the play these levels make.
With the bag empty there is nothing to draw: equity is then the score, plus
twice the opponents' tiles for going out, minus twice the face value of the
tiles kept (what they cost at the end).

Levels for the computer
-----------------------
``"strong"`` makes the highest-scoring play; ``"equity"`` the play (or
exchange) with the best equity; ``"casual"`` picks at random, with the given
RNG, among the ten highest-scoring plays. With no play at all, every level
exchanges (best leave) when the bag allows it, else passes.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any, ClassVar, Literal, NamedTuple

from engines.scrabble._movegen_core import generate_raw
from engines.scrabble.board import Board, face_value, index_name, take_from_rack
from engines.scrabble.errors import NotYourTurnError, RackError, ScrabbleError, TurnError
from engines.scrabble.game import ACTIVE, MIN_BAG_TO_EXCHANGE, PlayResult, ScrabbleGame
from engines.scrabble.layout import BLANK, COLUMNS, SIZE, TILE_COUNTS
from engines.scrabble.lexicon import Lexicon, unknown_words
from engines.scrabble.wordgraph import WordGraph, word_graph

LEVELS = ("strong", "equity", "casual")
CASUAL_CHOICES = 10
MAX_RACK = 9
_VOWELS = frozenset("AEIOU")


# -- moves ----------------------------------------------------------------------------
#
# Each kind of move is a NamedTuple of its fields, subclassed to add the class
# constants a NamedTuple's own body cannot hold (``kind``, and ``score`` or
# ``notation`` where they never change). The subclasses' empty ``__slots__``
# keep the moves plain tuples, without a dict each.


class _PlayFields(NamedTuple):
    score: int
    tiles: tuple[tuple[int, str], ...]
    across: bool
    start: int
    length: int


class _ExchangeFields(NamedTuple):
    tiles: str


class _NoFields(NamedTuple):
    pass


class Play(_PlayFields):
    """A legal placement and its score (what :meth:`MoveGenerator.generate` returns).

    ``tiles`` are ``(square index, cell)`` in board order, a cell being an
    upper-case letter or a lower-case one for a blank. ``start``/``length``
    locate the main word (``across`` gives its direction). ``word`` and
    ``position`` are what ``ScrabbleGame.play`` takes; ``placements`` is what
    ``ScrabbleGame.play_tiles`` takes.
    """

    __slots__ = ()

    kind: ClassVar[Literal["play"]] = "play"

    @property
    def position(self) -> str:
        """GCG position of the main word: ``8H`` across, ``H8`` down."""
        row, col = divmod(self.start, SIZE)
        return f"{row + 1}{COLUMNS[col]}" if self.across else f"{COLUMNS[col]}{row + 1}"

    @property
    def word(self) -> str:
        """GCG word: new tiles as letters (a blank in lower case), ``.`` for tiles already there."""
        step = 1 if self.across else SIZE
        new = dict(self.tiles)
        return "".join(new.get(self.start + k * step, ".") for k in range(self.length))

    @property
    def notation(self) -> str:
        """The play in GCG notation: position, then word (``8H QUIZ``)."""
        return f"{self.position} {self.word}"

    @property
    def rack_tiles(self) -> str:
        """The tiles taken from the rack, a blank as ``?``."""
        return "".join(BLANK if cell.islower() else cell for _, cell in self.tiles)

    @property
    def squares(self) -> tuple[str, ...]:
        """The squares of the new tiles, by name (``H8``)."""
        return tuple(index_name(index) for index, _ in self.tiles)

    @property
    def placements(self) -> list[tuple[str, str]]:
        """``[("H8", "Q"), ("I8", "?i")]``: the form ``ScrabbleGame.play_tiles`` takes."""
        return [
            (index_name(index), f"{BLANK}{cell}" if cell.islower() else cell)
            for index, cell in self.tiles
        ]

    @property
    def bingo(self) -> bool:
        """Whether the play puts down seven tiles or more: a bingo."""
        return len(self.tiles) >= 7

    def spelled(self, board: Board) -> str:
        """The main word with the board's letters filled in (a blank in lower case)."""
        step = 1 if self.across else SIZE
        new = dict(self.tiles)
        return "".join(
            new.get(self.start + k * step) or board.cells[self.start + k * step] or "?"
            for k in range(self.length)
        )

    def leave(self, rack: str) -> str:
        """What stays on ``rack`` after this play."""
        return take_from_rack(rack, self.rack_tiles)


class Exchange(_ExchangeFields):
    """Swap ``tiles`` (``?`` = blank) for tiles from the bag."""

    __slots__ = ()

    kind: ClassVar[Literal["exchange"]] = "exchange"
    score: ClassVar[int] = 0

    @property
    def notation(self) -> str:
        """The exchange as a move list writes it: ``exchange AE?``."""
        return f"exchange {self.tiles}"

    def leave(self, rack: str) -> str:
        """What stays on ``rack`` after the exchange (before the draw)."""
        return take_from_rack(rack, self.tiles)


class Pass(_NoFields):
    """Pass the turn."""

    __slots__ = ()

    kind: ClassVar[Literal["pass"]] = "pass"
    score: ClassVar[int] = 0
    notation: ClassVar[str] = "pass"

    def leave(self, rack: str) -> str:
        """The rack as it was."""
        return rack


Move = Play | Exchange | Pass


class MoveGenError(ScrabbleError):
    """A request the move generator cannot answer (say, an unknown level)."""


# -- leaves -------------------------------------------------------------------------------

# What keeping one of a tile is worth, in points, against drawing a fresh tile
# (see the module docstring and derive_leave_values for where they come from).
LEAVE_VALUES: dict[str, float] = {
    "?": 19.1,
    "A": 0.0,
    "B": -1.6,
    "C": -0.1,
    "D": -0.2,
    "E": 0.1,
    "F": -2.2,
    "G": -2.3,
    "H": 2.4,
    "I": -1.1,
    "J": -1.4,
    "K": 0.4,
    "L": -1.6,
    "M": -0.1,
    "N": -0.9,
    "O": -1.5,
    "P": 0.3,
    "Q": 3.1,
    "R": -0.6,
    "S": 4.5,
    "T": -0.7,
    "U": -3.2,
    "V": -3.1,
    "W": -2.6,
    "X": 3.0,
    "Y": 1.0,
    "Z": 7.4,
}
# Each tile beyond the first of a letter (two Is, three Os...).
LEAVE_DUPLICATE = -4.2
# Per unit of |vowels - consonants| among the lettered tiles kept.
LEAVE_IMBALANCE = -1.1
# A Q kept without a U to play it with.
LEAVE_Q_WITHOUT_U = -7.6


def leave_value(leave: str) -> float:
    """What the tiles kept are worth on the next turn, in points (``?`` = blank)."""
    if not leave:
        return 0.0
    counts = Counter(leave)
    value = sum(LEAVE_VALUES.get(tile, 0.0) * count for tile, count in counts.items())
    value += LEAVE_DUPLICATE * sum(count - 1 for count in counts.values() if count > 1)
    vowels = sum(count for tile, count in counts.items() if tile in _VOWELS)
    consonants = sum(counts.values()) - vowels - counts.get(BLANK, 0)
    value += LEAVE_IMBALANCE * abs(vowels - consonants)
    if "Q" in counts and "U" not in counts:
        value += LEAVE_Q_WITHOUT_U
    return round(value, 2)


def _leave_features(leave: str) -> list[float]:
    """The regression's inputs for one leave (the order of ``_FEATURE_NAMES``)."""
    counts = Counter(leave)
    row = [float(counts.get(tile, 0)) for tile in _TILE_NAMES]
    row.append(float(sum(count - 1 for count in counts.values() if count > 1)))
    vowels = sum(count for tile, count in counts.items() if tile in _VOWELS)
    consonants = sum(counts.values()) - vowels - counts.get(BLANK, 0)
    row.append(float(abs(vowels - consonants)))
    row.append(1.0 if "Q" in counts and "U" not in counts else 0.0)
    return row


_TILE_NAMES = tuple(sorted(TILE_COUNTS))
_FEATURE_NAMES = _TILE_NAMES + ("duplicate", "imbalance", "q_without_u")


def equity(move: Move, rack: str, bag_count: int, unseen: str = "") -> float:
    """Score plus the worth of what ``move`` keeps (see the module docstring).

    ``unseen`` (the tiles this seat cannot see) only matters with the bag
    empty, where it is the opponents' racks.
    """
    leave = move.leave(rack)
    if bag_count > 0:
        return move.score + leave_value(leave)
    if not leave and move.kind == "play":
        return move.score + 2 * face_value(unseen)
    return move.score - 2 * face_value(leave)


# -- the generator ----------------------------------------------------------------------


def _cells(board: Board | Sequence[str]) -> list[str | None]:
    if isinstance(board, Board):
        return board.cells
    return Board.from_rows(list(board)).cells


def _normalise_rack(rack: str) -> str:
    text = "".join(rack.split()).upper()
    if any(tile != BLANK and not ("A" <= tile <= "Z") for tile in text):
        raise RackError("a rack holds letters and ? for a blank")
    if len(text) > MAX_RACK:
        raise RackError(f"a rack holds at most {MAX_RACK} tiles")
    return text


class MoveGenerator:
    """Plays, best plays, exchanges and computer moves over one lexicon.

    Cheap to create: the word graph is built once per lexicon object and kept
    (see :func:`engines.scrabble.wordgraph.word_graph`). Thread-safe for reads.
    """

    def __init__(self, lexicon: Lexicon) -> None:
        self.lexicon = lexicon
        self.graph: WordGraph = word_graph(lexicon)

    # -- plays -------------------------------------------------------------------------

    def generate(self, board: Board | Sequence[str], rack: str) -> list[Play]:
        """Every legal placement of ``rack`` (``?`` = blank) on ``board``, each with its score.

        "Legal" is the engine's rule plus the word list: connected (or over the
        centre on the first play), every word formed in the lexicon.
        """
        return generate_raw(self.graph, _cells(board), _normalise_rack(rack), play_type=Play)

    def has_valid_play(self, board: Board | Sequence[str], rack: str) -> bool:
        """Whether ``rack`` has any legal placement on ``board`` (stops at the first)."""
        return bool(generate_raw(self.graph, _cells(board), _normalise_rack(rack), first_only=True))

    def is_blocked(self, game: ScrabbleGame) -> bool:
        """Whether the game is stuck: it waits for a move, the bag is too small to
        exchange, no play is open to a challenge (one that is withdrawn would
        change the board), and no seat still playing has a legal play (in this
        word list).

        Then nothing but passes can follow, so the game may end at once
        (``ScrabbleGame.end_blocked``) instead of after six passes; a seat
        that could still play is never ended on.
        """
        if game.status != ACTIVE or game.bag_count >= game.exchange_minimum:
            return False
        board = game.board_copy()
        racks = game.racks
        playing = [seat for seat in game.turn_order if seat not in game.resigned]
        if any(game.can_challenge(seat) for seat in playing):
            return False
        return not any(self.has_valid_play(board, racks[seat]) for seat in playing)

    @staticmethod
    def exchanges(rack: str, bag_count: int) -> list[Exchange]:
        """Every distinct exchange the rules allow: none while the bag holds less than a
        full rack (7; 9 in the 9-tile variant, whose racks are full while the bag has
        tiles, so a rack's length says which)."""
        if bag_count < max(MIN_BAG_TO_EXCHANGE, len(_normalise_rack(rack))):
            return []
        tiles = "".join(sorted(_normalise_rack(rack)))
        found: dict[str, None] = {}
        for size in range(1, len(tiles) + 1):
            for chosen in combinations(tiles, size):
                found.setdefault("".join(chosen))
        return [Exchange(tiles) for tiles in found]

    def ranked(
        self,
        board: Board | Sequence[str],
        rack: str,
        *,
        by: str = "score",
        bag_count: int = 100,
        unseen: str = "",
        limit: int | None = None,
    ) -> list[tuple[Move, float]]:
        """Plays (and, by equity, exchanges) with their value, best first.

        ``by="score"`` ranks plays by points; ``by="equity"`` ranks plays and
        exchanges by :func:`equity`. Ties keep the generator's order, so the
        ranking is the same on every run.
        """
        rack = _normalise_rack(rack)
        plays: list[Play | Exchange] = list(self.generate(board, rack))
        scored: list[tuple[Move, float]]
        if by == "score":
            scored = [(move, float(move.score)) for move in plays]
        elif by == "equity":
            plays.extend(self.exchanges(rack, bag_count))
            # Many plays use the same tiles: work each leave out once.
            worth: dict[tuple[str, str], float] = {}
            scored = []
            for move in plays:
                used = move.rack_tiles if isinstance(move, Play) else move.tiles
                key = ("".join(sorted(used)), move.kind)
                base = worth.get(key)
                if base is None:
                    base = worth[key] = equity(move, rack, bag_count, unseen) - move.score
                scored.append((move, move.score + base))
        else:
            raise MoveGenError("rank plays by score or by equity")
        scored.sort(key=lambda pair: -pair[1])
        return scored if limit is None else scored[:limit]

    def best(
        self,
        board: Board | Sequence[str],
        rack: str,
        *,
        by: str = "score",
        bag_count: int = 100,
        unseen: str = "",
    ) -> Move | None:
        """The best play by score (None when there is none), or by equity (a play
        or an exchange; None when neither is possible)."""
        top = self.ranked(board, rack, by=by, bag_count=bag_count, unseen=unseen, limit=1)
        return top[0][0] if top else None

    # -- the computer opponent ---------------------------------------------------------

    def choose_play(self, game: ScrabbleGame, seat: int, level: str, rng: random.Random) -> Move:
        """The computer's move for ``seat`` at ``level`` (see ``LEVELS``)."""
        if level not in LEVELS:
            raise MoveGenError(f"the computer's levels are {', '.join(LEVELS)}")
        if game.status != ACTIVE:
            raise TurnError("the game is not waiting for a move")
        if game.current_seat != seat:
            raise NotYourTurnError("it is not the computer's turn", game.current_seat)
        board = game.board_copy()
        rack = game.racks[seat]
        bag = game.bag_count
        unseen = game.unseen_tiles(seat)
        if level == "equity":
            move = self.best(board, rack, by="equity", bag_count=bag, unseen=unseen)
            return move if move is not None else Pass()
        plays = self.ranked(board, rack, by="score")
        if not plays:
            return self._fallback(rack, bag, unseen)
        if level == "strong":
            return plays[0][0]
        return rng.choice(plays[:CASUAL_CHOICES])[0]

    def _fallback(self, rack: str, bag: int, unseen: str) -> Move:
        """No play: the exchange that keeps the best leave, or a pass."""
        options = [(move, equity(move, rack, bag, unseen)) for move in self.exchanges(rack, bag)]
        if not options:
            return Pass()
        return max(options, key=lambda pair: pair[1])[0]

    def should_challenge(self, game: ScrabbleGame, seat: int) -> bool:
        """Whether ``seat`` can challenge the last play and it holds a word not in the lexicon."""
        last = game.last_play
        if last is None or not game.can_challenge(seat):
            return False
        return bool(unknown_words(self.lexicon, last["words"]))

    # -- analysis ---------------------------------------------------------------------------

    def analyse(self, game: ScrabbleGame) -> list[TurnAnalysis]:
        """Each turn of ``game`` beside the best play that was available."""
        return self.analyse_moves(game.moves)

    def analyse_moves(
        self,
        moves: Iterable[dict[str, Any]],
        on_turn: Callable[[int, Board, list[Play]], None] | None = None,
    ) -> list[TurnAnalysis]:
        """The same from a move log (``ScrabbleGame.moves``): each play, exchange or
        pass (not the turns lost to a failed challenge) with the rack it was made
        from, the best play by score on that board and the points left on the table.

        ``on_turn(index, board, plays)`` is told of each analysed turn (its index in
        the returned list) with the board before the move and every play the rack had
        (puzzles keep a few positions so); the board changes after the call."""
        board = Board()
        turns: list[TurnAnalysis] = []
        last_play: dict[int, tuple[int, tuple[tuple[int, str], ...]]] = {}
        for ply, move in enumerate(moves):
            kind = move.get("type")
            if kind == "challenge" and move.get("result") == "withdrawn":
                seat = move["challenged_seat"]
                turn_index, tiles = last_play.pop(seat)
                board.remove(tiles)
                turns[turn_index] = turns[turn_index]._replace(score=0, withdrawn=True)
                turns[turn_index] = _with_left(turns[turn_index])
                continue
            if kind not in ("play", "exchange", "pass") or move.get("auto"):
                continue
            rack = move.get("rack", "")
            plays = self.generate(board, rack) if rack else []
            if on_turn is not None:
                on_turn(len(turns), board, plays)
            top = max(plays, key=_score, default=None)
            best = (
                f"{top.position} {top.spelled(board)}" if top is not None else None
            )  # on the board before the turn
            if kind == "play":
                evaluation = board.evaluate(move["word"], move["position"])
                played = f"{evaluation.position} {evaluation.words[0].spelled}"
                score = evaluation.score
                words = move.get("words") or [w.word for w in evaluation.words]
                found = not unknown_words(self.lexicon, words)
                board.apply(evaluation)
                last_play[move["seat"]] = (len(turns), evaluation.tiles)
            else:
                played = f"exchange {move['tiles']}" if kind == "exchange" else "pass"
                score = 0
                found = True
            turns.append(
                _with_left(
                    TurnAnalysis(
                        ply=ply,
                        seat=move["seat"],
                        rack=rack,
                        played=played,
                        score=score,
                        best=best,
                        best_score=top.score if top is not None else 0,
                        left_on_table=0,
                        in_word_list=found,
                        withdrawn=False,
                    )
                )
            )
        return turns


def _score(play: Play) -> int:
    return play.score


class TurnAnalysis(NamedTuple):
    """One turn next to the best play that was available (by score)."""

    ply: int  # index of the move in the log
    seat: int
    rack: str
    played: str  # "8H QUIZ" (the whole word, a blank in lower case), "exchange QV", "pass"
    score: int  # what the turn scored in the end (0 when withdrawn)
    best: str | None  # the best play ("8G TaURINE"); None when no play was possible
    best_score: int
    left_on_table: int  # best_score - score, never below 0
    in_word_list: bool  # False: the play formed a word the generator's list lacks
    withdrawn: bool  # the play was challenged off


def _with_left(turn: TurnAnalysis) -> TurnAnalysis:
    return turn._replace(left_on_table=max(0, turn.best_score - turn.score))


def points_left(turns: Iterable[TurnAnalysis]) -> dict[int, int]:
    """Total points left on the table, by seat."""
    totals: dict[int, int] = {}
    for turn in turns:
        totals[turn.seat] = totals.get(turn.seat, 0) + turn.left_on_table
    return totals


# -- applying a move ------------------------------------------------------------------


def apply_move(
    game: ScrabbleGame, seat: int, move: Move, lexicon: Lexicon | None = None
) -> PlayResult | str | None:
    """Make ``move`` in ``game``: the play's result, the tiles an exchange drew, or None."""
    if isinstance(move, Play):
        return game.play(seat, move.word, move.position, lexicon=lexicon)
    if isinstance(move, Exchange):
        return game.exchange(seat, move.tiles)
    game.pass_turn(seat)
    return None


# -- module-level shortcuts -----------------------------------------------------------


def generate(board: Board | Sequence[str], rack: str, lexicon: Lexicon) -> list[Play]:
    """Every legal placement of ``rack`` on ``board`` (``MoveGenerator.generate``)."""
    return MoveGenerator(lexicon).generate(board, rack)


def has_valid_play(board: Board | Sequence[str], rack: str, lexicon: Lexicon) -> bool:
    """Whether ``rack`` has any legal placement on ``board`` (``MoveGenerator.has_valid_play``)."""
    return MoveGenerator(lexicon).has_valid_play(board, rack)


def exchanges(rack: str, bag_count: int) -> list[Exchange]:
    """Every distinct exchange the rules allow (``MoveGenerator.exchanges``)."""
    return MoveGenerator.exchanges(rack, bag_count)


def best(
    board: Board | Sequence[str],
    rack: str,
    lexicon: Lexicon,
    *,
    by: str = "score",
    bag_count: int = 100,
    unseen: str = "",
) -> Move | None:
    """The best move for ``rack`` by score or equity (``MoveGenerator.best``)."""
    return MoveGenerator(lexicon).best(board, rack, by=by, bag_count=bag_count, unseen=unseen)


def choose_play(
    game: ScrabbleGame, seat: int, level: str, rng: random.Random, lexicon: Lexicon
) -> Move:
    """The computer's move for ``seat`` at ``level`` (``MoveGenerator.choose_play``)."""
    return MoveGenerator(lexicon).choose_play(game, seat, level, rng)


def analyse(game: ScrabbleGame, lexicon: Lexicon) -> list[TurnAnalysis]:
    """Each turn of ``game`` beside the best play that was available (``MoveGenerator.analyse``)."""
    return MoveGenerator(lexicon).analyse(game)


# -- deriving the leave table ---------------------------------------------------------


@dataclass(frozen=True)
class LeaveFit:
    """The result of :func:`derive_leave_values`."""

    tiles: dict[str, float]
    duplicate: float
    imbalance: float
    q_without_u: float
    samples: int


def derive_leave_values(lexicon: Lexicon, games: int = 400, seed: int = 2024) -> LeaveFit:
    """Fit the leave table by self-play (slow: minutes; the table above is its output).

    Two "strong" computers play ``games`` games (``ScrabbleOptions(turn_order=
    "fixed", challenge="void")``, game ``k`` seeded ``seed + k``; 1,200 games
    take about 20 minutes). Each turn
    made while the bag still held tiles gives a sample: the tiles kept and
    the points the same seat scored on its next turn. Least squares on the
    features of ``_leave_features`` (with an intercept, the points of a turn
    that kept nothing) gives the weights, rounded to a tenth.
    """
    from engines.scrabble.game import ScrabbleOptions  # the options are only needed here

    generator = MoveGenerator(lexicon)
    rows: list[list[float]] = []
    targets: list[float] = []
    options = ScrabbleOptions(turn_order="fixed", challenge="void")
    for number in range(games):
        game = ScrabbleGame.new(options, seed + number)
        rng = random.Random(seed + number)
        pending: dict[int, list[float]] = {}
        while game.status == ACTIVE:
            seat = game.current_seat
            rack = game.racks[seat]
            move = generator.choose_play(game, seat, "strong", rng)
            if seat in pending:
                rows.append(pending.pop(seat))
                targets.append(float(move.score))
            if game.bag_count > 0:
                pending[seat] = [1.0] + _leave_features(move.leave(rack))
            apply_move(game, seat, move, lexicon)
    weights = _least_squares(rows, targets)
    # One weight per column of the rows: the intercept, then each feature.
    rounded = (round(w, 1) + 0.0 for w in weights)
    named = dict(zip(("intercept",) + _FEATURE_NAMES, rounded, strict=True))
    return LeaveFit(
        tiles={tile: named[tile] for tile in _TILE_NAMES},
        duplicate=named["duplicate"],
        imbalance=named["imbalance"],
        q_without_u=named["q_without_u"],
        samples=len(rows),
    )


def _least_squares(rows: list[list[float]], targets: list[float]) -> list[float]:
    """Solve the normal equations (with a whisker of ridge for tiles never kept)."""
    width = len(rows[0])
    gram = [[0.0] * width for _ in range(width)]
    moment = [0.0] * width
    for row, target in zip(rows, targets, strict=True):  # appended in step
        for i, a in enumerate(row):
            if a:
                moment[i] += a * target
                line = gram[i]
                for j, b in enumerate(row):
                    if b:
                        line[j] += a * b
    for i in range(1, width):
        gram[i][i] += 1e-6
    # Gaussian elimination with partial pivoting.
    for col in range(width):
        pivot = max(range(col, width), key=lambda r: abs(gram[r][col]))
        gram[col], gram[pivot] = gram[pivot], gram[col]
        moment[col], moment[pivot] = moment[pivot], moment[col]
        for r in range(col + 1, width):
            factor = gram[r][col] / gram[col][col]
            if factor:
                for c in range(col, width):
                    gram[r][c] -= factor * gram[col][c]
                moment[r] -= factor * moment[col]
    solution = [0.0] * width
    for r in range(width - 1, -1, -1):
        solution[r] = (
            moment[r] - sum(gram[r][c] * solution[c] for c in range(r + 1, width))
        ) / gram[r][r]
    return solution


__all__ = [
    "CASUAL_CHOICES",
    "LEAVE_VALUES",
    "LEVELS",
    "Exchange",
    "LeaveFit",
    "Move",
    "MoveGenError",
    "MoveGenerator",
    "Pass",
    "Play",
    "TurnAnalysis",
    "analyse",
    "apply_move",
    "best",
    "choose_play",
    "derive_leave_values",
    "equity",
    "exchanges",
    "generate",
    "has_valid_play",
    "leave_value",
    "points_left",
]
