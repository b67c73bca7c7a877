"""Word Boggle's tables (rounds, submissions, weekly schedules) and Boggle's own
reads of the shared ones (season standings from results, the leaderboard rows
a round's points go to).

Rounds that take lists are read ``FOR SHARE`` (on PostgreSQL) so closing a
round, an update of it, waits for submissions in flight; the close and score
jobs and cancelling lock the round ``FOR UPDATE``.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, NamedTuple, TypeVar, cast

from sqlalchemy import (
    BigInteger,
    ColumnElement,
    Integer,
    Select,
    Table,
    any_,
    bindparam,
    case,
    func,
    insert,
    literal_column,
    select,
    true,
    union,
    update,
)
from sqlalchemy.dialects.postgresql import ARRAY
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import aliased
from sqlalchemy.orm.attributes import set_committed_value

from bot.db.models import GuildRecord, PlayerRecord, RatingRecord, ResultRecord, UTCDateTime
from bot.db.models_boggle import (
    BoggleRoundRecord,
    BoggleScheduleRecord,
    BoggleSubmissionRecord,
    SubmissionEntry,
)
from bot.db.models_daily import BoggleDailyPlayRecord
from bot.db.models_events import GamesEventRoundRecord

T = TypeVar("T")
KIND = "boggle"
TAKING_LISTS = ("open",)
ENDED = ("closed", "scored")

# A guild's season standing as stored: player, name, points, rounds, wins.
StandingRow = tuple[int, str, float, int, int]


class BoggleRepository:
    def __init__(self, session: AsyncSession) -> None:
        self.session = session

    async def flush(self) -> None:
        await self.session.flush()

    # -- rounds

    async def add_round(self, record: BoggleRoundRecord) -> BoggleRoundRecord:
        self.session.add(record)
        await self.session.flush()
        return record

    async def get_round(self, round_id: int) -> BoggleRoundRecord | None:
        return await self.session.get(BoggleRoundRecord, round_id)

    async def lock_round(self, round_id: int) -> BoggleRoundRecord | None:
        stmt = select(BoggleRoundRecord).where(BoggleRoundRecord.id == round_id).with_for_update()
        return (await self.session.execute(stmt)).scalar_one_or_none()

    async def next_round_number(self, guild_id: int) -> int:
        latest = (
            await self.session.execute(
                select(func.max(BoggleRoundRecord.number)).where(
                    BoggleRoundRecord.guild_id == guild_id
                )
            )
        ).scalar_one_or_none()
        return (latest or 0) + 1

    async def latest_round(
        self, guild_id: int, statuses: Sequence[str] = ("open", "scheduled")
    ) -> BoggleRoundRecord | None:
        """The guild's latest round in one of ``statuses`` (by opening)."""
        stmt = (
            select(BoggleRoundRecord)
            .where(
                BoggleRoundRecord.guild_id == guild_id, BoggleRoundRecord.status.in_(list(statuses))
            )
            .order_by(BoggleRoundRecord.opens_at.desc(), BoggleRoundRecord.id.desc())
            .limit(1)
        )
        return (await self.session.execute(stmt)).scalar_one_or_none()

    async def last_scored_round(self, guild_id: int) -> BoggleRoundRecord | None:
        stmt = (
            select(BoggleRoundRecord)
            .where(BoggleRoundRecord.guild_id == guild_id, BoggleRoundRecord.status == "scored")
            .order_by(BoggleRoundRecord.scored_at.desc(), BoggleRoundRecord.id.desc())
            .limit(1)
        )
        return (await self.session.execute(stmt)).scalar_one_or_none()

    async def last_round_channel(self, guild_id: int) -> int | None:
        channel = (
            await self.session.execute(
                select(BoggleRoundRecord.channel_id)
                .where(BoggleRoundRecord.guild_id == guild_id)
                .order_by(BoggleRoundRecord.id.desc())
                .limit(1)
            )
        ).scalar_one_or_none()
        return int(channel) if channel is not None else None

    async def open_rounds(self) -> list[BoggleRoundRecord]:
        stmt = (
            select(BoggleRoundRecord)
            .where(BoggleRoundRecord.status == "open")
            .order_by(BoggleRoundRecord.id)
        )
        return list((await self.session.execute(stmt)).scalars())

    async def has_occurrence(self, schedule_id: int, occurrence: datetime) -> bool:
        """Whether the schedule's round for ``occurrence`` exists (a rerun of the job)."""
        found = await self.session.execute(
            select(BoggleRoundRecord.id).where(
                BoggleRoundRecord.schedule_id == schedule_id,
                BoggleRoundRecord.occurrence == occurrence,
            )
        )
        return found.first() is not None

    async def scheduled_rounds_of(self, schedule_id: int) -> list[BoggleRoundRecord]:
        """The schedule's announced rounds that have not opened."""
        stmt = select(BoggleRoundRecord).where(
            BoggleRoundRecord.schedule_id == schedule_id,
            BoggleRoundRecord.status == "scheduled",
        )
        return list((await self.session.execute(stmt)).scalars())

    # -- rounds as lists reach them (with the guild's name, for the receipt)

    async def rounds_taking_lists(
        self, guild_ids: Collection[int] | None
    ) -> list[tuple[BoggleRoundRecord, str]]:
        """Every open round (in ``guild_ids``, when given), ``FOR SHARE``."""
        stmt = _with_guild_names().where(BoggleRoundRecord.status.in_(TAKING_LISTS))
        if guild_ids is not None:
            stmt = stmt.where(BoggleRoundRecord.guild_id.in_(list(guild_ids)))
        rows = await self.session.execute(stmt.order_by(BoggleRoundRecord.id))
        return [(record, name) for record, name in rows]

    async def rounds_taking_dm(
        self, guild_ids: Collection[int] | None, player_id: int
    ) -> list[RoundTakingDm]:
        """Every open round (in ``guild_ids``, when given), ``FOR SHARE``, with what a DM
        to it needs, in one statement: its guild's name, the pairs of the games event that
        plays it, and the member's list, ``FOR UPDATE`` (on PostgreSQL a lateral join's
        lock: an outer join's nullable side cannot be locked; SQLite has one writer)."""
        dialect = self.session.get_bind().dialect.name
        params: dict[str, object] = {"player_id": player_id}
        if guild_ids is None:
            stmt = _rounds_taking_dm(dialect, in_guilds=False)
        else:
            stmt = _rounds_taking_dm(dialect, in_guilds=True)
            params["guild_ids"] = list(guild_ids)
        rows = await self.session.execute(stmt, params)
        return [RoundTakingDm(*row) for row in rows]

    async def open_rounds_named(self, guild_ids: Collection[int]) -> list[tuple[int, str]]:
        """The open rounds of ``guild_ids`` as (number, guild name), oldest first; no lock."""
        rows = await self.session.execute(
            select(BoggleRoundRecord.number, GuildRecord.name)
            .join(GuildRecord, GuildRecord.id == BoggleRoundRecord.guild_id)
            .where(
                BoggleRoundRecord.status.in_(TAKING_LISTS),
                BoggleRoundRecord.guild_id.in_(list(guild_ids)),
            )
            .order_by(BoggleRoundRecord.id)
        )
        return [(int(number), name) for number, name in rows]

    async def round_taking_lists(self, round_id: int) -> tuple[BoggleRoundRecord, str] | None:
        """The round (whatever its status), ``FOR SHARE``."""
        row = (
            await self.session.execute(_with_guild_names().where(BoggleRoundRecord.id == round_id))
        ).first()
        return (row[0], row[1]) if row is not None else None

    async def rounds_ended_after(
        self, moment: datetime, guild_ids: Collection[int] | None
    ) -> list[tuple[BoggleRoundRecord, str]]:
        """Closed or scored rounds (in ``guild_ids``) whose countdown ended after ``moment``."""
        stmt = (
            select(BoggleRoundRecord, GuildRecord.name)
            .join(GuildRecord, GuildRecord.id == BoggleRoundRecord.guild_id)
            .where(BoggleRoundRecord.status.in_(ENDED), BoggleRoundRecord.ends_at > moment)
        )
        if guild_ids is not None:
            stmt = stmt.where(BoggleRoundRecord.guild_id.in_(list(guild_ids)))
        rows = await self.session.execute(stmt.order_by(BoggleRoundRecord.id))
        return [(record, name) for record, name in rows]

    async def guilds_taking_dms(self, moment: datetime, player_id: int) -> tuple[list[int], bool]:
        """The guilds a DM from ``player_id`` may concern, by id, in one read: those with an
        open round or one that ended after ``moment``, or a member's daily countdown that
        ended after it (or runs on); and whether the member has a countdown of their own
        that ended at ``moment`` or after (one their DM may go to or be late for)."""
        guilds: dict[int, None] = {}
        own = False
        rows = await self.session.execute(
            _guilds_taking_dms(), {"moment": moment, "player_id": player_id}
        )
        for guild_id, concerns, mine in rows:
            if concerns:
                guilds[int(guild_id)] = None
            own = own or bool(mine)
        return list(guilds), own

    # -- weekly schedules

    async def schedule_of(self, guild_id: int) -> BoggleScheduleRecord | None:
        """The guild's schedule, running or stopped (one per guild)."""
        stmt = select(BoggleScheduleRecord).where(BoggleScheduleRecord.guild_id == guild_id)
        return (await self.session.execute(stmt)).scalar_one_or_none()

    async def active_schedule(
        self, guild_id: int, *, lock: bool = False
    ) -> BoggleScheduleRecord | None:
        stmt = select(BoggleScheduleRecord).where(
            BoggleScheduleRecord.guild_id == guild_id, BoggleScheduleRecord.active.is_(True)
        )
        if lock:
            stmt = stmt.with_for_update()
        return (await self.session.execute(stmt)).scalar_one_or_none()

    async def lock_schedule(self, schedule_id: int) -> BoggleScheduleRecord | None:
        return await self.session.get(BoggleScheduleRecord, schedule_id, with_for_update=True)

    async def add_schedule(self, schedule: BoggleScheduleRecord) -> BoggleScheduleRecord:
        self.session.add(schedule)
        await self.session.flush()
        return schedule

    # -- submissions

    async def list_for_update(self, round_id: int, player_id: int) -> BoggleSubmissionRecord | None:
        stmt = (
            select(BoggleSubmissionRecord)
            .where(
                BoggleSubmissionRecord.round_id == round_id,
                BoggleSubmissionRecord.player_id == player_id,
            )
            .with_for_update()
        )
        return (await self.session.execute(stmt)).scalar_one_or_none()

    async def save_list(
        self,
        round_id: int,
        player_id: int,
        held: BoggleSubmissionRecord | None,
        state: ListState,
    ) -> None:
        """Store the member's list as ``state``: a new list added, or ``held`` (read FOR
        UPDATE in this unit of work) changed; one Core statement built once, not the
        ORM's flush of a changed object (its bookkeeping cost more CPU than the write),
        and ``held`` made to read as stored."""
        values = state._asdict()
        if held is None:
            await self.session.execute(
                _list_statement("insert"), {**values, "round_id": round_id, "player_id": player_id}
            )
            return
        await self.session.execute(_list_statement("update"), {**values, "list_id": held.id})
        for key, value in values.items():
            set_committed_value(held, key, value)

    async def lists_of(self, round_id: int) -> list[BoggleSubmissionRecord]:
        """A round's lists, first sent first."""
        stmt = (
            select(BoggleSubmissionRecord)
            .where(BoggleSubmissionRecord.round_id == round_id)
            .order_by(BoggleSubmissionRecord.first_at, BoggleSubmissionRecord.id)
        )
        return list((await self.session.execute(stmt)).scalars())

    async def lists_of_players(
        self, round_id: int, player_ids: Collection[int]
    ) -> list[BoggleSubmissionRecord]:
        """The lists of ``player_ids`` in a round (no lock)."""
        stmt = select(BoggleSubmissionRecord).where(
            BoggleSubmissionRecord.round_id == round_id,
            BoggleSubmissionRecord.player_id.in_(list(player_ids)),
        )
        return list((await self.session.execute(stmt)).scalars())

    async def list_changes(self, round_id: int) -> tuple[int, dict[int, int]] | None:
        """The round's version and, by player, how many entries their list has (each DM,
        form and page change is one, and entries are only ever added): what a member's
        board page watches of the round, its own list's part only. None when there is no
        such round."""
        version = (
            await self.session.execute(
                select(BoggleRoundRecord.version).where(BoggleRoundRecord.id == round_id)
            )
        ).scalar_one_or_none()
        if version is None:
            return None
        rows = await self.session.execute(
            select(
                BoggleSubmissionRecord.player_id,
                func.json_array_length(BoggleSubmissionRecord.entries),
            ).where(BoggleSubmissionRecord.round_id == round_id)
        )
        return int(version), {int(player): int(count or 0) for player, count in rows}

    async def open_lists(self) -> list[tuple[BoggleSubmissionRecord, datetime]]:
        """Every list of an open round, with the round's opening, by player."""
        stmt = (
            select(BoggleSubmissionRecord, BoggleRoundRecord.opens_at)
            .join(BoggleRoundRecord, BoggleRoundRecord.id == BoggleSubmissionRecord.round_id)
            .where(BoggleRoundRecord.status == "open")
            .order_by(BoggleSubmissionRecord.player_id, BoggleSubmissionRecord.id)
        )
        rows = await self.session.execute(stmt)
        return [(submission, opens_at) for submission, opens_at in rows]

    async def open_round_openings(self) -> list[tuple[int, datetime]]:
        """(guild, opening) of every open round, earliest first."""
        rows = await self.session.execute(
            select(BoggleRoundRecord.guild_id, BoggleRoundRecord.opens_at)
            .where(BoggleRoundRecord.status == "open")
            .order_by(BoggleRoundRecord.opens_at, BoggleRoundRecord.id)
        )
        return [(int(guild_id), opens_at) for guild_id, opens_at in rows]

    async def past_players(self, guild_id: int, limit: int) -> list[int]:
        """Who sent a list in the guild, latest first."""
        latest = func.max(BoggleSubmissionRecord.last_at)
        rows = await self.session.execute(
            select(BoggleSubmissionRecord.player_id)
            .join(BoggleRoundRecord, BoggleRoundRecord.id == BoggleSubmissionRecord.round_id)
            .where(BoggleRoundRecord.guild_id == guild_id)
            .group_by(BoggleSubmissionRecord.player_id)
            .order_by(latest.desc(), BoggleSubmissionRecord.player_id)
            .limit(limit)
        )
        return [int(player) for player in rows.scalars()]

    async def players_with_results(self, guild_id: int, limit: int) -> list[int]:
        """Who has a result of any game in the guild, latest first."""
        latest = func.max(ResultRecord.played_at)
        rows = await self.session.execute(
            select(ResultRecord.player_id)
            .where(ResultRecord.guild_id == guild_id)
            .group_by(ResultRecord.player_id)
            .order_by(latest.desc(), ResultRecord.player_id)
            .limit(limit)
        )
        return [int(player) for player in rows.scalars()]

    # -- seasons and the leaderboard

    async def season_standings(self, guild_id: int, season: str, limit: int) -> list[StandingRow]:
        """The season's table: most points first, then most wins."""
        points = func.coalesce(func.sum(ResultRecord.points), 0)
        wins = func.sum(case((ResultRecord.outcome == "win", 1), else_=0))
        rows = await self.session.execute(
            select(ResultRecord.player_id, PlayerRecord.display_name, points, func.count(), wins)
            .join(PlayerRecord, PlayerRecord.id == ResultRecord.player_id)
            .where(
                ResultRecord.guild_id == guild_id,
                ResultRecord.game_kind == KIND,
                ResultRecord.season == season,
            )
            .group_by(ResultRecord.player_id, PlayerRecord.display_name)
            .order_by(points.desc(), wins.desc(), ResultRecord.player_id)
            .limit(limit)
        )
        return [
            (int(pid), str(name), float(pts), int(n), int(w or 0)) for pid, name, pts, n, w in rows
        ]

    async def load_standings(self, guild_id: int, player_ids: list[int]) -> list[RatingRecord]:
        """Every player's leaderboard row in the session, new ones inserted in one batch.

        Recording points looks each row up by key: found in the session it
        costs nothing; missing, it would cost a query and a flush per player.
        The caller keeps the returned list while it records: the session's
        identity map holds objects weakly.
        """
        stmt = select(RatingRecord).where(
            RatingRecord.guild_id == guild_id,
            RatingRecord.game_kind == KIND,
            RatingRecord.player_id.in_(player_ids),
        )
        ratings = list((await self.session.execute(stmt)).scalars())
        known = {rating.player_id for rating in ratings}
        for player_id in player_ids:
            if player_id not in known:
                rating = RatingRecord(guild_id=guild_id, game_kind=KIND, player_id=player_id)
                self.session.add(rating)
                ratings.append(rating)
        await self.session.flush()
        return ratings


