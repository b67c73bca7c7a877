"""Chess over the board (a tournament made with ``where: room``): the bot pairs
each round and keeps its deadline, but makes no game in Discord; each player
reports their game's result (``reports.OverTheBoard.report``, from their own
point of view). This module keeps the reports and rates a board's result.

The reports are kept with the tournament (its options' ``reports``, by
``round:board``: each side's report as the first seat's score), written in the
report's own transaction, which claims the tournament's version as every
change does: a restart between the two reports loses nothing, and two reports
at once are serialised. A report may change until the other side reports; the
two agreeing record the board's result exactly as a finished game's job does
(the pairing's score, then ``Lifecycle.advance``: the standings, the next round
or the final table), and rate it as a finished game is rated
(``record_game_result``, once per board). Two that differ flag the board for
the director, who settles it with ``/tournament adjudicate`` (``Director``
rates it then, through ``rate_board``).
"""

from __future__ import annotations

from typing import Any

from bot.db.models_tournaments import (
    TournamentEntrantRecord,
    TournamentPairingRecord,
    TournamentRecord,
)
from bot.db.uow import UnitOfWork
from bot.services.chess.options import BLACK_SEAT, WHITE_SEAT
from bot.services.results import RatingChange, SeatOutcome, record_game_result
from bot.services.tournaments.core import TournamentCore

FIRST, SECOND = "first", "second"


def report_key(p: TournamentPairingRecord) -> str:
    """Where a board's reports are kept in the tournament's options."""
    return f"{p.round}:{p.board}"


def reports_of(t: TournamentRecord) -> dict[str, dict[str, Any]]:
    """A copy of the tournament's reports, by board (``report_key``), to change and ``store``."""
    return {k: dict(v) for k, v in (t.options.get("reports") or {}).items()}


def store(t: TournamentRecord, reports: dict[str, dict[str, Any]]) -> None:
    """Keep ``reports`` with the tournament, written with its transaction."""
    t.options = {**t.options, "reports": reports}  # a new dict: the JSON column is written


def members(e: TournamentEntrantRecord) -> list[int]:
    """The members an entrant seats: one, or a pair."""
    return [e.user_id] + ([e.partner_id] if e.partner_id is not None else [])


async def rate_board(
    core: TournamentCore, uow: UnitOfWork, t: TournamentRecord, p: TournamentPairingRecord
) -> list[RatingChange]:
    """Rate an over-the-board board's result as a finished chess game is rated (White the
    first seat), once per board and only in a rated tournament; a later change of its
    result (the director's) moves the standings, not the ratings, as for online games.
    The ratings it moved (none when it did not rate)."""
    if p.score is None or p.second_id is None or not t.options.get("rated", True):
        return []
    reports = reports_of(t)
    entry = reports.setdefault(report_key(p), {})
    if entry.get("rated"):
        return []
    by_id = {e.id: e for e in await uow.tournaments.entrants(t.id)}
    white, black = by_id[p.first_id], by_id[p.second_id]
    extra: dict[str, Any] = {"termination": "over the board", "tournament_id": t.id}
    changes = await record_game_result(
        uow,
        guild_id=t.guild_id,
        kind="chess",
        game_id=None,
        played_at=core.now(),
        announce_in=t.channel_id,
        seats=[
            SeatOutcome(
                WHITE_SEAT,
                members(white),
                rank=0 if p.score >= 0.5 else 1,
                score=p.score,
                extra=extra,
            ),
            SeatOutcome(
                BLACK_SEAT,
                members(black),
                rank=0 if p.score <= 0.5 else 1,
                score=1.0 - p.score,
                extra=extra,
            ),
        ],
    )
    entry["rated"] = True
    entry.pop("conflict", None)
    store(t, reports)
    return changes


def side_word(score: float) -> str:
    """A side's own score as the word it reported."""
    return {1.0: "win", 0.0: "loss"}.get(score, "draw")
