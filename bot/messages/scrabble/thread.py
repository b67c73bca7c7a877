"""What a Scrabble game's thread sees: the board posts (with the words of the board
image), the log of moves in words, the end of the game, and the DMs a turn sends."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from bot.messages.scrabble.names import (
    HOW_TO_PLAY,
    REASONS,
    game_title,
)
from bot.messages.text import clip, relative_time

# -- the game's thread --------------------------------------------------------------------------------


@dataclass(frozen=True)
class LastTurn:
    """The latest turn taken, in words: ``kind`` is play, exchange, pass, timeout,
    lost_turn (a failed challenge), withdrawn (a play challenged off) or resign."""

    kind: str
    who: str
    word: str = ""  # a play's whole main word (JIBE, not GCG's .IBE)
    position: str = ""
    score: int = 0
    tiles: int = 0  # how many an exchange swapped


def last_turn_text(turn: LastTurn) -> str:
    """``Alice played JIBE at 8H for 14``, ``Bob passed``, ``Bob exchanged 3 tiles``…"""
    who = turn.who
    if turn.kind == "play":
        return f"{who} played {turn.word} at {turn.position} for {turn.score}"
    if turn.kind == "exchange":
        return f"{who} exchanged {turn.tiles} tile{'s' if turn.tiles != 1 else ''}"
    return {
        "timeout": f"{who}'s turn clock ran out (a pass)",
        "lost_turn": f"{who}'s turn was skipped (failed challenge)",
        "withdrawn": f"{who}'s play was challenged off",
        "resign": f"{who} resigned",
    }.get(turn.kind, f"{who} passed")


@dataclass(frozen=True)
class BoardFacts:
    """What a board image shows, as its header and alt text say it (names unescaped)."""

    number: int
    moves: int
    names: Sequence[str]  # each seat's members, joined by " & "
    scores: Sequence[int]
    bag: int
    status: str  # the engine's: active, ending or finished
    to_play: str | None  # the seat to move, while the game waits for a move
    last: tuple[str, str, int, Sequence[str]] | None  # who, position, score, words (main first)
    latest: LastTurn | None = None  # the latest turn, when it was not that play


# About what one header line holds at the image's font before it is cut short.
HEADER_LINE_CHARS = 56


def picture_header(facts: BoardFacts) -> list[str]:
    seats = [f"{n} {s}" for n, s in zip(facts.names, facts.scores, strict=True)]
    header = [f"#{facts.number} · {' · '.join(seats)} · bag {facts.bag}"]
    if len(header[0]) > HEADER_LINE_CHARS:
        # Four pairs do not fit on one line: the scores go two seats to a line.
        header = [f"#{facts.number} · bag {facts.bag}"]
        header += [" · ".join(seats[i : i + 2]) for i in range(0, len(seats), 2)]
    if facts.status == "finished":
        header.append("Game over")
    elif facts.status == "ending":
        header.append("Final play: waiting for accept or challenge")
    else:
        header.append(f"▶ {facts.to_play} to play")
    if facts.latest is not None:
        header.append(f"last: {last_turn_text(facts.latest)}")
    elif facts.last is not None:
        who, position, score, words = facts.last
        header.append(f"last: {last_turn_text(LastTurn('play', who, words[0], position, score))}")
    return header


def board_alt_text(facts: BoardFacts) -> str:
    """The board image in words: the last play, the scores, the bag, whose turn."""
    scores = ", ".join(f"{n} {s}" for n, s in zip(facts.names, facts.scores, strict=True))
    if facts.last is None:
        last = "No tiles on the board yet."
    else:
        who, position, score, words = facts.last
        last = f"Last play: {who}, {words[0]} at {position} for {score} ({', '.join(words)})."
    if facts.latest is not None:
        last += f" Then: {last_turn_text(facts.latest)}."
    tiles = f"{facts.bag} tile{'s' if facts.bag != 1 else ''} in the bag"
    state = {
        "finished": "The game is over.",
        "ending": "The final play waits to be accepted or challenged.",
    }.get(facts.status, f"{facts.to_play} to play.")
    return f"Scrabble #{facts.number} board after move {facts.moves}. {last} Scores: {scores}; {tiles}. {state}"


def record_alt_text(number: int) -> str:
    return (
        f"The record of Scrabble #{number} as a GCG text file: every move with its rack and score."
    )


def board_post(number: int, moves: int, lines: Sequence[str]) -> str:
    return clip("\n".join([f"**{game_title(number)}** · move {moves}", *lines]))


def status_lines(
    labels: Sequence[str],
    scores: Sequence[int],
    bag: int,
    *,
    next_up: str | None,
    turn_due: datetime | None,
    deadline: datetime | None,
) -> list[str]:
    """The scores and the bag; whose turn and when it runs out; the game's deadline.
    ``next_up`` is the label, with the seat's mentions, of the seat to move."""
    scored = " · ".join(f"{label} **{s}**" for label, s in zip(labels, scores, strict=True))
    lines = [f"Scores: {scored} — {bag} tile{'s' if bag != 1 else ''} in the bag"]
    if next_up is not None:
        turn = f"Next: {next_up}"
        if turn_due is not None:
            turn += f" — turn clock ends {relative_time(turn_due)}"
        lines.append(turn)
    if deadline is not None:
        lines.append(f"Game deadline {relative_time(deadline)}")
    return lines


