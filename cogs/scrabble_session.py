"""/scrabble session open|signup|start|swap|end|results: the society's club sessions.

A subgroup of /scrabble, attached at load to the Scrabble cog's group (loaded
before this module: cogs load in name order), sharing its ``ScrabbleService``.
Thin: parse, call ``SessionService``, answer. Refusals are private; the sign-up
post, the groups and the start are public in the channel. ``SessionButtons``
answers the sign-up post's buttons and the Explain button under a play's
"explain the word" post (for every Scrabble game played with explain on).
"""

from __future__ import annotations

import asyncio
import logging

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import ClubBot
from bot.errors import InvalidInputError
from bot.messages import sessions as messages
from bot.messages import tally as tally_messages
from bot.messages.i18n import _
from bot.services.board_address import BoardAddresses
from bot.services.club import ClubService
from bot.services.games import GameFinder
from bot.services.scrabble import VIEW_EXPLAIN, ScrabbleService
from bot.services.sessions import Member, SessionService, SessionSnapshot
from bot.services.sessions.tally import TallyAnswer
from bot.ui.board_link import board_link_view
from bot.ui.buttons import buttons_of
from bot.ui.errors import NO_MENTIONS, reply_privately, reply_publicly, think
from bot.ui.game_lookup import GameLookup
from bot.ui.permissions import is_moderator, require_guild
from bot.ui.sessions import (
    DYNAMIC_ITEMS,
    SESSION_BUTTONS,
    ExplainModal,
    explain_view,
    open_board_thread,
    signup_view,
)

log = logging.getLogger(__name__)
Choice = app_commands.Choice


def _member(user: discord.abc.User) -> Member:
    return Member(user.id, getattr(user, "display_name", user.name), bool(user.bot))


class SessionButtons:
    """What the sign-up post's buttons and the Explain button do."""

    def __init__(self, cog: ScrabbleSessionCog) -> None:
        self.cog = cog

    async def signup_clicked(self, interaction: discord.Interaction, session_id: int) -> None:
        await think(interaction, private=True)
        guild = require_guild(interaction)
        me = _member(interaction.user)
        done = await self.cog.service.entry.signup(
            guild_id=guild.id,
            channel_id=interaction.channel_id or 0,
            user=me,
            by=me,
            is_moderator=False,
            session_id=session_id,
        )
        await reply_privately(
            interaction, messages.signed_up(done.entry.names, done.entry.place, by_moderator=False)
        )
        await self.cog.refresh_card(done.session)

    async def leave_clicked(self, interaction: discord.Interaction, session_id: int) -> None:
        await think(interaction, private=True)
        guild = require_guild(interaction)
        view = await self.cog.service.entry.withdraw(
            guild_id=guild.id,
            channel_id=interaction.channel_id or 0,
            user_id=interaction.user.id,
            session_id=session_id,
        )
        await reply_privately(interaction, messages.withdrew())
        await self.cog.refresh_card(view)

    async def explain_clicked(
        self, interaction: discord.Interaction, game_id: int, ply: int
    ) -> None:
        # A form must be the first answer, so it cannot follow a deferral; its title
        # names the words to explain, which this one read finds (or refuses).
        words = await self.cog.service.explaining.words_to_explain(
            guild_id=require_guild(interaction).id,
            game_id=game_id,
            ply=ply,
            user_id=interaction.user.id,
        )
        await interaction.response.send_modal(ExplainModal(game_id, ply, words))

    async def explain_sent(
        self, interaction: discord.Interaction, game_id: int, ply: int, text: str
    ) -> None:
        await think(interaction, private=True)
        guild = require_guild(interaction)
        done = await self.cog.service.explaining.explain(
            guild_id=guild.id, game_id=game_id, ply=ply, user_id=interaction.user.id, text=text
        )
        await reply_privately(interaction, messages.explained_reply(done.words))


