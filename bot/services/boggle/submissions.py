"""Lists: words DM'd to the bot or sent through the Submit words form.

Submissions carry Discord's own time (the DM's snowflake), never the time the
bot happened to see them: a DM counts when it was sent before ``ends_at`` and
reached the bot while the round was still open. Each DM is stored for every
open round in a guild the member belongs to (one open round per guild at most),
so a member of two clubs playing at once plays in both with one list. A message
id seen twice (a gateway replay, the catch-up after a restart) is stored once.

A list takes only words of letters, each no longer than the round's grid can
spell: other tokens (``word:QUIZ``, ``8H``, a 975-letter run) are left out,
the receipt says how many and why, and they never reach the results. The
message itself is stored as sent.
"""

from __future__ import annotations

import secrets
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import TYPE_CHECKING

from bot.db.models_boggle import BoggleRoundRecord, BoggleSubmissionRecord, SubmissionEntry
from bot.db.repositories.boggle import ListState
from bot.db.uow import UnitOfWork
from bot.errors import InvalidInputError, NotFoundError, PermissionDeniedError
from bot.messages.boggle import room
from bot.messages.boggle import rounds as say
from bot.messages.post import Post
from bot.services.boggle.core import LATE_NOTE_WINDOW, BoggleCore
from bot.services.boggle.snapshots import (
    DailyDm,
    DmGuilds,
    DmOutcome,
    HostEntry,
    LateNote,
    OpenList,
    RoundInfo,
    SubmissionReceipt,
)
from bot.services.transactions import transact
from engines.boggle import Grid, normalise_word, read_words
from engines.henyo.timing import datetime_ms, snowflake_at

if TYPE_CHECKING:
    from bot.services.boggle.daily import DailyGrid

MAX_WORDS_PER_LIST = 500
MAX_MESSAGES_PER_LIST = 300
MAX_PAGE_WORDS = 50  # words one change from the board page may add or take off


def replay_words(
    entries: Iterable[SubmissionEntry],
    longest: int | None = None,
    ends_at: datetime | None = None,
) -> list[str]:
    """The list the entries make, replayed in the order they reached the bot: each takes
    off its ``removed`` words, then adds its text's new words (at most
    ``MAX_WORDS_PER_LIST`` in all, as they were taken); only entries sent before
    ``ends_at`` when it is given."""
    words: list[str] = []
    for entry in entries:
        if ends_at is not None and datetime.fromisoformat(entry["at"]) >= ends_at:
            continue
        words = _apply(words, entry, longest).words
    return words


@dataclass(frozen=True)
class _Applied:
    words: list[str]  # the list after the entry
    added: int
    removed: int
    left_out: int  # new words not added: the list was full


def _apply(known: Sequence[str], entry: SubmissionEntry, longest: int | None) -> _Applied:
    """The list after one entry: its ``removed`` words taken off, then its text's new words
    added, up to the cap."""
    removed = set(entry.get("removed") or ())
    kept = [word for word in known if word not in removed]
    seen = set(kept)
    fresh = [word for word in read_words(entry["text"], longest).words if word not in seen]
    added = fresh[: max(0, MAX_WORDS_PER_LIST - len(kept))]
    return _Applied(kept + added, len(added), len(known) - len(kept), len(fresh) - len(added))


def pairs_note(event_pairs: Sequence[Sequence[int | str]] | None, player_id: int) -> str:
    """A receipt's note for a games event's round played in pairs (``event_pairs``: the
    event's pairs, None when no event plays the round): whether the member plays in one."""
    if event_pairs is None:
        return ""
    members = {int(m) for pair in event_pairs for m in pair}
    return "pair" if player_id in members else "outside"


@dataclass(frozen=True)
class Held:
    """The member's list in a round, locked for the change (None: none yet), and the
    receipt's pairs note (``pairs_note``)."""

    submission: BoggleSubmissionRecord | None
    pairs: str


def require_open(record: BoggleRoundRecord | None, now: datetime) -> BoggleRoundRecord:
    """The round, if it takes words now; else why not."""
    if record is None:
        raise NotFoundError(say.NO_SUCH_ROUND)
    if record.status == "scheduled":
        raise NotFoundError(say.opens_later(record.number, record.opens_at))
    if record.status == "cancelled":
        raise NotFoundError(say.was_cancelled(record.number))
    if record.status != "open" or record.ends_at is None or now >= record.ends_at:
        raise NotFoundError(say.has_ended(record.number, record.channel_id))
    return record


