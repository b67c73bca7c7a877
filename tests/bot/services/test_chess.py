"""ChessService on a real database (SQLite; PostgreSQL when TEST_DATABASE_URL is set)."""

from __future__ import annotations

import asyncio
import io
import random
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

import chess
import chess.pgn
import pytest
from sqlalchemy import select

from bot.db.models import (
    GameRecord,
    JobRecord,
    MoveRecord,
    OutboxRecord,
    RatingRecord,
    ResultRecord,
)
from bot.errors import ConflictError, InvalidInputError, NotFoundError, PermissionDeniedError
from bot.scheduler import Scheduler
from bot.services import ServiceContext
from bot.services.chess import (
    ChessService,
    PlayerRef,
    PromotionNeeded,
)
from bot.services.chess.engine import EngineUnavailableError, PositionEval
from tests.clock import FakeClock
from tests.conftest import sqlite_write_lock_free

GUILD, CHANNEL, THREAD, ELSEWHERE = 10, 20, 30, 40
ALICE, BOB, CAROL, BOT = (
    PlayerRef(1, "alice"),
    PlayerRef(2, "bob"),
    PlayerRef(3, "carol"),
    PlayerRef(99, "Stockfish"),
)


class FakeEngine:
    """Plays the first legal move in UCI order; evaluates from a script."""

    name = "FakeFish"

    def __init__(self, evals: Sequence[int] | None = None) -> None:
        self.evals = list(evals or [])
        self.analyses = 0
        self.sqlite_path: str | None = None
        self.thought_with_lock_free: list[bool | None] = []

    async def best_move(self, board: chess.Board, level: int) -> chess.Move:
        self.thought_with_lock_free.append(self.lock_free())
        return min(board.legal_moves, key=lambda m: m.uci())

    def lock_free(self) -> bool | None:
        """Whether the SQLite database's write lock is free now (None: not on SQLite)."""
        if self.sqlite_path is None:
            return None
        return sqlite_write_lock_free(self.sqlite_path)

    async def evaluate_positions(self, moves: Sequence[str]) -> list[PositionEval]:
        self.analyses += 1
        evals = (self.evals + [0] * (len(moves) + 1))[: len(moves) + 1]
        return [PositionEval(cp, None) for cp in evals]


@dataclass
class World:
    service: ChessService
    clock: FakeClock
    scheduler: Scheduler
    factory: Any

    @property
    def t0(self) -> datetime:
        """Where the test's clock started."""
        return self.clock.start

    async def run_due(self) -> list[Any]:
        return await self.scheduler.run_due()

    async def rows(self, model: Any, *where: Any) -> list[Any]:
        async with self.factory() as session:
            return list((await session.execute(select(model).where(*where))).scalars())

    async def job(self, key: str) -> JobRecord | None:
        rows = await self.rows(JobRecord, JobRecord.key == key)
        return rows[0] if rows else None

    async def new_game(
        self, time: str = "3d", *, white: PlayerRef = ALICE, black: PlayerRef = BOB
    ) -> int:
        snap = await self.service.starting.challenge(
            guild_id=GUILD,
            guild_name="Club",
            channel_id=CHANNEL,
            challenger=white,
            opponent=black,
            time_control=time,
            color="white",
        )
        await self.service.starting.accept(snap.game_id, black)
        await self.service.starting.open_in(snap.game_id, THREAD)
        return snap.game_id

    async def play(self, game_id: int, *sans: str) -> None:
        for san in sans:
            snap = await self.service.reading.snapshot(game_id)
            await self.service.moves.play(
                game_id, snap.to_move.user_id, san, reply_channel_id=THREAD
            )


@pytest.fixture
def world(ctx: ServiceContext, database_url: str, clock: FakeClock) -> World:
    engine = FakeEngine()
    if database_url.startswith("sqlite"):
        engine.sqlite_path = database_url.split("///", 1)[1]
    service = ChessService(ctx, engine=engine, rng=random.Random(7))
    ctx.scheduler.register_service(service)
    return World(service, clock, ctx.scheduler, ctx.session_factory)


# ------------------------------------------------------------------ invitations


async def test_a_challenge_waits_for_the_opponent_and_accepting_starts_the_clock(
    world: World,
) -> None:
    snap = await world.service.starting.challenge(
        guild_id=GUILD,
        guild_name="Club",
        channel_id=CHANNEL,
        challenger=ALICE,
        opponent=BOB,
        time_control="10+5",
        color="black",
    )
    assert (snap.status, snap.white.name, snap.black.name, snap.clock) == (
        "invited",
        "bob",
        "alice",
        None,
    )
    assert (await world.job(f"chess:invite:{snap.game_id}")).due_at == world.t0 + timedelta(hours=1)

    world.clock.advance(minutes=2)
    started = await world.service.starting.accept(snap.game_id, BOB)
    assert started.status == "active" and started.clock is not None
    assert started.clock.turn_started_at == world.t0 + timedelta(minutes=2)
    assert (await world.job(f"chess:invite:{snap.game_id}")).status == "cancelled"
    assert (await world.job(f"chess:timeout:{snap.game_id}")).due_at == world.t0 + timedelta(
        minutes=12
    )


