"""``/mygames``: everything waiting on one member in one server, in one private list.

Scrabble and chess games (invitations to answer, games in play: whose turn and
the clock left), tournament games among them, Boggle rounds still taking lists,
and the Henyo events the member's pair is in. Each item names where it is played
(its thread) and, when the club's page is on, the member's own board link
(``BoardAddresses``, the one signing scheme). The member's turns come first,
then the soonest clock; the list is cut at ``MAX_ITEMS`` (the rest are counted).

Read only: one reader unit of work, nothing written.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime
from typing import Any, cast

from bot.db.models import GameRecord
from bot.db.uow import UnitOfWork
from bot.messages.mygames import WaitingItem, WaitingList
from bot.services import ServiceContext
from bot.services.board_address import BoardAddresses
from bot.services.board_links import Kind
from bot.services.chess.options import BLACK_SEAT, WHITE_SEAT
from bot.services.chess.state import ChessState
from bot.services.scrabble.loaded import loaded_game
from bot.services.scrabble.reading import summary as scrabble_summary

MAX_ITEMS = 15  # one private message; links on at most this many buttons (Discord allows 25)
MAX_GAMES_READ = 60  # a member's games in play read per kind (a league may give many)


class MyGamesService:
    """What waits on a member in one server (``/mygames``)."""

    def __init__(self, ctx: ServiceContext) -> None:
        self.ctx = ctx
        self.boards = BoardAddresses(ctx)

    async def waiting(self, guild_id: int, user_id: int) -> WaitingList:
        """What waits on ``user_id`` in ``guild_id``: theirs to act on first, then by clock."""
        async with self.ctx.reader() as uow:
            items = [
                *await self._games(uow, guild_id, user_id),
                *await self._boggle(uow, guild_id),
                *await self._henyo(uow, guild_id, user_id),
            ]
        latest = datetime.max.replace(tzinfo=self.ctx.clock().tzinfo)
        items.sort(key=lambda i: (not i.your_move, i.due or latest, i.kind, i.number))
        shown, more = items[:MAX_ITEMS], max(0, len(items) - MAX_ITEMS)
        linked = []
        for item in shown:
            url = None
            if item.link_kind is not None:
                kind = cast(Kind, item.link_kind)
                url = await self.boards.url(guild_id, user_id, kind, item.link_id)
            linked.append(replace(item, url=url))
        return WaitingList(tuple(linked), more)

    # ------------------------------------------------------------------ games

    async def _games(self, uow: UnitOfWork, guild_id: int, user_id: int) -> list[WaitingItem]:
        items: list[WaitingItem] = []
        owners: dict[tuple[str, int], str] = {}
        for kind in ("scrabble", "chess"):
            records = await uow.games.for_player(user_id, guild_id=guild_id, kind=kind)
            for record in records[:MAX_GAMES_READ]:
                item = await (
                    self._scrabble(uow, record, user_id)
                    if kind == "scrabble"
                    else self._chess(uow, record, user_id)
                )
                owner = await self._owner(uow, record.options or {}, owners)
                items.append(replace(item, tournament=owner) if owner else item)
        agreed = await uow.schedule.agreed([i.link_id for i in items])
        return [replace(i, agreed_at=agreed.get(i.link_id)) for i in items]

    @staticmethod
    async def _owner(
        uow: UnitOfWork, options: dict[str, Any], known: dict[tuple[str, int], str]
    ) -> str | None:
        """The name of the tournament or league a game belongs to, if any."""
        for mark in ("tournament_id", "league_id"):
            ref = options.get(mark)
            if not isinstance(ref, int):
                continue
            if (mark, ref) not in known:
                found = await (
                    uow.tournaments.get(ref) if mark == "tournament_id" else uow.leagues.get(ref)
                )
                known[mark, ref] = found.name if found is not None else ""
            return known[mark, ref] or None
        return None

    @staticmethod
    def _invite(record: GameRecord, user_id: int) -> bool:
        """Whether an invitation waits for this member's answer."""
        return any(s.user_id == user_id and not s.accepted for s in record.seats)

    async def _scrabble(self, uow: UnitOfWork, record: GameRecord, user_id: int) -> WaitingItem:
        loaded = await loaded_game(uow, record)
        found = scrabble_summary(loaded, user_id)
        seat = loaded.seat_of(user_id)
        others = tuple(loaded.name(s) for s in sorted(loaded.seats) if s != seat)
        invited = record.status == "invited"
        return WaitingItem(
            kind="scrabble",
            number=record.number,
            place_id=loaded.home,
            opponents=others,
            your_move=self._invite(record, user_id) if invited else found.your_turn,
            invited=invited,
            due=None if invited else found.turn_due,
            link_kind=None if invited else "scrabble",
            link_id=record.id,
        )

    async def _chess(self, uow: UnitOfWork, record: GameRecord, user_id: int) -> WaitingItem:
        seats = {s.user_id: s.seat for s in record.seats}
        mine = seats.get(user_id)
        names = await uow.players.names([uid for uid, seat in seats.items() if seat != mine])
        others = tuple(names.get(uid, "?") for uid, seat in seats.items() if seat != mine)
        invited = record.status == "invited"
        your_move = self._invite(record, user_id)
        due = None
        if not invited:
            state = ChessState.load(record)
            to_move = WHITE_SEAT if state.board().turn else BLACK_SEAT
            your_move = mine == to_move and not state.result
            due = record.deadline
        return WaitingItem(
            kind="chess",
            number=record.number,
            place_id=record.thread_id or record.channel_id,
            opponents=others,
            your_move=your_move,
            invited=invited,
            due=due,
            link_kind=None if invited else "chess",
            link_id=record.id,
        )

    # ------------------------------------------------------------------ rounds and events

    @staticmethod
    async def _boggle(uow: UnitOfWork, guild_id: int) -> list[WaitingItem]:
        """Every round of the club still taking lists: anyone may send one (or a better one)."""
        return [
            WaitingItem(
                kind="boggle",
                number=round_.number,
                place_id=round_.channel_id,
                your_move=True,
                due=round_.ends_at,
                link_kind="boggle",
                link_id=round_.id,
            )
            for round_, _name in await uow.boggle.rounds_taking_lists([guild_id])
        ]

    @staticmethod
    async def _henyo(uow: UnitOfWork, guild_id: int, user_id: int) -> list[WaitingItem]:
        items = []
        for event in await uow.henyo.open_events_in_guild(guild_id):
            signups = await uow.signups.list_of("henyo", event.id)
            if signups is None:
                continue
            entered = {e.id for e in await uow.signups.entries(signups.id)}
            teams = [
                row
                for row in await uow.henyo.teams(event.id)
                if row.team.signup_id in entered and row.team.status == "registered"
            ]
            for place, row in enumerate(teams, start=1):
                team = row.team
                if user_id not in (team.guesser_id, team.answerer_id):
                    continue
                partner = team.answerer_id if team.guesser_id == user_id else team.guesser_id
                names = await uow.players.names([partner])
                items.append(
                    WaitingItem(
                        kind="henyo",
                        number=event.id,
                        place_id=event.channel_id,
                        opponents=(names.get(partner, "?"),),
                        waiting_list=place > event.pairs,
                    )
                )
        return items