class Submissions:
    """Members' lists: words DM'd or sent through the form, and the round a form adds to."""

    def __init__(self, core: BoggleCore, daily: DailyGrid | None = None) -> None:
        self.core = core
        self.daily = daily  # a DM also goes to the member's countdown of the daily grid

    async def submit_dm(
        self,
        *,
        user_id: int,
        display_name: str,
        message_id: int,
        sent_at: datetime,
        text: str,
        guild_ids: Collection[int] | None = None,
        seen: DmGuilds | None = None,
    ) -> DmOutcome:
        """Add a DM'd list to every open round in ``guild_ids`` (the member's guilds).

        ``sent_at`` is the message's own (snowflake) time: it counts when it is
        before the round's end, even if it reached the bot after. ``seen``: what the
        read of where DMs go (``CatchUp.guilds_taking_dms``) found, when it was made: a
        guild it did not name has no round for the DM and no countdown, and the daily
        grid is looked at only when the sender has a countdown of their own.
        """
        if guild_ids is not None and not guild_ids:
            return DmOutcome()
        daily_too = seen is None or seen.own_daily
        if (
            seen is not None
            and not daily_too
            and guild_ids is not None
            and not any(guild_id in seen.guild_ids for guild_id in guild_ids)
        ):
            return DmOutcome()  # only guilds with nothing going on (cached, the read named none)
        entry = SubmissionEntry(id=str(message_id), at=sent_at.isoformat(), via="dm", text=text)
        async with self.core.writing():
            return await transact(
                self.core.ctx,
                lambda uow: self._submit_dm(
                    uow, user_id, display_name, entry, sent_at, guild_ids, daily_too
                ),
            )

    async def _submit_dm(
        self,
        uow: UnitOfWork,
        user_id: int,
        display_name: str,
        entry: SubmissionEntry,
        sent_at: datetime,
        guild_ids: Collection[int] | None,
        daily_too: bool,
    ) -> DmOutcome:
        rounds = await uow.boggle.rounds_taking_dm(guild_ids, user_id)
        receipts: list[SubmissionReceipt] = []
        late: list[LateNote] = []
        for found in rounds:
            record, guild_name = found.record, found.guild_name
            if record.ends_at is not None and sent_at < record.ends_at:
                held = Held(found.submission, pairs_note(found.event_pairs, user_id))
                receipts.append(
                    await self._add_entry(
                        uow, record, guild_name, user_id, display_name, entry, held
                    )
                )
            else:
                late.append(LateNote.of(record, guild_name))
        daily = DailyDm()
        if self.daily is not None and daily_too:
            daily = await self.daily.add_dm(
                uow, user_id=user_id, entry=entry, sent_at=sent_at, guild_ids=guild_ids
            )
            if daily.receipts and display_name:
                await uow.players.ensure(user_id, display_name)
        if not rounds and not daily.receipts:
            # Also rounds that ended *after* the message was sent: it was on
            # time but reached the bot once the lists were frozen.
            ended = await uow.boggle.rounds_ended_after(sent_at - LATE_NOTE_WINDOW, guild_ids)
            late = [LateNote.of(record, name) for record, name in ended]
        return DmOutcome(receipts, late, daily.receipts, daily.late)

    async def open_lists(self, guild_ids: Collection[int]) -> list[OpenList]:
        """The open rounds a DM from a member of ``guild_ids`` would go to (nothing is stored)."""
        if not guild_ids:
            return []
        async with self.core.ctx.uow() as uow:
            rows = await uow.boggle.open_rounds_named(guild_ids)
        return [OpenList(number, name) for number, name in rows]

    async def submit_form(
        self, *, round_id: int, user_id: int, display_name: str, source_id: int, text: str
    ) -> SubmissionReceipt:
        """Add words sent through the Submit words form.

        A form reaches the bot live (an interaction not answered in 3 s fails),
        so the bot's clock is its time.
        """
        if not text.strip():
            raise InvalidInputError(say.EMPTY_FORM)
        async with self.core.writing():
            return await transact(
                self.core.ctx,
                lambda uow: self._submit_form(
                    uow, round_id, user_id, display_name, source_id, text
                ),
            )

    async def _submit_form(
        self,
        uow: UnitOfWork,
        round_id: int,
        user_id: int,
        display_name: str,
        source_id: int,
        text: str,
    ) -> SubmissionReceipt:
        now = self.core.now()
        entry = SubmissionEntry(id=str(source_id), at=now.isoformat(), via="form", text=text)
        row = await uow.boggle.round_taking_lists(round_id)
        record = require_open(row[0] if row else None, now)
        guild_name = row[1] if row else ""
        return await self._add_entry(uow, record, guild_name, user_id, display_name, entry)

    async def submit_page(
        self,
        *,
        round_id: int,
        user_id: int,
        add: Sequence[str] = (),
        remove: Sequence[str] = (),
    ) -> tuple[SubmissionReceipt, list[str]]:
        """A change made on the member's board page: ``remove`` taken off their list, then
        ``add`` added, as one entry of the same list their DMs and forms make (so it is
        refused, and changes nothing, once the round no longer takes words). The receipt
        and the list as it now stands."""
        if len(add) > MAX_PAGE_WORDS or len(remove) > MAX_PAGE_WORDS:
            raise InvalidInputError(say.page_too_many(MAX_PAGE_WORDS))
        removed = list(dict.fromkeys(w for w in map(normalise_word, remove) if w))
        text = " ".join(add)
        if not removed and not text.strip():
            raise InvalidInputError(say.EMPTY_PAGE_CHANGE)
        async with self.core.writing():
            return await transact(
                self.core.ctx,
                lambda uow: self._submit_page(uow, round_id, user_id, text, removed),
            )

    async def _submit_page(
        self,
        uow: UnitOfWork,
        round_id: int,
        user_id: int,
        text: str,
        removed: list[str],
    ) -> tuple[SubmissionReceipt, list[str]]:
        now = self.core.now()
        # An id of the kind a form's interaction has, minted now: ordered by time like
        # every other entry's, and never one a DM's read-back resumes from (``via``).
        source_id = snowflake_at(datetime_ms(now), secrets.randbits(22))
        entry = SubmissionEntry(id=str(source_id), at=now.isoformat(), via="web", text=text)
        if removed:
            entry["removed"] = removed
        row = await uow.boggle.round_taking_lists(round_id)
        record = require_open(row[0] if row else None, now)
        guild_name = row[1] if row else ""
        # The page knows no display name: the one the bot has (a link is given in Discord).
        name = (await uow.players.names([user_id])).get(user_id, "")
        receipt = await self._add_entry(uow, record, guild_name, user_id, name, entry)
        submission = await uow.boggle.list_for_update(record.id, user_id)
        return receipt, list(submission.words) if submission is not None else []

    async def enter_for(
        self,
        *,
        guild_id: int,
        entered_by: int,
        host_name: str,
        moderator: bool,
        member_id: int,
        member_name: str,
        text: str,
    ) -> HostEntry:
        """``/boggle enter``: the host (who started the round) or a moderator types a
        member's paper list for them while the guild's round takes lists (its countdown
        or, in the room, the time to type the lists after it). It is one entry of the
        member's own list, merged as their DMs and forms are; the member is told by DM
        what was entered (privately: words are never shown before the results)."""
        if not text.strip():
            raise InvalidInputError(room.EMPTY_ENTRY)
        async with self.core.writing():
            return await transact(
                self.core.ctx,
                lambda uow: self._enter_for(
                    uow, guild_id, entered_by, host_name, moderator, member_id, member_name, text
                ),
            )

    async def _enter_for(
        self,
        uow: UnitOfWork,
        guild_id: int,
        entered_by: int,
        host_name: str,
        moderator: bool,
        member_id: int,
        member_name: str,
        text: str,
    ) -> HostEntry:
        now = self.core.now()
        rows = await uow.boggle.rounds_taking_lists([guild_id])
        if not rows:
            latest = await uow.boggle.latest_round(guild_id)
            if latest is None or latest.status == "scheduled":
                raise NotFoundError(say.NO_OPEN_ROUND)
            raise NotFoundError(say.has_ended(latest.number, latest.channel_id))
        record, guild_name = rows[0]
        record = require_open(record, now)
        if not moderator and record.started_by != entered_by:
            raise PermissionDeniedError(room.HOST_ONLY)
        # An id minted now, as a page's change has: ordered by time with the member's own
        # entries, and never one a DM's read-back resumes from (``via``).
        source_id = snowflake_at(datetime_ms(now), secrets.randbits(22))
        entry = SubmissionEntry(id=str(source_id), at=now.isoformat(), via="host", text=text)
        receipt = await self._add_entry(uow, record, guild_name, member_id, member_name, entry)
        assert record.grid is not None and record.ends_at is not None
        words = tuple(read_words(text, Grid.parse(record.grid).letters).words)
        uow.outbox.to_user(
            member_id,
            Post(
                content=room.entered_dm(
                    host_name,
                    record.number,
                    guild_name,
                    words,
                    receipt.total_words,
                    record.ends_at,
                )
            ),
        )
        return HostEntry(receipt, member_id, words)

    async def _add_entry(
        self,
        uow: UnitOfWork,
        record: BoggleRoundRecord,
        guild_name: str,
        player_id: int,
        display_name: str,
        entry: SubmissionEntry,
        held: Held | None = None,
    ) -> SubmissionReceipt:
        """Add ``entry`` to the member's list in ``record`` (``held``: the list and the pairs
        note, read with the round; else read here)."""
        if held is None:
            held = Held(
                await uow.boggle.list_for_update(record.id, player_id),
                await self._pairs_note(uow, record.id, player_id),
            )
        submission = held.submission
        # The callers checked the round is open: it has its grid and its end.
        assert record.ends_at is not None and record.grid is not None
        longest = Grid.parse(record.grid).letters
        # The round's part of every receipt; the counts are filled in below.
        receipt = SubmissionReceipt(
            round_id=record.id,
            round_number=record.number,
            guild_id=record.guild_id,
            guild_name=guild_name,
            channel_id=record.channel_id,
            ends_at=record.ends_at,
            new_words=0,
            total_words=0,
            longest=longest,
            pairs=held.pairs,
        )
        at, source_id = datetime.fromisoformat(entry["at"]), int(entry["id"])
        if submission is None or display_name:
            # A list made on the board page has no name of its own until a DM or a
            # form brings one (the page knows none): the name a member sends with is kept.
            await uow.players.ensure(player_id, display_name)
        if submission is None:
            known: ListState = ListState([], [], at, at, source_id)
        elif any(stored["id"] == entry["id"] for stored in submission.entries):
            return replace(receipt, total_words=len(submission.words), repeated=True)
        else:
            known = ListState.of(submission)
        if len(known.entries) >= MAX_MESSAGES_PER_LIST:
            return replace(receipt, total_words=len(known.words), full=True)
        read = read_words(entry["text"], longest)
        receipt = replace(receipt, not_letters=read.not_letters, too_long=read.too_long)
        applied = _apply(known.words, entry, longest)
        await uow.boggle.save_list(
            record.id,
            player_id,
            submission,
            ListState(
                [*known.entries, entry],
                applied.words,
                min(known.first_at, at),
                max(known.last_at, at),
                max(known.last_source_id, source_id),
            ),
        )
        return replace(
            receipt,
            new_words=applied.added,
            removed_words=applied.removed,
            total_words=len(applied.words),
            full=applied.left_out > 0,
        )

    @staticmethod
    async def _pairs_note(uow: UnitOfWork, round_id: int, player_id: int) -> str:
        """For a games event's round played in pairs: whether the member plays in a pair."""
        event_round = await uow.events.round_playing("boggle", round_id)
        return pairs_note(event_round.pairs if event_round is not None else None, player_id)

    async def round_for_form(
        self, *, round_id: int | None = None, guild_id: int | None = None
    ) -> RoundInfo:
        """The open round a form would add to (by id, or the guild's), or a clear error."""
        now = self.core.now()
        async with self.core.ctx.uow() as uow:
            if round_id is not None:
                record = await uow.boggle.get_round(round_id)
            else:
                assert guild_id is not None
                record = await uow.boggle.latest_round(guild_id, ("open",))
                if record is None:
                    upcoming = await uow.boggle.latest_round(guild_id, ("scheduled",))
                    if upcoming is not None:
                        raise NotFoundError(say.opens_later(upcoming.number, upcoming.opens_at))
                    raise NotFoundError(say.NO_OPEN_ROUND)
            return RoundInfo.of(require_open(record, now))
