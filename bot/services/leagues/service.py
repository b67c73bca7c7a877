"""LeagueService: a league's use cases, each one transaction.

- ``create``: the league and its first season, open for sign-up (the club's one
  sign-up list, owner_kind 'league', one list per season).
- ``join`` / ``withdraw``: a member (or pair) enters the season in sign-up; a
  withdrawal before the start takes the entry off the list, during the season it
  is the division tournament's withdrawal (unplayed games forfeited, played ones
  stand) and the member is not carried into the next season.
- ``configure``: the director's settings (weeks, division size, movers, clock).
- ``start``: the season's entrants placed in divisions (``engines.leagues.place``:
  by the last season's tiers after promotion and relegation, newcomers by rating),
  each division a tournament whose round robin starts at once, and the season's
  end as a job in the database.
- ``adjudicate``: the director decides a game still in play.
- The season's end (jobs ``JOB_SEASON_END`` at its last day, ``JOB_DIVISION_FINISHED``
  when a division's tournament is over): once both the date has come and every
  division is over, in one transaction: the tables and the moves post, each
  division's winner is recorded (``/stats``), the season is finished and the next
  one opens for sign-up with everyone who stays entered. The season's row changes
  from ``playing`` to ``finished`` in that transaction, and the next season's number
  is unique per league, so a job run again after a crash does nothing twice.
"""

from __future__ import annotations

from collections.abc import Mapping

from bot.scheduler import JobSpec
from bot.services.leagues import options as opts
from bot.services.leagues.core import Reply, Who
from bot.services.leagues.entry import Entry
from bot.services.leagues.seasons import Seasons

__all__ = ["LeagueService", "Reply", "Who"]


class LeagueService(Entry, Seasons):
    """The league use cases (see the module docstring)."""

    def job_handlers(self) -> Mapping[str, JobSpec]:
        """The league's jobs for the scheduler: a season's end, a division's finish."""
        return {
            opts.JOB_SEASON_END: JobSpec(self.on_season_end),
            opts.JOB_DIVISION_FINISHED: JobSpec(self.on_division_finished),
            opts.JOB_OPEN_DIVISION: JobSpec(
                self.on_open_division, prepare=self.prepare_open_division
            ),
        }
