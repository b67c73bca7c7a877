"""``ScrabbleService``: the composition root of Scrabble's use cases.

Cogs and tests call them through its attributes: ``service.invitations``
(create, create_seated for callers that give the seats, accept, decline,
start), ``service.moves`` (play, exchange, pass_turn,
resign, challenge, accept_play), ``service.reading`` (board, rack, games_for,
export, position_choices…), ``service.finder`` (which game a command means, and
the ``game`` autocomplete), ``service.timers``, ``service.computer`` (the
computer's seat, hints, analysis) and ``service.lookups`` (``/scrabble check
words``). ``job_handlers()`` gives the scheduler its jobs.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from bot.context import ServiceContext
from bot.scheduler import JobSpec
from bot.services.board_address import BoardAddresses
from bot.services.definitions import Definitions, open_definitions
from bot.services.scrabble.announce import Announcer
from bot.services.scrabble.computer import Computer
from bot.services.scrabble.core import (
    JOB_COMPUTER,
    JOB_DEADLINE,
    JOB_ENDING,
    JOB_INVITE,
    JOB_REMINDER,
    JOB_TURN,
    ScrabbleCore,
)
from bot.services.scrabble.invitations import Invitations
from bot.services.scrabble.lexicons import ClubLexicons, WordLists
from bot.services.scrabble.lookups import Lookups
from bot.services.scrabble.moves import Moves
from bot.services.scrabble.reading import Reading
from bot.services.scrabble.timers import Timers


class ScrabbleService:
    """Scrabble's use cases on one core; cogs and tests call them through its attributes."""

    def __init__(
        self,
        ctx: ServiceContext,
        *,
        rng: random.Random | None = None,
        lexicons: WordLists | None = None,
        definitions: Callable[[], Definitions | None] | None = None,
    ) -> None:
        # No setting names a dictionary yet: an installed GCIDE is looked for.
        path: str | None = getattr(ctx.settings, "definitions_path", None)
        self.ctx = ctx
        self.core = ScrabbleCore(
            ctx,
            rng=rng or random.SystemRandom(),
            lexicons=lexicons or ClubLexicons(ctx),
            announce=Announcer(
                definitions or (lambda: open_definitions(path)), BoardAddresses(ctx)
            ),
        )
        self.invitations = Invitations(self.core)
        self.moves = Moves(self.core)
        self.reading = Reading(self.core)
        self.finder = self.reading.finder
        self.timers = Timers(self.core)
        self.computer = Computer(self.core)
        self.lookups = Lookups(self.core, self.invitations.word_lists)

    def job_handlers(self) -> dict[str, JobSpec]:
        """Scrabble's jobs for the scheduler: each kind's handler (the computer's with its
        prepare step)."""
        timers = self.timers
        return {
            JOB_COMPUTER: JobSpec(
                self.computer.on_computer_move, prepare=self.computer.prepare_move
            ),
            JOB_TURN: JobSpec(timers.on_turn_timeout),
            JOB_REMINDER: JobSpec(timers.on_reminder),
            JOB_ENDING: JobSpec(timers.on_ending_window),
            JOB_DEADLINE: JobSpec(timers.on_deadline),
            JOB_INVITE: JobSpec(timers.on_invite_expiry),
        }
