"""/scrabble: invite (members or the computer), play, exchange, pass, challenge, resign,
rack, board, games, hint, analyse, export.

Thin: parse the options, call ``ScrabbleService``, answer. Moves are answered
privately (your new tiles are yours only); the board goes to the game's thread
through the outbox, after the move is committed. ``ScrabbleButtons`` answers the
invitation's and the board's buttons.

Over 400 lines: one group of 14 commands whose options, descriptions, choices
and autocompletes Discord needs declared with them; each body only parses,
calls the service and answers (its texts are in ``bot.messages.scrabble``).
"""

from __future__ import annotations

import logging

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import ClubBot
from bot.errors import ClubError, ConflictError
from bot.messages import scrabble as msg
from bot.messages.i18n import _
from bot.messages.limits import (
    CHOICE_NAME_CHARS,
    CHOICE_VALUE_CHARS,
    CHOICES,
)
from bot.messages.matchmaking import seek_posted_reply
from bot.services.board_address import BoardAddresses
from bot.services.games import WhichGame
from bot.services.matchmaking import MAX_OPEN_SEEKS, MatchmakingService
from bot.services.rematch_offer import REMATCH_VIEW
from bot.services.scrabble import (
    COMPUTER_LEVELS,
    RENDER_BOARD,
    RENDER_TEXT_FILE,
    VIEW_BOARD,
    VIEW_INVITE,
    ActionOutcome,
    InviteOutcome,
    Member,
    NewGameRequest,
    ScrabbleService,
    lexicon_display_name,
)
from bot.ui import threads
from bot.ui.board_link import board_link_view
from bot.ui.buttons import buttons_of
from bot.ui.errors import NO_MENTIONS, reply_privately, reply_publicly, think, update_later
from bot.ui.game_lookup import GameLookup
from bot.ui.matchmaking import DYNAMIC_ITEMS as MATCH_ITEMS
from bot.ui.matchmaking import bind as bind_matchmaking
from bot.ui.matchmaking import rematch_view, seek_mentions, seek_view
from bot.ui.permissions import require_guild
from bot.ui.scrabble import (
    DYNAMIC_ITEMS,
    SCRABBLE_BUTTONS,
    board_file,
    board_view,
    invite_view,
    rack_file,
    render_board_for_outbox,
    render_text_for_outbox,
    text_file,
)
from bot.ui.views import view_kwargs
from engines.scrabble import FINISH_LINE_TARGETS

log = logging.getLogger(__name__)

Choice = app_commands.Choice
GAME_HELP = "Game number (default: this thread's, or your only game)"
FINISHED_HELP = "Game number (default: this thread's, or your latest)"


def _member(user: discord.abc.User, me: discord.abc.User | None = None) -> Member:
    computer = me is not None and user.id == me.id
    return Member(
        user.id, getattr(user, "display_name", user.name), bool(user.bot), computer=computer
    )


def _where(outcome: ActionOutcome, interaction: discord.Interaction) -> str:
    return msg.board_elsewhere(outcome.home_channel_id, interaction.channel_id)


async def _open_thread(
    client: discord.Client, message: discord.Message, name: str, what: str
) -> tuple[int | None, discord.Thread | None]:
    """The game's thread from its invitation (``bot.ui.threads``). An interaction
    cannot wait for Discord to recover, so on Discord's own trouble too the game
    plays in the channel."""
    thread = await threads.open_thread(
        client,
        message.channel.id,
        message_id=message.id,
        name=name,
        archive_minutes=threads.ARCHIVE_CORRESPONDENCE,
        retry_later=False,
        what=what,
    )
    if isinstance(thread, discord.Thread):
        return thread.id, thread
    return thread, None


