"""Explain the word: after each play the pair that made it explains its word, once
(``word_explanations``); the explanation is shown in the board's thread."""

from __future__ import annotations

from bot.db.models_sessions import WordExplanationRecord
from bot.db.uow import UnitOfWork, duplicate_as
from bot.errors import InvalidInputError, NotFoundError, PermissionDeniedError
from bot.messages import sessions as messages
from bot.messages.i18n import _
from bot.messages.post import Post
from bot.services.scrabble.loaded import LoadedGame, load_game
from bot.services.sessions.core import SessionCore
from bot.services.sessions.snapshots import Explained

EXPLANATION_CHARS = 400
EXPLANATION_MIN_CHARS = 10  # "x" is no explanation (the form asks for this many too)


class SessionExplaining:
    """The Explain button's form and what it keeps."""

    def __init__(self, core: SessionCore) -> None:
        self.core = core

    async def _play_to_explain(
        self, uow: UnitOfWork, guild_id: int, game_id: int, ply: int, user_id: int
    ) -> tuple[LoadedGame, int, tuple[str, ...]]:
        """The game, the seat and the words of the play at ``ply``, if ``user_id``'s
        pair made it and has not explained it yet."""
        loaded = await load_game(uow, game_id, guild_id)
        engine = loaded.require_engine()
        if not 0 <= ply < len(engine.moves) or engine.moves[ply]["type"] != "play":
            raise NotFoundError(messages.NO_SUCH_PLAY)
        entry = engine.moves[ply]
        seat = int(entry["seat"])
        if loaded.seat_of(user_id) != seat:
            raise PermissionDeniedError(messages.NOT_YOUR_PLAY)
        if await uow.sessions.explanation(game_id, ply) is not None:
            raise InvalidInputError(messages.ALREADY_EXPLAINED)
        return loaded, seat, tuple(dict.fromkeys(entry.get("words") or [entry["word"]]))

    async def words_to_explain(
        self, *, guild_id: int, game_id: int, ply: int, user_id: int
    ) -> tuple[str, ...]:
        """Before the form opens: the words, or why this member can't explain them."""
        async with self.core.ctx.reader() as uow:
            _, _, words = await self._play_to_explain(uow, guild_id, game_id, ply, user_id)
        return words

    async def explain(
        self, *, guild_id: int, game_id: int, ply: int, user_id: int, text: str
    ) -> Explained:
        """The pair that made the play at ``ply`` explains its word, once; shown in the thread."""
        cleaned = " ".join(text.split())
        if not cleaned:
            raise InvalidInputError(messages.EMPTY_EXPLANATION)
        if len(cleaned) < EXPLANATION_MIN_CHARS:
            raise InvalidInputError(
                _(messages.SHORT_EXPLANATION).format(count=EXPLANATION_MIN_CHARS)
            )
        cleaned = cleaned[:EXPLANATION_CHARS]
        now = self.core.ctx.clock()
        async with self.core.ctx.uow() as uow:
            loaded, seat, words = await self._play_to_explain(uow, guild_id, game_id, ply, user_id)
            uow.sessions.add(
                WordExplanationRecord(
                    game_id=game_id, ply=ply, user_id=user_id, text=cleaned, created_at=now
                )
            )
            with duplicate_as(InvalidInputError(messages.ALREADY_EXPLAINED)):
                await uow.sessions.flush()
            if loaded.home is not None:
                post = Post(content=messages.explanation_post(loaded.label(seat), words, cleaned))
                uow.outbox.to_channel(loaded.home, post)
            await uow.commit()
        return Explained(loaded.number, loaded.home, words)
