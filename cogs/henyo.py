"""/henyo: Library Henyo events, rounds, the referee and the word bank.

Start of a round (``/henyo start``): the service stores the round as ready;
this cog DMs the secret to the answerer (closed DMs: the host is told at once
and the round is cancelled) and to the host, posts the announcement — whose
Discord timestamp starts the clock — and tells the service the round began.

The referee listens to messages in channels with a running round. After a
restart the gateway's read-back (``bot.gateway``) hands it the channel's
history since each running round's announcement, so a guess sent while the bot
was down still counts, with its own timestamp.

Over 400 lines because it is the whole ``/henyo`` group (one group per cog
module): ten commands with their option descriptions. The texts are in
``bot.messages.henyo``, the Discord plumbing in ``bot.ui.henyo``.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Coroutine
from typing import Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import ClubBot
from bot.errors import InvalidInputError
from bot.gateway import Gateway, is_chatty
from bot.messages import henyo as messages
from bot.messages.henyo import aloud
from bot.messages.i18n import _, use_language
from bot.services.club import ClubService
from bot.services.henyo import (
    ClosedRound,
    ConsoleView,
    EventClosed,
    HenyoService,
    Member,
    PreparedRound,
)
from bot.ui import henyo as ui
from bot.ui.buttons import buttons_of
from bot.ui.errors import reply_privately, reply_publicly, think, update_later
from bot.ui.permissions import is_moderator, require_guild
from engines.henyo import Reply

log = logging.getLogger(__name__)

CategoryChoice = Literal["Tao", "Bagay", "Hayop", "Pagkain", "Lugar"]
LanguageChoice = Literal["Filipino", "English", "Both"]
WordLanguageChoice = Literal["Filipino", "English"]
RoleChoice = Literal["guesser", "answerer"]
RefereeChoice = Literal["typed", "host"]
HISTORY_LIMIT = 500


def member_of(user: discord.abc.User) -> Member:
    return Member(user.id, getattr(user, "display_name", None) or user.name)


def _no_bots(*users: discord.abc.User | None) -> None:
    for user in users:
        if user is not None and user.bot:
            raise InvalidInputError(messages.NO_BOTS)


class HenyoCog(
    commands.GroupCog, group_name="henyo", group_description="Library Henyo: guess the secret word"
):
    event = app_commands.Group(
        name="event", description="Open or close a Henyo event", guild_only=True
    )
    words = app_commands.Group(
        name="words", description="The club's Henyo words (host only)", guild_only=True
    )

    def __init__(self, bot: ClubBot) -> None:
        self.bot = bot
        self.service = HenyoService(bot.ctx)
        self.club = ClubService(bot.ctx)
        self.gateway = Gateway(bot, clock=bot.ctx.clock)
        self.service.round_closed_listeners.append(self._round_closed)
        self._live_channels: set[int] = set()
        self._tasks: set[asyncio.Task[None]] = set()
        self.lists = ui.RegistrationList(bot, self.service.events)
        super().__init__()

    async def cog_load(self) -> None:
        self._live_channels = {
            r.channel_id for r in await self.service.rounds.active() if r.referee != "host"
        }

    async def cog_unload(self) -> None:
        for task in list(self._tasks):
            task.cancel()

    # ------------------------------------------------------------------ helpers

    async def _is_moderator(self, interaction: discord.Interaction) -> bool:
        guild = require_guild(interaction)
        settings = await self.club.get(guild.id)
        return is_moderator(interaction.user, settings.moderator_role_id)

    def _spawn(self, coro: Coroutine[Any, Any, None]) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _round_closed(self, closed: ClosedRound) -> None:
        """After a round's end commits: stop watching the channel, take the buttons off."""
        self._live_channels.discard(closed.channel_id)
        if closed.announce_message_id is not None:
            self._spawn(ui.remove_buttons(self.bot, closed.channel_id, closed.announce_message_id))

    # ------------------------------------------------------------------ events

    @event.command(
        name="open", description="Open a Henyo event here: pairs register, then play one word each"
    )
    @app_commands.describe(
        pairs="How many pairs play (default 5); later pairs wait and move up if a pair withdraws",
        time_limit="Time to guess, 10s to 10m, e.g. 90s or 1:30 (default 2m); a plain number is seconds",
        penalty="Penalty for a reply other than Oo/Hindi/Pwede, up to 60s (default 5s); a plain number is seconds",
        categories="Word categories, e.g. 'Hayop, Pagkain' (default: all five)",
        language="Words in Filipino, English or both (default both)",
        strict="Bare Oo/Hindi/Pwede only: polite Opo, Oo po, Hindi po, Pwede po cost a penalty too",
        referee="Rounds refereed from typed replies (default) or by you in the room (played aloud)",
    )
    async def event_open(
        self,
        interaction: discord.Interaction,
        pairs: app_commands.Range[int, 1, 25] = 5,
        time_limit: str | None = None,
        penalty: str | None = None,
        categories: str | None = None,
        language: LanguageChoice = "Both",
        strict: bool = False,
        referee: RefereeChoice = "typed",
    ) -> None:
        await think(interaction, private=False)
        guild = require_guild(interaction)
        event = await self.service.events.open(
            guild_id=guild.id,
            guild_name=guild.name,
            channel_id=interaction.channel_id or 0,
            host=member_of(interaction.user),
            pairs=pairs,
            time_limit=time_limit,
            penalty=penalty,
            categories=categories,
            language=language,
            is_moderator=await self._is_moderator(interaction),
            strict=strict,
            referee=referee,
        )
        # Hold the list's lock until its message id is saved: a registration
        # arriving meanwhile must edit this message, not post a second list.
        async with self.lists.lock(event.id):
            await reply_publicly(interaction, embed=ui.registration_embed(event))
            message = await interaction.original_response()
            await self.service.events.set_list_message(event.id, message.id)

    @event.command(name="close", description="Close the event here and crown the winners (host)")
    async def event_close(self, interaction: discord.Interaction) -> None:
        await think(interaction, private=False)
        guild = require_guild(interaction)
        closed = await self.service.events.close(
            guild_id=guild.id,
            channel_id=interaction.channel_id or 0,
            user_id=interaction.user.id,
            is_moderator=await self._is_moderator(interaction),
        )
        if not isinstance(closed, EventClosed):
            # Pairs still to play: only the host sees who, and confirms with the button.
            await reply_privately(
                interaction,
                messages.close_needs_confirmation(
                    closed.event.id, closed.not_played, closed.tie_break
                ),
                view=ui.close_view(closed.event.id),
            )
            return
        await self._announce_closed(interaction, closed)

    async def on_close_button(self, interaction: discord.Interaction, event_id: int) -> None:
        await update_later(interaction)
        guild = require_guild(interaction)
        closed = await self.service.events.close(
            guild_id=guild.id,
            channel_id=interaction.channel_id or 0,
            user_id=interaction.user.id,
            is_moderator=await self._is_moderator(interaction),
            event_id=event_id,
            confirmed=True,
        )
        assert isinstance(closed, EventClosed)  # confirmed: it always closes
        # The host's prompt loses its button; the closing is announced to everyone.
        await interaction.edit_original_response(
            content=messages.closed_as_confirmed(closed.event.id), view=None
        )
        await self._announce_closed(interaction, closed)

    async def _announce_closed(self, interaction: discord.Interaction, closed: EventClosed) -> None:
        headline = messages.event_closed(
            closed.event.id,
            closed.winner.label if closed.winner else None,
            tie_unbroken=bool(closed.standings.leaders),
        )
        embed = ui.standings_embed(closed.standings)
        await reply_publicly(interaction, headline, embed=embed)
        await self.lists.refresh(closed.event.id)

    @app_commands.command(
        name="register", description="Register your pair for the open Henyo event"
    )
    @app_commands.describe(partner="Your teammate", role="Your part: guesser (default) or answerer")
    @app_commands.guild_only()
    async def register(
        self,
        interaction: discord.Interaction,
        partner: discord.Member,
        role: RoleChoice = "guesser",
    ) -> None:
        await think(interaction, private=True)
        guild = require_guild(interaction)
        _no_bots(partner)
        registration = await self.service.events.register(
            guild_id=guild.id,
            guild_name=guild.name,
            channel_id=interaction.channel_id or 0,
            user=member_of(interaction.user),
            partner=member_of(partner),
            role=role,
        )
        team = registration.team
        await reply_privately(
            interaction,
            messages.registered(team.label, team.number, waiting=team.status == "waiting"),
        )
        await self.lists.refresh(registration.event.id)

    @app_commands.command(name="withdraw", description="Withdraw your pair from the Henyo event")
    @app_commands.guild_only()
    async def withdraw(self, interaction: discord.Interaction) -> None:
        await think(interaction, private=True)
        guild = require_guild(interaction)
        withdrawal = await self.service.events.withdraw(
            guild_id=guild.id, channel_id=interaction.channel_id or 0, user_id=interaction.user.id
        )
        moved_up = withdrawal.moved_up.label if withdrawal.moved_up else None
        await reply_privately(
            interaction, messages.withdrew(withdrawal.team.label, withdrawal.event.id, moved_up)
        )
        await self.lists.refresh(withdrawal.event.id)

    @app_commands.command(
        name="standings", description="The Henyo event's table: final times, ties, waiting list"
    )
    @app_commands.describe(event="An event number (default: this channel's event)")
    @app_commands.guild_only()
    async def standings(self, interaction: discord.Interaction, event: int | None = None) -> None:
        await think(interaction, private=False)
        guild = require_guild(interaction)
        table = await self.service.standings.show(
            guild_id=guild.id, channel_id=interaction.channel_id or 0, event_id=event
        )
        await reply_publicly(interaction, embed=ui.standings_embed(table))

    # ------------------------------------------------------------------ rounds

    @app_commands.command(
        name="start", description="Start a round: the event's next pair, or a one-off pair"
    )
    @app_commands.describe(
        guesser="One-off round: who guesses (with answerer)",
        answerer="One-off round: who answers Oo/Hindi/Pwede (gets the secret by DM)",
        category="Pick the word from this category",
        word="Set the secret yourself (only you and the answerer see it)",
        strict="Bare Oo/Hindi/Pwede only in this round (a strict event's rounds always are)",
        referee="typed: replies typed here; host: played aloud, you press a private console "
        "(default: the event's choice, else typed)",
    )
    @app_commands.guild_only()
    async def start(
        self,
        interaction: discord.Interaction,
        guesser: discord.Member | None = None,
        answerer: discord.Member | None = None,
        category: CategoryChoice | None = None,
        word: app_commands.Range[str, 1, 60] | None = None,
        strict: bool = False,
        referee: RefereeChoice | None = None,
    ) -> None:
        await think(interaction, private=True)
        guild = require_guild(interaction)
        _no_bots(guesser, answerer)
        prepared = await self.service.rounds.prepare(
            guild_id=guild.id,
            guild_name=guild.name,
            channel_id=interaction.channel_id or 0,
            host=member_of(interaction.user),
            is_moderator=await self._is_moderator(interaction),
            guesser=member_of(guesser) if guesser else None,
            answerer=member_of(answerer) if answerer else None,
            category=category,
            word=word,
            strict=strict,
            referee=referee,
        )
        if prepared.referee == "host":
            await self._start_aloud(interaction, prepared)
            return
        if not await ui.send_dm(
            self.bot.dms, prepared.answerer.id, messages.secret_dm(prepared, for_host=False)
        ):
            await self.service.rounds.cancel(prepared.round_id, "dm_closed")
            await reply_privately(
                interaction, messages.answerer_unreachable(prepared.answerer.name)
            )
            return
        host_dm_ok = await ui.send_dm(
            self.bot.dms, prepared.host.id, messages.secret_dm(prepared, for_host=True)
        )
        channel = interaction.channel
        assert isinstance(channel, discord.abc.Messageable)  # a guild command's channel
        try:
            posted = await channel.send(
                messages.announcement(prepared), view=ui.reply_view(prepared.round_id)
            )
        except discord.HTTPException as error:
            await self.service.rounds.cancel(prepared.round_id, "announce_failed")
            raise InvalidInputError(messages.CANNOT_ANNOUNCE) from error
        self._live_channels.add(prepared.channel_id)
        running = await self.service.rounds.begin(prepared.round_id, posted.id)
        self._live_channels.add(
            prepared.channel_id
        )  # a stray message may have dropped it meanwhile
        await reply_privately(
            interaction,
            messages.start_confirmation(prepared, running.ends_at, host_dm_failed=not host_dm_ok),
        )

    async def _start_aloud(self, interaction: discord.Interaction, prepared: PreparedRound) -> None:
        """A round played aloud: no DMs (the card is in the room, the host's console shows
        the word), the announcement without reply buttons, and the host's console."""
        channel = interaction.channel
        assert isinstance(channel, discord.abc.Messageable)  # a guild command's channel
        try:
            posted = await channel.send(aloud.announcement(prepared))
        except discord.HTTPException as error:
            await self.service.rounds.cancel(prepared.round_id, "announce_failed")
            raise InvalidInputError(messages.CANNOT_ANNOUNCE) from error
        console = await self.service.host.announce(prepared.round_id, posted.id)
        await self._send_console(interaction, console)

    async def _phone_url(
        self, interaction: discord.Interaction, console: ConsoleView
    ) -> str | None:
        guild = interaction.guild
        return await self.service.host.phone_url(
            console.round_id, interaction.user.id, guild_name=guild.name if guild else ""
        )

    async def _send_console(self, interaction: discord.Interaction, console: ConsoleView) -> None:
        await reply_privately(
            interaction,
            aloud.console_text(console),
            view=ui.console_view(console, await self._phone_url(interaction, console)),
        )

    @app_commands.command(
        name="console", description="Your private console for the round played aloud here (host)"
    )
    @app_commands.guild_only()
    async def console(self, interaction: discord.Interaction) -> None:
        await think(interaction, private=True)
        console = await self.service.host.console_in_channel(
            interaction.channel_id or 0,
            user_id=interaction.user.id,
            is_moderator=await self._is_moderator(interaction),
        )
        await self._send_console(interaction, console)

    async def on_host_button(
        self, interaction: discord.Interaction, round_id: int, press: str, version: int
    ) -> None:
        await update_later(interaction)
        is_mod = await self._is_moderator(interaction)
        counted = True
        if press in ("screen_on", "screen_off"):
            console = await self.service.host.show_on_screen(
                round_id,
                user_id=interaction.user.id,
                is_moderator=is_mod,
                shown=press == "screen_on",
            )
        else:
            result = await self.service.host.press(
                round_id,
                user_id=interaction.user.id,
                is_moderator=is_mod,
                action=press,
                version=version,
                via="discord",
            )
            console, counted = result.console, result.counted
        await interaction.edit_original_response(
            content=aloud.console_text(console),
            view=ui.console_view(console, await self._phone_url(interaction, console)),
        )
        if not counted:
            await reply_privately(interaction, _(aloud.ALREADY_COUNTED))

    @app_commands.command(
        name="disqualify", description="End the running round here for coaching (host)"
    )
    @app_commands.describe(member="Disqualify this member's pair instead (event host)")
    @app_commands.guild_only()
    async def disqualify(
        self, interaction: discord.Interaction, member: discord.Member | None = None
    ) -> None:
        await think(interaction, private=True)
        guild = require_guild(interaction)
        result = await self.service.ending.disqualify(
            guild_id=guild.id,
            channel_id=interaction.channel_id or 0,
            user_id=interaction.user.id,
            is_moderator=await self._is_moderator(interaction),
            member_id=member.id if member else None,
        )
        if result.round is not None:
            text = messages.round_disqualified(result.round.round_id)
        else:
            assert result.team is not None
            text = messages.pair_disqualified(result.team.label)
        await reply_privately(interaction, text)
        if result.event_id is not None:
            await self.lists.refresh(result.event_id)

    async def on_reply_button(
        self, interaction: discord.Interaction, round_id: int, reply: Reply
    ) -> None:
        await think(interaction, private=False)
        pressed = await self.service.referee.button_reply(
            round_id=round_id,
            user_id=interaction.user.id,
            reply=reply.value,
            interaction_id=interaction.id,
        )
        await reply_publicly(interaction, messages.reply_text(pressed.reply, pressed.answerer.name))

    # ------------------------------------------------------------------ the referee

    @commands.Cog.listener()
    async def on_message(self, message: discord.Message) -> None:
        if message.guild is None or message.channel.id not in self._live_channels:
            return
        await self._referee(message)

    async def _referee(self, message: discord.Message) -> None:
        if not is_chatty(message):
            return
        # Live messages arrive in their guild's language already; a message read
        # back at start-up does not (it comes from on_ready), so say it here.
        guild_id = message.guild.id if message.guild else None
        code = self.bot.guild_languages.get(guild_id) if guild_id is not None else None
        with use_language(code, guild_id):
            await self._referee_in_language(message)

    async def _referee_in_language(self, message: discord.Message) -> None:
        try:
            outcome = await self.service.referee.message(
                channel_id=message.channel.id,
                message_id=message.id,
                author_id=message.author.id,
                author_name=member_of(message.author).name,
                content=message.content,
                has_attachments=bool(message.attachments or message.stickers),
            )
        except Exception:
            log.exception("henyo referee failed on message %s", message.id)
            return
        if outcome is None:
            self._live_channels.discard(message.channel.id)
            return
        if outcome.hide_message:
            try:
                await message.delete()
            except discord.HTTPException:
                log.info(
                    "could not remove a message that spelled out the secret in channel %s",
                    message.channel.id,
                )

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        """Catch up on what was said in running rounds while the bot was away."""
        for active in await self.service.rounds.active():
            if (
                active.status != "running"
                or active.announce_message_id is None
                or active.referee == "host"  # played aloud: nothing typed to read back
            ):
                continue
            self._live_channels.add(active.channel_id)
            channel = await ui.round_channel(self.bot, active.channel_id)
            if channel is None:
                continue
            try:
                await self.gateway.read_back.channel(
                    channel,
                    after=active.announce_message_id,
                    handle=self._referee,
                    limit=HISTORY_LIMIT,
                )
            except discord.HTTPException:
                log.warning(
                    "could not read the history of channel %s for round %s",
                    active.channel_id,
                    active.round_id,
                )

    # ------------------------------------------------------------------ words

    @words.command(name="add", description="Add a word or short phrase to the club's Henyo words")
    @app_commands.describe(
        text="Letters (Ñ too), spaces, hyphens, apostrophes; up to 60 characters",
        category="Its category",
        language="Its language",
    )
    async def words_add(
        self,
        interaction: discord.Interaction,
        # Discord lets a little more through, so the refusal can say the limit in words.
        text: app_commands.Range[str, 1, 100],
        category: CategoryChoice,
        language: WordLanguageChoice,
    ) -> None:
        await think(interaction, private=True)
        guild = require_guild(interaction)
        added = await self.service.words.add(
            guild_id=guild.id,
            guild_name=guild.name,
            user_id=interaction.user.id,
            is_moderator=await self._is_moderator(interaction),
            text=text,
            category=category,
            language=language,
        )
        await reply_privately(interaction, messages.word_added(added))

    @words.command(
        name="remove", description="Take a word out of the club's Henyo words (built-in ones too)"
    )
    @app_commands.describe(text="The word or phrase to take out")
    async def words_remove(
        self, interaction: discord.Interaction, text: app_commands.Range[str, 1, 60]
    ) -> None:
        await think(interaction, private=True)
        guild = require_guild(interaction)
        removed = await self.service.words.remove(
            guild_id=guild.id,
            guild_name=guild.name,
            user_id=interaction.user.id,
            is_moderator=await self._is_moderator(interaction),
            text=text,
        )
        await reply_privately(interaction, messages.word_removed(removed))

    @words.command(name="list", description="List the club's Henyo words (only you see it)")
    @app_commands.describe(category="Only this category", builtin="Also list the built-in words")
    async def words_list(
        self,
        interaction: discord.Interaction,
        category: CategoryChoice | None = None,
        builtin: bool = False,
    ) -> None:
        await think(interaction, private=True)
        guild = require_guild(interaction)
        words = await self.service.words.show(
            guild_id=guild.id,
            user_id=interaction.user.id,
            is_moderator=await self._is_moderator(interaction),
            category=category,
            include_builtin=builtin,
        )
        await reply_privately(interaction, embeds=ui.word_list_embeds(words))


async def setup(bot: ClubBot) -> None:
    cog = HenyoCog(bot)
    bot.add_dynamic_items(ui.HenyoReplyButton, ui.HenyoCloseButton, ui.HenyoHostButton)
    buttons_of(bot).bind(ui.HENYO_BUTTONS, cog)
    bot.scheduler.register_service(cog.service)
    await bot.add_cog(cog)
