"""What the club's pages show, read through the services and repositories with
read-only units of work, as plain data for the templates.

Nothing private leaves here: a Scrabble page shows the board and the public
notation of each move (never a rack or the tiles exchanged, which the move log
keeps apart); a Henyo round's word only once the round is over; a Boggle round's
lists only once it is scored (before that they are private to each player).
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import logging
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import chess

from bot.db.models import GameRecord
from bot.db.models_tournaments import TournamentPairingRecord
from bot.db.uow import UnitOfWork
from bot.errors import ClubError, NotFoundError
from bot.messages.boggle.results import STATUS_LABELS, RoundSummary
from bot.messages.chess import colour, finish_text
from bot.messages.events import game_name, row_value
from bot.messages.i18n import N_, _, ngettext
from bot.messages.leaderboard import GAME_TITLES, PERIOD_NAMES, format_time_ms
from bot.messages.scrabble.names import game_title
from bot.messages.web import status_name
from bot.services import ServiceContext
from bot.services.chess import ChessService
from bot.services.chess.snapshots import ChessSnapshot
from bot.services.events.service import EventService
from bot.services.henyo import HenyoService
from bot.services.henyo.core import FINISHED_ROUND
from bot.services.leaderboard import KINDS, PERIODS, LeaderboardService, LeaderboardTable
from bot.services.scrabble import ScrabbleService
from bot.services.scrabble.loaded import loaded_game, picture
from bot.services.scrabble.snapshots import BoardPicture
from bot.services.sessions import SessionService
from bot.services.tournaments.options import is_room
from bot.services.tournaments.pairing import table as tournament_table
from engines.boggle import Grid
from engines.chess_game import board_from_moves
from engines.scrabble import ScrabbleError, ScrabbleGame
from engines.scrabble.game import ACTIVE, ENDING

log = logging.getLogger(__name__)

GAME_KINDS = ("scrabble", "chess")
LIVE = ("active",)
DONE = ("finished", "abandoned")
LISTED = 30
LAST_MOVES = 10


@dataclass(frozen=True)
class GameLine:
    game_id: int
    kind: str
    title: str
    players: str
    status: str
    moves: int
    updated_at: datetime


@dataclass(frozen=True)
class MoveLine:
    ply: int  # 1-based: the position after this move is step ``ply``
    who: str
    text: str
    score: int | None = None


@dataclass(frozen=True)
class BoardImage:
    """A board at one step: the renderer's input (JSON-ready), a cache key and the alt text."""

    kind: str
    args: dict[str, Any]
    key: str
    alt: str


@dataclass(frozen=True)
class GamePage:
    game_id: int
    kind: str
    title: str
    status: str
    players: list[str]
    scores: list[str]
    step: int  # the position shown: after this many moves
    steps: int  # moves played
    moves: list[MoveLine]
    board: BoardImage
    summary: list[str]
    result: str | None
    export_name: str | None  # "GCG" or "PGN": the record's download, once the game is finished

    @property
    def live(self) -> bool:
        return self.status in LIVE

    @property
    def last_moves(self) -> list[MoveLine]:
        return self.moves[max(0, self.step - LAST_MOVES) : self.step]


@dataclass(frozen=True)
class RoundLine:
    round_id: int
    number: int
    status: str
    when: datetime | None
    players: int


@dataclass(frozen=True)
class BogglePlayer:
    name: str
    rank: int
    total: int
    words: list[tuple[str, str, int]]  # word, verdict label, points


@dataclass(frozen=True)
class BogglePage:
    round_id: int
    number: int
    status: str
    grid: list[list[str]]
    players: list[BogglePlayer]
    missed: list[tuple[str, int]]
    words_on_grid: int


@dataclass(frozen=True)
class EventLine:
    event_id: int
    status: str
    pairs: int
    created_at: datetime


@dataclass(frozen=True)
class HenyoStandingLine:
    place: str
    pair: str
    status: str
    final: str
    penalties: int


@dataclass(frozen=True)
class HenyoRoundLine:
    pair: str
    status: str
    word: str | None  # only for a round that is over
    final: str


