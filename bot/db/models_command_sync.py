"""The slash-command tree last synced to Discord, per application and scope.

Discord asks bots to sync their commands only when they change (every sync is
rate-limited, and a bot that syncs at each start hits the limit when it
restarts a few times in a row). The bot hashes the tree it built for each
scope (a guild of ``DISCORD_GUILD_IDS``, or ``global``) and syncs only a scope
whose hash differs from the one stored here; see ``bot/db/command_sync.py``.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import BigInteger, String
from sqlalchemy.orm import Mapped, mapped_column

from bot.db.models import Base, utcnow


class CommandSyncRecord(Base):
    """One successful sync: which tree (by hash) Discord holds for a scope."""

    __tablename__ = "command_syncs"

    # Keyed by application too: the same database given another bot's token
    # must still sync that application's commands.
    application_id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    scope: Mapped[str] = mapped_column(String(40), primary_key=True)  # "global", "guild:<id>"
    tree_hash: Mapped[str] = mapped_column(String(64))  # sha256 hex of the payload sent
    synced_at: Mapped[datetime] = mapped_column(default=utcnow)
