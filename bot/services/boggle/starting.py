"""Starting a round now (``/boggle start``): ``scheduled`` is skipped, the round
opens at once and its grid goes to the channel through the outbox."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from bot.db.models_boggle import BoggleRoundRecord
from bot.db.uow import UnitOfWork, duplicate_as
from bot.errors import ConflictError
from bot.messages.boggle import rounds as say
from bot.services.boggle.core import BoggleCore
from bot.services.boggle.options import entry_seconds, resolve_options
from bot.services.boggle.snapshots import RoundInfo
from bot.services.words import get_lexicon


class Starting:
    """``/boggle start``: a round that opens at once."""

    def __init__(self, core: BoggleCore) -> None:
        self.core = core

    async def start_round(
        self,
        *,
        guild_id: int,
        guild_name: str,
        channel_id: int,
        started_by: int,
        size: int | None = None,
        duration: str | None = None,
        min_length: int | None = None,
        dice: str | None = None,
        where: str | None = None,
        entry_time: str | None = None,
        within: Callable[[UnitOfWork, BoggleRoundRecord], Awaitable[None]] | None = None,
    ) -> RoundInfo:
        """Open a round now: the grid and its countdown go to ``channel_id``.

        ``where: room``: played in the room on paper, the lists typed in the
        ``entry_time`` after the countdown (default 2 minutes).

        ``within``: the caller's own writes for this round (a games event's round
        played in pairs), made in the round's transaction, so both commit or neither."""
        core = self.core
        options = resolve_options(size, duration, min_length, dice)
        entry_s = entry_seconds(where, entry_time)  # played in the room: time to type the lists
        lexicon_name = core.ctx.settings.lexicon
        await get_lexicon(core.ctx, lexicon_name)  # a broken word list fails here, not at the end
        now = core.now()
        with duplicate_as(ConflictError(say.STARTED_AT_ONCE)):
            async with core.ctx.uow() as uow:
                await uow.guilds.ensure(guild_id, guild_name)
                running = await uow.boggle.latest_round(guild_id, ("open",))
                if running is not None:
                    raise ConflictError(
                        say.still_running(running.number, running.channel_id, running.ends_at)
                    )
                record = await uow.boggle.add_round(
                    BoggleRoundRecord(
                        guild_id=guild_id,
                        number=await uow.boggle.next_round_number(guild_id),
                        channel_id=channel_id,
                        status="scheduled",
                        size=options.size,
                        dice=options.dice,
                        min_length=options.min_length,
                        duration_s=options.duration_s,
                        entry_s=entry_s,
                        seed=core.seeds(),
                        lexicon=lexicon_name,
                        opens_at=now,
                        started_by=started_by,
                        results={},
                        version=1,
                        created_at=now,
                    )
                )
                await core.open_round(uow, record, now)
                if within is not None:
                    await within(uow, record)
                info = RoundInfo.of(record)
                await uow.commit()
        return info
