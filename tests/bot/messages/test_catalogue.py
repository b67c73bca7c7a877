"""The catalogues against the code: every message the code marks has a Filipino
translation, the translation keeps the message's placeholders, the .po file
compiles, and the pseudo-locale decorates every message and still formats."""

from __future__ import annotations

import pytest
from babel.messages.catalog import Catalog, Message

from bot.messages import catalogue, i18n
from bot.messages.i18n import use_language

# Translations that may leave a field out, and which: the gloss Filipino needs
# no more than the game's own Filipino words.
MAY_OMIT = {
    "{category} ({meaning})": {"{meaning}"},
    "{emoji} {reply} ({meaning}) — {answerer}": {"{meaning}"},
}


@pytest.fixture(scope="module")
def extracted() -> Catalog:
    return catalogue.extract()


@pytest.fixture(scope="module")
def filipino() -> Catalog:
    return catalogue.read("fil")


def _ids(message: Message) -> tuple[str, ...]:
    return tuple(message.id) if isinstance(message.id, tuple | list) else (message.id,)


def _strings(message: Message) -> tuple[str, ...]:
    return tuple(message.string) if isinstance(message.string, tuple | list) else (message.string,)


def _key(message: Message) -> tuple[str | None, tuple[str, ...]]:
    return (message.context, _ids(message))


def test_the_code_marks_messages_for_translation(extracted: Catalog) -> None:
    ids = {_ids(m)[0] for m in extracted if m.id}
    assert len(ids) > 500
    assert "Ang sikretong salita ay: {word}" not in ids
    assert "The secret word is: {word}" in ids


def test_every_message_the_code_marks_has_a_filipino_translation(
    extracted: Catalog, filipino: Catalog
) -> None:
    translated = {
        _key(m): m for m in filipino if m.id and all(_strings(m)) and "fuzzy" not in m.flags
    }
    missing = sorted(" / ".join(_ids(m)) for m in extracted if m.id and _key(m) not in translated)
    assert missing == [], (
        f"{len(missing)} messages have no Filipino translation: add them with the README's "
        "four commands (Languages). First ones: " + "; ".join(missing[:10])
    )


def _engine_ids(extracted: Catalog) -> set[str]:
    """Messages the engines write (``engines.text.Text``): a field may be used
    capitalised or not (``{What}``, ``{what}``), as ``Text`` fills both."""
    return {
        _ids(m)[0]
        for m in extracted
        if m.id and any(str(path).startswith("engines") for path, _line in m.locations)
    }


def _either_case(fields: set[str]) -> set[str]:
    return {f[:2].lower() + f[2:] for f in fields}


def test_every_translation_keeps_the_placeholders_of_its_message(
    extracted: Catalog, filipino: Catalog
) -> None:
    engine = _engine_ids(extracted)
    wrong = []
    for message in filipino:
        if not message.id or not all(_strings(message)):
            continue
        ids = _ids(message)
        source = catalogue.placeholders(ids[-1]) | catalogue.placeholders(ids[0])
        allowed_missing = MAY_OMIT.get(ids[0], set())
        for text in _strings(message):
            found = catalogue.placeholders(text)
            if ids[0] in engine:
                found, source = _either_case(found), _either_case(source)
            if found - source or (source - found) - allowed_missing - (
                catalogue.placeholders(ids[-1]) ^ catalogue.placeholders(ids[0])
            ):
                wrong.append(f"{ids[0]!r}: {sorted(source)} → {text!r} {sorted(found)}")
    assert wrong == []


def test_translations_format_with_the_fields_of_their_message(
    extracted: Catalog, filipino: Catalog
) -> None:
    """Each Filipino text fills in as its English one does (the fields, their specs)."""
    engine = _engine_ids(extracted)
    for message in filipino:
        if not message.id or not all(_strings(message)):
            continue
        fields = {
            p.strip("{}").split(":")[0]: 1
            for p in catalogue.placeholders(_ids(message)[0])
            | catalogue.placeholders(_ids(message)[-1])
            if p != "{}"
        }
        if _ids(message)[0] in engine:
            fields |= {name[:1].swapcase() + name[1:]: 1 for name in fields}
        for text in _strings(message):
            if "{}" in text:
                text.format("x")
            else:
                text.format(**{name: 1 for name in fields})


def test_the_filipino_catalogue_compiles_and_has_no_errors(filipino: Catalog) -> None:
    assert list(filipino.check()) == []
    compiled = catalogue.compiled(filipino)
    assert compiled.gettext("Club settings") == "Settings ng club"
    assert filipino.locale is not None and str(filipino.locale) == "fil"
    assert filipino.num_plurals == 2


def test_the_language_list_is_english_and_every_catalogue() -> None:
    assert i18n.available_languages() == {"en": "English", "fil": "Filipino"}


def test_the_pseudo_locale_decorates_every_message_and_keeps_its_fields(
    extracted: Catalog,
) -> None:
    pseudo = catalogue.pseudo_catalogue(extracted)
    i18n.install(catalogue.PSEUDO, catalogue.compiled(pseudo))
    try:
        with use_language(catalogue.PSEUDO):
            assert i18n._("Club settings") == "⟦Club settings⟧"
            assert i18n._(" and ") == " ⟦and⟧ "
            text = i18n._("Round #{id} ended: the pair is disqualified.").format(id=4)
            assert text == "⟦Round #4 ended: the pair is disqualified.⟧"
            assert i18n.ngettext("{count} new word", "{count} new words", 2).format(count=2) == (
                "⟦2 new words⟧"
            )
            assert i18n._("not a message the code marks") == "not a message the code marks"
    finally:
        i18n.uninstall(catalogue.PSEUDO)
    for message in pseudo:
        if message.id:
            for source, text in zip(_ids(message), _strings(message), strict=True):
                assert catalogue.placeholders(text) == catalogue.placeholders(source)


def test_the_undecorated_remainder_of_a_text_is_what_escaped_the_catalogue() -> None:
    assert catalogue.undecorated("⟦a ⟦b⟧ c⟧ and d").split() == ["and", "d"]
    assert catalogue.undecorated("⟦all of it⟧").strip() == ""


def test_a_message_without_a_translation_speaks_english_with_english_plurals() -> None:
    """F21: an ngettext message left empty in the Filipino catalogue read "the
    first 2 pair" (Babel filled the empty forms with English and Filipino's rule
    picks form 0 for 2); it reads English, plural rule included."""
    fil = Catalog(locale="fil", domain=i18n.DOMAIN)
    fil.add(("{count} pair", "{count} pairs"), ("", ""))
    fil.add(("{count} word", "{count} words"), ("{count} salita", "{count} na salita"))
    fil.add(("{count} game", "{count} games"), ("{count} laro", ""))  # half done
    fil.add("Club settings", "")
    compiled = catalogue.compiled(fil)
    assert [compiled.ngettext("{count} pair", "{count} pairs", n) for n in (1, 2, 4)] == [
        "{count} pair",
        "{count} pairs",
        "{count} pairs",
    ]
    assert compiled.ngettext("{count} game", "{count} games", 2) == "{count} games"
    assert compiled.ngettext("{count} word", "{count} words", 2) == "{count} salita"
    assert compiled.gettext("Club settings") == "Club settings"
    assert len(list(fil)) == 5  # the caller's catalogue is left whole (header included)
