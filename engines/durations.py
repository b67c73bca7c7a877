"""Durations as club members write them, and as the bot writes them back.

One grammar for every option that takes a length of time (a Scrabble turn
clock, a Boggle round, a Henyo time limit, a chess correspondence allowance):

* units: ``90s``, ``3m``, ``24h``, ``2d``, ``1w``, also spelled out in English
  or Filipino (``90 sec``, ``3 minutes``, ``2 days``; ``30 segundo``, ``5 minuto``,
  ``2 oras``, ``3 araw``, ``1 linggo``) and combined (``1h30m``, ``2m 30s``,
  ``1 hour and 30 minutes``, ``1 oras at 30 minuto``);
* decimals where a unit follows: ``2.5s``, ``1.5h``;
* a clock: ``1:30`` is a minute and a half, ``1:30:00`` an hour and a half;
* a bare number means the unit the option names (``Duration.bare_unit``), which
  each option states in its description: ``3`` is 3 minutes for a Boggle round
  and 3 days for a chess correspondence game;
* ``off`` / ``none`` where the option allows no limit at all.

Pure: no clock, no I/O. Errors are ``DurationError`` (a ``ValueError``) whose
message is fit to show the member who typed the text, with its template kept
for translation (``engines.text``). ``format_duration`` writes English; the bot
writes a club's language with ``bot.messages.text.format_duration``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import timedelta
from typing import Literal

from engines.text import N_, Text, TextError

Unit = Literal["s", "m", "h", "d", "w"]

UNIT_SECONDS: dict[Unit, int] = {"s": 1, "m": 60, "h": 3600, "d": 86400, "w": 604800}
UNIT_NAMES: dict[Unit, str] = {
    "s": N_("seconds"),
    "m": N_("minutes"),
    "h": N_("hours"),
    "d": N_("days"),
    "w": N_("weeks"),
}
_UNIT_WORDS: dict[str, Unit] = {
    "s": "s",
    "sec": "s",
    "secs": "s",
    "second": "s",
    "seconds": "s",
    "m": "m",
    "min": "m",
    "mins": "m",
    "minute": "m",
    "minutes": "m",
    "h": "h",
    "hr": "h",
    "hrs": "h",
    "hour": "h",
    "hours": "h",
    "d": "d",
    "day": "d",
    "days": "d",
    "w": "w",
    "wk": "w",
    "wks": "w",
    "week": "w",
    "weeks": "w",
    # Filipino, as members write them ("3 araw", "5 minuto"): Tagalog nouns do
    # not change for the plural
    "seg": "s",
    "segundo": "s",
    "minuto": "m",
    "oras": "h",
    "araw": "d",
    "linggo": "w",
}
# "1 hour and 30 minutes", "1 oras at 30 minuto": the joining word is dropped
_JOINERS = re.compile(r"(?<=[a-z])\s*(?:,|\band\b|\bat\b)\s*(?=\d)")
_PART = re.compile(r"(\d{1,7}(?:\.\d{1,3})?)\s*([a-z]+)")
_BARE = re.compile(r"\d{1,7}(?:\.\d{1,3})?")
_CLOCK = re.compile(r"(\d{1,4}):([0-5]\d)(?::([0-5]\d))?")
_OFF_WORDS = frozenset({"off", "none", "no", "never", "unlimited"})
EXAMPLES = N_("`90s`, `3m`, `1h30m`, `2d` or `1:30`")


class DurationError(TextError):
    """A duration that cannot be read or is outside the option's limits."""


@dataclass(frozen=True)
class Duration:
    """How one option reads a duration: its name, bare unit and limits."""

    what: str  # "the turn clock": used in error messages (mark it with N_ for translation)
    bare_unit: Unit
    minimum: timedelta
    maximum: timedelta
    allow_off: bool = False

    def parse(self, text: str) -> timedelta | None:
        """The duration in ``text``; ``None`` only for ``off`` where allowed."""
        return parse_duration(text, self)

    def parse_required(self, text: str) -> timedelta:
        """The duration in ``text``, which may not be ``off``."""
        value = parse_duration(text, self)
        if value is None:
            raise _cannot_be_off(self)
        return value

    def limits(self) -> Text:
        """The option's limits as a message to translate: ``from {minimum} to {maximum}``."""
        return Text(N_("from {minimum} to {maximum}"), minimum=self.minimum, maximum=self.maximum)

    def limits_text(self) -> str:
        """The option's limits in English."""
        return str(self.limits())

    def describe(self) -> str:
        """The hint an option's description carries: what a bare number means."""
        off = ", or off" if self.allow_off else ""
        return f"e.g. {EXAMPLES}; a plain number is {UNIT_NAMES[self.bare_unit]}{off}"


