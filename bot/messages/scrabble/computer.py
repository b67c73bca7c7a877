"""Scrabble's help from the move generator, in words: hints and the post-game analysis."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal, TypedDict

from bot.messages.i18n import N_, _
from bot.messages.limits import MESSAGE_CHARS, MESSAGE_MARGIN
from bot.messages.scrabble.names import (
    game_title,
    tiles_text,
)
from bot.messages.text import clip
from engines.scrabble.board import typed_notation

# -- help from the move generator ---------------------------------------------------------------------


@dataclass(frozen=True)
class HintLine:
    """One suggested move: a play (its word as typed, where, what it spells) or an exchange."""

    kind: Literal["play", "exchange"]
    leave: str
    tiles: str = ""
    word: str = ""
    main_word: str = ""
    position: str = ""
    score: int = 0


def hints(
    game_number: int, rack: str, moves: Sequence[HintLine], *, waiting_for: str | None, used: int
) -> str:
    """The private answer to ``/scrabble hint`` (``waiting_for``: whose turn it is, if not theirs)."""
    lines = [
        _("**Hints for {title}** (your rack: {tiles})").format(
            title=game_title(game_number), tiles=tiles_text(rack)
        )
    ]
    if not moves:
        lines.append(
            _(
                "No play fits your rack on this board, and the bag is too small to exchange: "
                "you can only pass."
            )
        )
    for number, move in enumerate(moves, start=1):
        keeps = tiles_text(move.leave, _("nothing"))
        if move.kind == "play":
            blanks = [c.upper() for c in move.word if c.islower()]
            blank = ""
            if len(blanks) == 1:
                blank = " " + _("({blank} is your blank played as {letter})").format(
                    blank=f"?{blanks[0]}", letter=blanks[0]
                )
            elif blanks:
                blank = " " + _("({first} and {second} are your blanks)").format(
                    first=f"?{blanks[0]}", second=f"?{blanks[1]}"
                )
            typed = typed_notation(move.word)
            lines.append(
                f"{number}. **{move.main_word}** — "
                + _("{command} for {score} points, keeping {keeps}").format(
                    command=f"`/scrabble play word:{typed} position:{move.position}`",
                    score=move.score,
                    keeps=keeps,
                )
                + blank
            )
        else:
            lines.append(
                f"{number}. "
                + _("Exchange {tiles}, keeping {keeps}").format(
                    tiles=tiles_text(move.tiles), keeps=keeps
                )
            )
    if waiting_for is not None:
        lines.append(
            _("It's {seat}'s turn now: the board may change before yours.").format(seat=waiting_for)
        )
    lines.append(
        _(
            "Ranked by score plus the value of the tiles kept. Hints you have asked for in this "
            "game: {count} (everyone sees the count when the game ends)."
        ).format(count=used)
    )
    return clip("\n".join(lines))


def no_hints(game_number: int) -> str:
    return _(
        "{title} was made without hints. Start a game with `hints: True` to get them "
        "(such games are not rated)."
    ).format(title=game_title(game_number))


class AnalysisTurn(TypedDict):
    """One turn beside the best play available (``movegen.TurnAnalysis`` as data)."""

    ply: int
    seat: int
    rack: str
    played: str
    score: int
    best: str | None
    best_score: int
    left_on_table: int
    in_word_list: bool
    withdrawn: bool


class Analysis(TypedDict):
    turns: list[AnalysisTurn]
    left_on_table: dict[int, int]  # seat -> points


TABLE_NOTES = (  # message ids: shown through _()
    N_("(off) = challenged off"),
    N_("* = a word the game's word list lacks"),
    N_("? in a rack, lower case in a word = a blank"),
    N_("best available = the highest-scoring play for that rack on that board"),
)


def analysis_text(
    game_number: int, analysis: Analysis, names: Sequence[str], labels: Sequence[str]
) -> tuple[str, str]:
    """``(message, table)``: a summary with the biggest misses and, when it fits,
    the table of every turn; the whole table is also given for a file. The table
    shows the seats' ``names`` as they are (monospace text), the message their
    ``labels``."""
    turns = analysis["turns"]
    width = max([len(n) for n in names] + [3])
    header = f"{'#':>3}  {'who':<{width}}  {'rack':<9} {'played':<20} {'pts':>4}  {'best available':<20} {'pts':>4} {'left':>4}"
    rows = [header, "-" * len(header)]
    for number, turn in enumerate(turns, start=1):
        shown = (
            turn["played"]
            + (" (off)" if turn["withdrawn"] else "")
            + ("" if turn["in_word_list"] else " *")
        )
        rows.append(
            f"{number:>3}  {names[turn['seat']]:<{width}}  {turn['rack']:<9} {shown:<20} {turn['score']:>4}  "
            f"{(turn['best'] or '(no play)'):<20} {turn['best_score']:>4} {turn['left_on_table']:>4}"
        )
    table = "\n".join([*rows, "", "; ".join(_(note) for note in TABLE_NOTES)]) + "\n"
    left = analysis["left_on_table"]
    scored: dict[int, int] = {}
    for turn in turns:
        scored[turn["seat"]] = scored.get(turn["seat"], 0) + turn["score"]
    lines = [_("**{title} — analysis**").format(title=game_title(game_number))]
    for seat, name in enumerate(labels):
        lines.append(
            _("{seat}: {scored} points from plays, {left} left on the table").format(
                seat=name, scored=scored.get(seat, 0), left=left.get(seat, 0)
            )
        )
    misses = sorted((t for t in turns if t["left_on_table"] > 0), key=lambda t: -t["left_on_table"])
    if misses:
        lines.append(_("Biggest misses:"))
        for turn in misses[:3]:
            lines.append(
                "· "
                + _(
                    "turn {turn}, {seat}: {played} for {score}; {best} scored {best_score} "
                    "({left} left)"
                ).format(
                    turn=turns.index(turn) + 1,
                    seat=labels[turn["seat"]],
                    played=turn["played"],
                    score=turn["score"],
                    best=turn["best"],
                    best_score=turn["best_score"],
                    left=turn["left_on_table"],
                )
            )
    elif turns:
        lines.append(_("Every play was the best available. Well played!"))
    message = "\n".join(lines)
    block = f"\n```\n{table}```"
    if len(message) + len(block) <= MESSAGE_CHARS - MESSAGE_MARGIN and "```" not in table:
        message += block
    else:
        message += "\n" + _("The turn-by-turn table is attached.")
    return clip(message), table


def format_analysis(analysis: Analysis, names: Sequence[str], limit: int = 1900) -> str:
    """The analysis as a short monospace table (fits one Discord message)."""
    width = max([len(name) for name in names] + [4])
    lines = [
        f"{'#':>3} {'who':<{width}} {'played':<18} {'pts':>4}  {'best':<18} {'pts':>4} {'lost':>4}"
    ]
    for number, turn in enumerate(analysis["turns"], start=1):
        shown = turn["played"] + (" (off)" if turn["withdrawn"] else "")
        best = turn["best"] or "-"
        lines.append(
            f"{number:>3} {names[turn['seat']]:<{width}} {shown[:18]:<18} {turn['score']:>4}  "
            f"{best[:18]:<18} {turn['best_score']:>4} {turn['left_on_table']:>4}"
        )
    totals = ", ".join(
        f"{names[seat]} {total}" for seat, total in analysis["left_on_table"].items()
    )
    footer = _("points left on the table: {totals}").format(totals=totals)
    body = "\n".join(lines)
    if len(body) + len(footer) + 1 > limit:
        keep = limit - len(footer) - 40
        body = body[:keep].rsplit("\n", 1)[0] + "\n  … " + _("(the rest is cut to fit)")
    return body + "\n" + footer


def analysis_alt_text(game_number: int) -> str:
    return _("The analysis of {title} as text: every turn beside the best play available.").format(
        title=game_title(game_number)
    )
