"""The club's one sign-up mechanism: a list (owned by a session, a tournament or
an event) and its entries in the order they came.

An entry is one member, or a pair (``partner_id``). Entries are ordered by
``position``, unique per list, so two joins at once cannot both take the same
place: the loser's insert fails and its retry reads the winner's entry.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import BigInteger, Boolean, ForeignKey, Index, Integer, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from bot.db.models import Base, utcnow


class SignupListRecord(Base):
    """``open → closed``. The first ``capacity`` entered entries are in, the rest wait
    (``capacity`` None: everyone is in)."""

    __tablename__ = "signup_lists"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    guild_id: Mapped[int] = mapped_column(ForeignKey("guilds.id"))
    owner_kind: Mapped[str] = mapped_column(String(16))  # session | tournament | event
    owner_id: Mapped[int] = mapped_column(Integer)
    capacity: Mapped[int | None] = mapped_column(Integer)
    team_size: Mapped[int] = mapped_column(Integer, default=1)
    status: Mapped[str] = mapped_column(String(16), default="open")
    version: Mapped[int] = mapped_column(Integer, default=1)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)

    __table_args__ = (
        UniqueConstraint("owner_kind", "owner_id", name="uq_signup_lists_owner_kind_owner_id"),
    )


class SignupRecord(Base):
    """One member's (or pair's) entry: ``entered → withdrawn``."""

    __tablename__ = "signups"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    list_id: Mapped[int] = mapped_column(ForeignKey("signup_lists.id", ondelete="CASCADE"))
    position: Mapped[int] = mapped_column(Integer)
    user_id: Mapped[int] = mapped_column(ForeignKey("players.id"))
    partner_id: Mapped[int | None] = mapped_column(ForeignKey("players.id"))
    wants_partner: Mapped[bool] = mapped_column(Boolean, default=False)
    status: Mapped[str] = mapped_column(String(16), default="entered")  # entered | withdrawn
    added_by: Mapped[int | None] = mapped_column(BigInteger)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    checked_in_at: Mapped[datetime | None] = mapped_column()
    withdrawn_at: Mapped[datetime | None] = mapped_column()

    __table_args__ = (
        UniqueConstraint("list_id", "position", name="uq_signups_list_id_position"),
        Index("ix_signups_user_id", "user_id"),
    )
