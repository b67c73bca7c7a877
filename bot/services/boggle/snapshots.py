"""What the Boggle use cases return: plain, frozen data a cog renders (with
``bot.messages.boggle``), and the stored JSON shapes they carry."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta

from bot.db.models_boggle import BoggleRoundRecord
from bot.messages.boggle import PreviousSeason, RoundSummary
from bot.services.boggle.options import RoundOptions
from engines.boggle import Grid


@dataclass(frozen=True)
class RoundInfo:
    """A Boggle round as members see it: its number, channel, status, settings, times and grid
    (None until it opens)."""

    id: int
    guild_id: int
    number: int
    channel_id: int
    status: str
    size: int
    dice: str
    min_length: int
    duration_s: int
    opens_at: datetime
    ends_at: datetime | None  # when its lists close
    grid: str | None
    entry_s: int = 0  # played in the room: the time to type the lists, after the countdown

    @property
    def countdown_ends_at(self) -> datetime | None:
        """When the countdown ends (pens down, in the room): ``ends_at`` less the time
        to type the lists."""
        if self.ends_at is None:
            return None
        return self.ends_at - timedelta(seconds=self.entry_s)

    @property
    def rows(self) -> tuple[tuple[str, ...], ...]:
        """Faces as printed ("Qu", "A"), row by row; empty until the round opens."""
        return Grid.parse(self.grid).rows if self.grid else ()

    @classmethod
    def of(cls, record: BoggleRoundRecord) -> RoundInfo:
        """The round as its row stands."""
        return cls(
            record.id,
            record.guild_id,
            record.number,
            record.channel_id,
            record.status,
            record.size,
            record.dice,
            record.min_length,
            record.duration_s,
            record.opens_at,
            record.ends_at,
            record.grid,
            record.entry_s or 0,
        )


@dataclass(frozen=True)
class ScheduleInfo:
    """The guild's weekly round as set: the day, the club's time and zone, the next round and its
    options (``replaced``: it replaced a running schedule)."""

    guild_id: int
    channel_id: int
    weekday: int
    local_time: str
    timezone: str
    next_at: datetime
    options: RoundOptions
    replaced: bool
    entry_s: int = 0  # played in the room: each round's time to type the lists


@dataclass(frozen=True)
class SubmissionReceipt:
    """What one message did to a member's list in one round (the reply to a DM or a form)."""

    round_id: int
    round_number: int
    guild_id: int
    guild_name: str
    channel_id: int
    ends_at: datetime
    new_words: int  # words not on the list before this message
    total_words: int  # distinct words on the list now
    removed_words: int = 0  # words taken off the list (on the board page)
    repeated: bool = False  # this very message was stored before (a replay)
    full: bool = False  # the list hit its cap; some words were not added
    # Tokens of this message left out: not letters (as written), longer than the grid spells.
    not_letters: tuple[str, ...] = ()
    too_long: tuple[str, ...] = ()
    longest: int = 0  # the most letters a word on this round's grid can have
    # A games event's round played in pairs (boggle.pairs): "pair" for a pair's
    # member, "outside" for anyone else (the list is kept, not judged); else "".
    pairs: str = ""


@dataclass(frozen=True)
class HostEntry:
    """A paper list the host typed for a member (``/boggle enter``): the receipt of that
    entry on the member's list, and the words it read (what the member is told by DM)."""

    receipt: SubmissionReceipt
    member_id: int
    words: tuple[str, ...]


@dataclass(frozen=True)
class LateNote:
    """A round a DM came too late for: the member is told which, and when it ended."""

    round_number: int
    guild_name: str
    channel_id: int
    ended_at: datetime

    @classmethod
    def of(cls, record: BoggleRoundRecord, guild_name: str) -> LateNote:
        """The note for the round as its row stands."""
        return cls(record.number, guild_name, record.channel_id, record.ends_at or record.opens_at)


@dataclass(frozen=True)
class OpenList:
    """A round a member's DMs go to now (its number and the guild's name)."""

    round_number: int
    guild_name: str


