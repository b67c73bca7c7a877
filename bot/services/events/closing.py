"""A games event's close: the standings and winners posted with the prize lines,
its Henyo event and tournaments ended with it, and every pair member's place kept
in the leaderboard's history."""

from __future__ import annotations

from bot.db.models_events import GamesEventRecord
from bot.db.uow import UnitOfWork
from bot.messages import events as msg
from bot.messages.post import Post
from bot.services import signups
from bot.services.events.core import EventCore
from bot.services.events.options import (
    OWNER,
    TOURNAMENT_GAMES,
)
from bot.services.events.reading import EventReading
from bot.services.events.snapshots import (
    EventStandings,
    Unfinished,
)
from bot.services.henyo.pairs import close_event, event_pairs
from bot.services.henyo.standings import ranking
from bot.services.results import record_points
from bot.services.transactions import transact

KIND = "event"  # results rows: a member's standing in one game of a games event


class EventClosing:
    """Closing the event."""

    def __init__(self, core: EventCore, reading: EventReading) -> None:
        self.core = core
        self.reading = reading

    async def close(
        self,
        *,
        guild_id: int,
        channel_id: int | None,
        ref: int | None,
        user_id: int,
        is_moderator: bool,
        confirmed: bool = False,
    ) -> EventStandings | Unfinished:
        """Close the event: post each game's standings and winners with the prize
        lines, and keep them in the leaderboard's history. With games still under
        way (or never started), nothing changes until the host confirms."""

        async def work(uow: UnitOfWork) -> EventStandings | Unfinished:
            event = await self.core.resolve(uow, guild_id, channel_id, ref)
            self.core.require_host(event, user_id, is_moderator)
            self.core.require_open(event)
            result = await self.reading.table(uow, event)
            unfinished = tuple(t.game for t in result.tables if t.state != "done")
            if unfinished and not confirmed:
                return Unfinished(result.event, unfinished)
            now = self.core.ctx.clock()
            await self.core.bump(uow, event, status="closed", closed_at=now)
            lst = await signups.list_for(uow, OWNER, event.id)
            await signups.close(uow, lst)
            await self._close_henyo(uow, event)
            if await self._end_tournaments(uow, event, user_id):
                result = await self.reading.table(uow, event)  # their final tables
            await self._record(uow, event, result)
            final = await self.reading.table(uow, event)
            uow.outbox.to_channel(event.channel_id, Post(content=msg.final_post(final)))
            return final

        return await transact(self.core.ctx, work)

    async def _end_tournaments(
        self, uow: UnitOfWork, event: GamesEventRecord, actor_id: int
    ) -> bool:
        """The event's chess and Scrabble tournaments still running end with it, through
        the tournament's own end: games in play are scored as they stand and closed,
        and each posts its final table. True when one was ended."""
        ended = False
        for rnd in await uow.events.rounds(event.id):
            if rnd.game not in TOURNAMENT_GAMES:
                continue
            t = await uow.tournaments.get(rnd.ref_id)
            tournaments = self.core.tournaments()
            if t is None or t.status not in ("running", "paused") or tournaments is None:
                continue
            await tournaments.lifecycle.end_now(uow, t, actor_id=actor_id)
            ended = True
        return ended

    async def _close_henyo(self, uow: UnitOfWork, event: GamesEventRecord) -> None:
        """The Henyo round's Henyo event closes with the games event, crowning its
        winner as Henyo's own close does (its row counts in Henyo's "Events won")."""
        rnd = next((r for r in await uow.events.rounds(event.id) if r.game == "henyo"), None)
        if rnd is None:
            return
        henyo = await uow.henyo.event(rnd.ref_id)
        if henyo is None or henyo.status != "open":
            return
        pairs = await event_pairs(uow, henyo)
        table = ranking(pairs, await uow.henyo.event_rounds(henyo.id))
        leaders = table.leaders if table.complete else []
        winner = next((t for t in pairs.teams if len(leaders) == 1 and t.id == leaders[0]), None)
        now = self.core.ctx.clock()
        if winner is not None:
            final_ms = table.standing(winner.id).final_ms
            for player in (winner.guesser_id, winner.answerer_id):
                await record_points(
                    uow,
                    guild_id=henyo.guild_id,
                    kind="henyo",
                    player_id=player,
                    points=None,
                    played_at=now,
                    round_ref=f"henyo:event:{henyo.id}",
                    outcome="win",
                    extra={"type": "event_win", "event_id": henyo.id, "final_ms": final_ms},
                )
        await close_event(uow, henyo, winner.id if winner else None, now)  # retried if stale

    async def _record(
        self, uow: UnitOfWork, event: GamesEventRecord, result: EventStandings
    ) -> None:
        """Every pair member's place in every game played, as a results row of kind
        'event' (a win for the winners): the event in the leaderboard's history."""
        now = self.core.ctx.clock()
        prizes = {(p.game, p.place): p.text for p in result.prizes}
        for table in result.tables:
            if table.state == "not_started":
                continue
            winners = {m for r in table.winners for m in r.members}
            for row in table.rows:
                if row.status in ("not_played", "no_list") or not row.played:
                    continue
                for member in row.members:
                    await record_points(
                        uow,
                        guild_id=event.guild_id,
                        kind=KIND,
                        player_id=member,
                        points=None,
                        played_at=now,
                        round_ref=f"event:{event.id}:{table.game}",
                        outcome="win" if member in winners else "loss",
                        extra={
                            "type": "games_event",
                            "event_id": event.id,
                            "event": event.name,
                            "game": table.game,
                            "place": row.place,
                            "prize": prizes.get((table.game, row.place or 0)),
                        },
                    )
