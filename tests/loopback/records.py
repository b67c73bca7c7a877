"""The loopback's world: users, guilds, roles, channels, messages, and their JSON.

Records are plain mutable dataclasses; ``payload()`` renders the JSON Discord
would send for them, shaped the way discord.py parses it.
"""

from __future__ import annotations

import copy
import datetime as dt
import mimetypes
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from . import limits

DISCORD_EPOCH_MS = 1420070400000

# Permission bits (https://discord.com/developers/docs/topics/permissions)
ADMINISTRATOR = 1 << 3
ADD_REACTIONS = 1 << 6
VIEW_CHANNEL = 1 << 10
SEND_MESSAGES = 1 << 11
MANAGE_MESSAGES = 1 << 13
EMBED_LINKS = 1 << 14
ATTACH_FILES = 1 << 15
READ_MESSAGE_HISTORY = 1 << 16
MENTION_EVERYONE = 1 << 17
USE_EXTERNAL_EMOJIS = 1 << 18
USE_APPLICATION_COMMANDS = 1 << 31
MANAGE_EVENTS = 1 << 33
MANAGE_THREADS = 1 << 34
CREATE_PUBLIC_THREADS = 1 << 35
CREATE_PRIVATE_THREADS = 1 << 36
SEND_MESSAGES_IN_THREADS = 1 << 38
ALL_PERMISSIONS = (1 << 51) - 1

DEFAULT_EVERYONE_PERMISSIONS = (
    VIEW_CHANNEL
    | SEND_MESSAGES
    | READ_MESSAGE_HISTORY
    | ADD_REACTIONS
    | EMBED_LINKS
    | ATTACH_FILES
    | USE_EXTERNAL_EMOJIS
    | USE_APPLICATION_COMMANDS
    | CREATE_PUBLIC_THREADS
    | CREATE_PRIVATE_THREADS
    | SEND_MESSAGES_IN_THREADS
)
DEFAULT_BOT_PERMISSIONS = DEFAULT_EVERYONE_PERMISSIONS | MANAGE_MESSAGES | MANAGE_THREADS

# Channel types
GUILD_TEXT, DM, GUILD_CATEGORY, PUBLIC_THREAD, PRIVATE_THREAD = 0, 1, 4, 11, 12
THREAD_TYPES = frozenset({PUBLIC_THREAD, PRIVATE_THREAD})

_USER_MENTION = re.compile(r"<@!?(\d+)>")
_ROLE_MENTION = re.compile(r"<@&(\d+)>")


def iso(moment: dt.datetime) -> str:
    return moment.astimezone(dt.UTC).isoformat()


def utcnow() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


def snowflake_time(snowflake: int) -> dt.datetime:
    ms = (snowflake >> 22) + DISCORD_EPOCH_MS
    return dt.datetime.fromtimestamp(ms / 1000, tz=dt.UTC)


class Snowflakes:
    """Unique ids whose timestamp bits are the clock's 'now' (never going back) or a chosen moment.

    ``clock`` is the loopback's (``LoopbackDiscord(clock=...)``): in tests, the
    same clock the bot is given, so a message's time is the bot's time.
    """

    def __init__(self, clock: Callable[[], dt.datetime] = utcnow) -> None:
        self.clock = clock
        self._last_ms = 0
        self._increment = 0
        self._issued: set[int] = set()

    def next(self, at: dt.datetime | None = None) -> int:
        if at is None:
            ms = max(int(self.clock().timestamp() * 1000) - DISCORD_EPOCH_MS, self._last_ms)
            self._last_ms = ms
        else:
            if at.tzinfo is None:
                raise ValueError("timestamps must be timezone-aware (use datetime.timezone.utc)")
            ms = int(at.timestamp() * 1000) - DISCORD_EPOCH_MS
        while True:
            self._increment = (self._increment + 1) & 0xFFF
            candidate = (ms << 22) | (1 << 17) | self._increment
            if candidate not in self._issued:
                self._issued.add(candidate)
                return candidate
            if self._increment == 0xFFF:
                ms += 1

    def next_on_shard(self, shard_id: int, shard_count: int) -> int:
        """An id Discord would route to ``shard_id`` of ``shard_count`` (guild ids only)."""
        while True:
            candidate = self.next()
            if (candidate >> 22) % shard_count == shard_id:
                return candidate
            self._last_ms += 1


