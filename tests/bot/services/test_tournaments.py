"""The tournament service on a real SQLite file and on PostgreSQL: rounds paired
once, games made through the games' own services, advancing on each finish and
at the deadline, knockout replays, pairs in Scrabble, forfeits and two writers."""

from __future__ import annotations

import asyncio
import random

import pytest
from sqlalchemy import select

from bot.db.models import ResultRecord
from bot.db.uow import UnitOfWork, is_duplicate_row
from bot.errors import ClubError, InvalidInputError
from bot.services import ServiceContext
from bot.services.chess import ChessService
from bot.services.tournaments import options as opts
from bot.services.tournaments.director import Act
from bot.services.tournaments.service import TournamentService
from tests.bot.services.scrabble_support import Words, make_service
from tests.clock import FakeClock

GUILD, CHANNEL, HOST = 1, 10, 99
MEMBERS = {100 + i: f"member{i}" for i in range(8)}


@pytest.fixture
def chess(ctx: ServiceContext) -> ChessService:
    return ChessService(ctx, engine=None, rng=random.Random(3))


@pytest.fixture
def tournaments(ctx: ServiceContext, chess: ChessService) -> TournamentService:
    service = TournamentService(
        ctx, chess=chess, scrabble=make_service(ctx, Words()), rng=random.Random(11)
    )
    ctx.scheduler.register_service(service)
    ctx.scheduler.register_service(chess)
    return service


def _act(ref: int, actor: int = HOST) -> Act:
    return Act(GUILD, CHANNEL, ref, actor, is_moderator=actor == HOST, actor_name="host")


async def _made(
    tournaments: TournamentService, players: int, *, game: str = "chess", fmt: str, **more
) -> int:
    reply = await tournaments.entry.create(
        opts.NewTournament(
            guild_id=GUILD,
            guild_name="Club",
            channel_id=CHANNEL,
            creator_id=HOST,
            creator_name="host",
            game=game,
            format=fmt,
            **more,
        )
    )
    ids = list(MEMBERS)
    step = 2 if more.get("pairs") else 1
    for i in range(0, players * step, step):
        partner = (ids[i + 1], MEMBERS[ids[i + 1]]) if more.get("pairs") else None
        await tournaments.entry.join(
            guild_id=GUILD,
            channel_id=CHANNEL,
            ref=reply.tournament_id,
            user=(ids[i], MEMBERS[ids[i]]),
            partner=partner,
            actor_id=ids[i],
            is_moderator=False,
        )
    return reply.tournament_id


async def _start(tournaments: TournamentService, tid: int) -> None:
    await tournaments.lifecycle.start(
        guild_id=GUILD, channel_id=CHANNEL, ref=tid, actor_id=HOST, is_moderator=True
    )


async def _rows(ctx: ServiceContext, tid: int):
    """The tournament's rows as committed (an empty commit keeps them loaded)."""
    async with UnitOfWork(ctx.session_factory) as uow:
        t = await uow.tournaments.get(tid)
        assert t is not None
        rows = (
            (t.status, t.current_round, t.rounds),
            await uow.tournaments.rounds(tid),
            await uow.tournaments.pairings(tid),
            {e.id: e for e in await uow.tournaments.entrants(tid)},
        )
        await uow.commit()
        return rows


async def _game_seats(ctx: ServiceContext, game_id: int) -> dict[int, list[int]]:
    async with ctx.reader() as uow:
        game = await uow.games.get(game_id)
        seats: dict[int, list[int]] = {}
        for seat in game.seats:
            seats.setdefault(seat.seat, []).append(seat.user_id)
        return seats


async def test_a_round_is_paired_once_even_when_pairing_it_runs_again(
    ctx: ServiceContext, tournaments: TournamentService
) -> None:
    tid = await _made(tournaments, 4, fmt="round_robin")
    await _start(tournaments, tid)
    head, rounds, pairings, _ = await _rows(ctx, tid)
    assert head == ("running", 1, 3) and [r.number for r in rounds] == [1]
    assert len(pairings) == 2 and all(p.game_id is not None for p in pairings)
    # A second start, and pairing round 1 again (a restart mid-pairing), change nothing.
    with pytest.raises(InvalidInputError, match="started already"):
        await _start(tournaments, tid)
    with pytest.raises(Exception) as refused:
        async with ctx.uow() as uow:
            t = await uow.tournaments.get(tid)
            assert t is not None
            await tournaments.lifecycle.pair_round(uow, t, 1, actor_id=None)
            await uow.commit()
    assert is_duplicate_row(refused.value)  # the round's unique key
    _, rounds, again, _ = await _rows(ctx, tid)
    assert [r.number for r in rounds] == [1] and [p.id for p in again] == [p.id for p in pairings]
    async with ctx.reader() as uow:
        assert len(await uow.tournaments.game_ids(tid)) == 2


