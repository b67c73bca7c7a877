"""Board links as members receive them: the **Open the board** link buttons on what the
bot sends, and the grant each one's token names (issue #28).

A link is a secret (whoever holds it acts as that member): ``public_link_leaks``
finds any public message (in a channel or a thread, in any of its versions, a
deleted one included) that carries one, in its text, an embed or a button.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any
from urllib.parse import urlsplit

from bot.services.board_links import LINK_PATH, Grant, parse
from tests.loopback.limits import walk_components

BUTTON, LINK_STYLE = 2, 5


def link_buttons(components: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """The link buttons among ``components`` (rows and their children)."""
    return [
        c
        for c in walk_components(list(components))
        if c.get("type") == BUTTON and c.get("style") == LINK_STYLE
    ]


def board_link(message: Any) -> tuple[str, str]:
    """The one link button a message carries: its label and its address."""
    buttons = link_buttons(message.components or ())
    assert len(buttons) == 1, f"{len(buttons)} link buttons on {message.content[:60]!r}"
    return buttons[0]["label"], buttons[0]["url"]


def grant_of(url: str) -> Grant:
    """The grant an absolute board link names (its token read, not checked)."""
    parts = urlsplit(url)
    assert parts.scheme in ("http", "https") and parts.netloc, url
    assert parts.path.startswith(LINK_PATH), url
    parsed = parse(parts.path[len(LINK_PATH) :])
    assert parsed is not None, url
    return parsed[0]


def names(url: str) -> tuple[int, int, str, int]:
    """(guild, member, kind, game or round) of a board link."""
    grant = grant_of(url)
    return grant.guild_id, grant.user_id, grant.kind, grant.subject_id


def _versions(message: Any) -> list[dict[str, Any]]:
    current = {
        "content": message.content,
        "embeds": message.embeds,
        "components": message.components,
    }
    return [current, *message.edits]


def carries_a_link(version: dict[str, Any]) -> bool:
    """Whether one version of a message holds a board link anywhere."""
    text = str(version.get("content") or "") + json.dumps(version.get("embeds") or [])
    urls = [b.get("url") or "" for b in link_buttons(version.get("components") or ())]
    return LINK_PATH in text or any(LINK_PATH in url for url in urls)


def public_link_leaks(dc: Any) -> list[str]:
    """Public bot messages (not ephemeral, not in a DM) that carry a board link."""
    leaks = []
    for message in list(dc.messages.values()):
        channel = dc.channels.get(message.channel_id)
        if message.author.id != dc.bot_user.id or message.ephemeral:
            continue
        if channel is None or channel.is_dm:
            continue
        if any(carries_a_link(v) for v in _versions(message)):
            leaks.append(f"message {message.id} in {channel.name!r}: {message.content[:60]!r}")
    return leaks


def messages_with_links(dc: Any) -> list[str]:
    """Every bot message, private ones included, that carries a board link."""
    return [
        f"message {m.id}: {m.content[:60]!r}"
        for m in list(dc.messages.values())
        if m.author.id == dc.bot_user.id and any(carries_a_link(v) for v in _versions(m))
    ]