@dataclass
class UserRecord:
    id: int
    name: str
    bot: bool = False
    global_name: str | None = None
    dms_open: bool = True

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"

    def payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "username": self.name,
            "discriminator": "0",
            "global_name": self.global_name,
            "avatar": None,
            "bot": self.bot,
            "system": False,
            "public_flags": 0,
            "flags": 0,
            "primary_guild": None,
        }


@dataclass
class RoleRecord:
    id: int
    guild_id: int
    name: str
    permissions: int
    position: int = 0
    mentionable: bool = False
    managed: bool = False
    bot_id: int | None = None

    @property
    def mention(self) -> str:
        return f"<@&{self.id}>"

    def payload(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": str(self.id),
            "name": self.name,
            "color": 0,
            "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
            "hoist": False,
            "icon": None,
            "unicode_emoji": None,
            "position": self.position,
            "permissions": str(self.permissions),
            "managed": self.managed,
            "mentionable": self.mentionable,
            "flags": 0,
        }
        if self.bot_id is not None:
            data["tags"] = {"bot_id": str(self.bot_id)}
        return data


@dataclass
class MemberRecord:
    user: UserRecord
    guild_id: int
    role_ids: list[int] = field(default_factory=list)
    nick: str | None = None
    joined_at: dt.datetime = field(default_factory=utcnow)

    @property
    def id(self) -> int:
        return self.user.id

    def payload(self, *, with_user: bool = True, permissions: int | None = None) -> dict[str, Any]:
        data: dict[str, Any] = {
            "roles": [str(r) for r in self.role_ids],
            "nick": self.nick,
            "avatar": None,
            "banner": None,
            "joined_at": iso(self.joined_at),
            "premium_since": None,
            "deaf": False,
            "mute": False,
            "pending": False,
            "flags": 0,
            "communication_disabled_until": None,
        }
        if with_user:
            data["user"] = self.user.payload()
        if permissions is not None:
            data["permissions"] = str(permissions)
        return data


@dataclass
class ChannelRecord:
    id: int
    type: int
    name: str | None = None
    guild_id: int | None = None
    parent_id: int | None = None
    position: int = 0
    topic: str | None = None
    recipient_id: int | None = None  # DM channels
    owner_id: int | None = None  # threads
    overwrites: list[dict[str, Any]] = field(default_factory=list)
    archived: bool = False
    locked: bool = False
    invitable: bool = True
    auto_archive_duration: int = 1440
    thread_member_ids: set[int] = field(default_factory=set)
    last_message_id: int | None = None
    created_at: dt.datetime = field(default_factory=utcnow)
    deleted: bool = False

    @property
    def mention(self) -> str:
        return f"<#{self.id}>"

    @property
    def is_thread(self) -> bool:
        return self.type in THREAD_TYPES

    @property
    def is_dm(self) -> bool:
        return self.type == DM

    def payload(
        self, *, users: dict[int, UserRecord] | None = None, bot_id: int | None = None
    ) -> dict[str, Any]:
        if self.is_dm:
            recipient = (users or {}).get(self.recipient_id or 0)
            return {
                "id": str(self.id),
                "type": DM,
                "last_message_id": _opt_str(self.last_message_id),
                "recipients": [recipient.payload()] if recipient else [],
                "flags": 0,
            }
        data: dict[str, Any] = {
            "id": str(self.id),
            "type": self.type,
            "guild_id": str(self.guild_id),
            "name": self.name,
            "parent_id": _opt_str(self.parent_id),
            "last_message_id": _opt_str(self.last_message_id),
            "rate_limit_per_user": 0,
            "flags": 0,
        }
        if self.is_thread:
            data.update(self._thread_fields(bot_id))
        else:
            data.update(
                position=self.position,
                permission_overwrites=list(self.overwrites),
                nsfw=False,
                topic=self.topic,
            )
        return data

    def _thread_fields(self, bot_id: int | None) -> dict[str, Any]:
        fields: dict[str, Any] = {
            "owner_id": _opt_str(self.owner_id),
            "message_count": 0,
            "member_count": len(self.thread_member_ids),
            "total_message_sent": 0,
            "thread_metadata": {
                "archived": self.archived,
                "auto_archive_duration": self.auto_archive_duration,
                "archive_timestamp": iso(self.created_at),
                "locked": self.locked,
                "invitable": self.invitable,
                "create_timestamp": iso(self.created_at),
            },
        }
        if bot_id is not None and bot_id in self.thread_member_ids:
            fields["member"] = {
                "id": str(self.id),
                "user_id": str(bot_id),
                "join_timestamp": iso(self.created_at),
                "flags": 0,
            }
        return fields