@dataclass(frozen=True)
class HenyoPage:
    event_id: int
    status: str
    host: str
    standings: list[HenyoStandingLine]
    rounds: list[HenyoRoundLine]
    complete: bool


@dataclass(frozen=True)
class TournamentLine:
    tournament_id: int
    name: str
    kind: str
    format: str
    status: str
    round: int
    rounds: int


@dataclass(frozen=True)
class TournamentStandingLine:
    rank: int
    label: str
    points: str
    spread: int
    buchholz: str
    sonneborn_berger: str
    played: int
    withdrawn: bool


@dataclass(frozen=True)
class PairingLine:
    board: int
    first: str
    second: str | None  # None: a bye
    result: str  # "1–0", "½–½", "412–380 (1–0)", "playing", "bye"
    game_id: int | None
    open: bool = False  # a game whose result is still to come (not a bye, not voided)


@dataclass(frozen=True)
class TournamentRoundLines:
    number: int
    pairings: list[PairingLine]


@dataclass(frozen=True)
class TournamentPage:
    tournament_id: int
    name: str
    kind: str
    format: str
    status: str
    round: int
    rounds: int
    standings: list[TournamentStandingLine]
    schedule: list[TournamentRoundLines]  # newest round first
    signed_up: list[str]  # before it starts
    room: bool = False  # played over the board in the room (results reported)


@dataclass(frozen=True)
class SessionBoardLine:
    number: int
    seats: list[str]  # "alice & bob: 312"
    game_id: int | None
    status: str
    turn: str | None = None  # who is to play, while the board is in play
    turn_due: datetime | None = None  # when their turn clock runs out


@dataclass(frozen=True)
class SessionRankLine:
    rank: int
    pair: str
    board: int
    score: int
    spread: int


@dataclass(frozen=True)
class SessionPage:
    session_id: int
    status: str
    boards: list[SessionBoardLine]
    ranking: list[SessionRankLine] = field(default_factory=list)  # once the boards start
    final: bool = False
    deadline: datetime | None = None  # the session's own end, once it started


@dataclass(frozen=True)
class SessionLine:
    session_id: int
    status: str
    created_at: datetime


@dataclass(frozen=True)
class GamesEventLine:
    event_id: int
    name: str
    status: str
    games: str
    created_at: datetime


@dataclass(frozen=True)
class EventRowLine:
    place: str
    pair: str
    result: str


@dataclass(frozen=True)
class EventPrizeLine:
    place: int
    text: str  # the host's words, shown as text
    who: str  # the pair(s) at that place once the game is done, else ""


@dataclass(frozen=True)
class EventGameLines:
    game: str  # its name, in the page's language
    state: str
    rows: list[EventRowLine]
    winners: list[str]  # once the event is closed
    prizes: list[EventPrizeLine]  # once the event is closed


@dataclass(frozen=True)
class GamesEventPage:
    event_id: int
    name: str
    status: str
    games: list[str]
    capacity: int
    playing: list[tuple[int, str]]  # (place, "ana & ben") while registering
    waiting: list[tuple[int, str]]
    tables: list[EventGameLines]
    registering: bool
    tournaments: list[tuple[str, int]] = field(default_factory=list)  # (game, id): its rounds

    @property
    def closed(self) -> bool:
        return self.status == "closed"


@dataclass(frozen=True)
class ClubHome:
    guild_id: int
    name: str
    live: list[GameLine]
    finished: list[GameLine]
    boggle: list[RoundLine]
    henyo: list[EventLine]
    leaderboard: LeaderboardTable
    tournaments: list[TournamentLine] = field(default_factory=list)
    sessions: list[SessionLine] = field(default_factory=list)
    events: list[GamesEventLine] = field(default_factory=list)
    games: Sequence[tuple[str, str]] = field(default_factory=tuple)  # (value, label)
    periods: Sequence[tuple[str, str]] = field(default_factory=tuple)


def leaderboard_choices() -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    games = [("all", _(GAME_TITLES["all"])), *((k, _(GAME_TITLES[k])) for k in KINDS)]
    periods = [(p, _(PERIOD_NAMES[p])) for p in PERIODS]
    return games, periods