async def test_two_starts_at_once_start_it_once(
    ctx: ServiceContext, tournaments: TournamentService
) -> None:
    tid = await _made(tournaments, 4, fmt="swiss", rounds=3)
    outcomes = await asyncio.gather(
        _start(tournaments, tid), _start(tournaments, tid), return_exceptions=True
    )
    assert sum(o is None for o in outcomes) == 1
    assert all(o is None or isinstance(o, ClubError) for o in outcomes), outcomes
    _, rounds, pairings, _ = await _rows(ctx, tid)
    assert len(rounds) == 1 and len(pairings) == 2


async def test_finished_games_advance_the_round_and_a_bye_scores_a_win(
    ctx: ServiceContext, clock: FakeClock, tournaments: TournamentService, chess: ChessService
) -> None:
    tid = await _made(tournaments, 3, fmt="round_robin")
    await _start(tournaments, tid)
    head, _, pairings, entrants = await _rows(ctx, tid)
    assert head[2] == 3  # three entrants: three rounds, a bye each
    (bye,) = [p for p in pairings if p.second_id is None]
    (game,) = [p for p in pairings if p.second_id is not None]
    assert (bye.score, bye.source) == (1.0, "bye")
    black = entrants[game.second_id].user_id
    assert game.game_id is not None
    await chess.endings.resign(game.game_id, black)
    await ctx.scheduler.run_due()
    head, rounds, pairings, _ = await _rows(ctx, tid)
    assert head[1] == 2 and [r.status for r in rounds] == ["done", "playing"]
    first = next(p for p in pairings if p.id == game.id)
    assert (first.score, first.source) == (1.0, "game")
    # The job ran once: running it again changes nothing.
    await ctx.scheduler.run_due()
    assert len((await _rows(ctx, tid))[1]) == 2


async def test_the_round_deadline_scores_unfinished_games_and_pairs_the_next_round(
    ctx: ServiceContext, clock: FakeClock, tournaments: TournamentService
) -> None:
    tid = await _made(tournaments, 4, fmt="swiss", rounds=2, deadline="1h")
    await _start(tournaments, tid)
    # Extended by a director first: the old due time passes and nothing happens.
    await tournaments.director.extend(_act(tid), "30m")
    clock.advance(hours=1, minutes=1)
    await ctx.scheduler.run_due()
    assert (await _rows(ctx, tid))[0][1] == 1
    clock.advance(minutes=30)
    await ctx.scheduler.run_due()
    head, rounds, pairings, _ = await _rows(ctx, tid)
    assert head[1] == 2 and rounds[0].status == "done"
    assert [(p.score, p.source) for p in pairings if p.round == 1] == [(0.5, "deadline")] * 2


async def test_a_drawn_knockout_chess_game_is_replayed_with_colours_reversed(
    ctx: ServiceContext, tournaments: TournamentService, chess: ChessService
) -> None:
    tid = await _made(tournaments, 2, fmt="knockout")
    await _start(tournaments, tid)
    _, _, (game,), entrants = await _rows(ctx, tid)
    white, black = entrants[game.first_id].user_id, entrants[game.second_id].user_id
    assert game.game_id is not None
    await chess.endings.draw(game.game_id, white, "offer")
    await chess.endings.draw(game.game_id, black, "accept")
    await ctx.scheduler.run_due()
    head, _, pairings, entrants = await _rows(ctx, tid)
    assert head[:2] == ("running", 1)
    replay = pairings[-1]
    assert (replay.board, replay.first_id, replay.second_id) == (2, game.second_id, game.first_id)
    assert replay.game_id is not None
    assert await _game_seats(ctx, replay.game_id) == {0: [black], 1: [white]}
    await chess.endings.resign(replay.game_id, white)
    await ctx.scheduler.run_due()
    head, _, _, _ = await _rows(ctx, tid)
    assert head[0] == "finished"


async def test_a_pairs_scrabble_tournament_seats_each_pair_at_one_seat(
    ctx: ServiceContext, tournaments: TournamentService
) -> None:
    tid = await _made(tournaments, 2, game="scrabble", fmt="round_robin", pairs=True)
    with pytest.raises(InvalidInputError, match="partner:@member"):  # the Join button alone
        await tournaments.entry.join(
            guild_id=GUILD,
            channel_id=CHANNEL,
            ref=tid,
            user=(107, "member7"),
            partner=None,
            actor_id=107,
            is_moderator=False,
        )
    await _start(tournaments, tid)
    _, _, (p,), entrants = await _rows(ctx, tid)
    assert p.game_id is not None
    seats = await _game_seats(ctx, p.game_id)
    first, second = entrants[p.first_id], entrants[p.second_id]
    assert seats == {
        0: sorted([first.user_id, first.partner_id]),
        1: sorted([second.user_id, second.partner_id]),
    }
    assert " & " in first.label


