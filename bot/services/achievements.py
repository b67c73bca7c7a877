"""Achievements (issue #31): first win, first bingo, 10 games finished, a Boggle word of
8 letters or more, a 7-day streak (of any kind: the daily Boggle grid's today,
puzzles' when they come).

Each is granted where its event happens, in the event's own unit of work (a game's
finish, a play, a round's or a day's scoring), so both commit or neither. A member
has each at most once per club (a unique row): granting it again does nothing, and
its one announcement goes to the channel through the outbox with the row.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime, timedelta

from bot.db.models_daily import AchievementRecord
from bot.db.uow import UnitOfWork
from bot.messages.achievements import achievement_post

FIRST_WIN = "first_win"
FIRST_BINGO = "first_bingo"
GAMES_10 = "games_10"
BOGGLE_LONG_WORD = "boggle_long_word"
STREAK_7 = "streak_7"
CODES = (FIRST_WIN, FIRST_BINGO, GAMES_10, BOGGLE_LONG_WORD, STREAK_7)
GAMES_FOR_10 = 10
LONG_WORD_LETTERS = 8
STREAK_DAYS = 7
# A word found on the grid and in the word list (a cancelled one was found too).
FOUND_STATUSES = ("scored", "cancelled")


@dataclass(frozen=True)
class Earned:
    """An achievement as ``/stats`` shows it."""

    code: str
    earned_at: datetime
    detail: Mapping[str, object]


@dataclass(frozen=True)
class Streak:
    """A run of club days in a row: the one going on (ending today or yesterday) and the best."""

    kind: str
    current: int
    best: int


async def grant(
    uow: UnitOfWork,
    *,
    guild_id: int,
    player_id: int,
    code: str,
    now: datetime,
    channel_id: int | None,
    detail: Mapping[str, object] | None = None,
) -> bool:
    """Give the member ``code`` unless they have it; announce it once in ``channel_id``."""
    facts = dict(detail or {})
    added = await uow.achievements.add_once(
        AchievementRecord(
            guild_id=guild_id, player_id=player_id, code=code, earned_at=now, detail=facts
        )
    )
    if added and channel_id is not None:
        uow.outbox.to_channel(channel_id, achievement_post(player_id, code, facts))
    return added


async def games_finished(
    uow: UnitOfWork,
    *,
    guild_id: int,
    outcomes: Mapping[int, str],
    now: datetime,
    channel_id: int | None,
) -> None:
    """A game or round finished (its results recorded in this unit of work): a first win
    for its winners, 10 games for those who have now finished ten."""
    for player_id, outcome in outcomes.items():
        if outcome == "win":
            await grant(
                uow,
                guild_id=guild_id,
                player_id=player_id,
                code=FIRST_WIN,
                now=now,
                channel_id=channel_id,
            )
        if await uow.achievements.games_finished(guild_id, player_id) >= GAMES_FOR_10:
            await grant(
                uow,
                guild_id=guild_id,
                player_id=player_id,
                code=GAMES_10,
                now=now,
                channel_id=channel_id,
            )


async def bingo_played(
    uow: UnitOfWork,
    *,
    guild_id: int,
    player_ids: Iterable[int],
    now: datetime,
    channel_id: int | None,
) -> None:
    """A Scrabble play of all seven tiles is final: on the board and past challenge (a
    phony challenged off never gets here: ``ScrabbleGame.bingos_now_final``)."""
    for player_id in player_ids:
        await grant(
            uow,
            guild_id=guild_id,
            player_id=player_id,
            code=FIRST_BINGO,
            now=now,
            channel_id=channel_id,
        )


async def boggle_words_found(
    uow: UnitOfWork,
    *,
    guild_id: int,
    words: Mapping[int, Sequence[tuple[str, str]]],
    now: datetime,
    channel_id: int | None,
) -> None:
    """A Boggle list was judged: (word, status) per player; a found word of 8 letters or
    more (a Qu cell counts two, as it does for scoring) earns the long-word achievement."""
    for player_id, judged in words.items():
        longest = max(
            (w for w, status in judged if status in FOUND_STATUSES),
            key=len,
            default="",
        )
        if len(longest) >= LONG_WORD_LETTERS:
            await grant(
                uow,
                guild_id=guild_id,
                player_id=player_id,
                code=BOGGLE_LONG_WORD,
                now=now,
                channel_id=channel_id,
                detail={"word": longest},
            )


async def streak_reached(
    uow: UnitOfWork,
    *,
    guild_id: int,
    player_id: int,
    kind: str,
    days: int,
    now: datetime,
    channel_id: int | None,
) -> None:
    """A streak of ``kind`` (``boggle_daily``, a puzzle's) is now ``days`` long."""
    if days >= STREAK_DAYS:
        await grant(
            uow,
            guild_id=guild_id,
            player_id=player_id,
            code=STREAK_7,
            now=now,
            channel_id=channel_id,
            detail={"kind": kind},
        )


def streak_of(kind: str, days: Iterable[str], today: date) -> Streak:
    """The runs of consecutive club days (ISO dates) in ``days``: the current one counts
    when it reaches today or yesterday (today's may still be played)."""
    ordered = sorted({date.fromisoformat(day) for day in days})
    best = run = 0
    previous: date | None = None
    for day in ordered:
        run = run + 1 if previous is not None and day - previous == timedelta(days=1) else 1
        best = max(best, run)
        previous = day
    current = run if previous is not None and today - previous <= timedelta(days=1) else 0
    return Streak(kind, current, best)


async def earned(uow: UnitOfWork, guild_id: int, player_id: int) -> list[Earned]:
    """The member's achievements in the club, earliest first."""
    rows = await uow.achievements.of_member(guild_id, player_id)
    return [Earned(row.code, row.earned_at, dict(row.detail or {})) for row in rows]
