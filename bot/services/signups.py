"""The club's one sign-up mechanism: a list with places, and a waiting list.

Club sessions, tournaments and games events each own one list (``owner_kind``
'session' | 'tournament' | 'event', ``owner_id`` their row id). The functions
here run inside the caller's unit of work and never commit, so a sign-up is
stored in the same transaction as whatever the caller does with it (an edited
list post, a DM to whoever moved up through ``uow.outbox``)::

    async def work(uow):
        lst = await signups.list_for(uow, "tournament", tournament.id)
        entrant = await signups.join(uow, lst, user_id=..., partner_id=..., what="the tournament", now=ctx.clock())
        ...
    await transact(ctx, work)   # bot.services.transactions: commits, and retries a lost race

- ``open_list`` when the owner is created (``capacity`` None: no limit, nobody
  waits; ``team_size`` 2: every entry is a pair, or a member asking for one).
- ``join`` takes a member or a pair and refuses, with a message fit for the
  member, a member already on the list (as player or as partner), a closed
  list, and a full list when ``waiting`` is off.
- ``join_all`` adds many entries in one write (a league's next season entering
  everyone who stays).
- ``withdraw`` returns the entries that moved from the waiting list into the
  places, so the caller can tell them.
- ``roster`` is the entries in order: the first ``capacity`` are in, the rest wait.
- ``check_in`` marks that a member is here (tournaments).

Two joins at once: every change first locks the list's row (PostgreSQL
``FOR UPDATE``; SQLite has one writer at a time), then bumps its version
(compare-and-set), and places are unique per list, so two racing writers never
both write on what they read; where one still loses (SQLite's lock, a stale
version), ``transact`` runs its work again from a fresh unit of work, which then
sees the other's entry (a member signing up twice in two tabs gets "already
signed up").

Library Henyo events own one too (owner_kind 'henyo', pairs): ``henyo_teams``
keeps only the roles and disqualifications, each team row pointing at its entry
(see ``bot.services.henyo.core``). A caller with refusals of its own words
catches ``AlreadyOnList``, which says whose entry it was.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from bot.db.models_signups import SignupListRecord, SignupRecord
from bot.db.uow import UnitOfWork
from bot.errors import InvalidInputError, NotFoundError
from bot.messages import signups as messages
from bot.services.transactions import LostRace


class ListChanged(LostRace):
    """Another writer changed the list between our read and our write."""

    def __init__(self) -> None:
        super().__init__(messages.TOO_BUSY)


class AlreadyOnList(InvalidInputError):
    """``join`` refused ``member_id``: already on the list as ``entrant``."""

    def __init__(self, message: str, member_id: int, entrant: Entrant) -> None:
        super().__init__(message)
        self.member_id = member_id
        self.entrant = entrant


@dataclass(frozen=True)
class Entrant:
    """One entry as the list stands: ``place`` counts from 1 over entered entries."""

    id: int
    place: int
    user_id: int
    partner_id: int | None
    wants_partner: bool
    waiting: bool
    checked_in: bool

    @property
    def members(self) -> tuple[int, ...]:
        """The entry's members: the member, then the partner if there is one."""
        return (self.user_id,) if self.partner_id is None else (self.user_id, self.partner_id)


@dataclass(frozen=True)
class Roster:
    """A sign-up list as it stands: its status, capacity and entries in order (the first
    ``capacity`` have places, the rest wait)."""

    list_id: int
    status: str
    capacity: int | None
    entrants: tuple[Entrant, ...]

    @property
    def playing(self) -> tuple[Entrant, ...]:
        """The entries that have a place."""
        return tuple(e for e in self.entrants if not e.waiting)

    @property
    def waiting(self) -> tuple[Entrant, ...]:
        """The entries on the waiting list, in the order they move up."""
        return tuple(e for e in self.entrants if e.waiting)

    @property
    def members(self) -> tuple[int, ...]:
        """Every member in a place, in order (a pair's partner after its member)."""
        return tuple(m for e in self.playing for m in e.members)

    def entry_of(self, user_id: int) -> Entrant | None:
        """The entry holding ``user_id``, as member or partner, if any."""
        return next((e for e in self.entrants if user_id in e.members), None)


