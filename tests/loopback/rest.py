"""The REST routes discord.py uses, with Discord's status codes and error bodies.

Every handler either returns a response or raises :class:`ApiError`, which is
rendered as Discord's JSON error (``{"code", "message", "errors"?}``). When the
error comes from the bot breaking one of Discord's rules, it is also recorded as
a violation on the server.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import email.policy
import json
import re
import urllib.parse
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from email.parser import HeaderParser
from typing import TYPE_CHECKING, Any

from aiohttp import hdrs, web

from . import limits
from .gateway import DIRECT_MESSAGE_REACTIONS, GUILD_MEMBERS, GUILD_MESSAGE_REACTIONS, GUILDS
from .handles import (
    APPLICATION_COMMAND,
    AUTOCOMPLETE,
    AUTOCOMPLETE_RESULT,
    CHANNEL_MESSAGE,
    DEFERRED_CHANNEL_MESSAGE,
    DEFERRED_UPDATE,
    MESSAGE_COMPONENT,
    MODAL,
    MODAL_SUBMIT,
    RESPONSE_DEADLINE_S,
    TOKEN_LIFETIME_S,
    UPDATE_MESSAGE,
    InteractionHandle,
    Rejection,
    RequestLog,
    ResponseRecord,
)
from .openapi import SpecProblem, discord_spec
from .records import (
    ATTACH_FILES,
    CREATE_PRIVATE_THREADS,
    CREATE_PUBLIC_THREADS,
    DM,
    MANAGE_EVENTS,
    MANAGE_MESSAGES,
    MANAGE_THREADS,
    PRIVATE_THREAD,
    SEND_MESSAGES,
    SEND_MESSAGES_IN_THREADS,
    VIEW_CHANNEL,
    AttachmentRecord,
    ChannelRecord,
    GuildRecord,
    MessageRecord,
    iso,
)

if TYPE_CHECKING:
    from .server import LoopbackDiscord

# Which callback types Discord accepts for each interaction type
ALLOWED_CALLBACKS = {
    APPLICATION_COMMAND: {CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE, MODAL},
    MESSAGE_COMPONENT: {
        CHANNEL_MESSAGE,
        DEFERRED_CHANNEL_MESSAGE,
        DEFERRED_UPDATE,
        UPDATE_MESSAGE,
        MODAL,
    },
    AUTOCOMPLETE: {AUTOCOMPLETE_RESULT},
    MODAL_SUBMIT: {CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE, DEFERRED_UPDATE, UPDATE_MESSAGE},
}
CHAT_INPUT_COMMAND_MESSAGE, DEFAULT_MESSAGE, REPLY_MESSAGE = 20, 0, 19


class ApiError(Exception):
    def __init__(
        self,
        status: int,
        code: int,
        message: str,
        *,
        errors: dict[str, Any] | None = None,
        violation: str | None = None,
        detail: str | None = None,
    ) -> None:
        super().__init__(message)
        self.status, self.code, self.message, self.errors = status, code, message, errors
        self.violation, self.detail = violation, detail or message

    def body(self) -> dict[str, Any]:
        body: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.errors:
            body["errors"] = self.errors
        return body


def invalid_form(problems: list[limits.Problem], violation: str) -> ApiError:
    body = limits.form_error(problems)
    return ApiError(
        400,
        50035,
        "Invalid Form Body",
        errors=body["errors"],
        violation=violation,
        detail="; ".join(str(p) for p in problems),
    )


def json_response(
    body: Any, status: int = 200, headers: dict[str, str] | None = None
) -> web.Response:
    # discord.py parses JSON only when the content type is exactly application/json
    return web.Response(
        body=json.dumps(body).encode(),
        status=status,
        headers={"Content-Type": "application/json", **(headers or {})},
    )


def no_content() -> web.Response:
    return web.Response(status=204)


@dataclass
class RestRequest:
    method: str
    path: str
    query: dict[str, str]
    body: Any
    uploads: dict[int, tuple[str, bytes, str | None]] = field(default_factory=dict)
    sent_body: bool = False  # the request carried a body (JSON, or multipart form)

    @property
    def json(self) -> dict[str, Any]:
        return self.body if isinstance(self.body, dict) else {}

    def flag(self, name: str) -> bool:
        return self.query.get(name, "").lower() in ("1", "true")


Handler = Callable[..., Awaitable[web.Response]]


# With a sampling server (``spec_check_every``), each route's first requests all checked.
SPEC_FIRST = 20


class RestApi:
    def __init__(self, server: LoopbackDiscord) -> None:
        self.s = server
        self.routes: list[tuple[str, re.Pattern[str], Handler, bool]] = []
        self._spec_seen: dict[int, int] = {}  # requests per route (index; -1: none)
        self._register()

    def _add(self, method: str, template: str, handler: Handler, *, auth: bool = True) -> None:
        pattern = re.sub(r"\{(\w+)\}", r"(?P<\1>[^/]+)", template)
        self.routes.append((method, re.compile(pattern), handler, auth))

    def _register(self) -> None:
        add = self._add
        add("GET", "/users/@me", self.get_me)
        add("PATCH", "/users/@me", self.get_me)
        add("POST", "/users/@me/channels", self.open_dm)
        add("GET", "/users/{user_id}", self.get_user)
        add("GET", "/oauth2/applications/@me", self.get_application)
        add("GET", "/applications/@me", self.get_application)
        add("GET", "/gateway/bot", self.get_gateway_bot)
        add("GET", "/gateway", self.get_gateway, auth=False)
        for prefix in ("/applications/{app_id}", "/applications/{app_id}/guilds/{guild_id}"):
            add("GET", prefix + "/commands", self.list_commands)
            add("PUT", prefix + "/commands", self.overwrite_commands)
            add("POST", prefix + "/commands", self.upsert_command)
            add("GET", prefix + "/commands/{command_id}", self.get_command)
            add("PATCH", prefix + "/commands/{command_id}", self.edit_command)
            add("DELETE", prefix + "/commands/{command_id}", self.delete_command)
        add("GET", "/applications/{app_id}/guilds/{guild_id}/commands/permissions", self.empty_list)
        add(
            "POST",
            "/interactions/{interaction_id}/{token}/callback",
            self.interaction_callback,
            auth=False,
        )
        add("POST", "/webhooks/{app_id}/{token}", self.followup, auth=False)
        add(
            "GET",
            "/webhooks/{app_id}/{token}/messages/{message_id}",
            self.get_webhook_message,
            auth=False,
        )
        add(
            "PATCH",
            "/webhooks/{app_id}/{token}/messages/{message_id}",
            self.edit_webhook_message,
            auth=False,
        )
        add(
            "DELETE",
            "/webhooks/{app_id}/{token}/messages/{message_id}",
            self.delete_webhook_message,
            auth=False,
        )
        add("GET", "/channels/{channel_id}", self.get_channel)
        add("PATCH", "/channels/{channel_id}", self.edit_channel)
        add("DELETE", "/channels/{channel_id}", self.delete_channel)
        add("GET", "/channels/{channel_id}/messages", self.get_messages)
        add("POST", "/channels/{channel_id}/messages", self.post_message)
        add("POST", "/channels/{channel_id}/messages/bulk-delete", self.bulk_delete)
        add("GET", "/channels/{channel_id}/messages/pins", self.empty_list)
        add("PUT", "/channels/{channel_id}/messages/pins/{message_id}", self.accept)
        add("DELETE", "/channels/{channel_id}/messages/pins/{message_id}", self.accept)
        add("GET", "/channels/{channel_id}/pins", self.empty_list)
        add("PUT", "/channels/{channel_id}/pins/{message_id}", self.accept)
        add("DELETE", "/channels/{channel_id}/pins/{message_id}", self.accept)
        add("GET", "/channels/{channel_id}/messages/{message_id}", self.get_message)
        add("PATCH", "/channels/{channel_id}/messages/{message_id}", self.edit_message)
        add("DELETE", "/channels/{channel_id}/messages/{message_id}", self.delete_message)
        add(
            "PUT",
            "/channels/{channel_id}/messages/{message_id}/reactions/{emoji}/@me",
            self.add_reaction,
        )
        add(
            "DELETE",
            "/channels/{channel_id}/messages/{message_id}/reactions/{emoji}/{user_id}",
            self.remove_reaction,
        )
        add(
            "GET",
            "/channels/{channel_id}/messages/{message_id}/reactions/{emoji}",
            self.get_reactions,
        )
        add(
            "DELETE",
            "/channels/{channel_id}/messages/{message_id}/reactions/{emoji}",
            self.clear_emoji,
        )
        add(
            "DELETE", "/channels/{channel_id}/messages/{message_id}/reactions", self.clear_reactions
        )
        add(
            "POST", "/channels/{channel_id}/messages/{message_id}/threads", self.thread_from_message
        )
        add("POST", "/channels/{channel_id}/threads", self.start_thread)
        add("POST", "/channels/{channel_id}/typing", self.typing)
        add("PUT", "/channels/{channel_id}/thread-members/{user_id}", self.add_thread_member)
        add("DELETE", "/channels/{channel_id}/thread-members/{user_id}", self.remove_thread_member)
        add("GET", "/channels/{channel_id}/thread-members", self.list_thread_members)
        add("GET", "/guilds/{guild_id}", self.get_guild)
        add("GET", "/guilds/{guild_id}/channels", self.get_guild_channels)
        add("GET", "/guilds/{guild_id}/roles", self.get_roles)
        add("GET", "/guilds/{guild_id}/threads/active", self.get_active_threads)
        add("GET", "/guilds/{guild_id}/scheduled-events", self.list_scheduled_events)
        add("POST", "/guilds/{guild_id}/scheduled-events", self.create_scheduled_event)
        add("GET", "/guilds/{guild_id}/scheduled-events/{event_id}", self.get_scheduled_event)
        add("PATCH", "/guilds/{guild_id}/scheduled-events/{event_id}", self.edit_scheduled_event)
        add("DELETE", "/guilds/{guild_id}/scheduled-events/{event_id}", self.delete_scheduled_event)
        add("GET", "/guilds/{guild_id}/members", self.list_members)
        add("GET", "/guilds/{guild_id}/members/{user_id}", self.get_member)
        add("PATCH", "/guilds/{guild_id}/members/{user_id}", self.edit_member)
        add("PUT", "/guilds/{guild_id}/members/{user_id}/roles/{role_id}", self.add_member_role)
        add(
            "DELETE",
            "/guilds/{guild_id}/members/{user_id}/roles/{role_id}",
            self.remove_member_role,
        )

    # ------------------------------------------------------------------ plumbing

    async def handle(self, request: web.Request) -> web.StreamResponse:
        method, path = request.method, "/" + request.match_info["tail"]
        if self.s.rest_latency_s > 0:  # the network between the bot and Discord (load benchmark)
            await asyncio.sleep(self.s.rest_latency_s)
        response = await self._respond(request, method, path)
        self.s.requests.append(RequestLog(method, path, response.status))
        return response

    async def _respond(self, request: web.Request, method: str, path: str) -> web.StreamResponse:
        try:
            parsed = await _parse(request, method, path)
        except ApiError as error:
            return json_response(error.body(), error.status)
        checked = self._spec_checks(method, path)
        # Discord's published spec first: a request that breaks it is refused as Discord
        # would, with no effect; the loopback's own rules (limits.py) judge the rest
        problems = (
            discord_spec().check(method, path, parsed.query, parsed.body, has_body=parsed.sent_body)
            if checked
            else []
        )
        if problems:
            return self._refuse(method, path, problems)
        response = await self._serve(request, method, path, parsed)
        if (
            checked
            and isinstance(response, web.Response)
            and response.status < 300
            and response.body
        ):
            # and the loopback's own answer must be one Discord could have given
            answer = json.loads(response.body)  # type: ignore[arg-type]
            for problem in discord_spec().check_response(method, path, response.status, answer):
                self.s.violate(problem.kind, problem.message, method=method, path=path)
        return response

    def _spec_checks(self, method: str, path: str) -> bool:
        """Whether this request (and its answer) is checked against Discord's spec: always,
        unless the server samples (``spec_check_every`` > 1): then each route's first
        ``SPEC_FIRST`` requests and one in ``spec_check_every`` after them."""
        every = self.s.spec_check_every
        if every <= 1:
            return True
        route = next(
            (
                index
                for index, (route_method, pattern, _, _) in enumerate(self.routes)
                if route_method == method and pattern.fullmatch(path)
            ),
            -1,
        )
        seen = self._spec_seen.get(route, 0)
        self._spec_seen[route] = seen + 1
        return route == -1 or seen < SPEC_FIRST or seen % every == 0

    def _refuse(self, method: str, path: str, problems: list[SpecProblem]) -> web.Response:
        for problem in problems:
            self.s.violate(problem.kind, problem.message, method=method, path=path)
        status = problems[0].status
        if status in (404, 405):
            reason = "Not Found" if status == 404 else "Method Not Allowed"
            return json_response({"message": f"{status}: {reason}", "code": 0}, status)
        form = limits.form_error(
            limits.Problem(p.where, "SPEC_INVALID", p.message) for p in problems
        )
        return json_response(form, 400)

    async def _serve(
        self, request: web.Request, method: str, path: str, parsed: RestRequest
    ) -> web.StreamResponse:
        for rule in self.s.faults:
            if rule.matches(method, path):
                rule.count -= 1
                rule.hits += 1
                return json_response(rule.body, rule.status, rule.headers)
        for route_method, pattern, handler, needs_auth in self.routes:
            match = pattern.fullmatch(path)
            if route_method != method or match is None:
                continue
            if needs_auth and request.headers.get("Authorization") != f"Bot {self.s.token}":
                return json_response({"message": "401: Unauthorized", "code": 0}, 401)
            try:
                params = {k: urllib.parse.unquote(v) for k, v in match.groupdict().items()}
                return await handler(parsed, **params)
            except ApiError as error:
                if error.violation:
                    self.s.violate(error.violation, error.detail, method=method, path=path)
                return json_response(error.body(), error.status)
        self.s.violate(
            "unsupported_route",
            "the loopback does not implement this route (extend tests/loopback/rest.py)",
            method=method,
            path=path,
        )
        return json_response({"message": "404: Not Found", "code": 0}, 404)

    # ------------------------------------------------------------------ lookups

    def _channel(self, channel_id: str) -> ChannelRecord:
        channel = self.s.channels.get(int(channel_id))
        if channel is None or channel.deleted:
            raise ApiError(404, 10003, "Unknown Channel")
        if channel.guild_id is not None and not self.s.bot_can(channel, "VIEW_CHANNEL"):
            raise ApiError(
                403,
                50001,
                "Missing Access",
                violation="missing_permissions",
                detail=f"the bot cannot view #{channel.name}",
            )
        return channel

    def _guild(self, guild_id: str) -> GuildRecord:
        guild = self.s.guilds.get(int(guild_id))
        if guild is None:
            raise ApiError(404, 10004, "Unknown Guild")
        return guild

    def _message(self, channel: ChannelRecord, message_id: str) -> MessageRecord:
        message = self.s.messages.get(int(message_id)) if message_id.isdigit() else None
        if (
            message is None
            or message.channel_id != channel.id
            or message.deleted
            or message.ephemeral
        ):
            raise ApiError(404, 10008, "Unknown Message")
        return message

    def _check_app(self, app_id: str) -> None:
        if int(app_id) != self.s.application_id:
            raise ApiError(403, 50001, "Missing Access")

    def _uploads(self, req: RestRequest, body: dict[str, Any]) -> dict[int, AttachmentRecord]:
        """Uploaded files keyed by their ``files[n]`` index, described by ``attachments`` entries."""
        described = {
            int(a["id"]): a for a in body.get("attachments") or [] if str(a.get("id", "")).isdigit()
        }
        total = sum(len(data) for _, data, _ in req.uploads.values())
        if total > limits.MAX_UPLOAD_BYTES:
            raise ApiError(
                413,
                40005,
                "Request entity too large",
                violation="upload_too_large",
                detail=f"{total} bytes of files > {limits.MAX_UPLOAD_BYTES}",
            )
        result: dict[int, AttachmentRecord] = {}
        for index, (filename, data, content_type) in sorted(req.uploads.items()):
            meta = described.get(index, {})
            result[index] = self.s.new_attachment(
                meta.get("filename") or filename,
                data,
                description=meta.get("description"),
                content_type=content_type,
            )
        return result

    def _check_message_body(
        self, body: dict[str, Any], files: int, *, editing: bool = False
    ) -> None:
        problems = limits.check_message(body, files=files)
        if problems:
            raise invalid_form(problems, "invalid_message")
        if not editing and limits.is_empty_message(body, files=files):
            raise ApiError(
                400,
                50006,
                "Cannot send an empty message",
                violation="empty_message",
                detail="no content, embeds, components or files",
            )

    # ------------------------------------------------------------------ users, app, gateway

    async def get_me(self, req: RestRequest) -> web.Response:
        return json_response(
            {
                **self.s.bot_user.payload(),
                "verified": True,
                "mfa_enabled": False,
                "email": None,
                "locale": "en-US",
            }
        )

    async def get_user(self, req: RestRequest, user_id: str) -> web.Response:
        user = self.s.users.get(int(user_id)) if user_id.isdigit() else None
        if user is None:
            raise ApiError(404, 10013, "Unknown User")
        return json_response(user.payload())

    async def get_application(self, req: RestRequest) -> web.Response:
        return json_response(self.s.application_payload())

    async def get_gateway_bot(self, req: RestRequest) -> web.Response:
        return json_response(
            {
                "url": self.s.gateway_url,
                "shards": self.s.recommended_shards,
                "session_start_limit": {
                    "total": 1000,
                    "remaining": 999,
                    "reset_after": 0,
                    "max_concurrency": 1,
                },
            }
        )

    async def get_gateway(self, req: RestRequest) -> web.Response:
        return json_response({"url": self.s.gateway_url})

    async def open_dm(self, req: RestRequest) -> web.Response:
        recipient = self.s.users.get(int(req.json.get("recipient_id", 0)))
        if recipient is None:
            raise ApiError(400, 50033, "Invalid Recipient(s)")
        return json_response(self.s.channel_payload(self.s.dm_channel(recipient)))  # type: ignore[arg-type]

    async def empty_list(self, req: RestRequest, **_: str) -> web.Response:
        return json_response([])

    async def accept(self, req: RestRequest, **_: str) -> web.Response:
        return no_content()

    # ------------------------------------------------------------------ application commands

    def _command_list(self, app_id: str, guild_id: str | None) -> list[dict[str, Any]]:
        self._check_app(app_id)
        if guild_id is None:
            return self.s.global_commands
        guild = self._guild(guild_id)
        return self.s.guild_commands.setdefault(guild.id, [])

    def _normalise_command(
        self, data: dict[str, Any], guild_id: str | None, existing: list[dict[str, Any]]
    ) -> dict[str, Any]:
        kind = data.get("type", 1)
        same = next(
            (c for c in existing if c["name"] == data.get("name") and c.get("type", 1) == kind),
            None,
        )
        command: dict[str, Any] = {
            "id": same["id"] if same else str(self.s.ids.next()),
            "application_id": str(self.s.application_id),
            "version": str(self.s.ids.next()),
            "type": kind,
            "name": data.get("name"),
            "name_localizations": data.get("name_localizations"),
            "description": data.get("description", ""),
            "description_localizations": data.get("description_localizations"),
            "options": data.get("options") or [],
            "default_member_permissions": data.get("default_member_permissions"),
            "dm_permission": data.get("dm_permission", True),
            "nsfw": data.get("nsfw", False),
            "contexts": data.get("contexts"),
            "integration_types": data.get("integration_types") or [0],
        }
        if guild_id is not None:
            command["guild_id"] = guild_id
        return command

    def _validate_commands(self, commands: list[dict[str, Any]]) -> None:
        problems = limits.check_command_set(commands)
        if problems:
            raise invalid_form(problems, "invalid_command")

    async def list_commands(
        self, req: RestRequest, app_id: str, guild_id: str | None = None
    ) -> web.Response:
        return json_response(list(self._command_list(app_id, guild_id)))

    async def overwrite_commands(
        self, req: RestRequest, app_id: str, guild_id: str | None = None
    ) -> web.Response:
        existing = self._command_list(app_id, guild_id)
        incoming = req.body if isinstance(req.body, list) else []
        self._validate_commands(incoming)
        existing[:] = [self._normalise_command(c, guild_id, existing) for c in incoming]
        return json_response(list(existing))

    async def upsert_command(
        self, req: RestRequest, app_id: str, guild_id: str | None = None
    ) -> web.Response:
        existing = self._command_list(app_id, guild_id)
        incoming = req.json
        others = [
            c
            for c in existing
            if not (
                c["name"] == incoming.get("name") and c.get("type", 1) == incoming.get("type", 1)
            )
        ]
        self._validate_commands(others + [incoming])
        command = self._normalise_command(incoming, guild_id, existing)
        existing[:] = others + [command]
        return json_response(command, 201)

    def _find_command(self, commands: list[dict[str, Any]], command_id: str) -> dict[str, Any]:
        found = next((c for c in commands if c["id"] == command_id), None)
        if found is None:
            raise ApiError(404, 10063, "Unknown application command")
        return found

    async def get_command(
        self, req: RestRequest, app_id: str, command_id: str, guild_id: str | None = None
    ) -> web.Response:
        return json_response(self._find_command(self._command_list(app_id, guild_id), command_id))

    async def edit_command(
        self, req: RestRequest, app_id: str, command_id: str, guild_id: str | None = None
    ) -> web.Response:
        commands = self._command_list(app_id, guild_id)
        current = self._find_command(commands, command_id)
        merged = {**current, **req.json}
        self._validate_commands([c for c in commands if c is not current] + [merged])
        current.update(self._normalise_command(merged, guild_id, commands))
        return json_response(current)

    async def delete_command(
        self, req: RestRequest, app_id: str, command_id: str, guild_id: str | None = None
    ) -> web.Response:
        commands = self._command_list(app_id, guild_id)
        commands.remove(self._find_command(commands, command_id))
        return no_content()

    # ------------------------------------------------------------------ channels and messages

    async def get_channel(self, req: RestRequest, channel_id: str) -> web.Response:
        return json_response(self.s.channel_payload(self._channel(channel_id)))

    async def edit_channel(self, req: RestRequest, channel_id: str) -> web.Response:
        channel = self._channel(channel_id)
        body = req.json
        for key in ("name", "topic", "archived", "locked", "invitable", "auto_archive_duration"):
            if key in body and body[key] is not None:
                setattr(channel, key, body[key])
        event = "THREAD_UPDATE" if channel.is_thread else "CHANNEL_UPDATE"
        self.s.dispatch(
            event, self.s.channel_payload(channel), guild_id=channel.guild_id, intent=GUILDS
        )
        return json_response(self.s.channel_payload(channel))

    async def delete_channel(self, req: RestRequest, channel_id: str) -> web.Response:
        channel = self._channel(channel_id)
        payload = self.s.channel_payload(channel)
        channel.deleted = True
        if channel.guild_id is not None:
            event = "THREAD_DELETE" if channel.is_thread else "CHANNEL_DELETE"
            self.s.dispatch(event, payload, guild_id=channel.guild_id, intent=GUILDS)
        return json_response(payload)

    def _sendable(self, channel_id: str, *, with_files: bool) -> ChannelRecord:
        channel = self._channel(channel_id)
        if channel.type == DM:
            recipient = self.s.users.get(channel.recipient_id or 0)
            if recipient is None or not recipient.dms_open:
                # Not a violation: users close DMs; the bot has to cope with Forbidden
                raise ApiError(403, 50007, "Cannot send messages to this user")
            return channel
        needed = SEND_MESSAGES_IN_THREADS if channel.is_thread else SEND_MESSAGES
        perms = self.s.permissions_of(self.s.bot_user, channel)
        if (
            not perms & VIEW_CHANNEL
            or not perms & needed
            or (with_files and not perms & ATTACH_FILES)
        ):
            raise ApiError(
                403,
                50013,
                "Missing Permissions",
                violation="missing_permissions",
                detail=f"the bot may not post{' files' if with_files else ''} in #{channel.name}",
            )
        if channel.is_thread:
            self._enter_thread(channel, perms)
        return channel

    def _enter_thread(self, thread: ChannelRecord, perms: int) -> None:
        if (
            thread.type == PRIVATE_THREAD
            and self.s.bot_user.id not in thread.thread_member_ids
            and not perms & MANAGE_THREADS
        ):
            raise ApiError(
                403,
                50001,
                "Missing Access",
                violation="missing_permissions",
                detail=f"the bot is not in private thread {thread.name}",
            )
        if thread.archived:
            if thread.locked and not perms & MANAGE_THREADS:
                raise ApiError(
                    400,
                    50083,
                    "Thread is archived",
                    violation="archived_thread",
                    detail=f"thread {thread.name} is archived and locked",
                )
            thread.archived = False  # posting in an archived, unlocked thread reopens it
            self.s.dispatch(
                "THREAD_UPDATE",
                self.s.channel_payload(thread),
                guild_id=thread.guild_id,
                intent=GUILDS,
            )

    async def post_message(self, req: RestRequest, channel_id: str) -> web.Response:
        body = req.json
        channel = self._sendable(channel_id, with_files=bool(req.uploads))
        self._check_message_body(body, len(req.uploads))
        earlier = self.s.check_nonce(channel, self.s.bot_user, body)
        if earlier is not None:
            return json_response(self.s.message_payload(earlier))
        flags = int(body.get("flags") or 0)
        if flags & limits.EPHEMERAL:
            self.s.violate(
                "ephemeral_outside_interaction",
                "flag 64 on a channel post: the message is public",
                method=req.method,
                path=req.path,
            )
            body = {**body, "flags": flags & ~limits.EPHEMERAL}
        reference = body.get("message_reference")
        if reference and reference.get("message_id"):
            referenced = self.s.messages.get(int(reference["message_id"]))
            if referenced is None and reference.get("fail_if_not_exists", True):
                raise invalid_form(
                    [
                        limits.Problem(
                            ("message_reference",),
                            "MESSAGE_REFERENCE_UNKNOWN_MESSAGE",
                            "Unknown message",
                        )
                    ],
                    "unknown_reference",
                )
        files = list(self._uploads(req, body).values())
        kind = REPLY_MESSAGE if reference else DEFAULT_MESSAGE
        message = self.s.build_message(channel, self.s.bot_user, body, files, type=kind)
        self.s.store_message(message)
        self.s.remember_nonce(message, body)
        self.s.dispatch_message("MESSAGE_CREATE", message)
        return json_response(self.s.message_payload(message))

    async def get_messages(self, req: RestRequest, channel_id: str) -> web.Response:
        channel = self._channel(channel_id)
        limit = min(max(int(req.query.get("limit", 50)), 1), 100)
        found = self.s.messages_in(channel)
        if "before" in req.query:
            found = [m for m in found if m.id < int(req.query["before"])][-limit:]
        elif "after" in req.query:
            found = [m for m in found if m.id > int(req.query["after"])][:limit]
        elif "around" in req.query:
            around = int(req.query["around"])
            older = [m for m in found if m.id <= around][-(limit // 2 + 1) :]
            newer = [m for m in found if m.id > around][: limit - len(older)]
            found = older + newer
        else:
            found = found[-limit:]
        return json_response([self.s.message_payload(m) for m in reversed(found)])

    async def get_message(self, req: RestRequest, channel_id: str, message_id: str) -> web.Response:
        return json_response(
            self.s.message_payload(self._message(self._channel(channel_id), message_id))
        )

    async def edit_message(
        self, req: RestRequest, channel_id: str, message_id: str
    ) -> web.Response:
        message = self._message(self._channel(channel_id), message_id)
        if message.author.id != self.s.bot_user.id:
            raise ApiError(
                403,
                50005,
                "Cannot edit a message authored by another user",
                violation="edit_foreign_message",
                detail=f"message {message.id} by {message.author.name}",
            )
        self._apply_bot_edit(req, message)
        return json_response(self.s.message_payload(message))

    def _apply_bot_edit(self, req: RestRequest, message: MessageRecord) -> None:
        body = req.json
        merged = {**self.s.message_payload(message), **body}
        merged.pop("attachments", None)
        self._check_message_body(merged, len(req.uploads), editing=True)
        uploads = self._uploads(req, body)
        self.s.apply_edit(message, body, uploads)
        if not (message.content or message.embeds or message.components or message.attachments):
            raise ApiError(
                400,
                50006,
                "Cannot send an empty message",
                violation="empty_message",
                detail=f"edit of message {message.id} leaves it empty",
            )
        self.s.dispatch_message("MESSAGE_UPDATE", message)

    async def delete_message(
        self, req: RestRequest, channel_id: str, message_id: str
    ) -> web.Response:
        channel = self._channel(channel_id)
        message = self._message(channel, message_id)
        own = message.author.id == self.s.bot_user.id
        if not own and (channel.guild_id is None or not self.s.bot_can(channel, "MANAGE_MESSAGES")):
            raise ApiError(
                403,
                50013,
                "Missing Permissions",
                violation="missing_permissions",
                detail=f"deleting {message.author.name}'s message without Manage Messages",
            )
        self.s.delete_message(message)
        return no_content()

    async def bulk_delete(self, req: RestRequest, channel_id: str) -> web.Response:
        channel = self._channel(channel_id)
        if not self.s.permissions_of(self.s.bot_user, channel) & MANAGE_MESSAGES:
            raise ApiError(
                403,
                50013,
                "Missing Permissions",
                violation="missing_permissions",
                detail="bulk delete",
            )
        ids = req.json.get("messages") or []
        if not 2 <= len(ids) <= 100:
            raise invalid_form(
                [
                    limits.Problem(
                        ("messages",),
                        "BASE_TYPE_BAD_LENGTH",
                        "Must be between 2 and 100 in length.",
                    )
                ],
                "invalid_bulk_delete",
            )
        for message_id in ids:
            message = self.s.messages.get(int(message_id))
            if message is not None and message.channel_id == channel.id and not message.deleted:
                self.s.delete_message(message)
        return no_content()

    async def typing(self, req: RestRequest, channel_id: str) -> web.Response:
        self._channel(channel_id)
        return no_content()

    # ------------------------------------------------------------------ reactions

    def _react_event(self, event: str, message: MessageRecord, user_id: int, emoji: str) -> None:
        data: dict[str, Any] = {
            "user_id": str(user_id),
            "channel_id": str(message.channel_id),
            "message_id": str(message.id),
            "emoji": _emoji(emoji),
            "burst": False,
            "type": 0,
        }
        if message.guild_id is not None:
            data["guild_id"] = str(message.guild_id)
        intent = (
            GUILD_MESSAGE_REACTIONS if message.guild_id is not None else DIRECT_MESSAGE_REACTIONS
        )
        self.s.dispatch(event, data, guild_id=message.guild_id, intent=intent)

    async def add_reaction(
        self, req: RestRequest, channel_id: str, message_id: str, emoji: str
    ) -> web.Response:
        message = self._message(self._channel(channel_id), message_id)
        message.reactions.setdefault(emoji, set()).add(self.s.bot_user.id)
        self._react_event("MESSAGE_REACTION_ADD", message, self.s.bot_user.id, emoji)
        return no_content()

    async def remove_reaction(
        self, req: RestRequest, channel_id: str, message_id: str, emoji: str, user_id: str
    ) -> web.Response:
        message = self._message(self._channel(channel_id), message_id)
        who = self.s.bot_user.id if user_id == "@me" else int(user_id)
        message.reactions.get(emoji, set()).discard(who)
        self._react_event("MESSAGE_REACTION_REMOVE", message, who, emoji)
        return no_content()

    async def get_reactions(
        self, req: RestRequest, channel_id: str, message_id: str, emoji: str
    ) -> web.Response:
        message = self._message(self._channel(channel_id), message_id)
        return json_response(
            [self.s.users[u].payload() for u in sorted(message.reactions.get(emoji, set()))]
        )

    async def clear_emoji(
        self, req: RestRequest, channel_id: str, message_id: str, emoji: str
    ) -> web.Response:
        self._message(self._channel(channel_id), message_id).reactions.pop(emoji, None)
        return no_content()

    async def clear_reactions(
        self, req: RestRequest, channel_id: str, message_id: str
    ) -> web.Response:
        self._message(self._channel(channel_id), message_id).reactions.clear()
        return no_content()

    # ------------------------------------------------------------------ threads

    def _check_thread_name(self, name: Any) -> str:
        if not isinstance(name, str) or not 1 <= len(name) <= 100:
            raise invalid_form(
                [
                    limits.Problem(
                        ("name",), "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length."
                    )
                ],
                "invalid_thread",
            )
        return name

    def _thread_response(self, thread: ChannelRecord) -> web.Response:
        return json_response(self.s.channel_payload(thread), 201)

    async def start_thread(self, req: RestRequest, channel_id: str) -> web.Response:
        channel = self._channel(channel_id)
        body = req.json
        name = self._check_thread_name(body.get("name"))
        private = body.get("type", PRIVATE_THREAD) == PRIVATE_THREAD
        needed = CREATE_PRIVATE_THREADS if private else CREATE_PUBLIC_THREADS
        if channel.is_thread or channel.type == DM:
            raise ApiError(
                400,
                50024,
                "Cannot execute action on this channel type",
                violation="invalid_thread",
                detail="threads can only start in text channels",
            )
        if not self.s.permissions_of(self.s.bot_user, channel) & needed:
            raise ApiError(
                403,
                50013,
                "Missing Permissions",
                violation="missing_permissions",
                detail=f"creating a {'private' if private else 'public'} thread in #{channel.name}",
            )
        thread = self.s.add_thread(channel, name, private=private)
        thread.invitable = bool(body.get("invitable", True)) if private else True
        thread.auto_archive_duration = int(body.get("auto_archive_duration") or 1440)
        return self._thread_response(thread)

    async def thread_from_message(
        self, req: RestRequest, channel_id: str, message_id: str
    ) -> web.Response:
        channel = self._channel(channel_id)
        message = self._message(channel, message_id)
        name = self._check_thread_name(req.json.get("name"))
        if channel.is_thread or channel.type == DM:
            raise ApiError(
                400,
                50024,
                "Cannot execute action on this channel type",
                violation="invalid_thread",
                detail="threads can only start in text channels",
            )
        if message.thread_id is not None:
            raise ApiError(
                400,
                160004,
                "A thread has already been created for this message",
                violation="invalid_thread",
                detail=f"message {message.id} already has a thread",
            )
        if not self.s.permissions_of(self.s.bot_user, channel) & CREATE_PUBLIC_THREADS:
            raise ApiError(
                403,
                50013,
                "Missing Permissions",
                violation="missing_permissions",
                detail=f"creating a thread in #{channel.name}",
            )
        # Discord gives a message's thread the message's id
        thread = self.s.add_thread(channel, name, thread_id=message.id)
        thread.auto_archive_duration = int(req.json.get("auto_archive_duration") or 1440)
        message.thread_id = thread.id
        return self._thread_response(thread)

    def _thread(self, channel_id: str) -> ChannelRecord:
        thread = self._channel(channel_id)
        if not thread.is_thread:
            raise ApiError(
                400,
                50024,
                "Cannot execute action on this channel type",
                violation="invalid_thread",
                detail=f"#{thread.name} is not a thread",
            )
        return thread

    async def add_thread_member(
        self, req: RestRequest, channel_id: str, user_id: str
    ) -> web.Response:
        thread = self._thread(channel_id)
        who = self.s.bot_user.id if user_id == "@me" else int(user_id)
        if who not in self.s.guilds[thread.guild_id or 0].members:
            raise ApiError(404, 10007, "Unknown Member")
        thread.thread_member_ids.add(who)
        return no_content()

    async def remove_thread_member(
        self, req: RestRequest, channel_id: str, user_id: str
    ) -> web.Response:
        thread = self._thread(channel_id)
        thread.thread_member_ids.discard(self.s.bot_user.id if user_id == "@me" else int(user_id))
        return no_content()

    async def list_thread_members(self, req: RestRequest, channel_id: str) -> web.Response:
        thread = self._thread(channel_id)
        return json_response(
            [
                {
                    "id": str(thread.id),
                    "user_id": str(u),
                    "join_timestamp": thread.created_at.isoformat(),
                    "flags": 0,
                }
                for u in sorted(thread.thread_member_ids)
            ]
        )

    # ------------------------------------------------------------------ guilds and members

    async def get_guild(self, req: RestRequest, guild_id: str) -> web.Response:
        guild = self._guild(guild_id)
        return json_response(
            {**self.s.guild_payload(guild), "approximate_member_count": len(guild.members)}
        )

    async def get_guild_channels(self, req: RestRequest, guild_id: str) -> web.Response:
        guild = self._guild(guild_id)
        return json_response(
            [self.s.channel_payload(self.s.channels[c]) for c in guild.channel_ids]
        )

    async def get_roles(self, req: RestRequest, guild_id: str) -> web.Response:
        return json_response([r.payload() for r in self._guild(guild_id).roles.values()])

    async def get_active_threads(self, req: RestRequest, guild_id: str) -> web.Response:
        guild = self._guild(guild_id)
        threads = [
            c
            for c in self.s.channels.values()
            if c.guild_id == guild.id and c.is_thread and not c.archived
        ]
        return json_response(
            {"threads": [self.s.channel_payload(t) for t in threads], "members": []}
        )

    # ------------------------------------------------------------------ scheduled events
    # Discord's rules for an external event (entity type 3, the only kind the bot makes
    # here): a location and an end time, a start still to come when it is made, an end
    # after its start, and the status moves only SCHEDULED → ACTIVE | CANCELED and
    # ACTIVE → COMPLETED. Managing events needs Manage Events in the server.

    def _events_allowed(self, guild: GuildRecord, what: str) -> None:
        if not self.s.guild_permissions_of(self.s.bot_user, guild) & MANAGE_EVENTS:
            raise ApiError(
                403,
                50013,
                "Missing Permissions",
                violation="missing_permissions",
                detail=f"{what} a scheduled event in {guild.name} needs Manage Events",
            )

    def _scheduled_event(self, guild: GuildRecord, event_id: str) -> dict[str, Any]:
        event = self.s.scheduled_events.get(int(event_id)) if event_id.isdigit() else None
        if event is None or int(event["guild_id"]) != guild.id:
            raise ApiError(404, 10070, "Unknown Guild Scheduled Event")
        return event

    @staticmethod
    def _bad_event(detail: str) -> ApiError:
        return ApiError(
            400,
            50035,
            "Invalid Form Body",
            violation="invalid_scheduled_event",
            detail=detail,
        )

    def _check_event_times(self, event: dict[str, Any], *, starting: bool) -> None:
        start = _parse_time(event["scheduled_start_time"])
        end = _parse_time(event.get("scheduled_end_time"))
        if event.get("entity_type") == 3:
            if end is None:
                raise self._bad_event("an external event needs scheduled_end_time")
            if not (event.get("entity_metadata") or {}).get("location"):
                raise self._bad_event("an external event needs entity_metadata.location")
        if starting and start is not None and start < self.s.clock():
            raise self._bad_event("Cannot schedule event in the past")
        if start is not None and end is not None and end <= start:
            raise self._bad_event("scheduled_end_time must be after scheduled_start_time")

    async def list_scheduled_events(self, req: RestRequest, guild_id: str) -> web.Response:
        guild = self._guild(guild_id)
        return json_response(self.s.scheduled_events_in(guild))

    async def get_scheduled_event(
        self, req: RestRequest, guild_id: str, event_id: str
    ) -> web.Response:
        return json_response(self._scheduled_event(self._guild(guild_id), event_id))

    async def create_scheduled_event(self, req: RestRequest, guild_id: str) -> web.Response:
        guild = self._guild(guild_id)
        self._events_allowed(guild, "creating")
        body = req.json
        event: dict[str, Any] = {
            "id": str(self.s.ids.next()),
            "guild_id": str(guild.id),
            "name": body["name"],
            "description": body.get("description"),
            "channel_id": body.get("channel_id"),
            "creator_id": str(self.s.bot_user.id),
            "creator": self.s.bot_user.payload(),
            "image": None,
            "scheduled_start_time": iso(_parse_time(body["scheduled_start_time"])),
            "scheduled_end_time": (
                iso(end) if (end := _parse_time(body.get("scheduled_end_time"))) else None
            ),
            "status": 1,
            "entity_type": int(body["entity_type"]),
            "entity_id": None,
            "recurrence_rule": None,
            "privacy_level": int(body["privacy_level"]),
            "guild_scheduled_event_exceptions": [],
            "entity_metadata": body.get("entity_metadata") or {},
        }
        self._check_event_times(event, starting=True)
        self.s.scheduled_events[int(event["id"])] = event
        return json_response(event)

    async def edit_scheduled_event(
        self, req: RestRequest, guild_id: str, event_id: str
    ) -> web.Response:
        guild = self._guild(guild_id)
        self._events_allowed(guild, "editing")
        event = self._scheduled_event(guild, event_id)
        body = req.json
        changed = dict(event)
        for key in ("name", "description", "entity_metadata", "privacy_level", "channel_id"):
            if key in body:
                changed[key] = body[key]
        for key in ("scheduled_start_time", "scheduled_end_time"):
            if key in body:
                moment = _parse_time(body[key])
                changed[key] = iso(moment) if moment else None
        status = body.get("status")
        if status is not None and int(status) != event["status"]:
            allowed = {1: {2, 4}, 2: {3}}.get(int(event["status"]), set())
            if int(status) not in allowed:
                raise self._bad_event(
                    f"a scheduled event's status cannot go from {event['status']} to {status}"
                )
            changed["status"] = int(status)
        if (
            event["status"] != 1
            and changed["scheduled_start_time"] != event["scheduled_start_time"]
        ):
            raise self._bad_event("an event under way or over keeps its start time")
        self._check_event_times(
            changed,
            starting=changed["status"] == 1
            and changed["scheduled_start_time"] != event["scheduled_start_time"],
        )
        event.clear()
        event.update(changed)
        return json_response(event)

    async def delete_scheduled_event(
        self, req: RestRequest, guild_id: str, event_id: str
    ) -> web.Response:
        guild = self._guild(guild_id)
        self._events_allowed(guild, "deleting")
        event = self._scheduled_event(guild, event_id)
        del self.s.scheduled_events[int(event["id"])]
        return no_content()

    def _member(self, guild: GuildRecord, user_id: str):
        member = guild.members.get(int(user_id)) if user_id.isdigit() else None
        if member is None:
            raise ApiError(404, 10007, "Unknown Member")
        return member

    async def list_members(self, req: RestRequest, guild_id: str) -> web.Response:
        guild = self._guild(guild_id)
        after = int(req.query.get("after", 0))
        limit = min(int(req.query.get("limit", 1)), 1000)
        members = sorted((m for m in guild.members.values() if m.id > after), key=lambda m: m.id)[
            :limit
        ]
        return json_response([m.payload() for m in members])

    async def get_member(self, req: RestRequest, guild_id: str, user_id: str) -> web.Response:
        return json_response(self._member(self._guild(guild_id), user_id).payload())

    def _member_updated(self, guild: GuildRecord, member: Any) -> web.Response:
        self.s.dispatch(
            "GUILD_MEMBER_UPDATE",
            {"guild_id": str(guild.id), **member.payload()},
            guild_id=guild.id,
            intent=GUILD_MEMBERS,
        )
        return json_response(member.payload())

    async def edit_member(self, req: RestRequest, guild_id: str, user_id: str) -> web.Response:
        guild = self._guild(guild_id)
        member = self._member(guild, user_id)
        if "nick" in req.json:
            member.nick = req.json["nick"]
        if "roles" in req.json:
            member.role_ids = [int(r) for r in req.json["roles"]]
        return self._member_updated(guild, member)

    async def add_member_role(
        self, req: RestRequest, guild_id: str, user_id: str, role_id: str
    ) -> web.Response:
        guild = self._guild(guild_id)
        member = self._member(guild, user_id)
        if int(role_id) not in guild.roles:
            raise ApiError(404, 10011, "Unknown Role")
        if int(role_id) not in member.role_ids:
            member.role_ids.append(int(role_id))
        self._member_updated(guild, member)
        return no_content()

    async def remove_member_role(
        self, req: RestRequest, guild_id: str, user_id: str, role_id: str
    ) -> web.Response:
        guild = self._guild(guild_id)
        member = self._member(guild, user_id)
        if int(role_id) in member.role_ids:
            member.role_ids.remove(int(role_id))
        self._member_updated(guild, member)
        return no_content()

    # ------------------------------------------------------------------ interactions

    async def interaction_callback(
        self, req: RestRequest, interaction_id: str, token: str
    ) -> web.Response:
        ix = self.s.interactions_by_token.get(token)
        if ix is None or str(ix.id) != interaction_id:
            raise ApiError(
                404,
                10062,
                "Unknown interaction",
                violation="unknown_interaction",
                detail=f"no interaction {interaction_id} with that token",
            )
        if ix.response is not None:
            ix.rejected.append(Rejection(400, 40060, "Interaction has already been acknowledged."))
            ix.changed.notify()
            raise ApiError(
                400,
                40060,
                "Interaction has already been acknowledged.",
                violation="interaction_already_acknowledged",
                detail=f"second initial response to {self.s.describe(ix)}",
            )
        if ix.age > RESPONSE_DEADLINE_S:
            self.s.flag_timeout(ix)
            ix.rejected.append(Rejection(404, 10062, "Unknown interaction"))
            ix.changed.notify()
            raise ApiError(404, 10062, "Unknown interaction")
        body = req.json
        kind = body.get("type")
        data = body.get("data") or {}
        allowed = ALLOWED_CALLBACKS.get(ix.type, set())
        if kind in (DEFERRED_UPDATE, UPDATE_MESSAGE) and ix.source_message is None:
            allowed = allowed - {DEFERRED_UPDATE, UPDATE_MESSAGE}
        if kind not in allowed:
            raise invalid_form(
                [
                    limits.Problem(
                        ("type",),
                        "INTERACTION_RESPONSE_TYPE_INVALID",
                        f"callback type {kind} is not valid for interaction type {ix.type}",
                    )
                ],
                "invalid_response_type",
            )
        response = self._apply_callback(req, ix, kind, data)
        ix.response = response
        ix.responded = asyncio.get_running_loop().time()
        if response.message is not None and kind != DEFERRED_CHANNEL_MESSAGE:
            ix._record(response.message)
        ix.changed.notify()
        self.s.changed.notify()
        if not req.flag("with_response"):
            return no_content()
        return json_response(self._callback_body(ix, response))

    def _apply_callback(
        self, req: RestRequest, ix: InteractionHandle, kind: int, data: dict[str, Any]
    ) -> ResponseRecord:
        if kind == AUTOCOMPLETE_RESULT:
            problems = limits.check_choices(data.get("choices"))
            if problems:
                raise invalid_form(problems, "invalid_autocomplete")
            return ResponseRecord(kind, data)
        if kind == MODAL:
            problems = limits.check_modal(data)
            if problems:
                raise invalid_form(problems, "invalid_modal")
            return ResponseRecord(kind, data)
        if kind == DEFERRED_UPDATE:
            ix.original_id = ix.source_message.id if ix.source_message else None
            return ResponseRecord(kind, data)
        if kind == UPDATE_MESSAGE:
            source = ix.source_message
            assert source is not None
            current = self.s.messages.get(source.id, source)
            self._check_message_body(
                {**self.s.message_payload(current), **data, "attachments": None},
                len(req.uploads),
                editing=True,
            )
            self.s.apply_edit(current, data, self._uploads(req, data))
            self.s.dispatch_message("MESSAGE_UPDATE", current)
            ix.original_id = current.id
            return ResponseRecord(
                kind, data, files=[(f, b) for f, b, _ in req.uploads.values()], message=current
            )
        if kind == DEFERRED_CHANNEL_MESSAGE:
            flags = int(data.get("flags") or 0) & limits.EPHEMERAL | limits.LOADING
            message = self._interaction_message(ix, {"flags": flags}, [], original=True)
            return ResponseRecord(kind, data, message=message)
        self._check_message_body(data, len(req.uploads))
        message = self._interaction_message(
            ix, data, list(self._uploads(req, data).values()), original=True
        )
        return ResponseRecord(kind, data, files=message.files, message=message)

    def _interaction_message(
        self,
        ix: InteractionHandle,
        body: dict[str, Any],
        files: list[AttachmentRecord],
        *,
        original: bool,
    ) -> MessageRecord:
        flags = int(body.get("flags") or 0)
        kind = (
            CHAT_INPUT_COMMAND_MESSAGE
            if ix.type == APPLICATION_COMMAND and original
            else DEFAULT_MESSAGE
        )
        metadata = _interaction_metadata(ix)
        if ix.opened_by is not None:
            metadata["triggering_interaction_metadata"] = _interaction_metadata(ix.opened_by)
        message = self.s.build_message(
            ix.channel,
            self.s.bot_user,
            {**body, "flags": flags},
            files,
            type=kind,
            interaction_id=ix.id,
            interaction_metadata=metadata,
            webhook_id=self.s.application_id,
        )
        self.s.store_message(message)
        if original:
            ix.original_id = message.id
        self.s.dispatch_message("MESSAGE_CREATE", message)
        return message

    def _callback_body(self, ix: InteractionHandle, response: ResponseRecord) -> dict[str, Any]:
        message = response.message
        interaction: dict[str, Any] = {
            "id": str(ix.id),
            "type": ix.type,
            "response_message_loading": response.type == DEFERRED_CHANNEL_MESSAGE,
            "response_message_ephemeral": bool(message and message.ephemeral),
        }
        if message is not None:
            interaction["response_message_id"] = str(message.id)
        if response.type not in (CHANNEL_MESSAGE, UPDATE_MESSAGE) or message is None:
            # Discord's spec has a resource only for a message sent or updated
            return {"interaction": interaction}
        resource = {"type": response.type, "message": self.s.message_payload(message)}
        return {"interaction": interaction, "resource": resource}

    def _webhook_interaction(self, app_id: str, token: str) -> InteractionHandle:
        ix = self.s.interactions_by_token.get(token)
        if int(app_id) != self.s.application_id or ix is None:
            raise ApiError(
                404,
                10015,
                "Unknown Webhook",
                violation="unknown_webhook",
                detail="no interaction has this token",
            )
        if ix.age > TOKEN_LIFETIME_S:
            raise ApiError(
                401,
                50027,
                "Invalid Webhook Token",
                violation="interaction_token_expired",
                detail=f"{self.s.describe(ix)} is older than 15 minutes",
            )
        if ix.response is None:
            raise ApiError(
                404,
                10015,
                "Unknown Webhook",
                violation="followup_before_response",
                detail=f"webhook call for {self.s.describe(ix)} before any initial response",
            )
        return ix

    def _webhook_message(self, ix: InteractionHandle, message_id: str) -> MessageRecord:
        if message_id == "@original":
            message = ix.original
            if message is None:
                kind = ix.response.type if ix.response else None
                raise ApiError(
                    404,
                    10008,
                    "Unknown Message",
                    violation="no_original_response",
                    detail=f"{self.s.describe(ix)} has no original response message (response type {kind})",
                )
        else:
            message = self.s.messages.get(int(message_id)) if message_id.isdigit() else None
            if message is None or (message.id != ix.original_id and message not in ix.followups):
                raise ApiError(404, 10008, "Unknown Message")
        if message.deleted:
            raise ApiError(
                404,
                10008,
                "Unknown Message",
                violation="deleted_message",
                detail=f"message {message.id} was deleted",
            )
        return message

    async def followup(self, req: RestRequest, app_id: str, token: str) -> web.Response:
        ix = self._webhook_interaction(app_id, token)
        body = req.json
        self._check_message_body(body, len(req.uploads))
        original = ix.original
        files = list(self._uploads(req, body).values())
        if (
            ix.response is not None
            and ix.response.type == DEFERRED_CHANNEL_MESSAGE
            and original is not None
            and original.flags & limits.LOADING
            and not original.deleted
        ):
            # The first followup after a deferred reply replaces the "thinking…" message
            # (once that message is deleted, a followup is a message of its own)
            edit = {**body, "attachments": [{"id": a.id} for a in files]}
            self.s.apply_edit(original, edit, {a.id: a for a in files})
            self.s.dispatch_message("MESSAGE_UPDATE", original)
            ix.original_edits += 1
            message = original
        else:
            message = self._interaction_message(ix, body, files, original=False)
        ix.followups.append(message)
        ix._record(message)
        if req.flag("wait"):
            return json_response(self.s.message_payload(message))
        return no_content()

    async def get_webhook_message(
        self, req: RestRequest, app_id: str, token: str, message_id: str
    ) -> web.Response:
        ix = self._webhook_interaction(app_id, token)
        return json_response(self.s.message_payload(self._webhook_message(ix, message_id)))

    async def edit_webhook_message(
        self, req: RestRequest, app_id: str, token: str, message_id: str
    ) -> web.Response:
        ix = self._webhook_interaction(app_id, token)
        message = self._webhook_message(ix, message_id)
        self._apply_bot_edit(req, message)
        if message.id == ix.original_id:
            ix.original_edits += 1
        ix._record(message)
        return json_response(self.s.message_payload(message))

    async def delete_webhook_message(
        self, req: RestRequest, app_id: str, token: str, message_id: str
    ) -> web.Response:
        ix = self._webhook_interaction(app_id, token)
        self.s.delete_message(self._webhook_message(ix, message_id))
        ix.changed.notify()
        return no_content()


def _emoji(raw: str) -> dict[str, Any]:
    if ":" in raw:
        name, _, emoji_id = raw.partition(":")
        return {"id": emoji_id, "name": name, "animated": False}
    return {"id": None, "name": raw}


def _interaction_metadata(ix: InteractionHandle) -> dict[str, Any]:
    """A message's ``interaction_metadata``: who, which interaction, on which message."""
    metadata: dict[str, Any] = {
        "id": str(ix.id),
        "type": ix.type,
        "user": ix.user.payload(),
        "authorizing_integration_owners": ix.payload.get("authorizing_integration_owners", {}),
    }
    if ix.source_message is not None:
        metadata["interacted_message_id"] = str(ix.source_message.id)
    return metadata


