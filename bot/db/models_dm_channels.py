"""Each member's DM channel with the bot, remembered across restarts.

discord.py keeps the last 128 DM channels it saw; past those (and after every
restart) sending a member a DM first asks Discord for the channel
(``POST /users/@me/channels``). A member's DM channel never changes, so its id
is kept here and a DM is one request: see ``bot/ui/dm_channels.py``.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import BigInteger
from sqlalchemy.orm import Mapped, mapped_column

from bot.db.models import Base, utcnow


class DmChannelRecord(Base):
    """The DM channel Discord gave for a member."""

    __tablename__ = "dm_channels"

    user_id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    channel_id: Mapped[int] = mapped_column(BigInteger)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
