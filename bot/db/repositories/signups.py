"""Sign-up lists and their entries as ``bot.services.signups`` sees them.

Nothing here commits. A list changes through ``bump`` (a compare-and-set on its
version), so two writers racing on one list never both win.
"""

from __future__ import annotations

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from bot.db.dml import compare_and_set
from bot.db.models_signups import SignupListRecord, SignupRecord
from bot.db.repositories.common import is_row_id


class SignupRepository:
    def __init__(self, session: AsyncSession) -> None:
        self.session = session

    def add(self, row: SignupListRecord | SignupRecord) -> None:
        self.session.add(row)

    async def flush(self) -> None:
        await self.session.flush()

    async def get_list(self, list_id: int) -> SignupListRecord | None:
        if not is_row_id(list_id):
            return None
        return await self.session.get(SignupListRecord, list_id)

    async def lock(self, row: SignupListRecord) -> SignupListRecord:
        """The list again, locked for this transaction on PostgreSQL (``FOR UPDATE``:
        a second join waits here rather than reading the entries before the first
        commits), with its current version. SQLite serializes writers itself."""
        stmt = (
            select(SignupListRecord)
            .where(SignupListRecord.id == row.id)
            .with_for_update()
            .execution_options(populate_existing=True)
        )
        return (await self.session.execute(stmt)).scalar_one()

    async def list_of(self, owner_kind: str, owner_id: int) -> SignupListRecord | None:
        stmt = select(SignupListRecord).where(
            SignupListRecord.owner_kind == owner_kind, SignupListRecord.owner_id == owner_id
        )
        return (await self.session.execute(stmt)).scalar_one_or_none()

    async def entries(self, list_id: int, *, withdrawn: bool = False) -> list[SignupRecord]:
        """The list's entries in the order they came (withdrawn ones only when asked)."""
        stmt = select(SignupRecord).where(SignupRecord.list_id == list_id)
        if not withdrawn:
            stmt = stmt.where(SignupRecord.status == "entered")
        return list((await self.session.execute(stmt.order_by(SignupRecord.position))).scalars())

    async def next_position(self, list_id: int) -> int:
        stmt = select(func.coalesce(func.max(SignupRecord.position), 0)).where(
            SignupRecord.list_id == list_id
        )
        return int((await self.session.execute(stmt)).scalar_one()) + 1

    async def bump(self, row: SignupListRecord, **changes: object) -> bool:
        """Apply ``changes`` and a new version if the list still has the version read;
        False (nothing written) when someone else changed it first."""
        return await compare_and_set(self.session, row, changes)
