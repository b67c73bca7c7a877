"""LoopbackDiscord: an aiohttp server that stands in for Discord's REST API and gateway.

The world (users, guilds, channels, messages, synced commands) lives here; the
REST routes are in :mod:`.rest`, the websocket in :mod:`.gateway`, and the
user-side actions tests call (``slash``, ``click``, ``dm`` …) in :mod:`.harness`.
"""

from __future__ import annotations

import datetime as dt
import re
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from aiohttp import web

from . import limits
from .gateway import (
    DIRECT_MESSAGES,
    GUILD_MEMBERS,
    GUILD_MESSAGES,
    GUILD_PRESENCES,
    GUILDS,
    MESSAGE_CONTENT,
    Gateway,
    GatewaySession,
)
from .handles import InteractionHandle, LoopbackTimeout, RequestLog, Signal, Violation
from .harness import HarnessMixin, LoopbackUsageError
from .openapi import discord_spec
from .records import (
    ADMINISTRATOR,
    DEFAULT_BOT_PERMISSIONS,
    DEFAULT_EVERYONE_PERMISSIONS,
    DM,
    GUILD_CATEGORY,
    GUILD_TEXT,
    PRIVATE_THREAD,
    PUBLIC_THREAD,
    AttachmentRecord,
    ChannelRecord,
    GuildRecord,
    MemberRecord,
    MessageRecord,
    RoleRecord,
    Snowflakes,
    UserRecord,
    channel_permissions,
    compute_pings,
    iso,
    utcnow,
)
from .rest import RestApi

NONCE_WINDOW_S = 5 * 60.0
ALL_PRIVILEGED = (1 << 1) | (1 << 8) | (1 << 15)


@dataclass
class FaultRule:
    """An injected failure: the next ``count`` matching requests get ``status``."""

    method: str
    pattern: re.Pattern[str]
    status: int
    body: Any
    headers: dict[str, str]
    count: int
    hits: int = 0

    def matches(self, method: str, path: str) -> bool:
        return (
            self.count > 0
            and (self.method in ("*", method))
            and self.pattern.search(path) is not None
        )


