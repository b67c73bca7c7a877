"""A Scrabble game as loaded from its rows (seats, names, settings, the engine,
the turn's timers in ``games.state``), and the snapshots and pictures built from it.

Seat *names* are the members' display names as they are (for the thread's
name, the GCG record, the board image and its alt text); seat *labels* are
the same made safe for a message (``bot.messages.scrabble.seat_label``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, TypedDict

from bot.db.models import GameRecord
from bot.db.uow import UnitOfWork
from bot.errors import InvalidInputError, PermissionDeniedError
from bot.messages import scrabble as msg
from bot.messages.i18n import N_, _
from bot.services.games import GameAsked, WhichGame
from bot.services.scrabble.options import GameSettings
from bot.services.scrabble.snapshots import BoardPicture, GameSnapshot, InviteOutcome, SeatInfo
from engines.scrabble import ScrabbleGame
from engines.scrabble.game import ACTIVE, FINISHED

KIND = "scrabble"


class TurnMeta(TypedDict, total=False):
    """What ``games.state`` keeps beside the engine: the turn its timers were set for."""

    status: str
    seat: int
    moves: int
    turn_due: str  # ISO time the turn clock runs out
    ending_due: str  # ISO time the challenge window of a finishing play closes


def read_meta(state: Mapping[str, Any]) -> TurnMeta:
    """What ``games.state`` keeps of the turn's timers, from the stored JSON (keys it
    lacks left out)."""
    meta = TurnMeta()
    if "status" in state:
        meta["status"] = str(state["status"])
    if "seat" in state:
        meta["seat"] = int(state["seat"])
    if "moves" in state:
        meta["moves"] = int(state["moves"])
    if state.get("turn_due"):
        meta["turn_due"] = str(state["turn_due"])
    if state.get("ending_due"):
        meta["ending_due"] = str(state["ending_due"])
    return meta


def when(text: str | None) -> datetime | None:
    """A time stored in ISO form, read back; None for none."""
    return datetime.fromisoformat(text) if text else None


@dataclass
class LoadedGame:
    """A game as loaded in a unit of work: its row, settings, seats and names, the
    engine, and the version it was read at."""

    record: GameRecord
    settings: GameSettings
    seats: dict[int, list[int]]
    names: dict[int, str]  # display names; the computer's is its label
    engine: ScrabbleGame | None
    version: int
    meta: TurnMeta = field(default_factory=TurnMeta)

    @property
    def game_id(self) -> int:
        """The game's internal id (members see and type ``number``)."""
        return self.record.id

    @property
    def number(self) -> int:
        """What members see and type: Scrabble #3 (the id stays internal)."""
        return self.record.number

    def seat_of(self, user_id: int) -> int | None:
        """The seat ``user_id`` plays in; None if they are not seated (the computer's seat
        is nobody's)."""
        for seat, users in self.seats.items():
            if user_id in users and seat != self.settings.computer_seat:
                return seat
        return None

    def is_computer(self, seat: int | None) -> bool:
        """Whether ``seat`` is the computer's."""
        return seat is not None and seat == self.settings.computer_seat

    @property
    def computer_user(self) -> int | None:
        """The user id the computer's seat is played under (this bot's); None without one."""
        seat = self.settings.computer_seat
        users = self.seats.get(seat, []) if seat is not None else []
        return users[0] if users else None

    def seat_info(self, seat: int) -> SeatInfo:
        """The seat's members, with their display names."""
        users = self.seats.get(seat, [])
        return SeatInfo(seat, tuple(users), tuple(self.names.get(u, str(u)) for u in users))

    def name(self, seat: int) -> str:
        """The seat's names as they are: for images, alt text, the GCG record."""
        return self.seat_info(seat).label

    def label(self, seat: int) -> str:
        """The seat as a message shows it (names escaped; the computer by its level)."""
        if self.is_computer(seat):
            return msg.computer_label(self.settings.computer_level)
        return msg.seat_label(self.seat_info(seat).names)

    def mentions(self, seat: int) -> str | None:
        """The seat's members as mentions, partners joined by "&"; None for the computer."""
        if self.is_computer(seat):
            return None
        return " & ".join(f"<@{u}>" for u in self.seats.get(seat, []))

    def labels(self) -> list[str]:
        """Every seat's label, in seat order."""
        return [self.label(seat) for seat in sorted(self.seats)]

    @property
    def home(self) -> int | None:
        """Where the game is played: its thread, else the channel it was made in."""
        return self.record.thread_id or self.record.channel_id

    @property
    def turn_due(self) -> datetime | None:
        """When the turn clock of the seat to move runs out; None when no clock runs."""
        return when(self.meta.get("turn_due"))

    def require_engine(self) -> ScrabbleGame:
        """The dealt game; one not dealt (not started yet, or ended before its deal) is
        refused, saying why."""
        if self.engine is None:
            status = self.record.status
            if status == "invited":
                raise InvalidInputError(
                    _(
                        "Scrabble #{number} hasn't started yet: everyone invited must accept first."
                    ).format(number=self.record.number)
                )
            raise InvalidInputError(
                _("Scrabble #{number} was {status}.").format(
                    number=self.record.number, status=_(_STATUSES.get(status, status))
                )
            )
        return self.engine


