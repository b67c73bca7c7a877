"""The Library Henyo tables as the Henyo service sees them: events and their
pairs (in the order of their entries on the event's sign-up list), rounds and what happened in them, and the club's own words.

Queries and writes on the unit of work's session; nothing here commits. A
round or an event changes through ``bump``, a compare-and-set on its version,
so two writers racing on one row never both win.
"""

from __future__ import annotations

from typing import NamedTuple

from sqlalchemy import func, select, update
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.sql.elements import ColumnElement

from bot.db.dml import compare_and_set
from bot.db.models_henyo import (
    HenyoEventRecord,
    HenyoPressRecord,
    HenyoRoundEventRecord,
    HenyoRoundRecord,
    HenyoTeamRecord,
    HenyoWordRecord,
)
from bot.db.models_signups import SignupRecord
from bot.db.repositories.common import is_row_id

# ``waiting``: a round played aloud, announced, until the host presses Start.
OPEN_ROUND = ("ready", "waiting", "running")
# A source id after every Discord snowflake: "all the round's penalties".
LAST_SOURCE_ID = 2**63 - 1

HenyoRow = (
    HenyoEventRecord
    | HenyoTeamRecord
    | HenyoRoundRecord
    | HenyoRoundEventRecord
    | HenyoWordRecord
    | HenyoPressRecord
)


class OpenRoundRow(NamedTuple):
    """A ready or running round, without its secret."""

    id: int
    channel_id: int
    announce_message_id: int | None
    status: str
    referee: str = "typed"


class TeamRow(NamedTuple):
    team: HenyoTeamRecord
    position: int  # its sign-up entry's


class UsedWord(NamedTuple):
    key: str
    cancel_reason: str | None


