"""What a member's own Boggle board page reads (``bot.web.board_boggle``): the round,
the member's own list as saved so far, and in a games event's round played in pairs,
whose list counts for the pair now. Never another member's words: those are shown
only once the round is scored, in its results (as the club page shows them).

The page's changes go through ``Submissions.submit_page``, the same list as DMs and
the Submit words form.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from bot.errors import NotFoundError
from bot.messages.boggle import rounds as say
from bot.services.boggle.core import BoggleCore
from bot.services.boggle.pairs import pair_choice
from bot.services.boggle.snapshots import RoundInfo


@dataclass(frozen=True)
class PageList:
    """A round as one member's board page shows it.

    ``pairs`` is "" in an ordinary round; in a games event's round played in pairs,
    "pair" for a pair's member (``partner_name``; ``counting``: whose list is the
    pair's now, "you", "partner" or "" before either sent words) and "outside" for
    anyone else (their list is kept, not judged)."""

    info: RoundInfo
    words: tuple[str, ...]
    now: datetime
    pairs: str = ""
    partner_name: str = ""
    counting: str = ""


@dataclass(frozen=True)
class RoundChanges:
    """What the board pages of a round watch, read once for all of them: the round's
    version and each list's number of entries. A page's own version is ``of`` its
    member's players (themselves, or their pair: whose list counts is on the page), so
    a list changing moves the version of that list's pages only, not of the round's
    every page (and says nothing of anyone else's words)."""

    round_version: int
    entries: tuple[tuple[int, int], ...] = ()  # (player, entries), by player

    def of(self, players: Iterable[int]) -> int:
        """The version of the page of a member whose list is ``players``'s."""
        counts = dict(self.entries)
        return self.round_version + sum(counts.get(player, 0) for player in set(players))


class BoardReading:
    """The reads behind a member's Boggle board page."""

    def __init__(self, core: BoggleCore) -> None:
        self.core = core

    async def view(self, round_id: int, guild_id: int, user_id: int) -> PageList:
        """The round and ``user_id``'s own list in it (see ``PageList``)."""
        now = self.core.now()
        async with self.core.ctx.reader() as uow:
            record = await uow.boggle.get_round(round_id)
            if record is None or record.guild_id != guild_id:
                raise NotFoundError(say.NO_SUCH_ROUND)
            info = RoundInfo.of(record)
            event_round = await uow.events.round_playing("boggle", round_id)
            pair = next(
                (
                    [int(m) for m in members]
                    for members in (event_round.pairs if event_round else [])
                    if user_id in {int(m) for m in members}
                ),
                None,
            )
            lists = await uow.boggle.lists_of_players(round_id, pair or [user_id])
            own = next((s for s in lists if s.player_id == user_id), None)
            words = tuple(own.words) if own is not None else ()
            if event_round is None:
                return PageList(info, words, now)
            if pair is None:
                return PageList(info, words, now, pairs="outside")
            partner = next((m for m in pair if m != user_id), user_id)
            names = await uow.players.names([partner])
            chosen = pair_choice(lists, [pair], info.ends_at or now)
            counting = ""
            if chosen:
                counting = "you" if next(iter(chosen.values())).player_id == user_id else "partner"
        return PageList(
            info,
            words,
            now,
            pairs="pair",
            partner_name=names.get(partner, str(partner)),
            counting=counting,
        )

    async def changes(self, round_id: int) -> RoundChanges:
        """The round's version and every list's entries (``RoundChanges``); nothing when
        there is no such round."""
        async with self.core.ctx.reader() as uow:
            found = await uow.boggle.list_changes(round_id)
        if found is None:
            return RoundChanges(0)
        version, entries = found
        return RoundChanges(version, tuple(sorted(entries.items())))

    async def players_of(self, round_id: int, user_id: int) -> tuple[int, ...]:
        """Whose lists a member's page shows something of: their own, and in a games
        event's round played in pairs, their partner's too (whose list counts)."""
        async with self.core.ctx.reader() as uow:
            event_round = await uow.events.round_playing("boggle", round_id)
            # Read while the row is loaded: the read's rollback expires it.
            found = event_round.pairs or [] if event_round is not None else []
            pairs = [tuple(int(m) for m in members) for members in found]
        return next((pair for pair in pairs if user_id in pair), (user_id,))

    async def version(self, round_id: int, user_id: int) -> int:
        """A number that changes whenever the round's status or the member's own list
        (or their pair's) changes: what their board page watches."""
        return (await self.changes(round_id)).of(await self.players_of(round_id, user_id))
