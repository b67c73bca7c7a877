"""The tally of a club session played over real boards (``where: room``, issue #29).

A board in the room is the session's Scrabble game as any other, with the engine
in its ``room`` mode (``engines.scrabble.game``): the bot keeps the board and the
scores, not the racks. A seat (either partner of a pair) enters each play as a
word and position, a pass, an exchange (how many tiles) or a challenge, through
the same use cases as ``/scrabble play`` and the rest (``Moves``): the engine
checks the placement and scores it, the word list judges a challenge as the
session's rule says, the turn clock and the session's deadline are the games'
own timers. Once a board is over each side enters the tiles left on its rack and
the end-of-game rule is applied.

Corrections: the last entry may be corrected by either side until the other
side's next entry; the director (a moderator) may correct any entry. A
correction rebuilds the game from its log with that entry replaced, entry by
entry, so the scores after it are recomputed and a later entry that no longer
stands refuses the correction with the engine's words; the log's rows from that
entry on are written again in the same transaction.

The tally as data (``BoardTally``, ``SessionTally``) is what the board's phone
page and the room's screen show: per board its scores, whose turn and the turn
clock, and the entries with their running totals; per session the boards, the
ranking across boards and the session's deadline.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from bot.db.uow import UnitOfWork
from bot.errors import InvalidInputError, PermissionDeniedError, StaleBoardError
from bot.messages import sessions as session_messages
from bot.messages import tally as messages
from bot.messages.i18n import _
from bot.messages.post import Post
from bot.messages.web import STALE_BOARD
from bot.services.scrabble.core import notation
from bot.services.scrabble.loaded import LoadedGame
from bot.services.scrabble.snapshots import ActionOutcome
from bot.services.sessions.core import SessionCore
from bot.services.sessions.reading import SessionReading
from bot.services.sessions.snapshots import PairResult
from bot.services.transactions import transact
from engines.scrabble import ScrabbleError, ScrabbleGame, read_typed_word
from engines.scrabble.game import ACTIVE, ENDING, FINISHED, RACKS
from engines.scrabble.lexicon import Lexicon

# The entries a side makes (the engine's own, such as a lost turn, are not entries).
ENTRY_KINDS = ("play", "pass", "exchange", "challenge", "rack", "resign")


@dataclass(frozen=True)
class TallySeat:
    """A side on the board: its members, label, score (final once the board is over),
    how many tiles it holds, and whether its unplayed tiles are still wanted."""

    seat: int
    user_ids: tuple[int, ...]
    label: str
    score: int
    tiles: int
    rack_due: bool


@dataclass(frozen=True)
class TallyLine:
    """An entry on the tally: its number (1, 2, …), the side, what it was, its points and
    the side's running total after it."""

    number: int
    ply: int
    seat: int
    kind: str
    text: str
    score: int
    total: int


@dataclass(frozen=True)
class BoardTally:
    """A board in the room as the tally has it. ``status``: playing, racks (over, waiting
    for the tiles left on the racks) or finished."""

    game_id: int
    board: int
    game_number: int
    session_id: int | None
    status: str
    seats: tuple[TallySeat, ...]
    to_move: int | None
    turn_due: datetime | None
    lines: tuple[TallyLine, ...]
    bag: int
    rows: tuple[str, ...]  # the board: "." empty, upper case a tile, lower case a blank
    last_squares: tuple[str, ...]
    can_challenge: bool
    deadline: datetime | None
    version: int


@dataclass(frozen=True)
class SessionTally:
    """A session in the room for the screen: every board's tally, the ranking across
    boards as it stands, and the session's deadline."""

    session_id: int
    status: str
    deadline: datetime | None
    boards: tuple[BoardTally, ...]
    ranking: tuple[PairResult, ...]


@dataclass(frozen=True)
class TallyAnswer:
    """An entry made: what the side is told privately, and the board's tally after it."""

    message: str
    tally: BoardTally
    home_channel_id: int | None


def _status(engine: ScrabbleGame) -> str:
    """playing, racks or finished. A side that went out leaves the others counting their
    tiles (``ENDING``: its play may still be challenged, and a rack entered accepts it)."""
    if engine.status == FINISHED:
        return "finished"
    return "racks" if engine.status in (RACKS, ENDING) else "playing"


