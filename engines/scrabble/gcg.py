"""GCG game records: read, write, and check a scorer against recorded games.

``parse_gcg`` reads every line type of the format (see the conformance set's
``gcg-format.md``); ``export_gcg`` writes one of our games; ``check_file``
replays a record on an empty board with the engine's own board code and
rescores every play from geometry alone (no dictionary), comparing each
event's points and running total with the file.

    python -m engines.scrabble.gcg check FILE...

prints ``OK name: N plays`` or ``FAIL name: line L: ...`` per file, then
``N passed, M failed``; the exit status is 0 only when every file agrees.

Export conventions: players are ``#player1``, ``#player2``... in playing order
(``#player3``/``#player4`` for larger games, as other tools write them). The
end of an out-play game uses the convention that matches our rules: the seat
that went out gets ``(TILES) +N`` with N the others' face value, and each other
seat a ``RACK (RACK) -N`` line. A failed double challenge shows as the
challenger's pass; resignations and deadlines are ``#note`` lines.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypedDict

from engines.scrabble.board import Board, Evaluation, check_tile_supply, face_value, take_from_rack
from engines.scrabble.errors import ScrabbleError
from engines.scrabble.game import FINISHED, ScrabbleGame


class GcgError(ValueError):
    """A GCG file could not be read."""


@dataclass(frozen=True)
class GcgPlayer:
    """A ``#playerN`` line: the player's number, the nickname events use, and the full name."""

    number: int  # 1 moves first
    nick: str
    name: str


@dataclass(frozen=True)
class GcgEvent:
    """One ``>NICK: ...`` line.

    ``kind`` is one of ``play``, ``pass``, ``exchange``, ``withdraw``,
    ``challenge_bonus``, ``end_points`` (``(TILES) +N``), ``rack_penalty``
    (``RACK (RACK) -N``) and ``time_penalty``.
    """

    line: int
    nick: str
    kind: str
    delta: int
    total: int
    rack: str | None = None
    position: str | None = None
    word: str | None = None
    tiles: str | None = None  # exchanged tiles, or the tiles in parentheses
    count: int | None = None  # exchange given only as a count
    extra: tuple[str, ...] = ()  # tokens after the total (old cross-word lists)


@dataclass
class GcgGame:
    """A GCG record as read: its players, every pragma line in order, and its events."""

    players: list[GcgPlayer] = field(default_factory=list)
    pragmas: list[tuple[int, str, str]] = field(default_factory=list)  # (line, keyword, value)
    events: list[GcgEvent] = field(default_factory=list)

    def pragma(self, keyword: str) -> str | None:
        """The value of the first ``#keyword`` line, or None."""
        for _, key, value in self.pragmas:
            if key == keyword:
                return value
        return None

    @property
    def lexicon(self) -> str | None:
        """The ``#lexicon`` the record names, if any."""
        return self.pragma("lexicon")

    @property
    def title(self) -> str | None:
        """The record's ``#title``, if any."""
        return self.pragma("title")


class _EventBase(TypedDict):
    """The fields every event line gives (``GcgEvent``'s own names)."""

    line: int
    nick: str
    delta: int
    total: int
    extra: tuple[str, ...]


_PLAYER_RE = re.compile(r"^player(\d+)$")
_SIGNED_RE = re.compile(r"^[+-]\d+$")
_TOTAL_RE = re.compile(r"^-?\d+$")
_POSITION_RE = re.compile(r"^(?:\d{1,2}[A-Za-z]|[A-Za-z]\d{1,2})$")
_EXCHANGE_RE = re.compile(r"^-([A-Za-z?]+|\d+)$")
_LINE_BREAK_RE = re.compile(r"\r\n|\r|\n")


def decode_gcg(data: bytes) -> str:
    """Bytes to text: a UTF-8 BOM is dropped; not UTF-8 means legacy ISO-8859-1."""
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("latin-1")


