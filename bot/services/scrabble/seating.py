"""The one way a Scrabble game is made, whoever makes it (``/scrabble new``, a club
session's boards, a tournament's round), inside the caller's unit of work.

``seat_game`` holds what every new game shares: its players stored, its options
(``GameSettings.to_json()``, the ``rated`` flag, the caller's marks such as the
tournament's), its number (``add_with_seats`` computes it in the INSERT: two games
made at once may take the same one, so the caller's unit of work is retried on
that duplicate), its seat rows, and its first jobs: an invitation (members
asked, not signed up: ``accepted`` is not True) expires after ``INVITE_TTL``
unless its ``start`` comes first (``JOB_INVITE``). A game whose seats are all accepted may be
dealt at once (``rng`` given): it is then ``active`` with its engine, and its turn
clock starts when its first board is posted; otherwise it waits ``invited`` for
``Invitations.start``, which deals with ``deal``.
"""

from __future__ import annotations

import random
from collections.abc import Collection, Mapping, Sequence
from datetime import datetime
from typing import Any

from bot.db.models import GameRecord
from bot.db.uow import UnitOfWork
from bot.services.scrabble.core import INVITE_TTL, JOB_INVITE, job_key
from bot.services.scrabble.loaded import KIND
from bot.services.scrabble.options import GameSettings, Member, check_seats
from engines.scrabble import ScrabbleGame


def deal(settings: GameSettings, rng: random.Random) -> ScrabbleGame:
    """A new game's engine: the bag shuffled by ``rng`` (the service's), tiles drawn."""
    return ScrabbleGame.new(settings.rules, rng.randrange(2**62))


async def seat_game(
    uow: UnitOfWork,
    *,
    guild_id: int,
    guild_name: str = "",
    channel_id: int,
    seats: Sequence[Sequence[Member]],
    settings: GameSettings,
    created_by: int,
    now: datetime,
    accepted: bool | Collection[int] = False,
    in_thread: bool = False,
    rated: bool = True,
    rng: random.Random | None = None,
    deadline: datetime | None = None,
    extra_options: Mapping[str, Any] | None = None,
) -> GameRecord:
    """A new game with its seats, flushed (it has its id and number).

    ``seats`` in seat order, one list per seat (a pair is two members), checked as
    ``/scrabble new``'s are. ``accepted``: True when every member accepted already
    (they signed up), else the ids that did (the creator, say); the computer's seat
    always accepts. ``in_thread``: the game plays in ``channel_id`` (a thread).
    ``rated=False`` keeps an otherwise rated game out of the ratings (a tournament
    that is not rated). ``rng`` deals the game now (every seat must be accepted);
    ``deadline`` is then the game's own.
    """
    seated = check_seats(seats)
    yes = {
        m.user_id
        for members in seated
        for m in members
        if m.computer or accepted is True or (accepted is not False and m.user_id in accepted)
    }
    everyone = [m for members in seated for m in members]
    if rng is not None and any(m.user_id not in yes for m in everyone):
        raise ValueError("a game is dealt only when every seat has accepted")
    await uow.guilds.note(guild_id, guild_name)
    for member in everyone:
        if member.computer and await uow.players.get(member.user_id) is not None:
            continue  # the bot's row keeps the name chess gave it; Scrabble labels it itself
        await uow.players.note(member.user_id, member.name)
    options: dict[str, Any] = {**settings.to_json(), **(extra_options or {})}
    if not rated:
        options["rated"] = False
    state: dict[str, Any] = {}
    if rng is not None:
        state = {"engine": deal(settings, rng).to_json()}
    record = GameRecord(
        guild_id=guild_id,
        kind=KIND,
        channel_id=channel_id,
        thread_id=channel_id if in_thread else None,
        status="active" if rng is not None else "invited",
        options=options,
        state=state,
        version=1,
        created_by=created_by,
        created_at=now,
        updated_at=now,
        deadline=deadline if rng is not None else None,
    )
    await uow.games.add_with_seats(
        record,
        [
            (seat, m.user_id, m.user_id in yes)
            for seat, members in enumerate(seated)
            for m in members
        ],
    )
    if rng is None and accepted is not True:
        await uow.jobs.schedule(
            JOB_INVITE, now + INVITE_TTL, {"game_id": record.id}, key=job_key(record.id, "invite")
        )
    return record
