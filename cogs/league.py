"""/league: seasons of asynchronous Scrabble or correspondence chess in divisions by
rating, with promotion and relegation (issue #30).

Thin: parse the options, call ``LeagueService``, answer. Every answer is private but
``standings``; the season's posts reach the league's channel through the outbox. The
divisions are tournaments, so the tournament cog's service (looked up when needed:
the cogs load in any order) makes their games and threads.
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import ClubBot
from bot.errors import InvalidInputError
from bot.messages import tournaments as tmsg
from bot.messages.i18n import _
from bot.services.club import ClubService
from bot.services.leagues import options as opts
from bot.services.leagues.service import LeagueService, Who
from bot.services.tournaments.service import TournamentService
from bot.ui.errors import NO_MENTIONS, reply_as_said, reply_publicly, think
from bot.ui.permissions import is_moderator, require_guild

L_HELP = "Which league (defaults to the one here)"
Choice = app_commands.Choice


def _name(user: discord.abc.User) -> str:
    return getattr(user, "display_name", None) or user.name


class LeagueCog(
    commands.GroupCog,
    group_name="league",
    group_description="Leagues: seasons in divisions, promotion and relegation",
):
    def __init__(self, bot: ClubBot) -> None:
        self.bot = bot
        self.service = LeagueService(bot.ctx, self._tournaments)
        self.club = ClubService(bot.ctx)
        super().__init__()

    def _tournaments(self) -> TournamentService | None:
        service = getattr(self.bot.get_cog("TournamentCog"), "service", None)
        return service if isinstance(service, TournamentService) else None

    async def _who(self, interaction: discord.Interaction, ref: int | None) -> Who:
        guild = require_guild(interaction)
        settings = await self.club.get(guild.id)
        return Who(
            guild_id=guild.id,
            channel_id=interaction.channel_id,
            ref=ref,
            actor_id=interaction.user.id,
            is_moderator=is_moderator(interaction.user, settings.moderator_role_id),
            actor_name=_name(interaction.user),
        )

    @app_commands.command(name="new", description="Make a Scrabble or chess league here")
    @app_commands.describe(
        game="Scrabble (asynchronous) or chess (correspondence)",
        name="The league's name",
        weeks="How long a season lasts (default 4 weeks)",
        division_size="Players in a division (4 to 10, default 6)",
        movers="How many move up and down from each division (default 1)",
        clock="Each game's clock: Scrabble's turn clock or chess's days per move (default 3d)",
        pairs="Every entrant is a pair",
    )
    @app_commands.choices(
        game=[Choice(name="Scrabble", value="scrabble"), Choice(name="Chess", value="chess")]
    )
    @app_commands.guild_only()
    async def new(
        self,
        interaction: discord.Interaction,
        game: str,
        name: app_commands.Range[str, 1, 60] | None = None,
        weeks: app_commands.Range[int, 1, opts.MAX_WEEKS] | None = None,
        division_size: app_commands.Range[int, 4, 10] | None = None,
        movers: app_commands.Range[int, 0, opts.MAX_MOVERS] | None = None,
        clock: str | None = None,
        pairs: bool = False,
    ) -> None:
        await think(interaction, private=True)
        guild = require_guild(interaction)
        who = await self._who(interaction, None)
        reply = await self.service.create(
            opts.NewLeague(
                guild_id=guild.id,
                guild_name=guild.name,
                channel_id=interaction.channel_id or 0,
                creator_id=interaction.user.id,
                creator_name=_name(interaction.user),
                game=game,
                name=name,
                weeks=weeks,
                division_size=division_size,
                movers=movers,
                clock=clock,
                pairs=pairs,
                is_moderator=who.is_moderator,
                in_thread=isinstance(interaction.channel, discord.Thread),
            )
        )
        await reply_as_said(interaction, reply)

    @app_commands.command(name="join", description="Enter the league's season in sign-up")
    @app_commands.describe(
        member="A director entering someone else",
        partner="Your partner (a league of pairs)",
        league=L_HELP,
    )
    @app_commands.guild_only()
    async def join(
        self,
        interaction: discord.Interaction,
        member: discord.Member | None = None,
        partner: discord.Member | None = None,
        league: int | None = None,
    ) -> None:
        await think(interaction, private=True)
        who = member or interaction.user
        if who.bot or (partner is not None and partner.bot):
            raise InvalidInputError(_(tmsg.BOT_ENTRANT))
        reply = await self.service.join(
            await self._who(interaction, league),
            (who.id, _name(who)),
            (partner.id, _name(partner)) if partner else None,
        )
        await reply_as_said(interaction, reply)

    @app_commands.command(
        name="start", description="Start the season: divisions placed, every game begun (director)"
    )
    @app_commands.describe(league=L_HELP)
    @app_commands.guild_only()
    async def start(self, interaction: discord.Interaction, league: int | None = None) -> None:
        await think(interaction, private=True)
        reply = await self.service.start(await self._who(interaction, league))
        await reply_as_said(interaction, reply)

    @app_commands.command(name="standings", description="Each division's table this season")
    @app_commands.describe(
        season="A season's number (default: the current one)",
        division="One division only (1 is the top)",
        league=L_HELP,
    )
    @app_commands.guild_only()
    async def standings(
        self,
        interaction: discord.Interaction,
        season: app_commands.Range[int, 1, 10_000] | None = None,
        division: app_commands.Range[int, 1, 1000] | None = None,
        league: int | None = None,
    ) -> None:
        await think(interaction, private=False)
        reply = await self.service.standings(await self._who(interaction, league), season, division)
        await reply_publicly(interaction, reply.text, allowed_mentions=NO_MENTIONS)

    @app_commands.command(
        name="season", description="A season: its dates, divisions, winners and moves"
    )
    @app_commands.describe(number="A season's number (default: the current one)", league=L_HELP)
    @app_commands.guild_only()
    async def season(
        self,
        interaction: discord.Interaction,
        number: app_commands.Range[int, 1, 10_000] | None = None,
        league: int | None = None,
    ) -> None:
        await think(interaction, private=True)
        reply = await self.service.season_summary(await self._who(interaction, league), number)
        await reply_as_said(interaction, reply)

    @app_commands.command(
        name="withdraw", description="Leave the league (unplayed games this season are forfeited)"
    )
    @app_commands.describe(member="A director withdrawing someone else", league=L_HELP)
    @app_commands.guild_only()
    async def withdraw(
        self,
        interaction: discord.Interaction,
        member: discord.Member | None = None,
        league: int | None = None,
    ) -> None:
        await think(interaction, private=True)
        who = member or interaction.user
        reply = await self.service.withdraw(
            await self._who(interaction, league), (who.id, _name(who))
        )
        await reply_as_said(interaction, reply)

    @app_commands.command(
        name="settings", description="Change the weeks, division size, movers or clock (director)"
    )
    @app_commands.describe(
        weeks="How long a season lasts",
        division_size="Players in a division (4 to 10)",
        movers="How many move up and down from each division",
        clock="Each game's clock",
        league=L_HELP,
    )
    @app_commands.guild_only()
    async def settings(
        self,
        interaction: discord.Interaction,
        weeks: app_commands.Range[int, 1, opts.MAX_WEEKS] | None = None,
        division_size: app_commands.Range[int, 4, 10] | None = None,
        movers: app_commands.Range[int, 0, opts.MAX_MOVERS] | None = None,
        clock: str | None = None,
        league: int | None = None,
    ) -> None:
        await think(interaction, private=True)
        reply = await self.service.configure(
            await self._who(interaction, league),
            opts.Settings(weeks=weeks, division_size=division_size, movers=movers, clock=clock),
        )
        await reply_as_said(interaction, reply)

    @app_commands.command(
        name="adjudicate", description="Decide a game of this season still in play (director)"
    )
    @app_commands.describe(
        member="One player of the game",
        opponent="The other player",
        result="The first member's result",
        league=L_HELP,
    )
    @app_commands.choices(
        result=[
            Choice(name="Win", value="win"),
            Choice(name="Draw", value="draw"),
            Choice(name="Loss", value="loss"),
        ]
    )
    @app_commands.guild_only()
    async def adjudicate(
        self,
        interaction: discord.Interaction,
        member: discord.Member,
        opponent: discord.Member,
        result: str,
        league: int | None = None,
    ) -> None:
        await think(interaction, private=True)
        reply = await self.service.adjudicate(
            await self._who(interaction, league),
            (member.id, _name(member)),
            (opponent.id, _name(opponent)),
            result,
        )
        await reply_as_said(interaction, reply)


async def setup(bot: ClubBot) -> None:
    cog = LeagueCog(bot)
    bot.scheduler.register_service(cog.service)
    await bot.add_cog(cog)