def parse_gcg(text: str) -> GcgGame:
    """Read a GCG record's text; a line that cannot be read raises ``GcgError`` naming it."""
    game = GcgGame()
    text = text.lstrip("\ufeff")
    for number, raw in enumerate(_LINE_BREAK_RE.split(text), start=1):
        line = raw.strip()
        if not line:
            continue
        if line.startswith("#"):
            _read_pragma(game, number, line)
        elif line.startswith(">"):
            game.events.append(_read_event(number, line))
        # Anything else continues the #note above it and means nothing to the game.
    return game


def _read_pragma(game: GcgGame, number: int, line: str) -> None:
    keyword, _, value = line[1:].partition(" ")
    keyword = keyword.strip()
    value = value.strip()
    game.pragmas.append((number, keyword, value))
    player = _PLAYER_RE.match(keyword)
    if player:
        nick, _, name = value.partition(" ")
        if not nick:
            raise GcgError(f"line {number}: #{keyword} needs a nickname")
        game.players.append(GcgPlayer(int(player.group(1)), nick, name.strip() or nick))


def _read_event(number: int, line: str) -> GcgEvent:
    nick, colon, rest = line[1:].partition(":")
    nick = nick.strip()
    if not colon or not nick:
        raise GcgError(f"line {number}: an event must start with >NICK:")
    tokens = rest.split()
    # The points and the running total are the first "+/-N N" pair; junk may follow.
    for k in range(len(tokens) - 1):
        if _SIGNED_RE.match(tokens[k]) and _TOTAL_RE.match(tokens[k + 1]):
            break
    else:
        raise GcgError(f"line {number}: no points and running total found")
    action = tokens[:k]
    base: _EventBase = {
        "line": number,
        "nick": nick,
        "delta": int(tokens[k]),
        "total": int(tokens[k + 1]),
        "extra": tuple(tokens[k + 2 :]),
    }
    last = action[-1] if action else ""
    rack = " ".join(action[:-1]) or None
    lowered = last.lower()
    if lowered == "(challenge)":
        return GcgEvent(kind="challenge_bonus", rack=rack, **base)
    if lowered == "(time)":
        return GcgEvent(kind="time_penalty", rack=rack, **base)
    if len(last) >= 2 and last.startswith("(") and last.endswith(")"):
        kind = "rack_penalty" if base["delta"] < 0 else "end_points"
        return GcgEvent(kind=kind, rack=rack, tiles=last[1:-1], **base)
    if last == "--":
        return GcgEvent(kind="withdraw", rack=rack, **base)
    if last == "-":
        return GcgEvent(kind="pass", rack=rack, **base)
    exchange = _EXCHANGE_RE.match(last)
    if exchange:
        thrown = exchange.group(1)
        if thrown.isdigit():
            count = int(thrown)
            if count == 0:  # Quackle writes a pass as "-0"
                return GcgEvent(kind="pass", rack=rack, **base)
            return GcgEvent(kind="exchange", rack=rack, count=count, **base)
        return GcgEvent(kind="exchange", rack=rack, tiles=thrown.upper(), count=len(thrown), **base)
    if len(action) >= 2 and _POSITION_RE.match(action[-2]):
        return GcgEvent(
            kind="play",
            rack=" ".join(action[:-2]) or None,
            position=action[-2],
            word=last,
            **base,
        )
    raise GcgError(f"line {number}: cannot tell what kind of event this is")


def read_gcg(path: str | Path) -> GcgGame:
    """Read the GCG file at ``path`` (UTF-8, or legacy ISO-8859-1)."""
    return parse_gcg(decode_gcg(Path(path).read_bytes()))


# -- checking a record against the engine ------------------------------------------


@dataclass(frozen=True)
class CheckResult:
    """One record checked: whether it agrees with the engine, how many plays were checked,
    and where and why it did not."""

    name: str
    ok: bool
    plays: int
    line: int | None = None
    message: str = ""

    def __str__(self) -> str:
        if self.ok:
            return f"OK {self.name}: {self.plays} plays"
        where = f"line {self.line}: " if self.line is not None else ""
        return f"FAIL {self.name}: {where}{self.message}"


