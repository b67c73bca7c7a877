"""The club's daily puzzle (issue #31): at the club's ``puzzle_time`` (its own time
zone) a puzzle is posted in its ``puzzle_channel``: the position and "find the best
play", never an answer, with a Solve button that opens it for the member privately
(the ``/puzzle`` flow: the Answer form, Show solution, ratings and streaks).

- Settings: ``guilds.settings`` keys ``puzzle_channel_id`` and ``puzzle_time``
  ("HH:MM"), set by ``/club setup`` (``puzzle_time:off`` turns it off).
- Timer: one stored job per club (``JOB_DAILY``, key ``daily_key``) that moves itself
  to the next day after each post; ``/club setup`` moves it (a new time or zone
  replaces the pending one, off cancels it).
- Once a day: the post is a ``puzzle_dailies`` row (unique club and day) written in
  the transaction that queues the post, so two processes or a restart post it once.
- The pick alternates the games: the kind after the last daily's, among every kind
  (``KINDS``) that has a puzzle never posted as a daily from a game that is over;
  falling back to whichever has one; none: nothing is posted (logged) and tomorrow is
  tried again. Chess too without Stockfish: only finding chess puzzles needs it.

Daylight saving: each day's time is that day's local ``puzzle_time`` (computed from
the club's date, so 18:00 stays 18:00 across the change). A time the clocks skip
that day (02:30 on a spring-forward night) is posted an hour later on the wall clock
(the offset before the change: 03:30), once; a time the clocks go through twice (a
fall-back night's 01:30) is posted at its first occurrence, once.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from datetime import UTC, date, datetime, time, timedelta
from typing import Any
from zoneinfo import ZoneInfo

import chess

from bot.context import ServiceContext
from bot.db.models import GuildRecord, JobRecord
from bot.db.models_puzzle_daily import PuzzleDailyRecord
from bot.db.models_puzzles import PuzzleRecord
from bot.db.uow import UnitOfWork
from bot.messages import puzzle_daily as say
from bot.messages.post import FileSpec, Post, ViewSpec
from bot.messages.puzzles import board_alt_text, chess_board_alt_text
from bot.scheduler import JobSpec
from bot.services.boggle.options import club_zone, parse_clock_time
from bot.services.chess.options import BOARD_RENDERER as CHESS_BOARD
from bot.services.chess.snapshots import BoardImageArgs, color_key
from bot.services.puzzles.service import KINDS
from bot.services.scrabble import RENDER_BOARD
from engines.chess_puzzles import ChessPuzzle

log = logging.getLogger(__name__)

JOB_DAILY = "puzzles.daily"  # the club's puzzle_time: post the day's puzzle: on_daily_puzzle
VIEW_SOLVE = "puzzles.solve"  # the post's Solve button (an outbox view)
PUZZLE_CHANNEL = "puzzle_channel_id"  # guilds.settings
PUZZLE_TIME = "puzzle_time"  # guilds.settings: "HH:MM", club time

# How a kind's puzzle is posted: (puzzle, when) → the post. The chess puzzles add theirs
# (``POSTERS["chess"] = …``, their board image); a kind with none is posted in words.
Poster = Callable[[PuzzleRecord, datetime], Post]


def daily_key(guild_id: int) -> str:
    """The key of the club's daily puzzle job (one per club: it moves itself)."""
    return f"puzzles:daily:{guild_id}"


def post_at(day: date, at: time, zone: ZoneInfo) -> datetime:
    """``day``'s ``at`` in the club's zone, in UTC (see the module for the skipped and
    doubled times of a daylight-saving change: fold 0, the offset before it)."""
    return datetime.combine(day, at, tzinfo=zone).astimezone(UTC)


def next_post(after: datetime, at: time, zone: ZoneInfo) -> tuple[date, datetime]:
    """The first club day whose ``at`` is strictly after ``after``, and that instant."""
    day = after.astimezone(zone).date() - timedelta(days=1)
    while True:
        due = post_at(day, at, zone)
        if due > after:
            return day, due
        day += timedelta(days=1)