INVITATION = 9001  # the invitation's message id: a thread started from it gets this id


async def _accepted(world: World) -> int:
    snap = await world.service.starting.challenge(
        guild_id=GUILD,
        guild_name="Club",
        channel_id=CHANNEL,
        challenger=ALICE,
        opponent=BOB,
        time_control="3d",
        color="white",
    )
    accepted = await world.service.starting.accept(snap.game_id, BOB, message_id=INVITATION)
    assert accepted.half_open and accepted.opening_message_id == INVITATION
    return snap.game_id


async def _opening_boards(world: World, game_id: int) -> list[Any]:
    return [
        p
        for p in await world.rows(OutboxRecord)
        if f"Chess #{game_id}**" in p.payload.get("content", "")
        and "Game on" in p.payload.get("content", "")
    ]


async def test_an_accepted_game_is_half_open_until_opening_it_posts_its_board_once(
    world: World,
) -> None:
    game_id = await _accepted(world)
    made: list[Any] = []

    async def opener(plan: Any) -> int:
        made.append(plan)
        return INVITATION

    world.service.starting.thread_opener = opener
    # A second click before the game is open answers with the game (so it can finish opening).
    again = await world.service.starting.accept(game_id, BOB, message_id=INVITATION)
    assert again.half_open and again.status == "active"
    assert (await world.job(f"chess:open:{game_id}")).status == "due"

    opened = await world.service.starting.open(game_id)
    assert not opened.half_open and opened.thread_id == INVITATION
    assert [(p.channel_id, p.message_id, p.user_ids) for p in made] == [
        (CHANNEL, INVITATION, (ALICE.user_id, BOB.user_id))
    ]
    # Opening again, a click, or the job after a restart: nothing more is made or posted.
    await world.service.starting.open(game_id)
    await world.service.starting.accept(game_id, ALICE, message_id=INVITATION)
    world.clock.advance(minutes=5)
    await world.run_due()
    assert len(made) == 1
    (board,) = await _opening_boards(world, game_id)
    assert board.target_id == INVITATION
    assert "`/chess move move:e4`" in board.payload["content"]
    assert board.payload["files"][0]["description"]
    assert (await world.job(f"chess:open:{game_id}")).status == "cancelled"


async def test_the_opening_job_opens_a_game_nobody_finished_opening(world: World) -> None:
    game_id = await _accepted(world)

    async def opener(plan: Any) -> int:
        return INVITATION

    world.service.starting.thread_opener = opener
    assert await world.run_due() == []  # the Accept click gets the first go
    world.clock.advance(seconds=31)
    await world.run_due()
    snap = await world.service.reading.snapshot(game_id)
    assert not snap.half_open and snap.thread_id == INVITATION
    assert len(await _opening_boards(world, game_id)) == 1


async def test_only_the_invited_member_can_accept(world: World) -> None:
    snap = await world.service.starting.challenge(
        guild_id=GUILD,
        guild_name="Club",
        channel_id=CHANNEL,
        challenger=ALICE,
        opponent=BOB,
    )
    with pytest.raises(InvalidInputError, match="wait for your opponent"):
        await world.service.starting.accept(snap.game_id, ALICE)
    with pytest.raises(PermissionDeniedError):
        await world.service.starting.accept(snap.game_id, CAROL)
    assert (await world.service.reading.snapshot(snap.game_id)).status == "invited"


async def test_declining_or_letting_a_challenge_expire_calls_the_game_off(world: World) -> None:
    first = await world.service.starting.challenge(
        guild_id=GUILD, guild_name="Club", channel_id=CHANNEL, challenger=ALICE, opponent=BOB
    )
    assert (await world.service.starting.decline(first.game_id, BOB.user_id)).status == "abandoned"
    with pytest.raises(InvalidInputError):
        await world.service.starting.accept(first.game_id, BOB)

    second = await world.service.starting.challenge(
        guild_id=GUILD, guild_name="Club", channel_id=CHANNEL, challenger=ALICE, opponent=CAROL
    )
    world.clock.advance(days=7)
    await world.run_due()
    assert (await world.service.reading.snapshot(second.game_id)).status == "abandoned"
    posts = await world.rows(OutboxRecord, OutboxRecord.target_id == CHANNEL)
    assert any("expired" in p.payload["content"] for p in posts)


async def test_challenges_are_checked_before_anything_is_stored(world: World) -> None:
    with pytest.raises(InvalidInputError, match="yourself"):
        await world.service.starting.challenge(
            guild_id=GUILD, guild_name="Club", channel_id=CHANNEL, challenger=ALICE, opponent=ALICE
        )
    with pytest.raises(InvalidInputError, match="time control"):
        await world.service.starting.challenge(
            guild_id=GUILD,
            guild_name="Club",
            channel_id=CHANNEL,
            challenger=ALICE,
            opponent=BOB,
            time_control="soon",
        )
    with pytest.raises(InvalidInputError, match="colour"):
        await world.service.starting.challenge(
            guild_id=GUILD,
            guild_name="Club",
            channel_id=CHANNEL,
            challenger=ALICE,
            opponent=BOB,
            color="green",
        )
    assert await world.rows(GameRecord) == []


