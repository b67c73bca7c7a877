"""The shared game tables: guilds, players, games and seats, moves.

(Results and ratings are ``bot.db.repositories.results``.)"""

from __future__ import annotations

import time
from collections.abc import Collection, Iterable, Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import ScalarSelect, bindparam, delete, func, inspect, select, update
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import joinedload
from sqlalchemy.orm.attributes import set_committed_value
from sqlalchemy.orm.util import identity_key

from bot.db.dml import rowcount
from bot.db.memory import Remembered
from bot.db.models import (
    GameRecord,
    GameSeatRecord,
    GuildRecord,
    MoveRecord,
    PlayerRecord,
    utcnow,
)
from bot.errors import ConflictError, GameNotFoundError, NotFoundError

# What this process stored of guilds and members, so a new game's seating need not ask
# again (bot/db/memory.py): a guild's row exists once stored (a guild is never deleted)
# with the name last written; a member's row exists with the display name this process
# last wrote, trusted for NAME_KEPT_SECONDS only, so a name another process wrote since
# (the same member seen under another server's nickname) is written again within
# minutes. A guild's settings are never remembered: /club setup in another process
# changes them, and whoever needs them reads them.
GUILDS_STORED: Remembered[int, str] = Remembered("guilds stored", 20_000)
NAMES_STORED: Remembered[int, tuple[str, float]] = Remembered("player names stored", 50_000)
NAME_KEPT_SECONDS = 600.0


class GuildRepository:
    def __init__(self, session: AsyncSession) -> None:
        self.session = session

    async def note(self, guild_id: int, name: str = "") -> None:
        """The guild has its row, named ``name`` (if given): ``ensure`` for a caller that
        needs no settings (a new game's seating), which asks nothing when this process
        stored the row and that name before."""
        known = GUILDS_STORED.get(self.session, guild_id)
        if known is not None and (not name or known == name[:100]):
            return
        guild = await self.ensure(guild_id, name)
        GUILDS_STORED.put_at_commit(self.session, guild_id, guild.name)

    async def get(self, guild_id: int) -> GuildRecord | None:
        return await self.session.get(GuildRecord, guild_id)

    async def ensure(self, guild_id: int, name: str = "") -> GuildRecord:
        guild = await self.session.get(GuildRecord, guild_id)
        if guild is None:
            guild = GuildRecord(id=guild_id, name=name[:100], settings={})
            self.session.add(guild)
            await self.session.flush()
        elif name and guild.name != name[:100]:
            guild.name = name[:100]
        return guild


class PlayerRepository:
    def __init__(self, session: AsyncSession) -> None:
        self.session = session

    async def get(self, user_id: int) -> PlayerRecord | None:
        return await self.session.get(PlayerRecord, user_id)

    async def ensure(self, user_id: int, display_name: str) -> PlayerRecord:
        """Create the player or refresh the cached name (kept after they leave)."""
        player = await self.session.get(PlayerRecord, user_id)
        name = (display_name or str(user_id))[:100]
        if player is None:
            player = PlayerRecord(id=user_id, display_name=name)
            self.session.add(player)
            await self.session.flush()
        elif player.display_name != name:
            player.display_name = name
        return player

    async def note(self, user_id: int, display_name: str) -> None:
        """The member has their row, with this display name: ``ensure`` for a caller that
        needs no row back (a new game's seating), which asks nothing when this process
        stored that name for them lately (``NAME_KEPT_SECONDS``)."""
        name = (display_name or str(user_id))[:100]
        known = NAMES_STORED.get(self.session, user_id)
        if known is not None and known[0] == name and known[1] > time.monotonic():
            return
        await self.ensure(user_id, name)
        NAMES_STORED.put_at_commit(
            self.session, user_id, (name, time.monotonic() + NAME_KEPT_SECONDS)
        )

    async def of_seats(self, seats: Iterable[GameSeatRecord]) -> dict[int, str]:
        """The display names of a game's seated members: as loaded with the seats where
        they were (a game from ``GameRepository.get`` or ``by_thread``: no statement),
        else read. A name changed in this unit of work since reads as changed (the row
        loaded is the one ``ensure`` changes)."""
        names: dict[int, str] = {}
        unread: list[int] = []
        for seat in seats:
            if "player" not in inspect(seat).dict:
                unread.append(seat.user_id)
            elif seat.player is not None:
                names[seat.user_id] = seat.player.display_name
        if unread:
            names.update(await self.names(unread))
        return names

    async def names(self, user_ids: Sequence[int]) -> dict[int, str]:
        if not user_ids:
            return {}
        rows = await self.session.execute(
            select(PlayerRecord.id, PlayerRecord.display_name).where(
                PlayerRecord.id.in_(list(user_ids))
            )
        )
        return {row.id: row.display_name for row in rows}


# Integer primary keys are 32-bit on PostgreSQL: a number outside that range is no
# row's id (and asking PostgreSQL for it is an error, not an empty result).
MAX_ROW_ID = 2**31 - 1


def is_row_id(value: int) -> bool:
    return 1 <= value <= MAX_ROW_ID


