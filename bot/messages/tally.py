"""Scrabble over the board (issue #29): the tally a club session keeps for real
boards in the room. The private answers to ``/tally …``, the tally as
text, the thread's line for a correction, and the phone page's words.

Built from plain data (the services' tally snapshots, read through small
Protocols); names are escaped with ``plain`` and no text mentions anyone."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Protocol

from bot.messages.i18n import N_, _, ngettext
from bot.messages.text import plain, relative_time

WHERE_CHOICES = N_(
    "A session is played `online` (moves typed into Discord, the default) or in the `room` "
    "(real boards; the bot keeps the tally)."
)
BOARD_PAIRS_CHOICES = N_("A board seats 2, 3 or 4 pairs (4 by default).")
NOT_IN_ROOM = N_(
    "Scrabble #{number} is played online: make its moves with `/scrabble play`, "
    "`/scrabble pass` and the rest."
)
NOTHING_ENTERED = N_("Nothing has been entered on this board yet.")
NO_SUCH_ENTRY = N_("There is no entry {number} on this board's tally.")
ONLY_LAST_ENTRY = N_(
    "Only the last entry can be corrected, until the other side makes its next one; "
    "the director can correct any entry. Nothing was changed."
)
CHALLENGE_STANDS = N_(
    "A challenge is judged by the word list: correct the play it was about instead."
)
CORRECT_WHAT = N_(
    "Say what the entry should be: a word and its position, `pass`, an exchange with how many "
    "tiles, or the tiles left on a rack."
)
CORRECTION_BREAKS = N_(
    "After that correction entry {number} would no longer stand ({reason}). Nothing was changed."
)
TALLY_FINAL = N_("Board {number}'s tally is final: nothing can be changed now.")
RACK_IS_THEIRS = N_("Only the side itself, or the director, enters the tiles left on its rack.")
NOT_ON_THIS_BOARD = N_("{name} does not play on this board.")
# The phone page's words.
PAGE_TITLE = N_("Tally")
PAGE_BOARD = N_("Board {number}")
PAGE_WORD = N_("Word")
PAGE_POSITION = N_("Position")
PAGE_POSITION_HINT = N_("8H goes across from H8, H8 goes down")
PAGE_PLAY = N_("Enter play")
PAGE_PASS = N_("Pass")
PAGE_EXCHANGE = N_("Exchange")
PAGE_EXCHANGE_COUNT = N_("Tiles exchanged")
PAGE_CHALLENGE = N_("Challenge the last play")
PAGE_RACK = N_("Tiles left on your rack")
PAGE_RACK_SEND = N_("Enter tiles left")
PAGE_CORRECT = N_("Correct the last entry")
PAGE_CORRECTING = N_("Correcting entry {number}: enter it again as it should be.")
PAGE_CANCEL = N_("Cancel")
PAGE_ENTRIES = N_("Entries")
PAGE_SAVING = N_("Saving…")
PAGE_SAVED = N_("Entered.")
PAGE_YOUR_TURN = N_("Your turn")
PAGE_TURN_OF = N_("{name} to play")
PAGE_CLOCK = N_("Turn clock")
PAGE_BAG = N_("In the bag: {count}")
FIRST_ENTRY = N_("Whoever plays first enters the first play.")
NO_RACK_IN_ROOM = N_(
    "This game is played over a real board: your tiles are on your rack at the table, and the "
    "bot keeps only the tally (`/tally show`)."
)


class _Seat(Protocol):
    @property
    def seat(self) -> int: ...
    @property
    def label(self) -> str: ...
    @property
    def score(self) -> int: ...
    @property
    def rack_due(self) -> bool: ...


class _Line(Protocol):
    @property
    def number(self) -> int: ...
    @property
    def seat(self) -> int: ...
    @property
    def kind(self) -> str: ...
    @property
    def text(self) -> str: ...
    @property
    def score(self) -> int: ...
    @property
    def total(self) -> int: ...


class _Tally(Protocol):
    @property
    def board(self) -> int: ...
    @property
    def game_number(self) -> int: ...
    @property
    def status(self) -> str: ...
    @property
    def seats(self) -> Sequence[_Seat]: ...
    @property
    def to_move(self) -> int | None: ...
    @property
    def turn_due(self) -> datetime | None: ...
    @property
    def lines(self) -> Sequence[_Line]: ...
    @property
    def bag(self) -> int: ...


def entry_text(kind: str, notation: str, count: int = 0) -> str:
    """One entry as the tally lists it: a play's position and word, a pass, an exchange,
    a challenge, the tiles left on a rack."""
    if kind == "play":
        return notation
    if kind == "pass":
        return _("pass")
    if kind == "exchange":
        return ngettext("exchanged {count} tile", "exchanged {count} tiles", count).format(
            count=count
        )
    if kind == "challenge":
        return _("challenged: {result}").format(result=notation)
    if kind == "rack":
        return _("tiles left: {tiles}").format(tiles=notation or "—")
    if kind == "resign":
        return _("resigned")
    return notation


def seat_name(tally: _Tally, seat: int | None) -> str:
    """A seat's label on the board (escaped already by the service's labels)."""
    for s in tally.seats:
        if s.seat == seat:
            return s.label
    return ""


def tally_text(tally: _Tally, *, last: int = 12) -> str:
    """The board's tally: its last entries with the running totals, the scores, and what
    comes next (whose turn and the turn clock, the racks wanted, or the end)."""
    lines = [
        _("**Board {board}** (Scrabble #{number}): the tally").format(
            board=tally.board, number=tally.game_number
        )
    ]
    shown = tally.lines[-last:]
    if len(tally.lines) > len(shown):
        lines.append(_("… {count} earlier entries").format(count=len(tally.lines) - len(shown)))
    for line in shown:
        lines.append(
            f"`{line.number:>2}` {seat_name(tally, line.seat)}: {plain(line.text)} "
            f"({line.score:+d}) → **{line.total}**"
        )
    if not tally.lines:
        lines.append(_(NOTHING_ENTERED))
    scores = " · ".join(f"{s.label} **{s.score}**" for s in tally.seats)
    lines.append(_("Scores: {scores}").format(scores=scores))
    if tally.status == "playing" and tally.to_move is not None:
        turn = _("{name} to play.").format(name=seat_name(tally, tally.to_move))
        if tally.turn_due is not None:
            turn += " " + _("The turn clock runs out {when}.").format(
                when=relative_time(tally.turn_due)
            )
        lines.append(turn)
    elif tally.status == "playing":
        lines.append(_(FIRST_ENTRY))
    elif tally.status == "racks":
        due = [s.label for s in tally.seats if s.rack_due]
        lines.append(
            _(
                "The game is over: enter the tiles left on the rack of {names} with `/tally rack`."
            ).format(names=", ".join(due))
        )
    elif tally.status == "finished":
        lines.append(_("The game is over: these are the final scores."))
    return "\n".join(lines)


def entered(tally: _Tally, message: str) -> str:
    """The private answer to an entry: what the engine said, then the tally."""
    return f"{message}\n\n{tally_text(tally, last=4)}"


def corrected_post(who: str, number: int, before: str, after: str) -> str:
    """The board thread's line for a correction (the board post that follows has the
    recomputed scores)."""
    return _(
        "{who} corrected entry {number}: {before} → {after}. The scores after it are recomputed."
    ).format(who=who, number=number, before=plain(before), after=plain(after))


def racks_wanted(boards: Sequence[int]) -> str:
    """The session's channel, when every board has ended but some racks are not in yet."""
    return _(
        "Every board has ended. Boards {boards}: enter the tiles left on each rack with "
        "`/tally rack`; the results follow."
    ).format(boards=", ".join(str(b) for b in boards))
