"""Club sessions through the service, on SQLite and PostgreSQL: sign-ups, the
refusals that change nothing, groups from a stored seed, swaps before the boards
start, boards opened by their jobs, and every board ended at the session deadline
with one results post and leaderboard rows."""

from __future__ import annotations

import random

import pytest
from sqlalchemy import func, select

from bot.db.models import GameRecord, OutboxRecord, ResultRecord
from bot.db.models_sessions import WordExplanationRecord as ExplanationRecord
from bot.errors import InvalidInputError, NotFoundError, PermissionDeniedError
from bot.services.sessions import Member, SessionService
from tests.bot.services.scrabble_support import CHANNEL, GUILD, first_play

MOD = Member(900, "Host")
PEOPLE = [Member(100 + i, f"member{i}") for i in range(10)]


@pytest.fixture
def sessions(ctx, service) -> SessionService:
    svc = SessionService(ctx, service, rng=random.Random(3))
    ctx.scheduler.register_service(service)
    ctx.scheduler.register_service(svc)
    return svc


async def _open(sessions: SessionService, **options) -> None:
    await sessions.entry.open(
        guild_id=GUILD,
        guild_name="Club",
        channel_id=CHANNEL,
        moderator=MOD,
        is_moderator=True,
        **options,
    )


async def _sign(sessions: SessionService, user: Member, partner: Member | None = None):
    return await sessions.entry.signup(
        guild_id=GUILD,
        channel_id=CHANNEL,
        user=user,
        by=user,
        is_moderator=False,
        partner=partner,
    )


async def _posts(session_factory) -> list[str]:
    async with session_factory() as s:
        rows = (await s.execute(select(OutboxRecord).order_by(OutboxRecord.id))).scalars()
        return [r.payload.get("content", "") for r in rows]


async def test_a_non_moderator_cannot_open_or_start_and_nothing_changes(sessions) -> None:
    with pytest.raises(PermissionDeniedError, match="Only the club's moderators can open"):
        await sessions.entry.open(
            guild_id=GUILD,
            guild_name="Club",
            channel_id=CHANNEL,
            moderator=PEOPLE[0],
            is_moderator=False,
        )
    await _open(sessions)
    for person in PEOPLE[:4]:
        await _sign(sessions, person)
    with pytest.raises(PermissionDeniedError, match="Only the club's moderators can start"):
        await sessions.forming.start(
            guild_id=GUILD, channel_id=CHANNEL, by=PEOPLE[0], is_moderator=False
        )
    view = await sessions.core.get(1)
    assert view.status == "open" and view.boards == ()


async def test_signing_up_twice_and_fewer_than_four_members_are_refused(sessions) -> None:
    await _open(sessions)
    await _sign(sessions, PEOPLE[0], PEOPLE[1])
    with pytest.raises(InvalidInputError, match="already signed up for the session"):
        await _sign(sessions, PEOPLE[1])
    await _sign(sessions, PEOPLE[2])
    with pytest.raises(InvalidInputError, match=r"at least 4 members .* 3 signed up"):
        await sessions.forming.start(guild_id=GUILD, channel_id=CHANNEL, by=MOD, is_moderator=True)
    view = await sessions.core.get(1)
    assert view.status == "open" and view.member_count == 3


async def test_a_moderator_names_members_and_a_member_cannot_name_others(sessions) -> None:
    await _open(sessions)
    named = await sessions.entry.signup(
        guild_id=GUILD, channel_id=CHANNEL, user=PEOPLE[0], by=MOD, is_moderator=True
    )
    assert named.by_moderator and named.entry.user_ids == (PEOPLE[0].id,)
    with pytest.raises(PermissionDeniedError, match="moderators can sign up someone else"):
        await sessions.entry.signup(
            guild_id=GUILD, channel_id=CHANNEL, user=PEOPLE[1], by=PEOPLE[2], is_moderator=False
        )