def next_up(label: str, mentions: str | None) -> str:
    return label if mentions is None else f"{mentions} ({label})"


def last_play_line(who: str, position: str, score: int, words: Sequence[str]) -> str:
    also = f" (also {', '.join(words[1:])})" if len(words) > 1 else ""
    return f"Last play: {who}, {words[0]} at {position} for {score}{also}"


def last_turn_line(turn: LastTurn) -> str:
    """The latest turn when it was not the last play (a pass, an exchange…)."""
    return f"Last turn: {last_turn_text(turn)}."


NO_TILES_YET = "No tiles on the board yet."


def ending_text(*, computer_decides: bool, due: datetime | None, words: Sequence[str]) -> str:
    if computer_decides:
        return "That play would end the game: the computer decides whether to challenge it."
    when = f" by {relative_time(due)}" if due else ""
    return (
        f"That play would end the game. Opponents: **Accept** it or **Challenge** it{when}; "
        f"if nobody challenges, it stands ({', '.join(words)})."
    )


def explain_text(
    number: int, found: Sequence[tuple[str, str]], missing: Sequence[str], who: str
) -> str:
    """The player is asked to explain the words just played in their own words (as
    the society plays it); definitions are shown where the dictionary has them."""
    lines = [f"**Explain the word** ({game_title(number)})"]
    lines += [f"**{word}** — {definition}" for word, definition in found]
    words = [w for w, _ in found] + list(missing)
    if words:
        asked = ", ".join(f"**{w}**" for w in words)
        lines.append(f"{who}, please explain {asked} in your own words: press **Explain**.")
    return clip("\n".join(lines))


@dataclass(frozen=True)
class Standing:
    rank: int
    label: str
    final: int
    before: int
    adjustment: int  # for tiles left: negative when deducted
    resigned: bool


def game_over(
    reason: str,
    winners: Sequence[str],
    *,
    draw: bool,
    standings: Sequence[Standing],
    hints: Sequence[tuple[str, int]] | None,
    rated: bool,
    hinted: bool,
) -> list[str]:
    """The result lines of the final post (``hints``: each member's count, if hints were on)."""
    who = " & ".join(winners) or "nobody"
    verdict = f"It's a draw between {who}." if draw else f"Winner: **{who}**."
    table = []
    for row in standings:
        sign = "+" if row.adjustment >= 0 else "−"
        note = f" ({row.before} {sign} {abs(row.adjustment)} for tiles)" if row.adjustment else ""
        table.append(
            f"{row.rank}. {row.label} — {row.final}{note}{' (resigned)' if row.resigned else ''}"
        )
    lines = [f"**Game over** ({REASONS.get(reason, reason)}). {verdict}", "\n".join(table)]
    if hints is not None:
        lines.append("Hints used: " + " · ".join(f"{name} {count}" for name, count in hints))
    if rated:
        lines.append(
            "The game record (GCG) is attached; results and ratings are on `/leaderboard`."
        )
    else:
        why = "hints were on" if hinted else "a game against the computer"
        lines.append(f"The game record (GCG) is attached. Not rated ({why}).")
    lines.append("`/scrabble analyse` shows each play beside the best one available.")
    return lines


