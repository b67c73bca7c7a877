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
    """A pair in an event: who guesses, who answers, and where it stands on the list."""

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
        """The pair as messages name it: the guesser & the answerer."""
        return messages.pair_label(self.guesser.name, self.answerer.name)

    def has(self, user_id: int) -> bool:
        """Whether ``user_id`` is in this pair."""
        return user_id in (self.guesser.id, self.answerer.id)


@dataclass(frozen=True)
class EventSnapshot:
    """A Henyo event as members see it: settings, host and pairs (withdrawn ones left out)."""

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
        """The pairs that hold a slot (a disqualified pair keeps its own)."""
        return [t for t in self.teams if t.status in ("playing", "disqualified")]

    @property
    def waiting(self) -> list[TeamSnapshot]:
        """The pairs on the waiting list, in order."""
        return [t for t in self.teams if t.status == "waiting"]

    def team_of(self, user_id: int) -> TeamSnapshot | None:
        """The pair ``user_id`` is in, if any."""
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
    """A round stored as ``ready``: its pair, its secret word and its settings, for the cog to DM
    and announce."""

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
    referee: str = "typed"  # host: played aloud, refereed from the host's console

    @property
    def title(self) -> str:
        """The round's title: the pair's number (and tie-break word), or a one-off round."""
        return messages.round_title(self.event_id, self.team_position, self.stage)


@dataclass(frozen=True)
class RunningRound:
    """A round whose clock has started: when it started and when its time is up."""

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
    """The referee's ruling on one message (``kind``), and whether the round is over or the
    message must go."""

    round_id: int
    # reply | penalty | guessed | audience | question | late | early | duplicate | host | aloud
    kind: str
    round_over: bool = False
    hide_message: bool = False  # it spelled out the secret: the cog removes it
    penalties: int = 0


@dataclass(frozen=True)
class ButtonReply:
    """The answerer's Oo / Hindi / Pwede button press, as the round took it."""

    round_id: int
    reply: Reply
    answerer: Member


@dataclass(frozen=True)
class ActiveRound:
    """A round ready or running, whose channel the cog watches."""

    round_id: int
    channel_id: int
    announce_message_id: int | None
    status: str
    referee: str = "typed"  # a round played aloud: nothing in the channel is refereed


@dataclass(frozen=True)
class StandingRow:
    """One pair's line in an event's table: its status, its place, its times and penalties."""

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
    """Pairs tied for ``place``, to be settled by a word at tie-break ``level``, and the final
    time they tied on (to the tenth of a second)."""

    place: int
    level: int
    teams: list[TeamSnapshot]
    final_ms: int | None


@dataclass(frozen=True)
class Standings:
    """An event's table: the pairs' rows in order, the ties still to break, whether the event is
    decided, and who leads."""

    event: EventSnapshot
    rows: list[StandingRow]
    ties: list[TieSnapshot]
    complete: bool
    leaders: list[TeamSnapshot]


@dataclass(frozen=True)
class EventClosed:
    """A closed event: its final table and its winner (None while first place is shared)."""

    event: EventSnapshot
    standings: Standings
    winner: TeamSnapshot | None


@dataclass(frozen=True)
class WordList:
    """The word bank as a keeper sees it: the club's words, the built-in words taken out, and the
    built-in words in use (listed only when asked; always counted)."""

    club_words: list[WordEntry]
    removed_builtin: list[WordEntry]
    builtin: list[WordEntry]
    builtin_count: int