class SessionCommands(app_commands.Group):
    def __init__(self, cog: ScrabbleSessionCog) -> None:
        super().__init__(
            name="session", description="Club sessions: pairs on boards of 4, one deadline"
        )
        self.cog = cog

    @app_commands.command(name="open", description="Open a club session for sign-ups (moderators)")
    @app_commands.describe(
        clock="Turn clock (default 3m); a plain number is minutes",
        length="How long the session lasts: every board ends then (default 80m)",
        explain="Explain the word after each play (default on)",
        challenge="Word check: double (default), single, or void",
        word_list="The word list that judges challenges",
        odd="A member left over: a pair's third player (default) or alone",
        where="Online (default) or in the room on real boards",
        pairs="Most pairs on a board (default 4)",
    )
    @app_commands.choices(
        challenge=[
            Choice(name="double (a failed challenge loses a turn)", value="double"),
            Choice(name="single (no penalty for a failed challenge)", value="single"),
            Choice(name="void (invalid words refused up front)", value="void"),
        ],
        odd=[
            Choice(name="joins a pair as its third player", value="third"),
            Choice(name="plays alone against the pairs", value="alone"),
        ],
        where=[
            Choice(name="online", value="online"),
            Choice(name="in the room (real boards)", value="room"),
        ],
    )
    @app_commands.guild_only()
    async def open_(
        self,
        interaction: discord.Interaction,
        clock: str | None = None,
        length: str | None = None,
        explain: bool | None = None,
        challenge: Choice[str] | None = None,
        word_list: str | None = None,
        odd: Choice[str] | None = None,
        where: Choice[str] | None = None,
        pairs: app_commands.Range[int, 2, 4] | None = None,
    ) -> None:
        await think(interaction, private=False)
        guild = require_guild(interaction)
        if isinstance(interaction.channel, discord.Thread):
            raise InvalidInputError(messages.NOT_IN_A_THREAD)
        view = await self.cog.service.entry.open(
            guild_id=guild.id,
            guild_name=guild.name,
            channel_id=interaction.channel_id or 0,
            moderator=_member(interaction.user),
            is_moderator=await self.cog.is_moderator(interaction),
            clock=clock,
            length=length,
            explain=explain,
            challenge=challenge.value if challenge else None,
            word_list=word_list,
            odd=odd.value if odd else None,
            where=where.value if where else None,
            board_pairs=pairs,
        )
        await reply_publicly(
            interaction,
            messages.session_card(view),
            view=signup_view(view.id) or discord.utils.MISSING,
            allowed_mentions=NO_MENTIONS,
        )
        message = await interaction.original_response()
        await self.cog.service.entry.set_message(view.id, message.id)
        # Members may sign up before the post's id is stored (their edits had no post
        # to edit): draw the list as it stands now.
        await self.cog.refresh_card(view)

    @app_commands.command(
        name="signup", description="Sign up for the club session (optionally with a partner)"
    )
    @app_commands.describe(
        partner="Who you want to play with (you'll be a pair)",
        member="Moderators: sign up this member",
    )
    @app_commands.guild_only()
    async def signup(
        self,
        interaction: discord.Interaction,
        partner: discord.Member | None = None,
        member: discord.Member | None = None,
    ) -> None:
        await think(interaction, private=True)
        guild = require_guild(interaction)
        by = _member(interaction.user)
        done = await self.cog.service.entry.signup(
            guild_id=guild.id,
            channel_id=interaction.channel_id or 0,
            user=_member(member) if member else by,
            by=by,
            is_moderator=await self.cog.is_moderator(interaction) if member else False,
            partner=_member(partner) if partner else None,
        )
        await reply_privately(
            interaction,
            messages.signed_up(done.entry.names, done.entry.place, by_moderator=done.by_moderator),
        )
        await self.cog.refresh_card(done.session)

    @app_commands.command(
        name="start", description="Form the groups; run it again to start the boards (moderators)"
    )
    @app_commands.guild_only()
    async def start(self, interaction: discord.Interaction) -> None:
        await think(interaction, private=False)
        guild = require_guild(interaction)
        view = await self.cog.service.forming.start(
            guild_id=guild.id,
            channel_id=interaction.channel_id or 0,
            by=_member(interaction.user),
            is_moderator=await self.cog.is_moderator(interaction),
        )
        text = (
            messages.groups_text(view) if view.status == "formed" else messages.started_text(view)
        )
        await reply_publicly(interaction, text, allowed_mentions=NO_MENTIONS)
        await self.cog.refresh_card(view)

    @app_commands.command(
        name="swap",
        description="Swap two members between pairs before the boards start (moderators)",
    )
    @app_commands.describe(
        first="A member in the session's groups", second="The member to swap with"
    )
    @app_commands.guild_only()
    async def swap(
        self, interaction: discord.Interaction, first: discord.Member, second: discord.Member
    ) -> None:
        await think(interaction, private=False)
        guild = require_guild(interaction)
        done = await self.cog.service.forming.swap(
            guild_id=guild.id,
            channel_id=interaction.channel_id or 0,
            first=_member(first),
            second=_member(second),
            is_moderator=await self.cog.is_moderator(interaction),
        )
        await reply_publicly(
            interaction,
            messages.swapped(done.first, done.second, done.session),
            allowed_mentions=NO_MENTIONS,
        )

    @app_commands.command(name="end", description="End every board of the session now (moderators)")
    @app_commands.guild_only()
    async def end(self, interaction: discord.Interaction) -> None:
        await think(interaction, private=True)
        guild = require_guild(interaction)
        moderator = await self.cog.is_moderator(interaction)
        view = await self.cog.service.running.end(
            guild_id=guild.id, channel_id=interaction.channel_id or 0, is_moderator=moderator
        )
        await reply_privately(
            interaction,
            _("The session is ended: the results are posted in the channel.")
            if view.status == "ended"
            else _(messages.CANCELLED),
        )
        await self.cog.refresh_card(view)

    @app_commands.command(name="results", description="The session's pairs ranked across boards")
    @app_commands.guild_only()
    async def results(self, interaction: discord.Interaction) -> None:
        await think(interaction, private=True)
        guild = require_guild(interaction)
        moderator = await self.cog.is_moderator(interaction)
        found = await self.cog.service.reading.results(
            guild_id=guild.id, channel_id=interaction.channel_id or 0, is_moderator=moderator
        )
        for text in messages.results_private(found, moderator=moderator):
            await reply_privately(interaction, text)  # the first replaces "thinking…"


