"""Board, grid and table images: time per render (PNG bytes included) and PNG size.

Caches are warmed first (the bot keeps them for its lifetime); the leaderboard
gets new names on every call so its text is really drawn, not replayed.
"""

from __future__ import annotations

import itertools
import string

import chess

from benchmarks._core import Row, ms_row, time_calls
from bot.render import (
    ScrabbleBoardView,
    render_boggle_grid,
    render_chess_board,
    render_leaderboard,
    render_rack,
    render_scrabble_board,
)

CHESS_BUDGET_MS = 4
SCRABBLE_BUDGET_MS = 13
SCRABBLE_BUDGET_KB = 200
BOGGLE_BUDGET_MS = 5
LEADERBOARD_BUDGET_MS = 20

_GAME = [
    "e4",
    "e5",
    "Nf3",
    "Nc6",
    "Bb5",
    "a6",
    "Ba4",
    "Nf6",
    "O-O",
    "Be7",
    "Re1",
    "b5",
    "Bb3",
    "d6",
    "c3",
    "O-O",
    "h3",
    "Na5",
    "Bc2",
    "c5",
    "d4",
    "Qc7",
]


def _chess_positions() -> list[chess.Board]:
    boards = []
    board = chess.Board()
    for san in _GAME:
        board.push_san(san)
        boards.append(board.copy())
    checked = chess.Board()
    for san in ("f3", "e5", "g4", "Qh4"):
        checked.push_san(san)
    return boards + [checked]


def _full_scrabble_view() -> ScrabbleBoardView:
    # Every square filled, blanks included: the largest and slowest case.
    letters = string.ascii_uppercase * 8 + "abc"
    tiles = [[letters[(7 * r + c) % len(letters)] for c in range(15)] for r in range(15)]
    return ScrabbleBoardView(
        tiles=tiles,
        last_play=frozenset((7, c) for c in range(3, 10)),
        header=["Ana 412 · Ben 398 · Cleo 351 · Dan 340", "0 tiles in bag", "▶ Ana to play"],
    )


def _midgame_scrabble_view() -> ScrabbleBoardView:
    tiles: list[list[str | None]] = [[None] * 15 for _ in range(15)]
    for i, letter in enumerate("QUIXOTIC"):
        tiles[7][3 + i] = letter
    for i, letter in enumerate("ZEBrA"):
        tiles[2 + i][5] = letter
    for i, letter in enumerate("JOUSTED"):
        tiles[8 + i][10] = letter
    last_play = frozenset((8 + i, 10) for i in range(7))
    return ScrabbleBoardView(tiles, last_play, ["Ana 212 · Ben 198", "▶ Ben to play"])


_BOGGLE_6 = [
    ["Qu", "Th", "In", "Er", "He", "An"],
    list("ABCDEF"),
    list("GHIJKL"),
    list("MNOPRS"),
    list("TUVWXY"),
    list("ZEAEIO"),
]
_BOGGLE_4 = [["Qu", "A", "T", "E"], list("RSMW"), list("NZIO"), list("LEDH")]
_NAMES = [
    "Niño Ibáñez",
    "Zoë Smith",
    "Ana",
    "José María Fernández-Villaverde y Rodríguez de la Santísima",
    "Bob",
    "Carol",
    "Dave",
    "Eve",
    "Frank",
    "Grace",
    "Heidi",
    "Ivan",
]


def _leaderboard_rows(call: int) -> list[list[str]]:
    return [
        [
            str(i + 1),
            f"{name} #{call}",
            f"{1800 - 23 * i}{'?' if i % 4 == 3 else ''}",
            str(40 - i),
            ("▲ 12", "▼ 8", "–")[i % 3],
        ]
        for i, name in enumerate(_NAMES)
    ]


def _cycling(fn, inputs):
    source = itertools.cycle(inputs)
    return lambda: fn(next(source))


def run(quick: bool) -> list[Row]:
    repeat = 40 if quick else 300
    rows: list[Row] = []

    positions = _chess_positions()
    rows.append(
        ms_row(
            "render: chess board 400 px (PNG bytes)",
            time_calls(
                _cycling(lambda b: render_chess_board(b, size=400), positions), repeat=repeat
            ),
            CHESS_BUDGET_MS,
        )
    )

    full = _full_scrabble_view()
    rows.append(
        ms_row(
            "render: scrabble board 900 px, full board + 3-line header",
            time_calls(lambda: render_scrabble_board(full, size=900), repeat=repeat),
            SCRABBLE_BUDGET_MS,
        )
    )
    midgame = _midgame_scrabble_view()
    rows.append(
        ms_row(
            "render: scrabble board 900 px, mid-game + 2-line header",
            time_calls(lambda: render_scrabble_board(midgame, size=900), repeat=repeat),
            SCRABBLE_BUDGET_MS,
        )
    )
    sizes_kb = [len(render_scrabble_board(v, size=900)) / 1024 for v in (full, midgame)]
    rows.append(
        Row(
            metric="render: scrabble PNG size 900 px (full board)",
            unit="KB",
            budget=SCRABBLE_BUDGET_KB,
            median=sizes_kb[0],
            spread=f"mid-game {sizes_kb[1]:.0f} KB",
        )
    )
    rows.append(
        ms_row(
            "render: scrabble rack 7 tiles 64 px",
            time_calls(lambda: render_rack(list("QUIXOT?")), repeat=repeat),
            None,
        )
    )

    rows.append(
        ms_row(
            "render: boggle 6x6 grid 96 px + title",
            time_calls(
                lambda: render_boggle_grid(_BOGGLE_6, title="Round 12 · 3 minutes", cell_px=96),
                repeat=repeat,
            ),
            BOGGLE_BUDGET_MS,
        )
    )
    rows.append(
        ms_row(
            "render: boggle 4x4 grid 96 px",
            time_calls(lambda: render_boggle_grid(_BOGGLE_4, cell_px=96), repeat=repeat),
            BOGGLE_BUDGET_MS,
        )
    )

    calls = itertools.count()
    columns = ["#", "Player", "Rating", "Games", "Trend"]
    rows.append(
        ms_row(
            "render: leaderboard 12 rows, new names each call",
            time_calls(
                lambda: render_leaderboard(
                    "Chess · this month",
                    columns,
                    _leaderboard_rows(next(calls)),
                    highlight_rows=(2,),
                ),
                repeat=repeat,
            ),
            LEADERBOARD_BUDGET_MS,
        )
    )
    return rows