def parse_duration(text: str, spec: Duration) -> timedelta | None:
    """The duration ``text`` means for the option ``spec`` (see the module's docstring);
    None for ``off`` where the option allows it."""
    cleaned = " ".join(text.strip().lower().split())
    if cleaned in _OFF_WORDS or (spec.allow_off and cleaned in ("", "0")):
        if spec.allow_off:
            return None
        raise _cannot_be_off(spec)
    value = _read(cleaned)
    if value is None:
        raise DurationError(
            N_(
                "I can't read {typed} as {what}: write it like {examples}"
                " (a plain number is {unit})."
            ),
            typed=f"`{_shown(text)}`",
            what=Text(spec.what),
            examples=Text(EXAMPLES),
            unit=Text(UNIT_NAMES[spec.bare_unit]),
        )
    if isinstance(value, float):
        value = timedelta(seconds=value * UNIT_SECONDS[spec.bare_unit])
    if not spec.minimum <= value <= spec.maximum:
        raise DurationError(
            N_("{What} must be {limits}."), What=Text(spec.what), limits=spec.limits()
        )
    return value


def _cannot_be_off(spec: Duration) -> DurationError:
    return DurationError(
        N_("{What} cannot be off: {limits}."), What=Text(spec.what), limits=spec.limits()
    )


def _read(cleaned: str) -> timedelta | float | None:
    """A timedelta, a bare number (unit still to apply) or ``None`` if unreadable."""
    if not cleaned:
        return None
    if _BARE.fullmatch(cleaned):
        return float(cleaned)
    if clock := _CLOCK.fullmatch(cleaned):
        first, second, third = clock.groups()
        if third is None:
            return timedelta(minutes=int(first), seconds=int(second))
        return timedelta(hours=int(first), minutes=int(second), seconds=int(third))
    compact = _JOINERS.sub("", cleaned).replace(" ", "")
    total, position, seen = 0.0, 0, set[Unit]()
    for match in _PART.finditer(compact):
        unit = _UNIT_WORDS.get(match.group(2))
        if match.start() != position or unit is None or unit in seen:
            return None
        seen.add(unit)
        total += float(match.group(1)) * UNIT_SECONDS[unit]
        position = match.end()
    if position != len(compact):
        return None
    return timedelta(seconds=total)


def format_duration(value: timedelta | float) -> str:
    """A length of time as people say it: ``45 s``, ``2.5 s``, ``3 min``,
    ``2 min 30 s``, ``1 h 30 min``, ``3 days``, ``1 day 6 h``, ``2 weeks``.

    ``value`` is a timedelta or a number of seconds. Two units at most, the
    larger first; below a minute, tenths of a second are kept.
    """
    seconds = value.total_seconds() if isinstance(value, timedelta) else float(value)
    if seconds < 60:
        return f"{round(seconds, 1):g} s"
    whole = round(seconds)
    weeks, rest = divmod(whole, 604800)
    if weeks and not rest:
        return f"{weeks} week{'s' if weeks != 1 else ''}"
    days, rest = divmod(whole, 86400)
    hours, rest = divmod(rest, 3600)
    minutes, secs = divmod(rest, 60)
    if days:
        text = f"{days} day{'s' if days != 1 else ''}"
        return f"{text} {hours} h" if hours else text
    if hours:
        return f"{hours} h {minutes} min" if minutes else f"{hours} h"
    return f"{minutes} min {secs} s" if secs else f"{minutes} min"


def _shown(text: str) -> str:
    """Echoed input, short and unable to break out of inline code."""
    return text.strip()[:30].replace("`", "'")
