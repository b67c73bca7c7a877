"""Errors a user may see. Anything else is a bug: logged with an id, never shown.

A refusal travels as data, not as English text: its ``code`` names it for
machines (the web page, tests), its ``text`` is the template and fields it was
made from when it has them (an engine's error passed on with
:meth:`ClubError.passing_on`, or a refusal built around one), and the messages
layer writes it in the club's language where it is shown
(``bot.messages.errors.refusal``). ``str()`` stays the English.
"""

from __future__ import annotations

import re
from typing import Self

from engines.text import Text, TextError, as_sentence


def engine_code(error: BaseException) -> str:
    """A stable name for an engine error, from its type: ``RunOnError`` → ``run_on``."""
    name = type(error).__name__.removesuffix("Error") or "engine"
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


class ClubError(Exception):
    """An expected problem with a message fit for the member who caused it.

    The central handler sends it as a private (ephemeral) reply, in the club's
    language. ``message`` is a catalogue message id (marked ``N_``), a text
    translated already, or (``text`` set) the English of a template and fields;
    ``sentence`` shows it with a capital first and a full stop last (an
    engine's error is a phrase), in English and in the club's language.
    """

    code: str = "refused"

    def __init__(
        self, message: str | Text, *, code: str | None = None, sentence: bool = False
    ) -> None:
        self.text: Text | None = message if isinstance(message, Text) else None
        self.message = as_sentence(str(message)) if sentence else str(message)
        self.sentence = sentence
        if code is not None:
            self.code = code
        super().__init__(self.message)

    @classmethod
    def passing_on(
        cls,
        error: TextError,
        *,
        frame: str | None = None,
        code: str | None = None,
        sentence: bool = False,
        **fields: object,
    ) -> Self:
        """An engine's refusal passed on with its template and fields (never as its
        English text), named by its type unless ``code`` says otherwise. ``frame`` is a
        template (marked ``N_``) around it: ``{reason}`` is the engine's text, ``fields``
        the frame's other fields."""
        text = error.text if frame is None else Text(frame, reason=error.text, **fields)
        return cls(text, code=code or engine_code(error), sentence=sentence)

    def __str__(self) -> str:
        return self.message


class NotFoundError(ClubError):
    code = "not_found"


class GameNotFoundError(NotFoundError):
    """No game ``game_id`` (of ``kind``) in this server. Raised by the database
    layer, which has no catalogue: it carries the fields, and the error handler
    writes the message in the club's language (``bot.messages.errors.game_not_found``).
    ``str()`` is the English, as before."""

    code = "game_not_found"

    def __init__(self, kind: str | None, game_id: int) -> None:
        self.kind = kind
        self.game_id = game_id
        what = kind.capitalize() if kind else "game"  # "Chess #3", as messages name it
        super().__init__(f"There is no {what} #{game_id} in this server.")


class PermissionDeniedError(ClubError):
    code = "permission_denied"


class InvalidInputError(ClubError):
    code = "invalid_input"


class ConflictError(ClubError):
    """Someone else changed the same thing first (optimistic version check)."""

    code = "conflict"

    def __init__(
        self,
        message: str = "The game moved on while you were typing: look at the board and try again.",
    ) -> None:
        super().__init__(message)


class StaleBoardError(ConflictError):
    """A change asked for from a board page (bot/web) on a version of the game that is
    no longer the current one: refused, so nothing is applied to a board the member has
    not seen (its message: ``bot.messages.web.STALE_BOARD``)."""

    code = "stale_board"
