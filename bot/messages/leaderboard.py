"""The leaderboard's and ``/stats``' words: a table's title, cells (what the image
draws), the table as a message and as the image's alt text, and a member's record.

Built from plain data: anything with a table's or a row's fields will do (the
service's ``LeaderboardTable`` and ``LeaderboardRow``, ``GameStats``).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Protocol

from bot.messages.i18n import N_, _, ngettext
from bot.messages.limits import ALT_TEXT_CHARS, MESSAGE_CHARS
from bot.messages.text import clip, plain, relative_time
from engines.ratings import is_provisional

RATED_KINDS = ("chess", "scrabble", "puzzle")  # puzzle: members' puzzle ratings
# Message ids (N_): shown through _() where they are used.
GAME_TITLES = {
    "chess": N_("Chess"),
    "scrabble": N_("Scrabble"),
    "boggle": N_("Word Boggle"),
    "henyo": N_("Library Henyo"),
    "puzzle": N_("Puzzles"),
    "event": N_("Games events"),
    "league": N_("Leagues"),
    "all": N_("All games"),
}
PERIOD_NAMES = {
    "week": N_("this week"),
    "month": N_("this month"),
    "season": N_("this season"),
    "all": N_("all time"),
}
VALUE_LABELS = {
    "chess": N_("Rating"),
    "scrabble": N_("Rating"),
    "boggle": N_("Points"),
    "henyo": N_("Best time"),
    "puzzle": N_("Rating"),
}

COLUMNS_RATED = ("#", N_("Name"), N_("Rating"), N_("Games"), N_("W-L-D"), N_("Trend"))
COLUMNS_POINTS = ("#", N_("Name"), N_("Points"), N_("Rounds"), N_("Won"))
COLUMNS_TIMES = ("#", N_("Name"), N_("Best time"), N_("Words"), N_("Guessed"), N_("Events won"))
COLUMNS_ALL = ("#", N_("Name"), N_("Wins"), N_("Games"))

NAME_CHARS = 40  # of a member's name in a table line
UNKNOWN_GAME = N_("Pick a game: chess, scrabble, boggle, henyo or all.")
UNKNOWN_PERIOD = N_("Pick a period: week, month, season or all.")
NOBODY_YET = N_("Nobody has played yet in this period. Start a game with `/help`!")
PROVISIONAL_NOTE = N_("? marks a provisional rating (few games yet).")
EMPTY_IMAGE_ROW = N_("No games yet")
NO_GAMES_YET = N_("No games yet. `/help` shows how to start one.")
PREVIOUS_PAGE = N_("◀ Previous")
NEXT_PAGE = N_("Next ▶")


class Counts(Protocol):
    """Games played and their outcomes."""

    @property
    def games(self) -> int: ...
    @property
    def wins(self) -> int: ...
    @property
    def losses(self) -> int: ...
    @property
    def draws(self) -> int: ...


class StandingRow(Counts, Protocol):
    """A table row: the member's rank and name, the table's value, and counts."""

    @property
    def rank(self) -> int: ...
    @property
    def name(self) -> str: ...
    @property
    def value(self) -> str: ...
    @property
    def trend(self) -> float | None: ...


class Table(Protocol):
    @property
    def kind(self) -> str: ...
    @property
    def title(self) -> str: ...
    @property
    def page(self) -> int: ...
    @property
    def pages(self) -> int: ...
    @property
    def rows(self) -> Sequence[StandingRow]: ...


class GameRecord(Counts, Protocol):
    """A member's standing in one game (``/stats``)."""

    @property
    def rating(self) -> float | None: ...
    @property
    def rd(self) -> float | None: ...
    @property
    def points(self) -> float: ...
    @property
    def spread(self) -> float: ...
    @property
    def best_time_ms(self) -> int | None: ...
    @property
    def last_played_at(self) -> datetime | None: ...


# ----------------------------------------------------------------------- values


def format_time_ms(ms: int | None) -> str:
    """Tenths of a second, as the Henyo sheet records them: 83.4 s → "1:23.4"."""
    if ms is None:
        return "–"
    tenths = (ms + 50) // 100  # half up, as a stopwatch reads
    minutes, tenths = divmod(tenths, 600)
    seconds, tenth = divmod(tenths, 10)
    return f"{minutes}:{seconds:02d}.{tenth}" if minutes else f"{seconds}.{tenth} s"


def format_rating(rating: float, rd: float) -> str:
    return f"{rating:.0f}{'?' if is_provisional(rd) else ''}"


def table_title(kind: str, period: str) -> str:
    return f"{_(GAME_TITLES[kind])} — {_(PERIOD_NAMES[period])}"


def value_label(kind: str) -> str:
    return _(VALUE_LABELS.get(kind, N_("Wins")))


def unknown_period(period: str) -> str:
    return _("Unknown period {period}: use week, month, season or all.").format(period=repr(period))


def _trend(value: float | None) -> str:
    if value is None or abs(value) < 0.5:
        return "–"
    return f"▲{value:.0f}" if value > 0 else f"▼{-value:.0f}"


# ----------------------------------------------------------------------- a table


