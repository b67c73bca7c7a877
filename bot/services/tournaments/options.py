"""What a tournament is made with, checked, and the names its jobs and posts use."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import timedelta
from typing import Any, Literal, TypedDict

from bot.errors import InvalidInputError
from bot.messages import tournament_room as room_msg
from bot.messages import tournaments as msg
from bot.services.durations import read_required_duration
from bot.services.tournaments.hooks import JOB_GAME_FINISHED as JOB_GAME_FINISHED
from engines.durations import Duration

GameKind = Literal["chess", "scrabble"]
Format = Literal["round_robin", "swiss", "knockout"]
GAME_KINDS: tuple[GameKind, ...] = ("chess", "scrabble")
FORMATS: tuple[Format, ...] = ("round_robin", "swiss", "knockout")
ENTRY_KINDS = ("button", "named")
# A Swiss's pairing engine (options["pairing"]).
DUTCH = "dutch"  # the FIDE Dutch system (caissify-pairings): chess only
CLUB_ENGINE = "clubbot"  # the club's own matching (engines.pairings.swiss)
PAIRING_ENGINES = (DUTCH, CLUB_ENGINE)


JOB_ROUND_DEADLINE = "tournament.round_deadline"
JOB_OPEN_ROUND = "tournament.open_round"
VIEW_ENTRY = "tournament_entry"  # the sign-up post's Join / Check in buttons
VIEW_REPORT = "tournament_report"  # over the board: a round's post's I won / Draw / I lost

MIN_ENTRANTS = 2
MAX_ENTRANTS = 64
MAX_SWISS_ROUNDS = 15
# Discord keeps at most 1000 active threads in a server; a round's games each take one.
MAX_THREADS_PER_ROUND = 500

ROUND_DEADLINE = Duration("the round deadline", "d", timedelta(minutes=5), timedelta(days=60))
EXTENSION = Duration("the extension", "h", timedelta(minutes=1), timedelta(days=30))
DEFAULT_DEADLINE = {"chess": "7d", "scrabble": "7d"}


class StoredOptions(TypedDict, total=False):
    """A tournament's ``options`` column: its seed, its games' settings, the deadline, the entry
    and the pairing engine."""

    seed: int
    time_control: str | None
    deadline_seconds: int
    rated: bool
    entry: str
    checkin: bool
    team_size: int
    named: list[int]
    signup_message_id: int | None
    pairing: str  # a Swiss's engine: "dutch" (chess) or "clubbot"
    where: str  # "room": played over the board, results reported (``room``); else in Discord
    reports: dict[str, dict[str, Any]]  # over the board: "round:board" -> its reports (``room``)


@dataclass(frozen=True)
class NewTournament:
    """``/tournament new``'s options, as typed."""

    guild_id: int
    guild_name: str
    channel_id: int
    creator_id: int
    creator_name: str
    game: str
    format: str
    rounds: int | None = None
    time_control: str | None = None
    deadline: str | None = None
    rated: bool = True
    entry: str = "button"
    checkin: bool = False
    pairs: bool = False
    name: str | None = None
    pairing: str | None = None  # a Swiss's engine: dutch (chess's default) or clubbot
    where: str | None = None  # "room": chess over the board (results reported by the players)
    is_moderator: bool = True  # only moderators make tournaments (then direct them)
    in_thread: bool = False  # asked inside a thread, where the games' threads can't go


def read_kind(game: str) -> GameKind:
    """The game a tournament is of, as typed: chess or Scrabble."""
    value = game.strip().lower()
    if value not in GAME_KINDS:
        raise InvalidInputError(msg.UNKNOWN_GAME)
    return "chess" if value == "chess" else "scrabble"


def read_format(fmt: str) -> Format:
    """The format as typed: round robin, Swiss or knockout (or their short names)."""
    value = fmt.strip().lower().replace(" ", "_").replace("-", "_")
    aliases: dict[str, Format] = {
        "rr": "round_robin",
        "round_robin": "round_robin",
        "roundrobin": "round_robin",
        "swiss": "swiss",
        "knockout": "knockout",
        "ko": "knockout",
    }
    if value not in aliases:
        raise InvalidInputError(msg.UNKNOWN_FORMAT)
    return aliases[value]


def read_deadline(text: str | None, kind: GameKind) -> timedelta:
    """A round's deadline as typed, or the game's default."""
    return read_required_duration(ROUND_DEADLINE, text or DEFAULT_DEADLINE[kind])


def read_extension(text: str) -> timedelta:
    """An extension of a round's deadline, as typed."""
    return read_required_duration(EXTENSION, text)


def read_rounds(fmt: Format, rounds: int | None) -> int:
    """Swiss needs its number of rounds; the others know theirs at the start (0)."""
    if fmt != "swiss":
        return 0
    if rounds is None or not 1 <= rounds <= MAX_SWISS_ROUNDS:
        raise InvalidInputError(msg.swiss_rounds(MAX_SWISS_ROUNDS))
    return rounds


def read_pairing(kind: GameKind, fmt: Format, pairing: str | None) -> str | None:
    """A Swiss's pairing engine: the FIDE Dutch system for chess unless the director
    picks the club's own; Scrabble has the club's only. Other formats have none."""
    if pairing is None:
        if fmt != "swiss":
            return None
        return DUTCH if kind == "chess" else CLUB_ENGINE
    value = pairing.strip().lower()
    if value not in PAIRING_ENGINES:
        raise InvalidInputError(msg.UNKNOWN_PAIRING)
    if fmt != "swiss":
        raise InvalidInputError(msg.PAIRING_SWISS_ONLY)
    if value == DUTCH and kind != "chess":
        raise InvalidInputError(msg.DUTCH_CHESS_ONLY)
    return value


WHERE = ("discord", "room")
ROOM = "room"


def read_where(kind: GameKind, where: str | None) -> str | None:
    """Where the games are played: in Discord (None) or over the board in the room (``room``,
    chess only: the players report each result)."""
    value = (where or "discord").strip().lower()
    if value not in WHERE:
        raise InvalidInputError(room_msg.UNKNOWN_WHERE)
    if value != ROOM:
        return None
    if kind != "chess":
        raise InvalidInputError(room_msg.ROOM_CHESS_ONLY)
    return ROOM


def is_room(options: Mapping[str, Any]) -> bool:
    """Whether a tournament (its stored options) is played over the board."""
    return options.get("where") == ROOM


def game_finished_key(game_id: int) -> str:
    """The key of the job telling the tournament a game finished (``hooks`` spells it too)."""
    return f"tournament:game:{game_id}"


def deadline_key(tournament_id: int) -> str:
    """The key of the tournament's round-deadline job (one per tournament; extending moves it)."""
    return f"tournament:deadline:{tournament_id}"


def open_round_key(tournament_id: int, round_number: int) -> str:
    """The start of the key of the job that opens a round's games (``make_games`` adds the
    round's last board, so replays get a job of their own)."""
    return f"tournament:open:{tournament_id}:{round_number}"
