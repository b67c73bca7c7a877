"""A member's moves in a Scrabble game: play, exchange, pass, resign, challenge,
and accepting a play that would end the game. Each is one unit of work: load,
ask the engine (pure: a refused move raises and changes nothing), commit."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Literal

from bot.db.uow import UnitOfWork
from bot.errors import InvalidInputError
from bot.messages import scrabble as msg
from bot.messages.i18n import _
from bot.services.scrabble.core import ScrabbleCore
from bot.services.scrabble.snapshots import ActionOutcome
from bot.services.transactions import transact
from engines.scrabble import NotYourTurnError, ScrabbleError, ScrabbleGame, read_typed_word
from engines.scrabble.game import FINISHED
from engines.scrabble.lexicon import Lexicon

# (the game, the member's seat, the game's word list when the move needs it) -> their answer
Act = Callable[[ScrabbleGame, int, Lexicon | None], str]


def _challenge(ply: int | None, engine: ScrabbleGame, seat: int, lexicon: Lexicon | None) -> str:
    if ply is not None and len(engine.moves) != ply:
        raise InvalidInputError(_("That play can no longer be challenged: the game has moved on."))
    result = engine.challenge(seat, lexicon)
    return msg.challenge_result(
        withdrawn=result.withdrawn,
        invalid=result.invalid_words,
        words=result.words,
        lost_turn=result.lost_turn_seat is not None,
    )


def _accept(ply: int | None, engine: ScrabbleGame, seat: int, lexicon: Lexicon | None) -> str:
    if ply is not None and len(engine.moves) < ply:
        raise InvalidInputError(_("That play is no longer waiting to be accepted."))
    return msg.accepted_final_play(engine.accept(seat))


class Moves:
    """A member's moves: play, exchange, pass, resign, challenge, and accepting a play
    that would end the game."""

    def __init__(self, core: ScrabbleCore) -> None:
        self.core = core
        self.ctx = core.ctx

    async def play(
        self,
        game_id: int,
        user_id: int,
        word: str,
        position: str,
        direction: str | None = None,
        *,
        guild_id: int | None = None,
    ) -> ActionOutcome:
        """Play ``word`` at ``position``: ``8H`` across, ``H8`` down (``direction`` overrides)."""

        def act(engine: ScrabbleGame, seat: int, lexicon: Lexicon | None) -> str:
            typed = read_typed_word(word.strip())
            result = engine.play(seat, typed, position.strip(), direction, lexicon=lexicon)
            return msg.played(
                result.main_word,
                result.notation.split()[0],
                result.score,
                bingo=result.bingo,
                words=[(w.word, w.score) for w in result.words],
                drawn=result.drawn,
            )

        return await self._act(game_id, user_id, guild_id, act, lexicon="void")

    async def exchange(
        self, game_id: int, user_id: int, tiles: str, *, guild_id: int | None = None
    ) -> ActionOutcome:
        """Swap ``tiles`` from the member's rack for new ones from the bag (the answer,
        private to them, names the tiles drawn)."""
        return await self._act(
            game_id,
            user_id,
            guild_id,
            lambda game, seat, _: msg.exchanged(game.exchange(seat, tiles)),
        )

    async def pass_turn(
        self, game_id: int, user_id: int, *, guild_id: int | None = None
    ) -> ActionOutcome:
        """Pass the member's turn."""
        return await self._then(game_id, user_id, guild_id, ScrabbleGame.pass_turn, msg.PASSED)

    async def resign(
        self, game_id: int, user_id: int, *, guild_id: int | None = None
    ) -> ActionOutcome:
        """The member's seat resigns: it leaves the game, which ends when one seat is left."""
        return await self._then(game_id, user_id, guild_id, ScrabbleGame.resign, msg.RESIGNED)

    async def challenge(
        self, game_id: int, user_id: int, *, guild_id: int | None = None, ply: int | None = None
    ) -> ActionOutcome:
        """Challenge the last play (``ply``: the move count of the board its button was under)."""
        return await self._act(
            game_id, user_id, guild_id, partial(_challenge, ply), lexicon="always"
        )

    async def accept_play(
        self, game_id: int, user_id: int, *, guild_id: int | None = None, ply: int | None = None
    ) -> ActionOutcome:
        """Accept a play that would end the game (it stands once every opponent has)."""
        return await self._act(game_id, user_id, guild_id, partial(_accept, ply))

    async def _then(
        self,
        game_id: int,
        user_id: int,
        guild_id: int | None,
        step: Callable[[ScrabbleGame, int], object],
        answer: str,
    ) -> ActionOutcome:
        """A move that needs no word list and whose answer is always the same."""

        def act(engine: ScrabbleGame, seat: int, lexicon: Lexicon | None) -> str:
            step(engine, seat)
            return _(answer)  # a message id (msg.PASSED, msg.RESIGNED)

        return await self._act(game_id, user_id, guild_id, act)

    async def _act(
        self,
        game_id: int,
        user_id: int,
        guild_id: int | None,
        act: Act,
        *,
        lexicon: Literal["always", "void"] | None = None,
    ) -> ActionOutcome:
        """Load, act, commit: one unit of work. ``lexicon``: ``"always"`` the action
        needs the game's word list, ``"void"`` only under the void rule (the list
        is cached per bot, so fetching it inside the transaction costs nothing
        after the first time)."""
        now = self.ctx.clock()

        async def work(uow: UnitOfWork) -> ActionOutcome:
            loaded, seat = await self.core.member_game(uow, game_id, guild_id, user_id)
            engine = loaded.require_engine()
            if loaded.record.status != "active":
                raise InvalidInputError(
                    _("Scrabble #{number} is over: see `/scrabble export` for its record.").format(
                        number=loaded.number
                    )
                )
            words = None
            if lexicon == "always" or (
                lexicon == "void" and loaded.settings.rules.challenge == "void"
            ):
                words = await self.core.lexicons.get(loaded.settings.lexicon)
            before = len(engine.moves)
            try:
                message = act(engine, seat, words)
            except NotYourTurnError as exc:
                raise InvalidInputError(msg.not_your_turn(loaded.label(exc.current_seat))) from None
            except ScrabbleError as exc:
                raise InvalidInputError.passing_on(exc, sentence=True) from exc
            await self.core.commit_changes(uow, loaded, before, now, actor=user_id)
            return ActionOutcome(game_id, message, loaded.home, finished=engine.status == FINISHED)

        return await transact(self.ctx, work)