class ScrabbleButtons:
    """What the invitation's and the board's buttons do (``ScrabbleActions``, bound
    to ``SCRABBLE_BUTTONS``), and the start of a game once everyone is in."""

    def __init__(self, service: ScrabbleService) -> None:
        self.service = service
        self.boards = BoardAddresses(service.ctx)

    async def start_against_computer(
        self, interaction: discord.Interaction, outcome: InviteOutcome
    ) -> None:
        """Nobody to wait for: post the game, open its thread, deal. The post keeps
        its Accept button until the game is dealt, so a failure half-way can be
        finished with a click (see ``join``)."""
        await reply_publicly(
            interaction,
            msg.against_computer(interaction.user.mention, outcome.text),
            view=invite_view(outcome.game_id),
            allowed_mentions=NO_MENTIONS,
        )
        thread_id, thread = outcome.thread_id, None
        if thread_id is None:
            message = await interaction.original_response()
            thread_id, thread = await _open_thread(
                interaction.client, message, outcome.thread_name, f"Scrabble game {outcome.game_id}"
            )
        view = await self.service.invitations.start(outcome.game_id, thread_id)
        if thread is not None:
            await threads.add_members(thread, [interaction.user.id])
        on = msg.game_is_on(outcome.text, view.home_channel_id, everyone=False)
        try:
            await interaction.edit_original_response(
                content=msg.against_computer(interaction.user.mention, on),
                view=None,
                allowed_mentions=NO_MENTIONS,
            )
        except discord.HTTPException:
            pass  # cosmetic only: the game has started either way

    async def join(self, interaction: discord.Interaction, game_id: int) -> None:
        await update_later(interaction)
        guild = require_guild(interaction)
        outcome = await self.service.invitations.accept(game_id, interaction.user.id, guild.id)
        if not outcome.all_accepted:
            await interaction.edit_original_response(
                content=outcome.text, view=invite_view(game_id), allowed_mentions=NO_MENTIONS
            )
            return
        # The buttons stay until the game has started, so a crash half-way can be
        # retried with another click (a second thread is never made: see _open_thread).
        thread_id, thread = outcome.thread_id, None
        if thread_id is None and interaction.message is not None:
            thread_id, thread = await _open_thread(
                interaction.client,
                interaction.message,
                outcome.thread_name,
                f"Scrabble game {outcome.game_id}",
            )
        try:
            view = await self.service.invitations.start(game_id, thread_id)
        except ConflictError:
            return  # another acceptance started it at the same moment
        if thread is not None:
            await threads.add_members(thread, [u for seat in view.seats for u in seat.user_ids])
        try:
            await interaction.edit_original_response(
                content=msg.game_is_on(outcome.text, view.home_channel_id, everyone=True),
                view=None,
            )
        except discord.HTTPException:
            pass  # cosmetic only: the game has started either way

    async def decline(self, interaction: discord.Interaction, game_id: int) -> None:
        await update_later(interaction)
        guild = require_guild(interaction)
        outcome = await self.service.invitations.decline(game_id, interaction.user.id, guild.id)
        await interaction.edit_original_response(
            content=outcome.text, view=None, allowed_mentions=NO_MENTIONS
        )

    async def show_rack(self, interaction: discord.Interaction, game_id: WhichGame) -> None:
        """``/scrabble rack`` and the board's Show my rack: the rack, privately, with
        the member's own board link (their rack is theirs to play from there too)."""
        await think(interaction, private=True)
        guild = require_guild(interaction)
        rack = await self.service.reading.rack(game_id, interaction.user.id, guild_id=guild.id)
        files = [await rack_file(rack.tiles)]
        if rack.game.picture is not None:
            files.append(await board_file(rack.game.picture))
        url = await self.boards.url(
            guild.id, interaction.user.id, "scrabble", rack.game.game_id, guild_name=guild.name
        )
        await reply_privately(
            interaction,
            msg.rack_message(rack.text, rack.game.summary),
            files=files,
            **view_kwargs(board_link_view(url)),
        )

    async def challenge_button(
        self, interaction: discord.Interaction, game_id: int, ply: int
    ) -> None:
        await think(interaction, private=True)
        outcome = await self.service.moves.challenge(
            game_id, interaction.user.id, guild_id=require_guild(interaction).id, ply=ply
        )
        await reply_privately(interaction, outcome.message + _where(outcome, interaction))

    async def accept_button(self, interaction: discord.Interaction, game_id: int, ply: int) -> None:
        await think(interaction, private=True)
        outcome = await self.service.moves.accept_play(
            game_id, interaction.user.id, guild_id=require_guild(interaction).id, ply=ply
        )
        await reply_privately(interaction, outcome.message + _where(outcome, interaction))