async def test_a_session_forms_groups_swaps_and_ends_every_board_at_its_deadline(
    sessions, session_factory, clock
) -> None:
    await _open(sessions, length="20m", clock="3m")
    await _sign(sessions, PEOPLE[0], PEOPLE[1])
    for person in PEOPLE[2:10]:
        await _sign(sessions, person)
    formed = await sessions.forming.start(
        guild_id=GUILD, channel_id=CHANNEL, by=MOD, is_moderator=True
    )
    assert formed.status == "formed"
    # 10 members: 5 pairs, a board of 3 and a board of 2; the asked-for pair together.
    assert [len(b.seats) for b in formed.boards] == [3, 2]
    seats = [set(s.user_ids) for b in formed.boards for s in b.seats]
    assert {PEOPLE[0].id, PEOPLE[1].id} in seats
    with pytest.raises(InvalidInputError, match="Sign-ups are closed: the groups are formed"):
        await _sign(sessions, Member(555, "late"))

    a = formed.boards[0].seats[0].user_ids[0]
    b = formed.boards[1].seats[0].user_ids[0]
    swapped = await sessions.forming.swap(
        guild_id=GUILD,
        channel_id=CHANNEL,
        first=Member(a, "a"),
        second=Member(b, "b"),
        is_moderator=True,
    )
    assert swapped.session.boards[0].seats[0].user_ids[0] == b

    started = await sessions.forming.start(
        guild_id=GUILD, channel_id=CHANNEL, by=MOD, is_moderator=True
    )
    assert started.status == "started" and started.deadline is not None
    with pytest.raises(InvalidInputError, match="boards have started: members can be swapped only"):
        await sessions.forming.swap(
            guild_id=GUILD,
            channel_id=CHANNEL,
            first=Member(a, "a"),
            second=Member(b, "b"),
            is_moderator=True,
        )
    await sessions.core.ctx.scheduler.run_due()  # the boards open (no thread opener: the channel)
    view = await sessions.core.get(1)
    assert all(board.game_id for board in view.boards)
    assert any("Where everyone plays" in p for p in await _posts(session_factory))
    for board in view.boards:
        await first_play(sessions.core.scrabble, sessions.core.ctx, board.game_id)
    async with session_factory() as s:
        plays = (await s.execute(select(func.count()).select_from(ExplanationRecord))).scalar_one()
    assert plays == 0

    clock.advance(minutes=20)
    await sessions.core.ctx.scheduler.run_due()
    async with session_factory() as s:
        statuses = (await s.execute(select(GameRecord.status))).scalars().all()
        results = (await s.execute(select(func.count()).select_from(ResultRecord))).scalar_one()
    assert statuses == ["finished", "finished"]
    assert results == 10  # every member of every seat
    posts = await _posts(session_factory)
    assert sum("Club session results" in p for p in posts) == 1
    final = await sessions.reading.results(guild_id=GUILD, channel_id=CHANNEL, is_moderator=True)
    assert final.final and len(final.pairs) == 5
    scores = [(p.score, p.spread) for p in final.pairs]
    assert scores == sorted(scores, reverse=True)
    assert len(final.plays) == 2 and all(p.explanation is None for p in final.plays)


async def test_the_pair_that_played_explains_its_word_once(sessions, service, ctx) -> None:
    from tests.bot.services.scrabble_support import request, started

    game_id = await started(service, request(explain=True))
    user, word = await first_play(service, ctx, game_id)
    with pytest.raises(PermissionDeniedError, match="Only the pair that made this play"):
        await sessions.explaining.explain(
            guild_id=GUILD, game_id=game_id, ply=0, user_id=999, text="a word we know"
        )
    with pytest.raises(InvalidInputError, match="empty"):
        await sessions.explaining.explain(
            guild_id=GUILD, game_id=game_id, ply=0, user_id=user, text="  "
        )
    with pytest.raises(InvalidInputError, match="at least 10 characters"):  # QA F37
        await sessions.explaining.explain(
            guild_id=GUILD, game_id=game_id, ply=0, user_id=user, text="x"
        )
    done = await sessions.explaining.explain(
        guild_id=GUILD, game_id=game_id, ply=0, user_id=user, text="a word @everyone *bold*"
    )
    assert done.words == (word.upper(),)
    with pytest.raises(InvalidInputError, match="explained already"):
        await sessions.explaining.explain(
            guild_id=GUILD, game_id=game_id, ply=0, user_id=user, text="again, in other words"
        )
    from tests.bot.services.scrabble_support import posts

    shown = [p.payload["content"] for p in await posts(ctx) if " explain " in p.payload["content"]]
    assert shown and "@\u200beveryone" in shown[-1] and "\\*bold\\*" in shown[-1]


