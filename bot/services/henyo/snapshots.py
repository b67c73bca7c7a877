"""What the Henyo use cases return: plain, frozen results a cog renders.

None of them holds the secret word except ``PreparedRound`` (the cog DMs it to
the answerer and the host, and never posts it in a channel).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from bot.messages import henyo as messages
from engines.henyo import Reply, WordEntry


@dataclass(frozen=True)
class Member:
    """A Discord member as Henyo knows them: the id and the display name."""

    id: int
    name: str


@dataclass(frozen=True)
class TeamSnapshot:
    id: int
    position: int
    guesser: Member
    answerer: Member
    status: str  # playing | waiting | withdrawn | disqualified
    # As members read it: the place in the playing list (1, 2, 3… without gaps,
    # in the order pairs play) or on the waiting list; ``position`` is the
    # registration order, which keeps the gaps of withdrawn pairs.
    number: int = 0

    @property
    def label(self) -> str:
        return messages.pair_label(self.guesser.name, self.answerer.name)

    def has(self, user_id: int) -> bool:
        return user_id in (self.guesser.id, self.answerer.id)


@dataclass(frozen=True)
class EventSnapshot:
    id: int
    guild_id: int
    channel_id: int
    host: Member
    status: str
    pairs: int
    time_limit_ms: int
    penalty_ms: int
    categories: tuple[str, ...]
    language: str
    list_message_id: int | None
    teams: list[TeamSnapshot]
    strict: bool = False  # bare Oo / Hindi / Pwede only

    @property
    def playing(self) -> list[TeamSnapshot]:
        return [t for t in self.teams if t.status in ("playing", "disqualified")]

    @property
    def waiting(self) -> list[TeamSnapshot]:
        return [t for t in self.teams if t.status == "waiting"]

    def team_of(self, user_id: int) -> TeamSnapshot | None:
        return next((t for t in self.teams if t.has(user_id)), None)


@dataclass(frozen=True)
class Registration:
    """A pair registered: the event as it now stands, and the pair (playing or waiting)."""

    event: EventSnapshot
    team: TeamSnapshot


@dataclass(frozen=True)
class Withdrawal:
    """A pair withdrew; ``moved_up`` is the waiting pair that took its slot, if any."""

    event: EventSnapshot
    team: TeamSnapshot
    moved_up: TeamSnapshot | None


@dataclass(frozen=True)
class UnfinishedEvent:
    """``/henyo event close`` while pairs still have to play: the host confirms first."""

    event: EventSnapshot
    not_played: list[TeamSnapshot]
    tie_break: list[TeamSnapshot]  # tied pairs still to play a tie-break word


@dataclass(frozen=True)
class PreparedRound:
    round_id: int
    guild_id: int
    channel_id: int
    event_id: int | None
    team_position: int | None
    stage: int
    host: Member
    guesser: Member
    answerer: Member
    word: str
    category: str | None
    time_limit_ms: int
    penalty_ms: int
    planned_end: datetime
    host_set_word: bool = False
    strict: bool = False  # bare Oo / Hindi / Pwede only: the polite forms cost a penalty

    @property
    def title(self) -> str:
        return messages.round_title(self.event_id, self.team_position, self.stage)


@dataclass(frozen=True)
class RunningRound:
    round_id: int
    channel_id: int
    announce_message_id: int
    started_at: datetime
    ends_at: datetime


@dataclass(frozen=True)
class ClosedRound:
    """Told to listeners after a round's end commits (the cog tidies its buttons)."""

    round_id: int
    channel_id: int
    announce_message_id: int | None
    status: str


@dataclass(frozen=True)
class Disqualification:
    """A pair disqualified: with its round ended (``round``), or between rounds."""

    event_id: int | None
    team: TeamSnapshot | None
    round: ClosedRound | None


@dataclass(frozen=True)
class RefereeOutcome:
    round_id: int
    kind: str  # reply | penalty | guessed | audience | question | late | early | duplicate | host
    round_over: bool = False
    hide_message: bool = False  # it spelled out the secret: the cog removes it
    penalties: int = 0


@dataclass(frozen=True)
class ButtonReply:
    round_id: int
    reply: Reply
    answerer: Member


@dataclass(frozen=True)
class ActiveRound:
    round_id: int
    channel_id: int
    announce_message_id: int | None
    status: str


@dataclass(frozen=True)
class StandingRow:
    team: TeamSnapshot
    status: str  # ranked | eliminated | disqualified | not_played
    place: int | None
    tied: bool
    final_ms: int | None
    elapsed_ms: int | None
    penalties: int
    tiebreaks: tuple[int | None, ...]  # each tie-break word's final time (None: ran out of time)


@dataclass(frozen=True)
class TieSnapshot:
    place: int
    level: int
    teams: list[TeamSnapshot]
    final_ms: int | None


@dataclass(frozen=True)
class Standings:
    event: EventSnapshot
    rows: list[StandingRow]
    ties: list[TieSnapshot]
    complete: bool
    leaders: list[TeamSnapshot]


@dataclass(frozen=True)
class EventClosed:
    event: EventSnapshot
    standings: Standings
    winner: TeamSnapshot | None


@dataclass(frozen=True)
class WordList:
    club_words: list[WordEntry]
    removed_builtin: list[WordEntry]
    builtin: list[WordEntry]
    builtin_count: int
