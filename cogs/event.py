"""/event: the library's games event across Henyo, Boggle, Scrabble and chess.

Thin: parse the options, call ``EventService``, answer. Every answer is private
but ``standings``; the event's posts (opened, moved up, the final standings)
reach its channel through the outbox, after their commit. Each game's round is
run by that game's own service (Henyo's from its cog, Boggle's, the
tournaments'), looked up when a round starts: the cogs load in any order.
"""

from __future__ import annotations

import logging
from typing import Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import ClubBot
from bot.errors import InvalidInputError
from bot.messages import events as msg
from bot.messages.i18n import _
from bot.services.boggle import BoggleService
from bot.services.club import ClubService
from bot.services.events.options import VIEW_REGISTER
from bot.services.events.service import EventService, Member
from bot.services.events.snapshots import EventSnapshot, Unfinished
from bot.services.tournaments.service import TournamentService
from bot.ui.buttons import buttons_of
from bot.ui.errors import NO_MENTIONS, reply_privately, reply_publicly, think
from bot.ui.events import DYNAMIC_ITEMS, EVENT_BUTTONS, partner_view, register_view
from bot.ui.permissions import is_moderator, require_guild

log = logging.getLogger(__name__)
Choice = app_commands.Choice
GAME_CHOICES = [
    Choice(name="Library Henyo", value="henyo"),
    Choice(name="Word Boggle", value="boggle"),
    Choice(name="Scrabble", value="scrabble"),
    Choice(name="Chess", value="chess"),
]
E_HELP = "Which event (defaults to the one open here)"


def member_of(user: discord.abc.User) -> Member:
    return Member(user.id, getattr(user, "display_name", None) or user.name)