class _Mismatch(Exception):
    def __init__(self, line: int, message: str) -> None:
        super().__init__(message)
        self.line = line
        self.message = message


def _points(expected: int, computed: int) -> str:
    return f"expected {expected:+d}, computed {computed:+d}"


def recorded_rack(rack: str | None) -> str | None:
    """A recorded rack usable as a rack (``?`` = blank), or None when absent or unknown."""
    if rack is None or not re.fullmatch(r"[A-Za-z?]+", rack) or rack.upper() == "UNKNOWN":
        return None
    return rack.upper()


def check_game(record: GcgGame, name: str) -> CheckResult:
    """Replay ``record`` on an empty board, rescoring every event."""
    board = Board()
    totals: dict[str, int] = {p.nick: 0 for p in record.players}
    last_event: dict[str, tuple[GcgEvent, Evaluation | None]] = {}
    plays = 0
    try:
        for event in record.events:
            computed = _event_points(board, event, last_event)
            if event.kind == "play":
                plays += 1
            if computed != event.delta and not (event.kind == "withdraw" and event.delta == 0):
                # "-- +0" (one Quackle file) leaves the amount to the running total.
                raise _Mismatch(event.line, _points(event.delta, computed))
            totals[event.nick] = totals.get(event.nick, 0) + computed
            if totals[event.nick] != event.total:
                raise _Mismatch(
                    event.line, f"expected total {event.total}, computed {totals[event.nick]}"
                )
    except _Mismatch as mismatch:
        return CheckResult(name, False, plays, mismatch.line, mismatch.message)
    return CheckResult(name, True, plays)


def _event_points(
    board: Board, event: GcgEvent, last_event: dict[str, tuple[GcgEvent, Evaluation | None]]
) -> int:
    """``last_event`` holds each nick's last event, with its evaluation when it was a play."""
    kind = event.kind
    previous = last_event.get(event.nick)
    if kind == "play":
        assert event.word is not None and event.position is not None
        try:
            evaluation = board.evaluate(event.word, event.position)
            rack = recorded_rack(event.rack)
            if rack is not None:
                take_from_rack(rack, evaluation.rack_tiles)
            board.apply(evaluation)
            check_tile_supply(board)
        except ScrabbleError as exc:
            raise _Mismatch(
                event.line, f"illegal play {event.position} {event.word}: {exc}"
            ) from None
        last_event[event.nick] = (event, evaluation)
        return evaluation.score
    last_event[event.nick] = (event, None)
    if kind == "withdraw":
        withdrawn = previous[1] if previous is not None and previous[0].kind == "play" else None
        if withdrawn is None:
            raise _Mismatch(event.line, "a withdrawal must follow the same player's play")
        board.remove(withdrawn.tiles)
        return -withdrawn.score
    if kind in ("pass", "exchange"):
        return 0
    if kind in ("challenge_bonus", "time_penalty"):
        return event.delta  # not derivable from the board
    face = face_value((event.tiles or "").upper())
    if kind == "rack_penalty":
        return -face
    if kind == "end_points":
        # Current rule: twice the face value; the old convention: once (and the
        # opponent records the matching deduction).
        return event.delta if event.delta in (face, 2 * face) else 2 * face
    raise _Mismatch(event.line, f"unknown event kind {kind}")


def check_file(path: str | Path) -> CheckResult:
    """Check the GCG file at ``path``; an unreadable file is a failed check, not an exception."""
    name = Path(path).name
    try:
        record = read_gcg(path)
    except (OSError, GcgError) as exc:
        return CheckResult(name, False, 0, None, str(exc))
    return check_game(record, name)


# -- export ------------------------------------------------------------------------


def _nicks(names: Sequence[str]) -> list[str]:
    nicks: list[str] = []
    for seat, name in enumerate(names):
        nick = re.sub(r"[\s:>#]+", "_", name.strip()).strip("_") or f"player{seat + 1}"
        if nick in nicks:
            nick = f"{nick}_{seat + 1}"
        nicks.append(nick)
    return nicks


