"""A Henyo event's pairs, registered on the club's one sign-up list.

Every event owns a ``signup_lists`` row (owner_kind 'henyo', owner_id the
event, team_size 2, capacity the event's ``pairs``). Registering is
``signups.join`` and withdrawing ``signups.withdraw``, inside the caller's unit
of work (and ``transact``): who is in, who waits, each place, who moves
up on a withdrawal and the refusal of a member already on the list all come
from there, as for sessions, tournaments and games events.

``henyo_teams`` stays, one row per entry, made in the same transaction as the
entry and pointing at it (``signup_id``, unique): rounds, standings and the
events' winner refer to a team's id (``henyo_rounds.team_id``), and the team row
holds what only Henyo knows, who guesses and who answers (the entry says only
who registered and their partner) and a disqualification (a disqualified pair
keeps its place on the list, so it stays entered). It keeps no position, time or
withdrawal of its own: those are the entry's, so there is one waiting list and
nothing to keep in step. Every entry of a Henyo list has its team row (made
together), so a waiting pair that moves up already has the row its rounds use.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from bot.db.models_henyo import HenyoEventRecord, HenyoTeamRecord
from bot.db.models_signups import SignupListRecord
from bot.db.uow import UnitOfWork
from bot.services import signups
from bot.services.henyo.options import EventOptions
from bot.services.henyo.snapshots import Member, TeamSnapshot

OWNER = "henyo"  # the sign-up list's owner_kind


def member(names: dict[int, str], user_id: int) -> Member:
    """The member with their display name (their id when the club has no name for them)."""
    return Member(user_id, names.get(user_id, str(user_id)))


@dataclass(frozen=True)
class Pairs:
    """An event's team rows in registration order (withdrawn ones too), placed by
    its sign-up list.

    ``statuses``: playing, waiting, withdrawn or disqualified (a disqualified
    pair keeps its place, a withdrawn one frees it). ``numbers``: each pair's
    number as members read it, its place in the playing list or on the waiting
    list, counted without the gaps withdrawn pairs leave (0 when withdrawn).
    ``positions``: the registration order, which keeps those gaps.
    """

    teams: tuple[HenyoTeamRecord, ...]
    positions: dict[int, int]
    statuses: dict[int, str]
    numbers: dict[int, int]

    @property
    def members(self) -> list[int]:
        """Every member of the event's pairs, withdrawn pairs too (guesser, then answerer)."""
        return [m for t in self.teams for m in (t.guesser_id, t.answerer_id)]

    def registered(self, user_id: int) -> HenyoTeamRecord | None:
        """The pair ``user_id`` plays in, neither withdrawn nor disqualified."""
        return next(
            (
                t
                for t in self.teams
                if self.statuses[t.id] in ("playing", "waiting")
                and user_id in (t.guesser_id, t.answerer_id)
            ),
            None,
        )

    def with_entries(self, entries: Sequence[signups.Entrant]) -> list[HenyoTeamRecord]:
        """The pairs these sign-up entries registered."""
        ids = {e.id for e in entries}
        return [t for t in self.teams if t.signup_id in ids]

    def view(self, team: HenyoTeamRecord, names: dict[int, str], status: str = "") -> TeamSnapshot:
        """The pair as members see it (``status``: in place of the list's, when given)."""
        return TeamSnapshot(
            team.id,
            self.positions[team.id],
            member(names, team.guesser_id),
            member(names, team.answerer_id),
            status or self.statuses[team.id],
            self.numbers[team.id],
        )


def number(entry: signups.Entrant, capacity: int | None) -> int:
    """The entry's number as members read it (its place, or its place in the queue)."""
    return entry.place - capacity if entry.waiting and capacity is not None else entry.place


async def signup_list(uow: UnitOfWork, event: HenyoEventRecord) -> SignupListRecord:
    """The event's sign-up list."""
    return await signups.list_for(uow, OWNER, event.id)


async def event_pairs(uow: UnitOfWork, event: HenyoEventRecord) -> Pairs:
    """The event's pairs (withdrawn ones too), each placed by the event's sign-up list."""
    lst = await signup_list(uow, event)
    placed = {e.id: e for e in (await signups.roster(uow, lst)).entrants}
    rows = await uow.henyo.teams(event.id)
    positions: dict[int, int] = {}
    statuses: dict[int, str] = {}
    numbers: dict[int, int] = {}
    for team, position in rows:
        positions[team.id] = position
        entry = placed.get(team.signup_id)
        if entry is None:
            statuses[team.id], numbers[team.id] = "withdrawn", 0
            continue
        numbers[team.id] = number(entry, lst.capacity)
        if team.status == "disqualified":
            statuses[team.id] = "disqualified"
        else:
            statuses[team.id] = "waiting" if entry.waiting else "playing"
    return Pairs(tuple(team for team, _position in rows), positions, statuses, numbers)


async def new_event(
    uow: UnitOfWork,
    *,
    guild_id: int,
    channel_id: int,
    host_id: int,
    options: EventOptions,
    now: datetime,
) -> tuple[HenyoEventRecord, SignupListRecord]:
    """An open event and its sign-up list (the first ``options.pairs`` pairs play)."""
    event = HenyoEventRecord(
        guild_id=guild_id,
        channel_id=channel_id,
        host_id=host_id,
        status="open",
        pairs=options.pairs,
        time_limit_ms=options.time_limit_ms,
        penalty_ms=options.penalty_ms,
        categories=list(options.categories),
        language=options.language,
        strict=options.strict,
        referee=options.referee,
        version=1,
        created_at=now,
    )
    uow.henyo.add(event)
    await uow.henyo.flush()
    lst = await signups.open_list(
        uow,
        guild_id=guild_id,
        owner_kind=OWNER,
        owner_id=event.id,
        capacity=options.pairs,
        team_size=2,
        now=now,
    )
    return event, lst


async def add_pair(
    uow: UnitOfWork,
    event: HenyoEventRecord,
    lst: SignupListRecord,
    *,
    user_id: int,
    partner_id: int,
    user_guesses: bool = True,
    now: datetime,
) -> HenyoTeamRecord:
    """``user_id`` registers with ``partner_id`` (both players rows exist): the
    entry at the end of the list and its team row. ``signups.AlreadyOnList``
    when either is on the list already."""
    entry = await signups.join(uow, lst, user_id=user_id, partner_id=partner_id, now=now)
    guesser, answerer = (user_id, partner_id) if user_guesses else (partner_id, user_id)
    team = HenyoTeamRecord(
        event_id=event.id,
        signup_id=entry.id,
        guesser_id=guesser,
        answerer_id=answerer,
        status="registered",
    )
    uow.henyo.add(team)
    await uow.henyo.flush()
    return team


async def close_event(
    uow: UnitOfWork, event: HenyoEventRecord, winner_team_id: int | None, now: datetime
) -> None:
    """The event and its list closed (``signups.ListChanged`` when the event changed first)."""
    if not await uow.henyo.bump(
        event, status="closed", closed_at=now, winner_team_id=winner_team_id
    ):
        raise signups.ListChanged()
    await signups.close(uow, await signup_list(uow, event))