class EventCog(
    commands.GroupCog,
    group_name="event",
    group_description="The library's games event: pairs play Henyo, Boggle, Scrabble, chess",
):
    def __init__(self, bot: ClubBot) -> None:
        self.bot = bot
        self.service = EventService(bot.ctx, boggle=self._boggle, tournaments=self._tournaments)
        self.club = ClubService(bot.ctx)
        super().__init__()

    def _boggle(self) -> BoggleService | None:
        service = getattr(self.bot.get_cog("BoggleCog"), "service", None)
        return service if isinstance(service, BoggleService) else None

    def _tournaments(self) -> TournamentService | None:
        service = getattr(self.bot.get_cog("TournamentCog"), "service", None)
        return service if isinstance(service, TournamentService) else None

    async def _is_moderator(self, interaction: discord.Interaction) -> bool:
        guild = require_guild(interaction)
        settings = await self.club.get(guild.id)
        return is_moderator(interaction.user, settings.moderator_role_id)

    # ------------------------------------------------------------------ commands

    @app_commands.command(name="open", description="Open a games event here (moderators)")
    @app_commands.describe(
        games="Which games, e.g. henyo boggle scrabble chess (default: all four)",
        pairs="How many pairs play (default 5; later pairs wait)",
        name="The event's name",
    )
    @app_commands.guild_only()
    async def open(
        self,
        interaction: discord.Interaction,
        games: str | None = None,
        pairs: app_commands.Range[int, 2, 20] = 5,
        name: str | None = None,
    ) -> None:
        await think(interaction, private=True)
        guild = require_guild(interaction)
        view = await self.service.entry.open(
            guild_id=guild.id,
            guild_name=guild.name,
            channel_id=interaction.channel_id or 0,
            host=member_of(interaction.user),
            is_moderator=await self._is_moderator(interaction),
            games=games,
            pairs=pairs,
            name=name,
        )
        # The card first, so the reply's "the sign-up post is in this channel" is true
        # when the host reads it; it is kept to be edited when registration closes.
        channel = interaction.channel
        if isinstance(channel, discord.TextChannel | discord.Thread):
            card = await channel.send(
                msg.card(view),
                view=register_view({"event_id": view.id}),
                allowed_mentions=NO_MENTIONS,
            )
            await self.service.entry.set_card(view.id, card.id)
        await reply_privately(interaction, msg.opened_reply(view))

    async def _refresh_card(self, view: EventSnapshot) -> None:
        """Edit the sign-up card to the event as it stands (no Register button once
        registration is closed). Cosmetic: the state is stored, and a refused edit
        (the card deleted) changes nothing."""
        if view.card_message_id is None:
            return
        # By id: a thread is not always in discord.py's cache (bot/gateway/threads.py).
        channel = self.bot.get_partial_messageable(view.channel_id)
        registering = view.status == "open" and not view.started
        try:
            await channel.get_partial_message(view.card_message_id).edit(
                content=msg.card(view),
                view=register_view({"event_id": view.id}) if registering else None,
                allowed_mentions=NO_MENTIONS,
            )
        except discord.HTTPException as error:
            log.info("could not edit event %s's sign-up card (%s)", view.id, error.code)

    @app_commands.command(name="register", description="Register your pair for the games event")
    @app_commands.describe(partner="Your partner", event=E_HELP)
    @app_commands.guild_only()
    async def register(
        self, interaction: discord.Interaction, partner: discord.User, event: int | None = None
    ) -> None:
        await think(interaction, private=True)
        await self._register(interaction, event, partner)

    async def _register(
        self, interaction: discord.Interaction, event: int | None, partner: discord.abc.User
    ) -> None:
        guild = require_guild(interaction)
        if partner.bot:
            raise InvalidInputError(_(msg.PARTNER_IS_BOT))
        done = await self.service.entry.register(
            guild_id=guild.id,
            channel_id=interaction.channel_id,
            ref=event,
            user=member_of(interaction.user),
            partner=member_of(partner),
        )
        await reply_privately(interaction, msg.registered(done.pair, done.event.capacity))

    async def register_clicked(self, interaction: discord.Interaction, event_id: int) -> None:
        await think(interaction, private=True)
        guild = require_guild(interaction)
        name = await self.service.core.name_of(guild_id=guild.id, event_id=event_id)
        await reply_privately(interaction, msg.pick_partner(name), view=partner_view(event_id))

    async def partner_picked(
        self, interaction: discord.Interaction, event_id: int, partner: discord.abc.User
    ) -> None:
        await think(interaction, private=True)
        await self._register(interaction, event_id, partner)

    @app_commands.command(name="withdraw", description="Withdraw your pair from the games event")
    @app_commands.describe(event=E_HELP)
    @app_commands.guild_only()
    async def withdraw(self, interaction: discord.Interaction, event: int | None = None) -> None:
        await think(interaction, private=True)
        guild = require_guild(interaction)
        done = await self.service.entry.withdraw(
            guild_id=guild.id,
            channel_id=interaction.channel_id,
            ref=event,
            user_id=interaction.user.id,
        )
        await reply_privately(interaction, msg.withdrawn(done.moved_up))

    @app_commands.command(name="round", description="Start a game's round for the pairs (host)")
    @app_commands.describe(
        game="Which game's round",
        format="Scrabble and chess: round robin (default), knockout or Swiss",
        rounds="Swiss only: how many rounds",
        duration="Boggle: how long the round lasts (default 3m)",
        referee="Henyo: typed replies (default), or host: played aloud, you press a console",
        event=E_HELP,
    )
    @app_commands.choices(
        game=GAME_CHOICES,
        format=[
            Choice(name="Round robin", value="round_robin"),
            Choice(name="Knockout", value="knockout"),
            Choice(name="Swiss", value="swiss"),
        ],
    )
    @app_commands.guild_only()
    async def round(
        self,
        interaction: discord.Interaction,
        game: str,
        format: str | None = None,
        rounds: app_commands.Range[int, 1, 20] | None = None,
        duration: str | None = None,
        event: int | None = None,
        referee: Literal["typed", "host"] | None = None,
    ) -> None:
        await think(interaction, private=True)
        guild = require_guild(interaction)
        started = await self.service.running.start_round(
            guild_id=guild.id,
            guild_name=guild.name,
            channel_id=interaction.channel_id,
            ref=event,
            user_id=interaction.user.id,
            is_moderator=await self._is_moderator(interaction),
            game=game,
            fmt=format,
            rounds_count=rounds,
            duration=duration,
            referee=referee,
        )
        await reply_privately(interaction, msg.round_started(started.game, started.pairs))
        await self._refresh_card(started.event)

    @app_commands.command(name="prize", description="Write a game's prize line (host)")
    @app_commands.describe(
        game="Which game", text="The prize, e.g. Book voucher", place="Which place (default 1)"
    )
    @app_commands.choices(game=GAME_CHOICES)
    @app_commands.guild_only()
    async def prize(
        self,
        interaction: discord.Interaction,
        game: str,
        text: app_commands.Range[str, 1, 200],
        place: app_commands.Range[int, 1, 10] = 1,
        event: int | None = None,
    ) -> None:
        await think(interaction, private=True)
        guild = require_guild(interaction)
        written = await self.service.running.prize(
            guild_id=guild.id,
            channel_id=interaction.channel_id,
            ref=event,
            user_id=interaction.user.id,
            is_moderator=await self._is_moderator(interaction),
            game=game,
            place=place,
            text=text,
        )
        await reply_privately(interaction, msg.prize_written(written))

    @app_commands.command(name="standings", description="The games event's standings, per game")
    @app_commands.describe(game="Only this game", event=E_HELP)
    @app_commands.choices(game=GAME_CHOICES)
    @app_commands.guild_only()
    async def standings(
        self, interaction: discord.Interaction, game: str | None = None, event: int | None = None
    ) -> None:
        await think(interaction, private=False)
        guild = require_guild(interaction)
        result = await self.service.reading.standings(
            guild_id=guild.id, channel_id=interaction.channel_id, ref=event, game=game
        )
        await reply_publicly(interaction, msg.standings_text(result), allowed_mentions=NO_MENTIONS)

    @app_commands.command(
        name="close", description="Close the event: final standings and prizes (host)"
    )
    @app_commands.describe(confirm="Close even with games under way", event=E_HELP)
    @app_commands.guild_only()
    async def close(
        self, interaction: discord.Interaction, confirm: bool = False, event: int | None = None
    ) -> None:
        await think(interaction, private=True)
        guild = require_guild(interaction)
        result = await self.service.closing.close(
            guild_id=guild.id,
            channel_id=interaction.channel_id,
            ref=event,
            user_id=interaction.user.id,
            is_moderator=await self._is_moderator(interaction),
            confirmed=confirm,
        )
        if isinstance(result, Unfinished):
            await reply_privately(interaction, msg.unfinished(result.games))
            return
        await reply_privately(interaction, msg.closed_reply(result.event.name))
        await self._refresh_card(result.event)


async def setup(bot: ClubBot) -> None:
    cog = EventCog(bot)
    bot.outbox.views[VIEW_REGISTER] = register_view
    bot.add_dynamic_items(*DYNAMIC_ITEMS)
    buttons_of(bot).bind(EVENT_BUTTONS, cog)
    await bot.add_cog(cog)
