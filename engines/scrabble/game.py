"""A game of Scrabble: seats, racks, the bag, turns, challenges and the end.

Pure and deterministic. Everything random comes from the game's ``seed``:

* ``new`` seeds ``random.Random(seed)`` once to draw for first play, shuffle
  the bag and deal. The shuffled bag order is part of the state, and tiles are
  always drawn from its front, so a saved and reloaded game draws exactly the
  same tiles.
* An exchange must mix the returned tiles back in. It shuffles the bag with
  ``random.Random(f"{seed}:exchange:{ply}")`` (``ply`` = moves logged so far):
  reproducible from the log alone, and no generator state to store.

The move log (``game.moves``) is a list of plain dicts. ``replay(options,
seed, moves)`` rebuilds an equal game from it without a word list, because a
challenge's verdict is logged with it. Entries marked ``"auto": True`` (a turn
lost to a failed challenge) are written by the engine itself and skipped on
replay, where they are written again.

Rules as implemented (RULES.md "Scrabble"; choices the rules leave open):

* Bingo: +50 for a play of 7 or more tiles. With 7-tile racks that is "all
  tiles"; with 9-tile racks any play of 7, 8 or 9 tiles earns one +50.
* Exchange: any number of tiles while the bag holds at least 7 (also with
  9-tile racks, as the rules sheet says).
* Challenges (``double``/``single``): the last play may be challenged by any
  other seat until the seat to move acts (plays, exchanges or passes). A play
  with a word not in the lexicon is withdrawn: its tiles go back to the rack,
  the tiles it drew go back to the front of the bag in the same order, its
  score is removed and the turn counts as scoreless. Under ``double`` a failed
  challenger loses their next turn (logged as an automatic pass). ``void``
  refuses plays with unknown words up front and has no challenges.
* Ending window: when a play would end the game (its seat plays out with the
  bag empty, or reaches ``target_score``) and challenges are on, the status is
  ``"ending"``. Nobody may move; the other seats may ``challenge`` (withdrawn
  play: the game goes on) or ``accept``; the game finishes when every other
  seat has accepted, a challenge fails, the service calls
  ``close_challenge_window()`` (e.g. on a timer) or the deadline passes.
* Scoreless turns: passes, exchanges, withdrawn plays, lost turns and
  0-point plays. Six in a row end the game under either end rule; with
  ``end_rule="two_passes"`` a seat that passes on two of its turns in a row
  (exchanges and lost turns do not count as passes) also ends it.
* Blocked: when the bag is too small to exchange and no seat can play (the
  service asks the move generator), ``end_blocked()`` ends the game at once,
  adjusted as six zeros would be.
* Adjustments (out-play, six zeros, deadline, blocked): each seat still playing loses
  the face value of its rack; a seat that played out gains the sum of the
  others'. Winner: highest final score, ties broken by the score before
  adjustments, otherwise every tied seat wins (a draw).
* Finish line (``target_score``): the first seat whose score reaches the
  target with a play that stands wins at once, with no rack adjustments.
* Over the board (``room``, RULES.md "In the room"): the tiles are real and the
  bot keeps only the tally, so it knows the board but not the racks. The bag
  is the pool of tiles not on the board; each seat's rack is a count (7 at the
  start, less what it plays, plus what the bag could give back), so a play of
  tiles the pool no longer holds, or of more tiles than the seat has, is refused,
  an exchange names only how many tiles, and a seat whose count reaches 0 with
  the bag empty has played out. Whoever enters first plays first. An ending
  that deducts unplayed tiles waits (status ``"racks"``) until each seat still
  playing has entered the tiles left on its rack (``enter_rack``: as many as
  its count, from the pool); then the usual adjustments apply. An opponent's
  rack entered while an ending play waits accepts that play.
* Resign: the seat loses and leaves. With two seats the game ends; with more
  the others play on (the resigned seat's tiles stay out of play with it) and
  the game ends when one seat is left. Resigned seats rank below the others,
  the earliest resigner last.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from engines.scrabble.board import (
    BINGO_TILES,
    Board,
    Evaluation,
    Tile,
    WordScore,
    face_value,
    index_name,
    parse_position,
    take_from_rack,
)
from engines.scrabble.errors import (
    ChallengeError,
    ExchangeError,
    GameOverError,
    InvalidWordError,
    LexiconRequiredError,
    NotationError,
    NotYourTurnError,
    RackError,
    ScrabbleError,
    StateFormatError,
    TurnError,
)
from engines.scrabble.layout import BLANK, SIZE, TILE_COUNTS
from engines.scrabble.lexicon import Lexicon, unknown_words
from engines.text import N_, Text

FORMAT = "clubbot.scrabble/1"
CHALLENGE_MODES = ("double", "single", "void")
END_RULES = ("six_zeros", "two_passes")
TURN_ORDERS = ("draw", "random", "fixed")
RACK_SIZES = (7, 9)
MIN_BAG_TO_EXCHANGE = 7  # a full rack of the standard game; see ``exchange_minimum``
SCORELESS_TURNS_TO_END = 6
TOTAL_TILES = sum(TILE_COUNTS.values())

# RULES.md finish-line defaults, by level then by number of seats.
FINISH_LINE_TARGETS: dict[str, dict[int, int]] = {
    "beginner": {2: 70, 3: 60, 4: 50},
    "intermediate": {2: 120, 3: 100, 4: 90},
    "expert": {2: 200, 3: 180, 4: 160},
}

ACTIVE, ENDING, FINISHED = "active", "ending", "finished"
RACKS = "racks"  # over the board: the game is over, waiting for the unplayed tiles


@dataclass(frozen=True)
class ScrabbleOptions:
    """How a Scrabble game plays: seats, rack size, challenge rule, end rule, finish line,
    and who plays first. Values outside the rules are refused."""

    seats: int = 2
    rack_size: int = 7
    challenge: str = "double"
    end_rule: str = "six_zeros"
    target_score: int | None = None
    turn_order: str = "draw"  # "draw" for first play, "random" seat, or "fixed" (seat 0)
    room: bool = False  # played over the board: the bot keeps the tally, not the racks

    def __post_init__(self) -> None:
        if not 2 <= self.seats <= 4:
            raise ScrabbleError(N_("a Scrabble game has 2 to 4 seats"))
        if self.rack_size not in RACK_SIZES:
            raise ScrabbleError(N_("racks hold 7 tiles (or 9 in the 9-tile variant)"))
        if self.challenge not in CHALLENGE_MODES:
            raise ScrabbleError(N_("the challenge rule is double, single or void"))
        if self.end_rule not in END_RULES:
            raise ScrabbleError(N_("the end rule is six_zeros or two_passes"))
        if self.turn_order not in TURN_ORDERS:
            raise ScrabbleError(N_("the turn order is draw, random or fixed"))
        if self.target_score is not None and self.target_score <= 0:
            raise ScrabbleError(N_("the finish line must be a positive score"))

    @classmethod
    def finish_line(cls, level: str, seats: int = 2, **others: Any) -> ScrabbleOptions:
        """Options for the finish-line variant at a RULES.md level."""
        try:
            target = FINISH_LINE_TARGETS[level][seats]
        except KeyError:
            raise ScrabbleError(
                N_("finish-line levels are {levels} for 2 to 4 seats"),
                levels=", ".join(FINISH_LINE_TARGETS),
            ) from None
        return cls(seats=seats, target_score=target, **others)

    def to_json(self) -> dict[str, Any]:
        """The options as stored with the game (``room`` only when set, so a game saved
        before it existed reads back equal)."""
        data = asdict(self)
        if not self.room:
            del data["room"]
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ScrabbleOptions:
        """The options ``to_json`` stored."""
        return cls(**data)


@dataclass(frozen=True)
class PlayResult:
    """A play made: its score and words, the new tiles, the tiles drawn (private to the
    seat), and whether it would end the game."""

    seat: int
    score: int
    words: tuple[WordScore, ...]  # main word first; show their definitions
    bingo: bool
    tiles: tuple[tuple[str, Tile], ...]  # (square, tile) of every new tile
    notation: str  # GCG style: "8H QUIZ", "H8 .UIZ"
    drawn: str  # the tiles drawn: private to the seat
    status: str  # "ending" when this play would end the game, pending challenges

    @property
    def main_word(self) -> str:
        """The play's main word, in upper case."""
        return self.words[0].word

    @property
    def squares(self) -> tuple[str, ...]:
        """The squares of the new tiles, by name."""
        return tuple(square for square, _ in self.tiles)


