"""Errors a user may see. Anything else is a bug: logged with an id, never shown."""

from __future__ import annotations


class ClubError(Exception):
    """An expected problem with a message fit for the member who caused it.

    The central handler sends ``str(error)`` as a private (ephemeral) reply.
    """

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message

    def __str__(self) -> str:
        return self.message


class NotFoundError(ClubError):
    pass


class GameNotFoundError(NotFoundError):
    """No game ``game_id`` (of ``kind``) in this server. Raised by the database
    layer, which has no catalogue: it carries the fields, and the error handler
    writes the message in the club's language (``bot.messages.errors.game_not_found``).
    ``str()`` is the English, as before."""

    def __init__(self, kind: str | None, game_id: int) -> None:
        self.kind = kind
        self.game_id = game_id
        what = kind.capitalize() if kind else "game"  # "Chess #3", as messages name it
        super().__init__(f"There is no {what} #{game_id} in this server.")


class PermissionDeniedError(ClubError):
    pass


class InvalidInputError(ClubError):
    pass


class ConflictError(ClubError):
    """Someone else changed the same thing first (optimistic version check)."""

    def __init__(
        self,
        message: str = "The game moved on while you were typing: look at the board and try again.",
    ) -> None:
        super().__init__(message)