@dataclass(frozen=True)
class DailyReceipt:
    """What a message added to a member's list for the day's grid."""

    daily_id: int
    guild_id: int
    guild_name: str
    day: str
    ends_at: datetime
    new_words: int
    total_words: int
    repeated: bool = False
    full: bool = False


@dataclass(frozen=True)
class DailyLate:
    """A message sent after the member's countdown: not counted."""

    guild_name: str
    day: str
    ended_at: datetime
    day_ends_at: datetime


@dataclass
class DailyDm:
    """What a DM did for the daily grid: receipts, and notes for countdowns that had ended."""

    receipts: list[DailyReceipt] = field(default_factory=list)
    late: list[DailyLate] = field(default_factory=list)


@dataclass(frozen=True)
class DmGuilds:
    """Where a DM may belong, as one read found it (``CatchUp.guilds_taking_dms``): the
    guilds with a round open or lately ended, or a member's daily countdown lately; and
    whether its sender has a countdown of their own among those."""

    guild_ids: list[int]
    own_daily: bool


@dataclass(frozen=True)
class DmOutcome:
    """What a DM did: a receipt for each round it added to, a note for each it came too late for."""

    receipts: list[SubmissionReceipt] = field(default_factory=list)
    late: list[LateNote] = field(default_factory=list)
    # The daily grid's (``bot.services.boggle.daily``).
    daily: list[DailyReceipt] = field(default_factory=list)
    daily_late: list[DailyLate] = field(default_factory=list)

    @property
    def no_round(self) -> bool:
        """Whether the DM concerned no round (neither a receipt nor a late note)."""
        return not self.receipts and not self.late and not self.daily and not self.daily_late


@dataclass(frozen=True)
class CancelOutcome:
    """What ``/boggle cancel`` stopped: a round (and whether the schedule still runs), or the
    schedule (and the round it had announced)."""

    what: str  # "round" | "schedule"
    round_number: int | None = None
    round_status: str | None = None  # what the round was when cancelled: "open" | "scheduled"
    channel_id: int | None = None
    schedule_next_at: datetime | None = None  # the schedule still runs: its next round
    schedule_remains: bool = False
    also_cancelled_round: int | None = None  # a scheduled round stopped with its schedule


@dataclass(frozen=True)
class Standing:
    """A player's line in the season's table: points, rounds played and wins."""

    player_id: int
    name: str
    points: float
    rounds: int
    wins: int


@dataclass(frozen=True)
class SeasonEnd:
    """A season just ended: its number, its winners and their points, why, and the next season's
    number."""

    number: int
    winners: list[tuple[int, str]]
    points: float
    reason: str  # "target" | "moderator" | "schedule"
    next_number: int


@dataclass(frozen=True)
class SeasonInfo:
    """The season as members see it: its target, reset rhythm and next reset, its table, and how
    the last one ended."""

    number: int
    started_at: datetime
    target: int
    every: str
    next_reset_at: datetime | None
    standings: list[Standing] = field(default_factory=list)
    ended: SeasonEnd | None = None
    previous: PreviousSeason | None = None


@dataclass(frozen=True)
class ResultsSnapshot:
    """``/boggle results``: the last scored round as posted, the round open or announced, and the
    season."""

    last: RoundSummary | None  # the last scored round's stored summary
    running: RoundInfo | None
    season: SeasonInfo


@dataclass(frozen=True)
class CatchUpTarget:
    """A player whose DMs are read back after a restart, and from where.

    ``after_message_id``: the last DM of their list the bot handled before it
    went down. ``since``: none (no list yet, or only DMs that arrived live
    since the restart), so whatever they sent after the round opened (for a
    member of two guilds playing, the earlier opening).
    """

    user_id: int
    after_message_id: int | None = None
    since: datetime | None = None

    @property
    def start(self) -> int | datetime:
        """Where to read from: after this message id, or after this moment."""
        if self.after_message_id is not None:
            return self.after_message_id
        assert self.since is not None
        return self.since
