"""/tournament: chess and Scrabble tournaments (round robin, Swiss, knockout): make,
enter, check in, start, standings, and the director's tools (pair, adjudicate,
void, withdraw, extend, pause, resume, log), the players' over-the-board
results, plus exports.

Thin: parse the options, call ``TournamentService``, answer. Every answer is
private but ``standings``; the rounds, standings and tables reach the
tournament's channel through the outbox, after their commit. The games are made
through the chess and Scrabble cogs' own services (one of each), so a round's
games are games like any other.

Over 400 lines for a reason: one module holds one command group (DESIGN.md), and
its fifteen commands declare their options, descriptions and choices here,
where Discord reads them; each body only parses, calls the service and answers.
"""

from __future__ import annotations

import logging
from dataclasses import replace
from typing import Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import ClubBot
from bot.errors import InvalidInputError
from bot.messages import tournaments as msg
from bot.messages import web as web_msg
from bot.messages.i18n import _
from bot.services.chess import ChessService
from bot.services.club import ClubService
from bot.services.scrabble import ScrabbleService
from bot.services.tournaments import options as opts
from bot.services.tournaments.director import Act
from bot.services.tournaments.service import TournamentService
from bot.services.web import WebService, page_url
from bot.ui.buttons import buttons_of
from bot.ui.errors import NO_MENTIONS, reply_as_said, reply_privately, reply_publicly, think
from bot.ui.permissions import is_moderator, require_guild
from bot.ui.tournaments import (
    DYNAMIC_ITEMS,
    TOURNAMENT_BUTTONS,
    Action,
    Result,
    entry_view,
    export_files,
    make_game_thread,
    report_view,
)

log = logging.getLogger(__name__)
T_HELP = "Which tournament (defaults to the one under way here)"
Choice = app_commands.Choice


def _name(user: discord.abc.User) -> str:
    return getattr(user, "display_name", None) or user.name


