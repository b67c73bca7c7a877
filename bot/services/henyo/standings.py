"""An event's table: each pair's final time, ties to break, who is still to
play, and what the event needs next (told with each round's result)."""

from __future__ import annotations

from collections.abc import Sequence

from bot.db.models_henyo import HenyoEventRecord, HenyoRoundRecord
from bot.db.uow import UnitOfWork
from bot.errors import NotFoundError
from bot.messages import henyo as messages
from bot.messages.i18n import _
from bot.services.henyo.core import FINISHED_ROUND, HenyoCore
from bot.services.henyo.pairs import Pairs, event_pairs
from bot.services.henyo.snapshots import StandingRow, Standings, TieSnapshot
from engines.henyo import Attempt, PairRecord, Ranking, rank_pairs


def attempt(rnd: HenyoRoundRecord) -> Attempt:
    """A finished round as the ranking counts it: guessed in its final time, or not guessed."""
    if rnd.status == "guessed":
        assert rnd.final_ms is not None
        return Attempt.guessed(rnd.final_ms)
    return Attempt.timed_out()


def ranking(pairs: Pairs, rounds: Sequence[HenyoRoundRecord]) -> Ranking:
    """The engine's ranking of the playing pairs."""
    records = []
    for team in pairs.teams:
        if pairs.statuses[team.id] not in ("playing", "disqualified"):
            continue
        finished = [r for r in rounds if r.team_id == team.id and r.status in FINISHED_ROUND]
        main = next((r for r in finished if r.stage == 0), None)
        tiebreaks = tuple(
            attempt(r) for r in sorted((r for r in finished if r.stage > 0), key=lambda r: r.stage)
        )
        disqualified = team.status == "disqualified" or any(
            r.status == "disqualified" for r in finished
        )
        records.append(
            PairRecord(
                team.id,
                pairs.positions[team.id],
                main=attempt(main) if main else None,
                tiebreaks=tiebreaks,
                disqualified=disqualified,
            )
        )
    return rank_pairs(records)


def played_teams(rounds: Sequence[HenyoRoundRecord]) -> set[int | None]:
    """Teams that have had their word (a cancelled round does not count)."""
    return {r.team_id for r in rounds if r.stage == 0 and r.status != "cancelled"}


class EventStandings:
    """An event's table, and what the event needs next."""

    def __init__(self, core: HenyoCore) -> None:
        self.core = core

    async def show(
        self, *, guild_id: int, channel_id: int, event_id: int | None = None
    ) -> Standings:
        """The given event's table, or this channel's open event's, or the latest here."""
        async with self.core.ctx.uow() as uow:
            if event_id is not None:
                event = await uow.henyo.event(event_id)
                if event is None or event.guild_id != guild_id:
                    raise NotFoundError(messages.no_event_here(event_id))
            else:
                event = (
                    await uow.henyo.open_event_in_channel(channel_id)
                    or await uow.henyo.latest_event(guild_id, channel_id)
                    or await uow.henyo.latest_event(guild_id)
                )
                if event is None:
                    raise NotFoundError(messages.NO_EVENTS_YET)
            return await self.build(uow, event)

    async def build(
        self,
        uow: UnitOfWork,
        event: HenyoEventRecord,
        rounds: Sequence[HenyoRoundRecord] | None = None,
    ) -> Standings:
        """The event's table (``rounds``: the event's rounds, when the caller has them already)."""
        rounds = list(rounds if rounds is not None else await uow.henyo.event_rounds(event.id))
        table = ranking(await event_pairs(uow, event), rounds)
        view = await self.core.event_view(uow, event)
        by_id = {t.id: t for t in view.teams}
        rows = []
        for standing in table.standings:
            main = next(
                (
                    r
                    for r in rounds
                    if r.team_id == standing.pair_id and r.stage == 0 and r.status in FINISHED_ROUND
                ),
                None,
            )
            rows.append(
                StandingRow(
                    team=by_id[standing.pair_id],
                    status=standing.status.value,
                    place=standing.place,
                    tied=standing.tied,
                    final_ms=standing.final_ms,
                    elapsed_ms=main.elapsed_ms if main and main.status == "guessed" else None,
                    penalties=main.penalties if main else 0,
                    tiebreaks=tuple(a.final_ms for a in standing.tiebreaks),
                )
            )
        ties = [
            TieSnapshot(
                tie.place,
                tie.level,
                [by_id[i] for i in tie.pair_ids],
                table.standing(tie.pair_ids[0]).final_ms,
            )
            for tie in table.ties
        ]
        leaders = [by_id[i] for i in table.leaders]
        return Standings(view, rows, ties, table.complete, leaders)

    async def next_steps(self, uow: UnitOfWork, rnd: HenyoRoundRecord) -> list[str]:
        """What the event needs next, told with a round's result."""
        if rnd.event_id is None:
            return []
        event = await uow.henyo.event(rnd.event_id)
        if event is None or event.status != "open":
            return []
        await uow.henyo.flush()
        pairs = await event_pairs(uow, event)
        rounds = await uow.henyo.event_rounds(event.id)
        table = ranking(pairs, rounds)
        played = played_teams(rounds)
        names = await self.core.names(uow, pairs.members)
        upcoming = [
            t for t in pairs.teams if pairs.statuses[t.id] == "playing" and t.id not in played
        ]
        if upcoming:
            nxt = pairs.view(upcoming[0], names)
            return [messages.next_up(nxt.number, nxt.label)]
        by_id = {t.id: t for t in pairs.teams}
        lines = [
            messages.tie_break(
                table.standing(tie.pair_ids[0]).final_ms,
                [pairs.view(by_id[i], names).label for i in tie.pair_ids],
                tie.level,
            )
            for tie in table.ties
        ]
        return lines or [_(messages.EVERY_PAIR_PLAYED)]