def no_contest(reason: str) -> list[str]:
    """The result lines of a game that ended at its deadline before any tile was placed."""
    return [
        f"**Game over** ({REASONS.get(reason, reason)}). **No contest**: no tile was ever "
        "placed, so nobody wins, nobody loses, and the game is not rated or counted.",
        "The game record (GCG) is attached.",
    ]


def your_turn(number: int, home: int | None, due: datetime | None) -> str:
    clock = f" Your turn clock ends {relative_time(due)}." if due else ""
    where = f" in <#{home}>" if home else ""
    return f"It's your turn in **{game_title(number)}**{where}.{clock}\n{HOW_TO_PLAY}"


def reminder(number: int, home: int | None, due: datetime | None) -> str:
    when = relative_time(due) if due else "soon"
    where = f" in <#{home}>" if home else ""
    return (
        f"Reminder: it's your turn in **{game_title(number)}**{where}, and your turn clock runs out {when}. "
        f"Play, exchange or pass before then, or the turn counts as a pass.\n{HOW_TO_PLAY}"
    )


def invitation_expired(number: int) -> str:
    return f"The invitation to {game_title(number)} expired: not everyone accepted in time."


def describe_entries(
    entries: Sequence[Mapping[str, Any]], label: Callable[[int], str]
) -> list[str]:
    """One line per logged action (the engine's log entries), with nothing private in it."""
    lines: list[str] = []
    for entry in entries:
        seat = entry.get("seat")
        line = _entry_line(entry, f"**{label(seat)}**" if seat is not None else "", label)
        if line:
            lines.append(line)
    return lines


def _entry_line(entry: Mapping[str, Any], who: str, label: Callable[[int], str]) -> str:
    kind = entry["type"]
    if kind == "play":
        extra = []
        if len([c for c in entry["word"] if c != "."]) >= 7:
            extra.append("bingo! (+50 included)")
        blanks = [c.upper() for c in entry["word"] if c.islower()]
        if blanks:
            extra.append(f"blank as {', '.join(blanks)}")
        line = f"{who} played **{entry['words'][0]}** at {entry['position']} for {entry['score']}"
        if entry["words"][1:]:
            line += f" (also {', '.join(entry['words'][1:])})"
        return line + (f" — {'; '.join(extra)}" if extra else "") + "."
    if kind == "exchange":
        count = len(entry["tiles"])
        return f"{who} exchanged {count} tile{'s' if count != 1 else ''}."
    if kind == "pass":
        if entry.get("timed_out"):
            return f"{who}'s turn clock ran out: the turn counts as a pass."
        if entry.get("lost_turn"):
            return f"{who}'s turn is skipped (failed challenge)."
        return f"{who} passed."
    if kind == "challenge":
        challenged = label(entry["challenged_seat"])
        if entry["result"] != "withdrawn":
            return (
                f"{who} challenged {challenged}'s play: it stands, every word is in the word list."
            )
        bad = entry["invalid_words"]
        return (
            f"{who} challenged {challenged}'s play: **{', '.join(bad)}** {'is' if len(bad) == 1 else 'are'} "
            f"not in the word list. The play is taken back: no points for {challenged} this turn."
        )
    return {
        "accept": f"{who} accepted the final play.",
        "close": "Nobody challenged the final play in time: it stands.",
        "resign": f"{who} resigned.",
        "deadline": "The game's deadline has passed: the game ends now, unplayed tiles are deducted.",
        "blocked": "Nobody can make a play any more and the bag is too small to exchange: "
        "the game ends now, unplayed tiles are deducted.",
    }.get(kind, "")
