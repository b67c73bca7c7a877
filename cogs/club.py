from __future__ import annotations

import io

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import ClubBot
from bot.messages import screen as screen_msg
from bot.messages import web as web_msg
from bot.messages.club import (
    EXPORT_FILE_ALT,
    EXPORT_WHAT,
    export_filename,
    export_note,
    settings_summary,
)
from bot.messages.i18n import _, available_languages, set_language
from bot.messages.puzzle_daily import setting_line as puzzle_setting_line
from bot.services.board_address import BoardAddresses
from bot.services.board_links import LINK_DAYS
from bot.services.club import ClubService, timezone_choices
from bot.services.export import ExportService
from bot.services.web import WebService, page_url
from bot.ui.board_link import board_link_view
from bot.ui.errors import reply_privately, think
from bot.ui.permissions import require_guild, require_moderator

# Read at start: a language is a catalogue in bot/locale, added by a release.
LANGUAGE_CHOICES = [
    app_commands.Choice(name=name, value=code) for code, name in available_languages().items()
]


class ClubCog(commands.GroupCog, group_name="club", group_description="Club settings"):
    def __init__(self, bot: ClubBot) -> None:
        self.bot = bot
        self.service = ClubService(bot.ctx)
        self.exports = ExportService(bot.ctx)
        self.web_pages = WebService(bot.ctx)
        self.boards = BoardAddresses(bot.ctx)
        super().__init__()

    @app_commands.command(
        name="setup",
        description="Set the moderator role, time zone, games channel and language (admins)",
    )
    @app_commands.describe(
        moderator_role="Members with this role run Boggle rounds and Henyo events",
        timezone="The club's time zone, e.g. Asia/Manila (used for weekly schedules)",
        channel="The default channel for game announcements",
        language="The language the bot speaks in this server (default English)",
        seek_role="A role /scrabble seek and /chess seek mention",
        puzzle_channel="Where the daily puzzle is posted",
        puzzle_time="When the daily puzzle is posted, club time (18:00), or off",
        clear="A setting to clear: seek_role (open challenges mention nobody)",
    )
    @app_commands.choices(
        language=LANGUAGE_CHOICES,
        clear=[app_commands.Choice(name="seek_role", value="seek_role")],
    )
    @app_commands.default_permissions(manage_guild=True)
    @app_commands.checks.has_permissions(manage_guild=True)
    @app_commands.guild_only()
    async def setup(
        self,
        interaction: discord.Interaction,
        moderator_role: discord.Role | None = None,
        timezone: str | None = None,
        channel: discord.TextChannel | None = None,
        language: app_commands.Choice[str] | None = None,
        seek_role: discord.Role | None = None,
        puzzle_channel: discord.TextChannel | None = None,
        puzzle_time: str | None = None,
        clear: app_commands.Choice[str] | None = None,
    ) -> None:
        await think(interaction, private=True)
        guild = require_guild(interaction)
        settings = await self.service.setup(
            guild.id,
            guild.name,
            moderator_role_id=moderator_role.id if moderator_role else None,
            timezone=timezone,
            channel_id=channel.id if channel else None,
            language=language.value if language else None,
            seek_role_id=seek_role.id if seek_role else None,
            clear_seek_role=clear is not None and clear.value == "seek_role",
            puzzle_channel_id=puzzle_channel.id if puzzle_channel else None,
            puzzle_time=puzzle_time,
        )
        # From here on the guild's events arrive in its language; so does this reply.
        self.bot.remember_language(guild.id, settings.language)
        set_language(settings.language, guild.id)
        summary = settings_summary(
            settings.moderator_role_id,
            settings.timezone,
            settings.default_channel_id,
            settings.language,
            settings.seek_role_id,
        )
        if settings.puzzle_time or puzzle_channel or puzzle_time is not None:
            summary += "\n" + puzzle_setting_line(
                settings.puzzle_channel_id, settings.puzzle_time, settings.next_puzzle_at
            )
        await reply_privately(interaction, summary)

    @app_commands.command(
        name="export", description="Download the club's results, ratings and games (moderators)"
    )
    @app_commands.guild_only()
    async def export(self, interaction: discord.Interaction) -> None:
        await think(interaction, private=True)
        guild = require_guild(interaction)
        settings = await self.service.get(guild.id)
        require_moderator(interaction.user, settings.moderator_role_id, _(EXPORT_WHAT))
        data, counts = await self.exports.export_zip(guild.id)
        archive = discord.File(
            io.BytesIO(data), filename=export_filename(guild.id), description=_(EXPORT_FILE_ALT)
        )
        await reply_privately(interaction, export_note(counts), files=[archive])

    @app_commands.command(
        name="web", description="Turn the club's web page on or off, or give it a new address"
    )
    @app_commands.describe(action="on: open the page, off: close it, rotate: a new secret address")
    @app_commands.choices(
        action=[
            app_commands.Choice(name="on", value="on"),
            app_commands.Choice(name="off", value="off"),
            app_commands.Choice(name="rotate", value="rotate"),
        ]
    )
    @app_commands.guild_only()
    async def web(self, interaction: discord.Interaction, action: app_commands.Choice[str]) -> None:
        await think(interaction, private=True)  # the page's address is a secret
        guild = require_guild(interaction)
        settings = await self.service.get(guild.id)
        require_moderator(interaction.user, settings.moderator_role_id, _(web_msg.WEB_WHAT))
        value = action.value
        page = await self.web_pages.set(
            guild.id, guild.name, "on" if value == "on" else "off" if value == "off" else "rotate"
        )
        if page.path is None:
            text = _(web_msg.PAGE_OFF if page.changed else web_msg.PAGE_ALREADY_OFF)
        else:
            base = self.bot.settings.web_base_url
            url = page_url(base, page.path)
            if base is None:
                url = f"{url} {_(web_msg.NO_BASE_URL)}"
            text = web_msg.page_on(
                url,
                rotated=value == "rotate",
                running=self.bot.web is not None and self.bot.web.running,
            )
        await reply_privately(interaction, text)

    @app_commands.command(
        name="screen",
        description="A private link to the room's screen, for a projector (moderators)",
    )
    @app_commands.guild_only()
    async def screen(self, interaction: discord.Interaction) -> None:
        await think(interaction, private=True)  # the screen's link is a secret
        guild = require_guild(interaction)
        settings = await self.service.get(guild.id)
        require_moderator(interaction.user, settings.moderator_role_id, _(screen_msg.SCREEN_WHAT))
        url = await self.boards.screen_url(guild.id, interaction.user.id, guild_name=guild.name)
        if url is None:
            await reply_privately(interaction, _(screen_msg.SCREEN_OFF))
            return
        text = screen_msg.t(screen_msg.SCREEN_LINK, club=guild.name, days=LINK_DAYS)
        await reply_privately(interaction, text, view=board_link_view(url, screen_msg.OPEN_SCREEN))

    @setup.autocomplete("timezone")
    async def _timezones(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return [app_commands.Choice(name=z, value=z) for z in timezone_choices(current)]


async def setup(bot: ClubBot) -> None:
    await bot.add_cog(ClubCog(bot))
