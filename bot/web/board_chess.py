"""A member's own chess board (issue #28): the ``chess`` kind of ``bot.web.boards``.

The state is the game as ``ChessService`` reads it, for the member whose link
opened the page: the position (FEN and the 8×8 pieces), their side (either
partner of a pair moves for it), whose turn, the last move and a king in check,
the legal moves from python-chess (only on the member's own turn, so castling,
en passant and promotion are the engine's), the clocks (each side's time as of
the server's moment, and which one runs, so the page can tick), the draw offer
and whether a draw can be claimed, how the game ended, and ``version``
(``games.version``).

The actions call the same use cases as ``/chess move``, ``/chess draw`` and
``/chess resign`` (``cogs/chess.py``), so the refusals, the board posted in the
game's thread through the outbox and the club's language are theirs. A move
names the version it was made on; the service refuses it with
``StaleBoardError`` if the game changed since, in the move's own transaction.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

import chess

from bot.errors import InvalidInputError
from bot.messages.chess import control_label
from bot.messages.chess.page import draw_text, last_move_text, status_text
from bot.services import ServiceContext
from bot.services.board_links import BoardSession, Kind
from bot.services.chess import ChessService, ChessSnapshot, ChessUpdate
from bot.services.chess.snapshots import color_key
from bot.services.games import game_version
from bot.web.boards import BAD_BODY, Action
from engines.chess_game import can_claim_draw, legal_targets

SQUARE = re.compile(r"[a-h][1-8]")
PROMOTIONS = frozenset("qrbn")
DRAW_ACTIONS = frozenset({"offer", "accept", "decline", "claim"})


class ChessBoard:
    """The chess board page's state and actions (a ``bot.web.boards.BoardKind``)."""

    kind: Kind = "chess"

    def __init__(self, ctx: ServiceContext, service: ChessService | None = None) -> None:
        self.ctx = ctx
        self.service = service or ChessService(ctx)

    async def version(self, subject_id: int) -> int:
        return await game_version(self.ctx, subject_id)

    async def state(self, session: BoardSession) -> Mapping[str, Any]:
        grant = session.grant
        snap = await self.service.reading.snapshot(grant.subject_id, guild_id=grant.guild_id)
        return board_state(snap, snap.color_of(grant.user_id))

    def actions(self) -> Mapping[str, Action]:
        return {"move": self.move, "draw": self.draw, "resign": self.resign}

    async def move(self, session: BoardSession, body: dict[str, Any]) -> Mapping[str, Any]:
        """``{"from": "e7", "to": "e8", "promotion": "q", "version": 12}``: the move, as
        ``/chess move`` plays it, refused if the game is no longer at ``version``."""
        origin, target = _square(body.get("from")), _square(body.get("to"))
        promotion = body.get("promotion")
        if promotion is not None and (
            not isinstance(promotion, str) or promotion not in PROMOTIONS
        ):
            raise InvalidInputError(BAD_BODY)
        version = body.get("version")
        if not isinstance(version, int) or isinstance(version, bool):
            raise InvalidInputError(BAD_BODY)
        grant = session.grant
        update = await self.service.moves.play(
            grant.subject_id,
            grant.user_id,
            f"{origin}{target}{promotion or ''}",
            expected_version=version,
            guild_id=grant.guild_id,
        )
        return _answer(update, grant.user_id)

    async def draw(self, session: BoardSession, body: dict[str, Any]) -> Mapping[str, Any]:
        """``{"action": "offer" | "accept" | "decline" | "claim"}``, as ``/chess draw``
        (``decline`` of one's own offer withdraws it)."""
        action = body.get("action")
        if not isinstance(action, str) or action not in DRAW_ACTIONS:
            raise InvalidInputError(BAD_BODY)
        grant = session.grant
        update = await self.service.endings.draw(
            grant.subject_id, grant.user_id, action, guild_id=grant.guild_id
        )
        return _answer(update, grant.user_id)

    async def resign(self, session: BoardSession, body: dict[str, Any]) -> Mapping[str, Any]:
        """The member's side resigns, as ``/chess resign`` (the page asked first)."""
        grant = session.grant
        update = await self.service.endings.resign(
            grant.subject_id, grant.user_id, guild_id=grant.guild_id
        )
        return _answer(update, grant.user_id)