_GUILDS_TAKING_DMS: list[Any] = []


def _guilds_taking_dms() -> Any:
    """``guilds_taking_dms``'s statement, built once (its parameters bound at execution:
    built at every DM, its construction and cache key cost more CPU than running it)."""
    if _GUILDS_TAKING_DMS:
        return _GUILDS_TAKING_DMS[0]
    moment = bindparam("moment", type_=UTCDateTime())
    rounds = select(
        BoggleRoundRecord.guild_id.label("guild_id"),
        literal_column("1", Integer).label("concerns"),
        literal_column("0", Integer).label("own"),
    ).where(
        (BoggleRoundRecord.status == "open")
        | (BoggleRoundRecord.status.in_(ENDED) & (BoggleRoundRecord.ends_at > moment))
    )
    play = BoggleDailyPlayRecord
    plays = select(
        play.guild_id,
        case((play.ends_at > moment, 1), else_=0),
        case((play.player_id == bindparam("player_id", type_=BigInteger()), 1), else_=0),
    ).where(play.ends_at >= moment)
    _GUILDS_TAKING_DMS.append(union(rounds, plays).order_by("guild_id"))
    return _GUILDS_TAKING_DMS[0]


class ListState(NamedTuple):
    """A member's list as stored (``BoggleSubmissionRecord``'s changing columns)."""

    entries: list[SubmissionEntry]
    words: list[str]
    first_at: datetime
    last_at: datetime
    last_source_id: int

    @classmethod
    def of(cls, submission: BoggleSubmissionRecord) -> ListState:
        return cls(
            list(submission.entries),
            list(submission.words),
            submission.first_at,
            submission.last_at,
            submission.last_source_id,
        )


