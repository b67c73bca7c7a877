"""The bot's languages: gettext catalogues, and which one is speaking now.

Every user-facing string goes through ``_()`` (or ``ngettext()`` for counts)
with ``str.format`` named fields, translated *before* formatting::

    _("It's {name}'s turn.").format(name=plain(name))
    ngettext("{count} word", "{count} words", n).format(count=n)

A constant defined at import time is marked with ``N_()`` (so extraction finds
it) and translated where it is used: ``_(NOT_YOURS)``.

The language is a club's choice (Discord has no Filipino locale), held in a
``ContextVar`` that each entry path sets once for the guild it serves: the
interaction handler, the scheduler's jobs, the outbox sender and DM intake
(``use_language(language_of(settings))``). Code that builds text never passes a
language around; it reads the active one.

Catalogues live in ``bot/locale/<lang>/LC_MESSAGES/clubbot.po`` and are
compiled from the ``.po`` into memory (Babel's ``read_po``/``write_mo``) the
first time a language is used. So a clean clone, an editable install and a
container all work with no build step, and a ``.mo`` can never be stale against
its ``.po``; parsing the few hundred messages takes milliseconds, once per
process. ``pybabel compile`` stays the check that a ``.po`` is well-formed.
"""

from __future__ import annotations

import copy
import gettext
import io
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache
from pathlib import Path
from typing import Any

from babel import Locale, UnknownLocaleError

DOMAIN = "clubbot"
LOCALE_DIR = Path(__file__).resolve().parents[1] / "locale"
DEFAULT_LANGUAGE = "en"

_active: ContextVar[str] = ContextVar("clubbot_language", default=DEFAULT_LANGUAGE)
# The guild whose language that is: jobs scheduled while serving it remember it,
# so they speak the guild's language as it is when they run.
_guild: ContextVar[int | None] = ContextVar("clubbot_language_guild", default=None)

# Catalogues made in memory rather than read from bot/locale (the test-only
# pseudo-locale): code -> translations.
_extra: dict[str, gettext.NullTranslations] = {}


# Each shipped language's name in itself, as Babel's data has it: reading it from
# Babel at start would load its locale data (about 4 MiB) before any club needs it.
# A language added later is named from Babel's data.
NAMES = {"fil": "Filipino"}


@cache
def available_languages() -> dict[str, str]:
    """Language code -> its name in that language, English first: English (the
    source text) and every catalogue under ``bot/locale``."""
    found = {DEFAULT_LANGUAGE: "English"}  # read once: catalogues are added by a release
    for po in sorted(LOCALE_DIR.glob(f"*/LC_MESSAGES/{DOMAIN}.po")):
        code = po.parent.parent.name
        found[code] = NAMES.get(code) or Locale.parse(code).get_display_name(code) or code
    return found


def is_language(code: str) -> bool:
    return code in _extra or code in available_languages()


@cache
def _from_po(code: str) -> gettext.NullTranslations:
    path = LOCALE_DIR / code / "LC_MESSAGES" / f"{DOMAIN}.po"
    if not path.exists():
        return gettext.NullTranslations()
    # Imported here: Babel's catalogue reader is ~20 modules an English-only bot
    # never needs (tests/bot/test_start_cost.py).
    from babel.messages.pofile import read_po

    with path.open("rb") as fp:
        catalogue = read_po(fp, locale=code, domain=DOMAIN)
    return compile_catalogue(catalogue)


def compile_catalogue(catalogue: Any) -> gettext.GNUTranslations:
    """A Babel ``Catalog`` as gettext reads it, compiled in memory. A message
    without a whole translation (any empty form, or fuzzy: a draft) is left out,
    so it falls back to English with English's plural rule: Babel would fill an
    empty form with the English one and pick it by the language's rule ("2 pair")."""
    from babel.messages.mofile import write_mo

    catalogue = copy.deepcopy(catalogue)  # the caller's catalogue stays whole
    for message in list(catalogue):
        if not message.id:
            continue
        forms = message.string if isinstance(message.string, tuple | list) else (message.string,)
        if not all(forms):
            catalogue.delete(message.id, context=message.context)
    compiled = io.BytesIO()
    write_mo(compiled, catalogue, use_fuzzy=False)
    compiled.seek(0)
    return gettext.GNUTranslations(compiled)


def translations(code: str | None = None) -> gettext.NullTranslations:
    """The catalogue for ``code`` (default: the active language). English and an
    unknown code read the source text unchanged."""
    code = code or _active.get()
    if code in _extra:
        return _extra[code]
    if code == DEFAULT_LANGUAGE:
        return _null()
    return _from_po(code)


@cache
def _null() -> gettext.NullTranslations:
    return gettext.NullTranslations()


def install(code: str, catalogue: gettext.NullTranslations) -> None:
    """Make an in-memory catalogue speakable as ``code`` (tests' pseudo-locale)."""
    _extra[code] = catalogue


def uninstall(code: str) -> None:
    _extra.pop(code, None)


def _(message: str) -> str:
    """``message`` in the active language."""
    return translations().gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form of ``singular``/``plural`` for ``n`` in the active language."""
    return translations().ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    """``message`` where the same English word means different things
    (``pgettext("chess colour", "White")``)."""
    return translations().pgettext(context, message)


def N_(message: str) -> str:
    """Mark ``message`` for extraction without translating it now (a constant)."""
    return message


def current_language() -> str:
    return _active.get()


def current_guild() -> int | None:
    """The guild the active language was chosen for (None: no guild's, English)."""
    return _guild.get()


def _known(code: str | None) -> str:
    return code if code and is_language(code) else DEFAULT_LANGUAGE


@contextmanager
def use_language(code: str | None, guild_id: int | None = None) -> Iterator[str]:
    """Speak ``code`` (``guild_id``'s choice) inside the block; ``None`` or an
    unknown code: English."""
    chosen = _known(code)
    token = _active.set(chosen)
    guild_token = _guild.set(guild_id)
    try:
        yield chosen
    finally:
        _guild.reset(guild_token)
        _active.reset(token)


def set_language(code: str | None, guild_id: int | None = None) -> str:
    """Speak ``code`` from here to the end of the current task or context (an
    entry path whose task ends with the event it serves)."""
    chosen = _known(code)
    _active.set(chosen)
    _guild.set(guild_id)
    return chosen


def language_of(settings: Mapping[str, Any] | None) -> str:
    """The language a guild's settings choose (English when unset or unknown)."""
    code = (settings or {}).get("language")
    return code if isinstance(code, str) and is_language(code) else DEFAULT_LANGUAGE


def babel_locale(code: str | None = None) -> Locale:
    """The Babel locale for numbers, dates, lists and durations in ``code``
    (default: the active language; a test-only locale formats as English)."""
    code = code or _active.get()
    try:
        return Locale.parse(code)
    except (ValueError, LookupError, UnknownLocaleError):
        return Locale.parse(DEFAULT_LANGUAGE)
