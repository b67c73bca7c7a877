"""Text from members made safe to show, and the shared ways the bot writes text."""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import datetime, timedelta

from babel.lists import format_list
from babel.numbers import format_decimal
from babel.units import format_unit

from bot.messages.i18n import DEFAULT_LANGUAGE, _, babel_locale, current_language
from bot.messages.limits import MESSAGE_CHARS, MESSAGE_MARGIN
from engines import durations
from engines.text import Text

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


_BREAKS = (". ", "; ", ", ", " ")


def split_text(text: str, limit: int) -> list[str]:
    """``text`` in pieces of at most ``limit`` characters, each cut after a
    sentence where one ends in reach (else a clause, else a word), so a long
    help section or post reads on across fields or messages."""
    pieces: list[str] = []
    rest = text.strip()
    while len(rest) > limit:
        window = rest[: limit + 1]
        cut = next(
            (i + len(b.rstrip()) for b in _BREAKS if (i := window.rfind(b)) > limit // 2),
            limit,
        )
        pieces.append(rest[:cut].rstrip())
        rest = rest[cut:].lstrip()
    if rest:
        pieces.append(rest)
    return pieces


def split_lines(lines: Sequence[str], limit: int = MESSAGE_CHARS - MESSAGE_MARGIN) -> list[str]:
    """``lines`` joined (one to a line) into as few texts as hold them within
    ``limit`` characters each, cut only between lines, so no entry of a list is
    split across two posts (a single line longer than ``limit`` is clipped)."""
    pieces: list[str] = []
    current: list[str] = []
    size = 0
    for line in lines:
        line = clip(line, limit)
        if current and size + 1 + len(line) > limit:
            pieces.append("\n".join(current))
            current, size = [], 0
        size += len(line) + (1 if current else 0)
        current.append(line)
    if current:
        pieces.append("\n".join(current))
    return pieces


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


_BABEL_UNITS = (
    (604800, "duration-week"),
    (86400, "duration-day"),
    (3600, "duration-hour"),
    (60, "duration-minute"),
)


def format_duration(value: timedelta | float) -> str:
    """A length of time in the active language: English as
    ``engines.durations.format_duration`` writes it (``3 min``, ``1 h 30 min``,
    ``3 days``); another language from Babel's data for it (Filipino: ``3 minuto``,
    ``1 oras at 30 minuto``, ``3 araw``). Two units at most, the larger first."""
    locale = babel_locale()
    if current_language() == DEFAULT_LANGUAGE or locale.language == "en":
        return durations.format_duration(value)
    seconds = value.total_seconds() if isinstance(value, timedelta) else float(value)
    if seconds < 60:
        return format_unit(round(seconds, 1), "duration-second", locale=locale)
    whole = round(seconds)
    if whole % 604800 == 0:
        return format_unit(whole // 604800, "duration-week", locale=locale)
    parts: list[str] = []
    rest = whole
    for size, unit in _BABEL_UNITS[1:]:
        count, rest = divmod(rest, size)
        if count or parts:
            parts.append(format_unit(count, unit, locale=locale) if count else "")
        if len(parts) == 2:
            break
    else:
        if rest:
            parts.append(format_unit(rest, "duration-second", locale=locale))
    return format_list([p for p in parts if p][:2], locale=locale)


def number(value: float) -> str:
    """A number as the active language writes it (English: as Python does)."""
    if current_language() == DEFAULT_LANGUAGE:
        return f"{value:g}" if isinstance(value, float) else str(value)
    return format_decimal(value, locale=babel_locale())


def render(text: Text) -> str:
    """An engine's message (``engines.text.Text``) in the active language: its
    template through the catalogue, durations written for the language, ``Text``
    fields translated in turn, anything else shown as it is."""
    return text.format(_, _field)


def _field(value: object) -> str:
    if isinstance(value, Text):
        return render(value)
    if isinstance(value, timedelta):
        return format_duration(value)
    return str(value)
