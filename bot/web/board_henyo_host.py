"""A Henyo host's console on a phone (issue #29): the ``henyo_host`` kind of
``bot.web.boards``.

The link names one round played aloud and its host (``BoardLinks`` refuses anyone
else's). The state is the console as ``HenyoService.host`` reads it: the pair,
the secret (the host wrote the card; the page keeps it folded until asked), the
clock's start and end with the server's time (so a phone's own clock does not
matter), the penalties, the result, the screen's switch, and which presses would
count now. Its actions are the Discord console's, through the same service:

- ``press``: ``{"press": "start" | "penalty" | "got_it" | "coaching" | "undo",
  "version": n}``, made on the version the page showed, so a double tap or a
  retried request counts once (``counted`` false in the answer, nothing changed);
- ``screen``: ``{"shown": true | false}``, whether the room's screen may show the
  word during the round (saying what it should be, so a repeat is harmless).

``version`` is the round's: every press, the end job and the switch move it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.errors import InvalidInputError
from bot.messages.henyo import aloud as say
from bot.messages.henyo.names import category_text
from bot.messages.i18n import _
from bot.services import ServiceContext
from bot.services.board_links import BoardSession, Kind
from bot.services.henyo import ConsoleView, HenyoService
from bot.web.boards import BAD_BODY, Action

PRESSES = ("start", "penalty", "got_it", "coaching", "undo")


def _iso(value: Any) -> str | None:
    return value.isoformat() if value is not None else None


class HenyoHostBoard:
    """The host console page's state and actions (a ``bot.web.boards.BoardKind``)."""

    kind: Kind = "henyo_host"

    def __init__(self, ctx: ServiceContext, service: HenyoService | None = None) -> None:
        self.ctx = ctx
        self.service = service or HenyoService(ctx)

    async def version(self, subject_id: int) -> int:
        return await self.service.host.version(subject_id)

    async def state(self, session: BoardSession) -> Mapping[str, Any]:
        grant = session.grant
        view = await self.service.host.console(
            grant.subject_id, user_id=grant.user_id, is_moderator=False
        )
        return _state(view)

    def actions(self) -> Mapping[str, Action]:
        return {"press": self.press, "screen": self.screen}

    async def press(self, session: BoardSession, body: dict[str, Any]) -> Mapping[str, Any]:
        press, version = body.get("press"), body.get("version")
        if press not in PRESSES or not isinstance(version, int) or isinstance(version, bool):
            raise InvalidInputError(BAD_BODY)
        grant = session.grant
        done = await self.service.host.press(
            grant.subject_id,
            user_id=grant.user_id,
            is_moderator=False,
            action=press,
            version=version,
            via="web",
        )
        return {
            "counted": done.counted,
            "note": "" if done.counted else _(say.ALREADY_COUNTED),
            "state": _state(done.console),
        }

    async def screen(self, session: BoardSession, body: dict[str, Any]) -> Mapping[str, Any]:
        shown = body.get("shown")
        if not isinstance(shown, bool):
            raise InvalidInputError(BAD_BODY)
        grant = session.grant
        view = await self.service.host.show_on_screen(
            grant.subject_id, user_id=grant.user_id, is_moderator=False, shown=shown
        )
        return {"state": _state(view)}


def _state(view: ConsoleView) -> dict[str, Any]:
    return {
        "version": view.version,
        "round": view.round_id,
        "title": view.title,
        "guesser": view.guesser.name,
        "answerer": view.answerer.name,
        "pair_text": _("{guesser} guesses · {answerer} answers").format(
            guesser=view.guesser.name, answerer=view.answerer.name
        ),
        "word": view.word,
        "category": category_text(view.category),
        "status": view.status,
        "status_text": say.status_line(view, discord=False).replace("**", ""),
        "now": _iso(view.now),
        "started_at": _iso(view.started_at),
        "ends_at": _iso(view.ends_at),
        "time_limit_ms": view.time_limit_ms,
        "penalty_ms": view.penalty_ms,
        "penalties": view.penalties,
        "elapsed_ms": view.elapsed_ms,
        "final_ms": view.final_ms,
        "shown_on_screen": view.show_word_on_screen,
        "screen_text": say.screen_line(view.show_word_on_screen),
        "can": sorted(view.can),
        "penalty_label": say.penalty_label(view.penalty_ms),
    }
