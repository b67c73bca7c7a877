"""The words of a member's own Scrabble board page (``bot/web/board_scrabble.py``)
that change with the game: whose turn it is, the last play, what the tiles put
down would score.

Plain text, not markdown: the page shows it as text, and names come as they are
(the page escapes them). The page's fixed words (buttons, squares' names) are its
template's.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.messages.i18n import N_, _, ngettext
from bot.messages.scrabble.names import reason_text
from bot.messages.scrabble.thread import (
    NO_TILES_YET,
    BoardFacts,
    last_play_line,
    last_turn_line,
)

YOUR_TURN = N_("Your turn.")
THEIR_TURN = N_("{seat} to play.")
OVER = N_("The game is over.")
ENDING = N_("The final play waits to be accepted or challenged.")
ENDING_YOURS = N_("The final play waits for your say: challenge it or accept it.")


def status_text(
    *, phase: str, status: str, my_turn: bool, to_play: str | None, can_accept: bool
) -> str:
    """One line: the member's turn (said so), whose turn it is, or how things stand."""
    if status != "active" or phase == "finished":
        return _(OVER)
    if phase == "ending":
        return _(ENDING_YOURS if can_accept else ENDING)
    if my_turn:
        return _(YOUR_TURN)
    return _(THEIR_TURN).format(seat=to_play or "?")


def result_text(reason: str | None, winners: Sequence[str], *, draw: bool, no_contest: bool) -> str:
    """How a finished game ended, in one line (``Game over (a player went out): alice
    won.``); empty while it goes on."""
    if reason is None:
        return ""
    why = reason_text(reason)
    if no_contest:
        return _("Game over ({reason}): no contest, as no tile was ever placed.").format(reason=why)
    who = " & ".join(winners)
    if draw:
        return _("Game over ({reason}): a draw between {who}.").format(reason=why, who=who)
    return _("Game over ({reason}): {who} won.").format(reason=why, who=who)


def last_text(facts: BoardFacts) -> str:
    """The last play still on the board and the latest turn after it, in words."""
    lines = []
    if facts.last is not None:
        lines.append(last_play_line(*facts.last) + ".")
    elif not facts.moves or facts.latest is None:
        lines.append(_(NO_TILES_YET))
    if facts.latest is not None:
        lines.append(last_turn_line(facts.latest))
    return " ".join(lines)


def points_text(count: int) -> str:
    """``1 point``, ``10 points``: a tile's value as its accessible name says it."""
    return ngettext("{count} point", "{count} points", count).format(count=count)


def preview_text(words: Sequence[tuple[str, int]], score: int, *, bingo: bool) -> str:
    """What tiles put down would make: ``QUIZ 34, QI 11: 45 points``."""
    formed = ", ".join(f"{word} {points}" for word, points in words)
    total = points_text(score)
    if bingo:
        return _("{words}: {total}, with the bingo bonus.").format(words=formed, total=total)
    return _("{words}: {total}.").format(words=formed, total=total)
