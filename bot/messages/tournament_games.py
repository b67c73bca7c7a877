"""What a tournament tells a game's own thread when the tournament ends it (a
director's adjudication, the round's deadline). Texts only: no Discord here."""

from __future__ import annotations

from bot.messages.i18n import _
from bot.messages.text import plain


def game_adjudicated(name: str, label: str, result: str, number: int, board: int) -> str:
    """In the game's own thread: it is over, and why."""
    return _(
        "⚖️ This game is over: the director of **{name}** adjudicated it (round {round}, "
        "board {board}: a {result} for {entrant}). Moves here are no longer taken."
    ).format(
        name=plain(name, 80), round=number, board=board, result=result, entrant=plain(label, 40)
    )


def game_ended_by_deadline(name: str, number: int) -> str:
    """In the game's own thread: its round's deadline ended it."""
    return _(
        "⏰ This game is over: round {round} of **{name}** reached its deadline, and the game "
        "is scored as it stands. Moves here are no longer taken."
    ).format(name=plain(name, 80), round=number)


def game_ended_by_close(name: str, number: int) -> str:
    """In the game's own thread: the tournament's games event closed, and so did it."""
    return _(
        "🏁 This game is over: its games event closed, so the director ended **{name}** in "
        "round {round} and scored this game as it stands (not rated). Moves here are no "
        "longer taken."
    ).format(name=plain(name, 80), round=number)
