"""The board: reading a play's notation, checking its geometry, scoring it.

This module knows nothing about turns, racks beyond "does the rack hold these
tiles", or dictionaries; the game (``game.py``) and the GCG checker (``gcg.py``)
both build on it, so the conformance games prove the same code the bot runs.

Squares are indexed ``row * 15 + col`` (row 0 = board row 1, col 0 = column A).
A cell is ``None`` when empty, an upper-case letter for a lettered tile and a
lower-case letter for a blank played as that letter (a blank scores 0). That
encoding is also what the JSON state stores, one string per row.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import NamedTuple

from engines.scrabble.errors import (
    NotationError,
    PlacementError,
    RackError,
    RunOnError,
    UndeclaredBlankError,
)
from engines.scrabble.layout import (
    BLANK,
    CENTER,
    COLUMNS,
    LETTER_VALUES,
    PREMIUMS,
    SIZE,
    TILE_COUNTS,
    square_name,
)
from engines.text import N_, Text

SQUARES = SIZE * SIZE
CENTER_INDEX = CENTER[0] * SIZE + CENTER[1]
BINGO_TILES = 7
BINGO_BONUS = 50
EMPTY_CELL = "."

_UPPER = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
_LOWER = _UPPER.lower()
# Sets, not strings: "ST" in _UPPER would be True, and "\ufb06".upper() == "ST".
_LETTERS = frozenset(_UPPER + _LOWER)
_UPPER_SET = frozenset(_UPPER)
_LOWER_SET = frozenset(_LOWER)

# Flat per-square multipliers: scoring looks these up once per letter.
_LETTER_MULT: tuple[int, ...] = tuple(
    {"DL": 2, "TL": 3}.get(PREMIUMS[i // SIZE][i % SIZE] or "", 1) for i in range(SQUARES)
)
_WORD_MULT: tuple[int, ...] = tuple(
    {"DW": 2, "TW": 3}.get(PREMIUMS[i // SIZE][i % SIZE] or "", 1) for i in range(SQUARES)
)
# Value of a board cell: blanks (lower case) are worth nothing.
_CELL_VALUE: dict[str, int] = {**{c: LETTER_VALUES[c] for c in _UPPER}, **dict.fromkeys(_LOWER, 0)}

_POSITION_RE = re.compile(r"^(?:(\d{1,2})([A-Z])|([A-Z])(\d{1,2}))$")
_DIRECTIONS = {
    "across": True,
    "a": True,
    "h": True,
    "horizontal": True,
    "right": True,
    "→": True,
    "down": False,
    "d": False,
    "v": False,
    "vertical": False,
    "↓": False,
}
_ORDINALS = (
    N_("first"),
    N_("second"),
    N_("third"),
    N_("fourth"),
    N_("fifth"),
    N_("sixth"),
    N_("seventh"),
    N_("eighth"),
    N_("ninth"),
)


_NAMES: tuple[str, ...] = tuple(square_name(i // SIZE, i % SIZE) for i in range(SQUARES))


def index_name(index: int) -> str:
    """``112`` -> ``"H8"``."""
    return _NAMES[index]


def face_value(tiles: Iterable[str]) -> int:
    """Plain sum of tile values (``?`` and blanks-as-letters count 0)."""
    return sum(_CELL_VALUE.get(t, 0) for t in tiles)


@dataclass(frozen=True, slots=True)
class Tile:
    """A tile on the board: its letter, and whether it is a blank standing for it."""

    letter: str
    blank: bool = False

    @property
    def value(self) -> int:
        """What the tile scores: its letter's value, 0 for a blank."""
        return 0 if self.blank else LETTER_VALUES[self.letter]

    @property
    def cell(self) -> str:
        """The tile as a board cell holds it: upper case, a blank in lower case."""
        return self.letter.lower() if self.blank else self.letter

    @classmethod
    def from_cell(cls, cell: str) -> Tile:
        """The tile a board cell holds (lower case: a blank)."""
        return cls(cell.upper(), cell.islower())


class WordScore(NamedTuple):
    """One word a play formed, as the lexicon sees it (upper case) and its score."""

    word: str
    score: int
    start: str
    across: bool
    # The same word with blanks in lower case, for display.
    spelled: str