def _title(kind: str, number: int) -> str:
    if kind == "scrabble":
        return game_title(number)
    return _("Chess #{number}").format(number=number)


def game_number(record: GameRecord) -> int:
    """The number members know the game by: the club's own count of its kind
    (``games.number``), as Discord shows it. Addresses keep the game's id."""
    return record.number


class ClubPages:
    """The reads behind every page of one bot's web server."""

    def __init__(self, ctx: ServiceContext) -> None:
        self.ctx = ctx
        self.scrabble = ScrabbleService(ctx)
        self.chess = ChessService(ctx)
        self.henyo = HenyoService(ctx)
        self.leaderboards = LeaderboardService(ctx)
        self.events = EventService(ctx)
        self.sessions = SessionService(ctx, self.scrabble)

    # ------------------------------------------------------------------ the club's page

    async def home(self, guild_id: int, name: str, game: str, period: str) -> ClubHome:
        table = await self.leaderboards.table(guild_id, game, period)
        async with self.ctx.reader() as uow:
            live = await self._lines(uow, await uow.web.games(guild_id, LIVE, limit=LISTED))
            done = await self._lines(uow, await uow.web.games(guild_id, DONE, limit=LISTED))
            rounds = [
                RoundLine(
                    r.id,
                    r.number,
                    r.status,
                    r.ends_at or r.opens_at,
                    len((r.results or {}).get("players") or []),
                )
                for r in await uow.web.boggle_rounds(guild_id)
            ]
            events = [
                EventLine(e.id, e.status, e.pairs, e.created_at)
                for e in await uow.web.henyo_events(guild_id)
            ]
            tournaments = [
                TournamentLine(
                    t.id, t.name, t.game_kind, t.format, t.status, t.current_round, t.rounds
                )
                for t in await uow.tournaments.recent_in_guild(guild_id, limit=LISTED)
            ]
            sessions = [
                SessionLine(row.id, row.status, row.created_at)
                for row in await uow.web.club_sessions(guild_id)
            ]
            games_events = [
                GamesEventLine(
                    e.id, e.name, e.status, ", ".join(game_name(g) for g in e.games), e.created_at
                )
                for e in await uow.events.in_guild(guild_id)
            ]
        games, periods = leaderboard_choices()
        return ClubHome(
            guild_id,
            name,
            live,
            done,
            rounds,
            events,
            table,
            tournaments,
            sessions,
            games_events,
            games,
            periods,
        )

    async def _lines(self, uow: UnitOfWork, records: Sequence[GameRecord]) -> list[GameLine]:
        records = [r for r in records if r.kind in GAME_KINDS]
        names = await uow.players.names(sorted({s.user_id for r in records for s in r.seats}))
        counts = await uow.web.move_counts([r.id for r in records])
        lines = []
        for record in records:
            by_seat: dict[int, list[str]] = {}
            for seat in record.seats:
                by_seat.setdefault(seat.seat, []).append(names.get(seat.user_id, str(seat.user_id)))
            if record.kind == "scrabble":
                computer = (record.options or {}).get("computer_seat")
                if computer is not None and int(computer) in by_seat:
                    by_seat[int(computer)] = [_("the computer")]
            players = f" {_('vs')} ".join(" & ".join(by_seat[s]) for s in sorted(by_seat))
            moves = counts.get(record.id, 0)
            lines.append(
                GameLine(
                    record.id,
                    record.kind,
                    _title(record.kind, game_number(record)),
                    players,
                    record.status,
                    moves,
                    record.updated_at,
                )
            )
        return lines

    # ------------------------------------------------------------------ a game

    async def game(self, guild_id: int, game_id: int, step: int | None) -> GamePage:
        """The game at ``step`` (moves played; default the latest). Not this club's,
        not started (an invitation), or of no kind with a board: ``NotFoundError``."""
        async with self.ctx.reader() as uow:
            record = await uow.games.get(game_id, guild_id=guild_id)
            if record.kind == "scrabble":
                return await self._scrabble(uow, record, step)
            if record.kind == "chess":
                return await self._chess(uow, record, step)
        raise NotFoundError(f"There is no game #{game_id} here.")

    async def _scrabble(self, uow: UnitOfWork, record: GameRecord, step: int | None) -> GamePage:
        loaded = await loaded_game(uow, record)
        if loaded.engine is None or record.status not in (*LIVE, *DONE):
            raise NotFoundError(f"Scrabble #{record.number} has not started.")
        rows = await uow.moves.for_game(record.id)
        steps = len(rows)
        shown = steps if step is None else max(0, min(step, steps))
        engine = loaded.engine
        if shown != steps:
            try:
                engine = ScrabbleGame.replay(
                    loaded.settings.rules, loaded.engine.seed, [m.data for m in rows[:shown]]
                )
            except ScrabbleError:
                # A log that no longer replays (a game rigged by hand): only its end is shown.
                log.warning("Scrabble game %d does not replay from its move log", record.id)
                shown = steps
        at_step = dataclasses.replace(loaded, engine=engine)
        pic = picture(at_step)
        moves = [
            MoveLine(
                i + 1,
                loaded.name(m.seat) if m.seat is not None else "",
                scrabble_move_text(m.notation),
                m.score if m.data.get("type") in ("play", "challenge") else None,
            )
            for i, m in enumerate(rows)
        ]
        names = [loaded.name(s) for s in range(engine.seats)]
        scores = [f"{n}: {sc}" for n, sc in zip(names, engine.scores, strict=False)]
        finished = record.status == "finished"
        return GamePage(
            game_id=record.id,
            kind="scrabble",
            title=_title("scrabble", game_number(record)),
            status=record.status,
            players=names,
            scores=scores,
            step=shown,
            steps=steps,
            moves=moves,
            board=_scrabble_image(pic),
            summary=[pic.description] if pic.description else [],
            result=None,
            export_name="GCG" if finished else None,
        )

    async def _chess(self, uow: UnitOfWork, record: GameRecord, step: int | None) -> GamePage:
        snap = await self.chess.core.snapshot(uow, record)
        if record.status not in (*LIVE, *DONE) or snap.half_open:
            raise NotFoundError(f"Chess #{record.number} has not started.")
        return chess_page(snap, step)

    async def export(self, guild_id: int, game_id: int) -> tuple[str, str]:
        """``(filename, text)``: a finished game's GCG or PGN."""
        async with self.ctx.reader() as uow:
            record = await uow.games.get(game_id, guild_id=guild_id)
            kind, status = record.kind, record.status
        if status != "finished":
            raise NotFoundError(f"Game #{game_id} is not finished.")
        try:
            if kind == "scrabble":
                return await self.scrabble.reading.export(game_id, guild_id=guild_id)
            if kind == "chess":
                return await self.chess.reading.pgn(game_id, guild_id=guild_id)
        except ClubError as exc:
            raise NotFoundError(exc.text or exc.message, code=exc.code) from exc
        raise NotFoundError(f"Game #{game_id} has no record to download.")

    # ------------------------------------------------------------------ Boggle, Henyo

    async def boggle(self, guild_id: int, round_id: int) -> BogglePage:
        async with self.ctx.reader() as uow:
            rnd = await uow.boggle.get_round(round_id) if 0 < round_id < 2**31 else None
            if rnd is None or rnd.guild_id != guild_id:
                raise NotFoundError(f"There is no Boggle round {round_id} here.")
            status, number = rnd.status, rnd.number
            summary: RoundSummary | None = (
                rnd.results if rnd.status == "scored" and rnd.results else None  # type: ignore[assignment]
            )
        if summary is None:
            # Before it is scored, each list is its player's own.
            return BogglePage(round_id, number, status, [], [], [], 0)
        letters = _grid_faces(str(summary.get("grid") or ""))
        players = [
            BogglePlayer(
                p["name"],
                p["rank"],
                p["total"],
                [
                    (w, _(STATUS_LABELS[s]) if s in STATUS_LABELS else s, pts)
                    for w, s, pts in p["words"]
                ],
            )
            for p in summary.get("players") or []
        ]
        missed = [(w, pts) for w, pts in summary.get("missed") or []]
        return BogglePage(
            round_id,
            number,
            status,
            letters,
            players,
            missed,
            int(summary.get("words_on_grid") or 0),
        )

    async def henyo_event(self, guild_id: int, event_id: int) -> HenyoPage:
        async with self.ctx.reader() as uow:
            event = await uow.henyo.event(event_id) if 0 < event_id < 2**31 else None
            if event is None or event.guild_id != guild_id:
                raise NotFoundError(f"There is no Henyo event {event_id} here.")
            rounds = await uow.henyo.event_rounds(event.id)
            standings = await self.henyo.standings.build(uow, event, rounds)
            names = await uow.players.names(
                sorted({u for r in rounds for u in (r.guesser_id, r.answerer_id)})
            )
            status = event.status
            table = [
                HenyoStandingLine(
                    "" if row.place is None else f"{row.place}{'=' if row.tied else ''}",
                    row.team.label,
                    status_name(row.status),
                    format_time_ms(row.final_ms),
                    row.penalties,
                )
                for row in standings.rows
            ]
            lines = [
                HenyoRoundLine(
                    f"{names.get(r.guesser_id, '?')} & {names.get(r.answerer_id, '?')}",
                    status_name(r.status),
                    r.word if r.status in FINISHED_ROUND else None,
                    format_time_ms(r.final_ms) if r.status in FINISHED_ROUND else "",
                )
                for r in rounds
            ]
        return HenyoPage(
            event_id, status, standings.event.host.name, table, lines, standings.complete
        )

    # ------------------------------------------------------------------ games events

    async def games_event(self, guild_id: int, event_id: int) -> GamesEventPage:
        """A games event: its roster and waiting list while it registers, each game's
        standings, and once it is closed the winners and the host's prize lines.
        Members by their display names only."""
        if not 0 < event_id < 2**31:
            raise NotFoundError(f"There is no games event {event_id} here.")
        result = await self.events.reading.standings(
            guild_id=guild_id, channel_id=None, ref=event_id
        )
        view = result.event
        closed = view.status == "closed"
        registering = view.status == "open" and not view.started
        async with self.ctx.reader() as uow:
            played = [
                (game_name(r.game), r.ref_id)
                for r in await uow.events.rounds(view.id)
                if r.game in GAME_KINDS
            ]
        tables = []
        for table in result.tables:
            rows = [
                EventRowLine(
                    "" if row.place is None else str(row.place),
                    " & ".join(row.names),
                    row_value(table.game, row),
                )
                for row in table.rows
            ]
            prizes = []
            if closed:
                for prize in sorted(result.prizes_of(table.game), key=lambda p: p.place):
                    holders = [
                        " & ".join(r.names)
                        for r in table.rows
                        if r.place == prize.place and r.status == "ranked"
                    ]
                    who = ", ".join(holders) if table.state == "done" else ""
                    prizes.append(EventPrizeLine(prize.place, prize.text, who))
            tables.append(
                EventGameLines(
                    game_name(table.game),
                    status_name(table.state),
                    rows,
                    [" & ".join(w.names) for w in table.winners] if closed else [],
                    prizes,
                )
            )
        return GamesEventPage(
            view.id,
            view.name,
            view.status,
            [game_name(g) for g in view.games],
            view.capacity,
            [(p.place, " & ".join(p.names)) for p in view.playing] if registering else [],
            [(p.place, " & ".join(p.names)) for p in view.waiting] if registering else [],
            tables,
            registering,
            played,
        )

    # ------------------------------------------------------------------ tournaments, sessions

    async def tournament(self, guild_id: int, tournament_id: int) -> TournamentPage:
        async with self.ctx.reader() as uow:
            t = await uow.tournaments.get(tournament_id) if 0 < tournament_id < 2**31 else None
            if t is None or t.guild_id != guild_id:
                raise NotFoundError(f"There is no tournament {tournament_id} here.")
            entrants = await uow.tournaments.entrants(t.id)
            pairings = await uow.tournaments.pairings(t.id)
            signed_up: list[str] = []
            if not entrants:
                lst = await uow.signups.list_of("tournament", t.id)
                entries = await uow.signups.entries(lst.id) if lst is not None else []
                names = await uow.players.names(
                    [m for e in entries for m in (e.user_id, e.partner_id) if m is not None]
                )
                signed_up = [
                    " & ".join(names.get(m, str(m)) for m in (e.user_id, e.partner_id) if m)
                    for e in entries
                ]
            by_id = {e.id: e for e in entrants}
            table = (
                [
                    TournamentStandingLine(
                        s.rank,
                        by_id[s.entrant].label,
                        _points(s.points),
                        s.spread,
                        _points(s.buchholz),
                        _points(s.sonneborn_berger),
                        s.played,
                        by_id[s.entrant].status == "withdrawn",
                    )
                    for s in tournament_table(t, entrants, pairings)
                ]
                if entrants
                else []
            )
            rounds: dict[int, list[PairingLine]] = {}
            for p in pairings:
                second = by_id[p.second_id].label if p.second_id is not None else None
                rounds.setdefault(p.round, []).append(
                    PairingLine(
                        p.board,
                        by_id[p.first_id].label,
                        second,
                        _result(t.game_kind, p),
                        p.game_id,
                        second is not None and not p.void and p.score is None,
                    )
                )
            page = TournamentPage(
                t.id,
                t.name,
                t.game_kind,
                t.format,
                t.status,
                t.current_round,
                t.rounds,
                table,
                [
                    TournamentRoundLines(n, sorted(rounds[n], key=lambda line: line.board))
                    for n in sorted(rounds, reverse=True)
                ],
                signed_up,
                is_room(t.options or {}),
            )
        return page

    async def club_session(self, guild_id: int, session_id: int) -> SessionPage:
        # The ranking across boards is the results post's own (one implementation).
        results = await self.sessions.reading.ranking(guild_id=guild_id, session_id=session_id)
        async with self.ctx.reader() as uow:
            row = await uow.sessions.get(session_id) if 0 < session_id < 2**31 else None
            if row is None or row.guild_id != guild_id:
                raise NotFoundError(f"There is no session {session_id} here.")
            boards = []
            for board in await uow.sessions.boards(row.id):
                record = await uow.games.get(board.game_id)
                loaded = await loaded_game(uow, record)
                engine = loaded.engine
                seats = [
                    f"{loaded.name(seat)}: {engine.scores[seat]}" if engine else loaded.name(seat)
                    for seat in sorted(loaded.seats)
                ]
                # Over the board, a game that is over waits for the tiles left on the
                # racks (engine status "racks"): nobody's turn, no clock; and before its
                # first entry whoever drew first at the board plays first.
                playing = (
                    engine is not None
                    and record.status in LIVE
                    and engine.status in (ACTIVE, ENDING)
                    and (bool(engine.moves) or not engine.options.room)
                )
                boards.append(
                    SessionBoardLine(
                        board.number,
                        seats,
                        record.id,
                        record.status,
                        loaded.name(engine.current_seat) if playing and engine else None,
                        loaded.turn_due if playing else None,
                    )
                )
            ids = [m for group in row.groups for seat in group for m in seat]
            names = await uow.players.names(list(dict.fromkeys(ids)))
            if not boards:
                boards = [
                    SessionBoardLine(
                        n,
                        [" & ".join(names.get(m, str(m)) for m in seat) for seat in group],
                        None,
                        "not_started",
                    )
                    for n, group in enumerate(row.groups, start=1)
                ]
            ranking = []
            if results is not None:
                members = await uow.players.names([m for p in results.pairs for m in p.user_ids])
                ranking = [
                    SessionRankLine(
                        p.rank,
                        " & ".join(members.get(m, str(m)) for m in p.user_ids),
                        p.board,
                        p.score,
                        p.spread,
                    )
                    for p in results.pairs
                ]
            final = results is not None and results.final
            return SessionPage(row.id, row.status, boards, ranking, final, row.deadline)


