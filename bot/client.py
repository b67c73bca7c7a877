"""The Discord client: loads cogs, runs the scheduler and the outbox sender."""

from __future__ import annotations

import asyncio
import contextvars
import hashlib
import json
import logging
import pkgutil
import time
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

import discord
import discord.gateway
import yarl
from discord import app_commands
from discord.ext import commands

from bot import allocator, offload
from bot.caches import keep_for_good
from bot.config import Settings
from bot.db import command_sync
from bot.db.engine import create_engine, create_session_factory
from bot.db.languages import guild_languages
from bot.db.migrate import upgrade_to_head
from bot.db.models import utcnow
from bot.gateway.ratelimits import prune_buckets_every
from bot.gateway.threads import bound_thread_cache
from bot.messages.i18n import DEFAULT_LANGUAGE, set_language
from bot.scheduler import Scheduler
from bot.services import ServiceContext
from bot.services.board_address import VIEW_BOARD_LINK, BoardAddresses
from bot.services.words import get_lexicon
from bot.ui.board_link import BoardLinkDms
from bot.ui.dm_channels import DirectMessages
from bot.ui.errors import NO_MENTIONS, handle_interaction_error
from bot.ui.outbox import OutboxSender, default_owner
from bot.ui.views import keep_only_listening_views

if TYPE_CHECKING:
    # Imported only when WEB_PORT is set: aiohttp.web, Jinja2, the page's
    # renderers and prometheus_client cost start-up time and memory a bot
    # without its page (and so without /metrics) does not need
    # (tests/bot/test_start_cost.py).
    from bot.web.metrics import Metrics
    from bot.web.server import WebServer

# discord.py's names for the tasks it runs handlers in (events, slash commands, buttons, modals)
HANDLER_TASK_PREFIXES = ("discord.py: ", "CommandTree-invoker", "discord-ui-")
DRAIN_SECONDS = 5.0
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
    # Joins and leaves while connected, and one page of a guild's members over REST
    # (bot/gateway/members.py). The member list is never fetched whole: see client_options.
    i.members = True
    return i


def client_options() -> dict[str, Any]:
    """How much of Discord the client keeps, sized for a bot in hundreds of guilds.

    No member chunking at start: asking the gateway for every guild's members
    (REQUEST_GUILD_MEMBERS, about 110 a minute per shard) kept a bot in 200
    guilds from being ready for a minute. Nothing needs the whole list: an
    interaction and a guild message carry their member (name, roles,
    permissions), option values carry theirs, names shown later come from the
    ``players`` table, and ``bot.gateway.members`` asks Discord about the rest
    (and remembers the answer a while). Members who join while connected are
    still cached (the default cache flags of the members intent).

    No message cache: nothing reads cached messages (no edit, delete or reaction
    listeners; interactions carry their message), and 1,000 of them per process
    are memory for nothing.
    """
    return {"chunk_guilds_at_startup": False, "max_messages": None}


# Suggestions Discord no longer waits for (it drops an autocomplete unanswered
# after 3 s): when the bot is that far behind, it skips them rather than spend
# the time on a list nobody will see.
AUTOCOMPLETE_TOO_LATE_S = 2.5


class ClubTree(app_commands.CommandTree):
    async def on_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        name = interaction.command.qualified_name if interaction.command else "?"
        await handle_interaction_error(interaction, error, where=f"/{name}")

    async def _call(self, interaction: discord.Interaction) -> None:
        # Every slash command passes here once: /metrics counts them and their latency.
        started = time.perf_counter()
        if interaction.type is discord.InteractionType.autocomplete and _too_late(
            interaction, getattr(self.client, "ctx", None)
        ):
            log.info("autocomplete %s skipped: %s s old", interaction.id, AUTOCOMPLETE_TOO_LATE_S)
            return
        ok = False
        try:
            await super()._call(interaction)
            ok = not interaction.command_failed
        finally:
            metrics: Metrics | None = getattr(self.client, "metrics", None)
            if (
                metrics is not None
                and interaction.type is discord.InteractionType.application_command
            ):
                name = interaction.command.qualified_name if interaction.command else "?"
                metrics.observe_command(name, time.perf_counter() - started, ok=ok)


def _too_late(interaction: discord.Interaction, ctx: ServiceContext | None) -> bool:
    """The interaction is older than ``AUTOCOMPLETE_TOO_LATE_S`` by the bot's clock
    (the loopback's, in tests)."""
    now = ctx.clock() if ctx is not None else utcnow()
    return (now - interaction.created_at).total_seconds() > AUTOCOMPLETE_TOO_LATE_S