def _racks_due(engine: ScrabbleGame) -> set[int]:
    if engine.status != ENDING:
        return set(engine.awaiting_racks)
    last = engine.last_play
    counts = engine.rack_counts
    return {
        s
        for s in range(engine.seats)
        if counts[s] and s not in engine.resigned and (last is None or s != last["seat"])
    }


def _entries(engine: ScrabbleGame) -> list[tuple[int, dict[str, Any]]]:
    """The sides' entries in the log, with their plies."""
    return [
        (ply, move)
        for ply, move in enumerate(engine.moves)
        if move["type"] in ENTRY_KINDS and not move.get("auto")
    ]


def board_tally(loaded: LoadedGame, board: int, session_id: int | None) -> BoardTally:
    """The tally of a board in the room, read off its game."""
    engine = loaded.require_engine()
    result = engine.result()
    totals = [0] * engine.seats
    lines: list[TallyLine] = []
    number = 0
    for ply, move in enumerate(engine.moves):
        kind = move["type"]
        if kind == "challenge":
            seat = int(move["challenged_seat"])
            totals[seat] += int(move.get("score") or 0)
        elif kind in ("play", "pass", "exchange", "rack", "resign"):
            seat = int(move["seat"])
            totals[seat] += int(move.get("score") or 0)
        else:
            continue
        if move.get("auto"):
            continue
        number += 1
        if kind == "challenge":
            # On the line of the side whose play was challenged: its points change.
            text = messages.entry_text(kind, str(move["result"]))
            score = int(move.get("score") or 0)
            total = totals[seat]
        elif kind == "rack":
            text = messages.entry_text(kind, str(move["tiles"]))
            score = 0
            total = totals[seat]
        else:
            text = _line_text(move)
            score = int(move.get("score") or 0)
            total = totals[seat]
        lines.append(TallyLine(number, ply, seat, kind, text, score, total))
    if result is not None:
        # The end-of-game rule's adjustments, each on its side's line.
        for seat in range(engine.seats):
            adjustment = result.adjustments[seat]
            if adjustment:
                number += 1
                text = _("unplayed tiles") if adjustment < 0 else _("the others' unplayed tiles")
                lines.append(
                    TallyLine(
                        number,
                        len(engine.moves),
                        seat,
                        "end",
                        text,
                        adjustment,
                        result.final_scores[seat],
                    )
                )
    scores = list(result.final_scores) if result is not None else engine.scores
    due = _racks_due(engine)
    counts = engine.rack_counts
    seats = tuple(
        TallySeat(
            seat=s,
            user_ids=tuple(loaded.seats.get(s, [])),
            label=loaded.label(s),
            score=scores[s],
            tiles=counts[s],
            rack_due=s in due,
        )
        for s in range(engine.seats)
    )
    playing = engine.status in (ACTIVE, ENDING)
    last = engine.last_play
    return BoardTally(
        game_id=loaded.game_id,
        board=board,
        game_number=loaded.number,
        session_id=session_id,
        status=_status(engine),
        seats=seats,
        # Before the first entry whoever plays first enters it (they drew at the board).
        to_move=engine.current_seat if engine.status == ACTIVE and engine.moves else None,
        turn_due=loaded.turn_due if playing else None,
        lines=tuple(lines),
        bag=engine.bag_count,
        rows=tuple(engine.board_rows()),
        last_squares=tuple(last["squares"]) if last else (),
        can_challenge=any(engine.can_challenge(s) for s in range(engine.seats)),
        deadline=loaded.record.deadline,
        version=loaded.version,
    )