def next_number(guild_id: int, kind: str) -> ScalarSelect[int]:
    """The guild's next number for a game of this kind (1 for its first), as part of
    the INSERT: computed and used in one statement. Two games made at once may
    still compute the same number; the unique index refuses the second, and its
    service retries (``bot.services.transactions.transact``)."""
    return (
        select(func.coalesce(func.max(GameRecord.number), 0) + 1)
        .where(GameRecord.guild_id == guild_id, GameRecord.kind == kind)
        .scalar_subquery()
    )


# A game with its seats and their members' names in one statement (a join), not the
# relationship's own second SELECT and a third for the names: every command that loads
# a game by id or thread does this, and nearly every one shows the names.
WITH_SEATS = (joinedload(GameRecord.seats).joinedload(GameSeatRecord.player),)

# The statements of every move, board and suggestion, built once with their values bound
# at execution: built afresh at each command, a SELECT with its joins (or an UPDATE)
# cost more CPU to construct and to key for the compiled cache than to run.
_WITH_SEATS = select(GameRecord).options(*WITH_SEATS)
_BY_ID = _WITH_SEATS.where(GameRecord.id == bindparam("game_id"))
_BY_NUMBER = _WITH_SEATS.where(
    GameRecord.guild_id == bindparam("guild_id"),
    GameRecord.kind == bindparam("kind"),
    GameRecord.number == bindparam("number"),
)
_IN_THREAD = _WITH_SEATS.where(GameRecord.thread_id == bindparam("thread_id"))
_BY_THREAD = _IN_THREAD.order_by(GameRecord.id.desc()).limit(1)  # its latest game
_BY_THREAD_KIND = (
    _IN_THREAD.where(GameRecord.kind == bindparam("kind")).order_by(GameRecord.id.desc()).limit(1)
)
_SAVES: dict[tuple[str, ...], Any] = {}


def _save(columns: tuple[str, ...]) -> Any:
    """The compare-and-set of these columns and the version (see ``save_state``)."""
    statement = _SAVES.get(columns)
    if statement is None:
        statement = (
            update(GameRecord)
            .where(
                GameRecord.id == bindparam("game_id"), GameRecord.version == bindparam("expected")
            )
            .values({name: bindparam(f"new_{name}") for name in columns})
            .execution_options(synchronize_session=False)
        )
        _SAVES[columns] = statement
    return statement


