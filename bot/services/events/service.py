"""EventService: a games event's use cases, each one committed transaction.

Every change claims the event's version first (``bump``), so two hosts acting at
once apply once: the second retries from a fresh read and is then told why not
(the round has started, the event is closed). Registration and withdrawal are
the club's one sign-up list (``bot.services.signups``), which has its own
compare-and-set; pairs that move up are told by DM (a mention in the event's
channel when their DMs are closed), through the outbox, in the same commit.
"""

from __future__ import annotations

from collections.abc import Callable

from bot.services import ServiceContext
from bot.services.boggle import BoggleService
from bot.services.events.closing import KIND, EventClosing
from bot.services.events.core import EventCore, Member
from bot.services.events.entry import EventEntry
from bot.services.events.reading import EventReading
from bot.services.events.running import EventRunning
from bot.services.tournaments.service import TournamentService

__all__ = ["KIND", "EventService", "Member"]


class EventService:
    """A games event's stages, one object each: ``entry`` (open, register, withdraw),
    ``running`` (rounds, prizes), ``reading`` (standings) and ``closing`` (close).
    ``boggle`` and ``tournaments`` are the games' own services (the cog hands them
    over when it runs a round: they are loaded by their own cogs)."""

    def __init__(
        self,
        ctx: ServiceContext,
        *,
        boggle: Callable[[], BoggleService | None] = lambda: None,
        tournaments: Callable[[], TournamentService | None] = lambda: None,
    ) -> None:
        self.core = EventCore(ctx, boggle=boggle, tournaments=tournaments)
        self.entry = EventEntry(self.core)
        self.running = EventRunning(self.core)
        self.reading = EventReading(self.core)
        self.closing = EventClosing(self.core, self.reading)
