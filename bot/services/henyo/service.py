"""HenyoService: the composition root of Library Henyo's use cases.

Cogs and tests call them through its attributes:

- ``events``: open, register, withdraw, close (and the live list's message);
- ``standings``: an event's table;
- ``words``: the club's word bank;
- ``rounds``: prepare a round, begin it at its announcement, cancel it;
- ``referee``: rule on each message and reply button of a running round;
- ``ending``: the end job (time up) and disqualifying a pair;
- ``host``: a round played aloud, refereed from the host's console (presses,
  undo, the screen's switch and the screen's public view).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping

from bot.scheduler import JobSpec
from bot.services import ServiceContext
from bot.services.henyo.core import JOB_KIND, HenyoCore
from bot.services.henyo.ending import RoundEnding
from bot.services.henyo.events import Events
from bot.services.henyo.host import HostReferee
from bot.services.henyo.referee import Referee
from bot.services.henyo.rounds import RoundStarts
from bot.services.henyo.snapshots import ClosedRound
from bot.services.henyo.standings import EventStandings
from bot.services.henyo.words import WordBank


class HenyoService:
    """Library Henyo's use cases, one attribute per part of the game (see the module docstring)."""

    def __init__(self, ctx: ServiceContext, rng: random.Random | None = None) -> None:
        self.ctx = ctx
        self.core = HenyoCore(ctx, rng)
        self.standings = EventStandings(self.core)
        self.events = Events(self.core, self.standings)
        self.words = WordBank(self.core)
        self.rounds = RoundStarts(self.core, self.words)
        self.ending = RoundEnding(self.core, self.standings)
        self.referee = Referee(self.core, self.ending, self.standings)
        self.host = HostReferee(self.core, self.ending, self.standings)

    @property
    def round_closed_listeners(self) -> list[Callable[[ClosedRound], None]]:
        """Called after a round's end commits (the cog takes the reply buttons off)."""
        return self.core.round_closed_listeners

    def job_handlers(self) -> Mapping[str, JobSpec]:
        """Henyo's job for the scheduler: a round's watchdog and end (``ending.on_round_end``)."""
        return {JOB_KIND: JobSpec(self.ending.on_round_end)}