@pytest.mark.parametrize(
    ("time", "label", "live", "seconds"),
    [
        ("3", "3 days per move", False, 3 * 86400),  # a plain number is days
        ("90s", "90s+0", True, 90),
        ("3m", "3+0", True, 180),
        ("1h30m", "1.5 hours per move", False, 5400),
        ("2d", "2 days per move", False, 2 * 86400),
        ("1:30", "90s+0", True, 90),
        ("10+5", "10+5", True, 600),
    ],
)
async def test_the_time_option_reads_the_one_duration_grammar(
    world: World, time: str, label: str, live: bool, seconds: int
) -> None:
    snap = await world.service.starting.challenge(
        guild_id=GUILD,
        guild_name="Club",
        channel_id=CHANNEL,
        challenger=ALICE,
        opponent=BOB,
        time_control=time,
    )
    assert (snap.control.label(), snap.is_live, snap.control.base_seconds) == (
        label,
        live,
        seconds,
    )


@pytest.mark.parametrize(
    ("time", "refusal"),
    [
        ("3s", "Each side's time on a live clock must be from 10 s to 3 h."),
        ("30m", None),  # a live half hour: accepted
        ("4h+0", "Each side's time on a live clock must be from 10 s to 3 h."),
        ("30d", "The time per move must be from 1 h to 2 weeks."),
        ("soon", "a plain number is days"),
    ],
)
async def test_time_controls_out_of_range_are_refused_with_their_limits(
    world: World, time: str, refusal: str | None
) -> None:
    challenge = world.service.starting.challenge(
        guild_id=GUILD,
        guild_name="Club",
        channel_id=CHANNEL,
        challenger=ALICE,
        opponent=BOB,
        time_control=time,
    )
    if refusal is None:
        assert (await challenge).is_live
        return
    with pytest.raises(InvalidInputError) as refused:
        await challenge
    assert refusal in str(refused.value)


# ------------------------------------------------------------------ moves


async def test_a_move_is_logged_and_moves_the_turn_timer(world: World) -> None:
    game_id = await world.new_game("1d")
    world.clock.advance(hours=5)
    update = await world.service.moves.play(game_id, ALICE.user_id, "e2e4", reply_channel_id=THREAD)
    assert update.headline == "alice played **e4**."
    assert update.snapshot.moves == ("e2e4",) and not update.announced_elsewhere
    assert update.posted_here  # the board went to the thread through the outbox
    (board,) = [
        p
        for p in await world.rows(OutboxRecord, OutboxRecord.target_id == THREAD)
        if "played" in p.payload.get("content", "")
    ]
    assert board.payload["files"][0]["description"].startswith("Chess board after 1. e4")
    assert "Move 1 · **Black** to play: <@2>" in update.text and "FEN `" in update.text
    assert update.mention_user_ids == [BOB.user_id]

    (logged,) = await world.rows(MoveRecord, MoveRecord.game_id == game_id)
    assert (logged.ply, logged.seat, logged.user_id, logged.notation, logged.data["uci"]) == (
        1,
        0,
        1,
        "e4",
        "e2e4",
    )
    assert (await world.job(f"chess:timeout:{game_id}")).due_at == world.t0 + timedelta(
        days=1, hours=5
    )
    assert (await world.job(f"chess:reminder:{game_id}")).due_at == world.t0 + timedelta(
        days=1, hours=5
    ) - timedelta(hours=12)


async def test_bad_moves_change_nothing_and_explain_themselves(world: World) -> None:
    game_id = await world.new_game()
    before = await world.service.reading.snapshot(game_id)
    with pytest.raises(InvalidInputError, match="not yours"):
        await world.service.moves.play(game_id, BOB.user_id, "e5")
    with pytest.raises(PermissionDeniedError):
        await world.service.moves.play(game_id, CAROL.user_id, "e4")
    with pytest.raises(InvalidInputError, match="Legal moves include"):
        await world.service.moves.play(game_id, ALICE.user_id, "Ke2")
    after = await world.service.reading.snapshot(game_id)
    assert after.moves == before.moves == ()
    assert await world.rows(MoveRecord) == []


async def test_a_promotion_without_a_piece_offers_the_choices_for_this_position_only(
    world: World,
) -> None:
    game_id = await world.new_game()
    await world.play(game_id, "e4", "d5", "exd5", "c6", "dxc6", "Nd7", "cxb7", "a5")
    with pytest.raises(PromotionNeeded) as choice:
        await world.service.moves.play(game_id, ALICE.user_id, "bxa8")
    assert choice.value.ply == 8
    assert [uci for _, uci in choice.value.options] == ["b7a8q", "b7a8r", "b7a8b", "b7a8n"]
    with pytest.raises(ConflictError):
        await world.service.moves.play(game_id, ALICE.user_id, "b7a8n", expected_ply=7)
    update = await world.service.moves.play(game_id, ALICE.user_id, "b7a8n", expected_ply=8)
    assert update.snapshot.sans[-1] == "bxa8=N"


