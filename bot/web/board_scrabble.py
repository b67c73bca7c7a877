"""A member's own Scrabble board (issue #28): the ``scrabble`` kind of ``bot.web.boards``.

The state is the game as ``ScrabbleService.reading.board_view`` reads it for the
member whose link opened the page: the board with its premium squares and the
last play, the member's own rack (their seat's: both partners of a pair see it,
nobody else does), the scores, whose turn and the turn clock, the game's
deadline, the bag and the tiles this member has not seen, what they may do now
(exchange, challenge, accept a finishing play), and ``version`` (``games.version``).

The page puts tiles on squares; a play is sent as those tiles (row, column,
letter, blank) and played by ``Moves.play_tiles``, the engine's
``play_tiles``: the main word and the cross-words are read off the board with
the tiles already there, so a correct placement is never refused for a word not
typed whole (the slash command's rule for typed words). ``preview`` asks the same
engine what the tiles would make (words and score, or its refusal in the club's
language) and changes nothing. ``play``, ``exchange``, ``pass``, ``challenge``,
``accept`` and ``resign`` call the same use cases as ``/scrabble …`` and the
board's buttons (``cogs/scrabble.py``), so the refusals, the thread's posts and
DMs through the outbox and the club's language are theirs; each names the
version it was made on, and a game changed since is refused in the move's own
transaction (``StaleBoardError``, "The board changed: look again.").
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from bot.errors import ClubError, InvalidInputError
from bot.messages.errors import refusal
from bot.messages.scrabble.page import (
    last_text,
    points_text,
    preview_text,
    result_text,
    status_text,
)
from bot.services import ServiceContext
from bot.services.board_links import BoardSession, Kind
from bot.services.games import game_version
from bot.services.scrabble import ActionOutcome, ScrabbleService
from bot.services.scrabble.snapshots import BoardView
from bot.web.boards import BAD_BODY, Action
from engines.scrabble.layout import LETTER_VALUES, PREMIUMS, SIZE, square_name

# The premium squares as the page draws them: T triple word, D double word,
# t triple letter, d double letter, "." none (engines.scrabble.layout).
_PREMIUM_CODES = {"TW": "T", "DW": "D", "TL": "t", "DL": "d", None: "."}
PREMIUM_ROWS = tuple("".join(_PREMIUM_CODES[p] for p in row) for row in PREMIUMS)
MAX_TILES = 9  # the largest rack (the 9-tile variant)
EXCHANGE_CHARS = 30  # as /scrabble exchange reads it
LETTERS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZ")


class ScrabbleBoard:
    """The Scrabble board page's state and actions (a ``bot.web.boards.BoardKind``)."""

    kind: Kind = "scrabble"

    def __init__(self, ctx: ServiceContext, service: ScrabbleService | None = None) -> None:
        self.ctx = ctx
        self.service = service or ScrabbleService(ctx)

    async def version(self, subject_id: int) -> int:
        return await game_version(self.ctx, subject_id)

    async def state(self, session: BoardSession) -> Mapping[str, Any]:
        grant = session.grant
        view = await self.service.reading.board_view(
            grant.subject_id, grant.user_id, guild_id=grant.guild_id
        )
        return board_state(view)

    def actions(self) -> Mapping[str, Action]:
        return {
            "preview": self.preview,
            "play": self.play,
            "exchange": self.exchange,
            "pass": self._turn_action(self.service.moves.pass_turn),
            "challenge": self._turn_action(self.service.moves.challenge),
            "accept": self._turn_action(self.service.moves.accept_play),
            "resign": self._turn_action(self.service.moves.resign),
        }

    async def preview(self, session: BoardSession, body: dict[str, Any]) -> Mapping[str, Any]:
        """``{"tiles": [{"row": 7, "col": 7, "letter": "Q", "blank": false}, ...]}``:
        the words and the score the tiles would make, or the engine's refusal as
        ``{"legal": false, "message": ...}``, in the club's language. Nothing changes."""
        placements = _placements(body)
        grant = session.grant
        try:
            found = await self.service.reading.preview_tiles(
                grant.subject_id, grant.user_id, placements, guild_id=grant.guild_id
            )
        except InvalidInputError as refused:
            version = await game_version(self.ctx, grant.subject_id)
            return {
                "legal": False,
                "code": refused.code,
                "message": refusal(refused),
                "version": version,
            }
        return {
            "legal": True,
            "version": found.version,
            "position": found.position,
            "words": [{"word": word, "score": score} for word, score in found.words],
            "score": found.score,
            "bingo": found.bingo,
            "text": preview_text(found.words, found.score, bingo=found.bingo),
        }

    async def play(self, session: BoardSession, body: dict[str, Any]) -> Mapping[str, Any]:
        """``{"tiles": [...], "version": 12}``: the tiles played, as ``preview`` reads them."""
        placements = _placements(body)
        version = _version(body)
        grant = session.grant
        outcome = await self.service.moves.play_tiles(
            grant.subject_id,
            grant.user_id,
            placements,
            guild_id=grant.guild_id,
            expected_version=version,
        )
        return await self._answer(session, outcome)

    async def exchange(self, session: BoardSession, body: dict[str, Any]) -> Mapping[str, Any]:
        """``{"tiles": "QV?", "version": 12}``: those rack tiles swapped, as ``/scrabble
        exchange`` swaps them (``?`` a blank)."""
        tiles = body.get("tiles")
        if not isinstance(tiles, str) or not tiles or len(tiles) > EXCHANGE_CHARS:
            raise InvalidInputError(BAD_BODY)
        version = _version(body)
        grant = session.grant
        outcome = await self.service.moves.exchange(
            grant.subject_id,
            grant.user_id,
            tiles,
            guild_id=grant.guild_id,
            expected_version=version,
        )
        return await self._answer(session, outcome)

    def _turn_action(self, move: Callable[..., Awaitable[ActionOutcome]]) -> Action:
        """A change that takes nothing but the board's version (``{"version": 12}``):
        pass, challenge, accepting a play that would end the game, resign (the page
        asked first), each the same service method as its slash command or button."""

        async def act(session: BoardSession, body: dict[str, Any]) -> Mapping[str, Any]:
            grant = session.grant
            outcome = await move(
                grant.subject_id,
                grant.user_id,
                guild_id=grant.guild_id,
                expected_version=_version(body),
            )
            return await self._answer(session, outcome)

        return act

    async def _answer(self, session: BoardSession, outcome: ActionOutcome) -> dict[str, Any]:
        """What the member is told (the slash command's private answer) and the state
        the change left: the page shows it at once (a game it ended included, whose
        link opens nothing more)."""
        answer: dict[str, Any] = {"message": outcome.message, "finished": outcome.finished}
        try:
            answer["state"] = await self.state(session)
        except ClubError:  # gone meanwhile: the page asks again
            pass
        return answer


