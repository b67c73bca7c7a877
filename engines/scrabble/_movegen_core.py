"""The search behind ``movegen.py``: Appel & Jacobson over the word graph.

Kept apart so the algorithm reads in one place and ``movegen.py`` stays about
plays, leaves and levels. A search returns raw plays,

    (score, tiles, across, start, length)

built as ``play_type`` (``movegen.Play``): ``tiles`` is ``((square, cell),
...)`` in board order with the engine's cell encoding (upper case a tile,
lower case a blank), ``start`` the square where the main word begins and
``length`` its length.

Speed, in pure Python, comes from doing each piece of work once per call:

* cross-checks (letters allowed by the perpendicular word, as a set and a
  bit mask) are memoised by the word graph across calls;
* the prefixes a rack can spell do not depend on the board, so they are
  spelled once and bucketed by the letter that would go on the anchor (and,
  at an anchor just before a tile, narrowed once per letter and tile);
* racks are sorted strings with a precomputed "take this letter" table, so
  nothing is undone on the way back up;
* before descending to the next empty square, the node's letters, that
  square's cross-check and the rack are ANDed as bit masks;
* scores are summed on the way down; the left part's share, the tiles'
  tuple and the play are only built for a word that is complete.

Scoring uses the engine's own tables (``board._LETTER_MULT``, ``_WORD_MULT``,
``_CELL_VALUE``, ``BINGO_TILES``/``BINGO_BONUS``) and adds up what
``board._score`` adds: the main word's letters (new tiles times their letter
premium) times the new tiles' word premiums, plus each cross-word the same
way, plus the bingo bonus. The tests compare every score with the engine's.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Literal, TypeAlias, TypeVar, overload

from engines.scrabble.board import (
    _CELL_VALUE,
    _LETTER_MULT,
    _WORD_MULT,
    BINGO_BONUS,
    BINGO_TILES,
    CENTER_INDEX,
    SQUARES,
)
from engines.scrabble.layout import BLANK, SIZE
from engines.scrabble.wordgraph import ALL_LETTERS_MASK, Node, WordGraph, letter_mask

# ((square, cell), ...) in board order: a cell is upper case for a tile, lower case for a blank.
Tiles: TypeAlias = tuple[tuple[int, str], ...]
RawPlay: TypeAlias = tuple[int, Tiles, bool, int, int]  # (score, tiles, across, start, length)
_P = TypeVar("_P", bound=RawPlay)

# A left part's cells as a chain (last cell, (previous cell, ... None)); None: no cells.
_Chain: TypeAlias = tuple[str, "_Chain"] | None
# (depth, letter, child, prefix, rest, rest_after_letter, blanks_left): see _left_parts.
_LeftPart: TypeAlias = tuple[int, str, Node, _Chain, str, str | None, int]
# An empty square, for the search along its line: (allowed letters, letter mult,
# word mult, cross sum, tiles right after it, their face value, the next empty
# square, that square's cross-check mask or 0 when the line ends first).
_Square: TypeAlias = tuple[frozenset[str], int, int, int, str | None, int, int, int]
# A left part unwound: (placed tiles, letter sum, word mult).
_Share: TypeAlias = tuple[Tiles, int, int]
# A line of the board: (first square, step, end, its anchors).
_Line: TypeAlias = tuple[int, int, int, list[int]]

_VALUE = {letter: _CELL_VALUE[letter] for letter in "ABCDEFGHIJKLMNOPQRSTUVWXYZ"}
_ANY_LETTER = frozenset(_VALUE)
_BIT_LETTER = {1 << (ord(letter) - 65): letter for letter in _VALUE}
_LINES_ACROSS = tuple((row * SIZE, 1, row * SIZE + SIZE) for row in range(SIZE))
_LINES_DOWN = tuple((col, SIZE, col + SQUARES) for col in range(SIZE))
# Stands for a square not described yet: only the empty squares of the line
# being searched are read, and those are described before the search starts.
_NO_SQUARE: _Square = (frozenset(), 1, 1, -1, None, 0, 0, 0)


class _Found(Exception):
    """Raised to stop at the first legal play (``has_valid_play``)."""


def rack_options(rack: str) -> dict[str, dict[str, str]]:
    """For every sub-rack (sorted letters) of ``rack``: {letter: the sub-rack without it}.

    Racks travel down the search as these strings, so taking a tile is one
    dictionary look-up and nothing needs undoing on the way back.
    """
    table: dict[str, dict[str, str]] = {}
    pending = ["".join(sorted(rack))]
    while pending:
        current = pending.pop()
        if current in table:
            continue
        moves = {letter: current.replace(letter, "", 1) for letter in dict.fromkeys(current)}
        table[current] = moves
        pending.extend(moves.values())
    return table


@overload
def generate_raw(
    graph: WordGraph, cells: list[str | None], rack: str, first_only: Literal[True]
) -> list[None]: ...


@overload
def generate_raw(
    graph: WordGraph, cells: list[str | None], rack: str, *, play_type: type[_P]
) -> list[_P]: ...


def generate_raw(
    graph: WordGraph,
    cells: list[str | None],
    rack: str,
    first_only: bool = False,
    play_type: type[RawPlay] = tuple,
) -> Sequence[RawPlay | None]:
    """Every legal placement of ``rack`` (``?`` = blank) on ``cells``, scored.

    Plays come out as ``play_type`` (a tuple subclass such as a NamedTuple
    with the raw play's fields), built straight from the tuple.

    ``first_only`` stops at the first legal play and returns ``[None]`` (or
    ``[]`` when there is none): all a "can this rack play?" question needs.
    """
    blanks = rack.count(BLANK)
    letters = "".join(sorted(t for t in rack if t != BLANK))
    out: list[RawPlay] = []
    if len(letters) + blanks == 0:
        return out
    search = _Search(graph, cells, letters, blanks, out, first_only, play_type)
    with _collector_paused():
        try:
            _line_pass(search, True)
            _line_pass(search, False)
        except _Found:
            return [None]
    return out


@contextmanager
def _collector_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector for one search.

    A search allocates tens of thousands of small tuples, none of them part of
    a cycle (reference counting frees them). Left on, the collector would count
    them and set off full passes over every object in the process, the word
    graph's 170k among them: that tripled the slowest searches. It is switched
    back on only if it was on, so a caller's own choice stands.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


class _Search:
    """One call's state: the board, the rack and the left parts it can spell."""

    def __init__(
        self,
        graph: WordGraph,
        cells: list[str | None],
        letters: str,
        blanks: int,
        out: list[RawPlay],
        first_only: bool,
        play_type: type[RawPlay],
    ) -> None:
        self.graph = graph
        self.cells = cells
        self.upper = [None if cell is None else cell.upper() for cell in cells]
        self.empty_board = all(cell is None for cell in cells)
        self.letters = letters
        self.blanks = blanks
        self.total = len(letters) + blanks
        self.options = rack_options(letters)
        self.masks = {rest: letter_mask(rest) for rest in self.options}
        self.out = out
        self.first_only = first_only
        self.play_type = play_type
        # Anchors line by line, for plays across and down, and the most room any
        # anchor has for a left part: left parts are spelled once, that deep.
        self.anchors: dict[bool, list[_Line]] = {
            across: [
                (base, step, end, _anchors(self.upper, base, step, end, self.empty_board))
                for base, step, end in (_LINES_ACROSS if across else _LINES_DOWN)
            ]
            for across in (True, False)
        }
        self.max_room = min(
            self.total - 1,
            max(
                (
                    _room(self.upper, base, step, anchors)
                    for lines in self.anchors.values()
                    for base, step, _, anchors in lines
                ),
                default=0,
            ),
        )
        self._left: dict[str, list[_LeftPart]] | None = None
        self._before_tile: dict[str, _Narrowed] = {}  # letter + tile
        self._scan_index: dict[str, tuple[list[int], list[int]]] = {}

    def left_parts(self) -> dict[str, list[_LeftPart]]:
        # Left parts depend only on the rack: spelled on first use, as deep as needed.
        if self._left is None:
            self._left = _left_parts(
                self.graph.root, self.options, self.letters, self.blanks, self.max_room
            )
        return self._left

    def left_parts_before(self, letter: str, tile: str, room: int) -> list[_LeftPart]:
        """``left_parts()[letter]`` narrowed to the entries whose node goes on with
        the board tile ``tile`` (the one just after the anchor); the list holds at
        least every such entry of ``room`` letters or fewer.

        An anchor just before a tile kills most left parts at that tile; sorting
        them out once per (letter, tile) saves trying each at every such anchor.
        The bucket is read only as deep as some anchor has room for, through a
        list of its entries' letter masks (cheaper to scan than the entries).
        """
        key = letter + tile
        known = self._before_tile.get(key)
        if known is None:
            known = self._before_tile[key] = _Narrowed()
        read, found = known.read, known.found
        index = self._scan_index.get(letter)
        if index is None:
            index = self._scan_index[letter] = _scan_index(self.left_parts().get(letter, []))
        child_masks, depth_ends = index
        until = depth_ends[min(room, len(depth_ends) - 1)] if depth_ends else 0
        if read < until:
            bit = 1 << (ord(tile) - 65)
            bucket = self.left_parts()[letter]
            found += [bucket[k] for k in range(read, until) if child_masks[k] & bit]
            known.read = until
        return found


class _Narrowed:
    """A bucket of left parts narrowed to one board tile: how many of its
    entries have been read, and those kept."""

    __slots__ = ("found", "read")

    def __init__(self) -> None:
        self.read = 0
        self.found: list[_LeftPart] = []


def _scan_index(bucket: list[_LeftPart]) -> tuple[list[int], list[int]]:
    """A bucket's child letter masks, and for each depth d the end of the entries
    of depth d or less (the bucket is in order of depth)."""
    child_masks = [entry[2][2] for entry in bucket]
    depth_ends: list[int] = []
    for position, entry in enumerate(bucket):
        while len(depth_ends) < entry[0]:
            depth_ends.append(position)
    depth_ends.append(len(bucket))
    return child_masks, depth_ends


def _left_parts(
    root: Node, options: dict[str, dict[str, str]], rack: str, blanks: int, max_depth: int
) -> dict[str, list[_LeftPart]]:
    """Every prefix the rack can spell (up to ``max_depth`` tiles), bucketed by a next letter.

    ``parts[L]`` lists ``(depth, L, child, prefix, rest, rest_after_L, blanks_left)``
    for each prefix whose node continues with ``L`` while the tiles left
    still hold an ``L`` (``rest_after_L`` is then the rack without it, else
    None) or a blank; ``child`` is the node after ``L``. ``prefix`` is the
    prefix's cells as a chain ``(last cell, (previous cell, ... None))``,
    unwound only for a prefix that ends up in a play. Lists are in order of
    depth, so an anchor with little room stops early.
    """
    parts: dict[str, list[_LeftPart]] = {}
    level: list[tuple[Node, _Chain, str, int]] = [(root, None, rack, blanks)]
    child: Node | None
    for depth in range(max_depth + 1):
        deeper = depth < max_depth
        following: list[tuple[Node, _Chain, str, int]] = []
        add = following.append
        for node, prefix, rest, nb in level:
            moves = options[rest]
            if nb:
                for letter, child in node[0].items():
                    after = moves.get(letter)
                    entry = (depth, letter, child, prefix, rest, after, nb)
                    bucket = parts.get(letter)
                    if bucket is None:
                        parts[letter] = [entry]
                    else:
                        bucket.append(entry)
                    if deeper:
                        if after is not None:
                            add((child, (letter, prefix), after, nb))
                        add((child, (letter.lower(), prefix), rest, nb - 1))
            else:
                children = node[0]
                for letter, after in moves.items():
                    child = children.get(letter)
                    if child is None:
                        continue
                    entry = (depth, letter, child, prefix, rest, after, 0)
                    bucket = parts.get(letter)
                    if bucket is None:
                        parts[letter] = [entry]
                    else:
                        bucket.append(entry)
                    if deeper:
                        add((child, (letter, prefix), after, 0))
        if not following:
            break
        level = following
    return parts


def _cross_checks(
    graph: WordGraph, upper: list[str | None], cells: list[str | None], across: bool
) -> tuple[list[frozenset[str]], list[int], list[int]]:
    """For each empty square: the letters the perpendicular line allows there
    (as a set and as a letter mask) and the face value of the tiles in that
    line beside it (-1: the square makes no cross-word). ``across``: plays run
    along rows, so the cross-words run down columns."""
    allowed: list[frozenset[str]] = [_ANY_LETTER] * SQUARES
    masks = [ALL_LETTERS_MASK] * SQUARES
    cross_sum = [-1] * SQUARES
    value = _CELL_VALUE
    cross_check = graph.cross_check
    for index in range(SQUARES):
        if upper[index] is not None:
            continue
        if across:
            step, low, high = SIZE, 0, SQUARES - 1
        else:
            step = 1
            low = index - index % SIZE
            high = low + SIZE - 1
        before = index - step
        after = index + step
        has_before = before >= low and upper[before] is not None
        has_after = after <= high and upper[after] is not None
        if not (has_before or has_after):
            continue
        total = 0
        head: list[str] = []
        # cells[i] holds a tile wherever upper[i] does (upper is cells upper-cased),
        # which the types of the two lists cannot say: hence the two ignores.
        while before >= low and (tile := upper[before]) is not None:
            head.append(tile)
            total += value[cells[before]]  # type: ignore[index]
            before -= step
        tail: list[str] = []
        while after <= high and (tile := upper[after]) is not None:
            tail.append(tile)
            total += value[cells[after]]  # type: ignore[index]
            after += step
        allowed[index], masks[index] = cross_check("".join(reversed(head)), "".join(tail))
        cross_sum[index] = total
    return allowed, masks, cross_sum


def _line_pass(search: _Search, across: bool) -> None:
    """All plays whose main word runs across (rows) or down (columns).

    Appel & Jacobson: every play covers an *anchor* (an empty square next to a
    tile; the centre on an empty board) with a new tile. Each play is made
    from its first anchor: the part before that anchor lies on empty squares
    that are not anchors (so it is any prefix the rack can spell, see
    ``_left_parts``) or is the run of tiles just before the anchor; the rest
    is extended square by square, through tiles already on the board.

    Scores add up as the tiles go down: ``ms`` is the main word's letter sum
    and ``wmul`` its word multiplier (both for the part from the anchor on),
    ``xt`` the cross-words' total. The left part's share is added only when
    a play is recorded, since most left parts never make one.

    Before going on to the next empty square, three masks are ANDed: the
    node's next letters, the square's cross-check and the rack's letters (all
    letters while a blank is left). Most dead ends stop there, without a call.
    """
    graph, cells, upper = search.graph, search.cells, search.upper
    options, masks, out, first_only = search.options, search.masks, search.out, search.first_only
    play_type = search.play_type
    new = tuple.__new__
    total = search.total
    allowed, allowed_mask, cross_sum = _cross_checks(graph, upper, cells, across)
    value = _CELL_VALUE
    letter_value = _VALUE
    bingo_tiles = BINGO_TILES
    bonus = BINGO_BONUS
    letter_mult = _LETTER_MULT
    word_mult = _WORD_MULT
    every = ALL_LETTERS_MASK
    bit_letter = _BIT_LETTER
    # Per empty square of the line being searched: see _Square.
    square: list[_Square] = [_NO_SQUARE] * SQUARES
    placed: list[tuple[int, str]] = []
    step = 1
    start = 0  # where the word being built begins
    prefix: _Chain = None  # the left part's cells (a chain, see _left_parts), or None
    depth = 0  # how many tiles the left part holds
    # (cells, letter sum, word mult) of the left part, once unwound
    left_share: _Share | None = None
    shares: dict[int, _Share] = {}  # the same, by prefix, for the anchor being tried

    def record(end: int, ms: int, wmul: int, xt: int) -> None:
        """A word ends just before ``end``: keep the play (the node is a word)."""
        nonlocal left_share
        count = len(placed) + depth
        if count == 1:
            if end - start < step + step:
                return  # one letter is not a word
            if not across and cross_sum[placed[0][0]] >= 0:
                return  # a lone tile with a neighbour in its row: the across pass has it
        if depth:
            if left_share is None:
                # Entries for other anchor letters share this prefix: unwind it once.
                left_share = shares.get(id(prefix))
                if left_share is None:
                    left_share = shares[id(prefix)] = _unwind(prefix, start, step)
            left_tiles, left_sum, left_mult = left_share
            score = (ms + left_sum) * wmul * left_mult + xt
            tiles = left_tiles + tuple(placed)
        else:
            score = ms * wmul + xt
            tiles = tuple(placed)
        if count >= bingo_tiles:
            score += bonus
        out.append(new(play_type, (score, tiles, across, start, (end - start) // step)))

    def found_one(end: int, ms: int, wmul: int, xt: int) -> None:
        """``record`` for "is there any play": the first real one ends the search."""
        if len(placed) + depth == 1 and (
            end - start < step + step or (not across and cross_sum[placed[0][0]] >= 0)
        ):
            return
        raise _Found

    if first_only:
        record = found_one  # the search calls whichever ``record`` is bound here

    def extend(node: Node, index: int, rack_now: str, nb: int, ms: int, wmul: int, xt: int) -> None:
        """Try every tile the rack and the square allow on the empty square ``index``."""
        child: Node | None  # declared only: a board tile's letter may lead nowhere
        rest: str | None  # declared only: a blank's letter need not be on the rack
        allow, lmul, wsq, cross, run, run_value, end, next_mask = square[index]
        children = node[0]
        moves = options[rack_now]
        wmul2 = wmul * wsq
        if not nb:
            # The common case, written out on its own: lettered tiles only, and
            # only the letters the node, the square and the rack all allow.
            fits = node[2] & allowed_mask[index] & masks[rack_now]
            while fits:
                bit = fits & -fits
                fits ^= bit
                letter = bit_letter[bit]
                child = children[letter]
                rest = moves[letter]
                if run is not None:
                    for ch in run:
                        child = child[0].get(ch)
                        if child is None:
                            break
                    if child is None:
                        continue
                is_word = child[1]
                go_on = child[2] & next_mask & masks[rest]
                if is_word or go_on:
                    points = letter_value[letter] * lmul
                    ms2 = ms + points + run_value
                    xt2 = xt + (cross + points) * wsq if cross >= 0 else xt
                    placed.append((index, letter))
                    if is_word:
                        record(end, ms2, wmul2, xt2)
                    if go_on:
                        extend(child, end, rest, 0, ms2, wmul2, xt2)
                    placed.pop()
            return
        for letter, child in children.items():
            if letter not in allow:
                continue
            if run is not None:
                for ch in run:
                    child = child[0].get(ch)
                    if child is None:
                        break
                if child is None:
                    continue
            is_word = child[1]
            going = child[2] & next_mask
            rest = moves.get(letter)
            if rest is not None:
                points = letter_value[letter] * lmul
                xt2 = xt + (cross + points) * wsq if cross >= 0 else xt
                ms2 = ms + points + run_value
                go_on = going & (every if nb else masks[rest])
                if is_word or go_on:
                    placed.append((index, letter))
                    if is_word:
                        record(end, ms2, wmul2, xt2)
                    if go_on:
                        extend(child, end, rest, nb, ms2, wmul2, xt2)
                    placed.pop()
            # The same letter from a blank: no points, the rack keeps its tiles.
            xt2 = xt + cross * wsq if cross >= 0 else xt
            go_on = going & (every if nb > 1 else masks[rack_now])
            if is_word or go_on:
                placed.append((index, letter.lower()))
                if is_word:
                    record(end, ms + run_value, wmul2, xt2)
                if go_on:
                    extend(child, end, rack_now, nb - 1, ms + run_value, wmul2, xt2)
                placed.pop()

    for base, step, line_end, anchors in search.anchors[across]:
        if not anchors:
            continue
        # Square facts, from the end of the line back (to know the tiles after each).
        run = None
        run_value = 0
        after_run = line_end
        for index in range(line_end - step, base - step, -step):
            tile = upper[index]
            if tile is None:
                square[index] = (
                    allowed[index],
                    letter_mult[index],
                    word_mult[index],
                    cross_sum[index],
                    run,
                    run_value,
                    after_run,
                    allowed_mask[after_run] if after_run < line_end else 0,
                )
                run = None
                run_value = 0
                after_run = index
            else:
                run = tile if run is None else tile + run
                # cells[index] is a tile, as upper[index] is: the types cannot tie them.
                run_value += value[cells[index]]  # type: ignore[index]
        previous = base - step
        for index in anchors:
            if index > base and upper[index - step] is not None:
                # The tiles just before the anchor begin the word.
                first = index - step
                while first > base and upper[first - step] is not None:
                    first -= step
                # Tiles from first to the anchor (see the loop above), so no None in
                # either slice, which the lists' types cannot say.
                node = graph.walk("".join(upper[first:index:step]))  # type: ignore[arg-type]
                previous = index
                if node is None or not node[2] & allowed_mask[index]:
                    continue
                start, prefix, depth, left_share = first, None, 0, None
                placed.clear()
                extend(
                    node,
                    index,
                    search.letters,
                    search.blanks,
                    sum(map(value.__getitem__, cells[first:index:step])),  # type: ignore[arg-type]
                    1,
                    0,
                )
                continue
            room = min((index - previous) // step - 1, total - 1)
            previous = index
            allow, lmul, wsq, cross, run, run_value, end, next_mask = square[index]
            parts = search.left_parts()
            shares.clear()
            real_cross = cross >= 0
            blank_xt = cross * wsq if real_cross else 0
            for letter in parts:
                if letter not in allow:
                    continue
                group = (
                    parts[letter] if run is None else search.left_parts_before(letter, run[0], room)
                )
                if not group:
                    continue
                # What the anchor's tile is worth depends only on its letter.
                points = letter_value[letter] * lmul
                real_xt = (cross + points) * wsq if real_cross else 0
                real_ms = points + run_value
                real_tile = (index, letter)
                blank_tile = (index, letter.lower())
                # ``depth`` and ``prefix`` are the outer variables ``record`` reads.
                for depth, _, node, prefix, rest, after, nb in group:  # noqa: B007
                    if depth > room:
                        break
                    if run is not None:
                        for ch in run:
                            node = node[0].get(ch)
                            if node is None:
                                break
                        if node is None:
                            continue
                    is_word = node[1]
                    going = node[2] & next_mask
                    start = index - depth * step
                    left_share = None
                    if after is not None:
                        go_on = going & (every if nb else masks[after])
                        if is_word or go_on:
                            placed[:] = (real_tile,)
                            if is_word:
                                record(end, real_ms, wsq, real_xt)
                            if go_on:
                                extend(node, end, after, nb, real_ms, wsq, real_xt)
                    if nb:
                        go_on = going & (every if nb > 1 else masks[rest])
                        if is_word or go_on:
                            placed[:] = (blank_tile,)
                            if is_word:
                                record(end, run_value, wsq, blank_xt)
                            if go_on:
                                extend(node, end, rest, nb - 1, run_value, wsq, blank_xt)
            placed.clear()


def _unwind(prefix: _Chain, start: int, step: int) -> _Share:
    """A left part's cells as placed tiles from ``start``, with its letter sum and word mult."""
    cells: list[str] = []
    while prefix is not None:
        cells.append(prefix[0])
        prefix = prefix[1]
    cells.reverse()
    tiles: list[tuple[int, str]] = []
    letter_sum = 0
    word_mult = 1
    index = start
    for cell in cells:
        tiles.append((index, cell))
        letter_sum += _CELL_VALUE[cell] * _LETTER_MULT[index]
        word_mult *= _WORD_MULT[index]
        index += step
    return tuple(tiles), letter_sum, word_mult


def _room(upper: list[str | None], base: int, step: int, anchors: list[int]) -> int:
    """The most empty, non-anchor squares before any anchor of a line that has
    an empty square just before it (those are where left parts go)."""
    most = 0
    previous = base - step
    for index in anchors:
        if index == base or upper[index - step] is None:
            most = max(most, (index - previous) // step - 1)
        previous = index
    return most


def _anchors(
    upper: list[str | None], base: int, step: int, line_end: int, empty_board: bool
) -> list[int]:
    """Empty squares of a line that touch a tile (on an empty board, the centre)."""
    if empty_board:
        on_line = base <= CENTER_INDEX < line_end and (CENTER_INDEX - base) % step == 0
        return [CENTER_INDEX] if on_line else []
    found: list[int] = []
    for index in range(base, line_end, step):
        if upper[index] is not None:
            continue
        col = index % SIZE
        if (
            (col > 0 and upper[index - 1] is not None)
            or (col < SIZE - 1 and upper[index + 1] is not None)
            or (index >= SIZE and upper[index - SIZE] is not None)
            or (index < SQUARES - SIZE and upper[index + SIZE] is not None)
        ):
            found.append(index)
    return found
