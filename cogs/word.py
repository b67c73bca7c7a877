"""/word anagram|hooks|pattern|check: word study on the club's word list, privately.

Loaded after cogs.scrabble (cogs load in name order), sharing its ``ScrabbleService``:
the word lists, the lookups rule of games made with ``lookups:False`` and
``/scrabble check`` itself. Thin: parse, call ``WordTools``, answer privately.
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import ClubBot
from bot.messages.limits import CHOICE_NAME_CHARS, CHOICE_VALUE_CHARS, CHOICES
from bot.services.scrabble import ScrabbleService, lexicon_display_name
from bot.services.word_tools import WordTools
from bot.ui.errors import reply_privately, think
from bot.ui.permissions import require_guild

Choice = app_commands.Choice
LIST_HELP = "Another word list the club has (default: the club's)"


class WordCog(
    commands.GroupCog,
    group_name="word",
    group_description="Anagrams, hooks and patterns on the club's word list",
):
    def __init__(self, bot: ClubBot, scrabble: ScrabbleService) -> None:
        self.bot = bot
        self.scrabble = scrabble
        self.tools = WordTools(scrabble)
        super().__init__()

    @app_commands.command(name="anagram", description="Words made from your letters (? = blank)")
    @app_commands.describe(
        letters="Up to 15 letters, ? for a blank (two at most), e.g. AEINRST?",
        all_letters="Only words that use every letter (default: shorter words too)",
        word_list=LIST_HELP,
    )
    @app_commands.rename(word_list="list")
    @app_commands.guild_only()
    async def anagram(
        self,
        interaction: discord.Interaction,
        letters: app_commands.Range[str, 1, 40],
        all_letters: bool = False,
        word_list: str | None = None,
    ) -> None:
        await think(interaction, private=True)
        text = await self.tools.anagram(
            guild_id=require_guild(interaction).id,
            user_id=interaction.user.id,
            letters=letters,
            full_only=all_letters,
            word_list=word_list,
        )
        await reply_privately(interaction, text)

    @app_commands.command(name="hooks", description="Letters that go before or after a word")
    @app_commands.describe(word="The word, e.g. CARE", word_list=LIST_HELP)
    @app_commands.rename(word_list="list")
    @app_commands.guild_only()
    async def hooks(
        self,
        interaction: discord.Interaction,
        word: app_commands.Range[str, 1, 40],
        word_list: str | None = None,
    ) -> None:
        await think(interaction, private=True)
        text = await self.tools.hooks(
            guild_id=require_guild(interaction).id,
            user_id=interaction.user.id,
            word=word,
            word_list=word_list,
        )
        await reply_privately(interaction, text)

    @app_commands.command(name="pattern", description="Words that fit a pattern: ? one letter")
    @app_commands.describe(
        pattern="Letters, ? for one letter, * for any run: ?A?E, *ING, Q*", word_list=LIST_HELP
    )
    @app_commands.rename(word_list="list")
    @app_commands.guild_only()
    async def pattern(
        self,
        interaction: discord.Interaction,
        pattern: app_commands.Range[str, 1, 40],
        word_list: str | None = None,
    ) -> None:
        await think(interaction, private=True)
        text = await self.tools.pattern(
            guild_id=require_guild(interaction).id,
            user_id=interaction.user.id,
            pattern=pattern,
            word_list=word_list,
        )
        await reply_privately(interaction, text)

    @app_commands.command(name="check", description="Is it a word? As /scrabble check says")
    @app_commands.describe(words="Up to 10 words (e.g. QI ZA QAT)", word_list=LIST_HELP)
    @app_commands.rename(word_list="list")
    @app_commands.guild_only()
    async def check(
        self,
        interaction: discord.Interaction,
        words: app_commands.Range[str, 1, 200],
        word_list: str | None = None,
    ) -> None:
        await think(interaction, private=True)
        text = await self.tools.check(
            guild_id=require_guild(interaction).id,
            user_id=interaction.user.id,
            text=words,
            channel_id=interaction.channel_id,
            word_list=word_list,
        )
        await reply_privately(interaction, text)

    @anagram.autocomplete("word_list")
    @hooks.autocomplete("word_list")
    @pattern.autocomplete("word_list")
    @check.autocomplete("word_list")
    async def _word_lists(
        self, interaction: discord.Interaction, current: str
    ) -> list[Choice[str]]:
        needle = current.strip().lower()
        names = self.scrabble.invitations.word_lists()
        shown = [(lexicon_display_name(name), name) for name in names]
        return [
            Choice(name=label[:CHOICE_NAME_CHARS], value=name[:CHOICE_VALUE_CHARS])
            for label, name in shown
            if not needle or needle in label.lower() or needle in name.lower()
        ][:CHOICES]


async def setup(bot: ClubBot) -> None:
    scrabble = getattr(bot.get_cog("ScrabbleCog"), "service", None)
    if not isinstance(scrabble, ScrabbleService):
        raise RuntimeError("cogs.scrabble must load before cogs.word")
    await bot.add_cog(WordCog(bot, scrabble))