@dataclass
class GuildRecord:
    id: int
    name: str
    owner_id: int
    roles: dict[int, RoleRecord] = field(default_factory=dict)
    members: dict[int, MemberRecord] = field(default_factory=dict)
    channel_ids: list[int] = field(default_factory=list)
    joined_at: dt.datetime = field(default_factory=utcnow)

    @property
    def everyone(self) -> RoleRecord:
        return self.roles[self.id]

    def shard_id(self, shard_count: int) -> int:
        return (self.id >> 22) % shard_count


@dataclass
class AttachmentRecord:
    id: int
    filename: str
    data: bytes
    url: str
    description: str | None = None
    content_type: str | None = None

    def payload(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": str(self.id),
            "filename": self.filename,
            "size": len(self.data),
            "url": self.url,
            "proxy_url": self.url,
            "content_type": self.content_type
            or mimetypes.guess_type(self.filename)[0]
            or "application/octet-stream",
        }
        if self.description is not None:
            data["description"] = self.description
        size = _image_size(self.data)
        if size is not None:
            data["width"], data["height"] = size
        return data


def _image_size(data: bytes) -> tuple[int, int] | None:
    # PNG only: the IHDR chunk sits at a fixed offset, enough for width/height fields
    if data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) >= 24:
        return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
    return None


@dataclass
class MessageRecord:
    """One message as the server stores it; ``files`` gives the uploaded bytes back."""

    id: int
    channel_id: int
    author: UserRecord
    content: str = ""
    guild_id: int | None = None
    embeds: list[dict[str, Any]] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    attachments: list[AttachmentRecord] = field(default_factory=list)
    flags: int = 0
    allowed_mentions: dict[str, Any] | None = None
    message_reference: dict[str, Any] | None = None
    nonce: str | None = None
    type: int = 0
    interaction_id: int | None = None
    interaction_metadata: dict[str, Any] | None = None
    webhook_id: int | None = None
    edited_at: dt.datetime | None = None
    deleted: bool = False
    thread_id: int | None = None
    tts: bool = False
    pings: frozenset[str] = frozenset()
    reactions: dict[str, set[int]] = field(default_factory=dict)
    edits: list[dict[str, Any]] = field(default_factory=list)

    @property
    def created_at(self) -> dt.datetime:
        return snowflake_time(self.id)

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & limits.EPHEMERAL)

    @property
    def files(self) -> list[tuple[str, bytes]]:
        return [(a.filename, a.data) for a in self.attachments]

    @property
    def custom_ids(self) -> list[str]:
        return [c["custom_id"] for c in limits.walk_components(self.components) if "custom_id" in c]

    def find_component(self, custom_id: str) -> dict[str, Any] | None:
        return next(
            (c for c in limits.walk_components(self.components) if c.get("custom_id") == custom_id),
            None,
        )

    def mentioned_user_ids(self) -> list[int]:
        return [int(m) for m in _USER_MENTION.findall(self.content or "")]

    def mentioned_role_ids(self) -> list[int]:
        return [int(m) for m in _ROLE_MENTION.findall(self.content or "")]

    def payload(
        self, users: dict[int, UserRecord], *, referenced: MessageRecord | None = None
    ) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": str(self.id),
            "channel_id": str(self.channel_id),
            "author": self.author.payload(),
            "content": self.content,
            "timestamp": iso(self.created_at),
            "edited_timestamp": iso(self.edited_at) if self.edited_at else None,
            "tts": self.tts,
            "mention_everyone": "everyone" in self.pings,
            "mentions": [users[u].payload() for u in self.mentioned_user_ids() if u in users],
            "mention_roles": [str(r) for r in self.mentioned_role_ids()],
            "attachments": [a.payload() for a in self.attachments],
            "embeds": [_embed_as_returned(e) for e in self.embeds],
            "components": _numbered(self.components),
            "pinned": False,
            "type": self.type,
            "flags": self.flags,
        }
        if self.reactions:
            data["reactions"] = [
                {
                    "emoji": _emoji_payload(key),
                    "count": len(who),
                    "me": self.author.id in who,
                    "burst_colors": [],
                    "count_details": {"burst": 0, "normal": len(who)},
                    "me_burst": False,
                    "burst_me": False,
                    "burst_count": 0,
                }
                for key, who in self.reactions.items()
                if who
            ]
        if self.nonce is not None:
            data["nonce"] = self.nonce
        if self.webhook_id is not None:
            data["webhook_id"] = str(self.webhook_id)
            data["application_id"] = str(self.webhook_id)
        if self.interaction_metadata is not None:
            data["interaction_metadata"] = self.interaction_metadata
        if self.message_reference is not None:
            data["message_reference"] = self.message_reference
            if referenced is not None:
                data["referenced_message"] = referenced.payload(users)
        return data