def daily_setting(settings: Mapping[str, Any] | None) -> tuple[int, time] | None:
    """The club's puzzle channel and time, or None when the daily puzzle is off."""
    settings = settings or {}
    channel, at = settings.get(PUZZLE_CHANNEL), settings.get(PUZZLE_TIME)
    if not channel or not at:
        return None
    hour, minute = str(at).split(":")
    return int(channel), time(int(hour), int(minute))


def read_puzzle_time(written: str) -> time | None:
    """``puzzle_time`` as typed: a clock time ("18:00", "6pm"), or None for off."""
    if written.strip().casefold() in say.OFF_WORDS:
        return None
    return parse_clock_time(written)


async def schedule_daily(uow: UnitOfWork, guild: GuildRecord, now: datetime) -> datetime | None:
    """Move the club's daily puzzle job to its next post (in the settings' transaction),
    or cancel it when the daily puzzle is off; the next post's time, or None."""
    setting = daily_setting(guild.settings)
    if setting is None:
        await uow.jobs.cancel(daily_key(guild.id))
        return None
    _channel, at = setting
    zone = club_zone(guild.timezone)
    day, due = next_post(now, at, zone)
    if await uow.puzzle_dailies.of_day(guild.id, day.isoformat()) is not None:
        day += timedelta(days=1)  # today's is out already (an earlier time): tomorrow
        due = post_at(day, at, zone)
    await uow.jobs.schedule(
        JOB_DAILY,
        due,
        {"guild_id": guild.id, "day": day.isoformat(), "time": at.strftime("%H:%M")},
        key=daily_key(guild.id),
    )
    return due


def scrabble_post(puzzle: PuzzleRecord, when: datetime) -> Post:
    """A Scrabble puzzle's post: the board image (described in words) and the rack."""
    data = puzzle.data
    rows, rack = list(data["board"]), str(data["rack"])
    board = FileSpec(
        RENDER_BOARD,
        {"rows": rows, "last": [], "header": [], "filename": f"daily-puzzle-{puzzle.id}.png"},
        board_alt_text(rows, rack),
    )
    text = say.post_text(
        say.game_name(puzzle.kind),
        int(data.get("game_number") or 0),
        int(data["ply"]) + 1,
        rack,
        when,
    )
    return Post(text, files=(board,), view=solve_view(puzzle.id))


def chess_post(puzzle: PuzzleRecord, when: datetime) -> Post:
    """A chess puzzle's post: the board from the solver's side (the move that led to it
    marked), described in words with its FEN."""
    position = ChessPuzzle.from_json(puzzle.data)
    number = int(puzzle.data.get("game_number") or 0)
    args: BoardImageArgs = {
        "fen": position.fen,
        "last_move": position.last,
        "orientation": color_key(position.color),
        "game_id": int(puzzle.game_id),
        "number": number,
        "ply": position.ply,
    }
    board = FileSpec(CHESS_BOARD, dict(args), chess_board_alt_text(position.fen, position.color))
    move = chess.Board(position.fen).fullmove_number
    text = say.post_text(say.game_name(puzzle.kind), number, move, None, when)
    return Post(text, files=(board,), view=solve_view(puzzle.id))


def words_post(puzzle: PuzzleRecord, when: datetime) -> Post:
    """A puzzle of a kind with no poster: its words and the Solve button."""
    data = puzzle.data
    text = say.post_text(
        say.game_name(puzzle.kind),
        int(data.get("game_number") or 0),
        int(data.get("ply") or 0) + 1,
        None,
        when,
    )
    return Post(text, view=solve_view(puzzle.id))


def solve_view(puzzle_id: int) -> ViewSpec:
    """The post's Solve button (persistent: its id carries the puzzle)."""
    return ViewSpec(VIEW_SOLVE, {"puzzle_id": puzzle_id})


POSTERS: dict[str, Poster] = {"scrabble": scrabble_post, "chess": chess_post}


async def pick(
    uow: UnitOfWork, guild_id: int, kinds: tuple[str, ...] = KINDS
) -> PuzzleRecord | None:
    """The day's puzzle: the games in turn (the kind after the last daily's first), the
    first kind with a puzzle never posted as a daily from a game that is over."""
    last = await uow.puzzle_dailies.last(guild_id)
    start = (kinds.index(last.kind) + 1) % len(kinds) if last and last.kind in kinds else 0
    for kind in kinds[start:] + kinds[:start]:
        found = await uow.puzzle_dailies.candidate(guild_id, kind)
        if found is not None:
            return found
    return None


