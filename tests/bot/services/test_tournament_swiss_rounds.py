"""The club's Swiss engine as the tournament service runs it: told the planned
number of rounds (the last round's topscorer exception), and reading a
withdrawal's forfeits as games that score but are no meeting."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

from bot.db.models_tournaments import TournamentPairingRecord
from bot.services import ServiceContext
from bot.services.chess import ChessService
from bot.services.tournaments import options as opts
from bot.services.tournaments import pairing
from bot.services.tournaments.service import TournamentService
from tests.bot.services.scrabble_support import Words, make_service
from tests.bot.services.test_tournaments import _act, _made, _rows, _start


@pytest.fixture
def tournaments(ctx: ServiceContext) -> TournamentService:
    chess = ChessService(ctx, engine=None, rng=random.Random(3))
    service = TournamentService(
        ctx, chess=chess, scrabble=make_service(ctx, Words()), rng=random.Random(11)
    )
    ctx.scheduler.register_service(service)
    ctx.scheduler.register_service(chess)
    return service


async def _white_wins_the_round(
    ctx: ServiceContext, tournaments: TournamentService, tid: int
) -> None:
    (_status, current, _rounds), _, rows, entrants = await _rows(ctx, tid)
    for p in rows:
        if p.round == current and p.second_id is not None:
            white = entrants[p.first_id]
            await tournaments.director.adjudicate(
                _act(tid), (white.user_id, white.label), "win", None
            )


def _colours(rows: Sequence[TournamentPairingRecord], entrant: int) -> list[str]:
    """The entrant's colours by round, from the stored boards (first plays White)."""
    out = []
    for p in sorted(rows, key=lambda p: p.round):
        if p.second_id is None or p.forfeit:
            continue
        if p.first_id == entrant:
            out.append("W")
        elif p.second_id == entrant:
            out.append("B")
    return out


@pytest.mark.parametrize("rounds", [3, 4])
async def test_the_last_round_of_a_swiss_gives_topscorers_their_exception(
    ctx: ServiceContext, tournaments: TournamentService, rounds: int
) -> None:
    """Eight entrants, White winning every game of rounds 1 and 2: two entrants
    are on 2/2 with two Whites, both due Black. In round 3 of 3 they are
    topscorers and meet (one gets a third White, FIDE C.04.3's last-round
    exception); in round 3 of 4 nobody gets a third colour in a row."""
    # A chess Swiss whose director picked the club's engine (the FIDE Dutch
    # system, chess's default, has its own tests).
    tid = await _made(tournaments, 8, fmt="swiss", rounds=rounds, pairing=opts.CLUB_ENGINE)
    await _start(tournaments, tid)
    for _ in range(2):
        await _white_wins_the_round(ctx, tournaments, tid)
    head, _, rows, entrants = await _rows(ctx, tid)
    assert head == ("running", 3, rounds)
    earlier = [p for p in rows if p.round < 3]
    leaders = [e for e in entrants if _colours(earlier, e) == ["W", "W"]]
    assert len(leaders) == 2
    boards = [p for p in rows if p.round == 3]
    thirds = [e for e in entrants if len(set(_colours(rows, e)[-3:])) == 1]
    together = [p for p in boards if {p.first_id, p.second_id} == set(leaders)]
    if rounds == 3:
        assert len(together) == 1 and thirds == [together[0].first_id]
    else:
        assert together == [] and thirds == []


async def test_a_withdrawal_forfeit_scores_but_is_no_meeting(
    ctx: ServiceContext, tournaments: TournamentService
) -> None:
    tid = await _made(tournaments, 4, fmt="swiss", rounds=3)
    await _start(tournaments, tid)
    _, _, rows, entrants = await _rows(ctx, tid)
    forfeited, played = sorted(rows, key=lambda p: p.board)
    leaver = entrants[forfeited.second_id]
    await tournaments.director.withdraw(_act(tid), (leaver.user_id, leaver.label))
    white = entrants[played.first_id]
    await tournaments.director.adjudicate(_act(tid), (white.user_id, white.label), "win", None)
    _, _, rows, entrants = await _rows(ctx, tid)
    games = {(g.round, g.first, g.second): g for g in pairing.engine_games(rows)}
    # The engine sees the row's forfeit flag, and the forfeit still scores.
    assert games[(1, forfeited.first_id, forfeited.second_id)].forfeit
    assert not games[(1, played.first_id, played.second_id)].forfeit
    assert not pairing.already_met(rows, forfeited.first_id, forfeited.second_id)
    assert pairing.met_in(rows, forfeited.first_id, forfeited.second_id) is None
    assert pairing.already_met(rows, played.first_id, played.second_id)
    assert pairing.met_in(rows, played.first_id, played.second_id) == 1
    assert (await _rows(ctx, tid))[0][:2] == ("running", 2)  # round 1 is complete
    async with ctx.reader() as uow:
        record = await uow.tournaments.get(tid)
        table = pairing.table(record, list(entrants.values()), rows)
    line = next(s for s in table if s.entrant == forfeited.first_id)
    assert (line.points, line.forfeits, line.played) == (1.0, 1, 0)
