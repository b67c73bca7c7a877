"""Word Boggle rounds: start, weekly schedules, DM'd and form submissions,
closing, scoring, results and seasons.

A round's life (each arrow one committed transaction):

* ``scheduled`` — a weekly schedule created it ahead of time (an announcement
  goes out ``ANNOUNCE_LEAD`` before it opens); ``/boggle start`` skips this.
* ``open`` — the grid is rolled from the stored seed and posted (through the
  outbox) with a countdown; the close job is set for ``ends_at`` plus a short
  grace, so a DM *sent* before the end but *delivered* just after still counts.
  A round played in the room (``where: room``, issue #29) is written on paper:
  its ``ends_at`` is its countdown plus ``entry_s`` to type the lists, and a job
  at the countdown's end (``JOB_ENTRY``) tells the channel to type them now.
* ``closed`` — the close job froze the lists: from now on nothing is added.
* ``scored`` — the score job judged every list with the engine, recorded points
  for the leaderboard and the season, and posted the results.

The package, along its seams: ``options`` (inputs and limits), ``snapshots`` (what
the use cases return), ``core`` (what they share: opening a round, the seed,
the after-commit hooks), ``jobs`` (job kinds and keys), ``seasons`` (the
season kept in the guild's settings), one module per lifecycle (``starting``,
``schedule``, ``cancelling``, ``submissions``, ``catchup``, ``closing``,
``results``) and ``service`` (``BoggleService``, which builds them). Nothing
here imports discord or SQLAlchemy: the use cases read and write through
``uow.boggle`` and return plain results; their text is in ``bot.messages.boggle``.
"""

from bot.services.boggle.catchup import CATCH_UP_PER_GUILD
from bot.services.boggle.closing import round_summary, timely_words
from bot.services.boggle.core import (
    ANNOUNCE_LEAD,
    CLOSE_GRACE,
    LATE_NOTE_WINDOW,
    MISSED_AFTER,
    new_seed,
)
from bot.services.boggle.jobs import (
    JOB_CLOSE,
    JOB_ENTRY,
    JOB_KINDS,
    JOB_OPEN,
    JOB_SCORE,
    JOB_SEASON,
    JOB_WEEKLY,
)
from bot.services.boggle.options import (
    DEFAULT_DURATION_S,
    DEFAULT_ENTRY_S,
    DEFAULT_SEASON_TARGET,
    MAX_DURATION_S,
    MAX_SEASON_TARGET,
    MIN_DURATION_S,
    MIN_SEASON_TARGET,
    ROUND_DURATION,
    SEASON_RESETS,
    SIZES,
    RoundOptions,
    club_zone,
    next_season_boundary,
    next_weekly_occurrence,
    parse_clock_time,
    resolve_options,
    round_seconds,
)
from bot.services.boggle.service import BoggleService
from bot.services.boggle.snapshots import (
    CancelOutcome,
    CatchUpTarget,
    DmGuilds,
    DmOutcome,
    HostEntry,
    LateNote,
    OpenList,
    ResultsSnapshot,
    RoundInfo,
    ScheduleInfo,
    SeasonEnd,
    SeasonInfo,
    Standing,
    SubmissionReceipt,
)
from bot.services.boggle.submissions import MAX_MESSAGES_PER_LIST, MAX_WORDS_PER_LIST

__all__ = [
    "ANNOUNCE_LEAD",
    "CATCH_UP_PER_GUILD",
    "CLOSE_GRACE",
    "DEFAULT_DURATION_S",
    "DEFAULT_ENTRY_S",
    "DEFAULT_SEASON_TARGET",
    "JOB_CLOSE",
    "JOB_ENTRY",
    "JOB_KINDS",
    "JOB_OPEN",
    "JOB_SCORE",
    "JOB_SEASON",
    "JOB_WEEKLY",
    "LATE_NOTE_WINDOW",
    "MAX_DURATION_S",
    "MAX_MESSAGES_PER_LIST",
    "MAX_SEASON_TARGET",
    "MAX_WORDS_PER_LIST",
    "MIN_DURATION_S",
    "MIN_SEASON_TARGET",
    "MISSED_AFTER",
    "ROUND_DURATION",
    "SEASON_RESETS",
    "SIZES",
    "BoggleService",
    "CancelOutcome",
    "CatchUpTarget",
    "DmGuilds",
    "DmOutcome",
    "HostEntry",
    "LateNote",
    "OpenList",
    "ResultsSnapshot",
    "RoundInfo",
    "RoundOptions",
    "ScheduleInfo",
    "SeasonEnd",
    "SeasonInfo",
    "Standing",
    "SubmissionReceipt",
    "club_zone",
    "new_seed",
    "next_season_boundary",
    "next_weekly_occurrence",
    "parse_clock_time",
    "resolve_options",
    "round_seconds",
    "round_summary",
    "timely_words",
]
