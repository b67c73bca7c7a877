"""The room's screen (issue #29): the ``screen`` kind of ``bot.web.boards``, a page for
a projector or a TV that shows what the club is doing right now, live.

A moderator gets its link with ``/club screen`` (``BoardLinks``, kind ``screen``,
subject the club itself); opening it sets the cookie and redirects to
``/board/screen/<guild>`` as a member's board does, and the page follows the
pushed versions of the board routes (one watcher per club shown, see
``BoardWatch``). It has no actions: nothing is clicked on it.

What it shows is one **panel**, the first of these that has something (the
priority, also said on the idle panel):

1. ``henyo``: a Henyo round ready or running (the pair, the clock with its
   penalties, the time left; never the secret, unless the host turned it on for
   the round: :func:`secret_on_screen`);
2. ``boggle``: a Boggle round open, or closed and being judged (the grid, the
   countdown; a round played in the room, after its countdown, "Type your words
   now" with the time left to type the lists);
3. ``henyo_result`` / ``boggle_result``: the newest Henyo round or Boggle round
   that ended within ``RECENT`` (the result and the event's standings; a Boggle
   round's ranking and the best words nobody found), whichever ended last;
4. ``session``: a club session whose boards are formed or in play (every board's
   scores, whose turn and its clock, the ranking across boards, the session clock);
5. ``tournament``: a tournament running or paused (the current round's pairings
   and the standings);
6. ``event``: a games event under way (each game's standings);
7. ``henyo_event``: an open Henyo event between its rounds (its standings);
8. ``idle``: the club's name, its leaderboard and what is coming up.

Each panel is a function in ``PANELS`` (the list is the priority): a new kind of
activity adds its function there and its drawing to ``static/board/screen.js``.

Only public things are read: the data functions of the club's page
(``ClubPages``), and Boggle lists only once scored. A Henyo round's secret word is
never put in the state of a round in play; the state is the only thing the page
gets (a pushed event carries a number).

The screen has no row of its own to carry a version, so its version is a digest
of what it shows (its state without the server's time): it moves exactly when
the screen changes, including when a panel's time is up (``RECENT``). Reading it
means computing the panel, so the watcher reads a screen every ``WATCH_S``
rather than the boards' quarter second.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from bot.db.models_henyo import HenyoRoundRecord
from bot.messages import screen as say
from bot.messages.i18n import language_of, use_language
from bot.messages.leaderboard import format_time_ms
from bot.messages.web import local_time, status_name
from bot.services import ServiceContext
from bot.services.board_links import BoardSession, Kind
from bot.services.boggle.options import club_zone
from bot.services.henyo.core import FINISHED_ROUND, OPEN_ROUND
from bot.web.boards import Action
from bot.web.data import ClubPages, _grid_faces

WATCH_S = 1.0
RECENT = timedelta(minutes=15)  # how long a result stays up, unless something starts
SHOWN_ROWS = 8  # a standings table's rows: what fits at 48 px
BOGGLE_LIVE = ("open", "closed")
SESSION_LIVE = ("formed", "started")
TOURNAMENT_LIVE = ("running", "paused")
MISSED_SHOWN = 10


def secret_on_screen(round_: HenyoRoundRecord) -> bool:
    """The host's "show the word on the screen" (issue #29).

    The audience may see the secret, as they see the card on Player One's
    forehead; the guesser must not, so it is off unless the host turns it on for
    the round from the console of a round played aloud (``henyo_rounds.
    show_word_on_screen``, set by ``HenyoService.host.show_on_screen``)."""
    return round_.show_word_on_screen


@dataclass(frozen=True)
class HenyoLine:
    """What the screen may read of a Henyo round (the word only where it may show)."""

    id: int
    event_id: int | None
    status: str
    stage: int
    pair: str
    guesser: str
    answerer: str
    started_at: datetime | None
    ended_at: datetime | None
    limit_ms: int
    penalty_ms: int
    penalties: int
    final_ms: int | None
    shown_word: str | None  # a finished round's, or the host's choice (secret_on_screen)


@dataclass(frozen=True)
class BoggleLine:
    id: int
    number: int
    status: str
    grid: str | None
    min_length: int
    opens_at: datetime
    ends_at: datetime | None  # when the lists close
    scored_at: datetime | None
    entry_s: int = 0  # played in the room: the time to type the lists after the countdown


@dataclass(frozen=True)
class ClubNow:
    """The club's activities the panels choose from, read in one unit of work."""

    guild_id: int
    name: str
    language: str
    zone: ZoneInfo
    now: datetime
    henyo: list[HenyoLine] = field(default_factory=list)
    henyo_events: list[int] = field(default_factory=list)  # open events, newest first
    henyo_events_idle: list[int] = field(default_factory=list)  # open, no round yet
    boggle: list[BoggleLine] = field(default_factory=list)
    sessions: list[tuple[int, str]] = field(default_factory=list)  # (id, status)
    tournaments: list[tuple[int, str, str]] = field(default_factory=list)  # (id, status, name)
    events: list[tuple[int, str]] = field(default_factory=list)  # open games events


