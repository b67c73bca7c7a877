"""Chess over the board (``where: room``) on a real SQLite file and on PostgreSQL: no
game is made, each player reports their own result, two agreeing reports record it
and rate it as a game, two differing ones wait for the director (whose adjudication
rates it once), and every refusal changes nothing. A new service between two
reports (a restart) finds the first one kept."""

from __future__ import annotations

import random

import pytest
from sqlalchemy import select

from bot.db.models import JobRecord, OutboxRecord, RatingRecord, ResultRecord
from bot.errors import InvalidInputError
from bot.services import ServiceContext
from bot.services.chess import ChessService
from bot.services.tournaments import options as opts
from bot.services.tournaments.director import Act
from bot.services.tournaments.service import TournamentService
from tests.bot.services.scrabble_support import Words, make_service
from tests.bot.services.test_tournaments import CHANNEL, GUILD, HOST, MEMBERS, _made, _rows, _start
from tests.clock import FakeClock


def _service(ctx: ServiceContext, *, register: bool = True) -> TournamentService:
    service = TournamentService(
        ctx,
        chess=ChessService(ctx, engine=None, rng=random.Random(3)),
        scrabble=make_service(ctx, Words()),
        rng=random.Random(11),
    )
    if register:
        ctx.scheduler.register_service(service)
    return service


@pytest.fixture
def tournaments(ctx: ServiceContext) -> TournamentService:
    return _service(ctx)


def _player(ref: int, user: int) -> Act:
    return Act(GUILD, CHANNEL, ref, user, is_moderator=False, actor_name=MEMBERS.get(user, "x"))


async def _results(ctx: ServiceContext) -> list[tuple[int, str | None]]:
    """Each result row's member and outcome."""
    async with ctx.reader() as uow:
        rows = (await uow.session.execute(select(ResultRecord))).scalars()
        return [(r.player_id, r.outcome) for r in rows]


async def test_where_is_checked_when_the_tournament_is_made(
    tournaments: TournamentService,
) -> None:
    with pytest.raises(InvalidInputError, match="`room`"):
        await _made(tournaments, 2, fmt="swiss", rounds=1, where="moon")
    with pytest.raises(InvalidInputError, match="Only a chess tournament"):
        await _made(tournaments, 2, game="scrabble", fmt="swiss", rounds=1, where="room")