class ScrabbleCog(
    GameLookup,
    commands.GroupCog,
    group_name="scrabble",
    group_description="Scrabble for 2–4 seats (pairs welcome)",
):
    def __init__(self, bot: ClubBot) -> None:
        self.bot = bot
        self.service = ScrabbleService(bot.ctx)
        self.finder = self.service.finder
        self.buttons = ScrabbleButtons(self.service)
        buttons_of(bot).bind(SCRABBLE_BUTTONS, self.buttons)
        self.matchmaking = MatchmakingService(bot.ctx, scrabble=self.service)
        super().__init__()

    # -- starting a game -------------------------------------------------------------------------

    @app_commands.command(name="new", description="Invite members (or me, the computer) to a game")
    @app_commands.describe(
        opponent="Who you play (name me for the computer)",
        opponent2="A third seat",
        opponent3="A fourth seat",
        partner="Your partner (any seat may be a pair)",
        opponent_partner="opponent's partner",
        opponent2_partner="opponent2's partner",
        opponent3_partner="opponent3's partner",
        clock="Turn clock: 3m live, 1d, or off (default 1d); a plain number is hours",
        deadline="Game length, e.g. 80m (default 7d); a plain number is days",
        challenge="Challenge rule (default double)",
        variant="Standard, finish line or 9-tile racks",
        target="Finish line: a score or a level",
        word_list="The word list that judges",
        explain="Define each new word, or ask the player to",
        ending="Early end: six scoreless turns (default) or two passes",
        level="How the computer plays (default casual)",
        hints="Allow /scrabble hint (the game is then not rated)",
        lookups="Allow /scrabble check while it runs (default on)",
    )
    @app_commands.choices(
        challenge=[
            Choice(name="double", value="double"),
            Choice(name="single (no penalty)", value="single"),
            Choice(name="void (words checked as played)", value="void"),
        ],
        variant=[
            Choice(name="standard", value="standard"),
            Choice(name="finish line", value="finish_line"),
            Choice(name="9-tile racks", value="nine_tiles"),
        ],
        ending=[
            Choice(name="six scoreless turns", value="six_zeros"),
            Choice(name="two passes by one player", value="two_passes"),
        ],
        level=[Choice(name=msg.level_name(value), value=value) for value in COMPUTER_LEVELS],
    )
    @app_commands.guild_only()
    async def new(
        self,
        interaction: discord.Interaction,
        opponent: discord.Member,
        opponent2: discord.Member | None = None,
        opponent3: discord.Member | None = None,
        partner: discord.Member | None = None,
        opponent_partner: discord.Member | None = None,
        opponent2_partner: discord.Member | None = None,
        opponent3_partner: discord.Member | None = None,
        clock: str | None = None,
        deadline: str | None = None,
        challenge: Choice[str] | None = None,
        variant: Choice[str] | None = None,
        target: str | None = None,
        word_list: str | None = None,
        explain: bool | None = None,
        ending: Choice[str] | None = None,
        level: Choice[str] | None = None,
        hints: bool | None = None,
        lookups: bool | None = None,
    ) -> None:
        await think(interaction, private=False)
        guild = require_guild(interaction)
        me = self.bot.user
        opponents = [_member(m, me) for m in (opponent, opponent2, opponent3) if m is not None]
        request = NewGameRequest(
            guild_id=guild.id,
            guild_name=guild.name,
            channel_id=interaction.channel_id or 0,
            creator=_member(interaction.user),
            opponents=opponents,
            partner=_member(partner, me) if partner else None,
            opponent_partner=_member(opponent_partner, me) if opponent_partner else None,
            opponent2_partner=_member(opponent2_partner, me) if opponent2_partner else None,
            opponent3_partner=_member(opponent3_partner, me) if opponent3_partner else None,
            clock=clock,
            deadline=deadline,
            challenge=challenge.value if challenge else None,
            variant=variant.value if variant else None,
            target=target,
            word_list=word_list,
            explain=bool(explain),
            ending=ending.value if ending else None,
            in_thread=isinstance(interaction.channel, discord.Thread),
            computer_level=level.value if level else None,
            hints=bool(hints),
            lookups=lookups is not False,
        )
        outcome = await self.service.invitations.create(request)
        invited = [
            m
            for m in (
                opponent,
                opponent2,
                opponent3,
                partner,
                opponent_partner,
                opponent2_partner,
                opponent3_partner,
            )
            if m is not None and (me is None or m.id != me.id)
        ]
        if outcome.all_accepted:
            await self.buttons.start_against_computer(interaction, outcome)
            return
        pings = " ".join(m.mention for m in invited)
        await reply_publicly(
            interaction,
            msg.invite_post(pings, interaction.user.mention, outcome.text),
            notify=True,
            view=invite_view(outcome.game_id),
            allowed_mentions=discord.AllowedMentions(everyone=False, roles=False, users=invited),
        )

    @new.autocomplete("clock")
    async def _clock_choices(
        self, interaction: discord.Interaction, current: str
    ) -> list[Choice[str]]:
        return _suggest(msg.CLOCK_SUGGESTIONS, current)

    @new.autocomplete("deadline")
    async def _deadline_choices(
        self, interaction: discord.Interaction, current: str
    ) -> list[Choice[str]]:
        return _suggest(msg.DEADLINE_SUGGESTIONS, current)

    @new.autocomplete("target")
    async def _target_choices(
        self, interaction: discord.Interaction, current: str
    ) -> list[Choice[str]]:
        ns = interaction.namespace
        seats = 2 + sum(getattr(ns, n, None) is not None for n in ("opponent2", "opponent3"))
        options = msg.finish_line_choices(FINISH_LINE_TARGETS, seats, current)
        return _suggest(options, current if not current.strip().isdigit() else "", translated=True)

    @app_commands.command(name="seek", description="Post a game anyone may accept")
    @app_commands.describe(
        clock="Turn clock (default 1d)", deadline="Game length (default 7d)", word_list="Word list"
    )
    @app_commands.guild_only()
    async def seek(
        self,
        interaction: discord.Interaction,
        clock: str | None = None,
        deadline: str | None = None,
        word_list: str | None = None,
    ) -> None:
        guild = require_guild(interaction)
        await think(interaction, private=False)  # the post follows, pinging the role
        me = _member(interaction.user)
        snap = await self.matchmaking.seeks.post(
            guild_id=guild.id,
            guild_name=guild.name,
            channel_id=interaction.channel_id or 0,
            user=(me.user_id, me.name),
            options={"clock": clock, "deadline": deadline, "word_list": word_list},
        )
        sent = await reply_publicly(
            interaction,
            snap.post_text(),
            notify=True,
            view=seek_view("scrabble", snap.seek_id),
            allowed_mentions=seek_mentions(snap.role_id),
        )
        post = sent if sent is not None else await interaction.original_response()
        await self.matchmaking.seeks.record_message(snap.seek_id, post.id)
        await reply_privately(interaction, seek_posted_reply(snap.open_count, MAX_OPEN_SEEKS))

    @seek.autocomplete("word_list")
    @new.autocomplete("word_list")
    async def _word_list_choices(
        self, interaction: discord.Interaction, current: str
    ) -> list[Choice[str]]:
        return self._word_lists(current)

    def _word_lists(self, current: str) -> list[Choice[str]]:
        options = [
            (lexicon_display_name(name), name) for name in self.service.invitations.word_lists()
        ]
        return _suggest(options, current, translated=True)  # names, not messages

    # -- moves ---------------------------------------------------------------------------------

    @app_commands.command(
        name="play", description="Play a word: position 8H = across from H8, H8 = down"
    )
    @app_commands.describe(
        word="The whole word (quiz); a blank as ? before its letter (qui?zz)",
        position="Where it starts: 8H goes across, H8 goes down",
        direction="Override the position's direction",
        game=GAME_HELP,
    )
    @app_commands.choices(
        direction=[Choice(name="across", value="across"), Choice(name="down", value="down")]
    )
    @app_commands.guild_only()
    async def play(
        self,
        interaction: discord.Interaction,
        word: app_commands.Range[str, 1, 40],
        position: app_commands.Range[str, 2, 8],
        direction: Choice[str] | None = None,
        game: str | None = None,
    ) -> None:
        await think(interaction, private=True)
        outcome = await self.service.moves.play(
            self._asked(interaction, game),
            interaction.user.id,
            word,
            position,
            direction.value if direction else None,
            guild_id=require_guild(interaction).id,
        )
        await reply_privately(interaction, outcome.message + _where(outcome, interaction))

    @play.autocomplete("position")
    async def _position_choices(
        self, interaction: discord.Interaction, current: str
    ) -> list[Choice[str]]:
        if interaction.guild is None:
            return []
        ns = interaction.namespace
        try:
            asked = self.service.finder.asked(
                guild_id=interaction.guild.id,
                user_id=interaction.user.id,
                channel_id=interaction.channel_id,
                ref=getattr(ns, "game", None),
            )
            found = await self.service.reading.position_choices(
                asked, interaction.user.id, getattr(ns, "word", "") or "", current
            )
        except ClubError:
            return []
        return [Choice(name=c.label[:CHOICE_NAME_CHARS], value=c.position) for c in found]

    @app_commands.command(
        name="exchange",
        description="Swap tiles (scores 0; the bag must hold a full rack)",
    )
    @app_commands.describe(tiles="Tiles to swap, e.g. QVV (? is a blank)", game=GAME_HELP)
    @app_commands.guild_only()
    async def exchange(
        self,
        interaction: discord.Interaction,
        tiles: app_commands.Range[str, 1, 30],
        game: str | None = None,
    ) -> None:
        await think(interaction, private=True)
        outcome = await self.service.moves.exchange(
            self._asked(interaction, game),
            interaction.user.id,
            tiles,
            guild_id=require_guild(interaction).id,
        )
        await reply_privately(interaction, outcome.message + _where(outcome, interaction))

    @exchange.autocomplete("tiles")
    async def _exchange_choices(
        self, interaction: discord.Interaction, current: str
    ) -> list[Choice[str]]:
        if interaction.guild is None:
            return []
        try:
            game_id = await self.service.finder.resolve(
                guild_id=interaction.guild.id,
                user_id=interaction.user.id,
                channel_id=interaction.channel_id,
                ref=getattr(interaction.namespace, "game", None),
            )
            rack = await self.service.reading.rack_text(game_id, interaction.user.id)
        except ClubError:
            return []
        choices = []
        if current.strip():
            choices.append(
                Choice(
                    name=_("Swap {tiles}").format(tiles=current.strip().upper())[
                        :CHOICE_NAME_CHARS
                    ],
                    value=current.strip()[:30],
                )
            )
        if rack:
            shown = _("Your rack: {tiles} (all of it)").format(tiles=" ".join(rack))
            choices.append(Choice(name=shown[:CHOICE_NAME_CHARS], value=rack))
        return choices

    @app_commands.command(name="pass", description="Pass your turn (scores nothing)")
    @app_commands.describe(game=GAME_HELP)
    @app_commands.guild_only()
    async def pass_(self, interaction: discord.Interaction, game: str | None = None) -> None:
        await think(interaction, private=True)
        outcome = await self.service.moves.pass_turn(
            self._asked(interaction, game),
            interaction.user.id,
            guild_id=require_guild(interaction).id,
        )
        await reply_privately(interaction, outcome.message + _where(outcome, interaction))

    @app_commands.command(name="resign", description="Resign (you lose; others may play on)")
    @app_commands.describe(game=GAME_HELP)
    @app_commands.guild_only()
    async def resign(self, interaction: discord.Interaction, game: str | None = None) -> None:
        await think(interaction, private=True)
        outcome = await self.service.moves.resign(
            self._asked(interaction, game),
            interaction.user.id,
            guild_id=require_guild(interaction).id,
        )
        await reply_privately(interaction, outcome.message + _where(outcome, interaction))

    @app_commands.command(name="challenge", description="Challenge the last play")
    @app_commands.describe(game=GAME_HELP)
    @app_commands.guild_only()
    async def challenge(self, interaction: discord.Interaction, game: str | None = None) -> None:
        await think(interaction, private=True)
        outcome = await self.service.moves.challenge(
            self._asked(interaction, game),
            interaction.user.id,
            guild_id=require_guild(interaction).id,
        )
        await reply_privately(interaction, outcome.message + _where(outcome, interaction))

    # -- looking -------------------------------------------------------------------------------

    @app_commands.command(name="rack", description="Your tiles (just for you and your partner)")
    @app_commands.describe(game=GAME_HELP)
    @app_commands.guild_only()
    async def rack(self, interaction: discord.Interaction, game: str | None = None) -> None:
        await think(interaction, private=True)
        await self.buttons.show_rack(interaction, self._asked(interaction, game))

    @app_commands.command(name="board", description="The board and scores (just for you)")
    @app_commands.describe(game=GAME_HELP)
    @app_commands.guild_only()
    async def board(self, interaction: discord.Interaction, game: str | None = None) -> None:
        await think(interaction, private=True)
        view = await self.service.reading.board(
            self._asked(interaction, game),
            interaction.user.id,
            guild_id=require_guild(interaction).id,
        )
        files = [await board_file(view.picture)] if view.picture is not None else []
        await reply_privately(interaction, view.summary, files=files)

    @app_commands.command(name="games", description="Your Scrabble games and whose turn it is")
    @app_commands.guild_only()
    async def games(self, interaction: discord.Interaction) -> None:
        await think(interaction, private=True)
        guild = require_guild(interaction)
        summaries = await self.service.reading.games_for(guild.id, interaction.user.id)
        rows = [(s.listed(), s.turn_due, s.home_channel_id) for s in summaries]
        await reply_privately(interaction, msg.games_list(rows))

    @app_commands.command(
        name="check", description="Is it a word? Checks a game's or the club's word list"
    )
    @app_commands.describe(
        words="Up to 10 words (e.g. QI ZA QAT)",
        game="Use this game's word list (default: this thread's, or the club's)",
        word_list="Use this word list",
    )
    @app_commands.guild_only()
    async def check(
        self,
        interaction: discord.Interaction,
        words: app_commands.Range[str, 1, 200],
        game: str | None = None,
        word_list: str | None = None,
    ) -> None:
        await think(interaction, private=True)
        guild = require_guild(interaction)
        game_id = await self._game_id(interaction, game, want="any") if game else None
        text = await self.service.lookups.check_words(
            guild_id=guild.id,
            user_id=interaction.user.id,
            text=words,
            game_id=game_id,
            channel_id=interaction.channel_id,
            word_list=word_list,
        )
        await reply_privately(interaction, text)

    @check.autocomplete("word_list")
    async def _check_word_list_choices(
        self, interaction: discord.Interaction, current: str
    ) -> list[Choice[str]]:
        return self._word_lists(current)

    @app_commands.command(
        name="hint",
        description="Best plays for your rack (games with hints on)",
    )
    @app_commands.describe(game=GAME_HELP)
    @app_commands.guild_only()
    async def hint(self, interaction: discord.Interaction, game: str | None = None) -> None:
        await think(interaction, private=True)
        game_id = await self._game_id(interaction, game)
        text = await self.service.computer.hint(
            game_id, interaction.user.id, guild_id=require_guild(interaction).id
        )
        await reply_privately(interaction, text)

    @app_commands.command(
        name="analyse", description="Each play of a finished game beside the best"
    )
    @app_commands.describe(game=FINISHED_HELP)
    @app_commands.guild_only()
    async def analyse(self, interaction: discord.Interaction, game: str | None = None) -> None:
        await think(interaction, private=False)
        found = await self._game(interaction, game, want="finished")
        work = await self.service.computer.prepare_analysis(
            found.game_id, guild_id=require_guild(interaction).id
        )
        message, table = await work()
        files = (
            []
            if "```" in message
            else [
                text_file(
                    table,
                    f"scrabble-{found.number}-analysis.txt",
                    msg.analysis_alt_text(found.number),
                )
            ]
        )
        await reply_publicly(interaction, message, files=files, allowed_mentions=NO_MENTIONS)

    @app_commands.command(name="export", description="A finished game's record as a GCG file")
    @app_commands.describe(game=FINISHED_HELP)
    @app_commands.guild_only()
    async def export(self, interaction: discord.Interaction, game: str | None = None) -> None:
        await think(interaction, private=True)
        found = await self._game(interaction, game, want="finished")
        filename, text = await self.service.reading.export(
            found.game_id, guild_id=require_guild(interaction).id
        )
        await reply_privately(
            interaction,
            msg.gcg_export(found.number),
            files=[text_file(text, filename, msg.record_alt_text(found.number))],
        )

    @export.autocomplete("game")
    @analyse.autocomplete("game")
    @check.autocomplete("game")
    async def _export_game_choices(
        self, interaction: discord.Interaction, current: str
    ) -> list[Choice[str]]:
        return await self._game_choices(interaction, current, want="finished")

    @play.autocomplete("game")
    @exchange.autocomplete("game")
    @pass_.autocomplete("game")
    @resign.autocomplete("game")
    @challenge.autocomplete("game")
    @rack.autocomplete("game")
    @board.autocomplete("game")
    @hint.autocomplete("game")
    async def _active_game_choices(
        self, interaction: discord.Interaction, current: str
    ) -> list[Choice[str]]:
        return await self._game_choices(interaction, current)


