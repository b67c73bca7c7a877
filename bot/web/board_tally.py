"""A board's tally in the room (issue #29): the ``tally`` kind of ``bot.web.boards``,
the phone page a side enters its plays on while the tiles are on a real board.

The link (``t<game>``) names a member seated on a board of a club session played
over the board; the page is theirs as their Scrabble board page is (the cookie,
CSRF and the rate limit come with ``bot.web.boards``). Its state is the board's
tally as ``SessionService.tally.board`` reads it: the board as the bot keeps it
(no rack: the bot knows none), the entries with their running totals, the
scores, whose turn and the turn clock, which side this member plays, and what
they may do now. Its actions are the slash commands' use cases
(``/tally play|pass|exchange|challenge|rack|correct``), each naming the
version it was made on, so a refusal is the engine's, in the club's language, and
a tally changed since is refused as a stale board.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.errors import InvalidInputError
from bot.messages import tally as messages
from bot.messages.i18n import _
from bot.services import ServiceContext
from bot.services.board_links import BoardSession, Kind
from bot.services.games import game_version
from bot.services.scrabble import ScrabbleService
from bot.services.sessions import SessionService
from bot.services.sessions.tally import BoardTally, TallyAnswer
from bot.web.board_scrabble import PREMIUM_ROWS
from bot.web.boards import BAD_BODY, Action

WORD_CHARS = 40
POSITION_CHARS = 8
TILES_CHARS = 30


class TallyBoard:
    """The tally page's state and actions (a ``bot.web.boards.BoardKind``)."""

    kind: Kind = "tally"

    def __init__(self, ctx: ServiceContext, service: SessionService | None = None) -> None:
        self.ctx = ctx
        self.service = service or SessionService(ctx, ScrabbleService(ctx))

    async def version(self, subject_id: int) -> int:
        return await game_version(self.ctx, subject_id)

    async def state(self, session: BoardSession) -> Mapping[str, Any]:
        grant = session.grant
        tally = await self.service.tally.board(grant.subject_id, guild_id=grant.guild_id)
        return tally_state(tally, grant.user_id)

    def actions(self) -> Mapping[str, Action]:
        return {
            "play": self.play,
            "pass": self.pass_turn,
            "exchange": self.exchange,
            "challenge": self.challenge,
            "rack": self.rack,
            "correct": self.correct,
        }

    async def play(self, session: BoardSession, body: dict[str, Any]) -> Mapping[str, Any]:
        """``{"word": "QUIZ", "position": "8H", "version": 12}``."""
        grant = session.grant
        done = await self.service.tally.play(
            grant.subject_id,
            grant.user_id,
            _text(body, "word", WORD_CHARS),
            _text(body, "position", POSITION_CHARS),
            guild_id=grant.guild_id,
            expected_version=_version(body),
        )
        return _answer(done, grant.user_id)

    async def pass_turn(self, session: BoardSession, body: dict[str, Any]) -> Mapping[str, Any]:
        grant = session.grant
        done = await self.service.tally.pass_turn(
            grant.subject_id,
            grant.user_id,
            guild_id=grant.guild_id,
            expected_version=_version(body),
        )
        return _answer(done, grant.user_id)

    async def exchange(self, session: BoardSession, body: dict[str, Any]) -> Mapping[str, Any]:
        """``{"count": 3, "version": 12}``."""
        grant = session.grant
        done = await self.service.tally.exchange(
            grant.subject_id,
            grant.user_id,
            _count(body),
            guild_id=grant.guild_id,
            expected_version=_version(body),
        )
        return _answer(done, grant.user_id)

    async def challenge(self, session: BoardSession, body: dict[str, Any]) -> Mapping[str, Any]:
        grant = session.grant
        done = await self.service.tally.challenge(
            grant.subject_id,
            grant.user_id,
            guild_id=grant.guild_id,
            expected_version=_version(body),
        )
        return _answer(done, grant.user_id)

    async def rack(self, session: BoardSession, body: dict[str, Any]) -> Mapping[str, Any]:
        """``{"tiles": "QE?", "version": 12}``: the tiles left on this side's rack."""
        grant = session.grant
        done = await self.service.tally.rack(
            grant.subject_id,
            grant.user_id,
            _text(body, "tiles", TILES_CHARS, empty=True),
            guild_id=grant.guild_id,
            expected_version=_version(body),
        )
        return _answer(done, grant.user_id)

    async def correct(self, session: BoardSession, body: dict[str, Any]) -> Mapping[str, Any]:
        """The last entry as it should be: ``{"word", "position"}``, ``{"pass": true}`` or
        ``{"count": 3}`` (an exchange), with ``version``."""
        grant = session.grant
        word = position = None
        if "word" in body:
            word = _text(body, "word", WORD_CHARS)
            position = _text(body, "position", POSITION_CHARS)
        done = await self.service.tally.correct(
            grant.subject_id,
            grant.user_id,
            is_moderator=False,
            word=word,
            position=position,
            passed=body.get("pass") is True,
            exchanged=_count(body) if "count" in body else None,
            guild_id=grant.guild_id,
            expected_version=_version(body),
        )
        return _answer(done, grant.user_id)


