"""Library Henyo: events, registration, rounds, the referee, standings, words.

A round's life: ``service.rounds.prepare`` picks the pair and the word and
stores the round as ``ready`` (with a watchdog job); the cog DMs the secret,
posts the announcement and calls ``service.rounds.begin`` with that message's
id, whose snowflake time is the start of the clock. From then on
``service.referee`` rules on what is said and pressed, and the round ends with
the guess (``guessed``), the end job (``timed_out``) or
``service.ending.disqualify``.

Timing is exact: every time comes from a Discord snowflake (the announcement,
each message, the guess), never from when the bot saw it, so a slow gateway or
a restart in the middle of a round changes no result. The end job only has to
fire *after* the deadline; it is scheduled on the bot's clock with a short
grace so that a guess sent just before the deadline has arrived by then.

The secret word is in the database and in DMs/ephemeral replies only: channel
posts reveal it once the round is over, and it is never logged.

Modules: ``options`` (what a host types), ``snapshots`` (what is returned),
``core`` (shared plumbing), ``pairs`` (an event's pairs on the club's one
sign-up list), ``events``, ``standings``, ``words``, ``rounds``
(starting), ``referee``, ``ending``, ``host`` (a round played aloud, refereed
from the host's console), and ``service`` (the composition root).
"""

from bot.services.henyo.core import JOB_KIND
from bot.services.henyo.host import ConsoleView, PressResult, ScreenRound
from bot.services.henyo.rounds import END_GRACE, START_WINDOW
from bot.services.henyo.service import HenyoService
from bot.services.henyo.snapshots import (
    ActiveRound,
    ButtonReply,
    ClosedRound,
    Disqualification,
    EventClosed,
    EventSnapshot,
    Member,
    PreparedRound,
    RefereeOutcome,
    Registration,
    RunningRound,
    StandingRow,
    Standings,
    TeamSnapshot,
    TieSnapshot,
    UnfinishedEvent,
    Withdrawal,
    WordList,
)

__all__ = [
    "END_GRACE",
    "JOB_KIND",
    "START_WINDOW",
    "ActiveRound",
    "ButtonReply",
    "ClosedRound",
    "ConsoleView",
    "Disqualification",
    "EventClosed",
    "EventSnapshot",
    "HenyoService",
    "Member",
    "PreparedRound",
    "PressResult",
    "RefereeOutcome",
    "Registration",
    "RunningRound",
    "ScreenRound",
    "StandingRow",
    "Standings",
    "TeamSnapshot",
    "TieSnapshot",
    "UnfinishedEvent",
    "Withdrawal",
    "WordList",
]
