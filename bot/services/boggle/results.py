"""Results and seasons: ``/boggle results`` (the last round as posted and the
season's table), ``/boggle season`` (its target and reset rhythm, or ending it
now), and the season's scheduled end."""

from __future__ import annotations

from typing import cast

from bot.db.models import GuildRecord, JobRecord
from bot.db.uow import UnitOfWork
from bot.messages import boggle as msg
from bot.services.boggle import seasons
from bot.services.boggle.core import BoggleCore
from bot.services.boggle.options import check_season_settings
from bot.services.boggle.snapshots import ResultsSnapshot, RoundInfo, SeasonInfo


class Results:
    """``/boggle results``, ``/boggle season`` and the season's scheduled end."""

    def __init__(self, core: BoggleCore) -> None:
        self.core = core

    async def latest(self, guild_id: int) -> ResultsSnapshot:
        """The last scored round (as posted) and the season table."""
        now = self.core.now()
        async with self.core.ctx.uow() as uow:
            last = await uow.boggle.last_scored_round(guild_id)
            running = await uow.boggle.latest_round(guild_id)
            guild = await uow.guilds.get(guild_id)
            season = seasons.season_state(guild) or seasons.new_season(1, now)
            table = await seasons.standings(uow, guild_id, seasons.season_label(season))
            return ResultsSnapshot(
                cast(msg.RoundSummary, last.results) if last is not None else None,
                RoundInfo.of(running) if running is not None else None,
                seasons.season_info(guild, season, table, now),
            )

    async def configure_season(
        self,
        *,
        guild_id: int,
        guild_name: str,
        channel_id: int | None,
        target: int | None = None,
        every: str | None = None,
        reset: bool = False,
    ) -> SeasonInfo:
        """Change the season's target or reset rhythm, or end it now (announcing its winner)."""
        check_season_settings(target, every)
        now = self.core.now()
        async with self.core.ctx.uow() as uow:
            guild = await uow.guilds.ensure(guild_id, guild_name)
            season = await seasons.ensure_season(uow, guild, now)
            if target is not None or every is not None:
                season = season.copy()
                if target is not None:
                    season["target"] = target
                if every is not None:
                    season["every"] = every
                seasons.write_season(guild, season)
                if every is not None:
                    await seasons.schedule_reset(uow, guild, season, now)
            ended = None
            if reset:
                ended = await seasons.end_season(uow, guild, now, reason="moderator")
                if ended is not None and channel_id is not None:
                    uow.outbox.to_channel(
                        channel_id, seasons.season_end_post(ended, season["target"])
                    )
            season = seasons.season_state(guild) or season
            table = await seasons.standings(uow, guild_id, seasons.season_label(season))
            info = seasons.season_info(guild, season, table, now, ended)
            self.core.after_commit(uow)
            await uow.commit()
        return info

    async def on_season_end(self, uow: UnitOfWork, job: JobRecord) -> None:
        """The season's scheduled end (a new month, quarter or year in the club's time zone)."""
        guild = await uow.guilds.get(int(job.payload["guild_id"]))
        if guild is None:
            return
        season = seasons.season_state(guild)
        if season is None or season["every"] == "none":
            return
        now = self.core.now()
        table = await seasons.standings(uow, guild.id, seasons.season_label(season))
        ended = await seasons.end_season(uow, guild, now, reason="schedule", table=table)
        channel_id = await self._announcement_channel(uow, guild)
        if ended is not None and ended.winners and channel_id is not None:
            uow.outbox.to_channel(channel_id, seasons.season_end_post(ended, season["target"]))
        fresh = seasons.season_state(guild)
        assert fresh is not None
        await seasons.schedule_reset(uow, guild, fresh, now)
        self.core.after_commit(uow)
        await uow.commit()

    @staticmethod
    async def _announcement_channel(uow: UnitOfWork, guild: GuildRecord) -> int | None:
        """Where the schedule's rounds are played, else the last round's channel."""
        schedule = await uow.boggle.active_schedule(guild.id)
        if schedule is not None:
            return schedule.channel_id
        last = await uow.boggle.last_round_channel(guild.id)
        return last if last is not None else guild.default_channel_id