class SessionTallying:
    """Entries, corrections and the tally of a session's boards in the room."""

    def __init__(self, core: SessionCore, reading: SessionReading) -> None:
        self.core = core
        self.reading = reading
        self.games = core.scrabble.core
        self.moves = core.scrabble.moves

    # -- reading --------------------------------------------------------------------------

    async def _room_board(
        self, uow: UnitOfWork, game_id: int, guild_id: int | None
    ) -> tuple[LoadedGame, int, int | None]:
        """The game, its board number in its session and the session's id; a game not
        played over the board is refused."""
        loaded = await self.games.load(uow, game_id, guild_id)
        if not loaded.settings.rules.room:
            raise InvalidInputError(_(messages.NOT_IN_ROOM).format(number=loaded.number))
        session_id = (loaded.record.options or {}).get("session_id")
        number = 1
        if session_id is not None:
            for board in await uow.sessions.boards(int(session_id)):
                if board.game_id == game_id:
                    number = board.number
        return loaded, number, int(session_id) if session_id is not None else None

    async def board(self, game_id: int, *, guild_id: int | None = None) -> BoardTally:
        """A board's tally (any member may read it: a tally is public in the room)."""
        async with self.core.ctx.reader() as uow:
            loaded, number, session_id = await self._room_board(uow, game_id, guild_id)
            return board_tally(loaded, number, session_id)

    async def session(self, *, guild_id: int, session_id: int) -> SessionTally:
        """Every board of a session with its tally, and the ranking across boards: what the
        room's screen shows (nothing private: no rack is known to the bot in the room)."""
        async with self.core.ctx.reader() as uow:
            row = await self.core.current(uow, guild_id, 0, session_id)
            boards: list[BoardTally] = []
            for board in await uow.sessions.boards(row.id):
                loaded = await self.games.load(uow, board.game_id)
                if loaded.engine is not None:
                    boards.append(board_tally(loaded, board.number, row.id))
            ranking: tuple[PairResult, ...] = ()
            if row.status in ("started", "ended"):
                ranking = (await self.reading.ranked(uow, row)).pairs
            return SessionTally(row.id, row.status, row.deadline, tuple(boards), ranking)

    async def check_room(self, game_id: int, *, guild_id: int | None) -> None:
        """Refuse a game that is not played over the board (before an entry is made)."""
        async with self.core.ctx.reader() as uow:
            await self._room_board(uow, game_id, guild_id)

    # -- entries --------------------------------------------------------------------------

    async def _answer(self, outcome: ActionOutcome, guild_id: int | None) -> TallyAnswer:
        tally = await self.board(outcome.game_id, guild_id=guild_id)
        return TallyAnswer(messages.entered(tally, outcome.message), tally, outcome.home_channel_id)

    async def play(
        self,
        game_id: int,
        user_id: int,
        word: str,
        position: str,
        direction: str | None = None,
        *,
        guild_id: int | None = None,
        expected_version: int | None = None,
    ) -> TallyAnswer:
        """A side enters its play: the word and its position (``QUIZ 8H``), as
        ``/scrabble play`` reads them."""
        await self.check_room(game_id, guild_id=guild_id)
        # The version is checked in the move's own transaction: a change made between a
        # separate read and the move would slip through.
        outcome = await self.moves.play(
            game_id,
            user_id,
            word,
            position,
            direction,
            guild_id=guild_id,
            expected_version=expected_version,
        )
        return await self._answer(outcome, guild_id)

    async def pass_turn(
        self,
        game_id: int,
        user_id: int,
        *,
        guild_id: int | None = None,
        expected_version: int | None = None,
    ) -> TallyAnswer:
        """A side enters a pass."""
        await self.check_room(game_id, guild_id=guild_id)
        outcome = await self.moves.pass_turn(
            game_id, user_id, guild_id=guild_id, expected_version=expected_version
        )
        return await self._answer(outcome, guild_id)

    async def exchange(
        self,
        game_id: int,
        user_id: int,
        count: int,
        *,
        guild_id: int | None = None,
        expected_version: int | None = None,
    ) -> TallyAnswer:
        """A side enters an exchange of ``count`` tiles (the bot cannot see which)."""
        await self.check_room(game_id, guild_id=guild_id)
        outcome = await self.moves.exchange(
            game_id, user_id, str(count), guild_id=guild_id, expected_version=expected_version
        )
        return await self._answer(outcome, guild_id)

    async def challenge(
        self,
        game_id: int,
        user_id: int,
        *,
        guild_id: int | None = None,
        expected_version: int | None = None,
    ) -> TallyAnswer:
        """A side challenged the last play at the board: the word list judges it."""
        await self.check_room(game_id, guild_id=guild_id)
        outcome = await self.moves.challenge(
            game_id, user_id, guild_id=guild_id, expected_version=expected_version
        )
        return await self._answer(outcome, guild_id)

    async def resign(
        self,
        game_id: int,
        user_id: int,
        *,
        guild_id: int | None = None,
        expected_version: int | None = None,
    ) -> TallyAnswer:
        """A side resigns, as ``/scrabble resign``: it leaves the game, which ends when
        one side is left (no rack to enter: the end-of-game rule is not applied), and
        otherwise goes on without it."""
        await self.check_room(game_id, guild_id=guild_id)
        outcome = await self.moves.resign(
            game_id, user_id, guild_id=guild_id, expected_version=expected_version
        )
        return await self._answer(outcome, guild_id)

    async def rack(
        self,
        game_id: int,
        user_id: int,
        tiles: str,
        *,
        for_user: int | None = None,
        is_moderator: bool = False,
        guild_id: int | None = None,
        expected_version: int | None = None,
    ) -> TallyAnswer:
        """The tiles left on a side's rack once the board is over (``for_user``: the
        director enters them for that member's side); the last side's ends the game."""
        now = self.core.ctx.clock()

        async def work(uow: UnitOfWork) -> TallyAnswer:
            loaded, number, session_id = await self._room_board(uow, game_id, guild_id)
            self._check_expected(loaded, expected_version)
            seat = self._acting_seat(loaded, user_id, for_user, is_moderator)
            engine = self._open_engine(loaded, number)
            before = len(engine.moves)
            try:
                engine.enter_rack(seat, tiles)
            except ScrabbleError as exc:
                raise InvalidInputError.passing_on(exc, sentence=True) from exc
            await self.games.commit_changes(uow, loaded, before, now, actor=user_id)
            await self._after(uow, loaded, session_id)
            tally = board_tally(loaded, number, session_id)
            told = _("Tiles left on {name}'s rack entered.").format(name=loaded.label(seat))
            return TallyAnswer(messages.entered(tally, told), tally, loaded.home)

        return await transact(self.core.ctx, work)

    # -- corrections ----------------------------------------------------------------------

    async def correct(
        self,
        game_id: int,
        user_id: int,
        *,
        is_moderator: bool,
        entry: int | None = None,
        word: str | None = None,
        position: str | None = None,
        passed: bool = False,
        exchanged: int | None = None,
        tiles: str | None = None,
        guild_id: int | None = None,
        expected_version: int | None = None,
    ) -> TallyAnswer:
        """Replace entry ``entry`` (the last when None) with a play (``word`` and
        ``position``), a pass, an exchange of ``exchanged`` tiles, or the ``tiles`` left
        on a rack. Either side may correct the last entry; the director any entry."""
        now = self.core.ctx.clock()

        async def work(uow: UnitOfWork) -> TallyAnswer:
            loaded, number, session_id = await self._room_board(uow, game_id, guild_id)
            self._check_expected(loaded, expected_version)
            engine = self._open_engine(loaded, number)
            entries = _entries(engine)
            if not entries:
                raise InvalidInputError(messages.NOTHING_ENTERED)
            index = len(entries) if entry is None else entry
            if not 1 <= index <= len(entries):
                raise InvalidInputError(_(messages.NO_SUCH_ENTRY).format(number=index))
            if not is_moderator:
                if loaded.seat_of(user_id) is None:
                    raise PermissionDeniedError(
                        _(
                            "You are not playing in Scrabble #{number}: this game is not yours."
                        ).format(number=loaded.number)
                    )
                if index != len(entries):
                    raise PermissionDeniedError(messages.ONLY_LAST_ENTRY)
            ply, old = entries[index - 1]
            if old["type"] == "challenge":
                raise InvalidInputError(messages.CHALLENGE_STANDS)
            new = _replacement(int(old["seat"]), word, position, passed, exchanged, tiles)
            words = None
            if loaded.settings.rules.challenge == "void":
                words = await self.games.lexicons.get(loaded.settings.lexicon)
            rebuilt = _rebuild(engine, ply, new, entries, words)
            loaded.engine = rebuilt
            await uow.moves.drop_from(loaded.game_id, ply)
            if loaded.home is not None:
                mine = loaded.seat_of(user_id)
                who = _("The director") if mine is None else loaded.label(mine)
                line = messages.corrected_post(
                    who, index, _line_text(old), _line_text(rebuilt.moves[ply])
                )
                uow.outbox.to_channel(loaded.home, Post(content=line))
            await self.games.commit_changes(uow, loaded, ply, now, actor=user_id)
            await self._after(uow, loaded, session_id)
            tally = board_tally(loaded, number, session_id)
            told = _("Entry {number} corrected.").format(number=index)
            return TallyAnswer(messages.entered(tally, told), tally, loaded.home)

        return await transact(self.core.ctx, work)

    # -- shared steps ---------------------------------------------------------------------

    @staticmethod
    def _check_expected(loaded: LoadedGame, expected: int | None) -> None:
        if expected is not None and loaded.version != expected:
            raise StaleBoardError(STALE_BOARD)

    @staticmethod
    def _open_engine(loaded: LoadedGame, number: int) -> ScrabbleGame:
        engine = loaded.require_engine()
        if loaded.record.status != "active" or engine.status == FINISHED:
            raise InvalidInputError(_(messages.TALLY_FINAL).format(number=number))
        return engine

    @staticmethod
    def _acting_seat(
        loaded: LoadedGame, user_id: int, for_user: int | None, is_moderator: bool
    ) -> int:
        """The side an entry is for: the member's own, or (the director) the named one's."""
        if for_user is not None and for_user != user_id:
            seat = loaded.seat_of(for_user)
            if not is_moderator and loaded.seat_of(user_id) != seat:
                raise PermissionDeniedError(messages.RACK_IS_THEIRS)
            if seat is None:
                name = loaded.names.get(for_user, str(for_user))
                raise InvalidInputError(_(messages.NOT_ON_THIS_BOARD).format(name=name))
            return seat
        seat = loaded.seat_of(user_id)
        if seat is None:
            raise PermissionDeniedError(
                _("You are not playing in Scrabble #{number}: this game is not yours.").format(
                    number=loaded.number
                )
            )
        return seat

    async def _after(self, uow: UnitOfWork, loaded: LoadedGame, session_id: int | None) -> None:
        """A board that finished after its session ended (its racks came in last): the
        session's results post once every board is finished."""
        if session_id is None or loaded.require_engine().status != FINISHED:
            return
        row = await uow.sessions.get(session_id)
        if row is None or row.status != "ended":
            return
        await uow.sessions.flush()
        results = await self.reading.ranked(uow, row)
        if results.final:
            for text in session_messages.results_posts(results):
                uow.outbox.to_channel(row.channel_id, Post(content=text))