class _AnsweredTooLate(logging.Filter):
    """discord.py logs a failed suggestion, and a failed button, select or form its
    views handle themselves (a ``DynamicItem``'s callback), with its traceback; one
    Discord refused because it came too late (10062, unknown interaction: a saturated
    bot, a slow network) is no fault of the bot's: one warning line. (Commands and
    the buttons of ``bot.ui.buttons.dispatch`` go through ``handle_interaction_error``,
    which does the same.)"""

    def filter(self, record: logging.LogRecord) -> bool:
        error = record.exc_info[1] if record.exc_info else None
        if (
            record.getMessage().startswith("Ignoring exception in ")
            and isinstance(error, discord.NotFound)
            and error.code == 10062
        ):
            message = record.getMessage()
            record.exc_info = None
            record.exc_text = None
            record.levelno, record.levelname = logging.WARNING, "WARNING"
            record.msg, record.args = "%s: answered too late (10062)", (message[:300],)
        return True


for _logger in ("discord.app_commands.tree", "discord.ui.view", "discord.ui.modal"):
    logging.getLogger(_logger).addFilter(_AnsweredTooLate())


class ClubBot(commands.AutoShardedBot):
    def __init__(
        self,
        settings: Settings,
        *,
        clock: Callable[[], datetime] = utcnow,
        sync_commands: bool = True,
        force_sync: bool = False,
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
            **client_options(),
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
        offload.configure(settings.cpu_workers)  # the pool itself starts on first use
        self.engine = create_engine(settings.database_url, **settings.database_pool)
        self.session_factory = create_session_factory(self.engine)
        self.scheduler = Scheduler(
            self.session_factory, clock=clock, poll_seconds=settings.scheduler_poll_seconds
        )
        # Members' DM channels, remembered in the database: a DM is one request.
        self.dms = DirectMessages(self, self.session_factory, clock=clock)
        self.outbox = OutboxSender(
            self, self.session_factory, owner=default_owner(settings.shard_ids), dms=self.dms
        )
        # A job's announcements are outbox rows committed with it: send them now.
        self.scheduler.after_job.append(lambda _outcome: self.outbox.notify())
        self.ctx = ServiceContext(
            settings=settings,
            session_factory=self.session_factory,
            scheduler=self.scheduler,
            clock=clock,
            outbox_notify=self.outbox.notify,
        )
        # A DM's "Open the board" button, made for the member it goes to as it is sent.
        self.outbox.dm_views[VIEW_BOARD_LINK] = BoardLinkDms(BoardAddresses(self.ctx))
        self._sync_commands = sync_commands
        self._force_sync = force_sync
        # The scopes ("global", "guild:<id>") the last sync_commands() sent to Discord.
        self.synced_scopes: list[str] = []
        self._run_background = run_background
        self._background: list[asyncio.Task[None]] = []
        self._trimmer: asyncio.Task[None] | None = None
        self.ready_event = asyncio.Event()
        # Commands are counted for /metrics, which only the web page serves.
        self.metrics: Metrics | None = None
        self.web: WebServer | None = None
        # Guild id -> the language it chose (absent: English). Kept here because
        # Discord's events are parsed synchronously; a guild's events and its
        # /club setup reach the one process holding its shard, so this is current.
        self.guild_languages: dict[int, str] = {}
        self._speak_guild_languages()
        # Views whose buttons are routed by custom id are not kept (bot/ui/views.py).
        keep_only_listening_views(self)
        # The threads it hears of, a bounded number of them (bot/gateway/threads.py).
        bound_thread_cache(self)
        # Its rate-limit buckets looked through once in a while (bot/gateway/ratelimits.py).
        prune_buckets_every(self.http)

    def remember_language(self, guild_id: int, code: str) -> None:
        if code == DEFAULT_LANGUAGE:
            self.guild_languages.pop(guild_id, None)
        else:
            self.guild_languages[guild_id] = code

    def _speak_guild_languages(self) -> None:
        """Run every interaction (command, autocomplete, button, modal) and guild
        message in the language of its guild: the one place the interaction
        path sets it. The handlers' tasks are made while the event is parsed,
        so they inherit the context it is parsed in."""
        parsers = self._connection.parsers

        def in_guild_language(parse: Callable[[Any], None]) -> Callable[[Any], None]:
            def parse_in_language(data: Any) -> None:
                raw = data.get("guild_id") if isinstance(data, dict) else None
                guild_id = int(raw) if raw is not None else None
                code = self.guild_languages.get(guild_id) if guild_id is not None else None

                def run() -> None:
                    set_language(code, guild_id)
                    parse(data)

                contextvars.copy_context().run(run)

            return parse_in_language

        for event in ("INTERACTION_CREATE", "MESSAGE_CREATE"):
            parsers[event] = in_guild_language(parsers[event])

    async def prepare(self) -> None:
        """Everything short of connecting: database, word list, cogs, command tree."""
        await upgrade_to_head(self.engine)
        self.guild_languages.update(await guild_languages(self.session_factory))
        await get_lexicon(self.ctx)
        for module in cog_modules():
            await self.load_extension(module)
        # The word list and its indexes are hundreds of thousands of long-lived
        # objects: keep the cyclic collector from rescanning them.
        keep_for_good(collect=True)

    async def setup_hook(self) -> None:
        await self.prepare()
        if self.settings.web_port is not None:
            from bot.web.metrics import Metrics
            from bot.web.server import WebServer

            self.metrics = Metrics()
            self.web = WebServer(
                self.ctx,
                self.metrics,
                lambda: self.is_ready() and not self.is_closed(),
                host=self.settings.web_host,
                port=self.settings.web_port,
            )
            await self.web.start()
        # Memory freed under load goes back to the system (bot.allocator).
        self._trimmer = asyncio.create_task(allocator.trim_every(), name="malloc-trim")
        if self._run_background:
            self._background.append(
                asyncio.create_task(self.scheduler.run_forever(), name="scheduler")
            )
            self._background.append(asyncio.create_task(self.outbox.run_forever(), name="outbox"))
        if self._sync_commands:
            await self.sync_commands()

    def command_scopes(self) -> list[tuple[str, discord.Object | None]]:
        """Where the commands go: each guild of DISCORD_GUILD_IDS (appear at once), else global."""
        if self.settings.discord_guild_ids:
            guild_ids = dict.fromkeys(self.settings.discord_guild_ids)  # each once, in order
            return [(f"guild:{g}", discord.Object(g)) for g in guild_ids]
        return [("global", None)]

    async def command_payload(self, guild: discord.Object | None) -> list[dict[str, Any]]:
        """What ``tree.sync(guild=guild)`` would send, in a stable order."""
        commands = self.tree.get_commands(guild=guild)
        translator = self.tree.translator
        if translator is not None:
            payload = [await c.get_translated_payload(self.tree, translator) for c in commands]
        else:
            payload = [c.to_dict(self.tree) for c in commands]
        return sorted(payload, key=lambda p: (p.get("type", 1), p["name"]))

    async def sync_commands(self, *, force: bool | None = None) -> list[str]:
        """Sync each scope whose command tree changed since its last sync; return those synced.

        Discord rate-limits syncs, and a bot that syncs at every start hits the
        limit after a few restarts in a row. So each scope's payload is hashed
        and compared with the hash stored at its last successful sync
        (``command_syncs``); only a scope that differs is sent, and its new hash
        stored after Discord accepted it. ``force`` (``python -m bot --sync``)
        sends every scope: for when Discord's copy was changed behind the bot's back.
        """
        force = self._force_sync if force is None else force
        application_id = self.application_id
        if application_id is None:
            raise discord.app_commands.MissingApplicationID
        scopes = self.command_scopes()
        for _, guild in scopes:
            if guild is not None:
                self.tree.copy_global_to(guild=guild)
        stored = await command_sync.synced_hashes(self.session_factory, application_id)
        synced_scopes = []
        for scope, guild in scopes:
            payload = await self.command_payload(guild)
            tree_hash = hashlib.sha256(
                json.dumps(payload, sort_keys=True, separators=(",", ":")).encode()
            ).hexdigest()
            if not force and stored.get(scope) == tree_hash:
                log.info("commands for %s unchanged since the last sync: not syncing", scope)
                continue
            synced = await self.tree.sync(guild=guild)
            await command_sync.record_sync(
                self.session_factory, application_id, scope, tree_hash, utcnow()
            )
            synced_scopes.append(scope)
            if guild is None:
                log.info("synced %d global commands (they may take a while to appear)", len(synced))
            else:
                log.info("synced %d commands to guild %s", len(synced), guild.id)
        self.synced_scopes = synced_scopes
        return synced_scopes

    async def on_ready(self) -> None:
        log.info("ready as %s in %d servers", self.user, len(self.guilds))
        self.ready_event.set()

    async def close(self) -> None:
        if self.web is not None:
            await self.web.stop()
        # The scheduler and the outbox finish the pass under way (its unit of work
        # commits or rolls back whole); what is still running after that is cancelled.
        self.scheduler.stop()
        self.outbox.stop()
        if self._trimmer is not None:
            self._trimmer.cancel()  # nothing to finish
        if self._background:
            await asyncio.wait(self._background, timeout=DRAIN_SECONDS)
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
            await self._drain_handlers()
        finally:
            await offload.shutdown()
            await self.engine.dispose()

    async def _drain_handlers(self, timeout: float = DRAIN_SECONDS) -> None:
        """Let the event, command and button handlers already running finish their
        unit of work before the database goes away: cancelled at exit instead, a
        handler's rollback is cut off mid-way (SQLAlchemy logs "Exception during
        reset"). What is still running after ``timeout`` is left to be cancelled."""
        me = asyncio.current_task()
        running = [
            task
            for task in asyncio.all_tasks()
            if task is not me
            and not task.done()
            and task.get_name().startswith(HANDLER_TASK_PREFIXES)
        ]
        if not running:
            return
        _, pending = await asyncio.wait(running, timeout=timeout)
        if pending:
            log.warning("handlers still running at shutdown, cancelled: %d", len(pending))