@dataclass(frozen=True)
class ChallengeResult:
    """How a challenge ended: the words challenged, those found invalid, whether the play
    was taken back (with its score), and who lost a turn."""

    challenger: int
    challenged_seat: int
    words: tuple[str, ...]
    invalid_words: tuple[str, ...]
    withdrawn: bool  # True: the play was taken back
    score_removed: int
    lost_turn_seat: int | None  # double challenge: the failed challenger
    status: str

    @property
    def valid(self) -> bool:
        """Whether the challenged play stood (every word valid)."""
        return not self.withdrawn


@dataclass(frozen=True)
class GameResult:
    """How a finished game ended: why, the scores before and after the end-of-game
    adjustments, the winners and each seat's rank."""

    reason: (
        str  # "out", "six_zeros", "two_passes", "deadline", "ended", "blocked", "target", "resign"
    )
    scores_before: tuple[int, ...]
    adjustments: tuple[int, ...]
    final_scores: tuple[int, ...]
    winners: tuple[int, ...]  # several seats = a draw between them
    ranks: tuple[int, ...]  # 1 = first; tied seats share a rank
    out_seat: int | None = None
    resigned: tuple[int, ...] = field(default_factory=tuple)
    # Ended at its deadline (or by a session's moderator) with no tile on the board:
    # nobody wins or loses, nothing is deducted, and it is not rated.
    no_contest: bool = False

    @property
    def is_draw(self) -> bool:
        """Whether several seats share the win."""
        return len(self.winners) > 1


def _is_bingo(pending: Mapping[str, Any]) -> bool:
    """Whether a pending play (``_pending``'s shape) put down 7 or more tiles."""
    return len(pending["tiles"]) >= BINGO_TILES


def _draw_for_first_play(rng: random.Random, seats: int) -> tuple[int, list[list[str | None]]]:
    """Each contender draws a tile; nearest A (a blank beats all) goes first; ties redraw."""
    tiles = [tile for tile, count in sorted(TILE_COUNTS.items()) for _ in range(count)]
    contenders = list(range(seats))
    rounds: list[list[str | None]] = []
    while True:
        drawn = rng.sample(tiles, len(contenders))  # tiles go back after every round
        this_round: list[str | None] = [None] * seats
        for seat, tile in zip(contenders, drawn, strict=True):  # one tile each
            this_round[seat] = tile
        rounds.append(this_round)
        best = min(-1 if tile == BLANK else ord(tile) for tile in drawn)
        contenders = [
            seat
            for seat, tile in zip(contenders, drawn, strict=True)
            if (-1 if tile == BLANK else ord(tile)) == best
        ]
        if len(contenders) == 1:
            return contenders[0], rounds


def _normalise_tiles(text: str) -> str:
    """``"a e, ?"`` -> ``"AE?"`` for exchanges."""
    out = []
    for ch in text:
        if ch in " ,;":
            continue
        if ch == BLANK:
            out.append(BLANK)
        elif ch.isascii() and ch.isalpha():
            out.append(ch.upper())
        else:
            raise NotationError(
                N_("I can't read {character} in the tiles: use letters and ? for a blank"),
                character=f"'{ch}'",
            )
    return "".join(out)


