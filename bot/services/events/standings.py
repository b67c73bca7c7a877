"""Each game's standings for an event, read from that game's own records: the
Henyo event's ranking, the scored Boggle round's results, the tournament's table.
Nothing is copied: the standings are always what the game says now."""

from __future__ import annotations

from collections.abc import Sequence

from bot.db.models_events import GamesEventRoundRecord
from bot.db.uow import UnitOfWork
from bot.services.events.snapshots import GameTable, Row
from bot.services.henyo.pairs import event_pairs
from bot.services.henyo.standings import ranking
from bot.services.tournaments import pairing


def _names(names: dict[int, str], members: Sequence[int]) -> tuple[str, ...]:
    return tuple(names.get(m, str(m)) for m in members)


async def game_table(
    uow: UnitOfWork, game: str, rnd: GamesEventRoundRecord | None, names: dict[int, str]
) -> GameTable:
    """``game``'s table for the event, as the game's own records stand now
    (``not_started`` before its round)."""
    if rnd is None:
        return GameTable(game, "not_started")
    if game == "henyo":
        return await _henyo(uow, rnd, names)
    if game == "boggle":
        return await _boggle(uow, rnd, names)
    return await _tournament(uow, rnd, names)


async def _henyo(uow: UnitOfWork, rnd: GamesEventRoundRecord, names: dict[int, str]) -> GameTable:
    event = await uow.henyo.event(rnd.ref_id)
    if event is None:
        return GameTable(rnd.game, "not_started")
    pairs = await event_pairs(uow, event)
    teams = {t.id: t for t in pairs.teams}
    table = ranking(pairs, await uow.henyo.event_rounds(event.id))
    rows = []
    for s in table.standings:
        team = teams[s.pair_id]
        members = (team.guesser_id, team.answerer_id)
        rows.append(
            Row(
                place=s.place,
                names=_names(names, members),
                members=members,
                status=s.status.value,
                value=s.final_ms,
            )
        )
    return GameTable(rnd.game, "done" if table.complete else "playing", tuple(rows))


async def _boggle(uow: UnitOfWork, rnd: GamesEventRoundRecord, names: dict[int, str]) -> GameTable:
    record = await uow.boggle.get_round(rnd.ref_id)
    if record is None or record.status == "cancelled":
        return GameTable(rnd.game, "not_started")
    pairs = {int(p[0]): (int(p[0]), int(p[1])) for p in rnd.pairs}
    if record.status != "scored":
        rows = tuple(Row(None, _names(names, m), m, "not_played") for m in pairs.values())
        return GameTable(rnd.game, "playing", rows)
    scored = {int(p["id"]): p for p in (record.results or {}).get("players", [])}
    rows_list = []
    for lead, members in pairs.items():
        player = scored.get(lead)
        if player is None:
            rows_list.append(Row(None, _names(names, members), members, "no_list"))
        else:
            rows_list.append(
                Row(int(player["rank"]), _names(names, members), members, value=player["total"])
            )
    rows_list.sort(key=lambda r: (r.place is None, r.place or 0))
    return GameTable(rnd.game, "done", tuple(rows_list))


async def _tournament(
    uow: UnitOfWork, rnd: GamesEventRoundRecord, names: dict[int, str]
) -> GameTable:
    t = await uow.tournaments.get(rnd.ref_id)
    if t is None:
        return GameTable(rnd.game, "not_started")
    entrants = await uow.tournaments.entrants(t.id)
    by_id = {e.id: e for e in entrants}
    pairings = await uow.tournaments.pairings(t.id)
    # A game played: an opponent, a result, and neither a forfeit nor void (a bye
    # or a game that never started is no game played).
    played = {
        side
        for p in pairings
        if p.second_id is not None and p.score is not None and not p.forfeit and not p.void
        for side in (p.first_id, p.second_id)
    }
    rows = []
    for s in pairing.table(t, entrants, pairings):
        e = by_id[s.entrant]
        members = (e.user_id,) if e.partner_id is None else (e.user_id, e.partner_id)
        rows.append(
            Row(
                place=s.rank,
                names=_names(names, members),
                members=members,
                status="withdrawn" if e.status == "withdrawn" else "ranked",
                value=s.points,
                spread=s.spread if t.game_kind == "scrabble" else None,
                played=s.entrant in played,
            )
        )
    state = "done" if t.status in ("finished", "cancelled") else "playing"
    return GameTable(rnd.game, state, tuple(rows))
