"""Recording finished games: results rows and Glicko-2 ratings, in the game's
own transaction (so a finished game and its rating change commit together)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import TypeAlias

from bot.db.models import ResultRecord
from bot.db.uow import UnitOfWork
from bot.services import achievements
from engines.ratings import RatingState, glicko2

RATED_KINDS = ("chess", "scrabble")

# What a result's ``extra`` holds: JSON the game chooses (a termination, a round
# number); the rating before and after are added here for rated games.
JsonValue: TypeAlias = (
    str | int | float | bool | Sequence["JsonValue"] | Mapping[str, "JsonValue"] | None
)
ResultExtra: TypeAlias = Mapping[str, JsonValue]


@dataclass(frozen=True)
class SeatOutcome:
    """One seat's result. ``rank`` 0 is first; seats with equal rank drew."""

    seat: int
    user_ids: Sequence[int]
    rank: int
    score: float | None = None
    extra: ResultExtra = field(default_factory=dict)


@dataclass(frozen=True)
class RatingChange:
    """How a rated game moved a member's rating: before, after, and the deviation after."""

    user_id: int
    before: float
    after: float
    rd_after: float


def _outcome(rank: int, ranks: Sequence[int]) -> str:
    best = min(ranks)
    if all(r == best for r in ranks):
        return "draw"
    return "win" if rank == best else "loss"


async def record_game_result(
    uow: UnitOfWork,
    *,
    guild_id: int,
    kind: str,
    game_id: int | None,
    seats: Sequence[SeatOutcome],
    played_at: datetime,
    rated: bool = True,
    season: str | None = None,
    announce_in: int | None = None,
) -> list[RatingChange]:
    """Write one result per member and update ratings; returns rating changes.

    Ratings are on the seat mean: each seat, a single player or a team of any
    size, plays as its members' mean rating (and mean deviation, for its
    opponents) against every other seat. A team member's rating moves by what
    the seat mean would move with that member's own deviation and volatility,
    so partners of different strength win or lose the same for the same
    result, and a single seat is rated exactly as a player alone.

    The achievements the finish earns (a first win, 10 games) are granted here, in
    the game's transaction, and announced in ``announce_in`` (the game's channel).
    """
    ranks = [s.rank for s in seats]
    states: dict[int, RatingState] = {}
    records = {}
    for s in seats:
        for uid in s.user_ids:
            rec = await uow.ratings.get_or_new(guild_id, kind, uid)
            records[uid] = rec
            states[uid] = RatingState(rec.rating, rec.rd, rec.volatility)

    def seat_state(s: SeatOutcome) -> RatingState:
        members = [states[u] for u in s.user_ids]
        return RatingState(
            sum(m.rating for m in members) / len(members),
            sum(m.rd for m in members) / len(members),
            sum(m.volatility for m in members) / len(members),
        )

    team_states = {s.seat: seat_state(s) for s in seats}
    changes: list[RatingChange] = []
    outcomes: dict[int, str] = {}
    for s in seats:
        outcome = _outcome(s.rank, ranks)
        others = [o for o in seats if o.seat != s.seat]
        best_other = max((o.score for o in others if o.score is not None), default=None)
        spread = (
            (s.score - best_other) if (s.score is not None and best_other is not None) else None
        )
        for uid in s.user_ids:
            rec = records[uid]
            rec.games += 1
            rec.wins += outcome == "win"
            rec.losses += outcome == "loss"
            rec.draws += outcome == "draw"
            rec.last_played_at = played_at
            if spread is not None:
                rec.spread += spread
            extra: dict[str, JsonValue] = dict(s.extra)
            if rated and kind in RATED_KINDS:
                results = []
                for o in others:
                    opp = team_states[o.seat]
                    score = 1.0 if s.rank < o.rank else 0.0 if s.rank > o.rank else 0.5
                    results.append((opp.rating, opp.rd, score))
                before = rec.rating
                seat_mean = team_states[s.seat].rating
                after_mean, rec.rd, rec.volatility = glicko2(
                    seat_mean, rec.rd, rec.volatility, results
                )
                rec.rating = before + (after_mean - seat_mean)
                changes.append(RatingChange(uid, before, rec.rating, rec.rd))
                extra["rating_before"] = round(before, 2)
                extra["rating_after"] = round(rec.rating, 2)
            outcomes[uid] = outcome
            uow.results.record(
                guild_id=guild_id,
                kind=kind,
                game_id=game_id,
                player_id=uid,
                outcome=outcome,
                score=s.score,
                opponent_score=best_other,
                season=season,
                extra=extra,
                played_at=played_at,
            )
    await uow.results.flush()
    await achievements.games_finished(
        uow, guild_id=guild_id, outcomes=outcomes, now=played_at, channel_id=announce_in
    )
    return changes


async def record_points(
    uow: UnitOfWork,
    *,
    guild_id: int,
    kind: str,
    player_id: int,
    points: float | None,
    played_at: datetime,
    round_ref: str,
    outcome: str | None = None,
    time_ms: int | None = None,
    season: str | None = None,
    extra: ResultExtra | None = None,
) -> ResultRecord:
    """A points or time result (Boggle round, Henyo word): no rating involved.

    Running totals (points, best time, wins) are kept on the member's standing.
    """
    rec = await uow.ratings.get_or_new(guild_id, kind, player_id)
    rec.games += 1
    rec.wins += outcome == "win"
    rec.losses += outcome == "loss"
    rec.last_played_at = played_at
    if points is not None:
        rec.points += points
    if time_ms is not None and (rec.best_time_ms is None or time_ms < rec.best_time_ms):
        rec.best_time_ms = time_ms
    return uow.results.record(
        guild_id=guild_id,
        kind=kind,
        round_ref=round_ref,
        player_id=player_id,
        outcome=outcome,
        points=points,
        time_ms=time_ms,
        season=season,
        extra=extra,
        played_at=played_at,
    )


async def take_back_points(uow: UnitOfWork, *, guild_id: int, kind: str, round_ref: str) -> None:
    """Undo ``record_points`` for a round (a Henyo host took back Got it or Coaching):
    its results go, and each member's running totals lose them (the best time is
    read again from the results that remain)."""
    for row in await uow.results.take_back(guild_id, kind, round_ref):
        rec = await uow.ratings.get_or_new(guild_id, kind, row.player_id)
        rec.games = max(0, rec.games - 1)
        rec.wins -= row.outcome == "win" and rec.wins > 0
        rec.losses -= row.outcome == "loss" and rec.losses > 0
        if row.points is not None:
            rec.points -= row.points
        rec.best_time_ms = await uow.results.best_time(guild_id, kind, row.player_id)
