"""What the DM intake needs to know of the rounds: which guilds a DM may
concern, and whose DMs to read back after a restart, from where.

Discord does not replay DMs sent while the bot was away, so they are read back
from each player's DM channel (``bot.gateway``). Each reads from the last DM
of their list the bot handled *before it went down*: not simply the last one
stored, since a DM that arrived live after the restart may be stored first,
and reading after it would skip what was sent while the bot was away.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime

from bot.db.uow import UnitOfWork
from bot.services.boggle.core import LATE_NOTE_WINDOW, BoggleCore
from bot.services.boggle.snapshots import CatchUpTarget, DmGuilds, RoundInfo

# After a restart, the DMs of at most this many likely first-time players per
# guild are read back (each costs a call to Discord); see catch_up_targets.
CATCH_UP_PER_GUILD = 200


class CatchUp:
    """What the DM intake asks of the rounds: which guilds a DM may concern, and whose DMs to
    read back after a restart."""

    def __init__(self, core: BoggleCore) -> None:
        self.core = core

    async def open_rounds(self) -> list[RoundInfo]:
        """Every guild's open round (after a restart, what the DMs are read back for)."""
        async with self.core.ctx.uow() as uow:
            return [RoundInfo.of(r) for r in await uow.boggle.open_rounds()]

    async def guilds_taking_dms(self, sent_at: datetime, user_id: int) -> DmGuilds:
        """Guilds a DM sent at ``sent_at`` by ``user_id`` may concern: an open round, or one
        that ended lately (a late list gets a note), or a member's daily-grid countdown;
        and whether one of those countdowns is the sender's (``Submissions.submit_dm``
        then looks for no other)."""
        async with self.core.ctx.reader() as uow:
            guild_ids, own_daily = await uow.boggle.guilds_taking_dms(
                sent_at - LATE_NOTE_WINDOW, user_id
            )
        return DmGuilds(guild_ids, own_daily)

    async def catch_up_targets(
        self,
        members: Mapping[int, Sequence[int]] | None = None,
        per_guild: int = CATCH_UP_PER_GUILD,
        *,
        live_since: Mapping[int, int] | None = None,
    ) -> list[CatchUpTarget]:
        """Whose DMs to read back after a restart, and from where.

        First every player with a list in an open round, after the last DM of
        it that is older than ``live_since[player]`` (the first DM this session
        handled live: what came after it was not missed), or from their round's
        opening when there is none. Then, per guild with an open round, the
        players likely to send a *first* list, read from the round's opening,
        at most ``per_guild`` of them, in this order: who played Boggle there
        before (latest first), who has any result there (latest first), and the
        guild's ``members`` as the caller knows them, but only when there are
        at most ``per_guild`` (a club; in a large server the known players are
        the likely ones, and reading every member's DMs would cost too much).
        """
        members = members or {}
        live_since = live_since or {}
        async with self.core.ctx.uow() as uow:
            opened: dict[int, datetime] = {}  # each guild's earliest open round
            for guild_id, opens_at in await uow.boggle.open_round_openings():
                opened.setdefault(guild_id, opens_at)
            if not opened:
                return []
            targets = await self._players_with_lists(uow, live_since)
            seen = {target.user_id for target in targets}
            since: dict[int, datetime] = {}  # a likely player -> their guilds' earliest opening
            for guild_id, opens_at in opened.items():
                known = list(members.get(guild_id, ()))
                likely = [
                    *await uow.boggle.past_players(guild_id, per_guild),
                    *await uow.boggle.players_with_results(guild_id, per_guild),
                    *(known if len(known) <= per_guild else ()),
                ]
                chosen = 0
                for player in dict.fromkeys(likely):
                    if player in seen:
                        continue  # has a list: read as above
                    if chosen >= per_guild:
                        break
                    chosen += 1
                    since[player] = min(since.get(player, opens_at), opens_at)
        return targets + [CatchUpTarget(player, since=at) for player, at in since.items()]

    async def daily_targets(
        self, *, live_since: Mapping[int, int] | None = None
    ) -> list[CatchUpTarget]:
        """Members whose countdown of the daily grid ran while the bot was away (or runs
        on): their DMs are read back after their last one handled before the restart,
        else from when they opened the grid. A late one gets its note, as in a round."""
        live_since = live_since or {}
        now = self.core.now()
        targets: dict[int, CatchUpTarget] = {}
        async with self.core.ctx.uow() as uow:
            for play in await uow.daily.plays_ended_after(now - LATE_NOTE_WINDOW):
                before = live_since.get(play.player_id)
                handled = [
                    int(entry["id"])
                    for entry in play.entries
                    if entry["via"] == "dm" and (before is None or int(entry["id"]) < before)
                ]
                target = (
                    CatchUpTarget(play.player_id, after_message_id=max(handled))
                    if handled
                    else CatchUpTarget(play.player_id, since=play.opened_at)
                )
                targets.setdefault(play.player_id, target)
        return list(targets.values())

    @staticmethod
    async def _players_with_lists(
        uow: UnitOfWork, live_since: Mapping[int, int]
    ) -> list[CatchUpTarget]:
        """Players of open rounds, by id: after their last DM handled before the
        restart, else from the earliest opening of the rounds they have a list in."""
        last_dm: dict[int, int] = {}
        opening: dict[int, datetime] = {}
        for submission, opens_at in await uow.boggle.open_lists():
            player = submission.player_id
            opening[player] = min(opening.get(player, opens_at), opens_at)
            before = live_since.get(player)
            for entry in submission.entries:
                message_id = int(entry["id"])
                if entry["via"] == "dm" and (before is None or message_id < before):
                    last_dm[player] = max(last_dm.get(player, message_id), message_id)
        return [
            CatchUpTarget(player, after_message_id=last_dm[player])
            if player in last_dm
            else CatchUpTarget(player, since=opening[player])
            for player in sorted(opening)
        ]
