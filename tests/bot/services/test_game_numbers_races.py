"""A club session's boards, a tournament's round and a games event's tournament
are made while a member makes a game of the same kind: on PostgreSQL the two
INSERTs compute the same game number and one is refused; the loser's whole unit
of work runs again and both stand, numbered apart. Two of a round's games
finishing at once claim the tournament's version together: the job that lost
reads it again and applies, without failing (nor an error line)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from collections.abc import Awaitable, Callable

import pytest
from sqlalchemy import select
from sqlalchemy.exc import IntegrityError

from bot.db.models import GameRecord
from bot.db.repositories.common import GameRepository
from bot.db.repositories.tournaments import TournamentRepository
from bot.services import ServiceContext
from bot.services.chess import ChessService, PlayerRef
from bot.services.events.service import EventService
from bot.services.events.service import Member as EventMember
from bot.services.scrabble import ScrabbleService
from bot.services.sessions import Member as SessionMember
from bot.services.sessions import SessionService
from bot.services.tournaments import options as opts
from bot.services.tournaments.service import TournamentService
from tests.bot.services.scrabble_support import BOB, CHANNEL, GUILD, Words, make_service, request

MEMBERS = {100 + i: f"member{i}" for i in range(8)}
HOST = 99
ANA, BEN = PlayerRef(200, "Ana"), PlayerRef(201, "Ben")


def _meet(monkeypatch: pytest.MonkeyPatch, cls: type, name: str, meeting: int = 2) -> list[object]:
    """The next ``meeting`` calls of ``cls.name`` wait for each other (half a second
    at most: SQLite's writers queue instead) and then go on together; what they
    raise is collected."""
    barrier = asyncio.Barrier(meeting)
    raised: list[object] = []
    original = getattr(cls, name)
    calls = 0

    async def together(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        nonlocal calls
        calls += 1
        if calls <= meeting:
            try:
                await asyncio.wait_for(barrier.wait(), timeout=0.5)
            except (TimeoutError, asyncio.BrokenBarrierError):
                pass
        try:
            result = await original(self, *args, **kwargs)
        except Exception as error:
            raised.append(error)
            raise
        if result is False:
            raised.append(result)  # a compare-and-set that lost
        return result

    monkeypatch.setattr(cls, name, together)
    return raised


def _members_game_first(
    monkeypatch: pytest.MonkeyPatch, members: Callable[[GameRecord], bool]
) -> list[IntegrityError]:
    """The member's game (``members(game)``) is inserted first and its transaction
    held open until the other game's INSERT is on its way: on PostgreSQL that INSERT
    computes the same number, waits for the member's commit and is refused, so it
    is the club's side (the session, the round) that must try again. (SQLite's
    writers queue: there the waits give up after half a second.) The refusals are
    collected."""
    inserted, other_started = asyncio.Event(), asyncio.Event()
    refused: list[IntegrityError] = []
    original = GameRepository.add_with_seats
    first = {"member": True, "other": True}

    async def ordered(self, game, seats):  # type: ignore[no-untyped-def]
        side = "member" if members(game) else "other"
        meet, first[side] = first[side], False
        try:
            if meet and side == "other":
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(inserted.wait(), timeout=0.5)
                other_started.set()
            result = await original(self, game, seats)
            if meet and side == "member":
                inserted.set()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(other_started.wait(), timeout=0.5)
                await asyncio.sleep(0.2)  # the other INSERT reaches the database
            return result
        except IntegrityError as error:
            refused.append(error)
            raise

    monkeypatch.setattr(GameRepository, "add_with_seats", ordered)
    return refused


async def _known(ctx: ServiceContext, *people: tuple[int, str]) -> None:
    """The club and the members are stored already: the two creations meet only on
    the game's number."""
    async with ctx.uow() as uow:
        await uow.guilds.ensure(GUILD, "Club")
        for user_id, name in people:
            await uow.players.ensure(user_id, name)
        await uow.commit()


async def _numbers(ctx: ServiceContext, kind: str) -> list[int]:
    async with ctx.reader() as uow:
        rows = await uow.session.execute(
            select(GameRecord.number).where(GameRecord.guild_id == GUILD, GameRecord.kind == kind)
        )
        return sorted(rows.scalars())


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


def _challenge(
    chess: ChessService, challenger: PlayerRef = ANA, opponent: PlayerRef = BEN
) -> Callable[[], Awaitable[object]]:
    async def made() -> object:
        return await chess.starting.challenge(
            guild_id=GUILD,
            guild_name="Club",
            channel_id=CHANNEL,
            challenger=challenger,
            opponent=opponent,
            time_control="3d",
            color="white",
        )

    return made


