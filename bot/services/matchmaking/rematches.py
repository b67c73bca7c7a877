"""The **Rematch** button of a finished game (issue #30).

Each press is kept in the finished game's options (``rematch.pressed``), written
with the game's version, so a press survives a restart and two presses at once
are both counted (the second reads again). A seat counts once any of its members
pressed; a member pressing twice counts once. When every seat has, the same game
is made again in the same transaction (same options), colours swapped for chess
(the pair that had White has Black) and, for Scrabble, the seats in a new order
whose first to play is the one after the last game's first (no draw), and its
id is kept (``rematch.game_id``): a press after that answers with it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot.db.models import GameRecord
from bot.db.uow import UnitOfWork
from bot.errors import InvalidInputError, PermissionDeniedError
from bot.messages import matchmaking as msg
from bot.messages.i18n import _
from bot.services import ServiceContext
from bot.services.matchmaking.games import MatchGames, Side
from bot.services.rematch_offer import rematch_offered
from bot.services.transactions import transact

MARK = "rematch"  # games.options key of a finished game: {"pressed": [...], "game_id": ...}


@dataclass(frozen=True)
class RematchOutcome:
    """What a press of Rematch did."""

    status: str  # waiting | already | started
    pressed: int  # seats ready
    seats: int
    game_id: int | None = None  # the new game, once started
    number: int | None = None
    new: bool = False  # this press started it


class Rematches:
    """One game kind's rematches."""

    def __init__(self, ctx: ServiceContext, games: MatchGames) -> None:
        self.ctx = ctx
        self.games = games
        self.kind = games.kind

    async def press(
        self, game_id: int, user_id: int, *, guild_name: str = "", guild_id: int | None = None
    ) -> RematchOutcome:
        """``user_id`` presses Rematch on a finished game: counted once; the last seat
        to press starts the new game (opened after by ``MatchGames.open``)."""

        async def work(uow: UnitOfWork) -> RematchOutcome:
            game = await uow.games.get(game_id, guild_id=guild_id, kind=self.kind)
            if game.status != "finished" or not rematch_offered(game.kind, game.options):
                raise InvalidInputError(_(msg.NO_REMATCH))
            seat_of = {s.user_id: s.seat for s in game.seats}
            if user_id not in seat_of:
                raise PermissionDeniedError(_(msg.NOT_YOUR_GAME))
            options = dict(game.options or {})
            mark = dict(options.get(MARK) or {})
            pressed = [int(u) for u in mark.get("pressed") or []]
            seats = sorted(set(seat_of.values()))
            if mark.get("game_id"):
                new = await uow.games.get(int(mark["game_id"]))
                return RematchOutcome("started", len(seats), len(seats), new.id, new.number)
            if user_id in pressed:
                ready = {seat_of[u] for u in pressed if u in seat_of}
                return RematchOutcome("already", len(ready), len(seats))
            pressed.append(user_id)
            ready = {seat_of[u] for u in pressed if u in seat_of}
            mark["pressed"] = pressed
            outcome = RematchOutcome("waiting", len(ready), len(seats))
            if ready == set(seats):
                new = await self._again(uow, game, guild_name)
                mark["game_id"] = new.id
                outcome = RematchOutcome(
                    "started", len(seats), len(seats), new.id, new.number, new=True
                )
            # The version guards the presses: a press at the same moment reads again.
            await uow.games.save_state(
                game, expected_version=game.version, options={**options, MARK: mark}
            )
            return outcome

        return await transact(self.ctx, work, conflicts=True)

    async def _again(self, uow: UnitOfWork, game: GameRecord, guild_name: str) -> GameRecord:
        """The same game again: sides swapped (chess) or the next seat first (Scrabble)."""
        by_seat: dict[int, list[int]] = {}
        for s in sorted(game.seats, key=lambda s: (s.seat, s.user_id)):
            by_seat.setdefault(s.seat, []).append(s.user_id)
        names = await uow.players.names([u for members in by_seat.values() for u in members])
        sides = [
            Side(tuple((u, names.get(u, "?")) for u in members))
            for _seat, members in sorted(by_seat.items())
        ]
        options: dict[str, Any] = {
            k: v
            for k, v in (game.options or {}).items()
            if k
            not in (
                MARK,
                "opened",
                "opening_message_id",
                "seek_id",
                "seek_message_id",
                "rematch_of",
            )
        }
        if self.kind == "chess":
            sides = list(reversed(sides))  # White was seat 0: the other side has it now
            options = {
                "time_control": options.get("time_control"),
                "color": options.get("color") or "random",
            }
        else:
            engine = (game.state or {}).get("engine") or {}
            first = int(engine.get("first_seat", 0)) if isinstance(engine, dict) else 0
            start = (first + 1) % len(sides)
            sides = sides[start:] + sides[:start]
            options = MatchGames.fixed_first(options)
        return await self.games.create(
            uow,
            guild_id=game.guild_id,
            guild_name=guild_name,
            channel_id=game.channel_id or 0,
            sides=sides,
            options=options,
            created_by=sides[0].members[0][0],
            marks={"rematch_of": game.id},
        )