async def _parse(request: web.Request, method: str, path: str) -> RestRequest:
    query = dict(request.query)
    if not request.can_read_body:
        return RestRequest(method, path, query, None)
    if request.content_type.startswith("multipart/"):
        body: Any = None
        uploads: dict[int, tuple[str, bytes, str | None]] = {}
        for name, filename, data in _multipart_parts(request, await request.read()):
            if name == "payload_json":
                body = json.loads(data)
            else:
                match = re.fullmatch(r"files\[(\d+)\]", name)
                index = int(match.group(1)) if match else len(uploads)
                uploads[index] = (filename or f"file{index}", data, None)
        return RestRequest(method, path, query, body, uploads, sent_body=True)
    raw = await request.read()
    if not raw:
        return RestRequest(method, path, query, None)
    try:
        return RestRequest(method, path, query, json.loads(raw), sent_body=True)
    except ValueError:
        raise ApiError(400, 50109, "The request body contains invalid JSON.") from None


def _multipart_parts(request: web.Request, raw: bytes) -> list[tuple[str, str | None, bytes]]:
    """A multipart form's parts (name, file name, bytes), read whole: the body is cut at
    its boundary (RFC 2046 5.1.1) and each part's headers are read by the standard
    library's header parser (its ``compat32`` policy: the ``HTTP`` policy's header objects
    cost 0.4 ms a part). aiohttp's multipart reader calls the deprecated
    ``unread_data()`` when a body arrives in some pieces; the standard library's full
    MIME parser reads a board image line by line (2.7 ms a post, which the load
    benchmark pays for every image the bot posts)."""
    content_type = HeaderParser(policy=email.policy.compat32).parsestr(
        f"Content-Type: {request.headers[hdrs.CONTENT_TYPE]}\r\n\r\n"
    )
    boundary = content_type.get_param("boundary")
    if not isinstance(boundary, str) or not boundary:
        return []
    parts = []
    # Each part follows CRLF "--" boundary; the closing one adds "--".
    for chunk in (b"\r\n" + raw).split(b"\r\n--" + boundary.encode())[1:]:
        if chunk.startswith(b"--"):
            break
        # the rest of the boundary's line, the part's headers, a blank line, its bytes
        head, _, data = chunk.partition(b"\r\n")[2].partition(b"\r\n\r\n")
        headers = HeaderParser(policy=email.policy.compat32).parsestr(
            head.decode("utf-8", "surrogateescape") + "\r\n\r\n"
        )
        name = headers.get_param("name", header="content-disposition")
        parts.append((name if isinstance(name, str) else "", headers.get_filename(), data))
    return parts


__all__ = ["ApiError", "RestApi"]


def _parse_time(value: Any) -> Any:
    """An ISO 8601 time as Discord reads it (None stays None)."""
    if value is None:
        return None
    moment = dt.datetime.fromisoformat(str(value).replace("Z", "+00:00"))
    return moment if moment.tzinfo else moment.replace(tzinfo=dt.UTC)