class DailyPuzzles:
    """The daily puzzle's job and what happens when its channel or club goes away."""

    def __init__(self, ctx: ServiceContext, *, kinds: tuple[str, ...] | None = None) -> None:
        self.ctx = ctx
        # The games whose puzzles take turns: every kind, not only those PuzzleService
        # offers to /puzzle (chess only with Stockfish). A chess puzzle is stored with its
        # whole line, the bot's replies included, and judged from it (Solve, the Answer
        # form, the board page), so a club whose Stockfish was removed still gets the
        # chess puzzles it has; only new ones stop coming.
        self.kinds = kinds or KINDS

    def job_handlers(self) -> dict[str, JobSpec]:
        """The daily puzzle's job."""
        return {JOB_DAILY: JobSpec(self.on_daily_puzzle)}

    async def on_daily_puzzle(self, uow: UnitOfWork, job: JobRecord) -> None:
        """Job ``JOB_DAILY``: post the day's puzzle (once a day), then move the job to
        the next day's time."""
        guild_id = int(job.payload["guild_id"])
        guild = await uow.guilds.get(guild_id)
        setting = daily_setting(guild.settings if guild else None)
        if guild is None or setting is None:
            log.info("daily puzzle of guild %s: off, nothing posted", guild_id)
            return
        channel_id, at = setting
        zone = club_zone(guild.timezone)
        now = self.ctx.clock()
        day = date.fromisoformat(str(job.payload["day"]))
        if job.payload.get("time") != at.strftime("%H:%M") or now >= post_at(
            day + timedelta(days=1), at, zone
        ):
            # Set for another time (a change this job missed), or a whole day late (the
            # bot was away): no post out of its time, the next one at the right time.
            log.info("daily puzzle of guild %s for %s: not its time, moved on", guild_id, day)
            await schedule_daily(uow, guild, now)
            return
        if await uow.puzzle_dailies.of_day(guild_id, day.isoformat()) is None:
            puzzle = await pick(uow, guild_id, self.kinds)
            if puzzle is None:
                log.info("daily puzzle of guild %s for %s: no puzzle to post", guild_id, day)
            else:
                await uow.puzzle_dailies.add(
                    PuzzleDailyRecord(
                        guild_id=guild_id,
                        day=day.isoformat(),
                        puzzle_id=puzzle.id,
                        kind=puzzle.kind,
                        channel_id=channel_id,
                        posted_at=now,
                    )
                )
                poster = POSTERS.get(puzzle.kind, words_post)
                uow.outbox.to_channel(channel_id, poster(puzzle, post_at(day, at, zone)))
        following = day + timedelta(days=1)
        await uow.jobs.schedule(
            JOB_DAILY,
            post_at(following, at, zone),
            {"guild_id": guild_id, "day": following.isoformat(), "time": at.strftime("%H:%M")},
            key=daily_key(guild_id),
        )

    async def channel_gone(self, guild_id: int, channel_id: int) -> bool:
        """The puzzle channel was deleted: the daily puzzle is off (logged); whether it was
        that channel."""
        async with self.ctx.uow() as uow:
            guild = await uow.guilds.get(guild_id)
            setting = daily_setting(guild.settings if guild else None)
            if guild is None or setting is None or setting[0] != channel_id:
                return False
            await self._turn_off(uow, guild)
            await uow.commit()
        log.warning(
            "daily puzzle of guild %s: its channel %s is gone, turned off", guild_id, channel_id
        )
        return True

    async def club_left(self, guild_id: int) -> bool:
        """The bot left the club (or was removed): its daily puzzle stops (logged)."""
        async with self.ctx.uow() as uow:
            guild = await uow.guilds.get(guild_id)
            if guild is None or daily_setting(guild.settings) is None:
                return False
            await self._turn_off(uow, guild)
            await uow.commit()
        log.warning("daily puzzle of guild %s: the bot left the club, turned off", guild_id)
        return True

    async def _turn_off(self, uow: UnitOfWork, guild: GuildRecord) -> None:
        guild.settings = {k: v for k, v in (guild.settings or {}).items() if k != PUZZLE_TIME}
        await uow.jobs.cancel(daily_key(guild.id))
