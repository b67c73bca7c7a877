"""Points for a valid Boggle word, by length."""

from __future__ import annotations

from engines.boggle.grid import BoggleError

DEFAULT_MIN_LENGTH = 4
_POINTS_BY_LENGTH = {3: 1, 4: 1, 5: 2, 6: 3, 7: 5}
_LONG_WORD_POINTS = 11  # eight letters or more


def word_score(length: int, min_length: int = DEFAULT_MIN_LENGTH) -> int:
    """Points for a valid word of ``length`` letters (a Qu cell counts as two).

    4 → 1, 5 → 2, 6 → 3, 7 → 5, 8 or more → 11; 3 → 1 when the minimum is 3.
    """
    if min_length < 3:
        raise BoggleError("The minimum word length is 3 or more.")
    if length < min_length:
        return 0
    return _POINTS_BY_LENGTH.get(length, _LONG_WORD_POINTS)
