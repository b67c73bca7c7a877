"""What the answerer may say: Oo, Hindi or Pwede, and nothing else.

Matching ignores case, surrounding spaces and trailing ``.``, ``!``, ``?`` and
``…`` (the one-character ellipsis a phone's keyboard makes of ``...``; RULES.md).
The polite forms are the same three answers: **Opo** and **Oo po** (yes),
**Hindi po** (no), **Pwede po** (could be) — "po" adds respect, not
information — unless the round is ``strict`` (bare words only). Everything
else — another word, a "po" on its own or twice, a question tag, an emoji, a
picture — costs the pair a penalty. The referee is deliberately exact: a
lenient one would be argued with, an exact one is predictable.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass


class Reply(str, enum.Enum):
    """An answer the answerer may give: Oo (yes), Hindi (no), Pwede (could be)."""

    OO = "oo"
    HINDI = "hindi"
    PWEDE = "pwede"

    @property
    def label(self) -> str:
        """The reply as the rules write it: ``Oo``, ``Hindi``, ``Pwede``."""
        return self.value.capitalize()

    @property
    def meaning(self) -> str:
        """The reply in English: yes, no, could be."""
        return {"oo": "yes", "hindi": "no", "pwede": "could be"}[self.value]


_TRAILING = ".!?…"  # "…": a phone turns "..." into one character
_BARE = {reply.value: reply for reply in Reply}
_POLITE = {"opo": Reply.OO, "oo po": Reply.OO, "hindi po": Reply.HINDI, "pwede po": Reply.PWEDE}
POLITE_FORMS = ("Opo", "Oo po", "Hindi po", "Pwede po")  # as the rules and messages write them


def _said(text: str) -> str:
    """``text`` as replies are compared: lowercase, without surrounding spaces or
    trailing ``.!?…``, words one space apart ("Oo  po" is "oo po")."""
    return " ".join(text.strip().rstrip(_TRAILING).split()).lower()


def parse_reply(text: str, *, strict: bool = False) -> Reply | None:
    """The allowed reply ``text`` is, or None when it is anything else.

    ``strict``: only the bare words count; the polite forms are other replies.
    """
    said = _said(text)
    reply = _BARE.get(said)
    if reply is None and not strict:
        reply = _POLITE.get(said)
    return reply


@dataclass(frozen=True)
class Verdict:
    """The referee's ruling on one answerer message."""

    reply: Reply | None

    @property
    def allowed(self) -> bool:
        """Whether the message was an allowed reply."""
        return self.reply is not None

    @property
    def penalty(self) -> bool:
        """Whether the message costs the pair a penalty (anything but an allowed reply)."""
        return self.reply is None


def judge_answer(text: str, *, has_attachments: bool = False, strict: bool = False) -> Verdict:
    """Rule on a message from the answerer during a round (``strict``: bare words only).

    A picture or sticker says something other than Oo/Hindi/Pwede, so a message
    carrying one is a penalty even when its text is an allowed reply.
    """
    if has_attachments:
        return Verdict(None)
    return Verdict(parse_reply(text, strict=strict))