class GameRepository:
    def __init__(self, session: AsyncSession) -> None:
        self.session = session

    def add(self, game: GameRecord) -> GameRecord:
        """A new game; it is numbered when flushed (``game.number`` is loaded on a refresh)."""
        if game.number is None:
            game.number = next_number(game.guild_id, game.kind)
        self.session.add(game)
        return game

    async def add_with_seats(
        self, game: GameRecord, seats: Iterable[tuple[int, int, bool]]
    ) -> GameRecord:
        """A new game with its seats, each ``(seat, user_id, accepted)`` (a team is
        several rows of one seat); flushed, so the game has its id, number and seats."""
        # The seats go in with the game (one flush: the game's INSERT, then all its
        # seats in one), in the relationship's order; only the number is read back.
        game.seats = [
            GameSeatRecord(seat=seat, user_id=user_id, accepted=accepted)
            for seat, user_id, accepted in sorted(seats, key=lambda s: (s[0], s[1]))
        ]
        self.add(game)
        await self.session.flush()
        await self.session.refresh(game, attribute_names=["number"])
        return game

    async def id_of(self, guild_id: int, kind: str, number: int) -> int | None:
        """The id of the guild's game of this kind with this number (``#3``), if any.
        Games made before numbers have number = id."""
        if not is_row_id(number):
            return None
        return (
            await self.session.execute(
                select(GameRecord.id).where(
                    GameRecord.guild_id == guild_id,
                    GameRecord.kind == kind,
                    GameRecord.number == number,
                )
            )
        ).scalar_one_or_none()

    async def by_number(self, guild_id: int, kind: str, number: int) -> GameRecord | None:
        """The guild's game of this kind with this number (``#3``), with its seats, if any."""
        if not is_row_id(number):
            return None
        found = await self.session.execute(
            _BY_NUMBER, {"guild_id": guild_id, "kind": kind, "number": number}
        )
        return found.unique().scalar_one_or_none()

    async def count_hint(self, game_id: int, user_id: int) -> int:
        """One more hint used by this member in this game, and their new count: a
        single UPDATE of their seat row, so it never conflicts with a move
        committed at the same moment."""
        seat_row = (GameSeatRecord.game_id == game_id, GameSeatRecord.user_id == user_id)
        await self.session.execute(
            update(GameSeatRecord).where(*seat_row).values(hints_used=GameSeatRecord.hints_used + 1)
        )
        used = await self.session.execute(select(GameSeatRecord.hints_used).where(*seat_row))
        return int(used.scalar_one())

    async def get(
        self, game_id: int, *, guild_id: int | None = None, kind: str | None = None
    ) -> GameRecord:
        """The game, or ``GameNotFoundError``; another guild's game is "not found" too."""
        game: GameRecord | None = None
        if not is_row_id(game_id):
            pass
        elif identity_key(GameRecord, game_id) in self.session.identity_map:
            # Loaded in this unit of work already: as it is (read again only if expired).
            game = await self.session.get(GameRecord, game_id, options=WITH_SEATS)
        else:
            found = await self.session.execute(_BY_ID, {"game_id": game_id})
            game = found.unique().scalar_one_or_none()
        if (
            game is None
            or (guild_id is not None and game.guild_id != guild_id)
            or (kind is not None and game.kind != kind)
        ):
            raise GameNotFoundError(kind, game_id)  # written in the club's language by the handler
        return game

    async def version(self, game_id: int) -> int | None:
        """The game's version (one indexed row, one column): what a board page watches;
        None when there is no such game."""
        if not is_row_id(game_id):
            return None
        return (
            await self.session.execute(select(GameRecord.version).where(GameRecord.id == game_id))
        ).scalar_one_or_none()

    async def by_thread(self, thread_id: int, *, kind: str | None = None) -> GameRecord | None:
        """The latest game played in this thread (of this kind), with its seats."""
        if kind:
            found = await self.session.execute(
                _BY_THREAD_KIND, {"thread_id": thread_id, "kind": kind}
            )
        else:
            found = await self.session.execute(_BY_THREAD, {"thread_id": thread_id})
        return found.unique().scalar_one_or_none()

    async def for_player(
        self,
        user_id: int,
        *,
        guild_id: int | None = None,
        kind: str | None = None,
        statuses: Sequence[str] = ("invited", "active"),
    ) -> list[GameRecord]:
        seated = select(GameSeatRecord.game_id).where(GameSeatRecord.user_id == user_id)
        stmt = (
            select(GameRecord)
            .where(GameRecord.id.in_(seated), GameRecord.status.in_(list(statuses)))
            .order_by(GameRecord.updated_at.desc())
        )
        if guild_id is not None:
            stmt = stmt.where(GameRecord.guild_id == guild_id)
        if kind:
            stmt = stmt.where(GameRecord.kind == kind)
        return list((await self.session.execute(stmt)).scalars())

    async def finished(self, guild_id: int, kinds: Collection[str]) -> list[tuple[int, str]]:
        """The club's finished games of these kinds, oldest first: (id, kind)."""
        if not kinds:
            return []
        rows = await self.session.execute(
            select(GameRecord.id, GameRecord.kind)
            .where(
                GameRecord.guild_id == guild_id,
                GameRecord.status == "finished",
                GameRecord.kind.in_(list(kinds)),
            )
            .order_by(GameRecord.id)
        )
        return [(game_id, kind) for game_id, kind in rows]

    async def save_state(
        self,
        game: GameRecord,
        *,
        expected_version: int,
        state: dict[str, Any] | None = None,
        **changes: Any,
    ) -> int:
        """Write new state if nobody else did since ``expected_version``.

        A compare-and-set on the version column: the second of two concurrent
        writers updates no row and gets ``ConflictError``; nothing is applied twice.
        """
        values: dict[str, Any] = dict(changes)
        if state is not None:
            values["state"] = state
        values["version"] = expected_version + 1
        values["updated_at"] = utcnow()
        params = {f"new_{name}": value for name, value in values.items()}
        result = await self.session.execute(
            _save(tuple(values)), {"game_id": game.id, "expected": expected_version, **params}
        )
        if rowcount(result) != 1:
            raise ConflictError()
        for key, value in values.items():
            # The row already holds these values: record them as loaded, not as
            # changes, or the next flush writes the whole row (state JSON and
            # all) a second time without the version check.
            set_committed_value(game, key, value)
        return expected_version + 1


class MoveRepository:
    def __init__(self, session: AsyncSession) -> None:
        self.session = session

    async def append(
        self,
        game_id: int,
        *,
        ply: int,
        notation: str,
        seat: int | None = None,
        user_id: int | None = None,
        score: int | None = None,
        data: dict[str, Any] | None = None,
        at: datetime | None = None,
    ) -> MoveRecord:
        move = MoveRecord(
            game_id=game_id,
            ply=ply,
            seat=seat,
            user_id=user_id,
            notation=notation[:200],
            score=score,
            data=data or {},
            created_at=at or utcnow(),
        )
        self.session.add(move)
        await self.session.flush()
        return move

    async def for_game(self, game_id: int) -> list[MoveRecord]:
        stmt = select(MoveRecord).where(MoveRecord.game_id == game_id).order_by(MoveRecord.ply)
        return list((await self.session.execute(stmt)).scalars())

    async def drop_from(self, game_id: int, ply: int) -> None:
        """Take a game's moves from ``ply`` on off its log: only for a correction of the tally
        over the board, which writes them again as the corrected game has them."""
        await self.session.execute(
            delete(MoveRecord).where(MoveRecord.game_id == game_id, MoveRecord.ply >= ply)
        )

    async def count(self, game_id: int) -> int:
        return (
            await self.session.execute(select(func.count()).where(MoveRecord.game_id == game_id))
        ).scalar_one()


__all__ = [
    "GameRepository",
    "GuildRepository",
    "MoveRepository",
    "NotFoundError",
    "PlayerRepository",
]