async def test_two_moves_at_once_apply_once(world: World) -> None:
    game_id = await world.new_game()
    results = await asyncio.gather(
        world.service.moves.play(game_id, ALICE.user_id, "e4"),
        world.service.moves.play(game_id, ALICE.user_id, "d4"),
        return_exceptions=True,
    )
    assert sum(not isinstance(r, Exception) for r in results) == 1
    assert all(
        isinstance(r, (ConflictError, InvalidInputError))
        for r in results
        if isinstance(r, Exception)
    )
    assert len(await world.rows(MoveRecord, MoveRecord.game_id == game_id)) == 1
    assert len((await world.service.reading.snapshot(game_id)).moves) == 1


async def test_a_move_from_another_channel_is_announced_in_the_game_thread(world: World) -> None:
    game_id = await world.new_game()
    update = await world.service.moves.play(
        game_id, ALICE.user_id, "e4", reply_channel_id=ELSEWHERE
    )
    assert update.announced_elsewhere
    posts = [
        p
        for p in await world.rows(OutboxRecord, OutboxRecord.target_id == THREAD)
        if "played" in p.payload.get("content", "")
    ]
    assert len(posts) == 1
    payload = posts[0].payload
    assert payload["files"][0]["args"]["orientation"] == "black"
    assert payload["files"][0]["args"]["last_move"] == "e2e4"
    assert payload["mention_user_ids"] == [BOB.user_id]
    fen = update.snapshot.board.fen()
    assert payload["files"][0]["description"] == (
        f"Chess board after 1. e4, Black to move, seen from Black's side. FEN {fen}"
    )


async def test_every_posted_board_says_in_words_the_side_it_is_drawn_from(world: World) -> None:
    game_id = await world.new_game()
    for user, move in ((ALICE, "e4"), (BOB, "e5"), (ALICE, "Nf3")):  # played elsewhere: posted
        await world.service.moves.play(game_id, user.user_id, move, reply_channel_id=ELSEWHERE)
    posts = await world.rows(OutboxRecord, OutboxRecord.target_id == THREAD)
    boards = [p.payload["files"][0] for p in posts if p.payload.get("files")]
    assert len(boards) == 4  # the opening board, then one a move
    for board in boards:
        side = "White" if board["args"]["orientation"] == "white" else "Black"
        assert f"seen from {side}'s side" in board["description"]
        assert board["description"].endswith(f"FEN {board['args']['fen']}")
    assert [b["args"]["orientation"] for b in boards] == ["white", "black", "white", "black"]


@pytest.mark.parametrize(
    ("viewer", "side"), [(chess.WHITE, "White"), (chess.BLACK, "Black"), (None, "Black")]
)
async def test_a_board_drawn_for_a_player_says_that_player_s_side(
    world: World, viewer: chess.Color | None, side: str
) -> None:
    game_id = await world.new_game()
    await world.play(game_id, "e4")  # Black to move: drawn from Black's side unless asked
    snap = await world.service.reading.snapshot(game_id)
    image = snap.board_image(viewer)
    assert image.args["orientation"] == side.lower()
    assert image.description == (
        f"Chess board after 1. e4, Black to move, seen from {side}'s side. FEN {snap.board.fen()}"
    )


# ------------------------------------------------------------------ endings


async def test_checkmate_finishes_the_game_rates_it_and_stops_its_timers(world: World) -> None:
    game_id = await world.new_game()
    await world.play(game_id, "f3", "e5", "g4")
    update = await world.service.moves.play(game_id, BOB.user_id, "Qh4#", reply_channel_id=THREAD)
    snap = update.snapshot
    assert (snap.status, snap.result, snap.termination) == ("finished", "0-1", "checkmate")
    assert "**0-1** — bob wins by checkmate." in update.text
    assert {c.user_id for c in update.rating_changes} == {ALICE.user_id, BOB.user_id}

    results = await world.rows(ResultRecord, ResultRecord.game_id == game_id)
    assert sorted((r.player_id, r.outcome) for r in results) == [(1, "loss"), (2, "win")]
    (bob,) = await world.rows(RatingRecord, RatingRecord.player_id == BOB.user_id)
    assert bob.rating > 1500 and bob.wins == 1
    for key in ("timeout", "reminder"):
        assert (await world.job(f"chess:{key}:{game_id}")).status == "cancelled"
    with pytest.raises(InvalidInputError, match="is over"):
        await world.service.moves.play(game_id, ALICE.user_id, "e4")