GAME_HELP = "Game number (default: this thread's, or your only game)"


class TallyCommands(app_commands.Group):
    """/tally …: a club session's board played over a real board in the room (the bot
    keeps the tally; ``SessionService.tally``). A group of its own: /scrabble is at
    Discord's 4,000 characters for one command."""

    def __init__(self, cog: ScrabbleSessionCog) -> None:
        super().__init__(
            name="tally",
            description="Scrabble on real boards: enter plays, the bot keeps the score",
        )
        self.cog = cog

    async def _game_id(self, interaction: discord.Interaction, game: str | None) -> int:
        return await self.cog.lookup._game_id(interaction, game)

    async def _answer(self, interaction: discord.Interaction, done: TallyAnswer) -> None:
        url = await self.cog.addresses.url(
            require_guild(interaction).id, interaction.user.id, "tally", done.tally.game_id
        )
        await reply_privately(
            interaction,
            done.message,
            view=board_link_view(url, tally_messages.PAGE_TITLE) or discord.utils.MISSING,
        )

    @app_commands.command(name="play", description="Enter your play: word and position, as played")
    @app_commands.describe(
        word="The whole word (quiz); a blank as ? before its letter (qui?zz)",
        position="Where it starts: 8H goes across, H8 goes down",
        game=GAME_HELP,
    )
    @app_commands.guild_only()
    async def play(
        self,
        interaction: discord.Interaction,
        word: app_commands.Range[str, 1, 40],
        position: app_commands.Range[str, 2, 8],
        game: str | None = None,
    ) -> None:
        await think(interaction, private=True)
        game_id = await self._game_id(interaction, game)
        done = await self.cog.service.tally.play(
            game_id, interaction.user.id, word, position, guild_id=require_guild(interaction).id
        )
        await self._answer(interaction, done)

    @app_commands.command(name="pass", description="Enter a pass")
    @app_commands.describe(game=GAME_HELP)
    @app_commands.guild_only()
    async def pass_(self, interaction: discord.Interaction, game: str | None = None) -> None:
        await think(interaction, private=True)
        game_id = await self._game_id(interaction, game)
        done = await self.cog.service.tally.pass_turn(
            game_id, interaction.user.id, guild_id=require_guild(interaction).id
        )
        await self._answer(interaction, done)

    @app_commands.command(name="exchange", description="Enter an exchange: how many tiles")
    @app_commands.describe(count="How many tiles went back to the bag", game=GAME_HELP)
    @app_commands.guild_only()
    async def exchange(
        self,
        interaction: discord.Interaction,
        count: app_commands.Range[int, 1, 9],
        game: str | None = None,
    ) -> None:
        await think(interaction, private=True)
        game_id = await self._game_id(interaction, game)
        done = await self.cog.service.tally.exchange(
            game_id, interaction.user.id, count, guild_id=require_guild(interaction).id
        )
        await self._answer(interaction, done)

    @app_commands.command(
        name="challenge", description="You challenged the last play: the word list judges"
    )
    @app_commands.describe(game=GAME_HELP)
    @app_commands.guild_only()
    async def challenge(self, interaction: discord.Interaction, game: str | None = None) -> None:
        await think(interaction, private=True)
        game_id = await self._game_id(interaction, game)
        done = await self.cog.service.tally.challenge(
            game_id, interaction.user.id, guild_id=require_guild(interaction).id
        )
        await self._answer(interaction, done)

    @app_commands.command(
        name="resign", description="Your side resigns (you lose; others may play on)"
    )
    @app_commands.describe(game=GAME_HELP)
    @app_commands.guild_only()
    async def resign(self, interaction: discord.Interaction, game: str | None = None) -> None:
        await think(interaction, private=True)
        game_id = await self._game_id(interaction, game)
        done = await self.cog.service.tally.resign(
            game_id, interaction.user.id, guild_id=require_guild(interaction).id
        )
        await self._answer(interaction, done)

    @app_commands.command(name="rack", description="At the end: the tiles left on your rack")
    @app_commands.describe(
        tiles="The tiles left, e.g. QVE (? is a blank); nothing left: leave the game over",
        member="The director: enter them for this member's side",
        game=GAME_HELP,
    )
    @app_commands.guild_only()
    async def rack(
        self,
        interaction: discord.Interaction,
        tiles: app_commands.Range[str, 1, 30],
        member: discord.Member | None = None,
        game: str | None = None,
    ) -> None:
        await think(interaction, private=True)
        game_id = await self._game_id(interaction, game)
        done = await self.cog.service.tally.rack(
            game_id,
            interaction.user.id,
            tiles,
            for_user=member.id if member else None,
            is_moderator=await self.cog.is_moderator(interaction) if member else False,
            guild_id=require_guild(interaction).id,
        )
        await self._answer(interaction, done)

    @app_commands.command(
        name="correct",
        description="Correct the last entry (the director: any entry), as it should be",
    )
    @app_commands.describe(
        word="The play's whole word, as it should be",
        position="The play's position, as it should be (8H across, H8 down)",
        passed="It was a pass",
        exchanged="It was an exchange of this many tiles",
        tiles="It was the tiles left on a rack at the end",
        entry="The director: the entry's number on the tally (default: the last)",
        game=GAME_HELP,
    )
    @app_commands.guild_only()
    async def correct(
        self,
        interaction: discord.Interaction,
        word: app_commands.Range[str, 1, 40] | None = None,
        position: app_commands.Range[str, 2, 8] | None = None,
        passed: bool | None = None,
        exchanged: app_commands.Range[int, 1, 9] | None = None,
        tiles: app_commands.Range[str, 1, 30] | None = None,
        entry: app_commands.Range[int, 1, 500] | None = None,
        game: str | None = None,
    ) -> None:
        await think(interaction, private=True)
        game_id = await self._game_id(interaction, game)
        done = await self.cog.service.tally.correct(
            game_id,
            interaction.user.id,
            is_moderator=await self.cog.is_moderator(interaction),
            entry=entry,
            word=word,
            position=position,
            passed=bool(passed),
            exchanged=exchanged,
            tiles=tiles,
            guild_id=require_guild(interaction).id,
        )
        await self._answer(interaction, done)

    @app_commands.command(name="show", description="The board's tally: entries, scores, whose turn")
    @app_commands.describe(game=GAME_HELP)
    @app_commands.guild_only()
    async def show(self, interaction: discord.Interaction, game: str | None = None) -> None:
        await think(interaction, private=True)
        game_id = await self._game_id(interaction, game)
        tally = await self.cog.service.tally.board(game_id, guild_id=require_guild(interaction).id)
        done = TallyAnswer(tally_messages.tally_text(tally), tally, None)
        await self._answer(interaction, done)

    @play.autocomplete("game")
    @pass_.autocomplete("game")
    @exchange.autocomplete("game")
    @challenge.autocomplete("game")
    @resign.autocomplete("game")
    @rack.autocomplete("game")
    @correct.autocomplete("game")
    @show.autocomplete("game")
    async def _game_choices(
        self, interaction: discord.Interaction, current: str
    ) -> list[Choice[str]]:
        return await self.cog.lookup._game_choices(interaction, current)