def _version(body: Mapping[str, Any]) -> int:
    version = body.get("version")
    if not isinstance(version, int) or isinstance(version, bool):
        raise InvalidInputError(BAD_BODY)
    return version


def _placements(body: Mapping[str, Any]) -> list[tuple[str, str]]:
    """The tiles the page put down, as the engine takes them: ``("H8", "Q")``, a blank
    ``("H9", "?i")``. Anything else is a request this board does not read."""
    tiles = body.get("tiles")
    if not isinstance(tiles, list) or not 0 < len(tiles) <= MAX_TILES:
        raise InvalidInputError(BAD_BODY)
    placements = []
    for tile in tiles:
        if not isinstance(tile, dict):
            raise InvalidInputError(BAD_BODY)
        row, col, letter = tile.get("row"), tile.get("col"), tile.get("letter")
        blank = tile.get("blank", False)
        if (
            not isinstance(row, int)
            or not isinstance(col, int)
            or isinstance(row, bool)
            or isinstance(col, bool)
            or not (0 <= row < SIZE and 0 <= col < SIZE)
            or not isinstance(letter, str)
            or letter.upper() not in LETTERS
            or not isinstance(blank, bool)
        ):
            raise InvalidInputError(BAD_BODY)
        placed = f"?{letter.lower()}" if blank else letter.upper()
        placements.append((square_name(row, col), placed))
    return placements


def board_state(view: BoardView) -> dict[str, Any]:
    """What the page draws, for this member only (see the module)."""
    active = view.status == "active" and view.phase != "finished"
    waiting = view.my_turn and active
    names = [seat.label for seat in view.seats]
    to_play = names[view.current_seat] if view.current_seat is not None else None
    return {
        "version": view.version,
        "number": view.number,
        "status": view.status,
        "phase": view.phase,
        "board": list(view.rows),
        "premiums": list(PREMIUM_ROWS),
        "last": list(view.last),
        "rack": view.rack,
        "values": LETTER_VALUES,
        "points": {str(v): points_text(v) for v in sorted(set(LETTER_VALUES.values()))},
        "rack_size": view.rack_size,
        "seat": view.seat,
        "seats": [
            {
                "name": name,
                "score": view.scores[index],
                "you": index == view.seat,
                "to_play": index == view.current_seat,
                "resigned": index in view.resigned,
            }
            for index, name in enumerate(names)
        ],
        "my_turn": waiting,
        "turn_due": view.turn_due.isoformat() if view.turn_due else None,
        "deadline": view.deadline.isoformat() if view.deadline else None,
        "as_of": view.as_of.isoformat(),
        "bag": view.bag,
        "unseen": view.unseen,
        "challenge_rule": view.challenge_rule,
        "can": {
            "play": waiting,
            "exchange": waiting and view.can_exchange,
            "pass": waiting,
            "challenge": active and view.can_challenge,
            "accept": active and view.can_accept,
            "resign": active and view.seat not in view.resigned,
        },
        "status_text": status_text(
            phase=view.phase,
            status=view.status,
            my_turn=view.my_turn,
            to_play=to_play,
            can_accept=view.can_accept,
        ),
        "last_text": last_text(view.facts),
        "result_text": result_text(
            view.end_reason,
            [names[seat] for seat in view.winners],
            draw=len(view.winners) > 1,
            no_contest=view.no_contest,
        ),
        "description": view.description,
    }