async def test_the_flag_timer_ends_a_live_game_on_time(world: World) -> None:
    game_id = await world.new_game("1+0")
    await world.play(game_id, "e4")
    world.clock.advance(seconds=59)
    await world.run_due()
    assert (await world.service.reading.snapshot(game_id)).status == "active"
    world.clock.advance(seconds=1)
    await world.run_due()
    snap = await world.service.reading.snapshot(game_id)
    assert (snap.result, snap.termination) == ("1-0", "timeout")
    posts = await world.rows(OutboxRecord, OutboxRecord.target_id == THREAD)
    assert "alice wins on time — bob ran out." in posts[-1].payload["content"]


async def test_a_move_after_the_flag_fell_loses_even_before_the_timer_runs(world: World) -> None:
    game_id = await world.new_game("1+0")
    world.clock.advance(seconds=61)
    with pytest.raises(InvalidInputError, match="time ran out"):
        await world.service.moves.play(game_id, ALICE.user_id, "e4")
    snap = await world.service.reading.snapshot(game_id)
    assert (snap.status, snap.result, snap.moves) == ("finished", "0-1", ())


async def test_resigning_gives_the_opponent_the_win(world: World) -> None:
    game_id = await world.new_game()
    update = await world.service.endings.resign(game_id, ALICE.user_id, reply_channel_id=THREAD)
    assert update.snapshot.result == "0-1" and update.headline == "alice resigned."


async def test_a_draw_offer_lapses_when_the_opponent_moves_instead(world: World) -> None:
    game_id = await world.new_game()
    update = await world.service.endings.draw(
        game_id, ALICE.user_id, "offer", reply_channel_id=THREAD
    )
    assert update.snapshot.draw_offer == chess.WHITE and "🤝 alice offers a draw." in update.text
    with pytest.raises(InvalidInputError, match="already waiting"):
        await world.service.endings.draw(game_id, ALICE.user_id, "offer")
    await world.play(game_id, "e4")  # the offerer may move: the offer stands
    assert (await world.service.reading.snapshot(game_id)).draw_offer == chess.WHITE
    await world.play(game_id, "e5")  # the opponent moves instead of answering
    assert (await world.service.reading.snapshot(game_id)).draw_offer is None
    with pytest.raises(InvalidInputError, match="has not offered"):
        await world.service.endings.draw(game_id, BOB.user_id, "accept")


async def test_offering_a_draw_when_the_opponent_already_offered_agrees_to_it(world: World) -> None:
    game_id = await world.new_game()
    await world.service.endings.draw(game_id, BOB.user_id, "offer")
    update = await world.service.endings.draw(game_id, ALICE.user_id, "offer")
    assert (update.snapshot.result, update.snapshot.termination) == ("1/2-1/2", "agreement")


async def test_a_declined_or_withdrawn_offer_is_gone(world: World) -> None:
    game_id = await world.new_game()
    await world.service.endings.draw(game_id, BOB.user_id, "offer")
    update = await world.service.endings.draw(game_id, ALICE.user_id, "decline")
    assert update.snapshot.draw_offer is None and "declined" in update.headline
    await world.service.endings.draw(game_id, BOB.user_id, "offer")
    update = await world.service.endings.draw(game_id, BOB.user_id, "decline")
    assert update.snapshot.draw_offer is None and "withdrew" in update.headline
    with pytest.raises(InvalidInputError, match="no draw offer"):
        await world.service.endings.draw(game_id, BOB.user_id, "decline")


async def test_a_draw_claim_needs_the_rules_on_its_side(world: World) -> None:
    game_id = await world.new_game()
    with pytest.raises(InvalidInputError, match="can't claim a draw"):
        await world.service.endings.draw(game_id, ALICE.user_id, "claim")
    await world.play(game_id, "Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1", "Ng8")
    update = await world.service.endings.draw(game_id, BOB.user_id, "claim")
    assert update.snapshot.termination == "threefold_repetition"


# ------------------------------------------------------------------ correspondence


async def test_the_reminder_goes_to_the_player_to_move_with_the_thread_as_fallback(
    world: World,
) -> None:
    game_id = await world.new_game("3d")
    world.clock.advance(days=2)
    await world.run_due()
    (dm,) = await world.rows(OutboxRecord, OutboxRecord.target_kind == "user")
    assert (dm.target_id, dm.fallback_channel_id) == (ALICE.user_id, THREAD)
    assert f"Chess #{game_id}" in dm.payload["content"] and "<t:" in dm.payload["content"]


async def test_a_stale_reminder_is_not_sent(world: World) -> None:
    game_id = await world.new_game("3d")
    world.clock.advance(days=1)
    await world.play(game_id, "e4")  # moves the reminder to Bob's turn
    world.clock.advance(days=1, hours=1)
    await world.run_due()
    assert await world.rows(OutboxRecord, OutboxRecord.target_kind == "user") == []


async def test_a_vacation_moves_the_deadline_and_the_timers(world: World) -> None:
    game_id = await world.new_game("1d")
    world.clock.advance(hours=6)
    result = await world.service.vacations.take(guild_id=GUILD, user_id=ALICE.user_id, days=3)
    assert [g.game_id for g in result.games] == [game_id] and result.days_left == 11
    assert "paused" in result.text
    assert (await world.job(f"chess:timeout:{game_id}")).due_at == world.t0 + timedelta(days=4)
    world.clock.advance(days=2)
    await world.run_due()
    assert (await world.service.reading.snapshot(game_id)).status == "active"
    posts = await world.rows(OutboxRecord, OutboxRecord.target_id == THREAD)
    assert any("on vacation until" in p.payload["content"] for p in posts)


