"""Who may do what: moderators are admins, Manage Server, or the club's role."""

from __future__ import annotations

import discord

from bot.errors import PermissionDeniedError
from bot.messages.errors import SERVER_ONLY, moderators_only
from bot.messages.i18n import _


def is_moderator(member: discord.abc.User, moderator_role_id: int | None) -> bool:
    if not isinstance(member, discord.Member):
        return False
    perms = member.guild_permissions
    if perms.administrator or perms.manage_guild:
        return True
    return moderator_role_id is not None and any(r.id == moderator_role_id for r in member.roles)


def require_moderator(member: discord.abc.User, moderator_role_id: int | None, what: str) -> None:
    if not is_moderator(member, moderator_role_id):
        raise PermissionDeniedError(moderators_only(what))


def require_guild(interaction: discord.Interaction) -> discord.Guild:
    if interaction.guild is None:
        raise PermissionDeniedError(_(SERVER_ONLY))
    return interaction.guild
