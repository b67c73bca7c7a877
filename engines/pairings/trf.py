"""FIDE Tournament Report File (TRF16) for a chess tournament.

Header lines (012 name, 042/052 dates, 062 number of players, 092 type, XXR
rounds) and one fixed-column player line per entrant::

    cols  1-3   "001"
          5-8   starting rank (by seed)
         15-47  name (clipped to 33 characters)
         49-52  rating
         81-84  points ("11.5")
         86-89  rank
    per game, 10 columns from 92 (92-95, 102-105, ...):
                opponent's starting rank ("0000" for a bye or no game),
                colour at 97 ("w", "b", "-"), result at 99:
                1 = 0 a game, + - a forfeit, U a pairing-allocated bye,
                Z no game that round, blank a game not played yet.

A knockout's replays take a column each (columns follow (round, replay)
order across the whole event), so the file still lists every game.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import date

from engines.pairings._model import Entrant, Game
from engines.pairings.standings import standings

NAME_WIDTH = 33
FIRST_GAME_COLUMN = 92  # 1-based
GAME_WIDTH = 10


def trf_player_line(
    start_rank: int,
    name: str,
    rating: float,
    points: float,
    rank: int,
    games: Sequence[tuple[int, str, str]],
) -> str:
    """One ``001`` line; ``games`` are (opponent starting rank or 0, colour, result) per column."""
    line = list(" " * (FIRST_GAME_COLUMN - 1 + GAME_WIDTH * len(games)))

    def put(col: int, text: str) -> None:
        line[col - 1 : col - 1 + len(text)] = text

    put(1, "001")
    put(5, f"{start_rank:>4}")
    put(15, _clip(name))
    if rating > 0:
        put(49, f"{min(int(rating + 0.5), 9999):>4}")
    put(81, f"{points:>4.1f}")
    put(86, f"{rank:>4}")
    for i, (opponent, colour, result) in enumerate(games):
        col = FIRST_GAME_COLUMN + i * GAME_WIDTH
        put(col, f"{opponent:04d}")
        put(col + 5, colour)
        put(col + 7, result)
    return "".join(line).rstrip()


def trf_report(
    entrants: Sequence[Entrant],
    games: Sequence[Game],
    *,
    names: Mapping[int, str],
    tournament: str = "",
    kind: str = "Swiss",
    rounds: int | None = None,
    start: date | None = None,
    end: date | None = None,
) -> str:
    """The TRF16 text of a chess tournament (see the module for the layout).

    ``names`` maps entrant ids to display names ("Lastname, Firstname" is
    FIDE's form; any text is accepted and clipped); ``kind`` is the 092 line
    ("Swiss", "Round robin", "Knockout"); ``rounds`` the planned number of
    rounds (default: the last round with a game).
    """
    ordered = sorted(entrants, key=lambda e: (e.seed, -e.rating, e.id))
    start_rank = {e.id: i + 1 for i, e in enumerate(ordered)}
    table = {s.entrant: s for s in standings(entrants, games, game_kind="chess")}
    columns = sorted({(g.round, g.replay) for g in games})
    last_round = max((g.round for g in games), default=0)
    lines = []
    if tournament:
        lines.append(f"012 {_one_line(tournament)}")
    if start is not None:
        lines.append(f"042 {start:%Y/%m/%d}")
    if end is not None:
        lines.append(f"052 {end:%Y/%m/%d}")
    lines.append(f"062 {len(ordered)}")
    lines.append(f"092 {_one_line(kind)}")
    lines.append(f"XXR {rounds if rounds is not None else last_round}")
    for e in ordered:
        cells: list[tuple[int, str, str]] = []
        for column in columns:
            cells.append(_cell(e.id, column, games, start_rank))
        standing = table[e.id]
        lines.append(
            trf_player_line(
                start_rank[e.id],
                names.get(e.id, str(e.id)),
                e.rating,
                standing.points,
                standing.rank,
                cells,
            )
        )
    return "\n".join(lines) + "\n"


def _cell(
    entrant: int, column: tuple[int, int], games: Sequence[Game], start_rank: Mapping[int, int]
) -> tuple[int, str, str]:
    for g in games:
        if (g.round, g.replay) != column or entrant not in (g.first, g.second):
            continue
        if g.second is None:
            points = g.points_of(entrant)
            return (0, "-", "U" if points == 1.0 else "H" if points == 0.5 else "Z")
        colour = "w" if entrant == g.first else "b"
        opponent = g.opponent_of(entrant)
        number = start_rank.get(opponent, 0) if opponent is not None else 0
        if g.score is None:
            return (number, colour, " ")
        points = g.points_of(entrant)
        if g.forfeit:
            return (number, colour, "+" if points == 1.0 else "-")
        return (number, colour, {1.0: "1", 0.5: "=", 0.0: "0"}[points])
    return (0, "-", "Z")


def _clip(name: str) -> str:
    return _one_line(name)[:NAME_WIDTH]


def _one_line(text: str) -> str:
    return " ".join(text.split())