def _suggest(
    options: list[tuple[str, str]], current: str, *, translated: bool = False
) -> list[Choice[str]]:
    """``options`` (label ids, or labels already ``translated``) matching ``current``."""
    needle = current.strip().lower()
    # labels in the club's language
    shown = options if translated else [(_(name), value) for name, value in options]
    picked = [
        Choice(name=name[:CHOICE_NAME_CHARS], value=value)
        for name, value in shown
        if not needle or needle in name.lower() or needle in value.lower()
    ]
    if needle and not picked:
        typed = current.strip()
        picked = [Choice(name=typed[:CHOICE_NAME_CHARS], value=typed[:CHOICE_VALUE_CHARS])]
    return picked[:CHOICES]


async def setup(bot: ClubBot) -> None:
    cog = ScrabbleCog(bot)
    await bot.add_cog(cog)
    bot.scheduler.register_service(cog.service)
    outbox = bot.outbox
    outbox.renderers[RENDER_BOARD] = render_board_for_outbox
    outbox.renderers[RENDER_TEXT_FILE] = render_text_for_outbox
    outbox.views[VIEW_BOARD] = board_view
    outbox.views[VIEW_INVITE] = lambda args: invite_view(int(args["game_id"]))
    bot.add_dynamic_items(*DYNAMIC_ITEMS)
    bot.scheduler.register_service(cog.matchmaking)
    outbox.views[REMATCH_VIEW] = rematch_view
    bot.add_dynamic_items(*MATCH_ITEMS)
    bind_matchmaking(bot, cog.matchmaking)


__all__ = ["ScrabbleCog", "setup"]