_STATUSES = {"abandoned": N_("abandoned"), "finished": N_("finished")}


async def load_game(uow: UnitOfWork, game_id: WhichGame, guild_id: int | None = None) -> LoadedGame:
    """The game with this id (or as a command asked for it: found in ``uow``, see
    ``GameAsked``), loaded; with ``guild_id``, another server's is "not found"."""
    if isinstance(game_id, GameAsked):
        record = await game_id.load(uow)
    else:
        record = await uow.games.get(game_id, guild_id=guild_id, kind=KIND)
    return await loaded_game(uow, record)


async def loaded_game(uow: UnitOfWork, record: GameRecord) -> LoadedGame:
    """The game of this row, loaded: seats, names (the computer's is its label),
    settings, engine and timers."""
    seats: dict[int, list[int]] = {}
    for row in record.seats:
        seats.setdefault(row.seat, []).append(row.user_id)
    names = await uow.players.of_seats(record.seats)
    settings = GameSettings.from_json(record.options)
    if settings.computer_seat is not None:
        for user_id in seats.get(settings.computer_seat, []):
            names[user_id] = msg.computer_label(settings.computer_level)
    state = record.state or {}
    engine = ScrabbleGame.from_json(state["engine"]) if state.get("engine") else None
    return LoadedGame(record, settings, seats, names, engine, record.version, read_meta(state))


async def member_game(
    uow: UnitOfWork, game_id: WhichGame, guild_id: int | None, user_id: int
) -> tuple[LoadedGame, int]:
    """The game and the member's seat in it; a member not seated is refused."""
    loaded = await load_game(uow, game_id, guild_id)
    seat = loaded.seat_of(user_id)
    if seat is None:
        raise PermissionDeniedError(
            _("You are not playing in Scrabble #{number}: this game is not yours.").format(
                number=loaded.number
            )
        )
    return loaded, seat


# -- what a member sees -----------------------------------------------------------------------


_TURNS = ("play", "exchange", "pass", "challenge", "resign")


def latest_turn(engine: ScrabbleGame, who: Callable[[int], str]) -> msg.LastTurn | None:
    """The latest turn taken, unless it is the last play still on the board (which
    the board's ``last`` says): a pass, an exchange, a play challenged off…"""
    entry = next((e for e in reversed(engine.moves) if e["type"] in _TURNS), None)
    if entry is None:
        return None
    kind = entry["type"]
    if kind == "play" or (kind == "challenge" and entry["result"] != "withdrawn"):
        return None
    if kind == "challenge":
        return msg.LastTurn("withdrawn", who(entry["challenged_seat"]))
    if kind == "exchange":
        return msg.LastTurn("exchange", who(entry["seat"]), tiles=len(entry["tiles"]))
    if kind == "pass" and entry.get("timed_out"):
        kind = "timeout"
    elif kind == "pass" and entry.get("lost_turn"):
        kind = "lost_turn"
    return msg.LastTurn(kind, who(entry["seat"]))


def _last(
    engine: ScrabbleGame, who: Callable[[int], str]
) -> tuple[str, str, int, list[str]] | None:
    """The last play still on the board: not the one challenged off (the log keeps
    it), whether or not it can still be challenged."""
    withdrawn = 0
    for entry in reversed(engine.moves):
        if entry["type"] == "challenge" and entry["result"] == "withdrawn":
            withdrawn += 1
        elif entry["type"] == "play" and withdrawn:
            withdrawn -= 1
        elif entry["type"] == "play":
            return (who(entry["seat"]), entry["position"], entry["score"], list(entry["words"]))
    return None