def export_gcg(
    game: ScrabbleGame,
    names: Sequence[str],
    *,
    show_racks: bool | None = None,
    lexicon: str | None = None,
    title: str | None = None,
) -> str:
    """The game as GCG text. ``names[seat]`` is each seat's display name.

    Racks (and exchanged tiles) are private while a game runs, so by default
    they are written only for a finished game; ``show_racks`` overrides.
    """
    if len(names) != game.seats:
        raise ValueError(f"need {game.seats} names, got {len(names)}")
    if show_racks is None:
        show_racks = game.status == FINISHED
    nicks = _nicks(names)
    lines = ["#character-encoding UTF-8"]
    for number, seat in enumerate(game.turn_order, start=1):
        lines.append(
            f"#player{number} {nicks[seat]} {' '.join(names[seat].split()) or nicks[seat]}"
        )
    if title:
        lines.append(f"#title {' '.join(title.split())}")
    if lexicon:
        lines.append(f"#lexicon {lexicon}")
    totals = [0] * game.seats
    play_racks: dict[int, str] = {}

    def event(seat: int, rack: str, body: str, delta: int) -> None:
        totals[seat] += delta
        shown = rack if show_racks else ""
        lines.append(
            f">{nicks[seat]}: {shown + ' ' if shown else ''}{body} {delta:+d} {totals[seat]}"
        )

    for move in game.moves:
        kind = move["type"]
        if kind == "play":
            play_racks[move["seat"]] = move["rack"]
            event(move["seat"], move["rack"], f"{move['position']} {move['word']}", move["score"])
        elif kind == "pass":
            event(move["seat"], move["rack"], "-", 0)
        elif kind == "exchange":
            thrown = (
                move["tiles"]
                if show_racks and move["tiles"]
                else str(move.get("count") or len(move["tiles"]))
            )
            event(move["seat"], move["rack"], f"-{thrown}", 0)
        elif kind == "challenge":
            seat = move["challenged_seat"]
            if move["result"] == "withdrawn":
                event(seat, play_racks.get(seat, ""), "--", move["score"])
            else:
                lines.append(f"#note {nicks[move['seat']]} challenged; the play stands")
        elif kind == "resign":
            lines.append(f"#note {nicks[move['seat']]} resigned")
        elif kind == "deadline" and move.get("early"):
            lines.append("#note the game was ended before its deadline")
        elif kind == "deadline":
            lines.append("#note the game ended at its deadline")
        elif kind == "blocked":
            lines.append("#note no seat could make a play: the game ended")
    result = game.result()
    if result is not None:
        racks = game.racks
        if result.reason == "out" and result.out_seat is not None:
            others = "".join(
                racks[s] for s in game.turn_order if s != result.out_seat and result.adjustments[s]
            )
            event(result.out_seat, "", f"({others})", result.adjustments[result.out_seat])
        for seat in game.turn_order:
            if seat != result.out_seat and racks[seat] and result.adjustments[seat]:
                event(seat, racks[seat], f"({racks[seat]})", result.adjustments[seat])
        if result.reason == "target":
            lines.append(f"#note {nicks[result.winners[0]]} reached the finish line")
    return "\n".join(lines) + "\n"


# -- command line ------------------------------------------------------------------


def main(argv: Sequence[str] | None = None) -> int:
    """``check FILE...``: check each file and print the results; 0 when all agree, 1 when
    one does not, 2 for bad usage."""
    args = list(sys.argv[1:] if argv is None else argv)
    if not args or args[0] != "check" or len(args) < 2:
        print("usage: python -m engines.scrabble.gcg check FILE...", file=sys.stderr)
        return 2
    passed = failed = 0
    for path in args[1:]:
        result = check_file(path)
        print(result)
        if result.ok:
            passed += 1
        else:
            failed += 1
    print(f"{passed} passed, {failed} failed")
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