class _Lookup(GameLookup):
    def __init__(self, finder: GameFinder) -> None:
        self.finder = finder


class ScrabbleSessionCog(commands.Cog):
    def __init__(self, bot: ClubBot, scrabble: ScrabbleService) -> None:
        self.bot = bot
        self.club = ClubService(bot.ctx)
        self.service = SessionService(bot.ctx, scrabble)
        self.service.running.thread_opener = lambda channel_id, name, text, nonce, members: (
            open_board_thread(bot, channel_id, name, text, nonce, members)
        )
        self.commands = SessionCommands(self)
        self.tally_commands = TallyCommands(self)
        self.lookup = _Lookup(scrabble.finder)
        self.addresses = BoardAddresses(bot.ctx)
        self._card_locks: dict[int, asyncio.Lock] = {}
        buttons_of(bot).bind(SESSION_BUTTONS, SessionButtons(self))

    async def is_moderator(self, interaction: discord.Interaction) -> bool:
        guild = require_guild(interaction)
        settings = await self.club.get(guild.id)
        return is_moderator(interaction.user, settings.moderator_role_id)

    async def refresh_card(self, changed: SessionSnapshot) -> None:
        """Edit the sign-up post to the list as it stands (cosmetic: the list is stored).
        One edit at a time per session, each reading the list afresh, so the last
        edit shows the last sign-up even when two land at once."""
        lock = self._card_locks.setdefault(changed.id, asyncio.Lock())
        async with lock:
            view = await self.service.core.get(changed.id)
            await self._edit_card(view)

    async def _edit_card(self, view: SessionSnapshot) -> None:
        if view.message_id is None:
            return
        # By id: a thread is not always in discord.py's cache (bot/gateway/threads.py).
        channel = self.bot.get_partial_messageable(view.channel_id)
        try:
            await channel.get_partial_message(view.message_id).edit(
                content=messages.session_card(view),
                view=signup_view(view.id, open_=view.status == "open"),
                allowed_mentions=NO_MENTIONS,
            )
        except discord.HTTPException as error:
            log.info("could not edit session %s's sign-up post (%s)", view.id, error.code)


async def setup(bot: ClubBot) -> None:
    scrabble = bot.get_cog("ScrabbleCog")
    group = getattr(scrabble, "app_command", None)
    service = getattr(scrabble, "service", None)
    if not isinstance(group, app_commands.Group) or not isinstance(service, ScrabbleService):
        raise RuntimeError("cogs.scrabble must load before cogs.scrabble_session")
    cog = ScrabbleSessionCog(bot, service)
    group.add_command(cog.commands)
    bot.tree.add_command(cog.tally_commands)
    bot.scheduler.register_service(cog.service)
    bot.outbox.views[VIEW_EXPLAIN] = explain_view
    bot.add_dynamic_items(*DYNAMIC_ITEMS)
    await bot.add_cog(cog)
