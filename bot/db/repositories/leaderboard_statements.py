"""The leaderboard's statements, built once each and run with a call's parameters.

Parameters: :guild_id, :offset, :limit, and :kind, :since (period tables) or
:active_since (all-time rated tables) where the statement has them. Each
returns one ranked page with the members' names and a ``total`` column (how
many rows the whole table has).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any

from sqlalchemy import (
    ColumnElement,
    ScalarSelect,
    Select,
    Subquery,
    and_,
    bindparam,
    case,
    func,
    null,
    select,
)

from bot.db.models import PlayerRecord, RatingRecord, ResultRecord

# A statement of any columns: the tables read their rows' columns by name.
Statement = Select[*tuple[Any, ...]]


def _count_outcome(outcome: str) -> ColumnElement[int]:
    return func.sum(case((ResultRecord.outcome == outcome, 1), else_=0))


def _wins() -> ColumnElement[int]:
    return _count_outcome("win")


def _results_where(kind: str | None, by_period: bool) -> list[ColumnElement[bool]]:
    conds = [ResultRecord.guild_id == bindparam("guild_id")]
    if kind is not None:
        conds.append(ResultRecord.game_kind == kind)
    if by_period:
        conds.append(ResultRecord.played_at >= bindparam("since"))
    return conds


def _count_of(standing: tuple[ColumnElement[bool], ...]) -> ScalarSelect[int]:
    """How many ``ratings`` rows match: a subquery run once per statement. (A window
    count would make the database rank every member; this lets it read the
    ratings index in order and stop after the page.)"""
    return (
        select(func.count())
        .select_from(RatingRecord)
        .where(*standing)
        .correlate(None)
        .scalar_subquery()
    )


def _with_names(
    ranked: Statement, order: Callable[[Subquery], tuple[ColumnElement[Any], ...]]
) -> Statement:
    """One ranked page (``ranked`` with its offset and limit) and the members' names,
    ranked again by ``order`` (the same ranking on the page's columns)."""
    page = ranked.offset(bindparam("offset")).limit(bindparam("limit")).subquery()
    return (
        select(page, PlayerRecord.display_name)
        .join(PlayerRecord, PlayerRecord.id == page.c.player_id)
        .order_by(*order(page))
    )


@cache
def rated_statement(by_period: bool) -> Statement:
    if not by_period:
        standing = (
            RatingRecord.guild_id == bindparam("guild_id"),
            RatingRecord.game_kind == bindparam("kind"),
            RatingRecord.games > 0,
            RatingRecord.last_played_at >= bindparam("active_since"),
        )
        ranked = (
            select(
                RatingRecord.player_id,
                RatingRecord.rating,
                RatingRecord.rd,
                RatingRecord.games,
                RatingRecord.wins,
                RatingRecord.losses,
                RatingRecord.draws,
                _count_of(standing).label("total"),
                null().label("trend"),
            )
            .where(*standing)
            .order_by(RatingRecord.rating.desc(), RatingRecord.player_id)
        )
        return _with_names(ranked, lambda p: (p.c.rating.desc(), p.c.player_id))
    # The period's games per member, beside their current rating; the trend is
    # the sum of the rating changes recorded with each result.
    after = ResultRecord.extra["rating_after"].as_float()
    before = ResultRecord.extra["rating_before"].as_float()
    played = (
        select(
            ResultRecord.player_id,
            func.count().label("games"),
            _count_outcome("win").label("wins"),
            _count_outcome("loss").label("losses"),
            _count_outcome("draw").label("draws"),
            func.sum(func.coalesce(after - func.coalesce(before, after), 0.0)).label("trend"),
        )
        .where(ResultRecord.game_kind == bindparam("kind"), *_results_where(None, True))
        .group_by(ResultRecord.player_id)
        .subquery()
    )
    ranked = (
        select(
            played.c.player_id,
            RatingRecord.rating,
            RatingRecord.rd,
            played.c.games,
            played.c.wins,
            played.c.losses,
            played.c.draws,
            func.count().over().label("total"),
            played.c.trend,
        )
        .join(
            RatingRecord,
            and_(
                RatingRecord.guild_id == bindparam("guild_id"),
                RatingRecord.game_kind == bindparam("kind"),
                RatingRecord.player_id == played.c.player_id,
            ),
        )
        .order_by(RatingRecord.rating.desc(), played.c.player_id)
    )
    return _with_names(ranked, lambda p: (p.c.rating.desc(), p.c.player_id))


@cache
def points_statement(by_period: bool) -> Statement:
    if not by_period:
        standing = (
            RatingRecord.guild_id == bindparam("guild_id"),
            RatingRecord.game_kind == "boggle",
            RatingRecord.games > 0,
        )
        ranked: Statement = (
            select(
                RatingRecord.player_id,
                RatingRecord.points,
                RatingRecord.games,
                RatingRecord.wins,
                _count_of(standing).label("total"),
            )
            .where(*standing)
            .order_by(RatingRecord.points.desc(), RatingRecord.wins.desc(), RatingRecord.player_id)
        )
        return _with_names(ranked, lambda p: (p.c.points.desc(), p.c.wins.desc(), p.c.player_id))
    points = func.coalesce(func.sum(ResultRecord.points), 0)
    ranked = (
        select(
            ResultRecord.player_id,
            points.label("points"),
            func.count().label("games"),
            _wins().label("wins"),
            func.count().over().label("total"),
        )
        .where(*_results_where("boggle", True))
        .group_by(ResultRecord.player_id)
        .order_by(points.desc(), ResultRecord.player_id)
    )
    return _with_names(ranked, lambda p: (p.c.points.desc(), p.c.player_id))


@cache
def times_statement(by_period: bool) -> Statement:
    best = func.min(ResultRecord.time_ms)
    # An event win is its own row (round_ref "henyo:event:…"), not a word played.
    words = func.sum(case((ResultRecord.round_ref.like("henyo:event:%"), 0), else_=1))
    ranked = (
        select(
            ResultRecord.player_id,
            best.label("best"),
            words.label("words"),
            func.count(ResultRecord.time_ms).label("guessed"),
            _wins().label("wins"),
            func.count().over().label("total"),
        )
        .where(*_results_where("henyo", by_period))
        .group_by(ResultRecord.player_id)
        .order_by(best.is_(None), best, ResultRecord.player_id)
    )
    return _with_names(ranked, lambda p: (p.c.best.is_(None), p.c.best, p.c.player_id))


@cache
def overall_statement(by_period: bool) -> Statement:
    wins = _wins()
    ranked = (
        select(
            ResultRecord.player_id,
            func.count().label("games"),
            wins.label("wins"),
            func.count().over().label("total"),
        )
        # A puzzle solved is not a game won: puzzles have a table of their own.
        .where(*_results_where(None, by_period), ResultRecord.game_kind != "puzzle")
        .group_by(ResultRecord.player_id)
        .order_by(wins.desc(), func.count().desc(), ResultRecord.player_id)
    )
    return _with_names(ranked, lambda p: (p.c.wins.desc(), p.c.games.desc(), p.c.player_id))