class HenyoRepository:
    def __init__(self, session: AsyncSession) -> None:
        self.session = session

    # ------------------------------------------------------------------ any row

    def add(self, row: HenyoRow) -> None:
        self.session.add(row)

    async def flush(self) -> None:
        await self.session.flush()

    async def _count(self, model: type[HenyoRow], *where: ColumnElement[bool]) -> int:
        stmt = select(func.count()).select_from(model).where(*where)
        return int((await self.session.execute(stmt)).scalar_one())

    async def bump(self, row: HenyoEventRecord | HenyoRoundRecord, **changes: object) -> bool:
        """Apply ``changes`` and a new version if the row still has the version read;
        False (nothing written) when someone else changed it first."""
        return await compare_and_set(self.session, row, changes)

    # ------------------------------------------------------------------ events and pairs

    async def event(self, event_id: int) -> HenyoEventRecord | None:
        if not is_row_id(event_id):
            return None
        return await self.session.get(HenyoEventRecord, event_id)

    async def open_event_in_channel(self, channel_id: int) -> HenyoEventRecord | None:
        stmt = select(HenyoEventRecord).where(
            HenyoEventRecord.channel_id == channel_id, HenyoEventRecord.status == "open"
        )
        return (
            await self.session.execute(stmt.order_by(HenyoEventRecord.id.desc()).limit(1))
        ).scalar_one_or_none()

    async def open_events_in_guild(self, guild_id: int) -> list[HenyoEventRecord]:
        stmt = select(HenyoEventRecord).where(
            HenyoEventRecord.guild_id == guild_id, HenyoEventRecord.status == "open"
        )
        return list((await self.session.execute(stmt.order_by(HenyoEventRecord.id))).scalars())

    async def latest_event(
        self, guild_id: int, channel_id: int | None = None
    ) -> HenyoEventRecord | None:
        """The guild's newest event (in ``channel_id`` when given), open or closed."""
        stmt = select(HenyoEventRecord).where(HenyoEventRecord.guild_id == guild_id)
        if channel_id is not None:
            stmt = stmt.where(HenyoEventRecord.channel_id == channel_id)
        return (
            await self.session.execute(stmt.order_by(HenyoEventRecord.id.desc()).limit(1))
        ).scalar_one_or_none()

    async def hosts_open_event(self, guild_id: int, user_id: int) -> bool:
        return bool(
            await self._count(
                HenyoEventRecord,
                HenyoEventRecord.guild_id == guild_id,
                HenyoEventRecord.status == "open",
                HenyoEventRecord.host_id == user_id,
            )
        )

    async def set_list_message(self, event_id: int, message_id: int) -> None:
        await self.session.execute(
            update(HenyoEventRecord)
            .where(HenyoEventRecord.id == event_id)
            .values(list_message_id=message_id)
        )

    async def teams(self, event_id: int) -> list[TeamRow]:
        """The event's pairs in registration order, their sign-up entries' (withdrawn ones too)."""
        stmt = (
            select(HenyoTeamRecord, SignupRecord.position)
            .join(SignupRecord, SignupRecord.id == HenyoTeamRecord.signup_id)
            .where(HenyoTeamRecord.event_id == event_id)
            .order_by(SignupRecord.position)
        )
        return [TeamRow(*row) for row in (await self.session.execute(stmt)).all()]

    async def team(self, team_id: int) -> HenyoTeamRecord | None:
        return await self.session.get(HenyoTeamRecord, team_id)

    # ------------------------------------------------------------------ rounds

    async def round(self, round_id: int) -> HenyoRoundRecord | None:
        if not is_row_id(round_id):
            return None
        return await self.session.get(HenyoRoundRecord, round_id)

    async def event_rounds(self, event_id: int) -> list[HenyoRoundRecord]:
        stmt = (
            select(HenyoRoundRecord)
            .where(HenyoRoundRecord.event_id == event_id)
            .order_by(HenyoRoundRecord.id)
        )
        return list((await self.session.execute(stmt)).scalars())

    async def round_in_channel(
        self, channel_id: int, statuses: tuple[str, ...] = OPEN_ROUND
    ) -> HenyoRoundRecord | None:
        """The channel's newest round in one of ``statuses`` (by default ready or running)."""
        stmt = select(HenyoRoundRecord).where(
            HenyoRoundRecord.channel_id == channel_id, HenyoRoundRecord.status.in_(statuses)
        )
        return (
            await self.session.execute(stmt.order_by(HenyoRoundRecord.id.desc()).limit(1))
        ).scalar_one_or_none()

    async def open_rounds(self) -> list[OpenRoundRow]:
        stmt = select(
            HenyoRoundRecord.id,
            HenyoRoundRecord.channel_id,
            HenyoRoundRecord.announce_message_id,
            HenyoRoundRecord.status,
            HenyoRoundRecord.referee,
        ).where(HenyoRoundRecord.status.in_(OPEN_ROUND))
        return [OpenRoundRow(*row) for row in (await self.session.execute(stmt)).all()]

    async def used_words(
        self, *, guild_id: int, event_id: int | None, recent: int
    ) -> list[UsedWord]:
        """The words of the event's rounds, or (no event) of the guild's ``recent`` last rounds."""
        stmt = select(HenyoRoundRecord.word_key, HenyoRoundRecord.cancel_reason)
        if event_id is not None:
            stmt = stmt.where(HenyoRoundRecord.event_id == event_id)
        else:
            stmt = (
                stmt.where(HenyoRoundRecord.guild_id == guild_id)
                .order_by(HenyoRoundRecord.id.desc())
                .limit(recent)
            )
        return [UsedWord(*row) for row in (await self.session.execute(stmt)).all()]

    async def seen(self, round_id: int, source_id: int) -> bool:
        """Whether the round already holds what came from this Discord id."""
        return bool(
            await self._count(
                HenyoRoundEventRecord,
                HenyoRoundEventRecord.round_id == round_id,
                HenyoRoundEventRecord.source_id == source_id,
            )
        )

    async def penalties_before(self, round_id: int, source_id: int = LAST_SOURCE_ID) -> int:
        """The round's penalties from messages before ``source_id`` (by default all of them)."""
        return await self._count(
            HenyoRoundEventRecord,
            HenyoRoundEventRecord.round_id == round_id,
            HenyoRoundEventRecord.kind == "penalty",
            HenyoRoundEventRecord.source_id < source_id,
        )

    async def presses(self, round_id: int) -> list[HenyoPressRecord]:
        """The host's presses in a round played aloud, in order (undone ones too)."""
        stmt = (
            select(HenyoPressRecord)
            .where(HenyoPressRecord.round_id == round_id)
            .order_by(HenyoPressRecord.seq)
        )
        return list((await self.session.execute(stmt)).scalars())

    async def newer_round_in_channel(self, round_id: int, channel_id: int) -> bool:
        """Whether a later round (not cancelled) was started in the channel."""
        return bool(
            await self._count(
                HenyoRoundRecord,
                HenyoRoundRecord.channel_id == channel_id,
                HenyoRoundRecord.id > round_id,
                HenyoRoundRecord.status != "cancelled",
            )
        )

    # ------------------------------------------------------------------ the club's words

    async def words(self, guild_id: int, *, by_text: bool = False) -> list[HenyoWordRecord]:
        """The club's words and removed built-in ones, as added (or alphabetically)."""
        stmt = select(HenyoWordRecord).where(HenyoWordRecord.guild_id == guild_id)
        order = HenyoWordRecord.text if by_text else HenyoWordRecord.id
        return list((await self.session.execute(stmt.order_by(order))).scalars())

    async def word(self, guild_id: int, key: str) -> HenyoWordRecord | None:
        stmt = select(HenyoWordRecord).where(
            HenyoWordRecord.guild_id == guild_id, HenyoWordRecord.key == key
        )
        return (await self.session.execute(stmt)).scalar_one_or_none()

    async def delete_word(self, row: HenyoWordRecord) -> None:
        await self.session.delete(row)
        await self.session.flush()
