"""BoggleService: the composition root. It builds the use cases on one core and
exposes them as attributes; cogs and tests call them there
(``service.starting.start_round(...)``, ``service.submissions.submit_dm(...)``).

- ``starting``: ``/boggle start``
- ``schedule``: ``/boggle schedule`` and the weekly job
- ``cancelling``: ``/boggle cancel``
- ``submissions``: DM'd and form lists, the round a form adds to
- ``catch_up``: the guilds a DM may concern, whose DMs to read back after a restart
- ``closing``: the open, close and score jobs
- ``results``: ``/boggle results``, ``/boggle season`` and the season's end
- ``daily``: ``/boggle daily``, its lists and the day's end (the daily grid)
- ``board``: what a member's own board page reads (their list changes go through
  ``submissions``)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from bot.context import ServiceContext
from bot.scheduler import JobSpec
from bot.services.boggle.board import BoardReading
from bot.services.boggle.cancelling import Cancelling
from bot.services.boggle.catchup import CatchUp
from bot.services.boggle.closing import Closing
from bot.services.boggle.core import BoggleCore, package_seed
from bot.services.boggle.daily import DailyGrid
from bot.services.boggle.jobs import (
    JOB_CLOSE,
    JOB_DAILY_END,
    JOB_ENTRY,
    JOB_OPEN,
    JOB_SCORE,
    JOB_SEASON,
    JOB_WEEKLY,
)
from bot.services.boggle.results import Results
from bot.services.boggle.schedule import WeeklySchedule
from bot.services.boggle.starting import Starting
from bot.services.boggle.submissions import Submissions


class BoggleService:
    """Boggle's use cases, one attribute per part of a round's life (see the module docstring)."""

    def __init__(self, ctx: ServiceContext, *, seeds: Callable[[], int] = package_seed) -> None:
        """``seeds`` gives each new round's dice seed (a fixed one makes a known grid)."""
        self.ctx = ctx
        self.core = BoggleCore(ctx, seeds)
        self.daily = DailyGrid(self.core)
        self.starting = Starting(self.core)
        self.schedule = WeeklySchedule(self.core)
        self.cancelling = Cancelling(self.core)
        self.submissions = Submissions(self.core, self.daily)
        self.catch_up = CatchUp(self.core)
        self.closing = Closing(self.core)
        self.results = Results(self.core)
        self.board = BoardReading(self.core)

    def job_handlers(self) -> Mapping[str, JobSpec]:
        """Boggle's jobs for the scheduler: a round's open, close and score, the weekly round and
        the season's end."""
        return {
            JOB_OPEN: JobSpec(self.closing.on_round_open),
            JOB_CLOSE: JobSpec(self.closing.on_round_close),
            JOB_SCORE: JobSpec(self.closing.on_round_score),
            JOB_ENTRY: JobSpec(self.closing.on_entry_open),
            JOB_WEEKLY: JobSpec(self.schedule.on_weekly_round),
            JOB_SEASON: JobSpec(self.results.on_season_end),
            JOB_DAILY_END: JobSpec(self.daily.on_day_end),
        }