async def test_ending_a_vacation_that_never_began_is_refused(world: World) -> None:
    await world.new_game("2d")
    with pytest.raises(InvalidInputError, match="not on vacation"):
        await world.service.vacations.take(guild_id=GUILD, user_id=ALICE.user_id, days=0)


async def test_vacations_are_refused_for_live_games_and_beyond_the_allowance(world: World) -> None:
    live = await world.new_game("10+0")
    with pytest.raises(NotFoundError, match="correspondence"):
        await world.service.vacations.take(guild_id=GUILD, user_id=ALICE.user_id, days=2)
    with pytest.raises(NotFoundError, match="live clock"):
        await world.service.vacations.take(
            guild_id=GUILD, user_id=ALICE.user_id, days=2, game_id=live
        )
    corr = await world.new_game("2d")
    await world.service.vacations.take(guild_id=GUILD, user_id=ALICE.user_id, days=14, game_id=corr)
    world.clock.advance(days=14)
    with pytest.raises(InvalidInputError, match=r"0\.0 of 14 days"):
        await world.service.vacations.take(
            guild_id=GUILD, user_id=ALICE.user_id, days=1, game_id=corr
        )


# ------------------------------------------------------------------ finding games


async def test_a_command_finds_its_game_from_the_thread_or_the_member_s_only_game(
    world: World,
) -> None:
    with pytest.raises(NotFoundError, match="/chess new"):
        await world.service.finder.resolve(
            guild_id=GUILD, user_id=ALICE.user_id, channel_id=CHANNEL, ref=None
        )
    first = await world.new_game()
    assert (
        await world.service.finder.resolve(
            guild_id=GUILD, user_id=ALICE.user_id, channel_id=CHANNEL, ref=None
        )
        == first
    )
    await world.new_game(white=ALICE, black=CAROL)
    with pytest.raises(InvalidInputError, match="You have 2 chess games going"):
        await world.service.finder.resolve(
            guild_id=GUILD, user_id=ALICE.user_id, channel_id=CHANNEL, ref=None
        )
    assert (
        await world.service.finder.resolve(
            guild_id=GUILD, user_id=BOB.user_id, channel_id=CHANNEL, ref=None
        )
        == first
    )


async def test_a_given_game_number_is_checked_in_the_command_s_own_transaction(
    world: World, monkeypatch
) -> None:
    game_id = await world.new_game()
    units = 0
    open_uow = world.service.ctx.uow

    def counting_uow():  # type: ignore[no-untyped-def]
        nonlocal units
        units += 1
        return open_uow()

    monkeypatch.setattr(world.service.ctx, "uow", counting_uow)
    # /chess move game:N — the number is read without a writing unit of work; the
    # move is one. (This club's first game: its number is 1, whatever its id.)
    resolved = await world.service.finder.resolve(
        guild_id=GUILD, user_id=ALICE.user_id, channel_id=None, ref=1
    )
    assert resolved == game_id
    await world.service.moves.play(
        resolved, ALICE.user_id, "e4", reply_channel_id=THREAD, guild_id=GUILD
    )
    assert units == 1

    # Another server has no chess #1: the resolver says so. A game id from elsewhere
    # (a button) is refused by the command itself.
    other = GUILD + 1
    with pytest.raises(NotFoundError, match="There is no Chess #1 in this server"):
        await world.service.finder.resolve(
            guild_id=other, user_id=ALICE.user_id, channel_id=None, ref=1
        )
    refusal = f"There is no Chess #{game_id} in this server."
    for call in (
        world.service.moves.play(game_id, BOB.user_id, "e5", guild_id=other),
        world.service.endings.resign(game_id, BOB.user_id, guild_id=other),
        world.service.endings.draw(game_id, BOB.user_id, "offer", guild_id=other),
        world.service.reading.snapshot(game_id, guild_id=other),
        world.service.reading.pgn(game_id, guild_id=other),
    ):
        with pytest.raises(NotFoundError) as refused:
            await call
        assert str(refused.value) == refusal
    with pytest.raises(NotFoundError, match=f"no Chess #{game_id + 1000} in this server"):
        await world.service.moves.play(game_id + 1000, BOB.user_id, "e5", guild_id=GUILD)
    assert (
        await world.service.reading.move_choices(
            guild_id=other, user_id=BOB.user_id, channel_id=None, game_id=game_id, typed="e"
        )
        == []
    )

    # In the right server, not yours and over still say so.
    with pytest.raises(PermissionDeniedError, match="not yours"):
        await world.service.moves.play(game_id, CAROL.user_id, "e5", guild_id=GUILD)
    await world.service.endings.resign(game_id, BOB.user_id, guild_id=GUILD)
    with pytest.raises(InvalidInputError, match="is over"):
        await world.service.moves.play(game_id, BOB.user_id, "e5", guild_id=GUILD)
    snap = await world.service.reading.snapshot(game_id)
    assert snap.moves == ("e2e4",) and snap.result == "1-0"


