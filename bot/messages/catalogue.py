"""Maintaining the catalogues: the template extracted from the code, each
language's ``.po``, and the test-only pseudo-locale.

The same extraction as ``pybabel extract -F babel.cfg`` (tests run it on the
live code, so a string added without a translation fails a test, not a club).
"""

from __future__ import annotations

import gettext
import re
import string
from collections.abc import Iterable
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.pofile import read_po

from bot.messages.i18n import DOMAIN, LOCALE_DIR, compile_catalogue

ROOT = LOCALE_DIR.parents[1]
PSEUDO = "pseudo"
# The pseudo-locale wraps every translated text in these, so a test can find
# text that reached a member without passing through the catalogue.
PSEUDO_OPEN, PSEUDO_CLOSE = "⟦", "⟧"


def extract(root: Path = ROOT) -> Catalog:
    """Every message the code marks for translation (``babel.cfg``'s mapping)."""
    with (root / "babel.cfg").open(encoding="utf-8") as fp:
        method_map, options_map = parse_mapping_cfg(fp, "babel.cfg")  # type: ignore[no-untyped-call]
    catalogue = Catalog(project=DOMAIN, domain=DOMAIN)
    for filename, lineno, message, comments, context in extract_from_dir(
        root, method_map, options_map, keywords=DEFAULT_KEYWORDS
    ):
        catalogue.add(message, None, [(filename, lineno)], auto_comments=comments, context=context)
    return catalogue


def read(code: str) -> Catalog:
    """``bot/locale/<code>/LC_MESSAGES/clubbot.po`` as Babel reads it."""
    path = LOCALE_DIR / code / "LC_MESSAGES" / f"{DOMAIN}.po"
    with path.open("rb") as fp:
        return read_po(fp, locale=code, domain=DOMAIN)


_FIELD = string.Formatter()


def placeholders(text: str) -> set[str]:
    """The ``str.format`` fields of ``text`` with their format spec
    (``{count}``, ``{seconds:.1f}``); an unbalanced brace is a field named "!"."""
    try:
        return {
            "{" + name + (f":{spec}" if spec else "") + "}"
            for _literal, name, spec, _conversion in _FIELD.parse(text)
            if name is not None
        }
    except ValueError:
        return {"!"}


def decorate(text: str) -> str:
    """``text`` wrapped for the pseudo-locale, its placeholders kept, so it
    still formats: ``⟦It's {name}'s turn⟧`` (surrounding blanks stay outside,
    so lines still join as they did)."""
    if not text.strip():
        return text
    stripped = text.strip()
    lead = text[: len(text) - len(text.lstrip())]
    trail = text[len(text.rstrip()) :]
    return f"{lead}{PSEUDO_OPEN}{stripped}{PSEUDO_CLOSE}{trail}"


def pseudo_catalogue(template: Catalog | None = None) -> Catalog:
    """A catalogue translating every message of ``template`` (default: freshly
    extracted) into its decorated self."""
    template = template if template is not None else extract()
    pseudo = Catalog(locale="en", domain=DOMAIN)
    for message in template:
        if not message.id:
            continue
        if isinstance(message.id, tuple | list):
            strings: Iterable[str] = [decorate(part) for part in message.id]
            pseudo.add(tuple(message.id), tuple(strings), context=message.context)
        else:
            pseudo.add(message.id, decorate(message.id), context=message.context)
    return pseudo


def compiled(catalogue: Catalog) -> gettext.GNUTranslations:
    """``catalogue`` as gettext reads it (compiled in memory, as the bot compiles
    a ``.po``: an untranslated message falls back to English)."""
    return compile_catalogue(catalogue)


# innermost spans first: a translated text may fill another's field
_DECORATED = re.compile(f"{PSEUDO_OPEN}[^{PSEUDO_OPEN}{PSEUDO_CLOSE}]*{PSEUDO_CLOSE}")


def undecorated(text: str) -> str:
    """What is left of ``text`` once every pseudo-translated span is removed."""
    previous = None
    while previous != text:
        previous, text = text, _DECORATED.sub(" ", text)
    return text