class LoopbackDiscord(HarnessMixin):
    """A loopback Discord for one test: REST + gateway on 127.0.0.1.

    Use as ``async with LoopbackDiscord() as dc:``; build a world with
    ``add_guild``/``add_user``/``add_member``/``add_text_channel``, then
    ``await dc.start_bot(bot)`` and drive it with the harness methods.
    """

    def __init__(
        self,
        *,
        host: str = "127.0.0.1",
        port: int = 0,
        token: str = "test-token",
        bot_name: str = "clubbot",
        heartbeat_interval: float = 41.25,
        recommended_shards: int = 1,
        privileged_intents: int = ALL_PRIVILEGED,
        bot_permissions: int = DEFAULT_BOT_PERMISSIONS,
        clock: Callable[[], dt.datetime] | None = None,
    ) -> None:
        # Discord's time: in snowflakes and in member, thread and edit timestamps. Tests
        # pass the clock they give the bot (tests/clock.py); on its own, the machine's.
        self.clock: Callable[[], dt.datetime] = clock or utcnow
        self.host = host
        self.port = port
        self.token = token
        self.recommended_shards = recommended_shards
        self.privileged_intents = privileged_intents
        self.bot_permissions = bot_permissions
        self.ids = Snowflakes(self.clock)
        self.users: dict[int, UserRecord] = {}
        self.guilds: dict[int, GuildRecord] = {}
        self.channels: dict[int, ChannelRecord] = {}
        self.messages: dict[int, MessageRecord] = {}
        self.attachments: dict[int, AttachmentRecord] = {}
        self.interactions: dict[int, InteractionHandle] = {}
        self.interactions_by_token: dict[str, InteractionHandle] = {}
        self.global_commands: list[dict[str, Any]] = []
        # Guild scheduled events by id, as Discord would answer them (``scheduled_events_in``)
        self.scheduled_events: dict[int, dict[str, Any]] = {}
        self.guild_commands: dict[int, list[dict[str, Any]]] = {}
        self.violations: list[Violation] = []
        self.expected_violations: dict[str, int] = {}
        self.faults: list[FaultRule] = []
        self.requests: list[RequestLog] = []
        # Posts sent again with a nonce already used (Discord folds them into the first):
        # work done twice, as when two processes send the same outbox row.
        self.repeated_nonces: list[str] = []
        # Seconds every REST request waits before it is served: the network a real bot
        # has between it and Discord (the load benchmark's --latency-ms); none by default.
        self.rest_latency_s = 0.0
        # Requests and answers checked against Discord's published spec: every one by
        # default (tests). The load benchmark checks each route's first few and then one
        # in ``spec_check_every``: validating them all took a third of its CPU, which
        # the bot under measurement shares.
        self.spec_check_every = 1
        # Called with each new message as it is stored (not for edits): for a load
        # driver that must see posts as they arrive without scanning every message.
        self.message_listeners: list[Callable[[MessageRecord], None]] = []
        self.changed = Signal()
        self.gateway = Gateway(self, heartbeat_interval=heartbeat_interval)
        self.rest = RestApi(self)
        self.bot_user = self.add_user(bot_name, bot=True)
        self.application_id = self.bot_user.id
        # The application's owner: what ``Bot.is_owner`` compares against
        self.app_owner = self.add_user("app-owner")
        self._nonces: dict[tuple[int, int, str], tuple[int, float]] = {}
        self._consumed: set[int] = set()
        self._runner: web.AppRunner | None = None
        self._saved_discord_globals: tuple[str, Any] | None = None
        HarnessMixin.__init__(self)

    # ------------------------------------------------------------------ lifecycle

    async def __aenter__(self) -> LoopbackDiscord:
        await self.start()
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()

    async def start(self) -> None:
        discord_spec()  # Discord's spec, read once: a missing or altered file fails here
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_get("/gateway", self.gateway.handle)
        app.router.add_get("/attachments/{attachment_id}/{filename}", self._serve_attachment)
        app.router.add_route("*", "/api/v{version:\\d+}/{tail:.*}", self.rest.handle)
        self._runner = web.AppRunner(app, access_log=None, shutdown_timeout=1.0)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, self.port)
        await site.start()
        self.port = self._runner.addresses[0][1]

    async def close(self) -> None:
        # Deadlines first: an interaction the test did not wait for is not the bot's fault
        self.cancel_deadlines()
        await self.stop_all_bots()
        await self.gateway.close_all()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
        self.unpatch_discord()

    @property
    def base_url(self) -> str:
        """What ``discord.http.Route.BASE`` must be (the bot reads it from ``DISCORD_API_BASE``)."""
        return f"http://{self.host}:{self.port}/api/v10"

    @property
    def gateway_url(self) -> str:
        return f"ws://{self.host}:{self.port}/gateway"

    def env(self) -> dict[str, str]:
        """Environment for a bot subprocess pointed at this server."""
        return {
            "DISCORD_API_BASE": self.base_url,
            "DISCORD_GATEWAY_URL": self.gateway_url,
            "DISCORD_TOKEN": self.token,
        }

    def patch_discord(self) -> None:
        """Points discord.py (in this process) at the loopback; undone by ``close``."""
        import discord.gateway
        import discord.http
        import yarl

        if self._saved_discord_globals is None:
            self._saved_discord_globals = (
                discord.http.Route.BASE,
                discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY,
            )
        discord.http.Route.BASE = self.base_url
        # Plain (non-auto-sharded) clients never ask /gateway/bot: they dial DEFAULT_GATEWAY
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(self.gateway_url)

    def unpatch_discord(self) -> None:
        if self._saved_discord_globals is None:
            return
        import discord.gateway
        import discord.http

        discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = (
            self._saved_discord_globals
        )
        self._saved_discord_globals = None

    async def _serve_attachment(self, request: web.Request) -> web.Response:
        attachment = self.attachments.get(int(request.match_info["attachment_id"]))
        if attachment is None:
            return web.Response(status=404)
        return web.Response(
            body=attachment.data, content_type=attachment.content_type or "application/octet-stream"
        )

    # ------------------------------------------------------------------ violations and faults

    def violate(self, kind: str, detail: str, *, method: str = "", path: str = "") -> Violation:
        violation = Violation(kind, detail, method, path)
        self.violations.append(violation)
        self.changed.notify()
        return violation

    def expect_violation(self, kind: str, *, count: int | None = None) -> None:
        """Marks violations of ``kind`` as the point of the test (at least one, or exactly ``count``)."""
        self.expected_violations[kind] = -1 if count is None else count

    def allow_violation(self, kind: str) -> None:
        """Tolerates violations of ``kind`` without requiring one: a race whose losers
        Discord may refuse, or the bot may not even try (it already knows the answer)."""
        self.expected_violations[kind] = -2

    def unexpected_violations(self) -> list[Violation]:
        return [v for v in self.violations if v.kind not in self.expected_violations]

    def violation_report(self) -> list[str]:
        """Problems the plugin fails a test for: unexpected violations, expected ones that never happened."""
        problems = [f"unexpected violation: {v}" for v in self.unexpected_violations()]
        for kind, count in self.expected_violations.items():
            seen = sum(1 for v in self.violations if v.kind == kind)
            if count == -1 and seen == 0:
                problems.append(f"expected a {kind!r} violation, none was recorded")
            elif count >= 0 and seen != count:
                problems.append(f"expected {count} {kind!r} violation(s), recorded {seen}")
        return problems

    def fail_next(
        self,
        method: str,
        path_regex: str,
        status: int,
        json_body: Any = None,
        count: int = 1,
        *,
        retry_after: float = 0.05,
        headers: dict[str, str] | None = None,
        is_global: bool = False,
    ) -> FaultRule:
        """Makes the next ``count`` requests whose path (after /api/v10) matches fail with ``status``.

        A 429 gets Discord's rate-limit body and headers (``Retry-After``,
        ``X-RateLimit-*``, ``Via``) unless you pass your own.
        """
        extra = dict(headers or {})
        body = json_body
        if status == 429:
            if body is None:
                body = {
                    "message": "You are being rate limited.",
                    "retry_after": retry_after,
                    "global": is_global,
                    "code": 0,
                }
            extra.setdefault("Retry-After", f"{max(retry_after, 0.0):.3f}")
            extra.setdefault("X-RateLimit-Limit", "5")
            extra.setdefault("X-RateLimit-Remaining", "0")
            extra.setdefault("X-RateLimit-Reset-After", f"{retry_after:.3f}")
            extra.setdefault("X-RateLimit-Reset", f"{time.time() + retry_after:.3f}")
            extra.setdefault("X-RateLimit-Bucket", "loopback-fault")
            extra.setdefault("X-RateLimit-Scope", "global" if is_global else "user")
            if is_global:
                extra.setdefault("X-RateLimit-Global", "true")
            # discord.py treats a 429 without Via as a Cloudflare ban
            extra.setdefault("Via", "1.1 google")
        elif body is None:
            body = {"message": f"{status}: injected failure", "code": 0}
        rule = FaultRule(method.upper(), re.compile(path_regex), status, body, extra, count)
        self.faults.append(rule)
        return rule

    def close_dms(self, user: UserRecord) -> None:
        """The bot's posts to this user's DM channel now fail with 403 / 50007."""
        user.dms_open = False

    def open_dms(self, user: UserRecord) -> None:
        user.dms_open = True

    # ------------------------------------------------------------------ world building

    def add_user(
        self, name: str, *, bot: bool = False, global_name: str | None = None, id: int | None = None
    ) -> UserRecord:
        user = UserRecord(id=id or self.ids.next(), name=name, bot=bot, global_name=global_name)
        self.users[user.id] = user
        return user

    def add_guild(
        self,
        name: str,
        *,
        owner: UserRecord | None = None,
        shard: tuple[int, int] | None = None,
        id: int | None = None,
    ) -> GuildRecord:
        """A guild the bot is in. ``shard=(i, n)`` picks an id Discord routes to shard i of n."""
        guild_id = id or (self.ids.next_on_shard(*shard) if shard else self.ids.next())
        if owner is None:
            owner = self.add_user(f"{name.lower().replace(' ', '-')}-owner")
        guild = GuildRecord(id=guild_id, name=name, owner_id=owner.id, joined_at=self.clock())
        guild.roles[guild_id] = RoleRecord(
            id=guild_id,
            guild_id=guild_id,
            name="@everyone",
            permissions=DEFAULT_EVERYONE_PERMISSIONS,
        )
        self.guilds[guild_id] = guild
        guild.members[owner.id] = MemberRecord(owner, guild_id, joined_at=self.clock())
        bot_role = RoleRecord(
            id=self.ids.next(),
            guild_id=guild_id,
            name=self.bot_user.name,
            permissions=self.bot_permissions,
            position=1,
            managed=True,
            bot_id=self.bot_user.id,
        )
        guild.roles[bot_role.id] = bot_role
        guild.members[self.bot_user.id] = MemberRecord(
            self.bot_user, guild_id, [bot_role.id], joined_at=self.clock()
        )
        for session in self.gateway.sessions_for(guild_id):
            if session.has(GUILDS):
                session.append("GUILD_CREATE", self.guild_create_payload(guild, session))
        return guild

    def add_role(
        self, guild: GuildRecord, name: str, *, permissions: int = 0, mentionable: bool = False
    ) -> RoleRecord:
        role = RoleRecord(
            id=self.ids.next(),
            guild_id=guild.id,
            name=name,
            permissions=int(permissions),
            position=len(guild.roles),
            mentionable=mentionable,
        )
        guild.roles[role.id] = role
        self.dispatch(
            "GUILD_ROLE_CREATE",
            {"guild_id": str(guild.id), "role": role.payload()},
            guild_id=guild.id,
            intent=GUILDS,
        )
        return role

    def add_member(
        self,
        guild: GuildRecord,
        user: UserRecord,
        *,
        roles: Iterable[RoleRecord] = (),
        admin: bool = False,
        nick: str | None = None,
        joined_at: dt.datetime | None = None,
    ) -> MemberRecord:
        role_ids = [r.id for r in roles]
        if admin:
            role_ids.append(self._admin_role(guild).id)
        member = MemberRecord(user, guild.id, role_ids, nick, joined_at or self.clock())
        known = user.id in guild.members
        guild.members[user.id] = member
        event = "GUILD_MEMBER_UPDATE" if known else "GUILD_MEMBER_ADD"
        self.dispatch(
            event,
            {"guild_id": str(guild.id), **member.payload()},
            guild_id=guild.id,
            intent=GUILD_MEMBERS,
        )
        return member

    def remove_member(self, guild: GuildRecord, user: UserRecord) -> None:
        guild.members.pop(user.id, None)
        self.dispatch(
            "GUILD_MEMBER_REMOVE",
            {"guild_id": str(guild.id), "user": user.payload()},
            guild_id=guild.id,
            intent=GUILD_MEMBERS,
        )

    def member(self, guild: GuildRecord, user: UserRecord) -> MemberRecord:
        try:
            return guild.members[user.id]
        except KeyError:
            raise LoopbackUsageError(f"{user.name} is not a member of {guild.name}") from None

    def _admin_role(self, guild: GuildRecord) -> RoleRecord:
        existing = next(
            (
                r
                for r in guild.roles.values()
                if r.name == "Admin" and r.permissions & ADMINISTRATOR
            ),
            None,
        )
        return existing or self.add_role(guild, "Admin", permissions=ADMINISTRATOR)

    def add_category(self, guild: GuildRecord, name: str) -> ChannelRecord:
        return self._add_guild_channel(guild, name, GUILD_CATEGORY, None, None, ())

    def add_text_channel(
        self,
        guild: GuildRecord,
        name: str,
        *,
        category: ChannelRecord | None = None,
        topic: str | None = None,
        overwrites: dict[RoleRecord | UserRecord | MemberRecord, tuple[int, int]] | None = None,
    ) -> ChannelRecord:
        """A text channel; ``overwrites`` maps a role or user to ``(allow, deny)`` permission bits."""
        rendered = []
        for target, (allow, deny) in (overwrites or {}).items():
            is_role = isinstance(target, RoleRecord)
            rendered.append(
                {
                    "id": str(target.id),
                    "type": 0 if is_role else 1,
                    "allow": str(allow),
                    "deny": str(deny),
                }
            )
        return self._add_guild_channel(guild, name, GUILD_TEXT, category, topic, rendered)

    def _add_guild_channel(
        self,
        guild: GuildRecord,
        name: str,
        kind: int,
        category: ChannelRecord | None,
        topic: str | None,
        overwrites: Iterable[dict[str, Any]],
    ) -> ChannelRecord:
        channel = ChannelRecord(
            id=self.ids.next(),
            type=kind,
            name=name,
            guild_id=guild.id,
            parent_id=category.id if category else None,
            position=len(guild.channel_ids),
            topic=topic,
            overwrites=list(overwrites),
            created_at=self.clock(),
        )
        self.channels[channel.id] = channel
        guild.channel_ids.append(channel.id)
        self.dispatch(
            "CHANNEL_CREATE", self.channel_payload(channel), guild_id=guild.id, intent=GUILDS
        )
        return channel

    def add_thread(
        self,
        channel: ChannelRecord,
        name: str,
        *,
        owner: UserRecord | None = None,
        private: bool = False,
        members: Iterable[UserRecord] = (),
        thread_id: int | None = None,
    ) -> ChannelRecord:
        """A thread under ``channel`` started by ``owner`` (a user; the bot when None)."""
        guild = self.guilds[channel.guild_id or 0]
        owner = owner or self.bot_user
        thread = ChannelRecord(
            id=thread_id or self.ids.next(),
            type=PRIVATE_THREAD if private else PUBLIC_THREAD,
            name=name,
            guild_id=guild.id,
            parent_id=channel.id,
            owner_id=owner.id,
            invitable=not private,
            thread_member_ids={owner.id, *(m.id for m in members)},
            created_at=self.clock(),
        )
        self.channels[thread.id] = thread
        bot_sees = (
            not private
            or self.bot_user.id in thread.thread_member_ids
            or self.bot_can(thread, "MANAGE_THREADS")
        )
        if bot_sees:
            self.dispatch(
                "THREAD_CREATE",
                {**self.channel_payload(thread), "newly_created": True},
                guild_id=guild.id,
                intent=GUILDS,
            )
        return thread

    def dm_channel(self, user: UserRecord, *, create: bool = True) -> ChannelRecord | None:
        existing = next(
            (c for c in self.channels.values() if c.type == DM and c.recipient_id == user.id), None
        )
        if existing is not None or not create:
            return existing
        channel = ChannelRecord(
            id=self.ids.next(), type=DM, recipient_id=user.id, created_at=self.clock()
        )
        self.channels[channel.id] = channel
        return channel

    # ------------------------------------------------------------------ permissions

    def permissions_of(self, user: UserRecord, channel: ChannelRecord) -> int:
        if channel.guild_id is None:
            return DEFAULT_EVERYONE_PERMISSIONS
        guild = self.guilds[channel.guild_id]
        member = guild.members.get(user.id)
        if member is None:
            return 0
        return channel_permissions(guild, member, channel, self.channels)

    def guild_permissions_of(self, user: UserRecord, guild: GuildRecord) -> int:
        """A member's server-wide permissions (its roles'; all for the owner or an admin)."""
        member = guild.members.get(user.id)
        if member is None:
            return 0
        return channel_permissions(guild, member, None, self.channels)

    def grant_bot(self, guild: GuildRecord, permissions: int) -> None:
        """Give the bot's role in ``guild`` these permissions too (before the bot connects:
        its GUILD_CREATE carries the role)."""
        role = next(r for r in guild.roles.values() if r.bot_id == self.bot_user.id)
        role.permissions |= permissions

    def scheduled_events_in(self, guild: GuildRecord) -> list[dict[str, Any]]:
        """The guild's scheduled events (not deleted), oldest first."""
        return [e for e in self.scheduled_events.values() if int(e["guild_id"]) == guild.id]

    def bot_can(self, channel: ChannelRecord, permission: str) -> bool:
        from . import records

        return bool(self.permissions_of(self.bot_user, channel) & getattr(records, permission))

    # ------------------------------------------------------------------ payloads

    def channel_payload(self, channel: ChannelRecord) -> dict[str, Any]:
        return channel.payload(users=self.users, bot_id=self.bot_user.id)

    def application_payload(self) -> dict[str, Any]:
        flags = (1 << 14) | (1 << 18) | (1 << 23)  # members, message content, commands badge
        return {
            "id": str(self.application_id),
            "name": self.bot_user.name,
            "icon": None,
            "description": "",
            "summary": "",
            "type": None,
            "bot_public": False,
            "bot_require_code_grant": False,
            "verify_key": "0" * 64,
            "owner": self.app_owner.payload(),
            "team": None,
            "flags": flags,
            "flags_new": str(flags),
            "bot": self.bot_user.payload(),
            "interactions_endpoint_url": None,
            "role_connections_verification_url": None,
            "redirect_uris": [],
            "tags": [],
            "approximate_guild_count": len(self.guilds),
            "approximate_user_install_count": 0,
            "approximate_user_authorization_count": 0,
            "explicit_content_filter": 0,
            "eligible_oauth2_scopes": ["applications.commands", "bot"],
        }

    def ready_payload(self, session: GatewaySession, guilds: list[GuildRecord]) -> dict[str, Any]:
        return {
            "v": 10,
            "user": {
                **self.bot_user.payload(),
                "verified": True,
                "mfa_enabled": False,
                "email": None,
            },
            "guilds": [{"id": str(g.id), "unavailable": True} for g in guilds],
            "session_id": session.id,
            "resume_gateway_url": self.gateway_url,
            "session_type": "normal",
            "shard": list(session.shard),
            "application": {
                "id": str(self.application_id),
                "flags": self.application_payload()["flags"],
            },
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "guild_join_requests": [],
            "geo_ordered_rtc_regions": [],
            "_trace": ["loopback"],
        }

    def guild_payload(self, guild: GuildRecord) -> dict[str, Any]:
        return {
            "id": str(guild.id),
            "name": guild.name,
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "banner": None,
            "description": None,
            "owner_id": str(guild.owner_id),
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 1,
            "explicit_content_filter": 0,
            "roles": [r.payload() for r in guild.roles.values()],
            "emojis": [],
            "stickers": [],
            "features": [],
            "mfa_level": 0,
            "application_id": None,
            "system_channel_id": None,
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "public_updates_channel_id": None,
            "safety_alerts_channel_id": None,
            "max_members": 500000,
            "vanity_url_code": None,
            "premium_tier": 0,
            "premium_subscription_count": 0,
            "preferred_locale": "en-US",
            "nsfw_level": 0,
            "premium_progress_bar_enabled": False,
        }

    def guild_create_payload(self, guild: GuildRecord, session: GatewaySession) -> dict[str, Any]:
        channels = [self.channels[c] for c in guild.channel_ids]
        threads = [
            c
            for c in self.channels.values()
            if c.guild_id == guild.id and c.is_thread and not c.archived
        ]
        # Discord sends the member list only to a session with the presences intent
        # (and not for a guild of over 75k); others get the bot's own member (and
        # members in voice channels, which the loopback has none of). A bot that
        # wants the rest asks for them: REQUEST_GUILD_MEMBERS (discord.py's chunking),
        # or one member or page over REST.
        members = (
            list(guild.members.values())
            if session.has(GUILD_PRESENCES)
            else [guild.members[self.bot_user.id]]
        )
        return {
            **self.guild_payload(guild),
            "joined_at": iso(guild.joined_at),
            "large": False,
            "unavailable": False,
            "member_count": len(guild.members),
            "members": [m.payload() for m in members],
            "channels": [self.channel_payload(c) for c in channels],
            "threads": [self.channel_payload(t) for t in threads],
            "voice_states": [],
            "presences": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
        }

    def message_payload(self, message: MessageRecord) -> dict[str, Any]:
        referenced = None
        if message.message_reference and message.message_reference.get("message_id"):
            referenced = self.messages.get(int(message.message_reference["message_id"]))
        return message.payload(self.users, referenced=referenced)

    def message_event(self, message: MessageRecord) -> dict[str, Any]:
        data = self.message_payload(message)
        if message.guild_id is not None:
            data["guild_id"] = str(message.guild_id)
            member = self.guilds[message.guild_id].members.get(message.author.id)
            if member is not None and message.webhook_id is None:
                data["member"] = member.payload(with_user=False)
        return data

    # ------------------------------------------------------------------ dispatch

    def dispatch(
        self,
        event: str,
        data: dict[str, Any],
        *,
        guild_id: int | None,
        intent: int | None,
        shape: Callable[[GatewaySession, dict[str, Any]], dict[str, Any] | None] | None = None,
    ) -> int:
        return self.gateway.dispatch(event, data, guild_id=guild_id, intent=intent, shape=shape)

    def dispatch_message(self, event: str, message: MessageRecord) -> None:
        if message.ephemeral:
            return  # Ephemeral messages never reach the gateway
        intent = GUILD_MESSAGES if message.guild_id is not None else DIRECT_MESSAGES
        self.dispatch(
            event,
            self.message_event(message),
            guild_id=message.guild_id,
            intent=intent,
            shape=lambda session, data: self._content_gated(session, message, data),
        )

    def _content_gated(
        self, session: GatewaySession, message: MessageRecord, data: dict[str, Any]
    ) -> dict[str, Any]:
        exempt = (
            session.has(MESSAGE_CONTENT)
            or message.guild_id is None
            or message.author.id == self.bot_user.id
            or self.bot_user.id in message.mentioned_user_ids()
        )
        if exempt:
            return data
        return {**data, "content": "", "embeds": [], "attachments": [], "components": []}

    # ------------------------------------------------------------------ messages

    def new_attachment(
        self,
        filename: str,
        data: bytes,
        *,
        description: str | None = None,
        content_type: str | None = None,
    ) -> AttachmentRecord:
        attachment_id = self.ids.next()
        url = f"http://{self.host}:{self.port}/attachments/{attachment_id}/{filename}"
        attachment = AttachmentRecord(attachment_id, filename, data, url, description, content_type)
        self.attachments[attachment_id] = attachment
        return attachment

    def store_message(self, message: MessageRecord) -> MessageRecord:
        new = message.id not in self.messages
        referenced_author = None
        if message.message_reference and message.message_reference.get("message_id"):
            referenced = self.messages.get(int(message.message_reference["message_id"]))
            referenced_author = referenced.author.id if referenced else None
        guild = self.guilds.get(message.guild_id) if message.guild_id else None
        message.pings = compute_pings(message, referenced_author_id=referenced_author, guild=guild)
        self.messages[message.id] = message
        channel = self.channels.get(message.channel_id)
        if channel is not None and not message.ephemeral:
            channel.last_message_id = max(channel.last_message_id or 0, message.id)
        if new:
            for listener in self.message_listeners:
                listener(message)
        self.changed.notify()
        return message

    def build_message(
        self,
        channel: ChannelRecord,
        author: UserRecord,
        body: dict[str, Any],
        files: list[AttachmentRecord],
        *,
        at: dt.datetime | None = None,
        **extra: Any,
    ) -> MessageRecord:
        message = MessageRecord(
            id=self.ids.next(at),
            channel_id=channel.id,
            guild_id=channel.guild_id,
            author=author,
            content=body.get("content") or "",
            embeds=list(body.get("embeds") or []),
            components=list(body.get("components") or []),
            attachments=files,
            flags=int(body.get("flags") or 0),
            allowed_mentions=body.get("allowed_mentions"),
            message_reference=body.get("message_reference"),
            nonce=body.get("nonce"),
            tts=bool(body.get("tts", False)),
            **extra,
        )
        return message

    def apply_edit(
        self, message: MessageRecord, body: dict[str, Any], new_files: dict[int, AttachmentRecord]
    ) -> None:
        """Applies a PATCH body: present keys replace, ``attachments`` keeps listed ids and adds uploads."""
        message.edits.append(self.message_payload(message))
        if "content" in body:
            message.content = body["content"] or ""
        if "embeds" in body:
            message.embeds = list(body["embeds"] or [])
        if "components" in body:
            message.components = list(body["components"] or [])
        if "allowed_mentions" in body:
            message.allowed_mentions = body["allowed_mentions"]
        if "flags" in body and body["flags"] is not None:
            keep = message.flags & (limits.EPHEMERAL | limits.COMPONENTS_V2)
            message.flags = keep | (int(body["flags"]) & ~limits.EPHEMERAL & ~limits.LOADING)
        message.flags &= ~limits.LOADING
        if "attachments" in body and body["attachments"] is not None:
            kept: list[AttachmentRecord] = []
            for item in body["attachments"]:
                item_id = int(item["id"])
                if item_id in new_files:
                    kept.append(new_files.pop(item_id))
                else:
                    kept.extend(a for a in message.attachments if a.id == item_id)
            message.attachments = kept + list(new_files.values())
        elif new_files:
            message.attachments = message.attachments + list(new_files.values())
        message.edited_at = self.clock()
        self.store_message(message)

    def check_nonce(
        self, channel: ChannelRecord, author: UserRecord, body: dict[str, Any]
    ) -> MessageRecord | None:
        """The earlier message for a repeated ``enforce_nonce`` post, if any."""
        nonce = body.get("nonce")
        if nonce is None or not body.get("enforce_nonce"):
            return None
        key = (channel.id, author.id, str(nonce))
        now = time.monotonic()
        earlier = self._nonces.get(key)
        if earlier is not None and now - earlier[1] < NONCE_WINDOW_S:
            self.repeated_nonces.append(str(nonce))
            return self.messages.get(earlier[0])
        return None

    def remember_nonce(self, message: MessageRecord, body: dict[str, Any]) -> None:
        if body.get("nonce") is not None and body.get("enforce_nonce"):
            self._nonces[(message.channel_id, message.author.id, str(body["nonce"]))] = (
                message.id,
                time.monotonic(),
            )

    def delete_message(self, message: MessageRecord) -> None:
        message.deleted = True
        self.changed.notify()
        if message.ephemeral:
            return
        data = {"id": str(message.id), "channel_id": str(message.channel_id)}
        if message.guild_id is not None:
            data["guild_id"] = str(message.guild_id)
        intent = GUILD_MESSAGES if message.guild_id is not None else DIRECT_MESSAGES
        self.dispatch("MESSAGE_DELETE", data, guild_id=message.guild_id, intent=intent)

    # ------------------------------------------------------------------ queries for tests

    def _channel_of(self, where: ChannelRecord | UserRecord) -> ChannelRecord | None:
        if isinstance(where, UserRecord):
            return self.dm_channel(where, create=False)
        return where

    def messages_in(
        self,
        channel: ChannelRecord | UserRecord,
        *,
        include_ephemeral: bool = False,
        include_deleted: bool = False,
    ) -> list[MessageRecord]:
        """Messages in a channel/thread (or the DM with a user), oldest first by id."""
        target = self._channel_of(channel)
        if target is None:
            return []
        found = [
            m
            for m in self.messages.values()
            if m.channel_id == target.id
            and (include_ephemeral or not m.ephemeral)
            and (include_deleted or not m.deleted)
        ]
        return sorted(found, key=lambda m: m.id)

    def dms_to(self, user: UserRecord) -> list[MessageRecord]:
        """What the bot sent this user by DM."""
        return [m for m in self.messages_in(user) if m.author.id == self.bot_user.id]

    def threads_in(self, channel: ChannelRecord) -> list[ChannelRecord]:
        return [c for c in self.channels.values() if c.parent_id == channel.id and c.is_thread]

    def bot_messages(self, *, include_ephemeral: bool = True) -> list[MessageRecord]:
        return [
            m
            for m in self.messages.values()
            if m.author.id == self.bot_user.id
            and not m.deleted
            and (include_ephemeral or not m.ephemeral)
        ]

    def pinging_messages(self) -> list[MessageRecord]:
        """Bot messages that would notify someone (per their ``allowed_mentions``)."""
        return [m for m in self.bot_messages() if m.pings]

    def synced_commands(self, guild: GuildRecord | None = None) -> list[dict[str, Any]]:
        return list(
            self.global_commands if guild is None else self.guild_commands.get(guild.id, [])
        )

    def find_command(self, name: str, guild_id: int | None) -> dict[str, Any] | None:
        if guild_id is not None:
            found = next(
                (
                    c
                    for c in self.guild_commands.get(guild_id, [])
                    if c["name"] == name and c.get("type", 1) == 1
                ),
                None,
            )
            if found is not None:
                return found
        return next(
            (c for c in self.global_commands if c["name"] == name and c.get("type", 1) == 1), None
        )

    async def wait_for_message(
        self,
        channel: ChannelRecord | UserRecord | None = None,
        predicate: Callable[[MessageRecord], bool] | None = None,
        timeout: float = 5.0,
        *,
        author: UserRecord | None = None,
        include_ephemeral: bool = True,
    ) -> MessageRecord:
        """The next bot message (or ``author``'s) not returned by an earlier call, in creation order.

        ``channel`` may be a user: their DM channel with the bot.
        """
        author_id = (author or self.bot_user).id

        def find() -> MessageRecord | None:
            target = self._channel_of(channel) if channel is not None else None
            if channel is not None and target is None:
                return None
            for message in self.messages.values():
                if (
                    message.id not in self._consumed
                    and not message.deleted
                    and message.author.id == author_id
                    and (target is None or message.channel_id == target.id)
                    and (include_ephemeral or not message.ephemeral)
                    and (predicate is None or predicate(message))
                ):
                    return message
            return None

        message = await self.changed.wait_until(
            find, timeout, "a bot message" if author is None else f"a message by {author.name}"
        )
        self._consumed.add(message.id)
        return message

    async def wait_for_violation(self, kind: str, timeout: float = 5.0) -> Violation:
        return await self.changed.wait_until(
            lambda: next((v for v in self.violations if v.kind == kind), None),
            timeout,
            f"a {kind!r} violation",
        )

    async def wait_until(
        self, condition: Callable[[], Any], timeout: float = 5.0, what: str = "a condition"
    ) -> Any:
        """Waits for any condition over the server's state (re-checked on every change)."""
        return await self.changed.wait_until(condition, timeout, what)


__all__ = ["FaultRule", "LoopbackDiscord", "LoopbackTimeout", "LoopbackUsageError", "RequestLog"]