@dataclass(frozen=True)
class Withdrawal:
    """An entry that left the list, and the waiting entries that moved into places."""

    entrant: Entrant
    moved_up: tuple[Entrant, ...]


async def open_list(
    uow: UnitOfWork,
    *,
    guild_id: int,
    owner_kind: str,
    owner_id: int,
    capacity: int | None = None,
    team_size: int = 1,
    now: datetime,
) -> SignupListRecord:
    """Make the sign-up list of a new session, tournament or event (``capacity`` None: no
    limit; ``team_size`` 2: pairs)."""
    if team_size not in (1, 2):
        raise ValueError(f"team_size is 1 or 2, not {team_size}")
    if capacity is not None and capacity < 1:
        raise ValueError(f"capacity is at least 1, not {capacity}")
    row = SignupListRecord(
        guild_id=guild_id,
        owner_kind=owner_kind,
        owner_id=owner_id,
        capacity=capacity,
        team_size=team_size,
        status="open",
        version=1,
        created_at=now,
    )
    uow.signups.add(row)
    await uow.signups.flush()
    return row


async def list_for(uow: UnitOfWork, owner_kind: str, owner_id: int) -> SignupListRecord:
    """The sign-up list that ``owner_kind`` ``owner_id`` owns."""
    row = await uow.signups.list_of(owner_kind, owner_id)
    if row is None:
        raise NotFoundError(f"No sign-up list for {owner_kind} {owner_id}.")
    return row


def _roster(lst: SignupListRecord, rows: Sequence[SignupRecord]) -> Roster:
    entrants = tuple(
        Entrant(
            id=row.id,
            place=place,
            user_id=row.user_id,
            partner_id=row.partner_id,
            wants_partner=row.wants_partner,
            waiting=lst.capacity is not None and place > lst.capacity,
            checked_in=row.checked_in_at is not None,
        )
        for place, row in enumerate(rows, start=1)
    )
    return Roster(lst.id, lst.status, lst.capacity, entrants)


async def roster(uow: UnitOfWork, lst: SignupListRecord) -> Roster:
    """The list as it stands: its entries in order, with places or waiting."""
    return _roster(lst, await uow.signups.entries(lst.id))


async def _bump(uow: UnitOfWork, lst: SignupListRecord, **changes: object) -> None:
    if not await uow.signups.bump(lst, **changes):
        raise ListChanged()


async def join(
    uow: UnitOfWork,
    lst: SignupListRecord,
    *,
    user_id: int,
    partner_id: int | None = None,
    wants_partner: bool = False,
    waiting: bool = True,
    added_by: int | None = None,
    what: str = "this list",
    user_name: str = "",
    partner_name: str = "",
    now: datetime,
) -> Entrant:
    """Add a member (or a pair: ``partner_id``) at the end of the list.

    ``waiting`` False: a full list refuses instead of putting the entry on the
    waiting list. ``added_by`` another member (a moderator naming who plays):
    the refusals name the member instead of saying "you". The players rows must
    exist (``uow.players.ensure``) before the call.
    """
    if partner_id is not None and partner_id == user_id:
        raise InvalidInputError(messages.PARTNER_IS_YOU)
    lst = await uow.signups.lock(lst)
    if lst.status != "open":
        raise InvalidInputError(messages.list_closed(what))
    if lst.team_size == 2 and partner_id is None and not wants_partner:
        raise InvalidInputError(messages.needs_partner(what))
    rows = await uow.signups.entries(lst.id)
    current = _roster(lst, rows)
    by_self = added_by is None or added_by == user_id
    for member, name in ((user_id, user_name), (partner_id, partner_name)):
        if member is None:
            continue
        entry = current.entry_of(member)
        if entry is None:
            continue
        if member == user_id and by_self:
            raise AlreadyOnList(messages.already_on_list(what, entry.place), member, entry)
        raise AlreadyOnList(messages.member_already_on_list(name, what, entry.place), member, entry)
    if not waiting and lst.capacity is not None and len(rows) >= lst.capacity:
        raise InvalidInputError(messages.list_full(what, lst.capacity))
    row = SignupRecord(
        list_id=lst.id,
        position=await uow.signups.next_position(lst.id),
        user_id=user_id,
        partner_id=partner_id,
        wants_partner=wants_partner and partner_id is None,
        status="entered",
        added_by=added_by,
        created_at=now,
    )
    uow.signups.add(row)
    await _bump(uow, lst)
    await uow.signups.flush()
    after = _roster(lst, [*rows, row])
    return after.entrants[-1]


