"""Scrabble in the club: invitations, moves, turn clocks, challenges, the end.

One unit of work per command or timer. The game row holds the engine's JSON
state (``state["engine"]``) and a version: every change is a compare-and-set on
that version, so two plays sent at once apply once. Every engine log entry is
also appended to ``moves`` (ply = its index in the engine log), from which the
game can be rebuilt with ``ScrabbleGame.replay``.

Nothing reaches Discord from here: what the thread must see (the board after
each move, results, reminders) is written to the outbox in the same
transaction, so a committed move is always announced, even across a restart.
Racks only ever leave through the values returned to the member who asked
(the cog answers ephemerally); they are never written to a channel payload or
a log line.

Timers (durable jobs, one key per game and purpose, so rescheduling moves them):

* turn clock: a turn that runs out is a pass (``timed_out``);
* reminder: a DM (thread mention if DMs are closed) before the clock runs out;
* ending window: a play that would end the game stays challengeable until the
  other seats accept or challenge, or this window closes (10 minutes in live
  play, 24 hours otherwise);
* deadline: the game ends with unplayed tiles deducted;
* invitation expiry: an invitation nobody answered is dropped after 3 days.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import random
import re
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any, Literal

from bot.db.models import GameRecord, JobRecord
from bot.db.uow import UnitOfWork
from bot.errors import InvalidInputError, NotFoundError, PermissionDeniedError
from bot.services import ServiceContext, scrabble_ai
from bot.services.definitions import Definitions, open_definitions
from bot.services.results import SeatOutcome, record_game_result
from bot.services.words import get_lexicon
from engines.durations import Duration, DurationError, format_duration
from engines.lexicon import LexiconError, available_lexicons, load_lexicon
from engines.scrabble import (
    FINISH_LINE_TARGETS,
    NotYourTurnError,
    ScrabbleError,
    ScrabbleGame,
    ScrabbleOptions,
)
from engines.scrabble.game import ACTIVE, ENDING, FINISHED, MIN_BAG_TO_EXCHANGE, square_index
from engines.scrabble.gcg import export_gcg
from engines.scrabble.layout import SIZE
from engines.scrabble.movegen import LEVELS, MoveGenerator

log = logging.getLogger(__name__)

KIND = "scrabble"
JOB_TURN = "scrabble.turn_timeout"
JOB_REMINDER = "scrabble.reminder"
JOB_ENDING = "scrabble.ending_window"
JOB_DEADLINE = "scrabble.deadline"
JOB_INVITE = "scrabble.invite_expiry"
JOB_COMPUTER = "scrabble.computer_move"
JOB_KINDS = (JOB_TURN, JOB_REMINDER, JOB_ENDING, JOB_DEADLINE, JOB_INVITE, JOB_COMPUTER)

LIVE_CLOCK_LIMIT = timedelta(hours=1)  # a shorter turn clock means live play
ENDING_WINDOW_LIVE = timedelta(minutes=10)
ENDING_WINDOW_ASYNC = timedelta(hours=24)
INVITE_TTL = timedelta(days=3)
COMPUTER_DELAY = timedelta(
    seconds=1
)  # the computer answers after the board of the move before it is out
MIN_CLOCK = timedelta(seconds=10)
MAX_CLOCK = timedelta(days=14)
MIN_DEADLINE = timedelta(minutes=1)
MAX_DEADLINE = timedelta(days=90)
DEFAULT_CLOCK = "1d"
DEFAULT_DEADLINE = "7d"
MAX_REMINDER_LEAD = timedelta(hours=12)

VARIANTS = ("standard", "finish_line", "nine_tiles")
RENDER_BOARD = "scrabble_board"
RENDER_TEXT_FILE = "scrabble_text_file"
VIEW_BOARD = "scrabble_board"
VIEW_INVITE = "scrabble_invite"

REASONS = {
    "out": "a player went out",
    "six_zeros": "six scoreless turns in a row",
    "two_passes": "two passes in a row",
    "deadline": "the game's deadline passed",
    "target": "the finish line was reached",
    "resign": "resignation",
    "blocked": "no seat could make a play",
}

# The computer's levels, as members see them (the values are ``movegen.LEVELS``).
COMPUTER_LEVELS = {
    "casual": "casual (one of its ten best-scoring plays)",
    "equity": "expert (score plus the value of the tiles it keeps)",
    "strong": "greedy (the highest score every turn)",
}
DEFAULT_COMPUTER_LEVEL = "casual"
assert set(COMPUTER_LEVELS) == set(LEVELS)


# -- inputs -----------------------------------------------------------------------


@dataclass(frozen=True)
class Member:
    user_id: int
    name: str
    is_bot: bool = False
    computer: bool = False  # this bot itself: the seat is played by the move generator


@dataclass(frozen=True)
class NewGameRequest:
    guild_id: int
    guild_name: str
    channel_id: int
    creator: Member
    opponents: Sequence[Member]
    partner: Member | None = None
    opponent_partner: Member | None = None
    clock: str | None = None
    deadline: str | None = None
    challenge: str | None = None
    variant: str | None = None
    target: str | None = None
    word_list: str | None = None
    explain: bool = False
    ending: str | None = None
    # Set when the command runs inside a thread: the game plays there (threads can't nest).
    in_thread: bool = False
    computer_level: str | None = None  # only with the computer seated
    hints: bool = False  # /scrabble hint allowed; the game is then not rated


# A bare number is hours for the turn clock and days for the deadline: the units
# a member thinks in for a game that may last a week (the cog's option says so).
CLOCK = Duration("the turn clock", "h", MIN_CLOCK, MAX_CLOCK, allow_off=True)
DEADLINE = Duration("the game deadline", "d", MIN_DEADLINE, MAX_DEADLINE, allow_off=True)
LIVE_CLOCK = "3m"  # `live` as a turn clock: as the society plays


def parse_duration(text: str | None, spec: Duration) -> timedelta | None:
    """``text`` read by the one duration grammar (``engines.durations``); ``None``
    for no limit (``off``)."""
    if text is None:
        return None
    if spec is CLOCK and text.strip().lower().startswith("live"):
        text = text.strip()[4:].strip() or LIVE_CLOCK
    try:
        return spec.parse(text)
    except DurationError as exc:
        raise InvalidInputError(str(exc)) from None


def parse_game_ref(text: str | None) -> int | None:
    if text is None or not text.strip():
        return None
    match = re.fullmatch(r"\s*#?\s*(\d{1,12})\b.*", text)
    if match is None:
        raise InvalidInputError("Pick a game from the list, or give its number like `#12`.")
    return int(match.group(1))


def _sentence(error: Exception) -> str:
    text = str(error).strip() or "That move is not allowed."
    text = text[0].upper() + text[1:]
    return text if text.endswith((".", "!", "?", ")")) else text + "."


def unix(moment: datetime) -> int:
    return int(moment.timestamp())


def relative_time(moment: datetime) -> str:
    return f"<t:{unix(moment)}:R>"


# -- stored settings ----------------------------------------------------------------


@dataclass(frozen=True)
class GameSettings:
    """Everything chosen when the game was created (stored in ``games.options``)."""

    rules: ScrabbleOptions
    clock_seconds: int | None
    deadline_seconds: int | None
    lexicon: str
    explain: bool
    variant: str
    hints: bool = False
    computer_seat: int | None = None
    computer_level: str | None = None

    @property
    def rated(self) -> bool:
        """Rated games are between members, without help: no computer seat, no hints."""
        return self.computer_seat is None and not self.hints

    @property
    def clock(self) -> timedelta | None:
        return None if self.clock_seconds is None else timedelta(seconds=self.clock_seconds)

    @property
    def live(self) -> bool:
        return self.clock is not None and self.clock < LIVE_CLOCK_LIMIT

    @property
    def ending_window(self) -> timedelta:
        return ENDING_WINDOW_LIVE if self.live else ENDING_WINDOW_ASYNC

    @property
    def reminder_lead(self) -> timedelta | None:
        if self.clock is None or self.clock < timedelta(seconds=30):
            return None
        return min(self.clock / 3, MAX_REMINDER_LEAD)

    def to_json(self) -> dict[str, Any]:
        return {
            "rules": self.rules.to_json(),
            "clock_seconds": self.clock_seconds,
            "deadline_seconds": self.deadline_seconds,
            "lexicon": self.lexicon,
            "explain": self.explain,
            "variant": self.variant,
            "hints": self.hints,
            "computer_seat": self.computer_seat,
            "computer_level": self.computer_level,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> GameSettings:
        return cls(
            rules=ScrabbleOptions.from_json(data["rules"]),
            clock_seconds=data.get("clock_seconds"),
            deadline_seconds=data.get("deadline_seconds"),
            lexicon=data["lexicon"],
            explain=bool(data.get("explain")),
            variant=data.get("variant", "standard"),
            hints=bool(data.get("hints")),
            computer_seat=data.get("computer_seat"),
            computer_level=data.get("computer_level"),
        )

    def describe(self) -> str:
        parts = [f"challenge: {self.rules.challenge}"]
        if self.rules.target_score:
            parts.append(f"finish line at {self.rules.target_score}")
        if self.rules.rack_size != 7:
            parts.append(f"{self.rules.rack_size}-tile racks")
        parts.append(
            f"turn clock: {format_duration(self.clock_seconds) if self.clock_seconds else 'none'}"
        )
        parts.append(
            f"game deadline: {format_duration(self.deadline_seconds) if self.deadline_seconds else 'none'}"
        )
        if self.rules.end_rule == "two_passes":
            parts.append("ends after two passes in a row by one player")
        if self.explain:
            parts.append("explain the word")
        if self.computer_level:
            parts.append(
                f"computer: {COMPUTER_LEVELS.get(self.computer_level, self.computer_level).split(' (')[0]}"
            )
        if self.hints:
            parts.append("hints on (not rated)")
        elif self.computer_seat is not None:
            parts.append("not rated")
        return " · ".join(parts)


# -- what the service returns ---------------------------------------------------------


@dataclass(frozen=True)
class SeatInfo:
    seat: int
    user_ids: tuple[int, ...]
    names: tuple[str, ...]

    @property
    def label(self) -> str:
        return " & ".join(self.names)


@dataclass(frozen=True)
class BoardPicture:
    """What the board image shows, as JSON-ready data (also the renderer's args)."""

    rows: tuple[str, ...]
    last: tuple[str, ...]
    header: tuple[str, ...]

    def to_args(self) -> dict[str, Any]:
        return {"rows": list(self.rows), "last": list(self.last), "header": list(self.header)}

    @classmethod
    def from_args(cls, args: dict[str, Any]) -> BoardPicture:
        return cls(
            tuple(args["rows"]), tuple(args.get("last") or ()), tuple(args.get("header") or ())
        )

    def tiles(self) -> list[list[str | None]]:
        return [[None if ch == "." else ch for ch in row] for row in self.rows]

    def last_cells(self) -> frozenset[tuple[int, int]]:
        return frozenset(divmod(square_index(square), SIZE) for square in self.last)


@dataclass(frozen=True)
class GameView:
    game_id: int
    status: str  # invited | active | finished | abandoned
    seats: tuple[SeatInfo, ...]
    home_channel_id: int | None
    summary: str  # text equivalent of the board image
    picture: BoardPicture | None
    current_seat: int | None
    turn_due: datetime | None
    deadline: datetime | None
    settings: GameSettings
    viewer_seat: int | None = None


@dataclass(frozen=True)
class RackView:
    game: GameView
    seat: int
    tiles: str

    @property
    def text(self) -> str:
        shown = " ".join("blank" if t == "?" else t for t in self.tiles) or "(empty)"
        return f"Your rack: {shown}"


@dataclass(frozen=True)
class ActionOutcome:
    """What the member who acted is told privately (the thread gets the board)."""

    game_id: int
    message: str
    home_channel_id: int | None
    finished: bool = False


@dataclass(frozen=True)
class InviteOutcome:
    game_id: int
    all_accepted: bool
    waiting_for: tuple[str, ...]
    text: str
    channel_id: int | None
    thread_id: int | None
    thread_name: str


@dataclass(frozen=True)
class GameSummary:
    game_id: int
    status: str
    opponents: str
    your_turn: bool
    turn_due: datetime | None
    home_channel_id: int | None

    def label(self) -> str:
        state = {
            "invited": "invitation open",
            "finished": "finished",
            "abandoned": "abandoned",
        }.get(self.status)
        if state is None:
            state = "your turn" if self.your_turn else "their turn"
        return f"#{self.game_id} vs {self.opponents} · {state}"


@dataclass(frozen=True)
class PositionChoice:
    position: str
    label: str
    score: int


# -- loaded game ------------------------------------------------------------------------


@dataclass
class _Loaded:
    record: GameRecord
    settings: GameSettings
    seats: dict[int, list[int]]
    names: dict[int, str]
    engine: ScrabbleGame | None
    version: int
    meta: dict[str, Any] = field(default_factory=dict)

    def seat_of(self, user_id: int) -> int | None:
        for seat, users in self.seats.items():
            if user_id in users and seat != self.settings.computer_seat:
                return seat
        return None

    def is_computer(self, seat: int | None) -> bool:
        return seat is not None and seat == self.settings.computer_seat

    @property
    def computer_user(self) -> int | None:
        users = (
            self.seats.get(self.settings.computer_seat, [])
            if self.settings.computer_seat is not None
            else []
        )
        return users[0] if users else None

    def seat_info(self, seat: int) -> SeatInfo:
        users = self.seats.get(seat, [])
        return SeatInfo(seat, tuple(users), tuple(self.names.get(u, str(u)) for u in users))

    def label(self, seat: int) -> str:
        return self.seat_info(seat).label

    def mentions(self, seat: int) -> str:
        if self.is_computer(seat):
            return self.label(seat)
        return " & ".join(f"<@{u}>" for u in self.seats.get(seat, []))

    @property
    def home(self) -> int | None:
        return self.record.thread_id or self.record.channel_id

    def require_engine(self) -> ScrabbleGame:
        if self.engine is None:
            status = self.record.status
            if status == "invited":
                raise InvalidInputError(
                    f"Scrabble #{self.record.id} hasn't started yet: everyone invited must accept first."
                )
            raise InvalidInputError(f"Scrabble #{self.record.id} was {status}.")
        return self.engine


class LexiconCache:
    """Word lists by name from a loader of their own, loaded once (off the event loop).

    Tests and benchmarks give a game a word list this way; the bot itself uses
    :class:`ClubLexicons`, the process-wide cache every service shares.
    """

    def __init__(self, loader: Callable[[str], Any] = load_lexicon) -> None:
        self._loader = loader
        self._loaded: dict[str, Any] = {}
        self._lock = asyncio.Lock()

    async def get(self, name: str) -> Any:
        if name in self._loaded:
            return self._loaded[name]
        async with self._lock:
            if name not in self._loaded:
                try:
                    self._loaded[name] = await asyncio.to_thread(self._loader, name)
                except LexiconError as exc:
                    raise InvalidInputError(
                        f"The game's word list can't be loaded: {exc}"
                    ) from None
            return self._loaded[name]


class ClubLexicons:
    """Word lists by name through ``bot.services.words.get_lexicon``: one cache per bot."""

    def __init__(self, ctx: ServiceContext) -> None:
        self.ctx = ctx

    async def get(self, name: str) -> Any:
        try:
            return await get_lexicon(self.ctx, name)
        except InvalidInputError:
            raise InvalidInputError(
                "The game's word list can't be loaded: ask an admin to check the bot's word lists."
            ) from None


def computer_label(level: str | None) -> str:
    return f"Computer ({COMPUTER_LEVELS.get(level or '', level or '?').split(' (')[0]})"


def lexicon_display_name(name: str) -> str:
    from pathlib import PurePath

    base = PurePath(name).name
    for suffix in (".gz", ".txt", ".dic", ".lst"):
        base = base.removesuffix(suffix)
    return base or name


class ScrabbleService:
    def __init__(
        self,
        ctx: ServiceContext,
        *,
        rng: random.Random | None = None,
        lexicons: LexiconCache | ClubLexicons | None = None,
        definitions: Callable[[], Definitions | None] | None = None,
    ) -> None:
        self.ctx = ctx
        self.rng = rng or random.SystemRandom()
        self.lexicons = lexicons or ClubLexicons(ctx)
        definitions_path = getattr(ctx.settings, "definitions_path", None)
        self._definitions_loader = definitions or (lambda: open_definitions(definitions_path))
        self._definitions: Definitions | Literal[False] | None = False  # False: not looked for yet
        self._analysis_lock = asyncio.Lock()

    # -- creating and joining ---------------------------------------------------------------

    def word_lists(self) -> list[str]:
        names = list(available_lexicons())
        if self.ctx.settings.lexicon not in names:
            names.insert(0, self.ctx.settings.lexicon)
        return names

    def _settings_for(
        self, request: NewGameRequest, seats: int, computer_seat: int | None = None
    ) -> GameSettings:
        challenge = (request.challenge or "double").strip().lower()
        if challenge not in ("double", "single", "void"):
            raise InvalidInputError("The challenge rule is `double`, `single` or `void`.")
        variant = (
            (request.variant or "standard").strip().lower().replace(" ", "_").replace("-", "_")
        )
        variant = {
            "finish": "finish_line",
            "9": "nine_tiles",
            "9_tiles": "nine_tiles",
            "9_tile": "nine_tiles",
        }.get(variant, variant)
        if variant not in VARIANTS:
            raise InvalidInputError("The variant is `standard`, `finish_line` or `nine_tiles`.")
        target = self._target(request.target, variant, seats)
        ending = (request.ending or "six_zeros").strip().lower()
        if ending not in ("six_zeros", "two_passes"):
            raise InvalidInputError("The ending rule is `six_zeros` or `two_passes`.")
        clock = parse_duration(request.clock if request.clock is not None else DEFAULT_CLOCK, CLOCK)
        deadline = parse_duration(
            request.deadline if request.deadline is not None else DEFAULT_DEADLINE, DEADLINE
        )
        level = (request.computer_level or "").strip().lower() or None
        if computer_seat is None and level is not None:
            raise InvalidInputError(
                "The computer's `level` is for a game against me: name me as an opponent."
            )
        if computer_seat is not None:
            level = level or DEFAULT_COMPUTER_LEVEL
            if level not in COMPUTER_LEVELS:
                raise InvalidInputError("The computer's level is `casual`, `equity` or `strong`.")
        word_list = (request.word_list or self.ctx.settings.lexicon).strip()
        if word_list not in self.word_lists():
            known = ", ".join(f"`{lexicon_display_name(n)}`" for n in self.word_lists())
            raise InvalidInputError(f"I don't know that word list. This club has: {known}.")
        try:
            rules = ScrabbleOptions(
                seats=seats,
                rack_size=9 if variant == "nine_tiles" else 7,
                challenge=challenge,
                end_rule=ending,
                target_score=target,
            )
        except ScrabbleError as exc:
            raise InvalidInputError(_sentence(exc)) from None
        return GameSettings(
            rules=rules,
            clock_seconds=int(clock.total_seconds()) if clock else None,
            deadline_seconds=int(deadline.total_seconds()) if deadline else None,
            lexicon=word_list,
            explain=request.explain,
            variant=variant,
            hints=bool(request.hints),
            computer_seat=computer_seat,
            computer_level=level,
        )

    @staticmethod
    def _target(text: str | None, variant: str, seats: int) -> int | None:
        if text is None or not text.strip():
            return FINISH_LINE_TARGETS["intermediate"][seats] if variant == "finish_line" else None
        cleaned = text.strip().lower().split()[0]
        if cleaned in FINISH_LINE_TARGETS:
            return FINISH_LINE_TARGETS[cleaned][seats]
        if not cleaned.isdigit() or not 10 <= int(cleaned) <= 2000:
            raise InvalidInputError(
                "The finish line is a score from 10 to 2000, or a level: `beginner`, `intermediate` or `expert`."
            )
        return int(cleaned)

    @staticmethod
    def _seat_members(request: NewGameRequest) -> list[list[Member]]:
        if not 1 <= len(request.opponents) <= 3:
            raise InvalidInputError("A Scrabble game has 2 to 4 seats: name 1 to 3 opponents.")
        pairs = request.partner is not None or request.opponent_partner is not None
        if pairs and len(request.opponents) > 1:
            raise InvalidInputError(
                "Partners are for a game of two pairs: with several opponents every seat is one player."
            )
        if pairs and (request.partner is None or request.opponent_partner is None):
            raise InvalidInputError(
                "For a pairs game name both your `partner` and your opponent's `opponent_partner`."
            )
        seats: list[list[Member | None]]
        if pairs:
            seats = [
                [request.creator, request.partner],
                [request.opponents[0], request.opponent_partner],
            ]
        else:
            seats = [[m] for m in (request.creator, *request.opponents)]
        everyone = [m for seat in seats for m in seat if m is not None]
        if any(m.is_bot and not m.computer for m in everyone):
            raise InvalidInputError(
                "Other bots can't play Scrabble here: invite club members, or me to play the computer."
            )
        if any(m.computer for m in everyone):
            if pairs:
                raise InvalidInputError(
                    "The computer plays a seat of its own: it can't be part of a pair."
                )
            if request.creator.computer:
                raise InvalidInputError("The computer can't open a game: name me as an opponent.")
        ids = [m.user_id for m in everyone]
        if len(set(ids)) != len(ids):
            raise InvalidInputError(
                "Each member can take only one place in a game (and you can't play yourself)."
            )
        return [[m for m in seat if m is not None] for seat in seats]

    async def create(self, request: NewGameRequest) -> InviteOutcome:
        """A new game waiting for the invited members to accept.

        The computer's seat (this bot named as an opponent) accepts at once:
        a game of one member against the computer is ready to ``start``
        (``all_accepted``) as soon as it is made.
        """
        seat_members = self._seat_members(request)
        computer_seat = next(
            (i for i, seat in enumerate(seat_members) if any(m.computer for m in seat)), None
        )
        settings = self._settings_for(request, len(seat_members), computer_seat)
        now = self.ctx.clock()
        async with self.ctx.uow() as uow:
            await uow.guilds.ensure(request.guild_id, request.guild_name)
            for members in seat_members:
                for member in members:
                    if member.computer and await uow.players.get(member.user_id) is not None:
                        continue  # the bot's row keeps the name chess gave it; Scrabble labels it itself
                    await uow.players.ensure(member.user_id, member.name)
            record = GameRecord(
                guild_id=request.guild_id,
                kind=KIND,
                channel_id=request.channel_id,
                thread_id=request.channel_id if request.in_thread else None,
                status="invited",
                options=settings.to_json(),
                state={},
                version=1,
                created_by=request.creator.user_id,
                created_at=now,
                updated_at=now,
            )
            await uow.games.add_with_seats(
                record,
                [
                    (
                        seat,
                        member.user_id,
                        member.user_id == request.creator.user_id or member.computer,
                    )
                    for seat, members in enumerate(seat_members)
                    for member in members
                ],
            )
            await uow.jobs.schedule(
                JOB_INVITE,
                now + INVITE_TTL,
                {"game_id": record.id},
                key=self._key(record.id, "invite"),
            )
            loaded = await self._loaded(uow, record)
            outcome = self._invite_outcome(loaded)
            await uow.commit()
        return outcome

    def _invite_outcome(self, loaded: _Loaded) -> InviteOutcome:
        record = loaded.record
        waiting = tuple(
            loaded.names.get(s.user_id, str(s.user_id)) for s in record.seats if not s.accepted
        )
        seat_lines = [f"Seat {seat + 1}: {loaded.label(seat)}" for seat in sorted(loaded.seats)]
        text = (
            f"**Scrabble #{record.id}** — {', '.join(loaded.label(s) for s in sorted(loaded.seats))}\n"
            + "\n".join(seat_lines)
            + f"\nRules: {loaded.settings.describe()} · word list: {lexicon_display_name(loaded.settings.lexicon)}"
        )
        if record.status == "invited":
            text += (
                f"\nWaiting for {', '.join(waiting)} to press **Accept**."
                if waiting
                else "\nEveryone accepted."
            )
        elif record.status == "abandoned":
            text += "\nThis invitation is closed."
        else:
            text += "\nEveryone accepted: the game is on" + (
                f" in <#{record.thread_id}>." if record.thread_id else "."
            )
        return InviteOutcome(
            game_id=record.id,
            all_accepted=not waiting,
            waiting_for=waiting,
            text=text,
            channel_id=record.channel_id,
            thread_id=record.thread_id,
            thread_name=f"Scrabble #{record.id}: "
            + " vs ".join(loaded.label(s) for s in sorted(loaded.seats)),
        )

    async def accept_invite(
        self, game_id: int, user_id: int, guild_id: int | None = None
    ) -> InviteOutcome:
        async with self.ctx.uow() as uow:
            loaded = await self._load(uow, game_id, guild_id)
            record = loaded.record
            if loaded.seat_of(user_id) is None:
                raise PermissionDeniedError("This invitation is not for you.")
            if record.status == "abandoned":
                raise InvalidInputError("This invitation was withdrawn or has expired.")
            if record.status == "invited":
                for seat in record.seats:
                    if seat.user_id == user_id:
                        seat.accepted = True
                # Bump the version so two last acceptances can't both start the game.
                await uow.games.save_state(record, expected_version=loaded.version)
            outcome = self._invite_outcome(loaded)
            await uow.commit()
        return outcome

    async def decline_invite(
        self, game_id: int, user_id: int, guild_id: int | None = None
    ) -> InviteOutcome:
        async with self.ctx.uow() as uow:
            loaded = await self._load(uow, game_id, guild_id)
            if loaded.seat_of(user_id) is None:
                raise PermissionDeniedError("This invitation is not for you.")
            if loaded.record.status != "invited":
                raise InvalidInputError(
                    "This game has already started (or was closed): use `/scrabble resign` to leave it."
                )
            await uow.games.save_state(
                loaded.record,
                expected_version=loaded.version,
                status="abandoned",
                finished_at=self.ctx.clock(),
            )
            await uow.jobs.cancel(self._key(game_id, "invite"))
            outcome = self._invite_outcome(loaded)
            name = loaded.names.get(user_id, "A player")
            outcome = dataclasses.replace(outcome, text=outcome.text + f"\n{name} declined.")
            await uow.commit()
        return outcome

    async def start(self, game_id: int, thread_id: int | None) -> GameView:
        """Everyone accepted: deal, post the first board in the game's thread."""
        now = self.ctx.clock()
        async with self.ctx.uow() as uow:
            loaded = await self._load(uow, game_id)
            record = loaded.record
            if record.status != "invited":
                view = self._view(loaded, None)
                return view
            if any(not s.accepted for s in record.seats):
                raise InvalidInputError("Not everyone has accepted yet.")
            seed = self.rng.randrange(2**62)
            engine = ScrabbleGame.new(loaded.settings.rules, seed)
            loaded.engine = engine
            deadline = (
                now + timedelta(seconds=loaded.settings.deadline_seconds)
                if loaded.settings.deadline_seconds
                else None
            )
            columns: dict[str, Any] = {"status": "active", "deadline": deadline}
            if thread_id is not None and record.thread_id is None:
                columns["thread_id"] = thread_id
                record.thread_id = thread_id
            await uow.jobs.cancel(self._key(game_id, "invite"))
            if deadline is not None:
                await uow.jobs.schedule(
                    JOB_DEADLINE,
                    deadline,
                    {"game_id": game_id},
                    key=self._key(game_id, "deadline"),
                )
            record.deadline = deadline
            meta = await self._schedule_turn(uow, loaded, now, previous={}, new_turn=True)
            state = {"engine": engine.to_json(), **meta}
            await uow.games.save_state(
                record, expected_version=loaded.version, state=state, **columns
            )
            loaded.meta = meta
            opening = self._first_draw_text(loaded)
            self._post_board(uow, loaded, [opening], now)
            view = self._view(loaded, None)
            await uow.commit()
        return view

    def _first_draw_text(self, loaded: _Loaded) -> str:
        engine = loaded.require_engine()
        text = f"**Scrabble #{loaded.record.id}** starts. Rules: {loaded.settings.describe()}."
        if engine.first_draw:
            draws = []
            for seat, tile in enumerate(engine.first_draw[-1]):
                if tile is not None:
                    draws.append(f"{loaded.label(seat)} drew {'a blank' if tile == '?' else tile}")
            text += f"\nDraw for first play: {', '.join(draws)}."
        text += f" First to play: {loaded.label(engine.current_seat)}."
        return text

    # -- loading ---------------------------------------------------------------------------------

    @staticmethod
    def _key(game_id: int, purpose: str) -> str:
        return f"scrabble:{game_id}:{purpose}"

    async def _load(self, uow: UnitOfWork, game_id: int, guild_id: int | None = None) -> _Loaded:
        record = await uow.games.get(game_id, guild_id=guild_id, kind=KIND)
        return await self._loaded(uow, record)

    async def _loaded(self, uow: UnitOfWork, record: GameRecord) -> _Loaded:
        seats: dict[int, list[int]] = {}
        for row in record.seats:
            seats.setdefault(row.seat, []).append(row.user_id)
        names = await uow.players.names([u for users in seats.values() for u in users])
        settings = GameSettings.from_json(record.options)
        if settings.computer_seat is not None:
            for user_id in seats.get(settings.computer_seat, []):
                names[user_id] = computer_label(settings.computer_level)
        state = record.state or {}
        engine = ScrabbleGame.from_json(state["engine"]) if state.get("engine") else None
        meta = {k: v for k, v in state.items() if k != "engine"}
        return _Loaded(record, settings, seats, names, engine, record.version, meta)

    async def _member_game(
        self, uow: UnitOfWork, game_id: int, guild_id: int | None, user_id: int
    ) -> tuple[_Loaded, int]:
        loaded = await self._load(uow, game_id, guild_id)
        seat = loaded.seat_of(user_id)
        if seat is None:
            raise PermissionDeniedError(
                f"You are not playing in Scrabble #{game_id}: this game is not yours."
            )
        return loaded, seat

    # -- moves ------------------------------------------------------------------------------------

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
        def act(engine: ScrabbleGame, seat: int, lexicon: Any) -> str:
            result = engine.play(seat, word.strip(), position.strip(), direction, lexicon=lexicon)
            words = (
                f" ({', '.join(f'{w.word} {w.score}' for w in result.words)})"
                if len(result.words) > 1
                else ""
            )
            drawn = (
                " ".join("blank" if t == "?" else t for t in result.drawn)
                or "nothing (the bag is empty)"
            )
            return (
                f"You played {result.main_word} at {result.notation.split()[0]} for {result.score}"
                f"{' — bingo!' if result.bingo else ''}{words}. You drew {drawn}."
            )

        return await self._act(game_id, user_id, guild_id, act, lexicon="void")

    async def exchange(
        self, game_id: int, user_id: int, tiles: str, *, guild_id: int | None = None
    ) -> ActionOutcome:
        def act(engine: ScrabbleGame, seat: int, lexicon: Any) -> str:
            drawn = engine.exchange(seat, tiles)
            return f"You exchanged {len(drawn)} tile{'s' if len(drawn) != 1 else ''} and drew {' '.join(drawn)}."

        return await self._act(game_id, user_id, guild_id, act)

    async def pass_turn(
        self, game_id: int, user_id: int, *, guild_id: int | None = None
    ) -> ActionOutcome:
        def act(engine: ScrabbleGame, seat: int, lexicon: Any) -> str:
            engine.pass_turn(seat)
            return "You passed."

        return await self._act(game_id, user_id, guild_id, act)

    async def resign(
        self, game_id: int, user_id: int, *, guild_id: int | None = None
    ) -> ActionOutcome:
        def act(engine: ScrabbleGame, seat: int, lexicon: Any) -> str:
            engine.resign(seat)
            return "You resigned from the game."

        return await self._act(game_id, user_id, guild_id, act)

    async def challenge(
        self,
        game_id: int,
        user_id: int,
        *,
        guild_id: int | None = None,
        expected_ply: int | None = None,
    ) -> ActionOutcome:
        def act(engine: ScrabbleGame, seat: int, lexicon: Any) -> str:
            if expected_ply is not None and len(engine.moves) != expected_ply:
                raise InvalidInputError(
                    "That play can no longer be challenged: the game has moved on."
                )
            result = engine.challenge(seat, lexicon)
            if result.withdrawn:
                return f"Your challenge succeeded: {', '.join(result.invalid_words)} is not in the word list."
            penalty = " You lose your next turn." if result.lost_turn_seat is not None else ""
            return f"The play stands: {', '.join(result.words)} {'is' if len(result.words) == 1 else 'are'} in the word list.{penalty}"

        return await self._act(game_id, user_id, guild_id, act, lexicon="always")

    async def accept_play(
        self,
        game_id: int,
        user_id: int,
        *,
        guild_id: int | None = None,
        expected_ply: int | None = None,
    ) -> ActionOutcome:
        def act(engine: ScrabbleGame, seat: int, lexicon: Any) -> str:
            if expected_ply is not None and len(engine.moves) < expected_ply:
                raise InvalidInputError("That play is no longer waiting to be accepted.")
            over = engine.accept(seat)
            return (
                "You accepted the final play: the game is over."
                if over
                else "You accepted the final play."
            )

        return await self._act(game_id, user_id, guild_id, act)

    async def _act(
        self,
        game_id: int,
        user_id: int,
        guild_id: int | None,
        act: Callable[[ScrabbleGame, int, Any], str],
        *,
        lexicon: str | None = None,
    ) -> ActionOutcome:
        """Load, act, commit: one unit of work. ``lexicon``: ``"always"`` the action
        needs the game's word list, ``"void"`` only under the void rule (the list
        is cached per bot, so fetching it inside the transaction costs nothing
        after the first time)."""
        now = self.ctx.clock()
        async with self.ctx.uow() as uow:
            loaded, seat = await self._member_game(uow, game_id, guild_id, user_id)
            engine = loaded.require_engine()
            if loaded.record.status != "active":
                raise InvalidInputError(
                    f"Scrabble #{game_id} is over: see `/scrabble export` for its record."
                )
            words = None
            if lexicon == "always" or (
                lexicon == "void" and loaded.settings.rules.challenge == "void"
            ):
                words = await self.lexicons.get(loaded.settings.lexicon)
            before = len(engine.moves)
            try:
                message = act(engine, seat, words)
            except NotYourTurnError as exc:
                raise InvalidInputError(
                    f"It's not your turn: it's {loaded.label(exc.current_seat)}'s turn. Nothing was changed."
                ) from None
            except ScrabbleError as exc:
                raise InvalidInputError(_sentence(exc)) from None
            await self._commit_changes(uow, loaded, before, now, actor=user_id)
            await uow.commit()
        return ActionOutcome(game_id, message, loaded.home, finished=engine.status == FINISHED)

    # -- committing a change ------------------------------------------------------------------------

    async def _commit_changes(
        self, uow: UnitOfWork, loaded: _Loaded, before: int, now: datetime, *, actor: int | None
    ) -> None:
        """Save state (version-checked), log moves, move timers, announce, finish."""
        engine = loaded.require_engine()
        record = loaded.record
        if await self._nobody_can_play(loaded):
            engine.end_blocked()
        entries = engine.moves[before:]
        previous = dict(loaded.meta)
        new_turn = previous.get("seat") != engine.current_seat or any(
            e["type"] in ("play", "exchange", "pass") and not e.get("auto") for e in entries
        )
        meta = await self._schedule_turn(uow, loaded, now, previous=previous, new_turn=new_turn)
        columns: dict[str, Any] = {}
        if engine.status == FINISHED:
            columns.update(status="finished", finished_at=now)
        await uow.games.save_state(
            record,
            expected_version=loaded.version,
            state={"engine": engine.to_json(), **meta},
            **columns,
        )
        loaded.meta = meta
        for offset, entry in enumerate(entries):
            await uow.moves.append(
                record.id,
                ply=before + offset,
                notation=_notation(entry),
                seat=entry.get("seat"),
                user_id=None
                if entry.get("auto") or entry["type"] in ("close", "deadline", "blocked")
                else actor,
                score=entry.get("score"),
                data=entry,
                at=now,
            )
        lines = describe_entries(entries, loaded.label)
        if engine.status == ENDING and previous.get("status") != ENDING:
            lines.append(self._ending_text(loaded))
        if engine.status == FINISHED:
            await self._finish(uow, loaded, lines, now)
            return
        self._post_board(uow, loaded, lines, now)
        await self._maybe_explain(uow, loaded, entries)
        if new_turn and engine.status == ACTIVE and not loaded.settings.live:
            self._notify_turn(uow, loaded)

    async def _nobody_can_play(self, loaded: _Loaded) -> bool:
        """The game is stuck (bag too small to exchange, no seat has a play in the
        game's word list): the move generator says so, seat by seat, so a seat
        that could still play is never ended on. Only asked near the end."""
        engine = loaded.require_engine()
        if engine.status != ACTIVE or engine.bag_count >= MIN_BAG_TO_EXCHANGE:
            return False
        try:
            lexicon = await self.lexicons.get(loaded.settings.lexicon)
        except InvalidInputError:
            log.warning(
                "Scrabble #%s: word list unavailable; not checking for a blocked game",
                loaded.record.id,
            )
            return False
        if not scrabble_ai.graph_ready(lexicon):
            # Not built in this process yet: build it in the background rather than
            # inside this transaction; the next move checks (six zeros still apply).
            scrabble_ai.start_warm_up(lexicon)
            return False
        return await asyncio.to_thread(lambda: MoveGenerator(lexicon).is_blocked(engine))

    def _ending_text(self, loaded: _Loaded) -> str:
        engine = loaded.require_engine()
        last = engine.last_play or {}
        deciders = [s for s in range(engine.seats) if engine.can_challenge(s)]
        if deciders and all(loaded.is_computer(s) for s in deciders):
            return "That play would end the game: the computer decides whether to challenge it."
        due = loaded.meta.get("ending_due")
        when = f" by {relative_time(datetime.fromisoformat(due))}" if due else ""
        return (
            f"That play would end the game. Opponents: **Accept** it or **Challenge** it{when}; "
            f"if nobody challenges, it stands ({', '.join(last.get('words', []))})."
        )

    async def _schedule_turn(
        self,
        uow: UnitOfWork,
        loaded: _Loaded,
        now: datetime,
        *,
        previous: dict[str, Any],
        new_turn: bool,
    ) -> dict[str, Any]:
        engine = loaded.require_engine()
        game_id = loaded.record.id
        moves = len(engine.moves)
        meta: dict[str, Any] = {
            "status": engine.status,
            "seat": engine.current_seat,
            "moves": moves,
        }
        await self._schedule_computer(uow, loaded, now)
        if engine.status != ACTIVE:
            await uow.jobs.cancel(self._key(game_id, "turn"))
            await uow.jobs.cancel(self._key(game_id, "reminder"))
        if engine.status == FINISHED:
            await uow.jobs.cancel(self._key(game_id, "ending"))
            await uow.jobs.cancel(self._key(game_id, "deadline"))
            return meta
        if engine.status == ENDING:
            # The window opens with the finishing play; an acceptance by one of
            # several opponents keeps its end but re-keys the job to the new log.
            kept = previous.get("ending_due") if previous.get("status") == ENDING else None
            due = datetime.fromisoformat(kept) if kept else now + loaded.settings.ending_window
            await uow.jobs.schedule(
                JOB_ENDING,
                due,
                {"game_id": game_id, "moves": moves},
                key=self._key(game_id, "ending"),
            )
            meta["ending_due"] = due.isoformat()
            return meta
        await uow.jobs.cancel(self._key(game_id, "ending"))
        clock = loaded.settings.clock
        if clock is None:
            return meta
        if (
            not new_turn
            and previous.get("turn_due")
            and previous.get("seat") == engine.current_seat
        ):
            # A challenge between turns doesn't restart the clock of the seat to move;
            # the jobs are re-keyed to the new move count so they still fire.
            due = datetime.fromisoformat(previous["turn_due"])
        else:
            due = now + clock
        payload = {"game_id": game_id, "moves": moves, "seat": engine.current_seat}
        await uow.jobs.schedule(JOB_TURN, due, payload, key=self._key(game_id, "turn"))
        lead = loaded.settings.reminder_lead
        if lead is not None and due - lead > now and not loaded.is_computer(engine.current_seat):
            await uow.jobs.schedule(
                JOB_REMINDER, due - lead, payload, key=self._key(game_id, "reminder")
            )
        else:
            await uow.jobs.cancel(self._key(game_id, "reminder"))
        meta["turn_due"] = due.isoformat()
        return meta

    async def _schedule_computer(self, uow: UnitOfWork, loaded: _Loaded, now: datetime) -> None:
        """The computer's turn (or its say on a finishing play) runs as a durable job,
        after the commit that handed it the turn: a restart in between loses nothing."""
        engine = loaded.require_engine()
        seat = loaded.settings.computer_seat
        key = self._key(loaded.record.id, "computer")
        if seat is None:
            return
        waiting = (engine.status == ACTIVE and engine.current_seat == seat) or (
            engine.status == ENDING and engine.can_challenge(seat)
        )
        if waiting:
            await uow.jobs.schedule(
                JOB_COMPUTER,
                now + COMPUTER_DELAY,
                {"game_id": loaded.record.id, "moves": len(engine.moves)},
                key=key,
            )
        else:
            await uow.jobs.cancel(key)

    async def _finish(
        self, uow: UnitOfWork, loaded: _Loaded, lines: list[str], now: datetime
    ) -> None:
        engine = loaded.require_engine()
        result = engine.result()
        assert result is not None
        record = loaded.record
        outcomes = [
            SeatOutcome(
                seat=seat,
                user_ids=list(loaded.seats.get(seat, [])),
                rank=result.ranks[seat] - 1,
                score=float(result.final_scores[seat]),
                extra={"reason": result.reason, "seat": seat},
            )
            for seat in range(engine.seats)
        ]
        if loaded.settings.rated:
            await record_game_result(
                uow,
                guild_id=record.guild_id,
                kind=KIND,
                game_id=record.id,
                seats=outcomes,
                played_at=now,
            )
        winners = " & ".join(loaded.label(s) for s in result.winners) or "nobody"
        order = sorted(range(engine.seats), key=lambda s: result.ranks[s])
        table = []
        for seat in order:
            adjust = result.adjustments[seat]
            note = (
                f" ({result.scores_before[seat]} {'+' if adjust >= 0 else '−'} {abs(adjust)} for tiles)"
                if adjust
                else ""
            )
            resigned = " (resigned)" if seat in result.resigned else ""
            table.append(
                f"{result.ranks[seat]}. {loaded.label(seat)} — {result.final_scores[seat]}{note}{resigned}"
            )
        verdict = f"It's a draw between {winners}." if result.is_draw else f"Winner: **{winners}**."
        hints = ""
        if loaded.settings.hints:
            used = {row.user_id: row.hints_used or 0 for row in record.seats}
            counts = [
                f"{loaded.names.get(u, str(u))} {used.get(u, 0)}"
                for seat in sorted(loaded.seats)
                if not loaded.is_computer(seat)
                for u in loaded.seats[seat]
            ]
            hints = "Hints used: " + " · ".join(counts)
        lines = lines + [
            f"**Game over** ({REASONS.get(result.reason, result.reason)}). {verdict}",
            "\n".join(table),
            *([hints] if hints else []),
            "The game record (GCG) is attached; results and ratings are on `/leaderboard`."
            if loaded.settings.rated
            else f"The game record (GCG) is attached. Not rated ({'hints were on' if loaded.settings.hints else 'a game against the computer'}).",
            "`/scrabble analyse` shows each play beside the best one available.",
        ]
        gcg = self._gcg_text(loaded)
        picture = self._picture(loaded)
        payload = {
            "content": _clip("\n".join(lines)),
            "files": [
                {
                    "render": RENDER_BOARD,
                    "args": {**picture.to_args(), "filename": f"scrabble-{record.id}-final.png"},
                },
                {
                    "render": RENDER_TEXT_FILE,
                    "args": {"filename": f"scrabble-{record.id}.gcg", "text": gcg},
                },
            ],
        }
        if loaded.home is not None:
            uow.outbox.to_channel(loaded.home, payload)

    def _gcg_text(self, loaded: _Loaded) -> str:
        engine = loaded.require_engine()
        names = [loaded.label(seat) for seat in range(engine.seats)]
        return export_gcg(
            engine,
            names,
            lexicon=lexicon_display_name(loaded.settings.lexicon),
            title=f"Scrabble #{loaded.record.id}",
        )

    # -- announcing ---------------------------------------------------------------------------------

    def _picture(self, loaded: _Loaded) -> BoardPicture:
        engine = loaded.require_engine()
        last = engine.last_play
        scores = engine.scores
        score_line = " · ".join(f"{loaded.label(s)} {scores[s]}" for s in range(engine.seats))
        header = [f"#{loaded.record.id} · {score_line} · bag {engine.bag_count}"]
        if engine.status == FINISHED:
            header.append("Game over")
        elif engine.status == ENDING:
            header.append("Final play: waiting for accept or challenge")
        else:
            header.append(
                f"▶ {loaded.label(engine.current_seat)} to play"
                + (f" · last: {last['notation']} {last['score']}" if last else "")
            )
        return BoardPicture(
            tuple(engine.board_rows()), tuple(last["squares"]) if last else (), tuple(header)
        )

    def _status_lines(self, loaded: _Loaded) -> list[str]:
        engine = loaded.require_engine()
        scores = engine.scores
        score_text = " · ".join(f"{loaded.label(s)} **{scores[s]}**" for s in range(engine.seats))
        lines = [
            f"Scores: {score_text} — {engine.bag_count} tile{'s' if engine.bag_count != 1 else ''} in the bag"
        ]
        if engine.status == ACTIVE:
            seat = engine.current_seat
            turn = (
                f"Next: {loaded.label(seat)}"
                if loaded.is_computer(seat)
                else (f"Next: {loaded.mentions(seat)} ({loaded.label(seat)})")
            )
            due = loaded.meta.get("turn_due")
            if due:
                turn += f" — turn clock ends {relative_time(datetime.fromisoformat(due))}"
            lines.append(turn)
        if loaded.record.deadline is not None and engine.status != FINISHED:
            lines.append(f"Game deadline {relative_time(loaded.record.deadline)}")
        return lines

    def _board_view_spec(self, loaded: _Loaded) -> dict[str, Any] | None:
        engine = loaded.require_engine()
        if engine.status == FINISHED:
            return None
        challengeable = any(engine.can_challenge(s) for s in range(engine.seats))
        return {
            "kind": VIEW_BOARD,
            "args": {
                "game_id": loaded.record.id,
                "ply": len(engine.moves),
                "challenge": challengeable,
                "accept": engine.status == ENDING,
            },
        }

    def _post_board(
        self, uow: UnitOfWork, loaded: _Loaded, lines: list[str], now: datetime
    ) -> None:
        if loaded.home is None:
            return
        engine = loaded.require_engine()
        text = "\n".join(
            [
                f"**Scrabble #{loaded.record.id}** · move {len(engine.moves)}",
                *lines,
                *self._status_lines(loaded),
            ]
        )
        payload: dict[str, Any] = {
            "content": _clip(text),
            "files": [
                {
                    "render": RENDER_BOARD,
                    "args": {
                        **self._picture(loaded).to_args(),
                        "filename": f"scrabble-{loaded.record.id}-{len(engine.moves)}.png",
                    },
                }
            ],
        }
        view = self._board_view_spec(loaded)
        if view is not None:
            payload["view"] = view
        uow.outbox.to_channel(loaded.home, payload)

    def _notify_turn(self, uow: UnitOfWork, loaded: _Loaded) -> None:
        engine = loaded.require_engine()
        seat = engine.current_seat
        if loaded.is_computer(seat):
            return
        due = loaded.meta.get("turn_due")
        clock = (
            f" Your turn clock ends {relative_time(datetime.fromisoformat(due))}." if due else ""
        )
        where = f" in <#{loaded.home}>" if loaded.home else ""
        text = f"It's your turn in **Scrabble #{loaded.record.id}**{where}.{clock}"
        for user_id in loaded.seats.get(seat, []):
            uow.outbox.to_user(
                user_id,
                {"content": text, "fallback_content": text},
                fallback_channel_id=loaded.home,
            )

    async def _maybe_explain(
        self, uow: UnitOfWork, loaded: _Loaded, entries: list[dict[str, Any]]
    ) -> None:
        if not loaded.settings.explain:
            return
        engine = loaded.require_engine()
        last = engine.last_play
        plays = [e for e in entries if e["type"] == "play"]
        if not plays or last is None or last["seat"] != plays[-1]["seat"]:
            return  # the play was withdrawn in the same step, or there was none
        words = list(dict.fromkeys(plays[-1]["words"]))
        source = await self._definition_source()
        found: list[str] = []
        missing: list[str] = []
        for word in words:
            definition = (
                await asyncio.to_thread(source.define, word) if source is not None else None
            )
            if definition:
                found.append(f"**{word}** — {definition}")
            else:
                missing.append(word)
        lines = [f"**Explain the word** (Scrabble #{loaded.record.id})", *found]
        if missing:
            who = loaded.mentions(plays[-1]["seat"])
            lines.append(
                f"{who}, please explain {', '.join(f'**{w}**' for w in missing)} here in the thread, in your own words."
            )
        payload: dict[str, Any] = {"content": _clip("\n".join(lines))}
        if loaded.home is not None:
            uow.outbox.to_channel(loaded.home, payload)

    async def _definition_source(self) -> Definitions | None:
        definitions = self._definitions
        if definitions is False:
            loaded = await asyncio.to_thread(self._definitions_loader)
            self._definitions = loaded
            return loaded
        return definitions

    # -- reading ---------------------------------------------------------------------------------------

    def _view(self, loaded: _Loaded, viewer: int | None) -> GameView:
        record = loaded.record
        engine = loaded.engine
        seats = tuple(loaded.seat_info(s) for s in sorted(loaded.seats))
        if engine is None:
            summary = self._invite_outcome(loaded).text
            picture = None
            current = None
        else:
            summary = "\n".join(
                [
                    f"**Scrabble #{record.id}** · move {len(engine.moves)}",
                    *self._last_play_lines(loaded),
                    *self._status_lines(loaded),
                ]
            )
            picture = self._picture(loaded)
            current = engine.current_seat if engine.status == ACTIVE else None
        due = loaded.meta.get("turn_due")
        return GameView(
            game_id=record.id,
            status=record.status,
            seats=seats,
            home_channel_id=loaded.home,
            summary=summary,
            picture=picture,
            current_seat=current,
            turn_due=datetime.fromisoformat(due) if due and current is not None else None,
            deadline=record.deadline,
            settings=loaded.settings,
            viewer_seat=viewer,
        )

    def _last_play_lines(self, loaded: _Loaded) -> list[str]:
        engine = loaded.require_engine()
        last = engine.last_play
        if last is None:
            return [
                "No tiles on the board yet."
                if not any(r.strip(".") for r in engine.board_rows())
                else ""
            ]
        return [
            f"Last play: {loaded.label(last['seat'])} {last['notation']} for {last['score']} "
            f"({', '.join(last['words'])})"
        ]

    async def board(self, game_id: int, user_id: int, *, guild_id: int | None = None) -> GameView:
        async with self.ctx.reader() as uow:
            loaded = await self._load(uow, game_id, guild_id)
            loaded.require_engine()
            return self._view(loaded, loaded.seat_of(user_id))

    async def rack(self, game_id: int, user_id: int, *, guild_id: int | None = None) -> RackView:
        async with self.ctx.reader() as uow:
            loaded, seat = await self._member_game(uow, game_id, guild_id, user_id)
            engine = loaded.require_engine()
            return RackView(self._view(loaded, seat), seat, engine.racks[seat])

    async def games_for(
        self, guild_id: int, user_id: int, *, finished: bool = False
    ) -> list[GameSummary]:
        statuses = ("finished",) if finished else ("invited", "active")
        async with self.ctx.reader() as uow:
            records = await uow.games.for_player(
                user_id, guild_id=guild_id, kind=KIND, statuses=statuses
            )
            summaries = []
            for record in records[:50]:
                loaded = await self._loaded(uow, record)
                seat = loaded.seat_of(user_id)
                opponents = (
                    " & ".join(loaded.label(s) for s in sorted(loaded.seats) if s != seat) or "?"
                )
                engine = loaded.engine
                your_turn = bool(
                    engine and engine.status == ACTIVE and engine.current_seat == seat
                ) or bool(
                    engine
                    and engine.status == ENDING
                    and engine.can_challenge(seat if seat is not None else -1)
                )
                due = loaded.meta.get("turn_due") if engine and engine.status == ACTIVE else None
                summaries.append(
                    GameSummary(
                        record.id,
                        record.status,
                        opponents,
                        your_turn,
                        datetime.fromisoformat(due) if due else None,
                        loaded.home,
                    )
                )
        summaries.sort(
            key=lambda s: (
                not s.your_turn,
                s.turn_due or datetime.max.replace(tzinfo=self.ctx.clock().tzinfo),
            )
        )
        return summaries

    async def resolve_game(
        self,
        guild_id: int,
        user_id: int,
        ref: str | None,
        channel_id: int | None,
        *,
        finished: bool = False,
    ) -> int:
        """The game a command means: the given one, the thread's, or the member's only game."""
        game_id = parse_game_ref(ref)
        if game_id is not None:
            return game_id
        async with self.ctx.reader() as uow:
            if channel_id is not None:
                record = await uow.games.by_thread(channel_id, kind=KIND)
                if record is not None and record.guild_id == guild_id:
                    return record.id
            statuses = ("finished",) if finished else ("active", "invited")
            records = await uow.games.for_player(
                user_id, guild_id=guild_id, kind=KIND, statuses=statuses
            )
            found = [(r.id, r.status) for r in records]
        if finished and found:
            return found[0][0]
        active = [game for game in found if game[1] == "active"] or found
        if len(active) == 1:
            return active[0][0]
        if not active:
            if finished:
                raise NotFoundError(
                    "You have no finished Scrabble game here: give a game number with `game`."
                )
            raise NotFoundError(
                "You have no Scrabble game running here. Start one with `/scrabble new`."
            )
        raise InvalidInputError(
            f"You have {len(active)} Scrabble games: pick one with the `game` option, or use the command in the game's thread."
        )

    async def export(self, game_id: int, *, guild_id: int) -> tuple[str, str]:
        """``(filename, GCG text)`` of a finished game of this guild."""
        async with self.ctx.reader() as uow:
            loaded = await self._load(uow, game_id, guild_id)
            if loaded.record.status != "finished" or loaded.engine is None:
                raise InvalidInputError(
                    f"Scrabble #{game_id} isn't finished yet: its record is exported when it ends."
                )
            return f"scrabble-{game_id}.gcg", self._gcg_text(loaded)

    async def replay_from_log(self, game_id: int) -> ScrabbleGame:
        """The game rebuilt from its move log alone (the state row is a cache of this)."""
        async with self.ctx.reader() as uow:
            loaded = await self._load(uow, game_id)
            moves = await uow.moves.for_game(game_id)
            engine = loaded.require_engine()
            return ScrabbleGame.replay(loaded.settings.rules, engine.seed, [m.data for m in moves])

    # -- autocomplete helpers ----------------------------------------------------------------------------

    async def game_choices(
        self, guild_id: int, user_id: int, current: str, *, finished: bool = False
    ) -> list[tuple[str, str]]:
        summaries = await self.games_for(guild_id, user_id, finished=finished)
        needle = current.strip().lower().lstrip("#")
        out = []
        for summary in summaries:
            label = summary.label()
            if needle and needle not in label.lower():
                continue
            out.append((label[:100], str(summary.game_id)))
        return out[:25]

    async def position_choices(
        self, game_id: int, user_id: int, word: str, current: str
    ) -> list[PositionChoice]:
        """Where ``word`` fits with the member's rack, best score first (private to them)."""
        word = (word or "").strip()
        if not word:
            return []
        async with self.ctx.reader() as uow:
            loaded, seat = await self._member_game(uow, game_id, None, user_id)
            engine = loaded.require_engine()
        rack = engine.racks[seat]
        board = engine.board_copy()
        columns = "ABCDEFGHIJKLMNO"
        found: list[PositionChoice] = []
        for row in range(SIZE):
            for col in range(SIZE):
                for across in (True, False):
                    position = f"{row + 1}{columns[col]}" if across else f"{columns[col]}{row + 1}"
                    try:
                        evaluation = board.evaluate(word, position, rack=rack)
                    except ScrabbleError:
                        continue
                    direction = "across" if across else "down"
                    label = f"{position} {direction} — {evaluation.words[0].word}, {evaluation.score} points"
                    found.append(PositionChoice(position, label, evaluation.score))
        needle = current.strip().upper()
        found = [c for c in found if not needle or c.position.startswith(needle)]
        found.sort(key=lambda c: (-c.score, c.position))
        return found[:25]

    async def rack_text(self, game_id: int, user_id: int) -> str | None:
        try:
            view = await self.rack(game_id, user_id)
        except (NotFoundError, PermissionDeniedError, InvalidInputError):
            return None
        return view.tiles

    # -- timers ----------------------------------------------------------------------------------------------

    async def _job_game(
        self, uow: UnitOfWork, job: JobRecord, *, status: str = "active"
    ) -> _Loaded | None:
        try:
            loaded = await self._load(uow, int(job.payload["game_id"]))
        except NotFoundError:
            return None
        if loaded.record.status != status or (status == "active" and loaded.engine is None):
            return None
        expected = job.payload.get("moves")
        if (
            expected is not None
            and loaded.engine is not None
            and len(loaded.engine.moves) != expected
        ):
            return None  # the game moved on since this timer was set
        return loaded

    def _job_uow(self, uow: UnitOfWork) -> None:
        """Job handlers get a bare unit of work: wake the senders ourselves."""
        uow.on_commit(self.ctx.outbox_notify)
        uow.on_commit(self.ctx.scheduler.wake)

    async def on_turn_timeout(self, uow: UnitOfWork, job: JobRecord) -> None:
        loaded = await self._job_game(uow, job)
        if loaded is not None and loaded.engine is not None and loaded.engine.status == ACTIVE:
            engine = loaded.engine
            before = len(engine.moves)
            engine.pass_turn(engine.current_seat, timed_out=True)
            await self._commit_changes(uow, loaded, before, self.ctx.clock(), actor=None)
        self._job_uow(uow)
        await uow.commit()

    async def on_reminder(self, uow: UnitOfWork, job: JobRecord) -> None:
        loaded = await self._job_game(uow, job)
        if (
            loaded is not None
            and loaded.engine is not None
            and loaded.engine.status == ACTIVE
            and not loaded.is_computer(loaded.engine.current_seat)
        ):
            seat = loaded.engine.current_seat
            due = loaded.meta.get("turn_due")
            when = relative_time(datetime.fromisoformat(due)) if due else "soon"
            where = f" in <#{loaded.home}>" if loaded.home else ""
            text = (
                f"Reminder: it's your turn in **Scrabble #{loaded.record.id}**{where}, and your turn clock runs out {when}. "
                "Play, exchange or pass before then, or the turn counts as a pass."
            )
            for user_id in loaded.seats.get(seat, []):
                uow.outbox.to_user(
                    user_id,
                    {"content": text, "fallback_content": text},
                    fallback_channel_id=loaded.home,
                )
        self._job_uow(uow)
        await uow.commit()

    async def on_ending_window(self, uow: UnitOfWork, job: JobRecord) -> None:
        loaded = await self._job_game(uow, job)
        if loaded is not None and loaded.engine is not None and loaded.engine.status == ENDING:
            before = len(loaded.engine.moves)
            loaded.engine.close_challenge_window()
            await self._commit_changes(uow, loaded, before, self.ctx.clock(), actor=None)
        self._job_uow(uow)
        await uow.commit()

    async def on_deadline(self, uow: UnitOfWork, job: JobRecord) -> None:
        loaded = await self._job_game(uow, job)
        if loaded is not None and loaded.engine is not None and loaded.engine.status != FINISHED:
            before = len(loaded.engine.moves)
            loaded.engine.end_by_deadline()
            await self._commit_changes(uow, loaded, before, self.ctx.clock(), actor=None)
        self._job_uow(uow)
        await uow.commit()

    async def prepare_computer_move(self, payload: dict[str, Any]) -> dict[str, Any] | None:
        """The computer's decision, made before its job's transaction (the scheduler's
        ``prepare`` step): a short read, then the search (and, the first time, the
        word graph's build) with no database lock held."""
        try:
            async with self.ctx.reader() as uow:
                loaded = await self._load(uow, int(payload["game_id"]))
                acts = self._computer_to_act(loaded)
        except NotFoundError:
            return None
        # A computer to act implies a game engine: the None test only tells mypy so.
        if not acts or loaded.engine is None or len(loaded.engine.moves) != payload.get("moves"):
            return None
        lexicon = await self.lexicons.get(loaded.settings.lexicon)
        return {"version": loaded.version, "move": await self._decide(loaded, lexicon)}

    def _computer_to_act(self, loaded: _Loaded) -> bool:
        engine, seat = loaded.engine, loaded.settings.computer_seat
        return (
            loaded.record.status == "active"
            and engine is not None
            and seat is not None
            and (
                (engine.status == ACTIVE and engine.current_seat == seat)
                or (engine.status == ENDING and engine.can_challenge(seat))
            )
        )

    async def _decide(self, loaded: _Loaded, lexicon: Any) -> dict[str, Any]:
        engine = loaded.require_engine()
        seat = loaded.settings.computer_seat
        assert seat is not None
        level = loaded.settings.computer_level or DEFAULT_COMPUTER_LEVEL
        seed = (
            engine.seed * 1_000_003 + len(engine.moves)
        ) % 2**62  # the same position, the same choice
        return await asyncio.to_thread(
            lambda: scrabble_ai.decide(engine, MoveGenerator(lexicon), seat, level, seed)
        )

    async def on_computer_move(
        self, uow: UnitOfWork, job: JobRecord, prepared: dict[str, Any] | None = None
    ) -> None:
        """The computer's move (prepared outside this transaction when the scheduler
        could), committed like a member's: the same checks, log, timers and board post."""
        loaded = await self._job_game(uow, job)
        if loaded is not None and self._computer_to_act(loaded):
            engine = loaded.require_engine()
            seat = loaded.settings.computer_seat
            assert seat is not None
            lexicon = await self.lexicons.get(loaded.settings.lexicon)
            if prepared is not None and prepared["version"] == loaded.version:
                move = prepared["move"]
            else:
                move = await self._decide(
                    loaded, lexicon
                )  # the game changed meanwhile: decide again
            before = len(engine.moves)
            try:
                scrabble_ai.apply_move_description(engine, seat, move, lexicon)
            except ScrabbleError:
                # The generator and the engine disagree (a bug): never stall the game on it.
                log.exception(
                    "Scrabble #%s: the computer's %s was refused; it passes",
                    loaded.record.id,
                    move["type"],
                )
                engine = ScrabbleGame.from_json(
                    loaded.record.state["engine"]
                )  # as saved, before the attempt
                loaded.engine = engine
                if engine.status == ACTIVE:
                    engine.pass_turn(seat)
                else:
                    engine.accept(seat)
            await self._commit_changes(
                uow, loaded, before, self.ctx.clock(), actor=loaded.computer_user
            )
        self._job_uow(uow)
        await uow.commit()

    # -- help from the move generator --------------------------------------------------------------

    async def hint(self, game_id: int, user_id: int, *, guild_id: int | None = None) -> str:
        """The best plays for the member's rack, privately (only in games made with hints on)."""
        async with self.ctx.reader() as uow:
            loaded, seat = await self._member_game(uow, game_id, guild_id, user_id)
            engine = loaded.require_engine()
        if not loaded.settings.hints:
            raise InvalidInputError(
                f"Scrabble #{game_id} was made without hints. Start a game with `hints: True` to get them "
                "(such games are not rated)."
            )
        if engine.status != ACTIVE:
            raise InvalidInputError(
                f"Scrabble #{game_id} isn't waiting for a move: there's nothing to hint."
            )
        lexicon = await self.lexicons.get(loaded.settings.lexicon)
        rack = engine.racks[seat]
        moves = await scrabble_ai.hint(engine.to_json(), scrabble_ai.AiOptions(lexicon), seat)
        used = await self._count_hint(game_id, user_id)
        shown = " ".join("blank" if t == "?" else t for t in rack)
        lines = [f"**Hints for Scrabble #{game_id}** (your rack: {shown})"]
        if not moves:
            lines.append(
                "No play fits your rack on this board, and the bag is too small to exchange: you can only pass."
            )
        for number, move in enumerate(moves, start=1):
            keeps = " ".join("blank" if t == "?" else t for t in move.get("leave", "")) or "nothing"
            if move["type"] == "play":
                blank = (
                    " (a lower-case letter is a blank)"
                    if any(c.islower() for c in move["word"])
                    else ""
                )
                lines.append(
                    f"{number}. **{move['main_word']}** — `/scrabble play word:{move['word']} position:{move['position']}` "
                    f"for {move['score']} points, keeping {keeps}{blank}"
                )
            else:
                tiles = " ".join("blank" if t == "?" else t for t in move["tiles"])
                lines.append(f"{number}. Exchange {tiles}, keeping {keeps}")
        if engine.current_seat != seat:
            lines.append(
                f"It's {loaded.label(engine.current_seat)}'s turn now: the board may change before yours."
            )
        lines.append(
            f"Ranked by score plus the value of the tiles kept. Hints you have asked for in this game: {used} "
            "(everyone sees the count when the game ends)."
        )
        return _clip("\n".join(lines))

    async def _count_hint(self, game_id: int, user_id: int) -> int:
        """One more hint for this member: a single UPDATE of their seat row, so it
        never conflicts with a move committed at the same moment."""
        async with self.ctx.uow() as uow:
            used = await uow.games.count_hint(game_id, user_id)
            await uow.commit()
        return used

    async def prepare_analysis(
        self, game_id: int, *, guild_id: int
    ) -> Callable[[], Awaitable[tuple[str, str]]]:
        """Check that a finished game can be analysed; the returned call does the
        work: each play beside the best play available, ``(message, full table)``.

        Two steps so a command can refuse bad input privately before it shows
        "thinking…" in public. Anyone in the club may look (a finished game's
        racks are in its GCG record too). The work runs off the event loop, one
        analysis at a time.
        """
        async with self.ctx.reader() as uow:
            loaded = await self._load(uow, game_id, guild_id)
            finished = loaded.record.status == "finished"
        if not finished or loaded.engine is None:
            raise InvalidInputError(
                f"Scrabble #{game_id} isn't finished yet: analysis is for finished games."
            )
        lexicon = await self.lexicons.get(loaded.settings.lexicon)
        engine = loaded.engine
        names = [loaded.label(seat) for seat in range(engine.seats)]

        async def run() -> tuple[str, str]:
            async with self._analysis_lock:
                analysis = await scrabble_ai.analyse_game(
                    engine.to_json(), scrabble_ai.AiOptions(lexicon)
                )
            return analysis_text(game_id, analysis, names)

        return run

    async def analyse(self, game_id: int, *, guild_id: int) -> tuple[str, str]:
        """``prepare_analysis`` and its work in one call."""
        return await (await self.prepare_analysis(game_id, guild_id=guild_id))()

    async def on_invite_expiry(self, uow: UnitOfWork, job: JobRecord) -> None:
        loaded = await self._job_game(uow, job, status="invited")
        if loaded is not None:
            await uow.games.save_state(
                loaded.record,
                expected_version=loaded.version,
                status="abandoned",
                finished_at=self.ctx.clock(),
            )
            if loaded.record.channel_id is not None:
                uow.outbox.to_channel(
                    loaded.record.channel_id,
                    {
                        "content": f"The invitation to Scrabble #{loaded.record.id} expired: not everyone accepted in time.",
                    },
                )
        self._job_uow(uow)
        await uow.commit()

    def job_handlers(self) -> dict[str, Callable[..., Any]]:
        return {
            JOB_COMPUTER: self.on_computer_move,
            JOB_TURN: self.on_turn_timeout,
            JOB_REMINDER: self.on_reminder,
            JOB_ENDING: self.on_ending_window,
            JOB_DEADLINE: self.on_deadline,
            JOB_INVITE: self.on_invite_expiry,
        }

    def job_preparers(self) -> dict[str, Callable[[dict[str, Any]], Any]]:
        """Work done before a job's transaction (see ``Scheduler.register``)."""
        return {JOB_COMPUTER: self.prepare_computer_move}


# -- text ------------------------------------------------------------------------------------------------------


def analysis_text(game_id: int, analysis: dict[str, Any], names: Sequence[str]) -> tuple[str, str]:
    """``(message, table)``: a summary with the biggest misses and, when it fits,
    the table of every turn; the whole table is also given for a file."""
    turns = analysis["turns"]
    width = max([len(n) for n in names] + [3])
    header = f"{'#':>3}  {'who':<{width}}  {'rack':<9} {'played':<20} {'pts':>4}  {'best available':<20} {'pts':>4} {'left':>4}"
    rows = [header, "-" * len(header)]
    for number, turn in enumerate(turns, start=1):
        played = (
            turn["played"]
            + (" (off)" if turn["withdrawn"] else "")
            + ("" if turn["in_word_list"] else " *")
        )
        rows.append(
            f"{number:>3}  {names[turn['seat']]:<{width}}  {turn['rack']:<9} {played:<20} {turn['score']:>4}  "
            f"{(turn['best'] or '(no play)'):<20} {turn['best_score']:>4} {turn['left_on_table']:>4}"
        )
    left = {int(seat): total for seat, total in analysis["left_on_table"].items()}
    scored: dict[int, int] = {}
    for turn in turns:
        scored[turn["seat"]] = scored.get(turn["seat"], 0) + turn["score"]
    notes = [
        "(off) = challenged off",
        "* = a word the game's word list lacks",
        "? in a rack, lower case in a word = a blank",
        "best available = the highest-scoring play for that rack on that board",
    ]
    table = "\n".join(rows + ["", "; ".join(notes)]) + "\n"
    lines = [f"**Scrabble #{game_id} — analysis**"]
    for seat, name in enumerate(names):
        lines.append(
            f"{name}: {scored.get(seat, 0)} points from plays, {left.get(seat, 0)} left on the table"
        )
    misses = sorted(
        (t for t in turns if t["left_on_table"] > 0), key=lambda t: -t["left_on_table"]
    )[:3]
    if misses:
        lines.append("Biggest misses:")
        for turn in misses:
            number = turns.index(turn) + 1
            lines.append(
                f"· turn {number}, {names[turn['seat']]}: {turn['played']} for {turn['score']}; "
                f"{turn['best']} scored {turn['best_score']} ({turn['left_on_table']} left)"
            )
    elif turns:
        lines.append("Every play was the best available. Well played!")
    message = "\n".join(lines)
    block = f"\n```\n{table}```"
    if len(message) + len(block) <= 1990:
        message += block
    else:
        message += "\nThe turn-by-turn table is attached."
    return _clip(message), table


def _clip(text: str, limit: int = 1990) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _notation(entry: dict[str, Any]) -> str:
    """Public notation for the move log (never the tiles exchanged or a rack)."""
    kind: str = entry["type"]
    if kind == "play":
        return f"{entry['position']} {entry['word']}"
    if kind == "exchange":
        return f"-{len(entry['tiles'])}"
    if kind == "pass":
        return (
            "- (timed out)"
            if entry.get("timed_out")
            else "- (lost turn)"
            if entry.get("lost_turn")
            else "-"
        )
    if kind == "challenge":
        return f"challenge: {entry['result']}"
    return kind


def describe_entries(entries: Sequence[dict[str, Any]], label: Callable[[int], str]) -> list[str]:
    """One line per logged action, in words, with nothing private in it."""
    lines: list[str] = []
    for entry in entries:
        kind = entry["type"]
        seat = entry.get("seat")
        who = f"**{label(seat)}**" if seat is not None else ""
        if kind == "play":
            new_tiles = [c for c in entry["word"] if c != "."]
            blanks = [c.upper() for c in entry["word"] if c.islower()]
            extra = []
            if len(new_tiles) >= 7:
                extra.append("bingo! (+50 included)")
            if blanks:
                extra.append(f"blank as {', '.join(blanks)}")
            others = entry["words"][1:]
            line = (
                f"{who} played **{entry['words'][0]}** at {entry['position']} for {entry['score']}"
            )
            if others:
                line += f" (also {', '.join(others)})"
            lines.append(line + (f" — {'; '.join(extra)}" if extra else "") + ".")
        elif kind == "exchange":
            count = len(entry["tiles"])
            lines.append(f"{who} exchanged {count} tile{'s' if count != 1 else ''}.")
        elif kind == "pass":
            if entry.get("timed_out"):
                lines.append(f"{who}'s turn clock ran out: the turn counts as a pass.")
            elif entry.get("lost_turn"):
                lines.append(f"{who}'s turn is skipped (failed challenge).")
            else:
                lines.append(f"{who} passed.")
        elif kind == "challenge":
            challenged = label(entry["challenged_seat"])
            if entry["result"] == "withdrawn":
                bad = ", ".join(entry["invalid_words"])
                lines.append(
                    f"{who} challenged {challenged}'s play: **{bad}** {'is' if len(entry['invalid_words']) == 1 else 'are'} "
                    f"not in the word list. The play is taken back: no points for {challenged} this turn."
                )
            else:
                lines.append(
                    f"{who} challenged {challenged}'s play: it stands, every word is in the word list."
                )
        elif kind == "accept":
            lines.append(f"{who} accepted the final play.")
        elif kind == "close":
            lines.append("Nobody challenged the final play in time: it stands.")
        elif kind == "resign":
            lines.append(f"{who} resigned.")
        elif kind == "deadline":
            lines.append(
                "The game's deadline has passed: the game ends now, unplayed tiles are deducted."
            )
        elif kind == "blocked":
            lines.append(
                "Nobody can make a play any more and the bag is too small to exchange: "
                "the game ends now, unplayed tiles are deducted."
            )
    return lines


__all__ = [
    "COMPUTER_LEVELS",
    "JOB_COMPUTER",
    "JOB_KINDS",
    "KIND",
    "RENDER_BOARD",
    "RENDER_TEXT_FILE",
    "VIEW_BOARD",
    "VIEW_INVITE",
    "ActionOutcome",
    "BoardPicture",
    "ClubLexicons",
    "GameSettings",
    "GameSummary",
    "GameView",
    "InviteOutcome",
    "LexiconCache",
    "Member",
    "NewGameRequest",
    "PositionChoice",
    "RackView",
    "ScrabbleService",
    "analysis_text",
    "describe_entries",
    "parse_duration",
    "parse_game_ref",
]