async def test_boards_that_end_before_the_deadline_post_the_results_within_a_minute(
    sessions, session_factory, clock
) -> None:
    await _open(sessions, odd="alone")
    for person in PEOPLE[:5]:
        await _sign(sessions, person)
    formed = await sessions.forming.start(
        guild_id=GUILD, channel_id=CHANNEL, by=MOD, is_moderator=True
    )
    # 5 members, 'alone': two pairs and one member playing alone, on one board.
    assert [sorted(len(s.user_ids) for s in b.seats) for b in formed.boards] == [[1, 2, 2]]
    await sessions.forming.start(guild_id=GUILD, channel_id=CHANNEL, by=MOD, is_moderator=True)
    await sessions.core.ctx.scheduler.run_due()
    view = await sessions.core.get(1)
    game_id = view.boards[0].game_id
    await first_play(sessions.core.scrabble, sessions.core.ctx, game_id)
    for seat in view.boards[0].seats[:2]:
        await sessions.core.scrabble.moves.resign(game_id, seat.user_ids[0])
    clock.advance(minutes=1)
    await sessions.core.ctx.scheduler.run_due()
    assert (await sessions.core.get(1)).status == "ended"
    assert sum("Club session results" in p for p in await _posts(session_factory)) == 1
    clock.advance(minutes=90)  # the deadline job is gone: nothing posts twice
    await sessions.core.ctx.scheduler.run_due()
    assert sum("Club session results" in p for p in await _posts(session_factory)) == 1


async def test_the_moderator_ends_a_running_session_now_and_cancels_one_not_started(
    sessions, session_factory
) -> None:
    await _open(sessions)
    for person in PEOPLE[:4]:
        await _sign(sessions, person)
    await sessions.entry.withdraw(guild_id=GUILD, channel_id=CHANNEL, user_id=PEOPLE[3].id)
    with pytest.raises(InvalidInputError, match="You are not signed up for the session"):
        await sessions.entry.withdraw(guild_id=GUILD, channel_id=CHANNEL, user_id=PEOPLE[3].id)
    await _sign(sessions, PEOPLE[3])
    with pytest.raises(PermissionDeniedError, match="Only the club's moderators can end"):
        await sessions.running.end(guild_id=GUILD, channel_id=CHANNEL, is_moderator=False)
    await sessions.forming.start(guild_id=GUILD, channel_id=CHANNEL, by=MOD, is_moderator=True)
    await sessions.forming.start(guild_id=GUILD, channel_id=CHANNEL, by=MOD, is_moderator=True)
    await sessions.core.ctx.scheduler.run_due()
    board = (await sessions.core.get(1)).boards[0]
    await first_play(sessions.core.scrabble, sessions.core.ctx, board.game_id)
    ended = await sessions.running.end(guild_id=GUILD, channel_id=CHANNEL, is_moderator=True)
    assert ended.status == "ended"
    async with session_factory() as s:
        assert (await s.execute(select(GameRecord.status))).scalars().all() == ["finished"]
    assert sum("Club session results" in p for p in await _posts(session_factory)) == 1

    # A new session in the channel, cancelled before it starts.
    await _open(sessions)
    cancelled = await sessions.running.end(guild_id=GUILD, channel_id=CHANNEL, is_moderator=True)
    assert cancelled.status == "cancelled"
    with pytest.raises(NotFoundError, match="no club session in this channel"):
        await _sign(sessions, PEOPLE[0])


async def test_a_board_opens_in_its_thread_once_however_often_its_job_runs(sessions, ctx) -> None:
    calls: list[tuple[int, str, str]] = []

    async def opener(channel_id, name, text, nonce, members):
        calls.append((channel_id, name, nonce))
        assert len(members) == 4 and "Session board 1" in text
        return 777

    sessions.running.thread_opener = opener
    await _open(sessions)
    for person in PEOPLE[:4]:
        await _sign(sessions, person)
    await sessions.forming.start(guild_id=GUILD, channel_id=CHANNEL, by=MOD, is_moderator=True)
    await sessions.forming.start(guild_id=GUILD, channel_id=CHANNEL, by=MOD, is_moderator=True)
    payload = None
    async with ctx.uow() as uow:
        board = (await uow.sessions.boards(1))[0]
        payload = {"session_id": 1, "board": 1, "game_id": board.game_id}
    await ctx.scheduler.run_due()
    assert len(calls) == 1 and calls[0][2].startswith("sb")
    assert (
        await sessions.running.prepare_open_board(payload) is None
    )  # open already: no second thread
    view = await sessions.core.get(1)
    assert view.boards[0].home_id == 777
    with pytest.raises(InvalidInputError, match="boards have started already"):
        await sessions.forming.start(guild_id=GUILD, channel_id=CHANNEL, by=MOD, is_moderator=True)
