"""The Discord client: loads cogs, runs the scheduler and the outbox sender."""

from __future__ import annotations

import asyncio
import gc
import logging
import pkgutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import discord
import discord.gateway
import yarl
from discord import app_commands
from discord.ext import commands

from bot.config import Settings
from bot.db.engine import create_engine, create_session_factory
from bot.db.migrate import upgrade_to_head
from bot.db.models import utcnow
from bot.scheduler import Scheduler
from bot.services import ServiceContext
from bot.services.words import get_lexicon
from bot.ui.errors import NO_MENTIONS, handle_interaction_error
from bot.ui.outbox import OutboxSender

log = logging.getLogger("clubbot")

COGS_DIR = Path(__file__).resolve().parents[1] / "cogs"


def cog_modules() -> list[str]:
    """Every module in ``cogs/``: each holds one command group."""
    return sorted(
        f"cogs.{m.name}"
        for m in pkgutil.iter_modules([str(COGS_DIR)])
        if not m.name.startswith("_")
    )


def intents() -> discord.Intents:
    i = discord.Intents.none()
    i.guilds = True
    i.guild_messages = True
    i.dm_messages = True
    i.message_content = True  # Henyo referee and DM'd Boggle word lists read text
    i.members = True
    return i


class ClubTree(app_commands.CommandTree):
    async def on_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        name = interaction.command.qualified_name if interaction.command else "?"
        await handle_interaction_error(interaction, error, where=f"/{name}")


class ClubBot(commands.AutoShardedBot):
    def __init__(
        self,
        settings: Settings,
        *,
        clock: Callable[[], Any] = utcnow,
        sync_commands: bool = True,
        run_background: bool = True,
    ) -> None:
        kwargs: dict[str, Any] = {}
        if settings.shard_count is not None:
            kwargs["shard_count"] = settings.shard_count
        if settings.shard_ids:
            kwargs["shard_ids"] = settings.shard_ids
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents(),
            allowed_mentions=NO_MENTIONS,
            tree_cls=ClubTree,
            help_command=None,
            **kwargs,
        )
        if settings.discord_api_base:
            discord.http.Route.BASE = settings.discord_api_base.rstrip("/")
        if settings.discord_gateway_url:
            # Clients that connect without asking /gateway/bot (sharded starts,
            # re-identifies) use this constant.
            discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(
                settings.discord_gateway_url
            )
        self.settings = settings
        self.engine = create_engine(settings.database_url)
        self.session_factory = create_session_factory(self.engine)
        self.scheduler = Scheduler(
            self.session_factory, clock=clock, poll_seconds=settings.scheduler_poll_seconds
        )
        self.outbox = OutboxSender(self, self.session_factory)
        # A job's announcements are outbox rows committed with it: send them now.
        self.scheduler.after_job.append(lambda _outcome: self.outbox.notify())
        self.ctx = ServiceContext(
            settings=settings,
            session_factory=self.session_factory,
            scheduler=self.scheduler,
            clock=clock,
            outbox_notify=self.outbox.notify,
        )
        self._sync_commands = sync_commands
        self._run_background = run_background
        self._background: list[asyncio.Task[None]] = []
        self.ready_event = asyncio.Event()

    async def prepare(self) -> None:
        """Everything short of connecting: database, word list, cogs, command tree."""
        await upgrade_to_head(self.engine)
        await get_lexicon(self.ctx)
        for module in cog_modules():
            await self.load_extension(module)
        # The word list and its indexes are hundreds of thousands of long-lived
        # objects: keep the cyclic collector from rescanning them (pauses of
        # 100+ ms under load otherwise).
        gc.collect()
        gc.freeze()

    async def setup_hook(self) -> None:
        await self.prepare()
        if self._run_background:
            self._background.append(
                asyncio.create_task(self.scheduler.run_forever(), name="scheduler")
            )
            self._background.append(asyncio.create_task(self.outbox.run_forever(), name="outbox"))
        if self._sync_commands:
            await self.sync_commands()

    async def sync_commands(self) -> None:
        if self.settings.discord_guild_ids:
            for guild_id in self.settings.discord_guild_ids:
                guild = discord.Object(guild_id)
                self.tree.copy_global_to(guild=guild)
                synced = await self.tree.sync(guild=guild)
                log.info("synced %d commands to guild %s", len(synced), guild_id)
        else:
            synced = await self.tree.sync()
            log.info("synced %d global commands (they may take a while to appear)", len(synced))

    async def on_ready(self) -> None:
        log.info("ready as %s in %d servers", self.user, len(self.guilds))
        self.ready_event.set()

    async def close(self) -> None:
        for task in self._background:
            task.cancel()
        for task in self._background:
            try:
                await task
            except (asyncio.CancelledError, Exception):
                pass
        self._background.clear()
        try:
            await super().close()
        finally:
            await self.engine.dispose()
