"""Scrabble's help from the move generator, in words: hints and the post-game analysis."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal, TypedDict

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
    lines = [f"**Hints for {game_title(game_number)}** (your rack: {tiles_text(rack)})"]
    if not moves:
        lines.append(
            "No play fits your rack on this board, and the bag is too small to exchange: you can only pass."
        )
    for number, move in enumerate(moves, start=1):
        keeps = tiles_text(move.leave, "nothing")
        if move.kind == "play":
            blanks = [c.upper() for c in move.word if c.islower()]
            blank = ""
            if len(blanks) == 1:
                blank = f" (?{blanks[0]} is your blank played as {blanks[0]})"
            elif blanks:
                blank = f" (?{blanks[0]} and ?{blanks[1]} are your blanks)"
            typed = typed_notation(move.word)
            lines.append(
                f"{number}. **{move.main_word}** — `/scrabble play word:{typed} position:{move.position}` "
                f"for {move.score} points, keeping {keeps}{blank}"
            )
        else:
            lines.append(f"{number}. Exchange {tiles_text(move.tiles)}, keeping {keeps}")
    if waiting_for is not None:
        lines.append(f"It's {waiting_for}'s turn now: the board may change before yours.")
    lines.append(
        f"Ranked by score plus the value of the tiles kept. Hints you have asked for in this game: {used} "
        "(everyone sees the count when the game ends)."
    )
    return clip("\n".join(lines))


def no_hints(game_number: int) -> str:
    return (
        f"{game_title(game_number)} was made without hints. Start a game with `hints: True` to get them "
        "(such games are not rated)."
    )


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


TABLE_NOTES = (
    "(off) = challenged off",
    "* = a word the game's word list lacks",
    "? in a rack, lower case in a word = a blank",
    "best available = the highest-scoring play for that rack on that board",
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
    table = "\n".join([*rows, "", "; ".join(TABLE_NOTES)]) + "\n"
    left = analysis["left_on_table"]
    scored: dict[int, int] = {}
    for turn in turns:
        scored[turn["seat"]] = scored.get(turn["seat"], 0) + turn["score"]
    lines = [f"**{game_title(game_number)} — analysis**"]
    for seat, name in enumerate(labels):
        lines.append(
            f"{name}: {scored.get(seat, 0)} points from plays, {left.get(seat, 0)} left on the table"
        )
    misses = sorted((t for t in turns if t["left_on_table"] > 0), key=lambda t: -t["left_on_table"])
    if misses:
        lines.append("Biggest misses:")
        for turn in misses[:3]:
            lines.append(
                f"· turn {turns.index(turn) + 1}, {labels[turn['seat']]}: {turn['played']} for {turn['score']}; "
                f"{turn['best']} scored {turn['best_score']} ({turn['left_on_table']} left)"
            )
    elif turns:
        lines.append("Every play was the best available. Well played!")
    message = "\n".join(lines)
    block = f"\n```\n{table}```"
    if len(message) + len(block) <= MESSAGE_CHARS - MESSAGE_MARGIN and "```" not in table:
        message += block
    else:
        message += "\nThe turn-by-turn table is attached."
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
    footer = f"points left on the table: {totals}"
    body = "\n".join(lines)
    if len(body) + len(footer) + 1 > limit:
        keep = limit - len(footer) - 40
        body = body[:keep].rsplit("\n", 1)[0] + "\n  … (the rest is cut to fit)"
    return body + "\n" + footer


def analysis_alt_text(game_number: int) -> str:
    return f"The analysis of {game_title(game_number)} as text: every turn beside the best play available."
