"""Henyo's names and shared pieces: escaping, a pair's label, a round's title,
categories and languages in words, and ``Card``, an embed's text."""

from __future__ import annotations

from dataclasses import dataclass

from bot.messages.text import plain
from engines.durations import format_duration
from engines.henyo import CATEGORY_MEANINGS, LANGUAGES, Reply

# Long enough for a pair's two display names (32 characters each) or a secret.
NAME_CHARS = 100
REPLY_EMOJI = {Reply.OO: "✅", Reply.HINDI: "❌", Reply.PWEDE: "🤔"}


def safe(text: str) -> str:
    """A member's name, a pair's label or a word, safe inside bold text."""
    return plain(text, NAME_CHARS)


def seconds(ms: int) -> str:
    """A setting or a penalty total, as the one formatter writes it: ``5 s``, ``2.5 s``, ``2 min``."""
    return format_duration(ms / 1000)


def pair_label(guesser: str, answerer: str) -> str:
    return f"{guesser} & {answerer}"


def round_title(event_id: int | None, team_position: int | None, stage: int) -> str:
    if event_id is None:
        return "One-off round"
    pair = f"Pair {team_position}"
    return f"{pair} — tie-break word {stage}" if stage else pair


def category_text(category: str | None) -> str:
    if not category:
        return "the host's own word"
    return f"{category} ({CATEGORY_MEANINGS.get(category, '')})"


def language_text(language: str) -> str:
    return LANGUAGES.get(language, language)


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
