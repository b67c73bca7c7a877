"""/boggle: Word Boggle rounds, the weekly schedule, seasons, and the words
members send by DM or through the round's form. A DM that is a slash command
typed as text (``/scrabble play …``) is not a list: it is answered with where
commands work, and nothing of it is stored.

Commands parse their options, call the service's use cases
(``service.starting``, ``service.submissions``, …) and reply with the texts
of ``bot.messages.boggle``. DMs come in through ``bot.gateway``: its intake
filters a member's own DMs and notes which arrived live, its membership check
says which guilds' rounds a DM joins, and at start-up its read-back fetches
what players sent while the bot was down.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import ClubBot
from bot.errors import InvalidInputError
from bot.gateway import Gateway, Throttle, TypedCommand
from bot.messages import boggle as msg
from bot.messages.boggle import daily as daily_say
from bot.messages.boggle import room as room_say
from bot.messages.boggle import rounds as say
from bot.messages.i18n import DEFAULT_LANGUAGE, _, use_language
from bot.services.board_address import BoardAddresses
from bot.services.boggle import (
    ANNOUNCE_LEAD,
    CATCH_UP_PER_GUILD,
    MAX_SEASON_TARGET,
    MIN_SEASON_TARGET,
    BoggleService,
    DmGuilds,
    RoundInfo,
)
from bot.services.club import ClubService
from bot.ui import boggle as ui
from bot.ui.board_link import board_link_view, with_board_link
from bot.ui.buttons import buttons_of
from bot.ui.errors import (
    handle_interaction_error,
    reply_privately,
    reply_publicly,
    think,
    user_message_for,
)
from bot.ui.modals import modal_text
from bot.ui.permissions import is_moderator, require_guild, require_moderator
from bot.ui.views import view_kwargs

if TYPE_CHECKING:
    from discord.interactions import InteractionChannel

log = logging.getLogger(__name__)

SizeChoice = Literal[4, 5, 6]
MinLengthChoice = Literal[3, 4, 5, 6]
DICE_CHOICES = [
    app_commands.Choice(name="Classic 16 cubes (4x4)", value="classic16"),
    app_commands.Choice(name="New 16 cubes (4x4)", value="new16"),
    app_commands.Choice(name="Big Boggle, 25 cubes (5x5)", value="big25"),
    app_commands.Choice(
        name="Super Big Boggle, 36 cubes with Qu/Th/In/Er/He/An (6x6)", value="super36"
    ),
]
WEEKDAY_CHOICES = [
    app_commands.Choice(name=day, value=index) for index, day in enumerate(msg.WEEKDAYS)
]
HINT_EVERY = timedelta(hours=12)  # a DM with no round open gets the hint at most this often
HINTS_REMEMBERED = 10_000  # past this many members, forget hints older than HINT_EVERY
CATCH_UP_LIMIT = 100  # messages read back per player after a restart
CATCH_UP_AT_ONCE = 4  # DM channels read back side by side


class BoggleCog(
    commands.GroupCog, group_name="boggle", group_description="Word Boggle: find words in the grid"
):
    def __init__(self, bot: ClubBot) -> None:
        self.bot = bot
        self.service = BoggleService(bot.ctx)
        self.club = ClubService(bot.ctx)
        self.boards = BoardAddresses(bot.ctx)
        self.gateway = Gateway(bot, clock=bot.ctx.clock)
        self._hints: Throttle[int] = Throttle(
            HINT_EVERY, clock=bot.ctx.clock, remember=HINTS_REMEMBERED
        )
        super().__init__()

    async def _require_moderator(
        self, interaction: discord.Interaction, what: str
    ) -> discord.Guild:
        guild = require_guild(interaction)
        settings = await self.club.get(guild.id)
        require_moderator(interaction.user, settings.moderator_role_id, what)
        return guild

    @staticmethod
    def _postable(guild: discord.Guild, channel: InteractionChannel | None) -> int:
        # A guild command's own channel is a guild channel or a thread, never a DM.
        if not isinstance(channel, discord.abc.GuildChannel | discord.Thread):
            raise InvalidInputError(say.PICK_A_CHANNEL)
        perms = channel.permissions_for(guild.me)
        if not (
            perms.view_channel and perms.send_messages and perms.attach_files and perms.embed_links
        ):
            raise InvalidInputError(say.cannot_post_grid(channel.id))
        return channel.id

    # ---------------------------------------------------------------- commands

    @app_commands.command(name="start", description="Start a Word Boggle round now (moderators)")
    @app_commands.describe(
        size="Grid size (default 4x4)",
        duration="How long players have, e.g. 3m or 90s; a plain number is minutes (default 3m)",
        min_length="Shortest word that scores (default 4)",
        dice="Which dice (default: the classic set for the size)",
        channel="Where to post the grid (default: here)",
        where="room: on paper, the grid on the screen, lists typed after the countdown",
        entry_time="In the room: time to type the lists after the countdown (default 2m)",
    )
    @app_commands.choices(dice=DICE_CHOICES)
    @app_commands.guild_only()
    async def start(
        self,
        interaction: discord.Interaction,
        size: SizeChoice | None = None,
        duration: app_commands.Range[str, 1, 20] | None = None,
        min_length: MinLengthChoice | None = None,
        dice: str | None = None,
        channel: discord.TextChannel | None = None,
        where: Literal["discord", "room"] | None = None,
        entry_time: app_commands.Range[str, 1, 20] | None = None,
    ) -> None:
        await think(interaction, private=True)
        guild = await self._require_moderator(interaction, "start Boggle rounds")
        channel_id = self._postable(guild, channel or interaction.channel)
        info = await self.service.starting.start_round(
            guild_id=guild.id,
            guild_name=guild.name,
            channel_id=channel_id,
            started_by=interaction.user.id,
            size=size,
            duration=duration,
            min_length=min_length,
            dice=dice,
            where=where,
            entry_time=entry_time,
        )
        await reply_privately(interaction, msg.start_reply(info))

    @app_commands.command(
        name="enter", description="Type a member's paper list for them (the host, moderators)"
    )
    @app_commands.describe(
        member="Whose list it is", words="Their words, separated by spaces or commas"
    )
    @app_commands.guild_only()
    async def enter(
        self,
        interaction: discord.Interaction,
        member: discord.Member,
        words: app_commands.Range[str, 1, 4000],
    ) -> None:
        await think(interaction, private=True)
        guild = require_guild(interaction)
        if member.bot:
            raise InvalidInputError(room_say.NOT_A_PLAYER)
        settings = await self.club.get(guild.id)
        entered = await self.service.submissions.enter_for(
            guild_id=guild.id,
            entered_by=interaction.user.id,
            host_name=interaction.user.display_name,
            moderator=is_moderator(interaction.user, settings.moderator_role_id),
            member_id=member.id,
            member_name=member.display_name,
            text=words,
        )
        receipt = entered.receipt
        await reply_privately(
            interaction,
            room_say.entered_reply(
                member.id, receipt.round_number, receipt.new_words, receipt.total_words
            ),
        )

    @app_commands.command(
        name="schedule",
        description="Play a round every week at a time in the club's time zone (moderators)",
    )
    @app_commands.describe(
        weekday="The day of the week",
        time="The time in the club's time zone (set with /club setup), e.g. 15:00, 3pm or 3:30 pm",
        size="Grid size (default 4x4)",
        duration="How long players have, e.g. 3m or 90s; a plain number is minutes (default 3m)",
        min_length="Shortest word that scores (default 4)",
        dice="Which dice (default: the classic set for the size)",
        channel="Where the rounds are played (default: here)",
        where="room: on paper, the grid on the screen, lists typed after the countdown",
        entry_time="In the room: time to type the lists after the countdown (default 2m)",
    )
    @app_commands.choices(weekday=WEEKDAY_CHOICES)
    @app_commands.choices(dice=DICE_CHOICES)
    @app_commands.guild_only()
    async def schedule(
        self,
        interaction: discord.Interaction,
        weekday: int,
        time: app_commands.Range[str, 1, 10],
        size: SizeChoice | None = None,
        duration: app_commands.Range[str, 1, 20] | None = None,
        min_length: MinLengthChoice | None = None,
        dice: str | None = None,
        channel: discord.TextChannel | None = None,
        where: Literal["discord", "room"] | None = None,
        entry_time: app_commands.Range[str, 1, 20] | None = None,
    ) -> None:
        await think(interaction, private=True)
        guild = await self._require_moderator(interaction, "schedule Boggle rounds")
        channel_id = self._postable(guild, channel or interaction.channel)
        info = await self.service.schedule.schedule_weekly(
            guild_id=guild.id,
            guild_name=guild.name,
            channel_id=channel_id,
            created_by=interaction.user.id,
            weekday=weekday,
            at=time,
            size=size,
            duration=duration,
            min_length=min_length,
            dice=dice,
            where=where,
            entry_time=entry_time,
        )
        await reply_privately(interaction, msg.schedule_reply(info, ANNOUNCE_LEAD))

    @app_commands.command(
        name="cancel",
        description="Cancel the running round or stop the weekly schedule (moderators)",
    )
    @app_commands.describe(
        what="The round (running or announced) or the weekly schedule; default: the round if there is one"
    )
    @app_commands.guild_only()
    async def cancel(
        self, interaction: discord.Interaction, what: Literal["round", "schedule"] | None = None
    ) -> None:
        await think(interaction, private=True)
        guild = await self._require_moderator(interaction, "cancel Boggle rounds")
        outcome = await self.service.cancelling.cancel(guild_id=guild.id, what=what)
        await reply_privately(interaction, ui.cancel_reply(outcome))

    @app_commands.command(
        name="submit", description="Send your words for the running round with a form"
    )
    @app_commands.guild_only()
    async def submit(self, interaction: discord.Interaction) -> None:
        # A form must be the first answer, so it cannot follow a deferral; the one
        # read before it finds the running round, which the form is for (its custom
        # id names the round, its title shows the grid) or the refusal when none is.
        guild = require_guild(interaction)
        info = await self.service.submissions.round_for_form(guild_id=guild.id)
        await self._send_form(interaction, info)

    @app_commands.command(
        name="daily", description="Today's grid: the same for everyone, your own 3 minutes"
    )
    @app_commands.guild_only()
    async def daily(self, interaction: discord.Interaction) -> None:
        await think(interaction, private=True)
        guild = require_guild(interaction)
        info = await self.service.daily.open(
            guild_id=guild.id,
            guild_name=guild.name,
            channel_id=interaction.channel_id or 0,
            user_id=interaction.user.id,
            display_name=interaction.user.display_name,
        )
        now = self.bot.ctx.clock()
        files = [await ui.daily_grid_file(info)]
        text = daily_say.daily_reply(info, now)
        if now < info.ends_at:  # the countdown runs: the form's button, and the board's
            url = await self.boards.url(
                guild.id, interaction.user.id, "boggle_daily", info.id, guild_name=guild.name
            )
            view = with_board_link(ui.daily_view(info.id), url)
            await reply_privately(interaction, text, files=files, **view_kwargs(view))
        else:
            await reply_privately(interaction, text, files=files)

    @app_commands.command(
        name="results", description="The last round's results and the season table"
    )
    @app_commands.describe(
        public="Post them in the channel for everyone (default: only you see them)"
    )
    @app_commands.guild_only()
    async def results(self, interaction: discord.Interaction, public: bool = False) -> None:
        await think(interaction, private=not public)
        guild = require_guild(interaction)
        view = await self.service.results.latest(guild.id)
        content, embeds, files = ui.results_reply(view)
        reply = reply_publicly if public else reply_privately
        await reply(interaction, content, embeds=embeds, files=files)

    @app_commands.command(
        name="season",
        description="Season target, reset rhythm, or start a new season now (moderators)",
    )
    @app_commands.describe(
        target="Points that win the season (default 100)",
        every="Also start a new season every month, quarter or year (club time)",
        reset="End this season now (its leader wins) and start a new one",
    )
    @app_commands.guild_only()
    async def season(
        self,
        interaction: discord.Interaction,
        target: app_commands.Range[int, MIN_SEASON_TARGET, MAX_SEASON_TARGET] | None = None,
        every: Literal["none", "month", "quarter", "year"] | None = None,
        reset: bool = False,
    ) -> None:
        await think(interaction, private=True)
        guild = await self._require_moderator(interaction, "change Boggle seasons")
        info = await self.service.results.configure_season(
            guild_id=guild.id,
            guild_name=guild.name,
            channel_id=interaction.channel_id if reset else None,
            target=target,
            every=every,
            reset=reset,
        )
        await reply_privately(
            interaction, msg.season_reply(info, info.ended.number if info.ended else None)
        )

    # ---------------------------------------------------------------- the round's buttons and form

    async def _send_form(self, interaction: discord.Interaction, info: RoundInfo) -> None:
        modal = ui.WordsModal(info)
        await interaction.response.send_modal(modal)
        # The listener below answers the form from its custom id, so it also
        # works when it is sent after a restart; the Modal object is not needed.
        modal.stop()

    async def open_form(self, interaction: discord.Interaction, round_id: int) -> None:
        # A form is the first answer: the one read finds its round (see ``submit``)
        info = await self.service.submissions.round_for_form(round_id=round_id)
        await self._send_form(interaction, info)

    async def open_daily_form(self, interaction: discord.Interaction, daily_id: int) -> None:
        # A form is the first answer: the one read finds the member's countdown.
        guild = require_guild(interaction)
        info = await self.service.daily.for_form(guild_id=guild.id, user_id=interaction.user.id)
        if info.id != daily_id:  # yesterday's button: today's grid is another one
            raise InvalidInputError(daily_say.NOT_OPENED)
        await interaction.response.send_modal(ui.WordsModal(daily=info))

    async def send_grid_dm(self, interaction: discord.Interaction, round_id: int) -> None:
        """The grid by DM, with the member's own link to the round's board (on the
        DM and on the private answer: both are theirs only)."""
        await think(interaction, private=True)
        info = await self.service.submissions.round_for_form(round_id=round_id)
        guild_name = interaction.guild.name if interaction.guild else ""
        url = await self.boards.url(
            info.guild_id, interaction.user.id, "boggle", info.id, guild_name=guild_name
        )

        async def grid() -> dict[str, Any]:
            return {
                "content": msg.grid_dm(info, guild_name),
                "file": await ui.grid_file(info),
                **view_kwargs(board_link_view(url)),
            }

        try:
            await self.bot.dms.send(interaction.user.id, grid)  # its remembered DM channel
        except discord.Forbidden:
            view = with_board_link(ui.round_view(round_id, dm_button=False), url)
            await reply_privately(interaction, _(msg.DMS_CLOSED), **view_kwargs(view))
            return
        await reply_privately(interaction, _(msg.GRID_SENT), **view_kwargs(board_link_view(url)))

    @commands.Cog.listener("on_interaction")
    async def on_form_submit(self, interaction: discord.Interaction) -> None:
        if interaction.type is not discord.InteractionType.modal_submit:
            return
        data = interaction.data
        custom_id = str(data.get("custom_id", "") if data else "")
        daily = ui.DAILY_FORM_ID.fullmatch(custom_id)
        if daily is not None:
            await self._daily_form_submit(interaction, int(daily.group(1)))
            return
        match = ui.FORM_ID.fullmatch(custom_id)
        if match is None:
            return
        try:
            await think(interaction, private=True)
            receipt = await self.service.submissions.submit_form(
                round_id=int(match.group(1)),
                user_id=interaction.user.id,
                display_name=interaction.user.display_name,
                source_id=interaction.id,
                text=modal_text(interaction.data, ui.WORDS_INPUT_ID),
            )
            url = await self.boards.url(
                receipt.guild_id,
                interaction.user.id,
                "boggle",
                receipt.round_id,
                guild_name=receipt.guild_name,
            )
            await reply_privately(
                interaction, msg.form_receipt(receipt), **view_kwargs(board_link_view(url))
            )
        except Exception as error:
            await handle_interaction_error(interaction, error, where="boggle form")

    async def _daily_form_submit(self, interaction: discord.Interaction, daily_id: int) -> None:
        try:
            await think(interaction, private=True)
            receipt = await self.service.daily.submit_form(
                daily_id=daily_id,
                user_id=interaction.user.id,
                display_name=interaction.user.display_name,
                source_id=interaction.id,
                text=modal_text(interaction.data, ui.WORDS_INPUT_ID),
            )
            text = _(msg.ALREADY_HAVE) if receipt.repeated else daily_say.receipt_line(receipt)
            await reply_privately(interaction, text)
        except Exception as error:
            await handle_interaction_error(interaction, error, where="boggle daily form")

    # ---------------------------------------------------------------- DMs

    @commands.Cog.listener("on_message")
    async def on_direct_message(self, message: discord.Message) -> None:
        # Guild messages belong to other games (the Henyo referee reads them).
        if self.gateway.dms.take_live(message):
            command = self.gateway.dms.typed_command(message, self._command_names())
            if command is not None:
                await self._answer_typed_command(message, command)
            else:
                await self._take_dm(message)

    @commands.Cog.listener("on_shard_connect")
    async def on_shard_connect(self, shard_id: int) -> None:
        self.gateway.dms.session_started(shard_id)

    def _command_names(self) -> set[str]:
        """The bot's commands by qualified name ("scrabble", "scrabble play")."""
        return {command.qualified_name for command in self.bot.tree.walk_commands()}

    async def _guilds_of(
        self, author: discord.User | discord.Member, sent_at: datetime
    ) -> tuple[list[int], DmGuilds | None]:
        """The guilds a DM is about: the sender's among those with a round open (or
        lately ended); failing those, their clubs with a language of their own (the
        member lists are not all cached, so a club is asked about, not looked up).
        And what the read of where DMs go found, when it was needed (None: the cache
        knows every member of every guild)."""
        members = self.gateway.members
        seen: list[DmGuilds] = []

        async def taking_dms() -> list[int]:
            seen.append(await self.service.catch_up.guilds_taking_dms(sent_at, author.id))
            return seen[-1].guild_ids

        guild_ids = await members.guilds_of(author, taking_dms)
        found = seen[-1] if seen else None
        if guild_ids or not self.bot.guild_languages:
            return guild_ids, found

        async def speaking_their_own() -> list[int]:
            return list(self.bot.guild_languages)

        return await members.guilds_of(author, speaking_their_own), found

    def _language_held(self, guild_id: int) -> str | None:
        """The language of a guild whose shard this process holds, as the interaction
        path has it (``ClubBot.guild_languages``: its /club setup comes here), with no
        read; None for another process's guild (read from the database)."""
        if self.bot.get_guild(guild_id) is None:
            return None
        return self.bot.guild_languages.get(guild_id, DEFAULT_LANGUAGE)

    async def _answer_typed_command(self, message: discord.Message, command: TypedCommand) -> None:
        """A slash command typed into a DM: say where commands work; nothing is stored.

        Only live DMs are answered: a read-back one is skipped (``_take_dm``),
        as it would be answered again at every restart of the round.
        """
        guild_ids: list[int] = []
        try:
            guild_ids, _seen = await self._guilds_of(message.author, message.created_at)
            rounds = await self.service.submissions.open_lists(guild_ids)
        except Exception:
            log.warning("could not look up the rounds of %s", message.author.id, exc_info=True)
            rounds = []
        with use_language(*await self.club.language_for(guild_ids, self._language_held)):
            text = msg.command_in_dm(command.shown, rounds)
        await self.gateway.dms.reply(message, text)

    async def _take_dm(self, message: discord.Message) -> None:
        """Store a DM'd list (live or read back) and answer it."""
        if self.gateway.dms.typed_command(message) is not None:
            return  # read back: a command, not a list (answered only when it arrives live)
        try:
            guild_ids, seen = await self._guilds_of(message.author, message.created_at)
            language, about = await self.club.language_for(guild_ids, self._language_held)
        except Exception as error:
            await self.gateway.dms.reply(message, user_message_for(error, where="boggle DM"))
            return
        # DM intake's one language decision: that of the clubs the DM is about
        with use_language(language, about):
            reply = await self._submit_dm(message, guild_ids, seen, about)
        if reply:
            await self.gateway.dms.reply(message, reply)

    async def _submit_dm(
        self,
        message: discord.Message,
        guild_ids: list[int],
        seen: DmGuilds | None,
        about: int | None,
    ) -> str | None:
        author = message.author
        try:
            outcome = await self.service.submissions.submit_dm(
                user_id=author.id,
                display_name=author.display_name,
                message_id=message.id,
                sent_at=message.created_at,
                text=message.content,
                guild_ids=guild_ids,
                seen=seen,
            )
        except Exception as error:
            return user_message_for(error, where="boggle DM")
        if outcome.no_round:
            return _(msg.NO_ROUND_HINT) if self._hints.allow(author.id) else None
        if about is None and outcome.receipts:  # clubs of two languages: the round's
            guild_id = outcome.receipts[0].guild_id
            language = self._language_held(guild_id) or await self.club.language(guild_id)
            with use_language(language, guild_id):
                return ui.dm_reply(outcome)
        return ui.dm_reply(outcome)

    @commands.Cog.listener("on_ready")
    async def catch_up(self) -> None:
        """Read DMs that players of open rounds sent while the bot was away.

        Each player's with a list after their last stored message, and the
        likely first-time players' (see ``service.catch_up.catch_up_targets``) from
        the round's opening, through the gateway's read-back. Stored messages
        are recognised by id and counted once. Only the process holding shard 0
        missed anything: DMs go there.
        """
        rounds = await self.service.catch_up.open_rounds()
        live_since = self.gateway.dms.live_since()
        # Members whose own countdown of the daily grid ran while the bot was away.
        daily = await self.service.catch_up.daily_targets(live_since=live_since)
        if not rounds and not daily:
            return
        self.service.core.warm_in_background()
        if not self.gateway.members.receives_dms():
            return
        targets = []
        if rounds:
            members = {
                guild_id: await self.gateway.members.human_member_ids(guild_id, CATCH_UP_PER_GUILD)
                for guild_id in dict.fromkeys(r.guild_id for r in rounds)
            }
            targets = await self.service.catch_up.catch_up_targets(members, live_since=live_since)
        starts = {t.user_id: t.start for t in daily}
        starts.update({t.user_id: t.start for t in targets})  # a round's reads from earlier
        await self.gateway.read_back.dm_channels(
            starts,
            handle=self._take_dm,
            limit=CATCH_UP_LIMIT,
            at_once=CATCH_UP_AT_ONCE,
        )


async def setup(bot: ClubBot) -> None:
    cog = BoggleCog(bot)
    buttons_of(bot).bind(ui.BOGGLE_BUTTONS, cog)
    bot.add_dynamic_items(ui.RoundButton)
    bot.scheduler.register_service(cog.service)
    outbox = bot.outbox
    outbox.renderers[msg.GRID_RENDERER] = ui.render_grid_file
    outbox.renderers[msg.TEXT_RENDERER] = ui.render_text_file
    outbox.views[msg.ROUND_VIEW] = lambda args: ui.round_view(int(args["round_id"]))
    await bot.add_cog(cog)