def board_facts(loaded: LoadedGame) -> msg.BoardFacts:
    """What the board image and its alt text say: the scores, the bag, who is to play,
    the last play standing and the latest turn."""
    engine = loaded.require_engine()
    return msg.BoardFacts(
        number=loaded.number,
        moves=len(engine.moves),
        names=[loaded.name(s) for s in range(engine.seats)],
        scores=engine.scores,
        bag=engine.bag_count,
        status=engine.status,
        to_play=loaded.name(engine.current_seat),
        last=_last(engine, loaded.name),
        latest=latest_turn(engine, loaded.name),
    )


def picture(loaded: LoadedGame) -> BoardPicture:
    """What the board image shows, with its alt text."""
    engine = loaded.require_engine()
    facts = board_facts(loaded)
    last = engine.last_play
    return BoardPicture(
        tuple(engine.board_rows()),
        tuple(last["squares"]) if last else (),
        tuple(msg.picture_header(facts)),
        description=msg.board_alt_text(facts),
    )


def status_lines(loaded: LoadedGame) -> list[str]:
    """The lines under a board: the scores, the bag, who is up and until when, the
    game's deadline."""
    engine = loaded.require_engine()
    seat = engine.current_seat
    next_up = None
    if engine.status == ACTIVE:
        next_up = msg.next_up(loaded.label(seat), loaded.mentions(seat))
    return msg.status_lines(
        [loaded.label(s) for s in range(engine.seats)],
        engine.scores,
        engine.bag_count,
        next_up=next_up,
        turn_due=loaded.turn_due if next_up is not None else None,
        deadline=loaded.record.deadline if engine.status != FINISHED else None,
    )


def last_play_lines(loaded: LoadedGame) -> list[str]:
    """The lines on the latest turn and the last play standing (or that no tile is
    down yet)."""
    engine = loaded.require_engine()
    lines = []
    latest = latest_turn(engine, loaded.label)
    if latest is not None:
        lines.append(msg.last_turn_line(latest))
    last = _last(engine, loaded.label)
    if last is not None:
        lines.append(msg.last_play_line(*last))
    elif not any(r.strip(".") for r in engine.board_rows()):
        lines.append(_(msg.NO_TILES_YET))
    return lines or [""]


def invite_outcome(loaded: LoadedGame) -> InviteOutcome:
    """The invitation as it stands: who has yet to accept, its text, the game's thread."""
    record = loaded.record
    waiting = tuple(
        loaded.names.get(s.user_id, str(s.user_id)) for s in record.seats if not s.accepted
    )
    text = msg.invite_text(
        record.number,
        loaded.labels(),
        loaded.settings.describe(),
        loaded.settings.lexicon,
        status=record.status,
        waiting=waiting,
        thread_id=record.thread_id,
    )
    return InviteOutcome(
        game_id=record.id,
        all_accepted=not waiting,
        waiting_for=waiting,
        text=text,
        channel_id=record.channel_id,
        thread_id=record.thread_id,
        thread_name=msg.thread_name(record.number, [loaded.name(s) for s in sorted(loaded.seats)]),
    )


def game_view(loaded: LoadedGame, viewer: int | None) -> GameSnapshot:
    """The game as ``viewer`` (their seat; None for an onlooker) sees it: the board, or
    the invitation before the deal."""
    record = loaded.record
    engine = loaded.engine
    if engine is None:
        summary, shown, current = invite_outcome(loaded).text, None, None
    else:
        lines = [*last_play_lines(loaded), *status_lines(loaded)]
        summary = msg.board_post(record.number, len(engine.moves), lines)
        shown = picture(loaded)
        current = engine.current_seat if engine.status == ACTIVE else None
    return GameSnapshot(
        game_id=record.id,
        status=record.status,
        seats=tuple(loaded.seat_info(s) for s in sorted(loaded.seats)),
        home_channel_id=loaded.home,
        summary=summary,
        picture=shown,
        current_seat=current,
        turn_due=loaded.turn_due if current is not None else None,
        deadline=record.deadline,
        settings=loaded.settings,
        viewer_seat=viewer,
    )
