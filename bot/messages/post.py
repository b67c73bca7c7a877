"""The typed shape of a message the bot posts after a commit (an outbox row).

A service builds a ``Post``; the unit of work stores it as JSON in the outbox
row of the same transaction; ``bot.ui.outbox`` turns it back into a ``Post`` and
sends it. Every file carries its alt text (``description``): the image's
essentials in words, for screen readers and slow connections.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from bot.messages.i18n import DEFAULT_LANGUAGE, current_language
from bot.messages.limits import ALT_TEXT_CHARS

Json = dict[str, Any]


@dataclass(frozen=True)
class FileSpec:
    """A file made when the post is sent: ``renderer`` names a registered renderer
    (an image of a board, a text table), ``args`` is its JSON input."""

    renderer: str
    args: Mapping[str, Any]
    description: str  # alt text: what the file shows, in words

    def __post_init__(self) -> None:
        if not self.description.strip():
            raise ValueError(f"a {self.renderer!r} file needs alt text")

    def to_json(self) -> Json:
        return {
            "render": self.renderer,
            "args": dict(self.args),
            "description": self.description[:ALT_TEXT_CHARS],
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> FileSpec:
        # rows written before alt text existed still send, described by their renderer
        return cls(
            renderer=str(data["render"]),
            args=dict(data.get("args") or {}),
            description=str(data.get("description") or data["render"]),
        )


@dataclass(frozen=True)
class ViewSpec:
    """Buttons to attach: ``kind`` names a registered view builder."""

    kind: str
    args: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> Json:
        return {"kind": self.kind, "args": dict(self.args)}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> ViewSpec:
        return cls(kind=str(data["kind"]), args=dict(data.get("args") or {}))


@dataclass(frozen=True)
class Post:
    """A message: text, files, buttons, and who (if anyone) it may mention.

    ``fallback_content`` is what a DM says instead when it has to go to the
    fallback channel (the member's DMs are closed). ``language`` is the one its
    text was written in (the active one when it was built): its images and
    buttons, made when it is sent, are drawn in the same."""

    content: str = ""
    files: tuple[FileSpec, ...] = ()
    view: ViewSpec | None = None
    mention_user_ids: tuple[int, ...] = ()
    fallback_content: str | None = None
    embeds: tuple[Mapping[str, Any], ...] = ()
    language: str = field(default_factory=current_language)

    def to_json(self) -> Json:
        data: Json = {}
        if self.content:
            data["content"] = self.content
        if self.files:
            data["files"] = [spec.to_json() for spec in self.files]
        if self.view is not None:
            data["view"] = self.view.to_json()
        if self.mention_user_ids:
            data["mention_user_ids"] = list(self.mention_user_ids)
        if self.fallback_content is not None:
            data["fallback_content"] = self.fallback_content
        if self.embeds:
            data["embeds"] = [dict(e) for e in self.embeds]
        if self.language != DEFAULT_LANGUAGE:
            data["language"] = self.language
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Post:
        view = data.get("view")
        fallback = data.get("fallback_content")
        return cls(
            content=str(data.get("content") or ""),
            files=tuple(FileSpec.from_json(f) for f in data.get("files") or ()),
            view=ViewSpec.from_json(view) if view else None,
            mention_user_ids=tuple(int(i) for i in data.get("mention_user_ids") or ()),
            fallback_content=str(fallback) if fallback is not None else None,
            embeds=tuple(dict(e) for e in data.get("embeds") or ()),
            language=str(data.get("language") or DEFAULT_LANGUAGE),
        )