def _embed_as_returned(embed: dict[str, Any]) -> dict[str, Any]:
    """An embed as Discord returns it: ``type`` "rich" and each field's ``inline`` filled in."""
    returned = {"type": "rich", **embed}
    if "fields" in embed:
        returned["fields"] = [{"inline": False, **f} for f in embed["fields"]]
    return returned


def _numbered(components: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The components as Discord returns them: an ``id`` on each (1, 2, … depth first for
    those the bot left without one, skipping ids the bot chose), Unicode emoji by name."""
    copied = copy.deepcopy(components)
    found: list[dict[str, Any]] = []

    def visit(component: Any) -> None:
        if not isinstance(component, dict):
            return
        found.append(component)
        emoji = component.get("emoji")
        if isinstance(emoji, dict) and emoji.get("id") is None:
            # a Unicode emoji comes back as its name alone
            component["emoji"] = {"name": emoji.get("name")}
        for child in component.get("components") or []:
            visit(child)
        visit(component.get("accessory"))

    for component in copied:
        visit(component)
    taken = {c["id"] for c in found if isinstance(c.get("id"), int)}
    counter = 0
    for component in found:
        if not isinstance(component.get("id"), int):
            counter += 1
            while counter in taken:
                counter += 1
            component["id"] = counter
    return copied


def _emoji_payload(key: str) -> dict[str, Any]:
    match = re.fullmatch(r"(\w+):(\d+)", key)
    if match:
        return {"id": match.group(2), "name": match.group(1), "animated": False}
    return {"id": None, "name": key}


def _opt_str(value: int | None) -> str | None:
    return None if value is None else str(value)


def compute_pings(
    message: MessageRecord,
    *,
    referenced_author_id: int | None,
    guild: GuildRecord | None,
) -> frozenset[str]:
    """Who Discord would notify, honouring ``allowed_mentions`` (absent means: everyone mentioned)."""
    allowed = message.allowed_mentions
    parse = {"users", "roles", "everyone"} if allowed is None else set(allowed.get("parse") or [])
    allowed_users = set() if allowed is None else {int(u) for u in allowed.get("users") or []}
    allowed_roles = set() if allowed is None else {int(r) for r in allowed.get("roles") or []}
    replied_user = True if allowed is None else bool(allowed.get("replied_user", False))
    pings: set[str] = set()
    for user_id in message.mentioned_user_ids():
        if user_id != message.author.id and ("users" in parse or user_id in allowed_users):
            pings.add(f"user:{user_id}")
    for role_id in message.mentioned_role_ids():
        if "roles" in parse or role_id in allowed_roles:
            pings.add(f"role:{role_id}")
    content = message.content or ""
    if ("@everyone" in content or "@here" in content) and "everyone" in parse and guild is not None:
        pings.add("everyone")
    if (
        referenced_author_id is not None
        and replied_user
        and referenced_author_id != message.author.id
    ):
        pings.add(f"user:{referenced_author_id}")
    return frozenset(pings)


def channel_permissions(
    guild: GuildRecord,
    member: MemberRecord,
    channel: ChannelRecord | None,
    channels: dict[int, ChannelRecord],
) -> int:
    """Discord's permission algorithm: base roles, then everyone/role/member overwrites."""
    if member.user.id == guild.owner_id:
        return ALL_PERMISSIONS
    base = guild.everyone.permissions
    for role_id in member.role_ids:
        role = guild.roles.get(role_id)
        if role is not None:
            base |= role.permissions
    if base & ADMINISTRATOR:
        return ALL_PERMISSIONS
    if channel is None:
        return base
    if channel.is_thread and channel.parent_id is not None:
        channel = channels.get(channel.parent_id, channel)
    overwrites = {int(o["id"]): o for o in channel.overwrites}
    perms = _apply(base, overwrites.get(guild.id))
    allow = deny = 0
    for role_id in member.role_ids:
        overwrite = overwrites.get(role_id)
        if overwrite is not None:
            allow |= int(overwrite.get("allow", 0))
            deny |= int(overwrite.get("deny", 0))
    perms = (perms & ~deny) | allow
    return _apply(perms, overwrites.get(member.user.id))


def _apply(perms: int, overwrite: dict[str, Any] | None) -> int:
    if overwrite is None:
        return perms
    return (perms & ~int(overwrite.get("deny", 0))) | int(overwrite.get("allow", 0))