# ---------------------------------------------------------------------- helpers


def scrabble_move_text(notation: str) -> str:
    """The move log's public notation in words: "8H QUIZ", "exchanged 3 tiles", "passed"."""
    if notation == "-":
        return _("passed")
    if notation in MOVE_WORDS:
        return _(MOVE_WORDS[notation])
    if notation.startswith("- ("):
        return _("passed {why}").format(why=notation[2:])
    if re.fullmatch(r"-\d+", notation):
        count = int(notation[1:])
        return ngettext("exchanged {count} tile", "exchanged {count} tiles", count).format(
            count=count
        )
    return _(MOVE_WORDS[notation]) if notation in MOVE_WORDS else notation


MOVE_WORDS = {
    "resign": N_("resigned"),
    "accept": N_("accepted the play"),
    "close": N_("the game is over"),
    "deadline": N_("the game's deadline was reached"),
    "ended": N_("the moderator ended the session"),
    "blocked": N_("nobody could play"),
    "- (timed out)": N_("passed: the turn clock ran out"),
    "- (lost turn)": N_("lost the turn (a failed challenge)"),
    "challenge: withdrawn": N_("challenged: the play was taken back"),
    "challenge: stood": N_("challenged: the play stands"),
}


def _points(value: float) -> str:
    return f"{value:g}".replace(".5", "½") if value != 0.5 else "½"


