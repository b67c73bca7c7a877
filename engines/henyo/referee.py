"""What the answerer may say: Oo, Hindi or Pwede, and nothing else.

Matching ignores case, surrounding spaces and trailing ``.``, ``!``, ``?`` and
``…`` (the one-character ellipsis a phone's keyboard makes of ``...``; RULES.md);
everything else — another word, an added "po", an emoji, a picture — costs the
pair a penalty. The referee is deliberately strict: a lenient one would be
argued with, a strict one is predictable.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass


class Reply(str, enum.Enum):
    OO = "oo"
    HINDI = "hindi"
    PWEDE = "pwede"

    @property
    def label(self) -> str:
        return self.value.capitalize()

    @property
    def meaning(self) -> str:
        return {"oo": "yes", "hindi": "no", "pwede": "could be"}[self.value]


_TRAILING = ".!?…"  # "…": a phone turns "..." into one character
_BY_TEXT = {reply.value: reply for reply in Reply}


def parse_reply(text: str) -> Reply | None:
    """The allowed reply ``text`` is, or None when it is anything else."""
    return _BY_TEXT.get(text.strip().rstrip(_TRAILING).strip().lower())


@dataclass(frozen=True)
class Verdict:
    """The referee's ruling on one answerer message."""

    reply: Reply | None

    @property
    def allowed(self) -> bool:
        return self.reply is not None

    @property
    def penalty(self) -> bool:
        return self.reply is None


def judge_answer(text: str, *, has_attachments: bool = False) -> Verdict:
    """Rule on a message from the answerer during a round.

    A picture or sticker says something other than Oo/Hindi/Pwede, so a message
    carrying one is a penalty even when its text is an allowed reply.
    """
    if has_attachments:
        return Verdict(None)
    return Verdict(parse_reply(text))
