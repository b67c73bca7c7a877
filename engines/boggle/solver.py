"""Find every word on a grid.

Speed matters (results show the best words nobody found, and the benchmark
asks for thousands of boards a second in pure Python), so the search works on
bitmasks:

* every face (26 letters and the six two-letter faces) is one bit;
* the index is the lexicon's DAWG re-shaped for this search: a node is a tuple
  ``(face_mask, is_word, children)`` where ``children`` maps a face bit to the
  child node and ``face_mask`` ORs those bits. A two-letter face gets its own
  edge (the node two letters down), so a Qu cell is one step like any other;
* cells are bits too; each stack entry holds the cell, the faces worth trying
  next (the node's faces that occur around the cell), the child table, the
  visited cells and the word so far.

Pruning happens when an entry is pushed: a prefix whose node has no face in
common with the cell's neighbours is never expanded.
"""

from __future__ import annotations

from functools import cache
from typing import TypeAlias

from engines.boggle.grid import LETTERS, MULTI_LETTER_FACES, Grid, neighbour_table
from engines.boggle.points import word_score
from engines.lexicon import Lexicon
from engines.lexicon.dawg import ALPHABET

# Letters first so that every plain letter is a bit below 2**30 (a one-digit int).
FACE_BIT = {face: 1 << index for index, face in enumerate(tuple(LETTERS) + MULTI_LETTER_FACES)}
_FACE_OF_BIT = {bit: face for face, bit in FACE_BIT.items()}
_LETTER_BITS = tuple(FACE_BIT[letter] for letter in ALPHABET)
_MULTI_LETTER_STEPS = tuple(
    (FACE_BIT[face], FACE_BIT[face[0]], FACE_BIT[face[1]]) for face in MULTI_LETTER_FACES
)
_INDEX_KEY = "boggle.solver.index"

# (face_mask, is_word, children): children maps a face bit to the child node.
SolverNode: TypeAlias = tuple[int, bool, dict[int, "SolverNode"]]


def solver_index(lexicon: Lexicon) -> SolverNode:
    """The lexicon's search index, built on first use and kept with the lexicon."""
    return lexicon.derived(_INDEX_KEY, _build_index)


def _build_index(lexicon: Lexicon) -> SolverNode:
    dawg = lexicon.dawg
    starts, letters, targets, terminal = (
        dawg.edge_start,
        dawg.edge_letter,
        dawg.edge_target,
        dawg.terminal,
    )
    letter_bits = _LETTER_BITS
    nodes: list[SolverNode] = []
    # Post-order numbering: a node's children are always built before it.
    for node in range(dawg.node_count):
        children = {
            letter_bits[letters[edge]]: nodes[targets[edge]]
            for edge in range(starts[node], starts[node + 1])
        }
        for face_bit, first, second in _MULTI_LETTER_STEPS:
            middle = children.get(first)
            if middle is not None:
                end = middle[2].get(second)
                if end is not None:
                    children[face_bit] = end
        nodes.append((sum(children), bool(terminal[node]), children))
    return nodes[-1]


@cache
def _cell_tables(width: int, height: int) -> tuple[tuple[tuple[int, ...], ...], dict[int, int]]:
    """Neighbour lists by cell index, and neighbour cell masks by cell bit."""
    table = neighbour_table(width, height)
    masks = {1 << cell: sum(1 << other for other in table[cell]) for cell in range(len(table))}
    return table, masks


def find_words(grid: Grid, lexicon: Lexicon) -> set[str]:
    """Every word of the lexicon that can be traced on the grid (any length)."""
    _, _, root_children = solver_index(lexicon)
    neighbours, neighbour_mask = _cell_tables(grid.width, grid.height)
    face_bits = [FACE_BIT[face] for face in grid.cells]
    cells_with_face: dict[int, int] = {}
    for cell, bit in enumerate(face_bits):
        cells_with_face[bit] = cells_with_face.get(bit, 0) | (1 << cell)
    faces_around: dict[int, int] = {}
    for cell, around in enumerate(neighbours):
        mask = 0
        for other in around:
            mask |= face_bits[other]
        faces_around[1 << cell] = mask

    found: set[str] = set()
    add = found.add
    face_of_bit = _FACE_OF_BIT
    stack: list[tuple[int, int, dict[int, SolverNode], int, str]] = []
    push, pop = stack.append, stack.pop
    for cell, bit in enumerate(face_bits):
        start = root_children.get(bit)
        if start is None:
            continue
        cell_bit = 1 << cell
        face = face_of_bit[bit]
        if start[1]:
            add(face)
        push((cell_bit, start[0] & faces_around[cell_bit], start[2], cell_bit, face))
        while stack:
            cell_bit, faces, children, visited, word = pop()
            free = neighbour_mask[cell_bit] & ~visited
            while faces:
                face_bit = faces & -faces
                faces ^= face_bit
                targets = free & cells_with_face[face_bit]
                if not targets:
                    continue
                child_mask, is_word, grandchildren = children[face_bit]
                longer = word + face_of_bit[face_bit]
                if is_word:
                    add(longer)
                if not child_mask:
                    continue
                while targets:
                    target = targets & -targets
                    targets ^= target
                    next_faces = child_mask & faces_around[target]
                    if next_faces:
                        push((target, next_faces, grandchildren, visited | target, longer))
    return found


def solve(grid: Grid, lexicon: Lexicon, min_length: int = 3) -> dict[str, int]:
    """Every word of at least ``min_length`` letters on the grid, with its score."""
    return {
        word: word_score(len(word), min_length)
        for word in find_words(grid, lexicon)
        if len(word) >= min_length
    }