def table_cells(table: Table) -> tuple[tuple[str, ...], list[list[str]]]:
    """The table's column headings and one list of cells per row (as the image shows them)."""
    rows = []
    for r in table.rows:
        if table.kind in RATED_KINDS:
            rows.append(
                [
                    str(r.rank),
                    r.name,
                    r.value,
                    str(r.games),
                    f"{r.wins}-{r.losses}-{r.draws}",
                    _trend(r.trend),
                ]
            )
        elif table.kind == "boggle":
            rows.append([str(r.rank), r.name, r.value, str(r.games), str(r.wins)])
        elif table.kind == "henyo":
            rows.append([str(r.rank), r.name, r.value, str(r.games), str(r.draws), str(r.wins)])
        else:
            rows.append([str(r.rank), r.name, r.value, str(r.games)])
    columns = {
        "chess": COLUMNS_RATED,
        "scrabble": COLUMNS_RATED,
        "puzzle": COLUMNS_RATED,  # W-L-D: puzzles solved, missed (and no draws)
        "boggle": COLUMNS_POINTS,
        "henyo": COLUMNS_TIMES,
    }.get(table.kind, COLUMNS_ALL)
    return tuple(_(c) if c != "#" else c for c in columns), rows


def image_cells(table: Table) -> tuple[tuple[str, ...], list[list[str]]]:
    """What the image draws: the cells, or one row saying the table is empty."""
    columns, rows = table_cells(table)
    if not rows:
        rows = [["", _(EMPTY_IMAGE_ROW), *[""] * (len(columns) - 2)]]
    return columns, rows


def _row_words(columns: Sequence[str], cells: Sequence[str], name: str) -> str:
    rest = ", ".join(f"{c.lower()} {v}" for c, v in zip(columns[2:], cells[2:], strict=False))
    return f"{cells[0]}. {name} — {rest}"


def _spoken_trend(cell: str) -> str:
    # A screen reader names the arrows' shapes ("black up-pointing triangle"): say them.
    if cell.startswith("▲"):
        return _("up {change}").format(change=cell[1:])
    if cell.startswith("▼"):
        return _("down {change}").format(change=cell[1:])
    return _("steady")


def _heading(table: Table, *, bold: bool = False) -> str:
    title = f"**{table.title}**" if bold else table.title
    if table.pages <= 1:
        return title
    return _("{title} (page {page} of {pages})").format(
        title=title, page=table.page + 1, pages=table.pages
    )


def table_text(table: Table) -> str:
    """The table in words, for screen readers and slow connections (the message)."""
    columns, rows = table_cells(table)
    lines = [_heading(table, bold=True)]
    if not rows:
        lines.append(_(NOBODY_YET))
    for cells in rows:
        lines.append(_row_words(columns, cells, plain(cells[1], NAME_CHARS)))
    if table.kind in RATED_KINDS:
        lines.append(f"-# {_(PROVISIONAL_NOTE)}")
    return "\n".join(lines)[:MESSAGE_CHARS]


def table_alt_text(table: Table) -> str:
    """The image's description: its title and rows in words (no markdown: alt text
    is read as it is written)."""
    columns, rows = table_cells(table)
    if rows:
        lines = [_heading(table) + ":"]
    else:
        lines = [_("{title}: nobody has played yet.").format(title=_heading(table))]
    for cells in rows:
        if table.kind in RATED_KINDS:  # the trend column's arrows, in words
            cells = [*cells[:-1], _spoken_trend(cells[-1])]
        lines.append(_row_words(columns, cells, cells[1][:NAME_CHARS]))
    if rows and table.kind in RATED_KINDS:
        lines.append(_(PROVISIONAL_NOTE))
    return clip("\n".join(lines), ALT_TEXT_CHARS)


# ----------------------------------------------------------------------- /stats


def stats_title(name: str) -> str:
    return _("{name} — club record").format(name=name)


def game_record(kind: str, g: GameRecord) -> str:
    """One game's line of a member's record (an embed field's value)."""
    if kind in RATED_KINDS:
        rating = format_rating(g.rating or 1500, g.rd or 350)
        value = _("Rating {rating} · {wins} W / {losses} L / {draws} D").format(
            rating=f"**{rating}**", wins=g.wins, losses=g.losses, draws=g.draws
        )
        if kind == "scrabble":
            value += " · " + _("spread {spread}").format(spread=f"{g.spread:+.0f}")
    elif kind == "boggle":
        value = _("{points} points in {rounds} rounds · {won} rounds won").format(
            points=f"**{g.points:g}**", rounds=g.games, won=g.wins
        )
    elif kind == "event":
        value = ngettext(
            "**{wins}** won of {count} game played in games events",
            "**{wins}** won of {count} games played in games events",
            g.games,
        ).format(wins=g.wins, count=g.games)
    elif kind == "league":
        value = ngettext(
            "**{wins}** division won in {count} league season played",
            "**{wins}** divisions won in {count} league seasons played",
            g.games,
        ).format(wins=g.wins, count=g.games)
    else:
        best = format_time_ms(g.best_time_ms)
        value = _("Best time {time} · {words} words · {won} events won").format(
            time=f"**{best}**", words=g.games, won=g.wins
        )
    if g.last_played_at:
        value += "\n" + _("Last played {when}").format(when=relative_time(g.last_played_at))
    return value
