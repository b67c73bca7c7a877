"""/schedule: agree a time for a league or tournament game on a long clock (issue #30).

Thin: read the options, call ``GameTimes``, answer privately; the proposal (with a
button per time) and the agreed time reach the game's thread through the outbox.
This cog also gives the server-events service its Discord side and registers its
sync job (sessions, tournament rounds and league seasons call it from their own
services).
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import ClubBot
from bot.messages import schedule as msg
from bot.services.scheduling.agreements import VIEW_PROPOSAL, GameTimes
from bot.services.scheduling.events import GuildEvents
from bot.ui.buttons import buttons_of
from bot.ui.errors import reply_privately, think
from bot.ui.permissions import require_guild
from bot.ui.schedule import DYNAMIC_ITEMS, ROUTE, DiscordEvents, drop_buttons, proposal_view

GAME_HELP = "Which game (defaults to this thread's game)"
WHEN_HELP = "A day and time in the club's time zone, e.g. Sat 3pm, tomorrow 19:30, 2026-12-12 15:00"
OTHER_HELP = "Another time you could play (optional)"


class ScheduleCog(
    commands.GroupCog,
    group_name="schedule",
    group_description="Agree a time to play a league or tournament game",
):
    def __init__(self, bot: ClubBot) -> None:
        self.bot = bot
        self.times = GameTimes(bot.ctx)
        self.events = GuildEvents(bot.ctx)
        self.events.port = DiscordEvents(bot)
        buttons_of(bot).bind(ROUTE, self)
        super().__init__()

    @app_commands.command(name="propose", description="Propose up to 3 times to play a game")
    @app_commands.describe(when=WHEN_HELP, when2=OTHER_HELP, when3=OTHER_HELP, game=GAME_HELP)
    @app_commands.guild_only()
    async def propose(
        self,
        interaction: discord.Interaction,
        when: str,
        when2: str | None = None,
        when3: str | None = None,
        game: str | None = None,
    ) -> None:
        await think(interaction, private=True)
        guild = require_guild(interaction)
        done = await self.times.propose(
            guild_id=guild.id,
            user_id=interaction.user.id,
            channel_id=interaction.channel_id,
            game=game,
            when=(when, when2, when3),
        )
        await reply_privately(interaction, msg.proposed_reply(done.place_id))

    @app_commands.command(name="accept", description="Accept one of the times proposed")
    @app_commands.describe(time="Which of the times (1, 2 or 3)", game=GAME_HELP)
    @app_commands.guild_only()
    async def accept(
        self,
        interaction: discord.Interaction,
        time: app_commands.Range[int, 1, 3] | None = None,
        game: str | None = None,
    ) -> None:
        await think(interaction, private=True)
        guild = require_guild(interaction)
        done = await self.times.accept(
            guild_id=guild.id,
            user_id=interaction.user.id,
            channel_id=interaction.channel_id,
            game=game,
            choice=time,
        )
        await reply_privately(interaction, msg.agreed_reply(done.agreed_at))

    @propose.autocomplete("game")
    @accept.autocomplete("game")
    async def _games(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        if interaction.guild is None:
            return []
        pairs = await self.times.choices(
            guild_id=interaction.guild.id, user_id=interaction.user.id, typed=current or ""
        )
        return [app_commands.Choice(name=label, value=value) for label, value in pairs]

    async def accept_clicked(
        self, interaction: discord.Interaction, proposal_id: int, index: int
    ) -> None:
        await think(interaction, private=True)
        guild = require_guild(interaction)
        done = await self.times.accept(
            guild_id=guild.id,
            user_id=interaction.user.id,
            proposal_id=proposal_id,
            choice=index,
        )
        await reply_privately(interaction, msg.agreed_reply(done.agreed_at))
        await drop_buttons(interaction.message)


async def setup(bot: ClubBot) -> None:
    cog = ScheduleCog(bot)
    bot.scheduler.register_service(cog.times)
    bot.scheduler.register_service(cog.events)
    bot.outbox.views[VIEW_PROPOSAL] = proposal_view
    bot.add_dynamic_items(*DYNAMIC_ITEMS)
    await bot.add_cog(cog)
