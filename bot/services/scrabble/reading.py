"""Reading a Scrabble game without changing it: the board, a member's rack (to
them only), their games, the GCG record, suggestions as a member types, and
which game a command means (``bot.services.games.GameFinder``)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from bot.caches import SUGGESTIONS
from bot.compute.scrabble import places_for
from bot.db.models import GameRecord
from bot.db.uow import UnitOfWork
from bot.errors import InvalidInputError, NotFoundError, PermissionDeniedError
from bot.messages import scrabble as msg
from bot.messages import tally as tally_messages
from bot.messages.i18n import _
from bot.messages.limits import CHOICES
from bot.offload import offload
from bot.services.games import GameFinder, GameKind, WhichGame
from bot.services.scrabble.core import ScrabbleCore
from bot.services.scrabble.loaded import (
    KIND,
    LoadedGame,
    board_facts,
    game_view,
    loaded_game,
    picture,
)
from bot.services.scrabble.snapshots import (
    BoardView,
    GameSnapshot,
    GameSummary,
    PlayPreview,
    PositionChoice,
    RackSnapshot,
)
from engines.scrabble import ScrabbleError, ScrabbleGame, read_typed_word
from engines.scrabble.game import ACTIVE, ENDING

SCRABBLE = GameKind(KIND, "Scrabble", "`/scrabble new opponent:@member`")
MAX_LISTED = 50


def summary(loaded: LoadedGame, user_id: int) -> GameSummary:
    """One of a member's games as their list shows it: whose turn, until when."""
    seat = loaded.seat_of(user_id)
    seats = [s for s in sorted(loaded.seats) if s != seat]
    # Seats apart by commas: "&" joins the partners of one seat ("#3 vs Bob & Erin, Carol").
    others = ", ".join(loaded.name(s) for s in seats) or "?"
    labels = ", ".join(loaded.label(s) for s in seats) or "?"
    engine = loaded.engine
    your_turn = engine is not None and (
        (engine.status == ACTIVE and engine.current_seat == seat)
        or (engine.status == ENDING and seat is not None and engine.can_challenge(seat))
    )
    due = loaded.turn_due if engine is not None and engine.status == ACTIVE else None
    record = loaded.record
    return GameSummary(
        record.id, record.number, record.status, others, your_turn, due, loaded.home, labels
    )


async def _labels(uow: UnitOfWork, records: Sequence[GameRecord], user_id: int) -> list[str]:
    return [summary(await loaded_game(uow, record), user_id).label() for record in records]


def _board_view(loaded: LoadedGame, engine: ScrabbleGame, seat: int, now: datetime) -> BoardView:
    record = loaded.record
    waiting = engine.status == ACTIVE and record.status == "active"
    current = engine.current_seat if waiting else None
    shown = picture(loaded)
    challenge = engine.can_challenge(seat)
    result = engine.result()
    return BoardView(
        game_id=record.id,
        number=record.number,
        version=loaded.version,
        status=record.status,
        phase=engine.status,
        rows=tuple(engine.board_rows()),
        last=shown.last,
        seats=tuple(loaded.seat_info(s) for s in range(engine.seats)),
        scores=tuple(engine.scores),
        resigned=tuple(engine.resigned),
        seat=seat,
        rack=engine.racks[seat],
        current_seat=current,
        turn_due=loaded.turn_due if current is not None else None,
        deadline=record.deadline if record.status == "active" else None,
        as_of=now,
        bag=engine.bag_count,
        unseen=engine.unseen_tiles(seat),
        rack_size=engine.options.rack_size,
        challenge_rule=engine.options.challenge,
        can_exchange=engine.bag_count >= engine.exchange_minimum,
        can_challenge=challenge,
        can_accept=challenge and engine.status == ENDING,
        facts=board_facts(loaded),
        description=shown.description,
        end_reason=result.reason if result is not None else None,
        winners=result.winners if result is not None else (),
        no_contest=result.no_contest if result is not None else False,
    )