class Evaluation(NamedTuple):
    """A validated, scored placement that has not been put on the board yet."""

    tiles: tuple[tuple[int, str], ...]  # (square index, cell) of each new tile
    across: bool  # direction of the main word
    score: int
    words: tuple[WordScore, ...]  # main word first, then cross-words
    bingo: bool
    position: str  # GCG position of the main word: "8H" across, "H8" down
    word: str  # GCG word: upper = new tile, lower = blank, "." = tile already there

    @property
    def notation(self) -> str:
        """The play in GCG notation: position, then word (``8H QUIZ``)."""
        return f"{self.position} {self.word}"

    @property
    def rack_tiles(self) -> str:
        """The tiles taken from the rack, blanks as ``?``."""
        return "".join(BLANK if cell.islower() else cell for _, cell in self.tiles)

    @property
    def squares(self) -> tuple[str, ...]:
        """The squares of the new tiles, by name (``H8``)."""
        return tuple(index_name(i) for i, _ in self.tiles)


def parse_direction(direction: str | bool | None) -> bool | None:
    """``"across"`` -> True, ``"down"`` -> False, None stays None."""
    if direction is None or isinstance(direction, bool):
        return direction
    key = direction.strip().lower()
    if not key:
        return None
    if key not in _DIRECTIONS:
        raise NotationError(
            N_("I can't read the direction {direction}: say across or down"),
            direction=f"'{direction}'",
        )
    return _DIRECTIONS[key]


def parse_position(position: str, direction: str | bool | None = None) -> tuple[int, int, bool]:
    """Read ``8H`` (row 8 from column H, across) or ``H8`` (column H from row 8, down).

    An explicit ``direction`` wins over the one the position's order implies.
    Returns ``(row, col, across)`` with 0-based row and column.
    """
    row, col, across = _read_position(position)
    explicit = parse_direction(direction)
    if explicit is not None:
        across = explicit
    return row, col, across


@lru_cache(maxsize=1024)
def _read_position(position: str) -> tuple[int, int, bool]:
    text = "".join(position.split()).upper()
    match = _POSITION_RE.match(text)
    if match is None:
        raise NotationError(
            N_(
                "I can't read the position {position}: write a row and a column, "
                "like 8H (across from H8) or H8 (down from H8)"
            ),
            position=f"'{position.strip()}'",
        )
    if match.group(1) is not None:
        row_text, col_text, across = match.group(1), match.group(2), True
    else:
        row_text, col_text, across = match.group(4), match.group(3), False
    row = int(row_text)
    if not 1 <= row <= SIZE:
        raise NotationError(
            N_("row {row} is off the board: rows run from 1 to {size}"), row=row, size=SIZE
        )
    if col_text not in COLUMNS:
        raise NotationError(
            N_("column {column} is off the board: columns run from A to {last}"),
            column=col_text,
            last=COLUMNS[-1],
        )
    return row - 1, COLUMNS.index(col_text), across


def _missing_tile_message(letter: str, have: int, rack_has_blank: bool) -> Text:
    name: Text | str = Text(N_("blank")) if letter == BLANK else letter
    if have == 0:
        message = Text(N_("you have no {tile}"), tile=name)
    elif have < len(_ORDINALS):
        message = Text(N_("you have no {ordinal} {tile}"), ordinal=Text(_ORDINALS[have]), tile=name)
    else:
        message = Text(N_("you have only {count} of {tile}"), count=have, tile=name)
    if letter != BLANK and rack_has_blank:
        return Text(
            N_("{reason} (to play your blank as {letter}, write {blank} in its place in the word)"),
            reason=message,
            letter=letter,
            blank=f"?{letter}",
        )
    if letter != BLANK:
        return Text(N_("{reason} and no blank to play as {letter}"), reason=message, letter=letter)
    return Text(
        N_(
            "{reason} (?X in a word is a blank played as X, and so is a lower-case letter among "
            "capitals: type a word all in lower case, or all in capitals, for plain letters)"
        ),
        reason=message,
    )


def read_typed_word(text: str) -> str:
    """A word as a member types it, in the notation :meth:`Board.evaluate` reads.

    On a phone people type lower case, so a word with no capital letter is plain
    letters (``enjoy`` is ENJOY). A blank is marked explicitly: ``?e`` (or ``?E``)
    anywhere, or, as GCG writes it, a lower-case letter in a word that has
    capitals (``ENjOY``: the J is a blank). ``.`` and parentheses pass unchanged.
    """
    letters = [ch for i, ch in enumerate(text) if i == 0 or text[i - 1] != BLANK]
    if any(ch in _UPPER_SET for ch in letters):
        return text
    out: list[str] = []
    after_blank = False
    for ch in text:
        out.append(ch if after_blank or ch not in _LOWER_SET else ch.upper())
        after_blank = ch == BLANK and not after_blank
    return "".join(out)


