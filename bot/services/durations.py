"""A duration a member typed, read by the one grammar (``engines.durations``).

A bad one is the member's refusal, passed on with the engine's template and
fields (so it reads in the club's language), never as its English text.
"""

from __future__ import annotations

from datetime import timedelta

from bot.errors import InvalidInputError
from engines.durations import Duration, DurationError


def read_duration(spec: Duration, text: str) -> timedelta | None:
    """``text`` read by ``spec``; None for ``off`` where ``spec`` allows it."""
    try:
        return spec.parse(text)
    except DurationError as exc:
        raise InvalidInputError.passing_on(exc) from exc


def read_required_duration(spec: Duration, text: str) -> timedelta:
    """``text`` read by ``spec``, which must give a duration (``off`` is refused)."""
    try:
        return spec.parse_required(text)
    except DurationError as exc:
        raise InvalidInputError.passing_on(exc) from exc