_LIST_STATEMENTS: dict[str, Any] = {}


def _list_statement(kind: str) -> Any:
    """The INSERT of a new list or the UPDATE of one (by ``list_id``), built once."""
    statement = _LIST_STATEMENTS.get(kind)
    if statement is None:
        table = cast(Table, BoggleSubmissionRecord.__table__)
        changing: dict[str, Any] = {name: bindparam(name) for name in ListState._fields}
        if kind == "insert":
            statement = insert(table).values(
                changing | {"round_id": bindparam("round_id"), "player_id": bindparam("player_id")}
            )
        else:
            statement = update(table).where(table.c.id == bindparam("list_id")).values(changing)
        _LIST_STATEMENTS[kind] = statement
    return statement


@dataclass(frozen=True)
class RoundTakingDm:
    """An open round as a DM'd list reaches it (``rounds_taking_dm``)."""

    record: BoggleRoundRecord
    guild_name: str
    # The pairs of the games event whose round this is (None: no event plays it).
    event_pairs: list[Any] | None
    submission: BoggleSubmissionRecord | None  # the member's list, None before their first


_ROUNDS_TAKING_DM: dict[tuple[str, bool], Any] = {}


def _rounds_taking_dm(dialect: str, *, in_guilds: bool) -> Any:
    """``rounds_taking_dm``'s statement, built once per dialect (its parameters bound at
    execution: built afresh, its construction and cache key cost CPU at every DM)."""
    statement = _ROUNDS_TAKING_DM.get((dialect, in_guilds))
    if statement is not None:
        return statement
    rounds, lists = BoggleRoundRecord, BoggleSubmissionRecord
    event = GamesEventRoundRecord
    pairs = (
        select(event.pairs)
        .where(event.game == KIND, event.ref_id == rounds.id)
        .limit(1)
        .scalar_subquery()
    )
    mine = (lists.round_id == rounds.id) & (lists.player_id == bindparam("player_id"))
    on: ColumnElement[bool]
    if dialect == "postgresql":
        held = aliased(lists, select(lists).where(mine).with_for_update().lateral())
        on = true()
    else:
        held = aliased(lists)
        on = (held.round_id == rounds.id) & (held.player_id == bindparam("player_id"))
    statement = (
        select(rounds, GuildRecord.name, pairs, held)
        .join(GuildRecord, GuildRecord.id == rounds.guild_id)
        .outerjoin(held, on)
        .where(rounds.status == "open")  # TAKING_LISTS, as one value: no list to expand
        .order_by(rounds.id)
        .with_for_update(read=True, of=rounds)
    )
    if in_guilds:
        # One array on PostgreSQL: a text (and a prepared statement) whatever their number,
        # not a list expanded into the SQL at every execution.
        statement = statement.where(
            rounds.guild_id == any_(bindparam("guild_ids", type_=ARRAY(BigInteger)))
            if dialect == "postgresql"
            else rounds.guild_id.in_(bindparam("guild_ids", expanding=True))
        )
    _ROUNDS_TAKING_DM[(dialect, in_guilds)] = statement
    return statement


def _with_guild_names() -> Select[BoggleRoundRecord, str]:
    return (
        select(BoggleRoundRecord, GuildRecord.name)
        .join(GuildRecord, GuildRecord.id == BoggleRoundRecord.guild_id)
        .with_for_update(read=True, of=BoggleRoundRecord)
    )