async def _tournament(tournaments: TournamentService, players: int) -> int:
    reply = await tournaments.entry.create(
        opts.NewTournament(
            guild_id=GUILD,
            guild_name="Club",
            channel_id=CHANNEL,
            creator_id=HOST,
            creator_name="host",
            game="chess",
            format="round_robin",
        )
    )
    for user_id in list(MEMBERS)[:players]:
        await tournaments.entry.join(
            guild_id=GUILD,
            channel_id=CHANNEL,
            ref=reply.tournament_id,
            user=(user_id, MEMBERS[user_id]),
            partner=None,
            actor_id=user_id,
            is_moderator=False,
        )
    return reply.tournament_id


async def test_a_tournament_started_as_a_member_challenges_makes_every_game(
    ctx: ServiceContext,
    database_url: str,
    tournaments: TournamentService,
    chess: ChessService,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    tid = await _tournament(tournaments, 4)
    await _known(ctx, (ANA.user_id, ANA.name), (BEN.user_id, BEN.name))
    refused = _members_game_first(monkeypatch, lambda game: game.created_by == ANA.user_id)
    await asyncio.gather(
        tournaments.lifecycle.start(
            guild_id=GUILD, channel_id=CHANNEL, ref=tid, actor_id=HOST, is_moderator=True
        ),
        _challenge(chess)(),
    )
    assert await _numbers(ctx, "chess") == [1, 2, 3]  # two round games and the challenge
    async with ctx.reader() as uow:
        assert all(
            p.game_id is not None for p in await uow.tournaments.pairings(tid) if p.second_id
        )
    if database_url.startswith("postgresql"):
        assert any(isinstance(e, IntegrityError) for e in refused), "the INSERTs should have met"


async def test_a_game_finished_job_pairing_a_round_as_a_member_challenges(
    ctx: ServiceContext,
    database_url: str,
    tournaments: TournamentService,
    chess: ChessService,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Four entrants, round 1's two games: the last to finish pairs round 2 (two
    games) in its job while a member's challenge takes a number."""
    tid = await _tournament(tournaments, 4)
    await tournaments.lifecycle.start(
        guild_id=GUILD, channel_id=CHANNEL, ref=tid, actor_id=HOST, is_moderator=True
    )
    await _known(ctx, (ANA.user_id, ANA.name), (BEN.user_id, BEN.name))
    async with ctx.reader() as uow:
        boards = await uow.tournaments.pairings(tid)
        losers = []
        for p in boards:
            game = await uow.games.get(p.game_id)
            losers.append((game.id, next(s.user_id for s in game.seats if s.seat == 1)))
    await chess.endings.resign(*losers[0])
    await ctx.scheduler.run_due()
    await chess.endings.resign(*losers[1])
    refused = _members_game_first(monkeypatch, lambda game: game.created_by == ANA.user_id)
    caplog.set_level(logging.ERROR)
    outcomes, _ = await asyncio.gather(ctx.scheduler.run_due(), _challenge(chess)())
    assert outcomes and all(o.ok for o in outcomes), outcomes
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
    async with ctx.reader() as uow:
        t = await uow.tournaments.get(tid)
        assert t is not None and t.current_round == 2
    assert await _numbers(ctx, "chess") == [1, 2, 3, 4, 5]  # rounds 1 and 2, the challenge
    if database_url.startswith("postgresql"):
        assert any(isinstance(e, IntegrityError) for e in refused), "the INSERTs should have met"


async def test_two_games_of_a_round_finishing_at_once_both_count_without_a_failed_job(
    ctx: ServiceContext,
    database_url: str,
    tournaments: TournamentService,
    chess: ChessService,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    tid = await _tournament(tournaments, 4)
    await tournaments.lifecycle.start(
        guild_id=GUILD, channel_id=CHANNEL, ref=tid, actor_id=HOST, is_moderator=True
    )
    await ctx.scheduler.run_due()  # the round's opening job
    async with ctx.reader() as uow:
        losers = []
        for p in await uow.tournaments.pairings(tid):
            game = await uow.games.get(p.game_id)
            losers.append((game.id, next(s.user_id for s in game.seats if s.seat == 1)))
    for game_id, user_id in losers:
        await chess.endings.resign(game_id, user_id)
    claimed = await ctx.scheduler.claim()
    assert len(claimed) == 2  # the two game-finished jobs
    lost = _meet(monkeypatch, TournamentRepository, "bump")
    caplog.set_level(logging.ERROR)
    outcomes = await asyncio.gather(*(ctx.scheduler.run_job(job_id) for job_id in claimed))
    assert all(o is not None and o.ok for o in outcomes), outcomes
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
    async with ctx.reader() as uow:
        t = await uow.tournaments.get(tid)
        assert [p.source for p in await uow.tournaments.pairings(tid, 1)] == ["game", "game"]
        assert t is not None and t.current_round == 2  # the second finish paired round 2
    if database_url.startswith("postgresql"):
        assert False in lost, "the two claims should have met: one lost the version"


async def test_a_session_starting_its_boards_as_a_member_makes_a_game(
    ctx: ServiceContext,
    database_url: str,
    service: ScrabbleService,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    sessions = SessionService(ctx, service, rng=random.Random(3))
    ctx.scheduler.register_service(service)
    ctx.scheduler.register_service(sessions)
    moderator = SessionMember(900, "Host")
    await sessions.entry.open(
        guild_id=GUILD,
        guild_name="Club",
        channel_id=CHANNEL,
        moderator=moderator,
        is_moderator=True,
    )
    for i in range(4):
        person = SessionMember(100 + i, f"member{i}")
        await sessions.entry.signup(
            guild_id=GUILD, channel_id=CHANNEL, user=person, by=person, is_moderator=False
        )
    await sessions.forming.start(
        guild_id=GUILD, channel_id=CHANNEL, by=moderator, is_moderator=True
    )
    await _known(ctx, (1, "Alice"), (BOB.user_id, BOB.name))
    refused = _members_game_first(monkeypatch, lambda game: game.created_by == 1)
    view, _ = await asyncio.gather(
        sessions.forming.start(guild_id=GUILD, channel_id=CHANNEL, by=moderator, is_moderator=True),
        service.invitations.create(request(BOB)),
    )
    assert view.status == "started" and len(view.boards) == 1
    assert await _numbers(ctx, "scrabble") == [1, 2]
    if database_url.startswith("postgresql"):
        assert any(isinstance(e, IntegrityError) for e in refused), "the INSERTs should have met"


async def test_a_games_event_starting_its_chess_round_as_a_member_challenges(
    ctx: ServiceContext,
    database_url: str,
    tournaments: TournamentService,
    chess: ChessService,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    events = EventService(ctx, tournaments=lambda: tournaments)
    host = EventMember(HOST, "host")
    await events.entry.open(
        guild_id=GUILD,
        guild_name="Club",
        channel_id=CHANNEL,
        host=host,
        is_moderator=True,
        games="chess",
        pairs=4,
    )
    people = [EventMember(user_id, name) for user_id, name in MEMBERS.items()]
    for a, b in zip(people[::2], people[1::2], strict=True):
        await events.entry.register(guild_id=GUILD, channel_id=CHANNEL, ref=None, user=a, partner=b)
    await _known(ctx, (ANA.user_id, ANA.name), (BEN.user_id, BEN.name))
    refused = _members_game_first(monkeypatch, lambda game: game.created_by == ANA.user_id)
    await asyncio.gather(
        events.running.start_round(
            guild_id=GUILD,
            guild_name="Club",
            channel_id=CHANNEL,
            ref=None,
            user_id=HOST,
            is_moderator=True,
            game="chess",
            fmt="round_robin",
        ),
        _challenge(chess)(),
    )
    assert await _numbers(ctx, "chess") == [1, 2, 3]  # the round's two games and the challenge
    if database_url.startswith("postgresql"):
        assert refused, "the INSERTs should have met"


async def test_twelve_members_challenging_at_once_all_get_a_game_numbered_apart(
    ctx: ServiceContext,
    database_url: str,
    chess: ChessService,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A club's evening under load: twelve challenges in one guild meet on the game
    number at once (on PostgreSQL each round of them has one winner and the rest are
    refused); the losers try again apart, not all together, and every one is made."""
    pairs = [(PlayerRef(300 + i, f"a{i}"), PlayerRef(400 + i, f"b{i}")) for i in range(12)]
    await _known(ctx, *((p.user_id, p.name) for pair in pairs for p in pair))
    refused = _meet(monkeypatch, GameRepository, "add_with_seats", meeting=len(pairs))

    await asyncio.gather(*(_challenge(chess, a, b)() for a, b in pairs))

    assert await _numbers(ctx, "chess") == list(range(1, 13))
    if database_url.startswith("postgresql"):
        assert sum(isinstance(e, IntegrityError) for e in refused) >= len(pairs) - 1
