"""Club sessions (the society's practice nights), ``open → formed → started → ended``:

- ``open``: a moderator opens the session with its options; members sign up
  (the one sign-up mechanism, ``bot.services.signups``; a member may name a
  partner) or the moderator names them;
- ``start`` (first): the groups are formed from a stored seed (``engines.sessions``)
  and shown; the moderator may ``swap`` two members;
- ``start`` (again): every board is a Scrabble game with its seats accepted;
  one ``JOB_OPEN_BOARD`` per board makes its thread (outside the transaction,
  through the cog's ``thread_opener``) and posts the first board there, and the
  last to open posts where everyone plays; ``JOB_DEADLINE`` is due at the
  session's deadline;
- the deadline (or ``end``): every board ends in one transaction, unplayed tiles
  deducted (each game's own finish records results and ratings), and the
  results post ranks every pair across boards by final score, then spread.

Every step is a committed row or a job, so a restart anywhere (sign-ups, formed
groups, boards half-open, running boards, the deadline) loses nothing.

Explain the word: each play's post asks the pair to explain it (an Explain
button in the thread); ``explain`` keeps the explanation per play
(``word_explanations``) and shows it in the thread; ``results`` lists, for the
moderator, which plays were explained.
"""

from __future__ import annotations

import random

from bot.context import ServiceContext
from bot.scheduler import JobSpec
from bot.services.scrabble.service import ScrabbleService
from bot.services.sessions.core import JOB_DEADLINE, JOB_OPEN_BOARD, JOB_WATCH, SessionCore
from bot.services.sessions.entry import SessionEntry
from bot.services.sessions.explaining import SessionExplaining
from bot.services.sessions.forming import SessionForming
from bot.services.sessions.reading import SessionReading
from bot.services.sessions.running import SessionRunning
from bot.services.sessions.tally import SessionTallying


class SessionService:
    """A club session's stages, one object each: ``entry`` (open, sign up, withdraw),
    ``forming`` (start, swap), ``running`` (the boards' jobs, end), ``reading``
    (results, ranking), ``explaining`` (Explain the word) and ``tally`` (boards over
    the board, in the room: entries, corrections, the tally)."""

    def __init__(
        self, ctx: ServiceContext, scrabble: ScrabbleService, *, rng: random.Random | None = None
    ) -> None:
        self.core = SessionCore(ctx, scrabble, rng or random.SystemRandom())
        self.entry = SessionEntry(self.core)
        self.forming = SessionForming(self.core)
        self.reading = SessionReading(self.core)
        self.running = SessionRunning(self.core, self.reading)
        self.explaining = SessionExplaining(self.core)
        self.tally = SessionTallying(self.core, self.reading)

    def job_handlers(self) -> dict[str, JobSpec]:
        """The session jobs the scheduler runs, by kind."""
        return {
            JOB_OPEN_BOARD: JobSpec(
                self.running.on_open_board, prepare=self.running.prepare_open_board
            ),
            JOB_DEADLINE: JobSpec(self.running.on_deadline),
            JOB_WATCH: JobSpec(self.running.on_watch),
        }