class Reading:
    """Reading a game without changing it: board, racks, lists, GCG record, suggestions."""

    def __init__(self, core: ScrabbleCore) -> None:
        self.core = core
        self.ctx = core.ctx
        self.finder = GameFinder(core.ctx, SCRABBLE, _labels)

    async def board(
        self, game_id: WhichGame, user_id: int, *, guild_id: int | None = None
    ) -> GameSnapshot:
        """The game as ``user_id`` sees it (their seat, if they play); refused before the deal."""
        async with self.ctx.reader() as uow:
            loaded = await self.core.load(uow, game_id, guild_id)
            loaded.require_engine()
            return game_view(loaded, loaded.seat_of(user_id))

    async def rack(
        self, game_id: WhichGame, user_id: int, *, guild_id: int | None = None
    ) -> RackSnapshot:
        """The member's rack, for them only; refused if they don't play in the game, or if
        the game is played over the board (the bot keeps the tally, not the racks)."""
        async with self.ctx.reader() as uow:
            loaded, seat = await self.core.member_game(uow, game_id, guild_id, user_id)
            engine = loaded.require_engine()
            if engine.options.room:
                raise InvalidInputError(tally_messages.NO_RACK_IN_ROOM)
            return RackSnapshot(game_view(loaded, seat), seat, engine.racks[seat])

    async def board_view(
        self, game_id: int, user_id: int, *, guild_id: int | None = None
    ) -> BoardView:
        """The game as the member's own board page shows it (``BoardView``): their seat's
        rack and nobody else's; refused if they don't play in it or before the deal."""
        async with self.ctx.reader() as uow:
            loaded, seat = await self.core.member_game(uow, game_id, guild_id, user_id)
            engine = loaded.require_engine()
            return _board_view(loaded, engine, seat, self.ctx.clock())

    async def preview_tiles(
        self,
        game_id: int,
        user_id: int,
        placements: Sequence[tuple[str, str]],
        *,
        guild_id: int | None = None,
    ) -> PlayPreview:
        """What tiles put down on the member's board would make (``Moves.play_tiles``'s
        placements), scored by the engine against their rack; nothing is played. A
        placement the play would be refused for raises that refusal."""
        async with self.ctx.reader() as uow:
            loaded, seat = await self.core.member_game(uow, game_id, guild_id, user_id)
            engine = loaded.require_engine()
        try:
            found = engine.preview_tiles(seat, placements)
        except ScrabbleError as exc:
            raise InvalidInputError.passing_on(exc, sentence=True) from exc
        return PlayPreview(
            loaded.version,
            found.position,
            tuple((w.word, w.score) for w in found.words),
            found.score,
            found.bingo,
        )

    async def rack_text(self, game_id: WhichGame, user_id: int) -> str | None:
        """The member's tiles, or None where they have no rack to show."""
        try:
            view = await self.rack(game_id, user_id)
        except (NotFoundError, PermissionDeniedError, InvalidInputError):
            return None
        return view.tiles

    async def games_for(
        self, guild_id: int, user_id: int, *, finished: bool = False
    ) -> list[GameSummary]:
        """The member's games here: theirs to move first, then by the turn clock."""
        statuses = ("finished",) if finished else ("invited", "active")
        async with self.ctx.reader() as uow:
            records = await uow.games.for_player(
                user_id, guild_id=guild_id, kind=KIND, statuses=statuses
            )
            summaries = [
                summary(await loaded_game(uow, record), user_id) for record in records[:MAX_LISTED]
            ]
        latest = datetime.max.replace(tzinfo=self.ctx.clock().tzinfo)
        summaries.sort(key=lambda s: (not s.your_turn, s.turn_due or latest))
        return summaries

    async def export(self, game_id: int, *, guild_id: int) -> tuple[str, str]:
        """``(filename, GCG text)`` of a finished game of this guild."""
        async with self.ctx.reader() as uow:
            loaded = await self.core.load(uow, game_id, guild_id)
            if loaded.record.status != "finished" or loaded.engine is None:
                raise InvalidInputError(
                    _(
                        "Scrabble #{number} isn't finished yet: its record is exported when it ends."
                    ).format(number=loaded.number)
                )
            return f"scrabble-{loaded.number}.gcg", self.core.gcg_text(loaded)

    async def replay_from_log(self, game_id: int) -> ScrabbleGame:
        """The game rebuilt from its move log alone (the state row is a cache of this)."""
        async with self.ctx.reader() as uow:
            loaded = await self.core.load(uow, game_id)
            moves = await uow.moves.for_game(game_id)
            engine = loaded.require_engine()
            return ScrabbleGame.replay(loaded.settings.rules, engine.seed, [m.data for m in moves])

    async def position_choices(
        self, game_id: WhichGame, user_id: int, word: str, typed: str
    ) -> list[PositionChoice]:
        """Where ``word`` fits with the member's rack, best score first (private to them);
        the game by its id or as the command asked for it."""
        word = read_typed_word((word or "").strip())
        if not word:
            return []
        async with self.ctx.reader() as uow:
            loaded, seat = await self.core.member_game(uow, game_id, None, user_id)
            engine = loaded.require_engine()
            game_id, version = loaded.game_id, loaded.version  # read while the row is loaded
        # The same position, seat and word as a keystroke ago: the same places. The key
        # holds the seat and its rack, so one member's rack never answers another's typing.
        rack = engine.racks[seat]
        key = ("positions", game_id, version, seat, rack, word)
        fits = await SUGGESTIONS.get_or_make(
            key, lambda: offload(places_for, engine.board_copy(), rack, word)
        )
        found = [
            PositionChoice(position, msg.position_choice(position, across, main, score), score)
            for position, across, main, score in fits
        ]
        needle = typed.strip().upper()
        found = [c for c in found if not needle or c.position.startswith(needle)]
        found.sort(key=lambda c: (-c.score, c.position))
        return found[:CHOICES]
