"""What a test does as Discord's users: run commands, click, submit modals, talk.

Mixed into :class:`~tests.loopback.server.LoopbackDiscord`. Every action builds
the payload Discord would send, refusing (with :class:`LoopbackUsageError`)
what Discord's client would not let a user do: unknown or unsynced commands,
missing required options, clicking a disabled or absent button.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import logging
import secrets
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .gateway import (
    DIRECT_MESSAGE_REACTIONS,
    DIRECT_MESSAGES,
    GUILD_MESSAGE_REACTIONS,
    GUILD_MESSAGES,
    GatewaySession,
)
from .handles import (
    ANSWER_TIMEOUT_S,
    APPLICATION_COMMAND,
    AUTOCOMPLETE,
    MESSAGE_COMPONENT,
    MODAL_SUBMIT,
    RESPONSE_DEADLINE_S,
    InteractionHandle,
    LoopbackTimeout,
)
from .records import (
    ADMINISTRATOR,
    DM,
    SEND_MESSAGES,
    SEND_MESSAGES_IN_THREADS,
    USE_APPLICATION_COMMANDS,
    AttachmentRecord,
    ChannelRecord,
    MemberRecord,
    MessageRecord,
    RoleRecord,
    UserRecord,
    channel_permissions,
)

if TYPE_CHECKING:
    import discord

    from .server import LoopbackDiscord

_log = logging.getLogger(__name__)

STRING, INTEGER, BOOLEAN, USER, CHANNEL, ROLE, MENTIONABLE, NUMBER, ATTACHMENT = (
    3,
    4,
    5,
    6,
    7,
    8,
    9,
    10,
    11,
)
SUBCOMMAND_TYPES = (1, 2)
BUTTON, STRING_SELECT, TEXT_INPUT, USER_SELECT, ROLE_SELECT, MENTIONABLE_SELECT, CHANNEL_SELECT = (
    2,
    3,
    4,
    5,
    6,
    7,
    8,
)
ACTION_ROW, LABEL = 1, 18
FileLike = tuple[str, bytes] | AttachmentRecord


class LoopbackUsageError(Exception):
    """The test asked for something a Discord user could not do."""


@dataclass
class RunningBot:
    client: discord.Client
    task: asyncio.Task[None]


class HarnessMixin:
    """User-side actions and bot lifecycle; state lives on the server."""

    def __init__(self) -> None:
        self._bots: list[RunningBot] = []
        self._deadlines: list[asyncio.TimerHandle] = []

    # ------------------------------------------------------------------ bot lifecycle

    async def start_bot(
        self: LoopbackDiscord,
        client: discord.Client,
        token: str | None = None,
        *,
        timeout: float = 20.0,
        guild_ready_timeout: float = 0.25,
        fast_identify: bool = True,
    ) -> None:
        """Runs ``client.start()`` against this server and returns once ``on_ready`` handlers finished.

        ``guild_ready_timeout`` shortens discord.py's wait for further GUILD_CREATEs
        (2 s by default); ``fast_identify`` skips its 5 s pause between IDENTIFYs.
        An exception escaping one of the client's event handlers is recorded as an
        ``unhandled_error`` violation (discord.py would only log it).
        """
        self.patch_discord()
        client._connection.guild_ready_timeout = guild_ready_timeout
        if fast_identify:

            async def identify_now(shard_id: int | None, *, initial: bool = False) -> None:
                return None

            client.before_identify_hook = identify_now  # type: ignore[method-assign]
        self._record_event_errors(client)
        ready_tasks: list[asyncio.Task[Any]] = []
        schedule = client._schedule_event

        def capture(coro: Any, event_name: str, *args: Any, **kwargs: Any) -> asyncio.Task[Any]:
            task = schedule(coro, event_name, *args, **kwargs)
            if event_name == "on_ready":
                ready_tasks.append(task)
            return task

        client._schedule_event = capture  # type: ignore[method-assign]
        task = asyncio.create_task(
            client.start(token or self.token), name=f"loopback bot {type(client).__name__}"
        )
        running = RunningBot(client, task)
        self._bots.append(running)
        try:
            await self._wait_ready(running, timeout)
            if ready_tasks:
                await asyncio.wait_for(asyncio.gather(*ready_tasks), timeout)
        except BaseException:
            # The caller gets the start-up error itself, so it is not also recorded as a crash
            self._bots.remove(running)
            await self._close(running, timeout=5.0)
            raise
        finally:
            with contextlib.suppress(AttributeError):
                del client._schedule_event

    def _record_event_errors(self: LoopbackDiscord, client: discord.Client) -> None:
        log_error = client.on_error

        async def on_error(event_method: str, /, *args: Any, **kwargs: Any) -> None:
            self.violate("unhandled_error", f"{event_method} raised:\n{traceback.format_exc()}")
            await log_error(event_method, *args, **kwargs)

        client.on_error = on_error  # type: ignore[method-assign]

    async def _wait_ready(self, running: RunningBot, timeout: float) -> None:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while not running.client.is_ready():
            if running.task.done():
                running.task.result()  # re-raises the start-up error
                raise RuntimeError("client.start() returned before the client was ready")
            if loop.time() > deadline:
                raise LoopbackTimeout(f"the bot was not ready within {timeout:.0f}s")
            await asyncio.sleep(0.01)

    async def stop_bot(
        self, client: discord.Client | None = None, *, timeout: float = 10.0
    ) -> None:
        """Closes the client (all started clients when None) and waits for ``start()`` to return."""
        for running in [r for r in self._bots if client is None or r.client is client]:
            self._bots.remove(running)
            error = await self._close(running, timeout)
            if error is not None:
                self.violate("bot_crashed", f"client.start() raised {error!r}")  # type: ignore[attr-defined]

    @staticmethod
    async def _close(running: RunningBot, timeout: float) -> BaseException | None:
        """Closes the client and waits for ``start()``; returns what it raised, if anything."""
        await running.client.close()
        done, _ = await asyncio.wait({running.task}, timeout=timeout)
        if not done:
            running.task.cancel()
            return None
        return None if running.task.cancelled() else running.task.exception()

    async def stop_all_bots(self) -> None:
        for running in list(self._bots):
            try:
                await self.stop_bot(running.client)
            except Exception:  # closing at teardown must not hide the test's own failure
                _log.exception("stopping a bot at teardown failed")

    @property
    def running_clients(self) -> list[discord.Client]:
        return [r.client for r in self._bots]

    async def wait_for_session(
        self: LoopbackDiscord, shard: int | None = None, timeout: float = 10.0
    ) -> GatewaySession:
        """Waits until a gateway session (for ``shard``) is identified and connected, e.g. after a resume."""

        def connected() -> GatewaySession | None:
            return next(
                (
                    s
                    for s in self.gateway.live_sessions()
                    if s.connection is not None and (shard is None or s.shard[0] == shard)
                ),
                None,
            )

        return await self.changed.wait_until(connected, timeout, "a connected gateway session")

    async def drop_gateway(
        self: LoopbackDiscord, resume: bool = True, *, shard: int | None = None
    ) -> int:
        """Closes the bot's gateway socket(s); with ``resume`` the session can be resumed (events queue up)."""
        return await self.gateway.drop(resume=resume, shard=shard)

    def delay_gateway_ack(self: LoopbackDiscord, seconds: float) -> None:
        """Delays every HEARTBEAT_ACK by ``seconds`` (0 restores prompt acks)."""
        self.gateway.ack_delay = seconds

    # ------------------------------------------------------------------ interactions: plumbing

    def describe(self: LoopbackDiscord, ix: InteractionHandle) -> str:
        data = ix.data
        if ix.type in (APPLICATION_COMMAND, AUTOCOMPLETE):
            name = " ".join(
                [data.get("name", "?"), *self._subcommand_path(data.get("options") or [])]
            )
            what = f"/{name}" if ix.type == APPLICATION_COMMAND else f"autocomplete of /{name}"
        elif ix.type == MESSAGE_COMPONENT:
            what = f"component {data.get('custom_id')!r}"
        else:
            what = f"modal {data.get('custom_id')!r}"
        return f"{what} by {ix.user.name}"

    @staticmethod
    def _subcommand_path(options: list[dict[str, Any]]) -> list[str]:
        for option in options:
            if option.get("type") in SUBCOMMAND_TYPES:
                return [option["name"], *HarnessMixin._subcommand_path(option.get("options") or [])]
        return []

    def flag_timeout(self: LoopbackDiscord, ix: InteractionHandle) -> None:
        if ix.timed_out or ix.response is not None:
            return
        ix.timed_out = True
        self.violate(
            "interaction_timeout",
            f"{self.describe(ix)} got no response within {RESPONSE_DEADLINE_S:.0f} s",
        )
        ix.changed.notify()

    def cancel_deadlines(self) -> None:
        for handle in self._deadlines:
            handle.cancel()
        self._deadlines.clear()

    def _interaction_channel(
        self: LoopbackDiscord, user: UserRecord, where: ChannelRecord | UserRecord | None
    ) -> ChannelRecord:
        if (
            where is None
            or where is user
            or (isinstance(where, UserRecord) and where.id == user.id)
        ):
            channel = self.dm_channel(user)
            assert channel is not None
            return channel
        if isinstance(where, UserRecord):
            raise LoopbackUsageError(
                "interactions happen in a channel or in the user's own DM with the bot"
            )
        return where

    def _new_interaction(
        self: LoopbackDiscord,
        kind: int,
        user: UserRecord,
        channel: ChannelRecord,
        data: dict[str, Any],
        *,
        message: MessageRecord | None = None,
    ) -> InteractionHandle:
        if not self.gateway.sessions_for(channel.guild_id):
            where = "DMs (shard 0)" if channel.guild_id is None else f"guild {channel.guild_id}"
            raise LoopbackUsageError(
                f"no bot gateway session receives {where}: call start_bot first"
            )
        interaction_id = self.ids.next()
        payload = self._interaction_payload(interaction_id, kind, user, channel, data, message)
        loop = asyncio.get_running_loop()
        ix = InteractionHandle(
            self,
            id=interaction_id,
            token=payload["token"],
            type=kind,
            user=user,
            channel=channel,
            payload=payload,
            source_message=message,
            created=loop.time(),
        )
        self.interactions[ix.id] = ix
        self.interactions_by_token[ix.token] = ix
        self._deadlines.append(loop.call_later(RESPONSE_DEADLINE_S, self.flag_timeout, ix))
        self.dispatch("INTERACTION_CREATE", payload, guild_id=channel.guild_id, intent=None)
        return ix

    def _interaction_payload(
        self: LoopbackDiscord,
        interaction_id: int,
        kind: int,
        user: UserRecord,
        channel: ChannelRecord,
        data: dict[str, Any],
        message: MessageRecord | None,
    ) -> dict[str, Any]:
        payload: dict[str, Any] = {
            "id": str(interaction_id),
            "application_id": str(self.application_id),
            "type": kind,
            "data": data,
            "token": f"loopback-{interaction_id}-{secrets.token_hex(12)}",
            "version": 1,
            "locale": "en-US",
            "entitlements": [],
            "attachment_size_limit": 10 * 1024 * 1024,
            "app_permissions": str(self.permissions_of(self.bot_user, channel)),
            "channel_id": str(channel.id),
        }
        channel_data = self.channel_payload(channel)
        if channel.guild_id is not None:
            guild = self.guilds[channel.guild_id]
            member = self.member(guild, user)
            perms = self.permissions_of(user, channel)
            payload.update(
                guild_id=str(guild.id),
                guild_locale="en-US",
                guild={"id": str(guild.id), "locale": "en-US", "features": []},
                member=member.payload(permissions=perms),
                context=0,
                authorizing_integration_owners={"0": str(guild.id)},
                channel={**channel_data, "permissions": str(perms)},
            )
        else:
            payload.update(
                user=user.payload(),
                context=1,
                authorizing_integration_owners={"0": "0"},
                channel=channel_data,
            )
        if message is not None:
            payload["message"] = self.message_payload(message)
        return payload

    async def _answered(
        self, ix: InteractionHandle, wait: bool, timeout: float
    ) -> InteractionHandle:
        if not wait:
            return ix
        await ix.changed.wait_until(
            lambda: ix.response is not None or ix.rejected,
            timeout,
            f"the bot to answer {self.describe(ix)}",
        )  # type: ignore[attr-defined]
        if ix.response is not None and ix.response.deferred:
            # The answer that follows the acknowledgement: work may take longer than
            # the acknowledgement may (Discord allows 15 minutes)
            await ix.wait_done(max(timeout, ANSWER_TIMEOUT_S))
        return ix

    # ------------------------------------------------------------------ slash commands

    async def slash(
        self: LoopbackDiscord,
        user: UserRecord,
        channel: ChannelRecord | UserRecord | None,
        command: str,
        *,
        options: dict[str, Any] | None = None,
        timeout: float = 5.0,
        wait: bool = True,
        **values: Any,
    ) -> InteractionHandle:
        """Runs ``/command`` ("group sub" for subcommands) as ``user``; waits for the initial response.

        Options are keyword arguments (or ``options=`` for names that are not
        identifiers): users/members, channels and roles as records, attachments
        as ``(filename, bytes)``. ``channel=None`` or the user means their DM.
        """
        where = self._interaction_channel(user, channel)
        definition, path = self._command_for(command, where)
        self._check_usable(definition, user, where)
        leaves, wrap = self._descend(definition, path)
        resolved: dict[str, dict[str, Any]] = {}
        built = self._build_options(
            leaves, {**(options or {}), **values}, where, resolved, focused=None
        )
        data = self._command_data(definition, wrap(built), resolved)
        ix = self._new_interaction(APPLICATION_COMMAND, user, where, data)
        return await self._answered(ix, wait, timeout)

    async def autocomplete(
        self: LoopbackDiscord,
        user: UserRecord,
        channel: ChannelRecord | UserRecord | None,
        command: str,
        focused: str,
        *,
        options: dict[str, Any] | None = None,
        timeout: float = 5.0,
        **values: Any,
    ) -> list[dict[str, Any]]:
        """Asks for suggestions for option ``focused`` (its typed text is ``values[focused]`` or "")."""
        where = self._interaction_channel(user, channel)
        definition, path = self._command_for(command, where)
        self._check_usable(definition, user, where)
        leaves, wrap = self._descend(definition, path)
        target = next((o for o in leaves if o["name"] == focused), None)
        if target is None or not target.get("autocomplete"):
            raise LoopbackUsageError(f"option {focused!r} of /{command} does not autocomplete")
        resolved: dict[str, dict[str, Any]] = {}
        built = self._build_options(
            leaves, {**(options or {}), **values}, where, resolved, focused=focused
        )
        ix = self._new_interaction(
            AUTOCOMPLETE, user, where, self._command_data(definition, wrap(built), resolved)
        )
        await ix.wait_response(timeout)
        return ix.choices

    def _command_for(
        self: LoopbackDiscord, command: str, channel: ChannelRecord
    ) -> tuple[dict[str, Any], list[str]]:
        names = command.lstrip("/").split()
        if not names:
            raise LoopbackUsageError("empty command name")
        definition = self.find_command(names[0], channel.guild_id)
        if definition is None:
            synced = sorted(
                {
                    c["name"]
                    for c in self.global_commands
                    + self.guild_commands.get(channel.guild_id or 0, [])
                }
            )
            raise LoopbackUsageError(f"/{names[0]} is not synced here; synced commands: {synced}")
        return definition, names[1:]

    def _check_usable(
        self: LoopbackDiscord, definition: dict[str, Any], user: UserRecord, channel: ChannelRecord
    ) -> None:
        contexts = definition.get("contexts")
        name = definition["name"]
        if channel.type == DM:
            if (
                definition.get("guild_id")
                or definition.get("dm_permission") is False
                or (contexts is not None and 1 not in contexts)
            ):
                raise LoopbackUsageError(f"/{name} cannot be used in DMs")
            return
        if contexts is not None and 0 not in contexts:
            raise LoopbackUsageError(f"/{name} cannot be used in servers")
        guild = self.guilds[channel.guild_id or 0]
        member = self.member(guild, user)
        guild_perms = channel_permissions(guild, member, None, self.channels)
        required = definition.get("default_member_permissions")
        if required is not None and not guild_perms & ADMINISTRATOR:
            needed = int(required)
            if needed == 0 or guild_perms & needed != needed:
                raise LoopbackUsageError(
                    f"{user.name} cannot see /{name} (needs permissions {needed})"
                )
        if not self.permissions_of(user, channel) & USE_APPLICATION_COMMANDS:
            raise LoopbackUsageError(
                f"{user.name} may not use application commands in #{channel.name}"
            )

    @staticmethod
    def _descend(
        definition: dict[str, Any], path: list[str]
    ) -> tuple[list[dict[str, Any]], Callable[[list[dict[str, Any]]], list[dict[str, Any]]]]:
        node, chain = definition, []
        for name in path:
            child = next(
                (
                    o
                    for o in node.get("options") or []
                    if o["name"] == name and o["type"] in SUBCOMMAND_TYPES
                ),
                None,
            )
            if child is None:
                subs = [
                    o["name"] for o in node.get("options") or [] if o["type"] in SUBCOMMAND_TYPES
                ]
                raise LoopbackUsageError(
                    f"/{definition['name']} has no subcommand {name!r}; it has {subs}"
                )
            chain.append(child)
            node = child
        subs = [o["name"] for o in node.get("options") or [] if o["type"] in SUBCOMMAND_TYPES]
        if subs:
            raise LoopbackUsageError(
                f"/{' '.join([definition['name'], *path])} needs a subcommand: {subs}"
            )

        def wrap(leaf_options: list[dict[str, Any]]) -> list[dict[str, Any]]:
            result = leaf_options
            for child in reversed(chain):
                result = [{"name": child["name"], "type": child["type"], "options": result}]
            return result

        return list(node.get("options") or []), wrap

    @staticmethod
    def _command_data(
        definition: dict[str, Any], options: list[dict[str, Any]], resolved: dict[str, Any]
    ) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": definition["id"],
            "name": definition["name"],
            "type": 1,
            "options": options,
        }
        if definition.get("guild_id"):
            data["guild_id"] = definition["guild_id"]
        if resolved:
            data["resolved"] = resolved
        return data

    def _build_options(
        self: LoopbackDiscord,
        definitions: list[dict[str, Any]],
        values: dict[str, Any],
        channel: ChannelRecord,
        resolved: dict[str, dict[str, Any]],
        *,
        focused: str | None,
    ) -> list[dict[str, Any]]:
        known = {d["name"] for d in definitions}
        unknown = sorted(set(values) - known)
        if unknown:
            raise LoopbackUsageError(
                f"unknown option(s) {unknown}; the command takes {sorted(known)}"
            )
        built = []
        for definition in definitions:
            name = definition["name"]
            if name == focused:
                built.append(
                    {
                        "name": name,
                        "type": definition["type"],
                        "value": str(values.get(name, "")),
                        "focused": True,
                    }
                )
                continue
            if values.get(name) is None:
                if definition.get("required") and focused is None:
                    raise LoopbackUsageError(f"option {name!r} is required")
                continue
            value = self._option_value(
                definition, values[name], channel, resolved, strict=focused is None
            )
            built.append({"name": name, "type": definition["type"], "value": value})
        return built

    def _option_value(
        self: LoopbackDiscord,
        definition: dict[str, Any],
        value: Any,
        channel: ChannelRecord,
        resolved: dict[str, dict[str, Any]],
        *,
        strict: bool,
    ) -> Any:
        kind, name = definition["type"], definition["name"]
        if kind in (STRING, INTEGER, NUMBER, BOOLEAN):
            return self._scalar_value(definition, value, strict=strict)
        if kind == USER or (kind == MENTIONABLE and isinstance(value, (UserRecord, MemberRecord))):
            return self._resolve_user(value, channel, resolved, name)
        if kind == ROLE or (kind == MENTIONABLE and isinstance(value, RoleRecord)):
            if not isinstance(value, RoleRecord):
                raise LoopbackUsageError(f"option {name!r} takes a role record")
            resolved.setdefault("roles", {})[str(value.id)] = value.payload()
            return str(value.id)
        if kind == CHANNEL:
            return self._resolve_channel(definition, value, channel, resolved)
        if kind == ATTACHMENT:
            attachment = (
                value if isinstance(value, AttachmentRecord) else self.new_attachment(*value)
            )
            resolved.setdefault("attachments", {})[str(attachment.id)] = attachment.payload()
            return str(attachment.id)
        raise LoopbackUsageError(f"option {name!r} has unsupported type {kind}")

    @staticmethod
    def _scalar_value(definition: dict[str, Any], value: Any, *, strict: bool) -> Any:
        kind, name = definition["type"], definition["name"]
        expected = {STRING: (str,), INTEGER: (int,), NUMBER: (int, float), BOOLEAN: (bool,)}[kind]
        if not isinstance(value, expected) or (kind != BOOLEAN and isinstance(value, bool)):
            raise LoopbackUsageError(f"option {name!r} takes {expected[0].__name__}, got {value!r}")
        if not strict:
            return value
        choices = definition.get("choices") or []
        if choices and value not in [c["value"] for c in choices]:
            raise LoopbackUsageError(
                f"option {name!r} must be one of {[c['value'] for c in choices]}"
            )
        if kind == STRING:
            low, high = definition.get("min_length"), definition.get("max_length")
            if (low is not None and len(value) < low) or (high is not None and len(value) > high):
                raise LoopbackUsageError(f"option {name!r} must be {low}..{high} characters long")
        if kind in (INTEGER, NUMBER):
            low, high = definition.get("min_value"), definition.get("max_value")
            if (low is not None and value < low) or (high is not None and value > high):
                raise LoopbackUsageError(f"option {name!r} must be within {low}..{high}")
        return value

    def _resolve_user(
        self: LoopbackDiscord,
        value: Any,
        channel: ChannelRecord,
        resolved: dict[str, dict[str, Any]],
        name: str,
    ) -> str:
        user = value.user if isinstance(value, MemberRecord) else value
        if not isinstance(user, UserRecord):
            raise LoopbackUsageError(f"option {name!r} takes a user or member record")
        resolved.setdefault("users", {})[str(user.id)] = user.payload()
        if channel.guild_id is not None:
            member = self.guilds[channel.guild_id].members.get(user.id)
            if member is not None:
                member_data = member.payload(
                    with_user=False, permissions=self.permissions_of(user, channel)
                )
                resolved.setdefault("members", {})[str(user.id)] = member_data
        return str(user.id)

    def _resolve_channel(
        self: LoopbackDiscord,
        definition: dict[str, Any],
        value: Any,
        channel: ChannelRecord,
        resolved: dict[str, dict[str, Any]],
    ) -> str:
        if not isinstance(value, ChannelRecord):
            raise LoopbackUsageError(f"option {definition['name']!r} takes a channel record")
        allowed = definition.get("channel_types")
        if allowed and value.type not in allowed:
            raise LoopbackUsageError(
                f"option {definition['name']!r} accepts channel types {allowed}, not {value.type}"
            )
        data = self.channel_payload(value)
        data["permissions"] = str(self.permissions_of(self.bot_user, value))
        resolved.setdefault("channels", {})[str(value.id)] = data
        return str(value.id)

    # ------------------------------------------------------------------ components and modals

    def _live_message(self: LoopbackDiscord, message: MessageRecord | int) -> MessageRecord:
        message_id = message if isinstance(message, int) else message.id
        live = self.messages.get(message_id)
        if live is None or live.deleted:
            raise LoopbackUsageError(f"message {message_id} does not exist (or was deleted)")
        return live

    def _clickable(
        self: LoopbackDiscord,
        user: UserRecord,
        message: MessageRecord | int,
        custom_id: str,
        kinds: tuple[int, ...],
    ) -> tuple[MessageRecord, dict[str, Any]]:
        live = self._live_message(message)
        component = live.find_component(custom_id)
        if component is None:
            raise LoopbackUsageError(
                f"message {live.id} has no component {custom_id!r}; it has {live.custom_ids}"
            )
        if component.get("type") not in kinds:
            raise LoopbackUsageError(
                f"component {custom_id!r} is type {component.get('type')}, not one of {kinds}"
            )
        if component.get("disabled"):
            raise LoopbackUsageError(f"component {custom_id!r} is disabled")
        if live.ephemeral and (live.interaction_metadata or {}).get("user", {}).get("id") != str(
            user.id
        ):
            raise LoopbackUsageError(f"{user.name} cannot see ephemeral message {live.id}")
        return live, component

    async def click(
        self: LoopbackDiscord,
        user: UserRecord,
        message: MessageRecord | int,
        custom_id: str,
        *,
        timeout: float = 5.0,
        wait: bool = True,
    ) -> InteractionHandle:
        """Presses the button ``custom_id`` on ``message`` (a record or id)."""
        live, component = self._clickable(user, message, custom_id, (BUTTON,))
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": BUTTON}
        if component.get("id") is not None:
            data["id"] = component["id"]
        ix = self._new_interaction(
            MESSAGE_COMPONENT, user, self.channels[live.channel_id], data, message=live
        )
        return await self._answered(ix, wait, timeout)

    async def select(
        self: LoopbackDiscord,
        user: UserRecord,
        message: MessageRecord | int,
        custom_id: str,
        values: list[Any],
        *,
        timeout: float = 5.0,
        wait: bool = True,
    ) -> InteractionHandle:
        """Picks ``values`` in select menu ``custom_id`` (option values, or records for user/role/channel selects)."""
        live, component = self._clickable(
            user,
            message,
            custom_id,
            (STRING_SELECT, USER_SELECT, ROLE_SELECT, MENTIONABLE_SELECT, CHANNEL_SELECT),
        )
        low, high = component.get("min_values", 1), component.get("max_values", 1)
        if not low <= len(values) <= high:
            raise LoopbackUsageError(
                f"select {custom_id!r} takes {low}..{high} values, got {len(values)}"
            )
        channel = self.channels[live.channel_id]
        kind = component["type"]
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": kind}
        if kind == STRING_SELECT:
            offered = [o["value"] for o in component.get("options") or []]
            unknown = [v for v in values if v not in offered]
            if unknown:
                raise LoopbackUsageError(f"select {custom_id!r} offers {offered}, not {unknown}")
            data["values"] = list(values)
        else:
            resolved: dict[str, dict[str, Any]] = {}
            fake = {
                USER_SELECT: USER,
                ROLE_SELECT: ROLE,
                MENTIONABLE_SELECT: MENTIONABLE,
                CHANNEL_SELECT: CHANNEL,
            }[kind]
            data["values"] = [
                self._option_value(
                    {"type": fake, "name": custom_id}, v, channel, resolved, strict=True
                )
                for v in values
            ]
            data["resolved"] = resolved
        ix = self._new_interaction(MESSAGE_COMPONENT, user, channel, data, message=live)
        return await self._answered(ix, wait, timeout)

    async def submit_modal(
        self: LoopbackDiscord,
        user: UserRecord,
        opened_by: InteractionHandle,
        values: dict[str, Any],
        *,
        timeout: float = 5.0,
        wait: bool = True,
    ) -> InteractionHandle:
        """Fills and submits the modal the bot opened in answer to ``opened_by``.

        ``values`` is keyed by each input's custom_id or by its label.
        """
        modal = opened_by.modal
        if modal is None:
            raise LoopbackUsageError(f"{self.describe(opened_by)} was not answered with a modal")
        if user.id != opened_by.user.id:
            raise LoopbackUsageError("only the user who opened a modal can submit it")
        remaining = dict(values)
        components = [
            self._fill(component, remaining, None) for component in modal.get("components") or []
        ]
        if remaining:
            raise LoopbackUsageError(f"the modal has no inputs {sorted(remaining)}")
        data = {"custom_id": modal["custom_id"], "components": components}
        ix = self._new_interaction(
            MODAL_SUBMIT, user, opened_by.channel, data, message=opened_by.source_message
        )
        ix.opened_by = opened_by
        return await self._answered(ix, wait, timeout)

    def _fill(
        self, component: dict[str, Any], values: dict[str, Any], label: str | None
    ) -> dict[str, Any]:
        kind = component.get("type")
        if kind == ACTION_ROW:
            return {
                "type": ACTION_ROW,
                "components": [
                    self._fill(c, values, None) for c in component.get("components") or []
                ],
            }
        if kind == LABEL:
            filled: dict[str, Any] = {
                "type": LABEL,
                "component": self._fill(component["component"], values, component.get("label")),
            }
            if component.get("id") is not None:
                filled["id"] = component["id"]
            return filled
        custom_id = component.get("custom_id")
        result: dict[str, Any] = {"type": kind}
        if component.get("id") is not None:
            result["id"] = component["id"]
        if custom_id is None:
            return result
        result["custom_id"] = custom_id
        key = custom_id if custom_id in values else (label or component.get("label"))
        supplied = values.pop(key, None) if key in values else None
        if kind == TEXT_INPUT:
            result["value"] = self._text_input_value(
                component, supplied, label or component.get("label") or custom_id
            )
        else:
            result["values"] = list(supplied or [])
        return result

    @staticmethod
    def _text_input_value(component: dict[str, Any], supplied: Any, name: str) -> str:
        text = "" if supplied is None else str(supplied)
        if component.get("required", True) and not text:
            raise LoopbackUsageError(f"modal input {name!r} is required")
        low, high = component.get("min_length"), component.get("max_length")
        if text and (
            (low is not None and len(text) < low) or (high is not None and len(text) > high)
        ):
            raise LoopbackUsageError(f"modal input {name!r} must be {low}..{high} characters")
        return text

    # ------------------------------------------------------------------ messages from users

    def _user_files(self: LoopbackDiscord, files: list[FileLike] | None) -> list[AttachmentRecord]:
        return [
            f if isinstance(f, AttachmentRecord) else self.new_attachment(*f) for f in files or []
        ]

    async def dm(
        self: LoopbackDiscord,
        user: UserRecord,
        content: str = "",
        *,
        files: list[FileLike] | None = None,
        at: dt.datetime | None = None,
    ) -> MessageRecord:
        """``user`` sends the bot a direct message (the DM channel is created if needed)."""
        channel = self.dm_channel(user)
        assert channel is not None
        return self._user_post(user, channel, content, files, at, None, DIRECT_MESSAGES)

    async def say(
        self: LoopbackDiscord,
        user: UserRecord,
        channel: ChannelRecord,
        content: str = "",
        *,
        files: list[FileLike] | None = None,
        at: dt.datetime | None = None,
        reply_to: MessageRecord | None = None,
    ) -> MessageRecord:
        """``user`` posts in a guild channel or thread; ``at`` sets the message's time (its snowflake)."""
        if channel.guild_id is None:
            raise LoopbackUsageError("use dm() for direct messages")
        self.member(self.guilds[channel.guild_id], user)
        needed = SEND_MESSAGES_IN_THREADS if channel.is_thread else SEND_MESSAGES
        if not self.permissions_of(user, channel) & needed:
            raise LoopbackUsageError(f"{user.name} may not post in #{channel.name}")
        return self._user_post(user, channel, content, files, at, reply_to, GUILD_MESSAGES)

    def _user_post(
        self: LoopbackDiscord,
        user: UserRecord,
        channel: ChannelRecord,
        content: str,
        files: list[FileLike] | None,
        at: dt.datetime | None,
        reply_to: MessageRecord | None,
        intent: int,
    ) -> MessageRecord:
        if len(content) > 2000:
            raise LoopbackUsageError("Discord's client refuses messages over 2,000 characters")
        body: dict[str, Any] = {"content": content}
        if reply_to is not None:
            body["message_reference"] = {
                "message_id": str(reply_to.id),
                "channel_id": str(reply_to.channel_id),
                "type": 0,
                **({"guild_id": str(channel.guild_id)} if channel.guild_id else {}),
            }
        message = self.build_message(
            channel, user, body, self._user_files(files), at=at, type=19 if reply_to else 0
        )
        self.store_message(message)
        self.dispatch_message("MESSAGE_CREATE", message)
        return message

    async def react(
        self: LoopbackDiscord, user: UserRecord, message: MessageRecord, emoji: str
    ) -> None:
        """``user`` adds a reaction (a unicode emoji, or ``name:id`` for a custom one)."""
        live = self._live_message(message)
        live.reactions.setdefault(emoji, set()).add(user.id)
        data: dict[str, Any] = {
            "user_id": str(user.id),
            "channel_id": str(live.channel_id),
            "message_id": str(live.id),
            "message_author_id": str(live.author.id),
            "burst": False,
            "type": 0,
            "emoji": {"id": None, "name": emoji}
            if ":" not in emoji
            else {"id": emoji.split(":")[1], "name": emoji.split(":")[0], "animated": False},
        }
        if live.guild_id is not None:
            data["guild_id"] = str(live.guild_id)
            data["member"] = self.guilds[live.guild_id].members[user.id].payload()
        intent = GUILD_MESSAGE_REACTIONS if live.guild_id is not None else DIRECT_MESSAGE_REACTIONS
        self.dispatch("MESSAGE_REACTION_ADD", data, guild_id=live.guild_id, intent=intent)


__all__ = ["HarnessMixin", "LoopbackUsageError", "RunningBot"]
