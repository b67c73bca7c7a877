"""The one way a chess game is made, whoever makes it (a challenge, a game against
the computer, a tournament's round), inside the caller's unit of work.

``seat_game`` holds what every new game shares: its players stored, its options
(``ChessOptions``: the time control, the colour asked, the computer's seat and
level, the ``rated`` flag, the caller's marks such as the tournament's), its
number (``add_with_seats`` computes it in the INSERT: two games made at once may
take the same one, so the caller's unit of work is retried on that duplicate),
its two seat rows, and its first jobs:

- a challenge still waiting for its opponent expires (``JOB_INVITE``, an hour
  for a live clock, a week otherwise);
- a game accepted by both seats (a tournament's, the computer's) starts at once:
  its clock runs from ``now``, the flag and reminder (or the computer's reply)
  are scheduled; with ``open_retry`` the opening job retries making its thread
  (a tournament opens its games' threads itself).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from datetime import datetime, timedelta
from typing import Any

from bot.db.models import GameRecord
from bot.db.uow import UnitOfWork
from bot.services.chess.core import ChessCore
from bot.services.chess.options import (
    BLACK_SEAT,
    INVITE_TTL_CORRESPONDENCE,
    INVITE_TTL_LIVE,
    JOB_INVITE,
    JOB_OPEN,
    KIND,
    OPEN_RETRY,
    WHITE_SEAT,
    ChessOptions,
    invite_key,
    open_key,
)
from bot.services.chess.snapshots import PlayerRef
from bot.services.chess.state import ChessState
from engines.chess_clock import ChessClock, TimeControl


def started(control: TimeControl, now: datetime) -> ChessState:
    """A game's state as its clock starts: no moves, White to move."""
    return ChessState(moves=[], clock=ChessClock.start(control, now), started_at=now)


async def seat_game(
    core: ChessCore,
    uow: UnitOfWork,
    *,
    guild_id: int,
    guild_name: str = "",
    channel_id: int,
    white: PlayerRef | Sequence[PlayerRef],
    black: PlayerRef | Sequence[PlayerRef],
    control: TimeControl,
    color: str,
    created_by: int,
    now: datetime,
    accepted: bool | Collection[int] = False,
    computer_seat: int | None = None,
    computer_level: int | None = None,
    rated: bool = True,
    open_retry: bool = False,
    computer_delay: timedelta = timedelta(0),
    extra_options: Mapping[str, Any] | None = None,
) -> GameRecord:
    """A new game with its two seats, flushed (it has its id and number).

    ``accepted``: True when both seats accepted already (a tournament's entrants,
    the computer's game), else the ids that did (the challenger); the computer's
    seat always accepts. ``color`` is the colour asked for (``white``, ``black``,
    ``random``), kept for the game's description. ``rated=False`` keeps the game
    out of the ratings (a tournament that is not rated). ``white`` and ``black``
    are each a member or a pair (a sequence of members)."""
    seats = [
        (seat, player)
        for seat, side in ((WHITE_SEAT, white), (BLACK_SEAT, black))
        for player in ((side,) if isinstance(side, PlayerRef) else side)
    ]
    yes = {
        player.user_id
        for seat, player in seats
        if seat == computer_seat
        or accepted is True
        or (accepted is not False and player.user_id in accepted)
    }
    options: ChessOptions = {"time_control": control.text(), "color": color}
    if computer_seat is not None:
        options["computer_seat"] = computer_seat
        if computer_level is not None:
            options["computer_level"] = computer_level
    stored: dict[str, Any] = {**options, **(extra_options or {})}
    if not rated:
        stored["rated"] = False
    await uow.guilds.note(guild_id, guild_name)
    for _seat, player in seats:
        await uow.players.note(player.user_id, player.name)
    playing = all(player.user_id in yes for _seat, player in seats)
    state = started(control, now) if playing else ChessState(moves=[], clock=None)
    game = await uow.games.add_with_seats(
        GameRecord(
            guild_id=guild_id,
            kind=KIND,
            channel_id=channel_id,
            status="active" if playing else "invited",
            version=1,
            options=stored,
            state=dict(state.dump()),
            created_by=created_by,
            created_at=now,
            updated_at=now,
            deadline=state.running_clock().flag_time() if playing else None,
        ),
        [(seat, player.user_id, player.user_id in yes) for seat, player in seats],
    )
    if not playing:
        ttl = INVITE_TTL_LIVE if control.is_live else INVITE_TTL_CORRESPONDENCE
        await uow.jobs.schedule(
            JOB_INVITE, now + ttl, {"game_id": game.id}, key=invite_key(game.id)
        )
        return game
    if open_retry:
        # The opening job first: due with the computer's first move, it runs before it.
        await uow.jobs.schedule(
            JOB_OPEN, now + OPEN_RETRY, {"game_id": game.id}, key=open_key(game.id)
        )
    snap = await core.snapshot(uow, game, state)
    await core.schedule_turn(uow, snap, now, computer_delay=computer_delay)
    return game