async def test_games_are_listed_and_suggested_for_their_players(world: World) -> None:
    game_id = await world.new_game("10+5")
    choices = await world.service.finder.choices(guild_id=GUILD, user_id=BOB.user_id, typed="")
    assert choices == [(f"#{game_id} vs alice · alice to move · 10+5", str(game_id))]
    assert (
        await world.service.finder.choices(guild_id=GUILD, user_id=BOB.user_id, typed="carol") == []
    )
    moves = await world.service.reading.move_choices(
        guild_id=GUILD, user_id=ALICE.user_id, channel_id=THREAD, game_id=None, typed="e"
    )
    assert [v for _, v in moves] == ["e3", "e4"]


async def test_the_pgn_reads_back_to_the_final_position(world: World) -> None:
    game_id = await world.new_game("10+5")
    await world.play(game_id, "e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6", "Qxf7#")
    filename, text = await world.service.reading.pgn(game_id)
    assert filename == f"chess-{game_id}.pgn"
    game = chess.pgn.read_game(io.StringIO(text))
    assert game is not None and game.headers["Event"] == "Club"
    assert (game.headers["White"], game.headers["Black"], game.headers["Result"]) == (
        "alice",
        "bob",
        "1-0",
    )
    assert game.headers["Date"] == world.t0.strftime("%Y.%m.%d")
    assert game.headers["TimeControl"] == "600+5"
    assert game.end().board().is_checkmate()
    assert game.end().comment == "alice wins by checkmate."


# ------------------------------------------------------------------ the computer


async def test_playing_the_computer_without_an_engine_explains_the_install(world: World) -> None:
    world.service.engine = None
    with pytest.raises(EngineUnavailableError, match="apt-get install stockfish"):
        await world.service.starting.play_computer(
            guild_id=GUILD,
            guild_name="Club",
            channel_id=CHANNEL,
            player=ALICE,
            computer=BOT,
        )


async def test_the_computer_replies_from_a_timer_and_the_game_is_unrated(world: World) -> None:
    snap = await world.service.starting.play_computer(
        guild_id=GUILD,
        guild_name="Club",
        channel_id=CHANNEL,
        player=ALICE,
        computer=BOT,
        color="black",
        level=2,
    )
    assert snap.white.is_computer and snap.black.name == "alice" and snap.level == 2
    assert (await world.job(f"chess:computer:{snap.game_id}")).due_at == world.t0 + timedelta(
        seconds=30
    )
    await world.service.starting.open_in(snap.game_id, THREAD)  # the thread exists: reply at once
    await world.run_due()
    after = await world.service.reading.snapshot(snap.game_id)
    assert after.moves == ("a2a3",)
    # The engine thought before the job's transaction: on SQLite the write lock was free.
    assert world.service.engine.thought_with_lock_free in ([True], [None])  # type: ignore[union-attr]
    with pytest.raises(InvalidInputError, match="plays every game to the end"):
        await world.service.endings.draw(snap.game_id, ALICE.user_id, "offer")
    with pytest.raises(PermissionDeniedError):
        await world.service.moves.play(snap.game_id, BOT.user_id, "e5")
    await world.service.endings.resign(snap.game_id, ALICE.user_id)
    assert await world.rows(ResultRecord) == []


async def _vs_computer(world: World) -> int:
    snap = await world.service.starting.play_computer(
        guild_id=GUILD, guild_name="Club", channel_id=CHANNEL, player=ALICE, computer=BOT
    )
    assert not snap.half_open and snap.status == "active"
    job = await world.job(f"chess:open:{snap.game_id}")
    assert job is not None and job.status == "due"
    assert job.due_at == world.t0 + timedelta(seconds=30)
    return snap.game_id


async def test_a_computer_game_opens_from_the_command_s_reply_once(world: World) -> None:
    game_id = await _vs_computer(world)
    made: list[Any] = []
    announced: list[Any] = []

    async def opener(plan: Any) -> int:
        made.append(plan)
        return plan.message_id  # type: ignore[no-any-return]

    async def announcer(channel_id: int, content: str, nonce: str) -> int:
        announced.append(nonce)
        return 4242

    world.service.starting.thread_opener = opener
    world.service.starting.announcer = announcer
    # The cog's reply is recorded (a second recording keeps the first), then the game opens.
    assert await world.service.starting.record_opening(game_id, INVITATION) == INVITATION
    assert await world.service.starting.record_opening(game_id, 7) == INVITATION
    assert (await world.service.reading.snapshot(game_id)).half_open
    opened = await world.service.starting.open(game_id)
    assert not opened.half_open and opened.thread_id == INVITATION
    assert [(p.message_id, p.user_ids) for p in made] == [(INVITATION, (ALICE.user_id,))]
    # The job, due later, and another recording change nothing.
    world.clock.advance(seconds=31)
    await world.run_due()
    assert await world.service.starting.record_opening(game_id, 7) is None
    assert len(made) == 1 and announced == []
    (board,) = await _opening_boards(world, game_id)
    assert board.target_id == INVITATION
    assert (await world.job(f"chess:open:{game_id}")).status == "cancelled"  # type: ignore[union-attr]