def _square(value: object) -> str:
    if not isinstance(value, str) or not SQUARE.fullmatch(value):
        raise InvalidInputError(BAD_BODY)
    return value


def _answer(update: ChessUpdate, user_id: int) -> dict[str, Any]:
    """The change's headline and the state it left: the page shows it at once (a game it
    ended included, whose link opens nothing more)."""
    snap = update.snapshot
    return {
        "version": snap.version,
        "headline": update.headline,
        "state": board_state(snap, snap.color_of(user_id)),
    }


def board_state(snap: ChessSnapshot, viewer: chess.Color | None) -> dict[str, Any]:
    """What the page draws, for a member playing ``viewer`` (see the module)."""
    board = snap.board
    active = snap.status == "active"
    my_turn = active and viewer is not None and board.turn == viewer
    last = board.peek() if board.move_stack else None
    checked = board.king(board.turn) if board.is_check() else None
    sides = {chess.WHITE: snap.white, chess.BLACK: snap.black}
    return {
        "version": snap.version,
        "number": snap.number,
        "status": snap.status,
        "fen": board.fen(),
        "board": board_rows(board),
        "me": color_key(viewer) if viewer is not None else None,
        "turn": color_key(board.turn),
        "my_turn": my_turn,
        "players": {
            color_key(color): {
                "name": seat.name,
                "computer": seat.is_computer,
                "you": viewer == color,
            }
            for color, seat in sides.items()
        },
        "last_move": (
            {
                "from": chess.square_name(last.from_square),
                "to": chess.square_name(last.to_square),
                "san": snap.sans[-1],
            }
            if last is not None
            else None
        ),
        "check": chess.square_name(checked) if checked is not None else None,
        "legal": (
            {
                origin: [{"to": to, "promotion": promotion} for to, promotion in targets]
                for origin, targets in legal_targets(board).items()
            }
            if my_turn
            else {}
        ),
        "sans": list(snap.sans),
        "clock": _clock(snap),
        "draw": {
            "offered_by": (
                color_key(snap.draw_offer)
                if snap.offers_draw and snap.draw_offer is not None
                else None
            ),
            "text": draw_text(snap, viewer),
            "can_offer": active
            and viewer is not None
            and snap.draw_offer is None
            and not sides[not viewer].is_computer,
            "can_claim": active and viewer is not None and can_claim_draw(board, viewer),
        },
        "can_resign": active and viewer is not None,
        "status_text": status_text(snap, viewer),
        "last_text": last_move_text(snap),
        "result": snap.result,
    }


def board_rows(board: chess.Board) -> list[list[str | None]]:
    """The 8×8 pieces, rank 8 first (``_piece`` each), as the page's module reads them."""
    return [
        [_piece(board.piece_at(chess.square(file, rank))) for file in range(8)]
        for rank in range(7, -1, -1)
    ]


def _piece(piece: chess.Piece | None) -> str | None:
    """A piece as FEN writes it: ``K`` a white king, ``n`` a black knight."""
    return piece.symbol() if piece is not None else None


def _clock(snap: ChessSnapshot) -> dict[str, Any] | None:
    """Each side's time left as of the snapshot's moment, and the side whose clock runs
    (none while the game is not in play, or its mover is on vacation)."""
    clock = snap.clock
    if clock is None:
        return None
    running = None
    if snap.status == "active" and clock.vacation_until(clock.to_move, snap.as_of) is None:
        running = color_key(clock.to_move)
    return {
        "live": snap.is_live,
        "label": control_label(snap.control),
        "white_ms": snap.remaining_ms(chess.WHITE),
        "black_ms": snap.remaining_ms(chess.BLACK),
        "running": running,
        "turn_started_at": clock.turn_started_at.isoformat(),
        "as_of": snap.as_of.isoformat(),
    }
