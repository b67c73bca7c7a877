"""The standard English Scrabble board and tile set (RULES.md, "Scrabble").

Coordinates: rows 0..14 are board rows 1..15 top to bottom; columns 0..14 are
A..O left to right. ``PREMIUMS[row][col]`` is one of ``"TW" "DW" "TL" "DL"`` or
``None``. The centre (row 7, col 7, "H8") is a double-word square.
"""

from __future__ import annotations

SIZE = 15
CENTER = (7, 7)
COLUMNS = "ABCDEFGHIJKLMNO"

# T = triple word, D = double word, t = triple letter, d = double letter.
_PREMIUM_ROWS = (
    "T..d...T...d..T",
    ".D...t...t...D.",
    "..D...d.d...D..",
    "d..D...d...D..d",
    "....D.....D....",
    ".t...t...t...t.",
    "..d...d.d...d..",
    "T..d...D...d..T",
    "..d...d.d...d..",
    ".t...t...t...t.",
    "....D.....D....",
    "d..D...d...D..d",
    "..D...d.d...D..",
    ".D...t...t...D.",
    "T..d...T...d..T",
)
_CODES = {"T": "TW", "D": "DW", "t": "TL", "d": "DL", ".": None}

PREMIUMS: tuple[tuple[str | None, ...], ...] = tuple(
    tuple(_CODES[ch] for ch in row) for row in _PREMIUM_ROWS
)

BLANK = "?"

LETTER_VALUES: dict[str, int] = {
    BLANK: 0,
    **dict.fromkeys("AEIOULNSTR", 1),
    **dict.fromkeys("DG", 2),
    **dict.fromkeys("BCMP", 3),
    **dict.fromkeys("FHVWY", 4),
    "K": 5,
    **dict.fromkeys("JX", 8),
    **dict.fromkeys("QZ", 10),
}

TILE_COUNTS: dict[str, int] = {
    BLANK: 2,
    "A": 9,
    "B": 2,
    "C": 2,
    "D": 4,
    "E": 12,
    "F": 2,
    "G": 3,
    "H": 2,
    "I": 9,
    "J": 1,
    "K": 1,
    "L": 4,
    "M": 2,
    "N": 6,
    "O": 8,
    "P": 2,
    "Q": 1,
    "R": 6,
    "S": 4,
    "T": 6,
    "U": 4,
    "V": 2,
    "W": 2,
    "X": 1,
    "Y": 2,
    "Z": 1,
}

assert sum(TILE_COUNTS.values()) == 100


def square_name(row: int, col: int) -> str:
    """``(7, 7)`` -> ``"H8"``."""
    return f"{COLUMNS[col]}{row + 1}"