def _replacement(
    seat: int,
    word: str | None,
    position: str | None,
    passed: bool,
    exchanged: int | None,
    tiles: str | None,
) -> dict[str, Any]:
    """The entry a correction puts in, as the engine's log writes one."""
    given = sum((bool(word or position), passed, exchanged is not None, tiles is not None))
    if given != 1 or (bool(word) != bool(position)):
        raise InvalidInputError(messages.CORRECT_WHAT)
    if word and position:
        return {
            "type": "play",
            "seat": seat,
            "word": read_typed_word(word.strip()),
            "position": position.strip(),
        }
    if passed:
        return {"type": "pass", "seat": seat}
    if exchanged is not None:
        return {"type": "exchange", "seat": seat, "count": exchanged}
    return {"type": "rack", "seat": seat, "tiles": tiles or ""}


def _rebuild(
    engine: ScrabbleGame,
    ply: int,
    new: dict[str, Any],
    entries: Sequence[tuple[int, dict[str, Any]]],
    words: Lexicon | None = None,
) -> ScrabbleGame:
    """The game again from its first entry, with the entry at ``ply`` replaced; a later
    entry the correction breaks refuses it, saying which."""
    rebuilt = ScrabbleGame.new(engine.options, engine.seed)
    numbers = {p: n for n, (p, _) in enumerate(entries, start=1)}
    log = [m for m in engine.moves[:ply] if not m.get("auto")]
    later = [(p, m) for p, m in enumerate(engine.moves) if p > ply and not m.get("auto")]
    apply: Callable[[dict[str, Any]], None] = rebuilt.apply_entry
    for move in log:
        apply(move)
    try:
        if new["type"] == "play":
            rebuilt.play(new["seat"], new["word"], new["position"], lexicon=words)
        else:
            apply(new)
    except ScrabbleError as exc:
        raise InvalidInputError.passing_on(exc, sentence=True) from exc
    for p, move in later:
        try:
            apply(move)
        except ScrabbleError as exc:
            raise InvalidInputError.passing_on(
                exc, frame=messages.CORRECTION_BREAKS, number=numbers.get(p, p + 1)
            ) from exc
    return rebuilt


def _line_text(move: dict[str, Any]) -> str:
    """An entry as the tally says it: a play as its position and whole main word (the
    log writes the letters played through as dots)."""
    kind = str(move["type"])
    if kind == "rack":
        return messages.entry_text(kind, str(move.get("tiles") or ""))
    if kind == "play" and move.get("words"):
        return messages.entry_text(kind, f"{move['position']} {move['words'][0]}")
    return messages.entry_text(kind, notation(move), int(move.get("count") or 0))