Panel = Callable[["ScreenBoard", ClubNow], Awaitable[dict[str, Any] | None]]


def _iso(moment: datetime | None) -> str | None:
    return moment.isoformat() if moment else None


def _recent(moment: datetime | None, now: datetime) -> bool:
    return moment is not None and now - moment <= RECENT


class ScreenBoard:
    """The room's screen's state (a ``bot.web.boards.BoardKind`` with no actions)."""

    kind: Kind = "screen"
    watch_every = WATCH_S

    def __init__(self, ctx: ServiceContext) -> None:
        self.ctx = ctx
        self.pages = ClubPages(ctx)

    def actions(self) -> Mapping[str, Action]:
        return {}

    async def version(self, subject_id: int) -> int:
        return int((await self.shown(subject_id))["version"])

    async def state(self, session: BoardSession) -> Mapping[str, Any]:
        shown = await self.shown(session.grant.guild_id)
        return {**shown, "now": self.ctx.clock().isoformat()}

    async def shown(self, guild_id: int) -> dict[str, Any]:
        """What the screen shows now, in the club's language, with its version."""
        club = await self.read(guild_id)
        with use_language(club.language, guild_id):
            body = await self.panel(club)
        digest = hashlib.sha256(
            json.dumps(body, sort_keys=True, ensure_ascii=False).encode()
        ).digest()
        # 53 bits: a number the page's JavaScript holds exactly.
        return {"version": int.from_bytes(digest[:8], "big") >> 11, **body}

    async def panel(self, club: ClubNow) -> dict[str, Any]:
        for panel in PANELS:
            body = await panel(self, club)
            if body is not None:
                return {
                    "club": club.name,
                    "title": say.t(say.PAGE_TITLE, club=club.name),
                    "reconnecting": say.t(say.RECONNECTING),
                    **body,
                }
        raise AssertionError("the idle panel always shows")  # pragma: no cover

    async def read(self, guild_id: int) -> ClubNow:
        now = self.ctx.clock()
        async with self.ctx.reader() as uow:
            guild = await uow.guilds.get(guild_id)
            name = guild.name if guild is not None else ""
            language = language_of(guild.settings if guild is not None else None)
            zone = club_zone(guild.timezone if guild is not None else None)
            rounds = await uow.web.henyo_rounds(guild_id, limit=5)
            names = await uow.players.names(
                sorted({u for r in rounds for u in (r.guesser_id, r.answerer_id)})
            )
            henyo = [_henyo_line(r, names) for r in rounds]
            open_events = await uow.henyo.open_events_in_guild(guild_id)
            henyo_events = sorted((e.id for e in open_events), reverse=True)
            idle_events = [e for e in henyo_events if not await uow.henyo.event_rounds(e)]
            boggle = [
                BoggleLine(
                    r.id,
                    r.number,
                    r.status,
                    r.grid,
                    r.min_length,
                    r.opens_at,
                    r.ends_at,
                    r.scored_at,
                    r.entry_s,
                )
                for r in await uow.web.boggle_rounds(guild_id, limit=5)
            ]
            sessions = [(s.id, s.status) for s in await uow.web.club_sessions(guild_id, limit=5)]
            tournaments = [
                (t.id, t.status, t.name) for t in await uow.tournaments.live_in_guild(guild_id)
            ]
            events = [(e.id, e.name) for e in await uow.events.in_guild(guild_id, status="open")]
        return ClubNow(
            guild_id,
            name,
            language,
            zone,
            now,
            henyo,
            henyo_events,
            idle_events,
            boggle,
            sessions,
            tournaments,
            events,
        )

    # ------------------------------------------------------------------ panels

    async def henyo_live(self, club: ClubNow) -> dict[str, Any] | None:
        line = next((r for r in club.henyo if r.status in OPEN_ROUND), None)
        if line is None:
            return None
        return {
            "panel": "henyo",
            "heading": say.t(say.HENYO_TITLE),
            "tie_break": say.t(say.TIE_BREAK) if line.stage else None,
            "pair": say.t(say.PAIR, guesser=line.guesser, answerer=line.answerer),
            "status": line.status,
            "started_at": _iso(line.started_at) if line.status == "running" else None,
            "limit_ms": line.limit_ms,
            "penalty_ms": line.penalty_ms,
            "penalties": line.penalties,
            "penalty_text": say.penalties(line.penalties, line.penalties * line.penalty_ms / 1000),
            "ready_text": say.t(say.READY),
            "time_label": say.t(say.TIME),
            "left_label": say.t(say.TIME_LEFT),
            "word": say.t(say.THE_WORD, word=line.shown_word) if line.shown_word else None,
        }

    async def boggle_live(self, club: ClubNow) -> dict[str, Any] | None:
        line = next((r for r in club.boggle if r.status in BOGGLE_LIVE), None)
        if line is None:
            return None
        panel: dict[str, Any] = {
            "panel": "boggle",
            "heading": say.t(say.BOGGLE_TITLE, number=line.number),
            "status": line.status,
            "phase": None,
            "grid": _grid_faces(line.grid or ""),
            "ends_at": _iso(line.ends_at),
            "left_label": say.t(say.TIME_LEFT),
            "playing_text": say.t(say.WRITE_NOW, count=line.min_length),
            "closed_text": say.t(say.LISTS_CLOSED),
        }
        if line.entry_s and line.ends_at is not None and line.status == "open":
            # Played in the room: the countdown on paper, then the time to type the lists
            # (the countdown's end turns the note to "type now" until this panel follows).
            countdown_ends = line.ends_at - timedelta(seconds=line.entry_s)
            if club.now < countdown_ends:
                panel |= {
                    "phase": "paper",
                    "ends_at": _iso(countdown_ends),
                    "playing_text": say.t(say.WRITE_ON_PAPER, count=line.min_length),
                    "closed_text": say.t(say.TYPE_NOW),
                }
            else:
                panel |= {
                    "phase": "typing",
                    "left_label": say.t(say.TIME_TO_TYPE),
                    "playing_text": say.t(say.TYPE_NOW),
                }
        return panel

    async def recent_result(self, club: ClubNow) -> dict[str, Any] | None:
        henyo = next((r for r in club.henyo if r.status in FINISHED_ROUND), None)
        boggle = next((r for r in club.boggle if r.status == "scored"), None)
        henyo_end = henyo.ended_at if henyo is not None else None
        boggle_end = boggle.scored_at if boggle is not None else None
        fresh_henyo = henyo if _recent(henyo_end, club.now) else None
        fresh_boggle = boggle if _recent(boggle_end, club.now) else None
        if fresh_henyo is not None and (
            fresh_boggle is None or (henyo_end and boggle_end and henyo_end >= boggle_end)
        ):
            return await self._henyo_result(club, fresh_henyo)
        if fresh_boggle is not None:
            return await self._boggle_result(club, fresh_boggle)
        return None

    async def _henyo_result(self, club: ClubNow, line: HenyoLine) -> dict[str, Any]:
        if line.status == "guessed":
            outcome = say.t(say.GUESSED, time=format_time_ms(line.final_ms))
        elif line.status == "timed_out":
            outcome = say.t(say.TIMED_OUT)
        else:
            outcome = say.t(say.DISQUALIFIED)
        standings = (
            await self._henyo_standings(club, line.event_id) if line.event_id is not None else None
        )
        return {
            "panel": "henyo_result",
            "heading": say.t(say.HENYO_TITLE),
            "tie_break": say.t(say.TIE_BREAK) if line.stage else None,
            "pair": say.t(say.PAIR, guesser=line.guesser, answerer=line.answerer),
            "outcome": outcome,
            "status": line.status,
            "penalty_text": say.penalties(line.penalties, line.penalties * line.penalty_ms / 1000),
            "word": say.t(say.THE_WORD, word=line.shown_word) if line.shown_word else None,
            "standings": standings,
        }

    async def _henyo_standings(self, club: ClubNow, event_id: int) -> dict[str, Any]:
        page = await self.pages.henyo_event(club.guild_id, event_id)
        return {
            "heading": say.t(say.STANDINGS),
            "rows": [
                [row.place, row.pair, row.final, status_name(row.status) if not row.place else ""]
                for row in page.standings[:SHOWN_ROWS]
            ],
        }

    async def _boggle_result(self, club: ClubNow, line: BoggleLine) -> dict[str, Any]:
        page = await self.pages.boggle(club.guild_id, line.id)
        return {
            "panel": "boggle_result",
            "heading": say.t(say.BOGGLE_TITLE, number=line.number),
            "results_label": say.t(say.RESULTS),
            "rows": [[str(p.rank), p.name, say.points(p.total)] for p in page.players][:SHOWN_ROWS],
            "nobody": say.t(say.NO_PLAYERS) if not page.players else None,
            "missed_label": say.t(say.MISSED),
            "missed": [f"{word.upper()} ({pts})" for word, pts in page.missed[:MISSED_SHOWN]],
        }

    async def session(self, club: ClubNow) -> dict[str, Any] | None:
        found = next((s for s in club.sessions if s[1] in SESSION_LIVE), None)
        if found is None:
            return None
        page = await self.pages.club_session(club.guild_id, found[0])
        return {
            "panel": "session",
            "heading": say.t(say.SESSION_TITLE),
            "deadline": _iso(page.deadline),
            "deadline_label": say.t(say.SESSION_ENDS),
            "boards": [
                {
                    "heading": say.t(say.BOARD, number=board.number),
                    "seats": board.seats,
                    "turn": say.t(say.TO_PLAY, name=board.turn) if board.turn else None,
                    "turn_due": _iso(board.turn_due),
                    "over": say.t(say.BOARD_OVER) if board.status == "finished" else None,
                }
                for board in page.boards
            ],
            "ranking_label": say.t(say.RANKING),
            "ranking": [
                [str(r.rank), r.pair, str(r.score), f"{r.spread:+d}"]
                for r in page.ranking[:SHOWN_ROWS]
            ],
        }

    async def tournament(self, club: ClubNow) -> dict[str, Any] | None:
        found = next((t for t in club.tournaments if t[1] in TOURNAMENT_LIVE), None)
        if found is None:
            return None
        page = await self.pages.tournament(club.guild_id, found[0])
        current = next((r for r in page.schedule if r.number == page.round), None)
        round_text = (
            say.t(say.ROUND_OF, round=page.round, rounds=page.rounds)
            if page.rounds
            else say.t(say.ROUND, round=page.round)
        )
        return {
            "panel": "tournament",
            "heading": page.name,
            "round": round_text,
            "pairings_label": say.t(say.PAIRINGS),
            "pairings": [
                [str(p.board), p.first, p.second or say.t(say.BYE), p.result]
                for p in (current.pairings if current else [])
            ][:SHOWN_ROWS],
            "standings_label": say.t(say.STANDINGS),
            "standings": [
                [str(s.rank), s.label, s.points] for s in page.standings if not s.withdrawn
            ][:SHOWN_ROWS],
        }

    async def games_event(self, club: ClubNow) -> dict[str, Any] | None:
        for event_id, _name in club.events:
            page = await self.pages.games_event(club.guild_id, event_id)
            if page.registering:
                continue
            return {
                "panel": "event",
                "heading": page.name,
                "tables": [
                    {
                        "heading": table.game,
                        "rows": [[row.place, row.pair, row.result] for row in table.rows][
                            :SHOWN_ROWS
                        ],
                    }
                    for table in page.tables[:2]
                ],
            }
        return None

    async def henyo_event(self, club: ClubNow) -> dict[str, Any] | None:
        started = [e for e in club.henyo_events if e not in club.henyo_events_idle]
        if not started:
            return None
        return {
            "panel": "henyo_event",
            "heading": say.t(say.HENYO_TITLE),
            "standings": await self._henyo_standings(club, started[0]),
        }

    async def idle(self, club: ClubNow) -> dict[str, Any]:
        table = await self.pages.leaderboards.table(club.guild_id, "all", "all")
        return {
            "panel": "idle",
            "heading": club.name,
            "nothing": say.t(say.NOTHING_NOW),
            "leaderboard_label": f"{say.t(say.LEADERBOARD)}: {table.title}",
            "leaderboard": [[str(r.rank), r.name, r.value] for r in table.rows[:SHOWN_ROWS]],
            "upcoming_label": say.t(say.COMING_UP),
            "upcoming": await self._upcoming(club),
            "priority": say.t(say.PRIORITY),
        }

    async def _upcoming(self, club: ClubNow) -> list[str]:
        lines = [
            say.t(say.UPCOMING_BOGGLE, number=r.number, when=local_time(r.opens_at, club.zone))
            for r in sorted(club.boggle, key=lambda r: r.opens_at)
            if r.status == "scheduled"
        ]
        if any(status == "open" for _id, status in club.sessions):
            lines.append(say.t(say.UPCOMING_SESSION))
        lines += [
            say.t(say.UPCOMING_TOURNAMENT, name=name)
            for _id, status, name in club.tournaments
            if status == "signup"
        ]
        for event_id, name in club.events:
            page = await self.pages.games_event(club.guild_id, event_id)
            if page.registering:
                lines.append(say.t(say.UPCOMING_EVENT, name=name))
        if club.henyo_events_idle:
            lines.append(say.t(say.UPCOMING_HENYO))
        return lines[:5]


def _henyo_line(round_: HenyoRoundRecord, names: Mapping[int, str]) -> HenyoLine:
    guesser = names.get(round_.guesser_id, "?")
    answerer = names.get(round_.answerer_id, "?")
    finished = round_.status in FINISHED_ROUND
    return HenyoLine(
        round_.id,
        round_.event_id,
        round_.status,
        round_.stage,
        f"{guesser} & {answerer}",
        guesser,
        answerer,
        round_.started_at,
        round_.ended_at,
        round_.time_limit_ms,
        round_.penalty_ms,
        round_.penalties,
        round_.final_ms,
        # A finished round's word is public (the channel says it); a round in play's
        # only when the host chose to show it.
        round_.word if finished or secret_on_screen(round_) else None,
    )


# The panels, in priority order (see the module's docstring); the last always shows.
PANELS: Sequence[Panel] = (
    ScreenBoard.henyo_live,
    ScreenBoard.boggle_live,
    ScreenBoard.recent_result,
    ScreenBoard.session,
    ScreenBoard.tournament,
    ScreenBoard.games_event,
    ScreenBoard.henyo_event,
    ScreenBoard.idle,
)