def typed_notation(word: str) -> str:
    """A GCG word (lower case = a blank) as a member would type it: ``?`` before each
    blank's letter, so it reads the same whatever its case (``ENjOY`` -> ``EN?JOY``)."""
    out: list[str] = []
    for i, ch in enumerate(word):
        marked = i > 0 and word[i - 1] == BLANK
        out.append(ch.upper() if marked else f"{BLANK}{ch.upper()}" if ch in _LOWER_SET else ch)
    return "".join(out)


def take_from_rack(rack: str, tiles: Iterable[str]) -> str:
    """The rack left after taking ``tiles`` (``?`` = blank); raises if any is missing."""
    remaining = list(rack)
    for tile in tiles:
        try:
            remaining.remove(tile)
        except ValueError:
            raise RackError(_missing_tile_message(tile, rack.count(tile), BLANK in rack)) from None
    return "".join(remaining)


class Board:
    """A 15x15 board of cells (see the module docstring for the encoding)."""

    __slots__ = ("cells", "count")

    def __init__(self, cells: Sequence[str | None] | None = None) -> None:
        self.cells: list[str | None] = list(cells) if cells is not None else [None] * SQUARES
        if len(self.cells) != SQUARES:
            raise ValueError(f"a board has {SQUARES} squares, got {len(self.cells)}")
        self.count = sum(cell is not None for cell in self.cells)

    # -- construction and views -------------------------------------------------

    @classmethod
    def from_rows(cls, rows: Sequence[str]) -> Board:
        """Inverse of :meth:`rows`."""
        if len(rows) != SIZE or any(len(r) != SIZE for r in rows):
            raise ValueError(N_("a board is 15 rows of 15 characters"))
        cells: list[str | None] = []
        for row in rows:
            for ch in row:
                if ch == EMPTY_CELL:
                    cells.append(None)
                elif ch in _CELL_VALUE:
                    cells.append(ch)
                else:
                    raise ValueError(f"bad board cell {ch!r}")
        return cls(cells)

    def rows(self) -> list[str]:
        """15 strings: ``.`` empty, upper case a tile, lower case a blank."""
        return [
            "".join(cell or EMPTY_CELL for cell in self.cells[r * SIZE : (r + 1) * SIZE])
            for r in range(SIZE)
        ]

    def copy(self) -> Board:
        """A copy of the board, free to change."""
        clone = Board.__new__(Board)
        clone.cells = self.cells.copy()
        clone.count = self.count
        return clone

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Board) and self.cells == other.cells

    def __repr__(self) -> str:
        return "Board(\n  " + "\n  ".join(self.rows()) + "\n)"

    @property
    def is_empty(self) -> bool:
        """Whether no tile is on the board yet."""
        return self.count == 0

    def tile(self, row: int, col: int) -> Tile | None:
        """The tile on the square at ``row``, ``col`` (from 0), or None."""
        cell = self.cells[row * SIZE + col]
        return None if cell is None else Tile.from_cell(cell)

    def grid(self) -> tuple[tuple[Tile | None, ...], ...]:
        """Every square's tile (or None), row by row."""
        return tuple(tuple(self.tile(r, c) for c in range(SIZE)) for r in range(SIZE))

    def tile_counts(self) -> dict[str, int]:
        """How many of each tile lie on the board (blanks counted as ``?``)."""
        counts: dict[str, int] = {}
        for cell in self.cells:
            if cell is not None:
                key = BLANK if cell.islower() else cell
                counts[key] = counts.get(key, 0) + 1
        return counts

    # -- reading and validating a play ------------------------------------------

    def evaluate(
        self,
        word: str,
        position: str,
        direction: str | bool | None = None,
        rack: str | None = None,
    ) -> Evaluation:
        """Validate and score ``word`` at ``position`` without changing the board.

        In ``word``: upper case = a tile from the rack, or the tile already on
        that square when it matches; lower case or ``?x`` = a blank played as x
        (or, again, the matching tile already there); ``.`` or a letter in
        parentheses = play through the tile already there. ``rack`` (``?`` for a
        blank), when given, must hold the new tiles.

        ``word`` must be the whole main word: a play that tiles already on the
        board before or after it would make longer raises :class:`RunOnError`
        (RULES.md: the word typed is the word played).
        """
        row, col, across = parse_position(position, direction)
        first = row * SIZE + col
        new, last = self._read_word(word, row, col, across)
        self._check_whole_word(first, last, across, new)
        return self._evaluate(new, across, rack)

    def evaluate_tiles(
        self, placements: Sequence[tuple[str, str]], rack: str | None = None
    ) -> Evaluation:
        """Validate and score loose tiles, e.g. ``[("H8", "Q"), ("I8", "?i")]``.

        For callers that let a player put tiles down one by one; the word
        notation of :meth:`evaluate` cannot express most of these mistakes.
        """
        if not placements:
            raise PlacementError(N_("place at least one tile"))
        new: dict[int, str] = {}
        for square, tile in placements:
            row, col, _ = parse_position(square)
            index = row * SIZE + col
            name = square_name(row, col)
            if index in new:
                raise PlacementError(N_("{square} is used twice"), square=name)
            held = self.cells[index]
            if held is not None:
                raise PlacementError(
                    N_("{square} is already taken (it holds {tile})"),
                    square=name,
                    tile=held.upper(),
                )
            new[index] = _read_single_tile(tile)
        rows = {i // SIZE for i in new}
        cols = {i % SIZE for i in new}
        if len(rows) > 1 and len(cols) > 1:
            raise PlacementError(N_("words must be in one row or column"))
        if len(new) > 1:
            across = len(rows) == 1
        else:
            (only,) = new
            across = self._has_neighbour(only, 1)
        self._check_no_gap(new, across)
        ordered = sorted(new.items())
        return self._evaluate(ordered, across, rack)

    def _read_word(
        self, word: str, row: int, col: int, across: bool
    ) -> tuple[list[tuple[int, str]], int]:
        """The new tiles the word lays, and the square of its last letter."""
        text = word.strip()
        if not text:
            raise NotationError(N_("say which word to play"))
        cells = self.cells
        step = 1 if across else SIZE
        limit = (row * SIZE + SIZE - 1) if across else SQUARES - 1
        index = row * SIZE + col
        new: list[tuple[int, str]] = []
        in_brackets = False
        length = len(text)
        i = 0
        while i < length:
            ch = text[i]
            i += 1
            if ch == "(":
                in_brackets = True
                continue
            if ch == ")":
                in_brackets = False
                continue
            if ch == BLANK:
                letter = text[i] if i < length else ""
                if letter not in _LETTERS:
                    raise UndeclaredBlankError(
                        N_("say which letter the blank is: write ?E for a blank played as E")
                    )
                i += 1
                tile: str | None = letter.lower()
            elif ch == "." or ch in _LETTERS:
                tile = None if ch == "." else ch
            elif ch in " _-":
                tile = ""  # an explicit hole in the word
            else:
                raise NotationError(
                    N_(
                        "I can't read {character} in the word: use letters, ?X for a blank "
                        "played as X, and . for a tile already on the board"
                    ),
                    character=f"'{ch}'",
                )
            if index > limit:
                raise PlacementError(
                    N_("the word runs off the board after {square}"),
                    square=index_name(index - step),
                )
            existing = cells[index]
            if existing is not None:
                if tile and tile.upper() != existing.upper():
                    raise PlacementError(
                        N_("{square} is already taken (it holds {tile})"),
                        square=index_name(index),
                        tile=existing.upper(),
                    )
            elif not tile or in_brackets:
                raise PlacementError(
                    N_("there is a gap at {square}: there is no tile there to play through"),
                    square=index_name(index),
                )
            else:
                new.append((index, tile))
            index += step
        if not new:
            raise PlacementError(
                N_(
                    "place at least one tile from your rack: every square of that word is already filled"
                )
            )
        return new, index - step

    def _check_whole_word(
        self, first: int, last: int, across: bool, new: list[tuple[int, str]]
    ) -> None:
        """Refuse a typed word (``first`` to ``last``) that tiles already on the
        board would lengthen: the main word must be the word typed."""
        cells = self.cells
        main_across = across
        start, end = _line_bounds(cells, first, last, across)
        if start == end:
            # A lone tile only makes a word the other way: that word is the main one.
            main_across = not across
            start, end = _line_bounds(cells, first, last, main_across)
            if start == end:
                return  # touches nothing: the connection check says so
        elif start == first and end == last:
            return
        step = 1 if main_across else SIZE
        placed = dict(new)

        def spell(a: int, b: int) -> str:
            return "".join(placed.get(i) or cells[i] or EMPTY_CELL for i in range(a, b + 1, step))

        before = list(range(start, first, step))
        after = list(range(last + step, end + 1, step))  # a lone tile: first == last
        run_on = before + after
        typed, whole = spell(first, last), spell(start, end)
        position = _gcg_position(start, main_across)
        fields: dict[str, object] = {"typed": typed, "whole": whole, "position": position}
        if before:
            fields["before"] = _run_on_tiles(cells, before)
        if after:
            fields["after"] = _run_on_tiles(cells, after)
        if before and after:
            template = N_(
                "{typed} runs on into {before} before it and {after} after it: the word would "
                "be {whole}. To play it, type {whole} at {position}."
            )
        elif before:
            template = N_(
                "{typed} runs on into {before} before it: the word would be {whole}. "
                "To play it, type {whole} at {position}."
            )
        elif main_across != across:  # a lone tile typed the other way: say where
            template = N_(
                "{typed} runs on into {after}: the word would be {whole}. "
                "To play it, type {whole} at {position}."
            )
        else:
            template = N_(
                "{typed} runs on into {after}: the word would be {whole}. To play it, type {whole}."
            )
        raise RunOnError(
            Text(template, **fields),
            typed=typed,
            whole=whole,
            letters=tuple(cells[i] or EMPTY_CELL for i in run_on),
            squares=tuple(_NAMES[i] for i in run_on),
            position=position,
        )

    def _has_neighbour(self, index: int, step: int) -> bool:
        cells = self.cells
        if step == 1:
            col = index % SIZE
            return (col > 0 and cells[index - 1] is not None) or (
                col < SIZE - 1 and cells[index + 1] is not None
            )
        return (index >= SIZE and cells[index - SIZE] is not None) or (
            index < SQUARES - SIZE and cells[index + SIZE] is not None
        )

    def _check_no_gap(self, new: dict[int, str], across: bool) -> None:
        step = 1 if across else SIZE
        for index in range(min(new), max(new) + 1, step):
            if index not in new and self.cells[index] is None:
                raise PlacementError(N_("there is a gap at {square}"), square=index_name(index))

    def _check_connection(self, new: Sequence[tuple[int, str]], across: bool) -> None:
        if self.count == 0:
            if len(new) < 2:
                raise PlacementError(N_("the first play needs at least two tiles"))
            if all(index != CENTER_INDEX for index, _ in new):
                raise PlacementError(
                    N_("the first play must cover the centre square {square}"),
                    square=index_name(CENTER_INDEX),
                )
            return
        step = 1 if across else SIZE
        # A play that spans an existing tile touches it; otherwise look around.
        if (new[-1][0] - new[0][0]) // step + 1 > len(new):
            return
        for index, _ in new:
            if self._has_neighbour(index, 1) or self._has_neighbour(index, SIZE):
                return
        raise PlacementError(
            N_("tiles must touch the board: play through or next to a tile already there")
        )

    def _evaluate(self, new: list[tuple[int, str]], across: bool, rack: str | None) -> Evaluation:
        self._check_connection(new, across)
        if rack is not None:
            take_from_rack(rack, (BLANK if cell.islower() else cell for _, cell in new))
        cells = self.cells
        for index, cell in new:
            cells[index] = cell
        try:
            return _score(cells, new, across)
        finally:
            for index, _ in new:
                cells[index] = None

    # -- changing the board -----------------------------------------------------

    def apply(self, evaluation: Evaluation) -> None:
        """Put an evaluated play's tiles down. The board must not have changed since."""
        cells = self.cells
        for index, _ in evaluation.tiles:
            if cells[index] is not None:
                raise PlacementError(N_("{square} is already taken"), square=index_name(index))
        for index, cell in evaluation.tiles:
            cells[index] = cell
        self.count += len(evaluation.tiles)

    def remove(self, tiles: Iterable[tuple[int, str]]) -> None:
        """Take a play's tiles back off (a withdrawn play)."""
        for index, _ in tiles:
            if self.cells[index] is not None:
                self.cells[index] = None
                self.count -= 1


def _run_on_tiles(cells: list[str | None], squares: list[int]) -> Text:
    """Tiles a word runs on into, as ``S and I (H9–H10)`` (a blank's letter in lower case)."""
    letters = [cells[i] or EMPTY_CELL for i in squares]
    named: Text | str = letters[0]
    if len(letters) > 1:
        named = Text(N_("{first} and {last}"), first=", ".join(letters[:-1]), last=letters[-1])
    where = _NAMES[squares[0]]
    if len(squares) > 1:
        where = f"{where}\u2013{_NAMES[squares[-1]]}"
    return Text(N_("{letters} ({squares})"), letters=named, squares=where)


def _read_single_tile(tile: str) -> str:
    text = tile.strip()
    if len(text) == 2 and text[0] == BLANK and text[1] in _LETTERS:
        return text[1].lower()
    if len(text) == 1 and text in _LETTERS:
        return text
    if text == BLANK:
        raise UndeclaredBlankError(
            N_("say which letter the blank is: write ?E for a blank played as E")
        )
    raise NotationError(
        N_("I can't read the tile {tile}: use a letter, or ?X for a blank played as X"),
        tile=f"'{tile}'",
    )


def _line_bounds(cells: list[str | None], first: int, last: int, across: bool) -> tuple[int, int]:
    if across:
        row_start = first - first % SIZE
        row_end = row_start + SIZE - 1
        start = first
        while start > row_start and cells[start - 1] is not None:
            start -= 1
        end = last
        while end < row_end and cells[end + 1] is not None:
            end += 1
    else:
        start = first
        while start >= SIZE and cells[start - SIZE] is not None:
            start -= SIZE
        end = last
        while end < SQUARES - SIZE and cells[end + SIZE] is not None:
            end += SIZE
    return start, end


def _word_at(
    cells: list[str | None],
    start: int,
    end: int,
    step: int,
    new_in_word: Iterable[tuple[int, str]],
    across: bool,
) -> WordScore:
    # Every square from start to end holds a tile (the caller found the word's
    # ends by walking over tiles), which a list of str | None cannot say.
    letters = cells[start : end + 1 : step]
    total = sum(map(_CELL_VALUE.__getitem__, letters))  # type: ignore[arg-type]
    word_mult = 1
    for index, cell in new_in_word:
        letter_mult = _LETTER_MULT[index]
        if letter_mult != 1:
            total += _CELL_VALUE[cell] * (letter_mult - 1)
        word_mult *= _WORD_MULT[index]
    spelled = "".join(letters)  # type: ignore[arg-type]  # all tiles, as above
    return WordScore(spelled.upper(), total * word_mult, _NAMES[start], across, spelled)


def _gcg_position(start: int, across: bool) -> str:
    row, col = divmod(start, SIZE)
    return f"{row + 1}{COLUMNS[col]}" if across else f"{COLUMNS[col]}{row + 1}"


def _has_cross_neighbour(cells: list[str | None], index: int, across: bool) -> bool:
    """Is there a tile beside ``index`` across the play's direction?"""
    if across:
        return (index >= SIZE and cells[index - SIZE] is not None) or (
            index < SQUARES - SIZE and cells[index + SIZE] is not None
        )
    col = index % SIZE
    return (col > 0 and cells[index - 1] is not None) or (
        col < SIZE - 1 and cells[index + 1] is not None
    )


def _score(cells: list[str | None], new_list: list[tuple[int, str]], across: bool) -> Evaluation:
    """Score a play whose tiles are already in ``cells``."""
    step, cross_step = (1, SIZE) if across else (SIZE, 1)
    start, end = _line_bounds(cells, new_list[0][0], new_list[-1][0], across)
    words: list[WordScore] = []
    if end > start:
        words.append(_word_at(cells, start, end, step, new_list, across))
    for tile in new_list:
        index = tile[0]
        if _has_cross_neighbour(cells, index, across):
            c_start, c_end = _line_bounds(cells, index, index, not across)
            words.append(_word_at(cells, c_start, c_end, cross_step, (tile,), not across))
    main_across = across
    if end == start:
        # A lone tile only makes a word the other way: that word is the main one.
        main_across = not across
        start, end = _line_bounds(cells, start, start, main_across)
        step = cross_step
    spelled = [EMPTY_CELL] * ((end - start) // step + 1)
    for index, cell in new_list:
        spelled[(index - start) // step] = cell
    notation = "".join(spelled)
    bingo = len(new_list) >= BINGO_TILES
    score = sum(w.score for w in words) + (BINGO_BONUS if bingo else 0)
    return Evaluation(
        tuple(new_list),
        main_across,
        score,
        tuple(words),
        bingo,
        _gcg_position(start, main_across),
        notation,
    )


def check_tile_supply(board: Board) -> None:
    """Raise if the board holds more of a tile than the set contains."""
    for tile, count in board.tile_counts().items():
        if count > TILE_COUNTS[tile]:
            name = "blanks" if tile == BLANK else f"{tile}s"
            raise PlacementError(
                f"the board holds {count} {name} but the set has only {TILE_COUNTS[tile]}"
            )