async def test_a_withdrawn_round_robin_entrant_forfeits_the_rest_without_games(
    ctx: ServiceContext, tournaments: TournamentService, chess: ChessService
) -> None:
    tid = await _made(tournaments, 4, fmt="round_robin")
    await _start(tournaments, tid)
    _, _, pairings, entrants = await _rows(ctx, tid)
    leaver = entrants[pairings[0].second_id]
    reply = await tournaments.director.withdraw(_act(tid), (leaver.user_id, leaver.label))
    assert "1 game of this round is forfeited" in reply.text
    # Their game ends with the forfeit, in the same commit, and is not rated (no
    # results row, no rating change): forfeits are not rated.
    game_id = pairings[0].game_id
    assert game_id is not None
    async with ctx.reader() as uow:
        assert (await uow.games.get(game_id)).status == "finished"
        results = await uow.session.execute(
            select(ResultRecord).where(ResultRecord.game_id == game_id)
        )
        assert results.all() == []
    await ctx.scheduler.run_due()
    _, _, scored, _ = await _rows(ctx, tid)
    assert (scored[0].score, scored[0].source) == (1.0, "forfeit")  # not the game's result
    other = pairings[1]
    assert other.game_id is not None
    await chess.endings.resign(other.game_id, entrants[other.second_id].user_id)
    await ctx.scheduler.run_due()
    _, rounds, pairings, _ = await _rows(ctx, tid)
    assert len(rounds) == 2
    (theirs,) = [p for p in pairings if p.round == 2 and leaver.id in (p.first_id, p.second_id)]
    assert theirs.forfeit and theirs.game_id is None and theirs.source == "forfeit"
    # Nobody else may withdraw them again, and a member can't withdraw another.
    with pytest.raises(InvalidInputError, match="withdrawn already"):
        await tournaments.director.withdraw(_act(tid), (leaver.user_id, leaver.label))
    someone = entrants[pairings[-1].first_id]
    with pytest.raises(ClubError, match="director"):
        await tournaments.director.withdraw(
            _act(tid, someone.user_id), (leaver.user_id, leaver.label)
        )


async def test_a_bye_already_given_stands_when_its_entrant_withdraws_in_that_round(
    ctx: ServiceContext, tournaments: TournamentService
) -> None:
    """QA F17, RULES.md "An entrant may withdraw (remaining games forfeited)": the
    round's bye was scored when the round was paired, so it is no game still to
    play; it stands, the later games are forfeited, and the table marks (w)."""
    tid = await _made(tournaments, 3, fmt="round_robin")
    await _start(tournaments, tid)
    _, _, pairings, entrants = await _rows(ctx, tid)
    (bye,) = [p for p in pairings if p.round == 1 and p.second_id is None]
    leaver = entrants[bye.first_id]
    reply = await tournaments.director.withdraw(_act(tid), (leaver.user_id, leaver.label))
    assert "no game of this round was left to forfeit" in reply.text
    _, _, pairings, entrants = await _rows(ctx, tid)
    (kept,) = [p for p in pairings if p.id == bye.id]
    assert (kept.score, kept.source, kept.forfeit) == (1.0, "bye", False)
    assert entrants[leaver.id].status == "withdrawn"
    table = await tournaments.reading.standings(guild_id=GUILD, channel_id=CHANNEL, ref=tid)
    row = next(line for line in table.text.splitlines() if leaver.label in line)
    assert "(w)" in row and " 1" in row, row


async def test_the_log_holds_every_director_act_with_who_and_when(
    ctx: ServiceContext, clock: FakeClock, tournaments: TournamentService
) -> None:
    tid = await _made(tournaments, 4, fmt="swiss", rounds=2)
    await _start(tournaments, tid)
    _, _, pairings, entrants = await _rows(ctx, tid)
    member = entrants[pairings[0].first_id]
    await tournaments.director.adjudicate(_act(tid), (member.user_id, member.label), "draw", None)
    await tournaments.director.void(_act(tid), (member.user_id, member.label), None)
    async with UnitOfWork(ctx.session_factory) as uow:
        log = [(e.action, e.actor_id, e.at) for e in await uow.tournaments.log_entries(tid)]
    acts = [(action, actor) for action, actor, _at in log]
    assert ("adjudicate", HOST) in acts and ("void", HOST) in acts and ("start", HOST) in acts
    assert all(at == clock() for _a, _b, at in log)
