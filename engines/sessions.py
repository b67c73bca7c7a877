"""Club sessions: who plays with whom, on which board (RULES.md "Club sessions").

``form_groups`` takes the members who signed up (in sign-up order), the pairs
that asked to play together, and a stored seed, and returns the boards: each a
list of seats, each seat the members who share it (a pair, a pair with a third
member, or one member playing alone). Deterministic given its inputs, so a
restart or a replay forms the same groups.

- Pairs that asked stay together; everyone else is paired at random (the seed).
- Boards hold 4 pairs (8 members) each; pairs that do not fill a last board of
  4 make a board of 3, else a board of 2; one pair over a board of 4 (5, 9, …
  pairs) turns a board of 4 into a board of 3 and a board of 2.
- A single member left over joins a pair as its third player (``odd`` 'third'),
  or plays alone as a seat of one (``odd`` 'alone'), counted as a pair.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from engines.text import N_, TextError

Seat = list[int]
Board = list[Seat]

MIN_MEMBERS = 4
BOARD_PAIRS = 4
ODD_CHOICES = ("third", "alone")


class GroupingError(TextError):
    """The members cannot make a session (too few, or pairs that do not add up)."""


def board_sizes(seats: int, most: int = BOARD_PAIRS) -> list[int]:
    """How many seats each board gets: ``most`` (4) each, then the rest (never a board of
    1: one pair over makes the last two boards one smaller and a 2, or, at 2 a board, a 3)."""
    if seats < 2:
        raise GroupingError(N_("a board needs at least 2 pairs"))
    fulls, left = divmod(seats, most)
    if left == 0:
        return [most] * fulls
    if left == 1 and most == 2:
        return [2] * (fulls - 1) + [3]
    if left == 1:
        return [most] * (fulls - 1) + [most - 1, 2]
    return [most] * fulls + [left]


def form_groups(
    members: Sequence[int],
    requested_pairs: Sequence[tuple[int, int]],
    seed: int,
    *,
    odd: str = "third",
    board_pairs: int = BOARD_PAIRS,
) -> list[Board]:
    """The boards of a session (see the module's docstring)."""
    if odd not in ODD_CHOICES:
        raise GroupingError(
            N_("a member left over plays as 'third' or 'alone', not {odd}"), odd=repr(odd)
        )
    if len(set(members)) != len(members):
        raise GroupingError(N_("a member is listed twice"))
    if len(members) < MIN_MEMBERS:
        raise GroupingError(N_("a session needs at least {count} members"), count=MIN_MEMBERS)
    everyone = set(members)
    paired: set[int] = set()
    pairs: list[Seat] = []
    for a, b in requested_pairs:
        if a == b or a not in everyone or b not in everyone or {a, b} & paired:
            raise GroupingError(N_("a requested pair names someone twice or someone not signed up"))
        paired |= {a, b}
        pairs.append([a, b])
    rng = random.Random(seed)
    singles = [m for m in members if m not in paired]
    rng.shuffle(singles)
    left_over = singles.pop() if len(singles) % 2 else None
    pairs += [[singles[i], singles[i + 1]] for i in range(0, len(singles), 2)]
    rng.shuffle(pairs)
    if left_over is not None:
        if odd == "alone":
            pairs.insert(rng.randrange(len(pairs) + 1), [left_over])
        else:
            pairs[rng.randrange(len(pairs))].append(left_over)
    boards: list[Board] = []
    start = 0
    for size in board_sizes(len(pairs), board_pairs):
        boards.append(pairs[start : start + size])
        start += size
    return boards


def swap_members(boards: Sequence[Board], a: int, b: int) -> list[Board]:
    """The boards with members ``a`` and ``b`` in each other's places."""
    where = {
        m: (i, j, k)
        for i, board in enumerate(boards)
        for j, seat in enumerate(board)
        for k, m in enumerate(seat)
    }
    if a not in where or b not in where:
        raise GroupingError(N_("both members must be in the session's groups"))
    if a == b:
        raise GroupingError(N_("swap two different members"))
    out = [[list(seat) for seat in board] for board in boards]
    (ia, ja, ka), (ib, jb, kb) = where[a], where[b]
    out[ia][ja][ka], out[ib][jb][kb] = b, a
    return out


def board_of(boards: Sequence[Board], member: int) -> int | None:
    """The index of the board ``member`` plays on, if any."""
    return next((i for i, board in enumerate(boards) for seat in board if member in seat), None)
