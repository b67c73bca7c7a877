"""Playing a club's games in another language through the loopback Discord.

``speak(club, code)`` sets the club's language the way an admin does
(``/club setup language:``) or, for the test-only pseudo-locale, through the
service (it is not a choice members see). The pseudo-locale translates every
message the code marks into ``⟦its English⟧``; ``undecorated_texts`` then finds
any text the bot posted, DM'd, replied, edited, labelled a button or a select
with, titled a modal or described a file by, that did not come through the
catalogue. What is allowed outside the brackets: members' names and words
(given by the test), game notation, numbers, mentions, Discord timestamps,
links, emoji and punctuation.

``english_leaks`` is the check for a real language: no English sentence of the
catalogue (a run of three words or more between placeholders, whose
translation differs) appears in what the bot sent.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from typing import Any

from bot.messages import catalogue, i18n
from bot.messages.i18n import DOMAIN

PSEUDO = catalogue.PSEUDO

# Text that is not language: mentions, channels, roles, timestamps, custom emoji, links.
_NOT_LANGUAGE = re.compile(
    r"<(?:@[!&]?|#)\d+>|<t:-?\d+(?::[tTdDfFR])?>|<a?:\w+:\d+>|https?://\S+"
    # durations as engines.durations writes them (a test-only locale has no Babel data)
    r"|\b\d+(?:\.\d+)?\s?(?:s|min|h|days?|weeks?)\b"
)
_LETTER = re.compile(r"[^\W\d_]")


def install_pseudo() -> None:
    """The pseudo-locale, made from the messages the code marks now."""
    i18n.install(PSEUDO, catalogue.compiled(catalogue.pseudo_catalogue(catalogue.extract())))


async def speak(club: Any, code: str) -> None:
    """Set the club's language: as an admin does, or directly for the pseudo-locale."""
    if code == PSEUDO:
        service = club.bot.get_cog("ClubCog").service
        await service.setup(club.guild.id, club.guild.name, language=PSEUDO)
        club.bot.remember_language(club.guild.id, PSEUDO)
        return
    ix = await club.dc.slash(club.moderator, club.channel, "club setup", language=code)
    assert ix.answer.ephemeral, ix.response


def first_version(message: Any) -> dict[str, Any]:
    """A message as the bot first sent it (``content``, ``embeds``, ``components``)."""
    if message.edits:
        return dict(message.edits[0])
    return {"content": message.content, "embeds": message.embeds, "components": message.components}


def labels(components: Iterable[dict[str, Any]]) -> list[str]:
    """The buttons' labels, row by row."""
    return [c["label"] for row in components for c in row.get("components", ()) if "label" in c]


def _component_texts(components: Iterable[dict[str, Any]]) -> Iterator[str]:
    for component in components:
        for key in ("label", "placeholder", "title", "value", "description"):
            if isinstance(component.get(key), str) and key != "value":
                yield component[key]
        for option in component.get("options") or ():
            yield str(option.get("label") or "")
            yield str(option.get("description") or "")
        yield from _component_texts(component.get("components") or ())


def _embed_texts(embed: dict[str, Any]) -> Iterator[str]:
    for key in ("title", "description"):
        yield str(embed.get(key) or "")
    for key in ("footer", "author"):
        part = embed.get(key) or {}
        yield str(part.get("text") or part.get("name") or "")
    for field in embed.get("fields") or ():
        yield str(field.get("name") or "")
        yield str(field.get("value") or "")


def bot_texts(dc: Any) -> list[tuple[str, str]]:
    """(where, text) for everything the bot wrote that a member reads."""
    found: list[tuple[str, str]] = []
    for message in dc.bot_messages(include_ephemeral=True):
        where = f"message {message.id} ({message.content[:40]!r})"
        versions = [
            {
                "content": message.content,
                "embeds": message.embeds,
                "components": message.components,
            },
            *message.edits,
        ]
        for version in versions:
            found.append((where, str(version.get("content") or "")))
            for embed in version.get("embeds") or ():
                found.extend((f"{where} embed", t) for t in _embed_texts(embed))
            components = version.get("components") or ()
            found.extend((f"{where} button", t) for t in _component_texts(components))
        found.extend(
            (f"{where} file {a.filename}", a.description or "") for a in message.attachments
        )
    for ix in list(dc.interactions.values()):
        response = ix.response
        if response is None:
            continue
        if response.modal:
            found.append((f"modal {response.modal.get('custom_id')}", response.modal["title"]))
            found.extend(
                (f"modal {response.modal.get('custom_id')}", t)
                for t in _component_texts(response.modal.get("components") or ())
            )
    for channel in dc.channels.values():
        if channel.is_thread and getattr(channel, "owner_id", None) == dc.bot_user.id:
            found.append((f"thread {channel.id}", channel.name))
    return [(where, text) for where, text in found if text.strip()]


def undecorated_texts(dc: Any, allowed: Iterable[str] = ()) -> list[str]:
    """Texts the bot sent with something left outside the pseudo-locale's
    brackets: anything but ``allowed`` words, notation, numbers and symbols."""
    words = sorted({w for w in allowed if w}, key=len, reverse=True)
    allowed_pattern = (
        re.compile("|".join(re.escape(w) for w in words), re.IGNORECASE) if words else None
    )
    escaped = []
    for where, text in bot_texts(dc):
        left = catalogue.undecorated(text.replace("\\", ""))
        left = _NOT_LANGUAGE.sub(" ", left)
        if allowed_pattern is not None:
            left = allowed_pattern.sub(" ", left)
        if _LETTER.search(left):
            escaped.append(f"{where}: {text!r} (outside the catalogue: {left.strip()!r})")
    return escaped


def _english_sentences(code: str) -> set[str]:
    """Runs of 3+ words of the English messages that no translation into ``code`` keeps."""
    runs: set[str] = set()
    translations: list[str] = []
    for message in catalogue.read(code):
        if not message.id or not message.string:
            continue
        ids = message.id if isinstance(message.id, tuple | list) else (message.id,)
        strings = message.string if isinstance(message.string, tuple | list) else (message.string,)
        translations.extend(strings)
        for source in ids:
            for piece in re.split(r"\{[^{}]*\}|[`*]", source):
                piece = piece.strip(" .,:;!?()—-·")
                if len(piece.split()) >= 3:
                    runs.add(piece)
    kept = "\n".join(translations)
    return {run for run in runs if run not in kept}


def english_leaks(dc: Any, code: str) -> list[str]:
    """Bot texts with an English sentence of the catalogue in them (``code``'s run)."""
    runs = _english_sentences(code)
    leaks = []
    for where, text in bot_texts(dc):
        for run in runs:
            if run in text:
                leaks.append(f"{where}: {run!r} in {text!r}")
    return leaks


__all__ = [
    "DOMAIN",
    "PSEUDO",
    "bot_texts",
    "english_leaks",
    "first_version",
    "install_pseudo",
    "labels",
    "speak",
    "undecorated_texts",
]
