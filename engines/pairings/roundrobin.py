"""Round robin by the FIDE Berger tables (Handbook C.05, Annex 1).

Entrants take Berger numbers from their seeds (1 = the top seed). For an even
count ``n`` the table for round ``r`` is read off a rotation of the numbers
``1 .. n-1``: the row starts at ``1 + ((r - 1) * n/2) mod (n - 1)``; its first
number meets ``n`` (``n`` has Black in odd rounds, White in even ones) and the
k-th number from each end of the rest meet with the left one White. That gives
the published rows (for six: 1-6 2-5 3-4 / 6-4 5-3 1-2 / 2-6 3-1 4-5 / ...),
so every pair meets exactly once and each entrant's Whites and Blacks differ
by at most one. An odd count plays the table for ``n + 1``, the extra number
being the bye.
"""

from __future__ import annotations

from collections.abc import Sequence

from engines.pairings._model import Entrant, Pairing, PairingError
from engines.text import N_


def berger_table(n: int) -> list[list[tuple[int, int]]]:
    """The Berger table for ``n`` (even) numbers: per round, (White, Black) pairs of numbers 1..n."""
    if n < 2 or n % 2:
        raise PairingError(N_("A Berger table needs an even number of at least two."))
    half = n // 2
    rounds: list[list[tuple[int, int]]] = []
    for r in range(1, n):
        start = (r - 1) * half % (n - 1)
        row = [1 + (start + i) % (n - 1) for i in range(n - 1)]
        boards = [(row[0], n) if r % 2 else (n, row[0])]
        boards += [(row[k], row[n - 1 - k]) for k in range(1, half)]
        rounds.append(boards)
    return rounds


def round_robin(entrants: Sequence[Entrant], *, colours: bool = True) -> list[list[Pairing]]:
    """Every round of a single round robin: ``result[r - 1]`` is round ``r``'s boards.

    Board order is the table's (the board against the highest number first).
    An odd number of entrants gives one bye per round (``Pairing(x, None)``),
    each entrant's bye in a different round. ``colours`` only documents the
    intent: Berger tables balance chess colours and Scrabble firsts alike, so
    both kinds get the same table.
    """
    del colours  # the Berger table is balanced either way
    ordered = _by_seed(entrants)
    if len(ordered) < 2:
        raise PairingError(N_("A round robin needs at least two entrants."))
    n = len(ordered) + len(ordered) % 2
    number = {i + 1: e.id for i, e in enumerate(ordered)}
    out: list[list[Pairing]] = []
    for boards in berger_table(n):
        round_pairs = []
        for white, black in boards:
            w, b = number.get(white), number.get(black)
            if w is None and b is not None:
                round_pairs.append(Pairing(b, None))
            elif b is None and w is not None:
                round_pairs.append(Pairing(w, None))
            elif w is not None and b is not None:
                round_pairs.append(Pairing(w, b))
        out.append(round_pairs)
    return out


def _by_seed(entrants: Sequence[Entrant]) -> list[Entrant]:
    ids = [e.id for e in entrants]
    if len(set(ids)) != len(ids):
        raise PairingError(N_("An entrant is listed twice."))
    return sorted(entrants, key=lambda e: (e.seed, -e.rating, e.id))