async def join_all(
    uow: UnitOfWork,
    lst: SignupListRecord,
    entries: Sequence[tuple[int, int | None]],
    *,
    added_by: int | None,
    now: datetime,
) -> None:
    """Add many entries at once at the end of the list, in order, each ``(user_id,
    partner_id)``: a league's next season entering everyone who stays, in one write
    (one lock, one read, one version) instead of one ``join`` each. The players rows
    must exist; a member already on the list, or named twice, is a programming error."""
    lst = await uow.signups.lock(lst)
    if lst.status != "open":
        raise ValueError(f"list {lst.id} is {lst.status}")
    taken = {m for r in await uow.signups.entries(lst.id) for m in (r.user_id, r.partner_id)}
    position = await uow.signups.next_position(lst.id)
    for user_id, partner_id in entries:
        members = {user_id} if partner_id is None else {user_id, partner_id}
        if members & taken or user_id == partner_id:
            raise ValueError(f"{sorted(members & taken)} already on list {lst.id}")
        taken |= members
        uow.signups.add(
            SignupRecord(
                list_id=lst.id,
                position=position,
                user_id=user_id,
                partner_id=partner_id,
                wants_partner=False,
                status="entered",
                added_by=added_by,
                created_at=now,
            )
        )
        position += 1
    await _bump(uow, lst)
    await uow.signups.flush()


async def withdraw(
    uow: UnitOfWork,
    lst: SignupListRecord,
    *,
    user_id: int,
    what: str = "this list",
    by_other: str | None = None,
    now: datetime,
) -> Withdrawal:
    """Take the entry holding ``user_id`` (as member or partner) off the list; a pair
    leaves together. ``by_other``: the member's name when someone else (a
    moderator) withdraws them, for the refusal."""
    lst = await uow.signups.lock(lst)
    rows = await uow.signups.entries(lst.id)
    before = _roster(lst, rows)
    entry = before.entry_of(user_id)
    if entry is None:
        if by_other is not None:
            raise InvalidInputError(messages.member_not_on_list(by_other, what))
        raise InvalidInputError(messages.not_on_list(what))
    row = next(r for r in rows if r.id == entry.id)
    row.status = "withdrawn"
    row.withdrawn_at = now
    await _bump(uow, lst)
    await uow.signups.flush()
    after = _roster(lst, [r for r in rows if r.id != entry.id])
    was_waiting = {e.id for e in before.entrants if e.waiting}
    moved = tuple(e for e in after.entrants if e.id in was_waiting and not e.waiting)
    return Withdrawal(entry, moved)


async def check_in(
    uow: UnitOfWork,
    lst: SignupListRecord,
    *,
    user_id: int,
    what: str = "this list",
    now: datetime,
) -> Entrant:
    """Mark the entry holding ``user_id`` as here (once: a second check-in keeps the first time)."""
    lst = await uow.signups.lock(lst)
    rows = await uow.signups.entries(lst.id)
    entry = _roster(lst, rows).entry_of(user_id)
    if entry is None:
        raise InvalidInputError(messages.not_on_list(what))
    row = next(r for r in rows if r.id == entry.id)
    if row.checked_in_at is None:
        row.checked_in_at = now
        await _bump(uow, lst)
        await uow.signups.flush()
    return _roster(lst, rows).entrants[entry.place - 1]


async def close(uow: UnitOfWork, lst: SignupListRecord) -> None:
    """No more sign-ups (the owner started); entries stay as they are."""
    lst = await uow.signups.lock(lst)
    if lst.status != "closed":
        await _bump(uow, lst, status="closed")