def _result(kind: str, p: TournamentPairingRecord) -> str:
    if p.second_id is None:
        return _("bye")
    if p.void:
        return _("void")
    if p.score is None:
        return _("playing")
    points = f"{_points(p.score)}–{_points(1 - p.score)}"
    if kind == "scrabble" and p.first_total is not None and p.second_total is not None:
        return f"{p.first_total}–{p.second_total} ({points})"
    return _("{points} (forfeit)").format(points=points) if p.forfeit else points


def _scrabble_image(pic: BoardPicture) -> BoardImage:
    args: dict[str, Any] = dict(pic.to_args())
    return BoardImage("scrabble", args, _key("scrabble", args), pic.description)


def chess_page(snap: ChessSnapshot, step: int | None) -> GamePage:
    steps = len(snap.moves)
    shown = steps if step is None else max(0, min(step, steps))
    board = board_from_moves(snap.moves[:shown])
    sans = snap.sans
    moves = [
        MoveLine(
            i + 1,
            snap.white.name if i % 2 == 0 else snap.black.name,
            f"{i // 2 + 1}.{'' if i % 2 == 0 else '..'} {san}",
        )
        for i, san in enumerate(sans)
    ]
    args: dict[str, Any] = {
        "fen": board.fen(),
        "last_move": board.peek().uci() if board.move_stack else None,
        "orientation": "white",
    }
    alt = chess_alt(board, shown, sans)
    finish = snap.finish
    result = None
    if snap.status in DONE and shown == steps:
        result = (
            finish_text(finish, snap.white.name, snap.black.name)
            if finish
            else (snap.result or status_name(snap.status))
        )
    return GamePage(
        game_id=snap.game_id,
        kind="chess",
        title=_title("chess", snap.number),
        status=snap.status,
        players=[
            _("{name} (White)").format(name=snap.white.name),
            _("{name} (Black)").format(name=snap.black.name),
        ],
        scores=[snap.result] if snap.result and snap.status in DONE else [],
        step=shown,
        steps=steps,
        moves=moves,
        board=BoardImage("chess", args, _key("chess", args), alt),
        summary=[alt],
        result=result,
        export_name="PGN" if snap.status == "finished" else None,
    )


def chess_alt(board: chess.Board, step: int, sans: Sequence[str]) -> str:
    side = colour(board.turn)
    if step:
        return ngettext(
            "Chess board after {count} move, {side} to move; last move {move}. FEN {fen}",
            "Chess board after {count} moves, {side} to move; last move {move}. FEN {fen}",
            step,
        ).format(count=step, side=side, move=sans[step - 1], fen=board.fen())
    return _("Chess board before the first move, {side} to move. FEN {fen}").format(
        side=side, fen=board.fen()
    )


def _key(kind: str, args: dict[str, Any]) -> str:
    digest = hashlib.sha256(
        json.dumps([kind, args], sort_keys=True, separators=(",", ":")).encode()
    ).hexdigest()
    return digest[:32]


def _grid_faces(grid: str) -> list[list[str]]:
    """The grid's faces as printed ("Qu", "A"), row by row."""
    try:
        return [list(row) for row in Grid.parse(grid).rows] if grid else []
    except ValueError:
        return []


__all__ = ["ClubPages", "GamePage"]
