"""Messages the engines write for members, kept translatable without the bot.

An engine's error says what went wrong in English (``str(error)``), as the house
style asks; it also keeps the *template* and the *fields* it was made from
(``error.text``), so the bot can write the same message in a club's language
(``bot.messages.text.render``). Templates use ``str.format`` named fields and are
marked with ``N_`` so the catalogue's extraction finds them::

    raise DurationError(N_("{What} must be {limits}."), What=Text(spec.what), limits=...)

A field's value is a ``Text`` (translated too), a ``timedelta`` (written as a
duration), or anything else (shown as it is: words, numbers, notation). A
field named with a capital (``{What}``) is shown with a capital first letter;
each field can be used either way (``{what}`` or ``{What}``) in a translation.

Pure: no I/O, no bot import.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import timedelta
from typing import Any


def N_(message: str) -> str:
    """Mark ``message`` for the catalogue's extraction (gettext's name)."""
    return message


class Text:
    """A message template and its fields; ``str()`` is the English text."""

    __slots__ = ("fields", "template")

    def __init__(self, template: str, **fields: object) -> None:
        self.template = template
        self.fields: dict[str, object] = fields

    def format(self, translate: Callable[[str], str], value: Callable[[object], str]) -> str:
        """The text with the template through ``translate`` and each field through
        ``value`` (which writes a ``Text`` field by calling this again)."""
        if not self.fields:  # a plain message: no fields to fill, braces kept
            return translate(self.template)
        shown = {name: value(field) for name, field in self.fields.items()}
        return translate(self.template).format_map(both_cases(shown))

    def __str__(self) -> str:
        return self.format(lambda template: template, english)

    def __repr__(self) -> str:
        return f"Text({self.template!r}, **{self.fields!r})"

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Text)
            and other.template == self.template
            and other.fields == self.fields
        )

    def __hash__(self) -> int:
        return hash(self.template)


def both_cases(fields: Mapping[str, str]) -> dict[str, str]:
    """Every field under its name in lower case (``what``) and capitalised
    (``What``): the capitalised one shows the value with a capital first."""
    out: dict[str, str] = {}
    for name, shown in fields.items():
        out[name[:1].lower() + name[1:]] = shown
        out[name[:1].upper() + name[1:]] = shown[:1].upper() + shown[1:]
    return out


def english(value: object) -> str:
    """A field as the English text shows it."""
    if isinstance(value, Text):
        return str(value)
    if isinstance(value, timedelta):
        from engines.durations import format_duration  # durations' errors use Text

        return format_duration(value)
    return str(value)


def as_sentence(text: str) -> str:
    """A phrase (an engine's error) as a sentence: a capital first, a full stop last."""
    text = text.strip()
    if not text:
        return text
    text = text[0].upper() + text[1:]
    return text if text.endswith((".", "!", "?", ")")) else text + "."


class TextError(ValueError):
    """An engine error whose message is a ``Text``: ``str(error)`` is English,
    ``error.text`` the template and fields. Raised with a plain string too (an
    untranslated message, shown as it is)."""

    def __init__(self, message: str | Text = "", **fields: Any) -> None:
        self.text = message if isinstance(message, Text) else Text(message, **fields)
        super().__init__(str(self.text) if fields or isinstance(message, Text) else message)
