"""Paper for a night in the room (issue #29): the pages a director prints.

A tournament round's (or a games event's Scrabble or chess round's, which is a
tournament) pairings with a space for each result, a chess round's result slips,
the standings after a round; a club session's score sheets (one a board, a tally
table to fill in by hand) and its results across the boards. They are pages of
the club's page (its secret address, ``/club web``), each reached from a "Print"
link on the page it belongs to, and read through the same ``ClubPages``: only
what those pages show already (names, pairings, results; never a rack).

The paper is A4 or Letter: ``?paper=a4|letter``, else the club's by its time
zone (Letter in the Americas' zones and the Philippines', where "short bond" is
Letter; A4 elsewhere). The page size, its margins and the breaks between sheets
are the print stylesheet's (``static/print.css`` and ``static/paper-<size>.css``).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from zoneinfo import ZoneInfo

from bot.errors import NotFoundError
from bot.services import ServiceContext
from bot.services.sessions.options import SessionOptions
from bot.web.data import ClubPages, SessionPage, TournamentPage, TournamentRoundLines

PAPERS = ("a4", "letter")
# Where Letter is the usual paper, by the club's time zone (a guess a director
# corrects with the page's own A4 / Letter switch).
LETTER_ZONES = ("America/", "US/", "Canada/", "Mexico/", "Chile/")
LETTER_ZONE_NAMES = frozenset({"Asia/Manila", "Pacific/Guam", "Pacific/Saipan"})
TOURNAMENT_SHEETS = ("pairings", "slips", "standings")
SESSION_SHEETS = ("scoresheets", "results")
# A score sheet's rows a side: two sides side by side fill a page; three or four
# sides share it two by two. Both fit A4 and Letter (tested by the pages' PDFs).
ROWS_TWO_SIDES = 20
ROWS_MORE_SIDES = 8


def default_paper(zone: ZoneInfo) -> str:
    """The club's paper by its time zone: ``letter`` or ``a4``."""
    key = zone.key
    if key in LETTER_ZONE_NAMES or key.startswith(LETTER_ZONES):
        return "letter"
    return "a4"


def paper_of(asked: str | None, zone: ZoneInfo) -> str:
    """The paper asked for in the query, else the club's; an unknown one is ``ValueError``."""
    if asked is None or asked == "":
        return default_paper(zone)
    if asked not in PAPERS:
        raise ValueError(f"unknown paper {asked!r}")
    return asked


@dataclass(frozen=True)
class TournamentPaper:
    page: TournamentPage
    round: TournamentRoundLines | None  # the round printed (None: no round paired yet)
    rounds: list[int]  # every round paired, for the round switch
    complete: int  # the last round with every result in (0: none yet)
    # The standings' round: after ``complete``, or during a later round some of whose
    # games have their result already (``during``); its results print with them.
    results: TournamentRoundLines | None = None
    during: bool = False

    @property
    def chess(self) -> bool:
        return self.page.kind == "chess"

    @property
    def boards(self) -> list[int]:
        """Boards with a game (not a bye), for the slips."""
        return [p.board for p in self.round.pairings if p.second is not None] if self.round else []


@dataclass(frozen=True)
class ScoreSheet:
    board: int
    sides: list[str]  # each side's names: "alice & bob"
    rows: int  # lines to write plays on, per side


@dataclass(frozen=True)
class SessionPaper:
    page: SessionPage
    room: bool
    clock_minutes: float
    length_minutes: int
    started_at: datetime | None
    sheets: list[ScoreSheet]


class PrintPages:
    """The reads behind the printed pages (``ClubPages``' own, arranged for paper)."""

    def __init__(self, ctx: ServiceContext, pages: ClubPages) -> None:
        self.ctx = ctx
        self.pages = pages

    async def tournament(
        self, guild_id: int, tournament_id: int, round_number: int | None
    ) -> TournamentPaper:
        """A tournament with the round to print: ``round_number``, else the newest paired.
        A round that was not paired is ``NotFoundError``."""
        page = await self.pages.tournament(guild_id, tournament_id)
        by_number = {r.number: r for r in page.schedule}
        if round_number is None:
            shown = page.schedule[0] if page.schedule else None
        elif round_number in by_number:
            shown = by_number[round_number]
        else:
            raise NotFoundError(f"Tournament {tournament_id} has no round {round_number}.")
        complete = 0
        for number in sorted(by_number):
            if any(p.open for p in by_number[number].pairings):
                break
            complete = number
        later = [by_number[n] for n in sorted(by_number) if n > complete]
        during = next(
            (
                r
                for r in reversed(later)
                if any(not p.open and p.second is not None for p in r.pairings)
            ),
            None,
        )
        results = during or by_number.get(complete)
        return TournamentPaper(
            page, shown, sorted(by_number), complete, results, during is not None
        )

    async def session(self, guild_id: int, session_id: int) -> SessionPaper:
        """A club session with a score sheet a board (its sides named as formed)."""
        page = await self.pages.club_session(guild_id, session_id)
        async with self.ctx.reader() as uow:
            row = await uow.sessions.get(session_id)
            if row is None or row.guild_id != guild_id:  # pragma: no cover - read just above
                raise NotFoundError(f"There is no session {session_id} here.")
            groups = [list(group) for group in row.groups]
            options = SessionOptions.from_json(row.options or {})
            started_at = row.started_at
            ids = [m for group in groups for seat in group for m in seat]
            names = await uow.players.names(list(dict.fromkeys(ids)))
        sheets = []
        for number, group in enumerate(groups, start=1):
            sides = [" & ".join(names.get(m, str(m)) for m in seat) for seat in group]
            rows = ROWS_TWO_SIDES if len(sides) <= 2 else ROWS_MORE_SIDES
            sheets.append(ScoreSheet(number, sides, rows))
        return SessionPaper(
            page,
            options.in_room,
            options.clock_seconds / 60,
            options.length_seconds // 60,
            started_at,
            sheets,
        )


__all__ = ["PrintPages", "default_paper", "paper_of"]
