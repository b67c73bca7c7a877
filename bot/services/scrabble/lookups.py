"""Looking words up: ``/scrabble check words`` says whether each word is in a
game's word list (the game named, or the thread's) or the club's, with a
definition when the installed dictionary has one.

A game made with ``lookups:False`` closes the lookup to its players while it
runs (its status is ``active``): a member seated in such a game is refused
whichever list they ask about, so the rule can't be stepped round by asking
outside the game's thread. Nothing is written.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable

from bot.db.models import GameRecord
from bot.db.uow import UnitOfWork
from bot.errors import InvalidInputError
from bot.messages.scrabble import lookups as msg
from bot.services.scrabble.core import ScrabbleCore
from bot.services.scrabble.loaded import KIND
from bot.services.scrabble.options import GameSettings, known_word_list
from engines.scrabble.lexicon import is_word

_SEPARATORS = re.compile(r"[\s,;/]+")
_PLAYABLE = re.compile(r"^[A-Z]{2,15}$")


def words_of(text: str) -> list[str]:
    """The distinct words of ``text`` (clipped to ``MAX_INPUT_CHARS``), upper case, in order."""
    tokens = _SEPARATORS.split(text[: msg.MAX_INPUT_CHARS].strip().upper())
    return list(dict.fromkeys(t for t in tokens if t))


class Lookups:
    """``/scrabble check words``: whether words are in a word list, with definitions."""

    def __init__(self, core: ScrabbleCore, word_lists: Callable[[], list[str]]) -> None:
        self.core = core
        self.ctx = core.ctx
        self._word_lists = word_lists

    async def ensure_open(self, *, guild_id: int, user_id: int) -> None:
        """Refuse a member seated in a running game with lookups off (any lookup: the
        word tools ask this before they search)."""
        async with self.ctx.reader() as uow:
            await self._refuse_closed(uow, guild_id, user_id)

    async def _refuse_closed(self, uow: UnitOfWork, guild_id: int, user_id: int) -> None:
        running = await uow.games.for_player(
            user_id, guild_id=guild_id, kind=KIND, statuses=("active",)
        )
        for playing in running:
            if not GameSettings.from_json(playing.options).lookups:
                raise InvalidInputError(msg.lookups_off(playing.number))

    async def check_words(
        self,
        *,
        guild_id: int,
        user_id: int,
        text: str,
        game_id: int | None = None,
        channel_id: int | None = None,
        word_list: str | None = None,
    ) -> str:
        """The private answer to ``/scrabble check words``. ``game_id``: the game
        named; else the game whose thread ``channel_id`` is, if any; an explicit
        ``word_list`` (one of the club's lists) wins over both."""
        words = words_of(text)
        if not words:
            raise InvalidInputError(msg.NOTHING_TO_CHECK)
        async with self.ctx.reader() as uow:
            await self._refuse_closed(uow, guild_id, user_id)
            record: GameRecord | None = None
            if game_id is not None:
                record = (await self.core.load(uow, game_id, guild_id)).record
            elif channel_id is not None:
                here = await uow.games.by_thread(channel_id, kind=KIND)
                record = here if here is not None and here.guild_id == guild_id else None
            game_list = GameSettings.from_json(record.options).lexicon if record else None
            number: int | None = record.number if record is not None else None
        if word_list is not None and word_list.strip():
            name = known_word_list(word_list, self._word_lists())
            number = number if name == game_list else None
        else:
            name = game_list or self.ctx.settings.lexicon
        lexicon = await self.core.lexicons.get(name)
        checked = words[: msg.MAX_WORDS]
        source = await self.core.announce.definition_source()
        results = []
        for word in checked:
            if not _PLAYABLE.match(word):
                results.append(msg.CheckedWord(word, None))
            elif not is_word(lexicon, word):
                results.append(msg.CheckedWord(word, False))
            else:
                definition = (
                    await asyncio.to_thread(source.define, word) if source is not None else None
                )
                results.append(msg.CheckedWord(word, True, definition))
        return msg.checked_words(
            results, word_list=name, game_number=number, skipped=len(words) - len(checked)
        )
