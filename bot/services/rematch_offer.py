"""Whether a finished game's last post carries the **Rematch** button (issue #30), and
the button's outbox view. Apart from ``bot.services.matchmaking`` so the games'
own services (which write that post) can read it without importing it.

Offered on a finished game between members: not against the computer, and not
on a game that belongs to something larger (a tournament's, a league's, a club
session's, one played on a real board), whose next game that thing decides.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.messages.post import ViewSpec

REMATCH_VIEW = "rematch"
# Marks of games that something larger made (its own next game is its to make).
OWNED_BY = ("tournament_id", "league_id", "session_id", "event_id", "room")


def rematch_offered(kind: str, options: Mapping[str, Any] | None) -> bool:
    """Whether a finished game with these ``games.options`` offers a rematch."""
    options = options or {}
    if any(options.get(mark) for mark in OWNED_BY):
        return False
    if options.get("computer_seat") is not None:
        return False
    rules = options.get("rules")
    return not (isinstance(rules, Mapping) and rules.get("room"))


def rematch_view(kind: str, game_id: int) -> ViewSpec:
    """The Rematch button of a finished game's last post (``bot.ui.matchmaking`` builds it)."""
    return ViewSpec(REMATCH_VIEW, {"kind": kind, "game_id": game_id})
