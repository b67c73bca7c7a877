"""Which game a command means, for the cogs of games with numbers (Scrabble, chess).

A game command's ``game`` option is the game's number in this server (``#3`` or
``3``); left out, it means this thread's game, or the member's only one. The
service's :class:`bot.services.games.GameFinder` decides; this mixin is the
Discord side of it, written once: the lookup and the option's autocomplete. A command
that acts on one game passes ``_asked`` to its use case, which finds the game in its
own transaction; ``_game_id`` looks it up first, for the commands that need its id.
"""

from __future__ import annotations

import logging

import discord
from discord import app_commands

from bot.errors import ClubError
from bot.services.games import FoundGame, GameAsked, GameFinder, Want
from bot.ui.permissions import require_guild

log = logging.getLogger(__name__)


class GameLookup:
    """Mixed into a game cog whose ``finder`` is its service's game finder."""

    finder: GameFinder

    async def _game(
        self, interaction: discord.Interaction, game: str | None, *, want: Want = "playing"
    ) -> FoundGame:
        """The game a command means (``game`` as typed, or None); refused if there is none."""
        guild = require_guild(interaction)
        return await self.finder.find(
            guild_id=guild.id,
            user_id=interaction.user.id,
            channel_id=interaction.channel_id,
            ref=game,
            want=want,
        )

    async def _game_id(
        self, interaction: discord.Interaction, game: str | None, *, want: Want = "playing"
    ) -> int:
        return (await self._game(interaction, game, want=want)).game_id

    def _asked(
        self, interaction: discord.Interaction, game: str | None, *, want: Want = "playing"
    ) -> GameAsked:
        """The game a command means, for its use case to find in its own transaction (one
        lookup fewer than ``_game_id`` and then the use case: see ``GameAsked``)."""
        return self.finder.asked(
            guild_id=require_guild(interaction).id,
            user_id=interaction.user.id,
            channel_id=interaction.channel_id,
            ref=game,
            want=want,
        )

    async def _game_choices(
        self, interaction: discord.Interaction, current: str, *, want: Want = "playing"
    ) -> list[app_commands.Choice[str]]:
        """Suggestions for the ``game`` option. An autocomplete has no way to show an
        error, so a refusal gives no suggestions and anything unexpected is logged."""
        if interaction.guild is None:
            return []
        try:
            pairs = await self.finder.choices(
                guild_id=interaction.guild.id,
                user_id=interaction.user.id,
                typed=current or "",
                want=want,
            )
        except ClubError:
            return []
        except Exception:
            log.exception("game suggestions failed")
            return []
        return [app_commands.Choice(name=label, value=value) for label, value in pairs]