async def test_the_opening_job_announces_a_computer_game_whose_reply_was_never_sent(
    world: World,
) -> None:
    game_id = await _vs_computer(world)
    made: list[Any] = []
    announced: list[tuple[int, str, str]] = []

    async def opener(plan: Any) -> int:
        made.append(plan.message_id)
        return plan.message_id  # type: ignore[no-any-return]

    async def announcer(channel_id: int, content: str, nonce: str) -> int:
        announced.append((channel_id, content, nonce))
        return 4242  # a repeat with the same nonce gets the same message, as on Discord

    world.service.starting.thread_opener = opener
    world.service.starting.announcer = announcer
    assert await world.run_due() == []  # the command's reply gets the first go
    world.clock.advance(seconds=31)
    await world.run_due()
    ((channel, content, nonce),) = announced
    assert channel == CHANNEL and nonce == f"chess-open-{game_id}" and len(nonce) <= 25
    assert f"Chess #{game_id}:" in content and "vs Stockfish" in content
    assert made == [4242]
    snap = await world.service.reading.snapshot(game_id)
    assert not snap.half_open and snap.thread_id == 4242
    # A cog that comes back to it late, or the job again, opens nothing more.
    assert await world.service.starting.record_opening(game_id, INVITATION) is None
    await world.service.starting.open(game_id)
    world.clock.advance(minutes=5)
    await world.run_due()
    assert len(announced) == 1 and made == [4242]
    (board,) = await _opening_boards(world, game_id)
    assert board.target_id == 4242


async def test_a_computer_game_opened_by_the_command_and_the_job_at_once_opens_once(
    world: World,
) -> None:
    game_id = await _vs_computer(world)

    async def opener(plan: Any) -> int:
        await asyncio.sleep(0)
        return plan.message_id  # type: ignore[no-any-return]

    async def announcer(channel_id: int, content: str, nonce: str) -> int:
        return 4242

    world.service.starting.thread_opener = opener
    world.service.starting.announcer = announcer
    world.clock.advance(seconds=31)

    async def command() -> None:
        await world.service.starting.record_opening(game_id, INVITATION)
        await world.service.starting.open(game_id)

    await asyncio.gather(command(), world.run_due())
    snap = await world.service.reading.snapshot(game_id)
    assert not snap.half_open and snap.thread_id in (INVITATION, 4242)
    (board,) = await _opening_boards(world, game_id)
    assert board.target_id == snap.thread_id


async def test_analysis_lists_each_side_s_mistakes_and_is_kept(world: World) -> None:
    engine = FakeEngine(evals=[20, 30, 25, -40, 50, 45, 600, 1000])
    world.service.engine = engine
    game_id = await world.new_game()
    await world.play(game_id, "e4", "e5", "Qh5")
    with pytest.raises(InvalidInputError, match="finished games"):
        await world.service.analysis.analysable(game_id)
    await world.play(game_id, "Nc6", "Bc4", "Nf6", "Qxf7#")
    report = await world.service.analysis.analyse(game_id)
    assert [m.san for m in report.mistakes[chess.BLACK]] == ["Nf6", "Nc6"]
    assert (
        "**bob** (Black): biggest mistakes" in report.text
        and "blunder, lost 5.5 pawns" in report.text
    )
    again = await world.service.analysis.analyse(game_id)
    assert again.mistakes == report.mistakes and engine.analyses == 1


async def test_an_unreadable_move_is_refused_in_the_clubs_language_from_its_template(
    world: World,
) -> None:
    from bot.messages.errors import refusal
    from bot.messages.i18n import use_language

    game_id = await _accepted(world)
    with pytest.raises(InvalidInputError) as refused:
        await world.service.moves.play(game_id, ALICE.user_id, "Zz9")
    error = refused.value
    assert error.code == "unreadable_move"
    assert error.text is not None and error.text.fields["move"] == "`Zz9`"
    assert refusal(error).startswith("I can't read `Zz9` as a move.")
    with use_language("fil"):
        filipino = refusal(error)
    assert filipino.startswith("Hindi ko mabasa ang `Zz9` bilang tira."), filipino
    assert "can't read" not in filipino


async def test_the_opening_job_run_after_the_click_opened_the_game_does_nothing(
    world: World,
) -> None:
    # Under load the job's run can start while the Accept click opens the game: it
    # finds the game open and does nothing (it raised, and was retried, before).
    game_id = await _accepted(world)

    async def opener(plan: Any) -> int:
        return INVITATION

    world.service.starting.thread_opener = opener
    await world.service.starting.open(game_id)
    assert await world.service.starting.prepare_open({"game_id": game_id}) is None