async def test_an_over_the_board_swiss_is_reported_by_its_players_and_settled_by_its_director(
    ctx: ServiceContext, tournaments: TournamentService
) -> None:
    tid = await _made(tournaments, 3, fmt="swiss", rounds=2, where="room")
    await _start(tournaments, tid)
    head, _, pairings, entrants = await _rows(ctx, tid)
    assert head == ("running", 1, 2)
    board, bye = sorted(pairings, key=lambda p: p.second_id is None)
    assert board.game_id is None and bye.second_id is None  # no game in Discord
    async with ctx.reader() as uow:
        jobs = (await uow.session.execute(select(JobRecord))).scalars()
        assert not [j for j in jobs if j.kind == opts.JOB_OPEN_ROUND]
    white = entrants[board.first_id].user_id
    black = entrants[board.second_id].user_id
    byed = entrants[bye.first_id].user_id
    outsider = next(m for m in MEMBERS if m not in (white, black, byed))

    # Refusals change nothing.
    with pytest.raises(InvalidInputError, match="bye in round 1"):
        await tournaments.room.report(_player(tid, byed), "win")
    with pytest.raises(InvalidInputError, match="not playing"):
        await tournaments.room.report(_player(tid, outsider), "win")
    with pytest.raises(InvalidInputError, match="not playing"):
        await tournaments.room.report(_player(tid, HOST), "win")
    with pytest.raises(InvalidInputError, match="`win`, `draw` or `loss`"):
        await tournaments.room.report(_player(tid, white), "resign")

    # White reports, changes it (black has not reported), then black differs: the director's.
    reply = await tournaments.room.report(_player(tid, white), "win")
    assert "Noted: a win" in reply.text
    reply = await tournaments.room.report(_player(tid, white), "loss")
    assert "Noted: a loss" in reply.text
    reply = await tournaments.room.report(_player(tid, black), "loss")
    assert "reported a different result" in reply.text and "board 1" in reply.text
    for user in (white, black):
        with pytest.raises(InvalidInputError, match="can no longer change"):
            await tournaments.room.report(_player(tid, user), "draw")
    _, _, pairings, _ = await _rows(ctx, tid)
    assert {p.board: p.score for p in pairings} == {1: None, 2: 1.0}
    assert await _results(ctx) == []

    await tournaments.director.adjudicate(
        Act(GUILD, CHANNEL, tid, HOST, is_moderator=True), (white, "w"), "win", None
    )
    head, rounds, pairings, _ = await _rows(ctx, tid)
    assert head == ("running", 2, 2) and [r.status for r in rounds] == ["done", "playing"]
    first = next(p for p in pairings if p.round == 1 and p.board == 1)
    assert (first.score, first.source) == (1.0, "adjudicated")
    rows = await _results(ctx)
    assert sorted(rows) == sorted([(white, "win"), (black, "loss")])
    # A second adjudication moves the standings, not the ratings again.
    await tournaments.director.adjudicate(
        Act(GUILD, CHANNEL, tid, HOST, is_moderator=True), (white, "w"), "win", 1
    )
    assert len(await _results(ctx)) == 2

    # Round 2: one report, a new service (a restart), the other agrees: the tournament ends.
    _, _, pairings, entrants = await _rows(ctx, tid)
    (two,) = [p for p in pairings if p.round == 2 and p.second_id is not None]
    w2, b2 = entrants[two.first_id].user_id, entrants[two.second_id].user_id
    await tournaments.room.report(_player(tid, b2), "draw")
    again = _service(ctx, register=False)  # reads only the database
    reply = await again.room.report(_player(tid, w2), "draw")
    assert "Both reports agree: round 2, board 1 ends ½–½" in reply.text
    head, rounds, pairings, _ = await _rows(ctx, tid)
    assert head == ("finished", 2, 2)
    two = next(p for p in pairings if p.id == two.id)
    assert (two.score, two.source) == (0.5, "board")
    assert len(await _results(ctx)) == 4
    async with ctx.reader() as uow:
        ratings = {
            r.player_id: float(r.rating)
            for r in (await uow.session.execute(select(RatingRecord))).scalars()
        }
    assert ratings[white] > 1500 > ratings[black]
    with pytest.raises(InvalidInputError, match="is over"):
        await again.room.report(_player(tid, w2), "win")


async def test_a_tournament_played_in_discord_takes_no_reports(
    tournaments: TournamentService,
) -> None:
    tid = await _made(tournaments, 2, fmt="swiss", rounds=1)
    await _start(tournaments, tid)
    with pytest.raises(InvalidInputError, match="played here in Discord"):
        await tournaments.room.report(_player(tid, next(iter(MEMBERS))), "win")


async def test_at_the_deadline_the_boards_still_open_are_the_directors(
    ctx: ServiceContext, clock: FakeClock, tournaments: TournamentService
) -> None:
    tid = await _made(tournaments, 4, fmt="swiss", rounds=2, deadline="1h", where="room")
    await _start(tournaments, tid)
    _, _, pairings, entrants = await _rows(ctx, tid)
    one, two = sorted(pairings, key=lambda p: p.board)
    await tournaments.room.report(_player(tid, entrants[one.first_id].user_id), "win")
    await tournaments.room.report(_player(tid, entrants[one.second_id].user_id), "loss")
    await tournaments.room.report(_player(tid, entrants[two.first_id].user_id), "draw")
    clock.advance(hours=1, minutes=1)
    await ctx.scheduler.run_due()
    head, rounds, pairings, _ = await _rows(ctx, tid)
    assert head[1] == 1 and rounds[0].status == "playing"  # board 2 waits for the director
    assert {p.board: p.score for p in pairings} == {1: 1.0, 2: None}
    async with ctx.reader() as uow:
        posts = [
            str(o.payload.get("content", ""))
            for o in (await uow.session.execute(select(OutboxRecord))).scalars()
        ]
    assert any("deadline passed with board 2 still without an agreed result" in p for p in posts)
    await tournaments.director.adjudicate(
        Act(GUILD, CHANNEL, tid, HOST, is_moderator=True),
        (entrants[two.second_id].user_id, "b"),
        "draw",
        None,
    )
    head, rounds, _, _ = await _rows(ctx, tid)
    assert head[1] == 2 and rounds[0].status == "done"