def tally_state(tally: BoardTally, user_id: int) -> dict[str, Any]:
    """What the page draws, for the member whose link opened it."""
    mine = next((s.seat for s in tally.seats if user_id in s.user_ids), None)
    turn = next((s.label for s in tally.seats if s.seat == tally.to_move), "")
    last = tally.lines[-1] if tally.lines else None
    first = tally.status == "playing" and tally.to_move is None
    if first:
        status = _(messages.FIRST_ENTRY)
    elif tally.status == "playing" and tally.to_move is not None:
        status = (
            _(messages.PAGE_YOUR_TURN)
            if tally.to_move == mine
            else _(messages.PAGE_TURN_OF).format(name=turn)
        )
    elif tally.status == "racks":
        status = _("The game is over: enter the tiles left on your rack.")
    else:
        status = _("The game is over: these are the final scores.")
    return {
        "version": tally.version,
        "board": tally.board,
        "title": _(messages.PAGE_BOARD).format(number=tally.board),
        "status": tally.status,
        "status_text": status,
        "seat": mine,
        "to_move": tally.to_move,
        "my_turn": mine is not None
        and tally.status == "playing"
        and (tally.to_move == mine or first),
        "turn_due": tally.turn_due.isoformat() if tally.turn_due else None,
        "seats": [
            {
                "seat": s.seat,
                "label": s.label,
                "score": s.score,
                "tiles": s.tiles,
                "mine": s.seat == mine,
                "rack_due": s.rack_due,
            }
            for s in tally.seats
        ],
        "lines": [
            {
                "number": line.number,
                "seat": line.seat,
                "who": next((s.label for s in tally.seats if s.seat == line.seat), ""),
                "text": line.text,
                "score": line.score,
                "total": line.total,
            }
            for line in tally.lines
        ],
        "rows": list(tally.rows),
        "premiums": list(PREMIUM_ROWS),
        "last_squares": list(tally.last_squares),
        "bag": tally.bag,
        "bag_text": _(messages.PAGE_BAG).format(count=tally.bag),
        # The other side challenges a play (its last entry a play not of this side's).
        "can_challenge": tally.can_challenge
        and mine is not None
        and last is not None
        and last.kind == "play"
        and last.seat != mine,
        "can_correct": last is not None
        and last.kind in ("play", "pass", "exchange")
        and tally.status == "playing",
        "rack_due": any(s.rack_due and s.seat == mine for s in tally.seats),
    }


def _answer(done: TallyAnswer, user_id: int) -> dict[str, Any]:
    return {"ok": True, "message": done.message, "state": tally_state(done.tally, user_id)}


def _text(body: Mapping[str, Any], key: str, limit: int, *, empty: bool = False) -> str:
    value = body.get(key)
    if not isinstance(value, str) or len(value) > limit or (not empty and not value.strip()):
        raise InvalidInputError(BAD_BODY)
    return value


def _count(body: Mapping[str, Any]) -> int:
    value = body.get("count")
    if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= 9:
        raise InvalidInputError(BAD_BODY)
    return value


def _version(body: Mapping[str, Any]) -> int | None:
    value = body.get("version")
    if value is None:
        return None
    if not isinstance(value, int) or isinstance(value, bool):
        raise InvalidInputError(BAD_BODY)
    return value