class TournamentCog(
    commands.GroupCog,
    group_name="tournament",
    group_description="Chess and Scrabble tournaments: round robin, Swiss, knockout",
):
    def __init__(self, bot: ClubBot) -> None:
        self.bot = bot
        chess_cog = bot.get_cog("ChessCog")
        scrabble_cog = bot.get_cog("ScrabbleCog")
        chess: ChessService | None = getattr(chess_cog, "service", None)
        scrabble: ScrabbleService | None = getattr(scrabble_cog, "service", None)
        self.service = TournamentService(bot.ctx, chess=chess, scrabble=scrabble)
        self.service.games.thread_maker = lambda *args: make_game_thread(bot, *args)
        self.club = ClubService(bot.ctx)
        self.web_pages = WebService(bot.ctx)
        super().__init__()

    async def _is_moderator(self, interaction: discord.Interaction) -> bool:
        guild = require_guild(interaction)
        settings = await self.club.get(guild.id)
        return is_moderator(interaction.user, settings.moderator_role_id)

    async def _act(self, interaction: discord.Interaction, ref: int | None) -> Act:
        guild = require_guild(interaction)
        return Act(
            guild_id=guild.id,
            channel_id=interaction.channel_id,
            ref=ref,
            actor_id=interaction.user.id,
            is_moderator=await self._is_moderator(interaction),
            actor_name=_name(interaction.user),
        )

    # ------------------------------------------------------------------ making

    @app_commands.command(name="new", description="Make a chess or Scrabble tournament here")
    @app_commands.describe(
        game="Chess or Scrabble",
        format="Round robin, Swiss (give rounds) or knockout",
        rounds="Swiss only: how many rounds",
        time_control="Each game's clock, as /chess new time or /scrabble new clock takes it",
        deadline="Each round's deadline: 2h, 3d (a plain number is days; default 7d)",
        rated="Do the games count for ratings (default yes)",
        entry="Members join with a button, or you name them with /tournament join member",
        checkin="Entrants must check in before the first round",
        pairs="Every entrant is a pair (in chess either partner moves)",
        name="The tournament's name",
        pairing="Chess Swiss: the FIDE Dutch system (default) or the club's own engine",
        where="Chess: in Discord (default) or over the board in the room",
    )
    @app_commands.choices(
        game=[Choice(name="Chess", value="chess"), Choice(name="Scrabble", value="scrabble")],
        format=[
            Choice(name="Round robin", value="round_robin"),
            Choice(name="Swiss", value="swiss"),
            Choice(name="Knockout", value="knockout"),
        ],
        entry=[
            Choice(name="Button (members join)", value="button"),
            Choice(name="Named by the director", value="named"),
        ],
        pairing=[
            Choice(name="FIDE Dutch (as Swiss-Manager, JaVaFo, Lichess)", value=opts.DUTCH),
            Choice(name="The club's own engine", value=opts.CLUB_ENGINE),
        ],
        where=[Choice(name="Discord", value="discord"), Choice(name="Room", value=opts.ROOM)],
    )
    @app_commands.guild_only()
    async def new(
        self,
        interaction: discord.Interaction,
        game: str,
        format: str,
        rounds: app_commands.Range[int, 1, opts.MAX_SWISS_ROUNDS] | None = None,
        time_control: str | None = None,
        deadline: str | None = None,
        rated: bool = True,
        entry: str = "button",
        checkin: bool = False,
        pairs: bool = False,
        name: app_commands.Range[str, 1, 80] | None = None,
        pairing: str | None = None,
        where: str | None = None,
    ) -> None:
        await think(interaction, private=True)
        guild = require_guild(interaction)
        reply = await self.service.entry.create(
            opts.NewTournament(
                guild_id=guild.id,
                guild_name=guild.name,
                channel_id=interaction.channel_id or 0,
                creator_id=interaction.user.id,
                creator_name=_name(interaction.user),
                game=game,
                format=format,
                rounds=rounds,
                time_control=time_control,
                deadline=deadline,
                rated=rated,
                entry=entry,
                checkin=checkin,
                pairs=pairs,
                name=name,
                pairing=pairing,
                where=where,
                is_moderator=await self._is_moderator(interaction),
                in_thread=isinstance(interaction.channel, discord.Thread),
            )
        )
        await reply_as_said(interaction, reply)

    # ------------------------------------------------------------------ entry

    @app_commands.command(
        name="join", description="Enter the tournament (a director may enter a member)"
    )
    @app_commands.describe(
        member="A director entering someone else",
        partner="Your partner (pairs tournaments)",
        leave="Take the entry off the list instead (before the start)",
        tournament=T_HELP,
    )
    @app_commands.guild_only()
    async def join(
        self,
        interaction: discord.Interaction,
        member: discord.Member | None = None,
        partner: discord.Member | None = None,
        leave: bool = False,
        tournament: int | None = None,
    ) -> None:
        await think(interaction, private=True)
        guild = require_guild(interaction)
        who = member or interaction.user
        if not leave and (who.bot or (partner is not None and partner.bot)):
            # A bot never plays its moves (there is no computer entrant): refuse it.
            raise InvalidInputError(_(msg.BOT_ENTRANT))
        if leave:
            reply = await self.service.entry.leave(
                guild_id=guild.id,
                channel_id=interaction.channel_id,
                ref=tournament,
                user_id=who.id,
            )
        else:
            reply = await self.service.entry.join(
                guild_id=guild.id,
                channel_id=interaction.channel_id,
                ref=tournament,
                user=(who.id, _name(who)),
                partner=(partner.id, _name(partner)) if partner else None,
                actor_id=interaction.user.id,
                is_moderator=await self._is_moderator(interaction),
                actor_name=_name(interaction.user),
            )
        await reply_as_said(interaction, reply)

    @app_commands.command(name="checkin", description="Check in before the first round")
    @app_commands.describe(tournament=T_HELP)
    @app_commands.guild_only()
    async def checkin(
        self, interaction: discord.Interaction, tournament: int | None = None
    ) -> None:
        await think(interaction, private=True)
        guild = require_guild(interaction)
        reply = await self.service.entry.check_in(
            guild_id=guild.id,
            channel_id=interaction.channel_id,
            ref=tournament,
            user_id=interaction.user.id,
        )
        await reply_as_said(interaction, reply)

    async def entry_clicked(
        self, interaction: discord.Interaction, tournament_id: int, action: Action
    ) -> None:
        await think(interaction, private=True)
        guild = require_guild(interaction)
        if action == "join":
            reply = await self.service.entry.join(
                guild_id=guild.id,
                channel_id=interaction.channel_id,
                ref=tournament_id,
                user=(interaction.user.id, _name(interaction.user)),
                partner=None,
                actor_id=interaction.user.id,
                is_moderator=False,
            )
        else:
            reply = await self.service.entry.check_in(
                guild_id=guild.id,
                channel_id=interaction.channel_id,
                ref=tournament_id,
                user_id=interaction.user.id,
            )
        await reply_as_said(interaction, reply)

    @app_commands.command(
        name="start", description="Start the tournament: round 1 is paired (director)"
    )
    @app_commands.describe(tournament=T_HELP)
    @app_commands.guild_only()
    async def start(self, interaction: discord.Interaction, tournament: int | None = None) -> None:
        await think(interaction, private=True)
        act = await self._act(interaction, tournament)
        reply = await self.service.lifecycle.start(
            guild_id=act.guild_id,
            channel_id=act.channel_id,
            ref=act.ref,
            actor_id=act.actor_id,
            is_moderator=act.is_moderator,
            actor_name=act.actor_name,
        )
        if not reply.public and not reply.needs_confirm:  # the director's own answer
            printing = await self._print_url(act.guild_id, reply.tournament_id)
            if printing is not None:
                reply = replace(reply, text=f"{reply.text}\n{web_msg.print_round(printing)}")
        await reply_as_said(interaction, reply)

    async def _print_url(self, guild_id: int, tournament_id: int) -> str | None:
        """The printable pairings of the tournament's round (the club's web page, when it is
        on and the bot has its address)."""
        base = self.bot.settings.web_base_url
        page = await self.web_pages.page(guild_id)
        if base is None or page.path is None:
            return None
        return page_url(base, f"{page.path}tournaments/{tournament_id}/print/pairings")

    # ------------------------------------------------------------------ reading

    @app_commands.command(name="standings", description="The tournament's standings and this round")
    @app_commands.describe(tournament=T_HELP)
    @app_commands.guild_only()
    async def standings(
        self, interaction: discord.Interaction, tournament: int | None = None
    ) -> None:
        await think(interaction, private=False)
        guild = require_guild(interaction)
        reply = await self.service.reading.standings(
            guild_id=guild.id, channel_id=interaction.channel_id, ref=tournament
        )
        await reply_publicly(interaction, reply.text, allowed_mentions=NO_MENTIONS)

    @app_commands.command(name="log", description="The director's log: who did what, and when")
    @app_commands.describe(tournament=T_HELP)
    @app_commands.guild_only()
    async def log_(self, interaction: discord.Interaction, tournament: int | None = None) -> None:
        await think(interaction, private=True)
        guild = require_guild(interaction)
        reply = await self.service.reading.log(
            guild_id=guild.id, channel_id=interaction.channel_id, ref=tournament
        )
        await reply_as_said(interaction, reply)

    @app_commands.command(
        name="export", description="Standings as CSV, TRF (chess) or tsh (Scrabble), and every game"
    )
    @app_commands.describe(tournament=T_HELP)
    @app_commands.guild_only()
    async def export(self, interaction: discord.Interaction, tournament: int | None = None) -> None:
        await think(interaction, private=True)
        guild = require_guild(interaction)
        reply, files = await self.service.reading.export(
            guild_id=guild.id, channel_id=interaction.channel_id, ref=tournament
        )
        await reply_privately(interaction, reply.text, files=export_files(files))

    # ------------------------------------------------------------------ director

    @app_commands.command(name="pair", description="Set a pairing of the held round (director)")
    @app_commands.describe(
        first="Plays this board (White in chess)",
        second="Their opponent",
        confirm="Pair them even if they met already",
        tournament=T_HELP,
    )
    @app_commands.guild_only()
    async def pair(
        self,
        interaction: discord.Interaction,
        first: discord.Member,
        second: discord.Member,
        confirm: bool = False,
        tournament: int | None = None,
    ) -> None:
        await think(interaction, private=True)
        act = await self._act(interaction, tournament)
        reply = await self.service.director.pair(
            act, (first.id, _name(first)), (second.id, _name(second)), confirm=confirm
        )
        await reply_as_said(interaction, reply)

    @app_commands.command(name="result", description="Report your over-the-board game's result")
    @app_commands.describe(result="Your own result", tournament=T_HELP)
    @app_commands.guild_only()
    async def result(
        self,
        interaction: discord.Interaction,
        result: Literal["win", "draw", "loss"],
        tournament: int | None = None,
    ) -> None:
        await think(interaction, private=True)
        await self._report(interaction, tournament, result, None)

    async def report_clicked(
        self,
        interaction: discord.Interaction,
        tournament_id: int,
        round_number: int,
        result: Result,
    ) -> None:
        await think(interaction, private=True)
        await self._report(interaction, tournament_id, result, round_number)

    async def _report(
        self,
        interaction: discord.Interaction,
        tournament: int | None,
        result: str,
        round_number: int | None,
    ) -> None:
        guild = require_guild(interaction)
        act = Act(
            guild_id=guild.id,
            channel_id=interaction.channel_id,
            ref=tournament,
            actor_id=interaction.user.id,
            is_moderator=False,  # a player's own report: no director's rights needed
            actor_name=_name(interaction.user),
        )
        reply = await self.service.room.report(act, result, round_number)
        await reply_as_said(interaction, reply)

    @app_commands.command(name="adjudicate", description="Set a game's result (director)")
    @app_commands.describe(
        member="An entrant in the game",
        result="Their result",
        round="The round (default: the current one)",
        tournament=T_HELP,
    )
    @app_commands.guild_only()
    async def adjudicate(
        self,
        interaction: discord.Interaction,
        member: discord.Member,
        result: Literal["win", "draw", "loss"],
        round: app_commands.Range[int, 1, 99] | None = None,
        tournament: int | None = None,
    ) -> None:
        await think(interaction, private=True)
        act = await self._act(interaction, tournament)
        reply = await self.service.director.adjudicate(
            act, (member.id, _name(member)), result, round
        )
        await reply_as_said(interaction, reply)

    @app_commands.command(
        name="void", description="Void a game's result: it scores for nobody (director)"
    )
    @app_commands.describe(
        member="An entrant in the game",
        round="The round (default: the current one)",
        tournament=T_HELP,
    )
    @app_commands.guild_only()
    async def void(
        self,
        interaction: discord.Interaction,
        member: discord.Member,
        round: app_commands.Range[int, 1, 99] | None = None,
        tournament: int | None = None,
    ) -> None:
        await think(interaction, private=True)
        act = await self._act(interaction, tournament)
        reply = await self.service.director.void(act, (member.id, _name(member)), round)
        await reply_as_said(interaction, reply)

    @app_commands.command(
        name="withdraw",
        description="Leave a started tournament; its games still to play are forfeited",
    )
    @app_commands.describe(member="A director withdrawing someone else", tournament=T_HELP)
    @app_commands.guild_only()
    async def withdraw(
        self,
        interaction: discord.Interaction,
        member: discord.Member | None = None,
        tournament: int | None = None,
    ) -> None:
        await think(interaction, private=True)
        act = await self._act(interaction, tournament)
        who = member or interaction.user
        reply = await self.service.director.withdraw(act, (who.id, _name(who)))
        await reply_as_said(interaction, reply)

    @app_commands.command(name="extend", description="Give the round more time (director)")
    @app_commands.describe(by="How much more: 30m, 2h, 1d", tournament=T_HELP)
    @app_commands.guild_only()
    async def extend(
        self, interaction: discord.Interaction, by: str, tournament: int | None = None
    ) -> None:
        await think(interaction, private=True)
        act = await self._act(interaction, tournament)
        await reply_as_said(interaction, await self.service.director.extend(act, by))

    @app_commands.command(
        name="pause", description="Hold the next round until you resume (director)"
    )
    @app_commands.describe(tournament=T_HELP)
    @app_commands.guild_only()
    async def pause(self, interaction: discord.Interaction, tournament: int | None = None) -> None:
        await think(interaction, private=True)
        act = await self._act(interaction, tournament)
        await reply_as_said(interaction, await self.service.director.pause(act))

    @app_commands.command(name="resume", description="Go on: a held round's games start (director)")
    @app_commands.describe(tournament=T_HELP)
    @app_commands.guild_only()
    async def resume(self, interaction: discord.Interaction, tournament: int | None = None) -> None:
        await think(interaction, private=True)
        act = await self._act(interaction, tournament)
        await reply_as_said(interaction, await self.service.director.resume(act))

    # ------------------------------------------------------------------ autocomplete

    async def _tournaments(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[int]]:
        if interaction.guild is None:
            return []
        try:
            found = await self.service.reading.suggestions(interaction.guild.id, current or "")
        except Exception:
            log.exception("tournament suggestions failed")
            return []
        return [app_commands.Choice(name=label, value=value) for label, value in found[:25]]

    for _command in (
        join,
        checkin,
        start,
        standings,
        log_,
        export,
        pair,
        adjudicate,
        void,
        withdraw,
        extend,
        pause,
        resume,
    ):
        _command.autocomplete("tournament")(_tournaments)
    del _command


async def setup(bot: ClubBot) -> None:
    cog = TournamentCog(bot)
    bot.scheduler.register_service(cog.service)
    bot.outbox.views[opts.VIEW_ENTRY] = entry_view
    bot.outbox.views[opts.VIEW_REPORT] = report_view
    bot.add_dynamic_items(*DYNAMIC_ITEMS)
    buttons_of(bot).bind(TOURNAMENT_BUTTONS, cog)
    await bot.add_cog(cog)
