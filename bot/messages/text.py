"""Text from members made safe to show, and the shared ways the bot writes text."""

from __future__ import annotations

import re
from datetime import datetime

from bot.messages.limits import MESSAGE_CHARS, MESSAGE_MARGIN

_MARKDOWN = re.compile(r"([\\*_~`|>#\[\]()])")
_MENTION = re.compile(r"@(everyone|here)|<(@[!&]?|#)(\d+)>")


def plain(text: str, limit: int = 64) -> str:
    """A member's name or word as plain text: no markdown, no mention syntax
    (``@everyone``, ``<@&…>``, ``<#…>`` are broken with a zero-width space), at
    most ``limit`` characters."""
    escaped = _MARKDOWN.sub(r"\\\1", text[:limit])
    return escaped.replace("@", "@\u200b")


def clip(text: str, limit: int = MESSAGE_CHARS - MESSAGE_MARGIN) -> str:
    """``text`` cut to ``limit`` characters, with an ellipsis when cut."""
    return text if len(text) <= limit else text[: limit - 1].rstrip(", ") + "…"


def unix(moment: datetime) -> int:
    return int(moment.timestamp())


def relative_time(moment: datetime) -> str:
    """Discord shows it in each reader's own time zone, as "in 3 hours"."""
    return f"<t:{unix(moment)}:R>"


def absolute_time(moment: datetime, style: str = "f") -> str:
    """Discord shows it in each reader's own time zone (``f``: date and time)."""
    return f"<t:{unix(moment)}:{style}>"


def has_mention_syntax(text: str) -> bool:
    return _MENTION.search(text) is not None
