"""Henyo's names and shared pieces: escaping, a pair's label, a round's title,
categories and languages in words, and ``Card``, an embed's text."""

from __future__ import annotations

from dataclasses import dataclass

from bot.messages.i18n import N_, _
from bot.messages.text import format_duration, plain
from engines.henyo import CATEGORY_MEANINGS, LANGUAGES, Reply

# Long enough for a pair's two display names (32 characters each) or a secret.
NAME_CHARS = 100
REPLY_EMOJI = {Reply.OO: "✅", Reply.HINDI: "❌", Reply.PWEDE: "🤔"}
# What each reply means, for members who don't speak Filipino (the replies
# themselves, Oo / Hindi / Pwede, are the game's words in every language).
REPLY_MEANINGS = {Reply.OO: N_("yes"), Reply.HINDI: N_("no"), Reply.PWEDE: N_("could be")}
REPLY_LABELS = {Reply.OO: N_("Oo"), Reply.HINDI: N_("Hindi"), Reply.PWEDE: N_("Pwede")}


def safe(text: str) -> str:
    """A member's name, a pair's label or a word, safe inside bold text."""
    return plain(text, NAME_CHARS)


def seconds(ms: int) -> str:
    """A setting or a penalty total, as the one formatter writes it: ``5 s``, ``2.5 s``, ``2 min``."""
    return format_duration(ms / 1000)


def pair_label(guesser: str, answerer: str) -> str:
    return f"{guesser} & {answerer}"


def reply_meaning(reply: Reply) -> str:
    return _(REPLY_MEANINGS[reply])


def reply_label(reply: Reply) -> str:
    """A reply button's label: the game's own word (Oo, Hindi, Pwede)."""
    return _(REPLY_LABELS[reply])


def round_title(event_id: int | None, team_position: int | None, stage: int) -> str:
    if event_id is None:
        return _("One-off round")
    pair = _("Pair {number}").format(number=team_position)
    if stage:
        return _("{pair} — tie-break word {stage}").format(pair=pair, stage=stage)
    return pair


def category_text(category: str | None) -> str:
    if not category:
        return _("the host's own word")
    meaning = CATEGORY_MEANINGS.get(category)
    if meaning is None:
        return category
    # a translation may leave the gloss out: the categories are Filipino words
    return _("{category} ({meaning})").format(category=category, meaning=_(meaning))


def language_text(language: str) -> str:
    name = LANGUAGES.get(language)
    return _(name) if name else language


@dataclass(frozen=True)
class Card:
    """An embed's text: ``bot.ui`` draws it (colour and all)."""

    title: str
    description: str
    fields: tuple[tuple[str, str], ...] = ()  # (name, value), one per line
    footer: str = ""

    def __len__(self) -> int:
        """Characters, counted as Discord counts them against a message's total."""
        return (
            len(self.title)
            + len(self.description)
            + sum(len(name) + len(value) for name, value in self.fields)
            + len(self.footer)
        )
