"""The one place an error becomes what a member sees, and the one way an answer is sent.

``ClubError`` → its message, privately. Anything else → logged with a short id,
and the member gets an apology with that id (never the exception text).

Every command, button and form acknowledges first (``think``, ``update_later``)
and only then reads the database, renders or calls a service, so Discord's
3-second acknowledgement never waits behind work. The answer then goes through
``reply_publicly`` or ``reply_privately``; a refusal after a public "thinking…"
stays private: the public placeholder is deleted and the refusal follows up
ephemerally.
"""

from __future__ import annotations

import logging
import uuid
from typing import Any, Protocol

import discord
from discord import app_commands

from bot.db.uow import is_overloaded
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
    too_busy,
    translated,
    unreadable_option,
)
from bot.messages.i18n import _
from bot.messages.limits import MESSAGE_CHARS

log = logging.getLogger("clubbot.errors")

NO_MENTIONS = discord.AllowedMentions.none()

# In ``interaction.extras`` while a "thinking…" placeholder is unanswered: whether
# it shows to everyone ("public") or to the member only ("private").
_THINKING = "clubbot_thinking"


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
    if is_overloaded(error):
        # Saturation, not a fault: one line (a traceback per refused member would
        # only slow a busy loop further), and a message saying nothing was done.
        log.warning("too busy for %s: %s", where, str(error).splitlines()[0][:200])
        return too_busy()
    error_id = uuid.uuid4().hex[:8]
    log.error("unexpected error %s %s", error_id, where, exc_info=error)
    return something_went_wrong(error_id)


async def think(interaction: discord.Interaction, *, private: bool) -> None:
    """The acknowledgement of a command or button whose answer is a new message:
    Discord shows "thinking…" (to the member only when ``private``) until
    ``reply_publicly`` or ``reply_privately`` answers. Does nothing on an
    interaction already acknowledged."""
    if interaction.response.is_done():
        return
    await interaction.response.defer(ephemeral=private, thinking=True)
    interaction.extras[_THINKING] = "private" if private else "public"


async def update_later(interaction: discord.Interaction) -> None:
    """The acknowledgement of a button or select that changes its own message: the
    change follows with ``interaction.edit_original_response``."""
    if not interaction.response.is_done():
        await interaction.response.defer()


async def reply_publicly(
    interaction: discord.Interaction,
    content: str | None = None,
    *,
    notify: bool = False,
    **kwargs: Any,
) -> discord.Message | None:
    """A public answer: the first answer, the one replacing a public "thinking…",
    or a follow-up. ``kwargs`` are ``send_message``'s (``embed``, ``view``, ``file``,
    ``allowed_mentions``…). Returns the message when it went as a follow-up (else
    ``interaction.original_response()`` is it).

    A message that must ``notify`` the members it mentions (an invitation) cannot
    replace the placeholder, which is an edit, and an edit pings nobody; nor can a
    public answer replace a private placeholder, which stays private. Then the
    placeholder is deleted and the answer is a new follow-up."""
    if not interaction.response.is_done():
        await interaction.response.send_message(content, **kwargs)
        return None
    placeholder = interaction.extras.pop(_THINKING, None)
    if placeholder == "private" or (placeholder == "public" and notify):
        await _drop_placeholder(interaction)
    return await interaction.followup.send(content or discord.utils.MISSING, wait=True, **kwargs)


async def _drop_placeholder(interaction: discord.Interaction) -> None:
    try:
        await interaction.delete_original_response()
    except discord.NotFound:
        pass  # gone already: the follow-up is a message of its own either way


async def reply_privately(
    interaction: discord.Interaction,
    text: str | None = None,
    *,
    files: list[discord.File] | None = None,
    **kwargs: Any,
) -> None:
    """A private answer (ephemeral, pinging nobody), as the first answer or, when the
    interaction was answered or deferred already, as a follow-up. After a public
    "thinking…" nobody has seen an answer to yet, the placeholder is deleted first:
    the first follow-up would otherwise replace it, publicly. ``kwargs`` are
    ``send``'s (``embed``, ``view``…)."""
    kwargs = {"ephemeral": True, "allowed_mentions": NO_MENTIONS, **kwargs}
    if files:
        kwargs["files"] = files
    content = text[:MESSAGE_CHARS] if text else discord.utils.MISSING
    if not interaction.response.is_done():
        await interaction.response.send_message(content or None, **kwargs)
        return
    if interaction.extras.pop(_THINKING, None) == "public":
        await _drop_placeholder(interaction)
    await interaction.followup.send(content, **kwargs)


class Said(Protocol):
    """A service's answer that says who sees it (a league's or tournament's ``Reply``)."""

    @property
    def text(self) -> str: ...

    @property
    def public(self) -> bool: ...


async def reply_as_said(interaction: discord.Interaction, reply: Said) -> None:
    """A service's answer where the service decided who sees it: publicly, pinging
    nobody, or privately."""
    if reply.public:
        await reply_publicly(interaction, reply.text, allowed_mentions=NO_MENTIONS)
    else:
        await reply_privately(interaction, reply.text)


def expired(error: BaseException) -> bool:
    """Discord no longer knows the interaction (10062, unknown interaction): its 3 s
    passed before the acknowledgement reached it, so no answer can be sent."""
    error = unwrap(error)
    return isinstance(error, discord.NotFound) and error.code == 10062


def _age_s(interaction: discord.Interaction) -> float:
    """How old the interaction is by the bot's clock (the loopback's, in tests)."""
    ctx = getattr(interaction.client, "ctx", None)
    now = ctx.clock() if ctx is not None else discord.utils.utcnow()
    return (now - interaction.created_at).total_seconds()


async def handle_interaction_error(
    interaction: discord.Interaction, error: BaseException, where: str = ""
) -> None:
    if expired(error):
        # No fault of the command's and nothing to answer (every answer would be
        # refused the same way): one line, no traceback, no apology with an id.
        log.warning(
            "interaction %s %s expired before the bot acknowledged it "
            "(Discord 10062, unknown interaction; %.1f s old)",
            interaction.id,
            where,
            _age_s(interaction),
        )
        return
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
