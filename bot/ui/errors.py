"""The one place an error becomes what a member sees.

``ClubError`` → its message, privately. Anything else → logged with a short id,
and the member gets an apology with that id (never the exception text).
"""

from __future__ import annotations

import logging
import uuid
from typing import Any

import discord
from discord import app_commands

from bot.errors import ClubError, GameNotFoundError
from bot.messages.errors import (
    MANAGE_SERVER_NEEDED,
    NOT_HERE,
    PRIVATE_REPLY_CHARS,
    SERVER_ONLY,
    game_not_found,
    refusal,
    slow_down,
    something_went_wrong,
    translated,
    unreadable_option,
)
from bot.messages.i18n import _
from bot.messages.limits import MESSAGE_CHARS

log = logging.getLogger("clubbot.errors")

NO_MENTIONS = discord.AllowedMentions.none()


def discords_trouble(error: discord.HTTPException) -> bool:
    """Discord's own trouble (a 5xx, or 429: slow down): worth trying again later,
    where any other refusal (no permission, a deleted channel) would only fail again."""
    return error.status >= 500 or error.status == 429


def unwrap(error: BaseException) -> BaseException:
    while (
        isinstance(error, (app_commands.CommandInvokeError, app_commands.TransformerError))
        and error.__cause__
    ):
        if isinstance(error, app_commands.TransformerError) and not isinstance(
            error.__cause__, ClubError
        ):
            break
        error = error.__cause__
    return error


def user_message_for(error: BaseException, *, where: str = "") -> str:
    error = unwrap(error)
    if isinstance(error, GameNotFoundError):
        return game_not_found(error)
    if isinstance(error, ClubError):
        return refusal(error)
    if isinstance(error, app_commands.TransformerError):
        return unreadable_option(error.value, error.type.name)
    if isinstance(error, app_commands.MissingPermissions):
        return _(MANAGE_SERVER_NEEDED)
    if isinstance(error, app_commands.NoPrivateMessage):
        return _(SERVER_ONLY)
    if isinstance(error, app_commands.CommandOnCooldown):
        return slow_down(error.retry_after)
    if isinstance(error, app_commands.CheckFailure):
        return translated(str(error)) or _(NOT_HERE)
    error_id = uuid.uuid4().hex[:8]
    log.error("unexpected error %s %s", error_id, where, exc_info=error)
    return something_went_wrong(error_id)


async def reply_privately(
    interaction: discord.Interaction, text: str, *, files: list[discord.File] | None = None
) -> None:
    """A private answer (ephemeral, pinging nobody), as the first answer or, when the
    interaction was answered or deferred already, as a follow-up."""
    kwargs: dict[str, Any] = {"ephemeral": True, "allowed_mentions": NO_MENTIONS}
    if files:
        kwargs["files"] = files
    text = text[:MESSAGE_CHARS]
    if interaction.response.is_done():
        await interaction.followup.send(text, **kwargs)
    else:
        await interaction.response.send_message(text, **kwargs)


async def handle_interaction_error(
    interaction: discord.Interaction, error: BaseException, where: str = ""
) -> None:
    try:
        await reply_privately(
            interaction, user_message_for(error, where=where)[:PRIVATE_REPLY_CHARS]
        )
    except discord.HTTPException:
        log.warning("could not deliver an error reply for interaction %s", interaction.id)


class ClubView(discord.ui.View):
    """Base view: errors go through the central handler."""

    async def on_error(
        self, interaction: discord.Interaction, error: Exception, item: discord.ui.Item[Any]
    ) -> None:
        await handle_interaction_error(interaction, error, where=f"view {type(self).__name__}")


class ClubModal(discord.ui.Modal):
    # discord.py's Modal.on_error takes no ``item``, unlike the BaseView.on_error it
    # overrides; mypy checks this override against BaseView's.
    async def on_error(self, interaction: discord.Interaction, error: Exception) -> None:  # type: ignore[override]
        await handle_interaction_error(interaction, error, where=f"modal {type(self).__name__}")
