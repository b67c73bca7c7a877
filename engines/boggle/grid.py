"""The Boggle grid: cells holding a face (one letter, or a multi-letter face like Qu)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

from engines.text import TextError

LETTERS = "abcdefghijklmnopqrstuvwxyz"
# Two-letter faces found on Boggle cubes. Each is one cell, read in printed
# order only, and counts as two letters.
MULTI_LETTER_FACES = ("qu", "th", "in", "er", "he", "an")
# Every face a cell can show. No cube has a bare Q (its face is Qu).
FACES = tuple(letter for letter in LETTERS if letter != "q") + MULTI_LETTER_FACES
MIN_SIDE = 2
MAX_SIDE = 8

_ROW_SEPARATOR = re.compile(r"\s*(?:/|\n)\s*")


class BoggleError(TextError):
    """Bad Boggle input (a grid, dice set, option); the message is fit for players."""


def canonical_face(token: str) -> str:
    """Lowercase face for a cell as written: "Qu", "QU" and a lone "Q" all mean Qu.

    No Boggle cube carries a bare Q, so a grid copied from a photo as "Q" means
    the Qu face.
    """
    face = token.strip().lower()
    if face == "q":
        return "qu"
    if face not in FACES:
        raise BoggleError(
            f"{token!r} is not a Boggle face: use one letter A–Z or one of "
            f"{', '.join(f.capitalize() for f in MULTI_LETTER_FACES)}."
        )
    return face


def printed_face(face: str) -> str:
    """How a face is printed on a cube: "A", "Qu"."""
    return face.capitalize()


@dataclass(frozen=True)
class Grid:
    """A rectangular grid of faces, stored row-major in lowercase ("qu", "a", ...)."""

    cells: tuple[str, ...]
    width: int

    def __post_init__(self) -> None:
        if self.width < 1 or not self.cells or len(self.cells) % self.width:
            raise BoggleError("A Boggle grid needs rows of equal length.")
        if not (MIN_SIDE <= self.width <= MAX_SIDE and MIN_SIDE <= self.height <= MAX_SIDE):
            raise BoggleError(
                f"A Boggle grid has {MIN_SIDE} to {MAX_SIDE} rows and {MIN_SIDE} to {MAX_SIDE} columns."
            )
        for face in self.cells:
            if face not in FACES:
                raise BoggleError(f"{face!r} is not a Boggle face.")

    @property
    def height(self) -> int:
        """How many rows the grid has."""
        return len(self.cells) // self.width

    @property
    def letters(self) -> int:
        """How many letters the grid holds (a Qu cell is two): no word it spells is longer."""
        return sum(len(face) for face in self.cells)

    @classmethod
    def from_rows(cls, rows: list[list[str]] | tuple[tuple[str, ...], ...]) -> Grid:
        """A grid from its rows of faces as written (``Q`` is Qu); uneven rows are refused."""
        if not rows or not rows[0]:
            raise BoggleError("A Boggle grid needs at least one row.")
        width = len(rows[0])
        if any(len(row) != width for row in rows):
            raise BoggleError("Every row of a Boggle grid needs the same number of cells.")
        return cls(tuple(canonical_face(cell) for row in rows for cell in row), width)

    @classmethod
    def parse(cls, text: str) -> Grid:
        """Read "QU A T E/B C D E/..." (rows split by "/" or new lines).

        Cells are separated by spaces; a row without spaces is one letter per
        cell ("QATE/BCDE/..."), which suits grids with no multi-letter face.
        """
        row_texts = [row for row in _ROW_SEPARATOR.split(text.strip()) if row]
        if not row_texts:
            raise BoggleError("The grid is empty: write rows like 'QU A T E/B C D E/...'.")
        rows = [row.split() if any(c.isspace() for c in row) else list(row) for row in row_texts]
        return cls.from_rows(rows)

    @property
    def rows(self) -> tuple[tuple[str, ...], ...]:
        """Faces as printed on the cubes ("Qu", "A"), row by row."""
        w = self.width
        return tuple(
            tuple(printed_face(face) for face in self.cells[start : start + w])
            for start in range(0, len(self.cells), w)
        )

    def __str__(self) -> str:
        return "/".join(" ".join(face.upper() for face in row) for row in self.rows)

    def neighbours(self, index: int) -> tuple[int, ...]:
        """The cells touching cell ``index`` (row-major), diagonals included."""
        return neighbour_table(self.width, self.height)[index]


@cache
def neighbour_table(width: int, height: int) -> tuple[tuple[int, ...], ...]:
    """For each cell, the cells touching it horizontally, vertically or diagonally."""
    table = []
    for index in range(width * height):
        row, col = divmod(index, width)
        table.append(
            tuple(
                r * width + c
                for r in (row - 1, row, row + 1)
                for c in (col - 1, col, col + 1)
                if (r, c) != (row, col) and 0 <= r < height and 0 <= c < width
            )
        )
    return tuple(table)
