"""A member's moves in a Scrabble game: play, exchange, pass, resign, challenge,
and accepting a play that would end the game. Each is one unit of work: load,
ask the engine (pure: a refused move raises and changes nothing), commit.

A move made on a member's board page (``bot.web.board_scrabble``) names the
version of the game it was made on (``expected_version``): a game that has
changed since is refused with ``StaleBoardError`` in the move's own unit of
work, before the engine is asked, so nothing is applied to a board the member
has not seen (and the save compares the version again)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from typing import Literal

from bot.db.uow import UnitOfWork
from bot.errors import InvalidInputError, StaleBoardError
from bot.messages import scrabble as msg
from bot.messages.i18n import _
from bot.messages.web import STALE_BOARD
from bot.services.games import WhichGame
from bot.services.scrabble.core import ScrabbleCore
from bot.services.scrabble.snapshots import ActionOutcome
from bot.services.transactions import transact
from engines.scrabble import NotYourTurnError, ScrabbleError, ScrabbleGame, read_typed_word
from engines.scrabble.game import FINISHED, PlayResult
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


def _played(result: PlayResult) -> str:
    """What the member who played is told: the words, the score, the tiles drawn."""
    return msg.played(
        result.main_word,
        result.notation.split()[0],
        result.score,
        bingo=result.bingo,
        words=[(w.word, w.score) for w in result.words],
        drawn=result.drawn,
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
        game_id: WhichGame,
        user_id: int,
        word: str,
        position: str,
        direction: str | None = None,
        *,
        guild_id: int | None = None,
        expected_version: int | None = None,
    ) -> ActionOutcome:
        """Play ``word`` at ``position``: ``8H`` across, ``H8`` down (``direction`` overrides).
        ``expected_version``: the version the page showed (the tally page), checked in
        the move's own transaction."""

        def act(engine: ScrabbleGame, seat: int, lexicon: Lexicon | None) -> str:
            typed = read_typed_word(word.strip())
            return _played(engine.play(seat, typed, position.strip(), direction, lexicon=lexicon))

        return await self._act(
            game_id,
            user_id,
            guild_id,
            act,
            lexicon="void",
            expected_version=expected_version,
        )

    async def play_tiles(
        self,
        game_id: int,
        user_id: int,
        placements: Sequence[tuple[str, str]],
        *,
        guild_id: int | None = None,
        expected_version: int | None = None,
    ) -> ActionOutcome:
        """Play tiles put down square by square (a board page): ``[("H8", "Q"),
        ("H9", "?i")]``, a blank as ``?`` and its letter. The main word and the
        cross-words are read off the board with the tiles already there, so nothing
        is typed and the whole-word rule of ``play`` has nothing to check; the rest
        (rack, placement, void words, the answer) is ``play``'s."""

        def act(engine: ScrabbleGame, seat: int, lexicon: Lexicon | None) -> str:
            return _played(engine.play_tiles(seat, placements, lexicon=lexicon))

        return await self._act(
            game_id,
            user_id,
            guild_id,
            act,
            lexicon="void",
            expected_version=expected_version,
        )

    async def exchange(
        self,
        game_id: WhichGame,
        user_id: int,
        tiles: str,
        *,
        guild_id: int | None = None,
        expected_version: int | None = None,
    ) -> ActionOutcome:
        """Swap ``tiles`` from the member's rack for new ones from the bag (the answer,
        private to them, names the tiles drawn)."""
        return await self._act(
            game_id,
            user_id,
            guild_id,
            lambda game, seat, _: msg.exchanged(game.exchange(seat, tiles)),
            expected_version=expected_version,
        )

    async def pass_turn(
        self,
        game_id: WhichGame,
        user_id: int,
        *,
        guild_id: int | None = None,
        expected_version: int | None = None,
    ) -> ActionOutcome:
        """Pass the member's turn."""
        return await self._then(
            game_id, user_id, guild_id, ScrabbleGame.pass_turn, msg.PASSED, expected_version
        )

    async def resign(
        self,
        game_id: WhichGame,
        user_id: int,
        *,
        guild_id: int | None = None,
        expected_version: int | None = None,
    ) -> ActionOutcome:
        """The member's seat resigns: it leaves the game, which ends when one seat is left."""
        return await self._then(
            game_id, user_id, guild_id, ScrabbleGame.resign, msg.RESIGNED, expected_version
        )

    async def challenge(
        self,
        game_id: WhichGame,
        user_id: int,
        *,
        guild_id: int | None = None,
        ply: int | None = None,
        expected_version: int | None = None,
    ) -> ActionOutcome:
        """Challenge the last play (``ply``: the move count of the board its button was under)."""
        return await self._act(
            game_id,
            user_id,
            guild_id,
            partial(_challenge, ply),
            lexicon="always",
            expected_version=expected_version,
        )

    async def accept_play(
        self,
        game_id: int,
        user_id: int,
        *,
        guild_id: int | None = None,
        ply: int | None = None,
        expected_version: int | None = None,
    ) -> ActionOutcome:
        """Accept a play that would end the game (it stands once every opponent has)."""
        return await self._act(
            game_id, user_id, guild_id, partial(_accept, ply), expected_version=expected_version
        )

    async def _then(
        self,
        game_id: WhichGame,
        user_id: int,
        guild_id: int | None,
        step: Callable[[ScrabbleGame, int], object],
        answer: str,
        expected_version: int | None = None,
    ) -> ActionOutcome:
        """A move that needs no word list and whose answer is always the same."""

        def act(engine: ScrabbleGame, seat: int, lexicon: Lexicon | None) -> str:
            step(engine, seat)
            return _(answer)  # a message id (msg.PASSED, msg.RESIGNED)

        return await self._act(game_id, user_id, guild_id, act, expected_version=expected_version)

    async def _act(
        self,
        game_id: WhichGame,
        user_id: int,
        guild_id: int | None,
        act: Act,
        *,
        lexicon: Literal["always", "void"] | None = None,
        expected_version: int | None = None,
    ) -> ActionOutcome:
        """Load, act, commit: one unit of work. ``lexicon``: ``"always"`` the action
        needs the game's word list, ``"void"`` only under the void rule (the list
        is cached per bot, so fetching it inside the transaction costs nothing
        after the first time). ``expected_version``: the version the member's board
        page showed; a game changed since is refused (see the module)."""
        now = self.ctx.clock()

        async def work(uow: UnitOfWork) -> ActionOutcome:
            loaded, seat = await self.core.member_game(uow, game_id, guild_id, user_id)
            if expected_version is not None and loaded.version != expected_version:
                raise StaleBoardError(STALE_BOARD)
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
            return ActionOutcome(
                loaded.game_id, message, loaded.home, finished=engine.status == FINISHED
            )

        return await transact(self.ctx, work)