def _tile_list(evaluation: Evaluation) -> tuple[tuple[str, Tile], ...]:
    return tuple((index_name(i), Tile.from_cell(cell)) for i, cell in evaluation.tiles)


def square_index(square: str) -> int:
    """``"H8"`` or ``"8H"`` -> board index."""
    row, col, _ = parse_position(square)
    return row * SIZE + col


def _check_exchange_tiles(rack: str, wanted: str) -> None:
    """An exchange of tiles the rack lacks, said as an exchange (not a play's advice)."""
    for tile in dict.fromkeys(wanted):
        need, have = wanted.count(tile), rack.count(tile)
        if need <= have:
            continue
        name: Text | str = Text(N_("blank")) if tile == BLANK else tile
        if have == 0:
            raise ExchangeError(N_("you can't exchange {tile}: your rack has none"), tile=name)
        raise ExchangeError(
            N_("you can't exchange {count} × {tile}: your rack has only {have}"),
            count=need,
            tile=name,
            have=have,
        )


class ScrabbleGame:
    """One game's full state. Create with :meth:`new`, :meth:`from_json` or :meth:`replay`."""

    def __init__(self) -> None:  # use the constructors above
        self.options = ScrabbleOptions()
        self.seed = 0
        self.first_seat = 0
        self.first_draw: list[list[str | None]] = []
        self._board = Board()
        self._bag: list[str] = []
        self._racks: list[str] = []
        self._scores: list[int] = []
        self.current_seat = 0
        self.status = ACTIVE
        self._moves: list[dict[str, Any]] = []
        self._pending: dict[str, Any] | None = None
        self._lost_turns: list[int] = []
        self._resigned: list[int] = []  # in resignation order
        self._scoreless_run = 0
        self._passes_in_row: list[int] = []
        self._accepted: list[int] = []
        self._end: dict[str, Any] | None = None
        self._counts: list[int] = []  # over the board: tiles on each rack
        self._awaiting: dict[str, Any] | None = None  # over the board: the ending held for racks

    # -- construction -------------------------------------------------------------

    @classmethod
    def new(cls, options: ScrabbleOptions, seed: int) -> ScrabbleGame:
        """A new game from ``seed``: the first seat chosen as ``options.turn_order`` says, the
        bag shuffled and the racks dealt."""
        game = cls()
        game.options = options
        game.seed = seed
        rng = random.Random(seed)
        seats = options.seats
        if options.turn_order == "draw":
            game.first_seat, game.first_draw = _draw_for_first_play(rng, seats)
        elif options.turn_order == "random":
            game.first_seat = rng.randrange(seats)
        game.current_seat = game.first_seat
        bag = [tile for tile, count in sorted(TILE_COUNTS.items()) for _ in range(count)]
        rng.shuffle(bag)
        racks = [""] * seats
        for seat in game.turn_order:
            racks[seat] = "".join(bag[: options.rack_size])
            del bag[: options.rack_size]
        game._bag = bag
        game._racks = racks
        game._scores = [0] * seats
        game._lost_turns = [0] * seats
        game._passes_in_row = [0] * seats
        if options.room:
            # Nothing is dealt: the bag is every tile not on the board, a rack a count.
            game._bag = sorted(t for t, count in TILE_COUNTS.items() for _ in range(count))
            game.first_draw = []
            game.first_seat = game.current_seat = 0
            game._racks = [""] * seats
            game._counts = [options.rack_size] * seats
        return game

    @classmethod
    def replay(
        cls, options: ScrabbleOptions, seed: int, moves: Iterable[dict[str, Any]]
    ) -> ScrabbleGame:
        """Rebuild a game from its options, seed and move log (no word list needed)."""
        game = cls.new(options, seed)
        for move in moves:
            if not move.get("auto"):
                game._apply_logged(move)
        return game

    def apply_entry(self, move: dict[str, Any]) -> None:
        """Apply one logged entry as ``replay`` does (a correction of the tally over the
        board rebuilds the game entry by entry, to say which one no longer stands)."""
        self._apply_logged(move)

    def _apply_logged(self, move: dict[str, Any]) -> None:
        kind = move["type"]
        if kind == "play":
            self._require_turn(move["seat"])
            rack = None if self.options.room else self._racks[move["seat"]]
            evaluation = self._board.evaluate(move["word"], move["position"], rack=rack)
            self._commit_play(move["seat"], evaluation, lexicon=None, check_words=False)
        elif kind == "exchange" and self.options.room:
            self.exchange(move["seat"], str(move["count"]))
        elif kind == "exchange":
            self.exchange(move["seat"], move["tiles"])
        elif kind == "rack":
            self.enter_rack(move["seat"], move["tiles"])
        elif kind == "pass":
            self.pass_turn(move["seat"], timed_out=bool(move.get("timed_out")))
        elif kind == "challenge":
            self._check_challenge(move["seat"])
            self._settle_challenge(move["seat"], tuple(move["invalid_words"]))
        elif kind == "accept":
            self.accept(move["seat"])
        elif kind == "close":
            self.close_challenge_window()
        elif kind == "resign":
            self.resign(move["seat"])
        elif kind == "deadline":
            self.end_by_deadline(early=bool(move.get("early")))
        elif kind == "blocked":
            self.end_blocked()
        else:
            raise StateFormatError(f"unknown move type {kind!r} in the log")

    # -- read-only views ------------------------------------------------------------

    @property
    def seats(self) -> int:
        """How many seats the game has."""
        return self.options.seats

    @property
    def exchange_minimum(self) -> int:
        """The bag must hold a full rack to exchange (7, or 9 in the 9-tile variant),
        so the seat's rack stays full (RULES.md)."""
        return self.options.rack_size

    @property
    def turn_order(self) -> list[int]:
        """Seats in playing order, starting with the seat that played first."""
        return [(self.first_seat + k) % self.seats for k in range(self.seats)]

    @property
    def board(self) -> tuple[tuple[Tile | None, ...], ...]:
        """15x15 (row, column) grid of tiles; ``board[7][7]`` is H8."""
        return self._board.grid()

    def board_rows(self) -> list[str]:
        """15 strings: ``.`` empty, upper case a tile, lower case a blank."""
        return self._board.rows()

    def board_copy(self) -> Board:
        """A copy of the board, free to change (the game's own stays as it is)."""
        return self._board.copy()

    @property
    def racks(self) -> list[str]:
        """Each seat's rack, ``?`` for a blank. Private: show a seat only its own."""
        return list(self._racks)

    @property
    def bag_count(self) -> int:
        """How many tiles are left in the bag."""
        return len(self._bag) - sum(self._counts)

    @property
    def rack_counts(self) -> list[int]:
        """Over the board: how many tiles each seat holds (0 once its rack is entered)."""
        return list(self._counts) if self.options.room else [len(r) for r in self._racks]

    @property
    def awaiting_racks(self) -> list[int]:
        """Over the board, once the game is over: the seats whose unplayed tiles are due."""
        if self.status != RACKS:
            return []
        return [s for s in range(self.seats) if s not in self._resigned and self._counts[s]]

    @property
    def scores(self) -> list[int]:
        """Each seat's score."""
        return list(self._scores)

    @property
    def moves(self) -> list[dict[str, Any]]:
        """The move log. Entries hold racks (for GCG export): keep the log private."""
        return copy.deepcopy(self._moves)

    @property
    def resigned(self) -> list[int]:
        """The seats that resigned, in the order they did."""
        return list(self._resigned)

    @property
    def scoreless_turns(self) -> int:
        """How many scoreless turns in a row the game has had (six end it)."""
        return self._scoreless_run

    @property
    def last_play(self) -> dict[str, Any] | None:
        """Public facts of the last play still on the board (squares, score, words)."""
        if self._pending is None:
            return None
        p = self._pending
        return {
            "seat": p["seat"],
            "squares": [square for square, _ in p["tiles"]],
            "score": p["score"],
            "words": list(p["words"]),
            "notation": p["notation"],
        }

    def unseen_tiles(self, seat: int) -> str:
        """Tiles ``seat`` cannot see: the bag plus the other racks, sorted."""
        tiles = list(self._bag)
        for other, rack in enumerate(self._racks):
            if other != seat:
                tiles.extend(rack)
        return "".join(sorted(tiles))

    def can_challenge(self, seat: int) -> bool:
        """Whether ``seat`` may challenge the last play now."""
        try:
            self._check_challenge(seat)
        except ScrabbleError:
            return False
        return True

    def bingos_now_final(self, pending_before: Mapping[str, Any] | None) -> tuple[int, ...]:
        """The seats whose bingo (a play of 7 or more tiles) has just become final: on the
        board and past challenge. ``pending_before`` is ``to_json()["pending"]`` as saved
        before the moves since. Its bingo is final once its challenge window has closed,
        unless a challenge took it back (only a withdrawal leaves no play pending); a bingo
        played since is final at once when it cannot be challenged (``void``, or it ended
        the game). So a phony taken back is never one, and each is final once."""
        seats: list[int] = []
        now = self._pending
        if pending_before is not None and pending_before["open"] and now is not None:
            same = now["tiles"] == pending_before["tiles"]
            if not (same and now["open"]) and _is_bingo(pending_before):
                seats.append(pending_before["seat"])
        is_new = now is not None and (
            pending_before is None or now["tiles"] != pending_before["tiles"]
        )
        if is_new and now is not None and not now["open"] and _is_bingo(now):
            seats.append(now["seat"])
        return tuple(seats)

    def result(self) -> GameResult | None:
        """The final result once the game is finished, else None."""
        if self._end is None:
            return None
        e = self._end
        return GameResult(
            reason=e["reason"],
            scores_before=tuple(e["scores_before"]),
            adjustments=tuple(e["adjustments"]),
            final_scores=tuple(e["final_scores"]),
            winners=tuple(e["winners"]),
            ranks=tuple(e["ranks"]),
            out_seat=e["out_seat"],
            no_contest=bool(e.get("no_contest")),
            resigned=tuple(self._resigned),
        )

    def preview(
        self, seat: int, word: str, position: str, direction: str | None = None
    ) -> Evaluation:
        """Validate and score a play for ``seat`` without making it (e.g. to confirm)."""
        self._check_seat(seat)
        rack = None if self.options.room else self._racks[seat]
        return self._board.evaluate(word, position, direction, rack=rack)

    def preview_tiles(self, seat: int, placements: Sequence[tuple[str, str]]) -> Evaluation:
        """:meth:`preview` for loose tiles (as :meth:`play_tiles` takes them): the words
        they would form and the score, or the refusal the play would meet."""
        self._check_seat(seat)
        return self._board.evaluate_tiles(placements, rack=self._racks[seat])

    # -- moves ------------------------------------------------------------------------

    def play(
        self,
        seat: int,
        word: str,
        position: str,
        direction: str | None = None,
        lexicon: Lexicon | None = None,
    ) -> PlayResult:
        """Place ``word`` at ``position`` (``8H`` across, ``H8`` down).

        ``lexicon`` is required in ``void`` mode (unknown words are refused) and
        ignored otherwise (words are checked only when challenged).
        """
        self._require_turn(seat)
        rack = None if self.options.room else self._racks[seat]
        evaluation = self._board.evaluate(word, position, direction, rack=rack)
        return self._commit_play(seat, evaluation, lexicon, check_words=True)

    def play_tiles(
        self, seat: int, placements: Sequence[tuple[str, str]], lexicon: Lexicon | None = None
    ) -> PlayResult:
        """Place loose tiles, e.g. ``[("H8", "Q"), ("H9", "?i")]``."""
        self._require_turn(seat)
        evaluation = self._board.evaluate_tiles(placements, rack=self._racks[seat])
        return self._commit_play(seat, evaluation, lexicon, check_words=True)

    def _commit_play(
        self, seat: int, evaluation: Evaluation, lexicon: Lexicon | None, *, check_words: bool
    ) -> PlayResult:
        words = tuple(w.word for w in evaluation.words)
        if check_words and self.options.challenge == "void":
            if lexicon is None:
                raise LexiconRequiredError(
                    N_("this game checks words as they are played, but no word list was given")
                )
            invalid = unknown_words(lexicon, words)
            if invalid:
                if len(invalid) == 1:
                    template = N_("{words} is not in the word list")
                else:
                    template = N_("{words} are not in the word list")
                raise InvalidWordError(Text(template, words=", ".join(invalid)), invalid)
        rack_before = self._racks[seat]
        count_before = self._counts[seat] if self.options.room else None
        if self.options.room:
            drawn = ""
            self._room_play(seat, evaluation)
        else:
            remaining = take_from_rack(rack_before, evaluation.rack_tiles)
            self._board.apply(evaluation)
            drawn = self._draw(len(evaluation.tiles))
            self._racks[seat] = remaining + drawn
        self._scores[seat] += evaluation.score
        scoreless_before = self._scoreless_run
        self._scoreless_run = 0 if evaluation.score else self._scoreless_run + 1
        self._passes_in_row[seat] = 0
        self._moves.append(
            {
                "type": "play",
                "seat": seat,
                "position": evaluation.position,
                "word": evaluation.word,
                "score": evaluation.score,
                "words": list(words),
                "rack": rack_before,
            }
        )
        self._pending = {
            "seat": seat,
            "tiles": [[index_name(i), cell] for i, cell in evaluation.tiles],
            "drawn": drawn,
            "rack_before": rack_before,
            "score": evaluation.score,
            "words": list(words),
            "notation": evaluation.notation,
            "scoreless_before": scoreless_before,
            "open": self.options.challenge != "void",
            "ends": None,
        }
        if count_before is not None:
            self._pending["count_before"] = count_before
        ends = self._play_ends_game(seat)
        if ends is not None and self.options.challenge == "void":
            self._finish(ends, seat)
        elif ends is not None:
            self._pending["ends"] = ends
            self.status = ENDING
            self.current_seat = self._next_seat(seat)
        elif not self._scoreless_end(seat):
            self._advance()
        return PlayResult(
            seat=seat,
            score=evaluation.score,
            words=evaluation.words,
            bingo=evaluation.bingo,
            tiles=_tile_list(evaluation),
            notation=evaluation.notation,
            drawn=drawn,
            status=self.status,
        )

    def _play_ends_game(self, seat: int) -> str | None:
        target = self.options.target_score
        if target is not None and self._scores[seat] >= target:
            return "target"
        if not (self._counts[seat] if self.options.room else self._racks[seat]):
            return "out"
        return None

    def _room_play(self, seat: int, evaluation: Evaluation) -> None:
        """Over the board: the tiles come out of the pool and off the seat's count, which
        the bag tops up as far as it can."""
        placed = len(evaluation.tiles)
        if placed > self._counts[seat]:
            raise RackError(
                N_("this side has only {count} tiles left, and the play puts down {placed}"),
                count=self._counts[seat],
                placed=placed,
            )
        pool = list(self._bag)
        for tile in evaluation.rack_tiles:
            if tile not in pool:
                if tile == BLANK:
                    raise RackError(N_("both blanks are already on the board"))
                raise RackError(N_("all the {letter} tiles are already on the board"), letter=tile)
            pool.remove(tile)
        refill = min(placed, self.bag_count)
        self._board.apply(evaluation)
        self._bag = pool
        self._counts[seat] += refill - placed

    def enter_rack(self, seat: int, tiles: str) -> None:
        """Over the board, once the game is over: the tiles left on ``seat``'s rack (``?`` =
        a blank); when every seat still playing has entered its own, the game ends with
        the usual adjustments. While a finishing play waits, an opponent's rack accepts it."""
        self._check_seat(seat)
        if not self.options.room:
            raise TurnError(N_("only a game over the board takes the tiles left on a rack"))
        if self.status == ENDING:
            # The room has moved on to counting tiles: the finishing play stands.
            assert self._pending is not None
            if seat == self._pending["seat"]:
                raise TurnError(N_("the play that ends the game must be accepted first"))
            for other in range(self.seats):
                waiting = other not in self._resigned and other not in self._accepted
                if self.status == ENDING and other != self._pending["seat"] and waiting:
                    self.accept(other)
        if self.status != RACKS:
            raise TurnError(N_("the tiles left on the racks are entered once the game is over"))
        if seat not in self.awaiting_racks:
            raise TurnError(N_("this side's tiles are in already"))
        rack = _normalise_tiles(tiles)
        if len(rack) != self._counts[seat]:
            raise RackError(
                N_("this side should have {count} tiles left, not {given}"),
                count=self._counts[seat],
                given=len(rack),
            )
        try:
            pool = take_from_rack("".join(self._bag), rack)
        except RackError:
            raise RackError(
                N_("those tiles are not all left: some of them are on the board or on another rack")
            ) from None
        self._bag = list(pool)
        self._racks[seat] = rack
        self._counts[seat] = 0
        self._moves.append({"type": "rack", "seat": seat, "tiles": rack, "score": 0})
        if not self.awaiting_racks:
            assert self._awaiting is not None
            awaiting, self._awaiting = self._awaiting, None
            self._finish(awaiting["reason"], awaiting["seat"])

    def exchange(self, seat: int, tiles: str) -> str:
        """Swap ``tiles`` (``?`` = blank) for new ones; returns the tiles drawn (private)."""
        self._require_turn(seat)
        if self.options.room:
            return self._room_exchange(seat, tiles)
        wanted = _normalise_tiles(tiles)
        if not wanted:
            raise ExchangeError(N_("say which tiles to exchange"))
        if len(self._bag) < self.exchange_minimum:
            raise ExchangeError(
                N_(
                    "you can exchange only while the bag holds at least {minimum} tiles; "
                    "it holds {count}"
                ),
                minimum=self.exchange_minimum,
                count=len(self._bag),
            )
        rack_before = self._racks[seat]
        _check_exchange_tiles(rack_before, wanted)
        remaining = take_from_rack(rack_before, wanted)
        self._end_challenge_window()
        drawn = self._draw(len(wanted))
        self._bag.extend(wanted)
        random.Random(f"{self.seed}:exchange:{len(self._moves)}").shuffle(self._bag)
        self._racks[seat] = remaining + drawn
        self._moves.append(
            {"type": "exchange", "seat": seat, "tiles": wanted, "score": 0, "rack": rack_before}
        )
        self._scoreless_turn(seat, is_pass=False)
        return drawn

    def _room_exchange(self, seat: int, tiles: str) -> str:
        """Over the board an exchange says how many tiles (a number, or the tiles, which
        the bot cannot check): the rack's count stays as it was."""
        text = tiles.strip()
        count = int(text) if text.isdigit() else len(_normalise_tiles(text))
        if not 1 <= count <= self._counts[seat]:
            raise ExchangeError(
                N_("exchange from 1 to {count} tiles"), count=max(1, self._counts[seat])
            )
        if self.bag_count < self.exchange_minimum:
            raise ExchangeError(
                N_(
                    "you can exchange only while the bag holds at least {minimum} tiles; "
                    "it holds {count}"
                ),
                minimum=self.exchange_minimum,
                count=self.bag_count,
            )
        self._end_challenge_window()
        self._moves.append(
            {"type": "exchange", "seat": seat, "tiles": "", "count": count, "score": 0, "rack": ""}
        )
        self._scoreless_turn(seat, is_pass=False)
        return ""

    def pass_turn(self, seat: int, *, timed_out: bool = False) -> None:
        """Pass (also what a turn clock that runs out does: ``timed_out=True``)."""
        self._require_turn(seat)
        self._end_challenge_window()
        entry: dict[str, Any] = {
            "type": "pass",
            "seat": seat,
            "score": 0,
            "rack": self._racks[seat],
        }
        if timed_out:
            entry["timed_out"] = True
        self._moves.append(entry)
        self._scoreless_turn(seat, is_pass=True)

    def _scoreless_turn(self, seat: int, *, is_pass: bool) -> None:
        self._scoreless_run += 1
        self._passes_in_row[seat] = self._passes_in_row[seat] + 1 if is_pass else 0
        if not self._scoreless_end(seat):
            self._advance()

    def challenge(self, challenger: int, lexicon: Lexicon | None) -> ChallengeResult:
        """Challenge the last play: every word it formed is looked up in ``lexicon``."""
        self._check_challenge(challenger)
        if lexicon is None:
            raise LexiconRequiredError(N_("a challenge needs a word list, but none was given"))
        assert self._pending is not None
        invalid = unknown_words(lexicon, self._pending["words"])
        return self._settle_challenge(challenger, invalid)

    def _check_challenge(self, challenger: int) -> None:
        self._check_seat(challenger)
        if self.status in (FINISHED, RACKS):
            raise GameOverError(N_("the game is over"))
        if self.options.challenge == "void":
            raise ChallengeError(
                N_("this game checks words as they are played, so there are no challenges")
            )
        if challenger in self._resigned:
            raise ChallengeError(N_("you have resigned from this game"))
        pending = self._pending
        if pending is None or not pending["open"]:
            raise ChallengeError(
                N_(
                    "there is no play to challenge: a play can be challenged only until the next player moves"
                )
            )
        if pending["seat"] == challenger:
            raise ChallengeError(N_("you can't challenge your own play"))

    def _settle_challenge(self, challenger: int, invalid: tuple[str, ...]) -> ChallengeResult:
        pending = self._pending
        assert pending is not None
        played_by = pending["seat"]
        self._moves.append(
            {
                "type": "challenge",
                "seat": challenger,
                "challenged_seat": played_by,
                "result": "withdrawn" if invalid else "stood",
                "invalid_words": list(invalid),
                "score": -pending["score"] if invalid else 0,
            }
        )
        lost_turn_seat = None
        if invalid:
            self._withdraw(pending)
        else:
            pending["open"] = False
            if self.status == ENDING:
                self._finish(pending["ends"], played_by)
            elif self.options.challenge == "double":
                lost_turn_seat = challenger
                self._lost_turns[challenger] += 1
                self._consume_lost_turns()
        return ChallengeResult(
            challenger=challenger,
            challenged_seat=played_by,
            words=tuple(pending["words"]),
            invalid_words=invalid,
            withdrawn=bool(invalid),
            score_removed=pending["score"] if invalid else 0,
            lost_turn_seat=lost_turn_seat,
            status=self.status,
        )

    def _withdraw(self, pending: dict[str, Any]) -> None:
        seat = pending["seat"]
        self._board.remove((square_index(square), cell) for square, cell in pending["tiles"])
        if self.options.room:
            self._bag += [BLANK if cell.islower() else cell for _, cell in pending["tiles"]]
            self._bag.sort()
            self._counts[seat] = pending["count_before"]
        else:
            self._bag[:0] = list(pending["drawn"])
            self._racks[seat] = pending["rack_before"]
        self._scores[seat] -= pending["score"]
        if pending["score"]:
            # The play had broken the scoreless run; now it is one more scoreless turn.
            self._scoreless_run += pending["scoreless_before"] + 1
        self._pending = None
        self.status = ACTIVE
        self._accepted = []
        if not self._scoreless_end(seat):
            self._consume_lost_turns()

    def accept(self, seat: int) -> bool:
        """An opponent accepts the play that ends the game; True once the game is over."""
        self._check_seat(seat)
        if self.status != ENDING:
            raise ChallengeError(N_("there is no finishing play waiting to be accepted"))
        assert self._pending is not None
        if seat == self._pending["seat"] or seat in self._resigned:
            raise ChallengeError(N_("only an opponent of the finishing play can accept it"))
        if seat not in self._accepted:
            self._accepted.append(seat)
            self._moves.append({"type": "accept", "seat": seat})
        others = [
            s for s in range(self.seats) if s != self._pending["seat"] and s not in self._resigned
        ]
        if all(s in self._accepted for s in others):
            self._finish(self._pending["ends"], self._pending["seat"])
        return self.status == FINISHED

    def close_challenge_window(self) -> None:
        """The service's timer ran out on an ending play: it stands and the game ends."""
        if self.status != ENDING:
            raise ChallengeError(N_("there is no finishing play waiting to be accepted"))
        assert self._pending is not None
        self._moves.append({"type": "close"})
        self._finish(self._pending["ends"], self._pending["seat"])

    def resign(self, seat: int) -> None:
        """``seat`` resigns. The game ends when one seat is left, or when a finishing play was
        waiting (it stands); else play goes on without them."""
        self._check_seat(seat)
        if self.status == FINISHED:
            raise GameOverError(N_("the game is over"))
        if seat in self._resigned:
            raise TurnError(N_("you have already resigned from this game"))
        self._resigned.append(seat)
        self._moves.append({"type": "resign", "seat": seat})
        playing = [s for s in range(self.seats) if s not in self._resigned]
        if len(playing) <= 1:
            self._finish("resign", None)
        elif self.status == ENDING:
            assert self._pending is not None
            self._finish(self._pending["ends"], self._pending["seat"])
        elif self.current_seat == seat:
            self._advance()

    def end_by_deadline(self, *, early: bool = False) -> None:
        """The game's deadline passed: it ends now (a pending finishing play stands).

        ``early``: it was ended before its deadline (a club session's moderator
        ended every board), the same ending under its own reason, ``"ended"``."""
        if self.status in (FINISHED, RACKS):
            raise GameOverError(N_("the game is over"))
        self._moves.append({"type": "deadline", "early": True} if early else {"type": "deadline"})
        if self.status == ENDING:
            assert self._pending is not None
            self._finish(self._pending["ends"], self._pending["seat"])
        else:
            self._finish("ended" if early else "deadline", None)

    def end_blocked(self) -> None:
        """No seat can play and the bag is too small to exchange: the game ends now.

        The caller decides that nobody can play (the engine has no word list
        of its own; ``engines.scrabble.movegen`` answers it). It ends as six
        scoreless turns would, without making everyone pass first: each seat
        loses its unplayed tiles.
        """
        if self.status != ACTIVE:
            raise TurnError(N_("only a game waiting for a move can end blocked"))
        if len(self._bag) >= self.exchange_minimum:
            raise TurnError(N_("the bag still holds enough tiles to exchange"))
        self._moves.append({"type": "blocked"})
        self._finish("blocked", None)

    # -- turn bookkeeping -----------------------------------------------------------

    def _check_seat(self, seat: int) -> None:
        if not isinstance(seat, int) or not 0 <= seat < self.seats:
            raise ScrabbleError(N_("there is no seat {seat} in this game"), seat=seat)

    def _require_turn(self, seat: int) -> None:
        self._check_seat(seat)
        if self.status == FINISHED:
            raise GameOverError(N_("the game is over"))
        if self.status == RACKS:
            raise GameOverError(
                N_("the game is over: enter the tiles left on each rack to finish the tally")
            )
        if self.options.room and not self._moves and self.status == ACTIVE:
            # Over the board the players draw for first play themselves: whoever enters first.
            self.first_seat = self.current_seat = seat
        if seat in self._resigned:
            raise TurnError(N_("you have resigned from this game"))
        if self.status == ENDING:
            raise TurnError(
                N_("the last play ends the game unless it is challenged: challenge it or accept it")
            )
        if seat != self.current_seat:
            raise NotYourTurnError(N_("it is not your turn"), self.current_seat)

    def _end_challenge_window(self) -> None:
        """The seat to move has acted: the last play can no longer be challenged."""
        if self._pending is not None:
            self._pending["open"] = False

    def _draw(self, count: int) -> str:
        drawn = "".join(self._bag[:count])
        del self._bag[:count]
        return drawn

    def _next_seat(self, seat: int) -> int:
        for step in range(1, self.seats + 1):
            candidate = (seat + step) % self.seats
            if candidate not in self._resigned:
                return candidate
        return seat

    def _advance(self) -> None:
        self.current_seat = self._next_seat(self.current_seat)
        self._consume_lost_turns()

    def _consume_lost_turns(self) -> None:
        """Skip seats that owe a turn for a failed double challenge."""
        while self.status == ACTIVE and self._lost_turns[self.current_seat] > 0:
            seat = self.current_seat
            self._lost_turns[seat] -= 1
            self._moves.append(
                {
                    "type": "pass",
                    "seat": seat,
                    "score": 0,
                    "rack": self._racks[seat],
                    "auto": True,
                    "lost_turn": True,
                }
            )
            self._scoreless_run += 1
            self._passes_in_row[seat] = 0
            if self._scoreless_end(seat):
                return
            self.current_seat = self._next_seat(seat)

    def _scoreless_end(self, seat: int) -> bool:
        if self._scoreless_run >= SCORELESS_TURNS_TO_END:
            self._finish("six_zeros", None)
            return True
        if self.options.end_rule == "two_passes" and self._passes_in_row[seat] >= 2:
            self._finish("two_passes", None)
            return True
        return False

    def _finish(self, reason: str, seat: int | None) -> None:
        before = list(self._scores)
        adjustments = [0] * self.seats
        playing = [s for s in range(self.seats) if s not in self._resigned]
        # Ended by the clock with no tile on the board: a no-contest. The racks would
        # decide a winner, so nothing is deducted and every seat ties (on 0).
        no_contest = reason in ("deadline", "ended") and self._board.is_empty
        deducted = ("out", "six_zeros", "two_passes", "deadline", "ended", "blocked")
        if self.options.room and reason in deducted and not no_contest:
            if self._pending is not None:
                self._pending["open"] = False
            if any(self._counts[s] for s in playing):
                self.status = RACKS  # the unplayed tiles first (``enter_rack``)
                self._awaiting = {"reason": reason, "seat": seat}
                return
        if reason in deducted and not no_contest:
            for s in playing:
                adjustments[s] -= face_value(self._racks[s])
            if reason == "out" and seat in playing:
                adjustments[seat] += sum(face_value(self._racks[s]) for s in playing if s != seat)
        final = [b + a for b, a in zip(before, adjustments, strict=True)]  # one per seat

        def key(s: int) -> tuple[int, int]:
            return (final[s], before[s])

        if reason == "target" and seat is not None:
            order = [seat] + sorted((s for s in playing if s != seat), key=key, reverse=True)
            winners = [seat]
        else:
            order = sorted(playing, key=key, reverse=True)
            winners = [s for s in order if key(s) == key(order[0])] if order else []
        ranks = [0] * self.seats
        for position, s in enumerate(order):
            tied_with_previous = (
                position > 0 and key(s) == key(order[position - 1]) and reason != "target"
            )
            ranks[s] = ranks[order[position - 1]] if tied_with_previous else position + 1
        for k, s in enumerate(reversed(self._resigned)):
            ranks[s] = len(playing) + k + 1
        self._scores = final
        self.status = FINISHED
        if self._pending is not None:
            self._pending["open"] = False
        self._end = {
            "reason": reason,
            "scores_before": before,
            "adjustments": adjustments,
            "final_scores": final,
            "winners": winners,
            "ranks": ranks,
            "out_seat": seat if reason == "out" else None,
            "no_contest": no_contest,
        }

    # -- saving and loading -----------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        """The whole state as JSON-ready plain data (``"format"`` names the version)."""
        return {
            "format": FORMAT,
            "options": self.options.to_json(),
            "seed": self.seed,
            "first_seat": self.first_seat,
            "first_draw": copy.deepcopy(self.first_draw),
            "board": self._board.rows(),
            "bag": "".join(self._bag),
            "racks": list(self._racks),
            "scores": list(self._scores),
            "current_seat": self.current_seat,
            "status": self.status,
            "moves": copy.deepcopy(self._moves),
            "pending": copy.deepcopy(self._pending),
            "lost_turns": list(self._lost_turns),
            "resigned": list(self._resigned),
            "scoreless_run": self._scoreless_run,
            "passes_in_row": list(self._passes_in_row),
            "accepted": list(self._accepted),
            "end": copy.deepcopy(self._end),
            **(
                {"counts": list(self._counts), "awaiting": copy.deepcopy(self._awaiting)}
                if self.options.room
                else {}
            ),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ScrabbleGame:
        """The game ``to_json`` saved; another format raises ``StateFormatError``."""
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            found = data.get("format") if isinstance(data, dict) else None
            raise StateFormatError(f"unknown Scrabble state format {found!r} (expected {FORMAT})")
        try:
            game = cls()
            game.options = ScrabbleOptions.from_json(data["options"])
            game.seed = data["seed"]
            game.first_seat = data["first_seat"]
            game.first_draw = copy.deepcopy(data["first_draw"])
            game._board = Board.from_rows(data["board"])
            game._bag = list(data["bag"])
            game._racks = list(data["racks"])
            game._scores = list(data["scores"])
            game.current_seat = data["current_seat"]
            game.status = data["status"]
            game._moves = copy.deepcopy(data["moves"])
            game._pending = copy.deepcopy(data["pending"])
            game._lost_turns = list(data["lost_turns"])
            game._resigned = list(data["resigned"])
            game._scoreless_run = data["scoreless_run"]
            game._passes_in_row = list(data["passes_in_row"])
            game._accepted = list(data["accepted"])
            game._end = copy.deepcopy(data["end"])
            if game.options.room:
                game._counts = list(data["counts"])
                game._awaiting = copy.deepcopy(data["awaiting"])
        except (KeyError, TypeError, ValueError) as exc:
            raise StateFormatError(f"the saved Scrabble state is damaged: {exc}") from exc
        game._check_integrity()
        return game

    def _check_integrity(self) -> None:
        seats = self.seats
        lists = (self._racks, self._scores, self._lost_turns, self._passes_in_row)
        if any(len(x) != seats for x in lists):
            raise StateFormatError(
                N_("the saved Scrabble state does not match its number of seats")
            )
        if self.status not in (ACTIVE, ENDING, FINISHED, RACKS):
            raise StateFormatError(f"unknown game status {self.status!r}")
        counts: dict[str, int] = dict(self._board.tile_counts())
        for tile in self._bag + [t for rack in self._racks for t in rack]:
            counts[tile] = counts.get(tile, 0) + 1
        if counts != {t: c for t, c in TILE_COUNTS.items() if c}:
            raise StateFormatError(
                N_("the saved Scrabble state does not hold exactly the 100 tiles")
            )

    def tile_total(self) -> int:
        """Bag + racks + board: always 100."""
        return len(self._bag) + sum(len(r) for r in self._racks) + self._board.count

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ScrabbleGame) and self.to_json() == other.to_json()

    def __repr__(self) -> str:
        return (
            f"ScrabbleGame(seats={self.seats}, status={self.status!r}, "
            f"scores={self._scores}, current_seat={self.current_seat}, bag={len(self._bag)})"
        )


__all__ = [
    "ACTIVE",
    "CHALLENGE_MODES",
    "ENDING",
    "FINISHED",
    "FINISH_LINE_TARGETS",
    "FORMAT",
    "RACKS",
    "ChallengeResult",
    "GameResult",
    "PlayResult",
    "ScrabbleGame",
    "ScrabbleOptions",
    "square_index",
]
