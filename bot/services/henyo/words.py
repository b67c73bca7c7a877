"""The word bank: the built-in words, less the ones a club took out, plus the
club's own. Moderators and the host of an open event keep it (and see it)."""

from __future__ import annotations

from bot.db.models_henyo import HenyoWordRecord
from bot.db.uow import UnitOfWork
from bot.errors import InvalidInputError, NotFoundError, PermissionDeniedError
from bot.messages import henyo as messages
from bot.services.henyo.core import HenyoCore
from bot.services.henyo.options import bank_word, categories_wanted, new_word
from bot.services.henyo.snapshots import WordList
from bot.services.transactions import transact
from engines.henyo import WordEntry, builtin_words, word_key


def _entry(row: HenyoWordRecord) -> WordEntry:
    return WordEntry(row.text, row.category, row.language)


class WordBank:
    """The club's word bank: the words a round may be given, and the keepers' add, remove and
    listing."""

    def __init__(self, core: HenyoCore) -> None:
        self.core = core

    async def pool(self, uow: UnitOfWork, guild_id: int) -> list[WordEntry]:
        """Every word a round of this guild may be given."""
        rows = await uow.henyo.words(guild_id)
        removed = {r.key for r in rows if not r.active}
        pool = [w for w in builtin_words() if w.key not in removed]
        pool.extend(_entry(r) for r in rows if r.active)
        return pool

    async def _require_keeper(
        self, uow: UnitOfWork, guild_id: int, user_id: int, is_moderator: bool
    ) -> None:
        if not is_moderator and not await uow.henyo.hosts_open_event(guild_id, user_id):
            raise PermissionDeniedError(messages.WORD_KEEPERS)

    def _record(
        self, guild_id: int, word: WordEntry, user_id: int, *, active: bool
    ) -> HenyoWordRecord:
        return HenyoWordRecord(
            guild_id=guild_id,
            text=word.text,
            key=word.key,
            category=word.category,
            language=word.language,
            active=active,
            added_by=user_id,
            created_at=self.core.ctx.clock(),
        )

    async def add(
        self,
        *,
        guild_id: int,
        guild_name: str,
        user_id: int,
        is_moderator: bool,
        text: str,
        category: str,
        language: str,
    ) -> WordEntry:
        """Add a word of the club's own (a built-in word the club took out comes back as one);
        moderators and the host of an open event only."""
        word = new_word(text, category, language)
        builtin = {w.key: w for w in builtin_words()}

        async def work(uow: UnitOfWork) -> WordEntry:
            await uow.guilds.ensure(guild_id, guild_name)
            await self._require_keeper(uow, guild_id, user_id, is_moderator)
            row = await uow.henyo.word(guild_id, word.key)
            if row is not None and row.active:
                raise InvalidInputError(messages.word_in_club_words(word.text, row.category))
            if row is None and word.key in builtin:
                raise InvalidInputError(
                    messages.word_in_builtin_bank(word.text, builtin[word.key].category)
                )
            if row is not None:
                # It was a removed built-in word: bring it back as the club's own.
                await uow.henyo.delete_word(row)
            uow.henyo.add(self._record(guild_id, word, user_id, active=True))
            return word

        return await transact(self.core.ctx, work)

    async def remove(
        self, *, guild_id: int, guild_name: str, user_id: int, is_moderator: bool, text: str
    ) -> WordEntry:
        """Take a word out of the bank: a club word is deleted, a built-in one is kept out of
        this club's rounds."""
        key = word_key(bank_word(text))
        builtin = {w.key: w for w in builtin_words()}

        async def work(uow: UnitOfWork) -> WordEntry:
            await uow.guilds.ensure(guild_id, guild_name)
            await self._require_keeper(uow, guild_id, user_id, is_moderator)
            row = await uow.henyo.word(guild_id, key)
            if row is not None and row.active:
                removed = _entry(row)
                await uow.henyo.delete_word(row)
                if key in builtin:
                    # A club word that shadowed a built-in one: keep the built-in out too.
                    uow.henyo.add(self._record(guild_id, builtin[key], user_id, active=False))
            elif row is None and key in builtin:
                removed = builtin[key]
                uow.henyo.add(self._record(guild_id, removed, user_id, active=False))
            else:
                raise NotFoundError(messages.word_not_in_bank(text))
            return removed

        return await transact(self.core.ctx, work)

    async def show(
        self,
        *,
        guild_id: int,
        user_id: int,
        is_moderator: bool,
        category: str | None = None,
        include_builtin: bool = False,
    ) -> WordList:
        """The bank for a keeper, in one category or all (the built-in words in use listed only
        when ``include_builtin``)."""
        wanted = categories_wanted(category)
        async with self.core.ctx.uow() as uow:
            await self._require_keeper(uow, guild_id, user_id, is_moderator)
            rows = await uow.henyo.words(guild_id, by_text=True)
            removed_keys = {r.key for r in rows if not r.active}
            club = [_entry(r) for r in rows if r.active and r.category in wanted]
            removed = [_entry(r) for r in rows if not r.active and r.category in wanted]
        builtin = [w for w in builtin_words() if w.category in wanted and w.key not in removed_keys]
        return WordList(club, removed, builtin if include_builtin else [], len(builtin))
