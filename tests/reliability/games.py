"""Driving games as members do, and reading their state straight from the database."""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import Awaitable, Callable
from datetime import timedelta
from typing import Any

from bot.db.engine import create_engine, create_session_factory
from bot.db.repositories import JobRepository
from engines.scrabble import ScrabbleError, ScrabbleGame
from tests.engines.scrabble.support import anchor_squares, random_placement
from tests.reliability import logscan
from tests.reliability.botproc import PROBE_KIND
from tests.reliability.harness import Database, World


async def reply_text(ix: Any, timeout: float = 10.0) -> str:
    """What the member finally sees for an interaction (a deferred reply's follow-up too)."""
    response = await ix.wait_response(timeout)
    if response.deferred:
        await ix.wait_done(timeout)
    if ix.followups:
        return ix.followups[-1].content or ""
    if ix.original is not None and ix.original.content:
        return ix.original.content
    return response.content or ""


# -- Scrabble ----------------------------------------------------------------------------------


async def scrabble_state(db: Database, game_id: int) -> dict[str, Any]:
    raw = await db.value("select state from games where id = :id", id=game_id)
    state = json.loads(raw) if isinstance(raw, str) else (raw or {})
    engine = state.get("engine")
    if engine:  # a test that has read a rack has a secret the log must never show
        for rack in engine.get("racks", []):
            logscan.register_secret(rack)
    return state


async def scrabble_moves(db: Database, game_id: int) -> list[tuple[int, str]]:
    return [
        (r[0], r[1])
        for r in await db.rows(
            "select ply, notation from moves where game_id = :id order by ply", id=game_id
        )
    ]


ENOUGH_PLAYS = 40


def legal_play(engine_state: dict[str, Any], seed: int) -> tuple[str, str]:
    """A legal play (word, position) for the seat on turn; words are not judged in double challenge.

    The best (most tiles, then score) of the first ``ENOUGH_PLAYS`` legal placements found
    in up to 300 random tries: on self-played games the best of 40 laid 6.83 tiles a move
    against 6.86 for the best of all 300 tries, at a fifth of the time (2.1 ms against
    11.2; the load benchmark's generator, on the bot's cores, makes one for every move)."""
    game = ScrabbleGame.from_json(engine_state)
    rack = game.racks[game.current_seat]
    if not game.moves or all(m.get("type") != "play" for m in game.moves):
        return "".join("e" if t == "?" else t for t in rack[:5]), "8H"
    rng = random.Random(seed)
    best: tuple[tuple[int, int], str, str] | None = None
    anchors = anchor_squares(game)
    found = 0
    for _ in range(300):
        candidate = random_placement(game, rng, anchors=anchors)
        if candidate is None:
            break
        word, position = candidate
        try:
            evaluation = game.preview(game.current_seat, word, position)
        except ScrabbleError:
            continue
        key = (len(evaluation.tiles), evaluation.score)
        if best is None or key > best[0]:
            best = (key, word, position)
        found += 1
        if found >= ENOUGH_PLAYS:
            break
    assert best is not None, "no legal play found"
    return best[1], best[2]


def invite_game_id(message: Any) -> int:
    join = next(c for c in message.custom_ids if c.startswith("scrabble:join"))
    return int(join.split(":")[2])


def chess_invite_game_id(message: Any) -> int:
    """A chess challenge's game id, as its Accept button carries it (the text shows
    the game's number in its guild, which need not be the id)."""
    accept = next(c for c in message.custom_ids if c.startswith("chess:invite:accept:"))
    return int(accept.rsplit(":", 1)[1])


def board_posts(world: Any, thread: Any, game_id: int, move: int) -> list[Any]:
    """Board posts of one game at one move count (each must be posted exactly once)."""
    return list(world.bot_posts(thread, f"**Scrabble #{game_id}** · move {move}\n"))


async def open_scrabble(
    dc: Any, channel: Any, creator: Any, invitees: list[Any], **options: Any
) -> tuple[int, Any, Any]:
    """Invite, accept, and wait for the first board: the game's id, its thread and the invitation."""
    before = {t.id for t in dc.threads_in(channel)}
    ix = await dc.slash(creator, channel, "scrabble new", **options)
    invite = ix.answer
    game_id = invite_game_id(invite)
    for member in invitees:
        await dc.click(member, invite, f"scrabble:join:{game_id}")
    thread = await dc.wait_until(
        lambda: next((t for t in dc.threads_in(channel) if t.id not in before), None),
        10,
        "the game's thread",
    )
    await dc.wait_until(
        lambda: any(
            f"**Scrabble #{game_id}** · move 0\n" in (m.content or "")
            for m in dc.messages_in(thread)
        ),
        10,
        "the first board",
    )
    return game_id, thread, invite


# -- jobs ----------------------------------------------------------------------------------------


async def schedule_probes(
    world: World, user_id: int, count: int, *, sleep: float = 0.0, start: int = 0
) -> None:
    """``reliability.probe`` jobs (see botproc) due now on the world's clock, written straight
    into the database as a service's transaction would."""
    engine = create_engine(world.database_url)
    try:
        async with create_session_factory(engine)() as session:
            due = world.clock() - timedelta(seconds=1)
            for n in range(start, start + count):
                await JobRepository(session).schedule(
                    PROBE_KIND,
                    due,
                    {"n": n, "user_id": user_id, "sleep": sleep},
                    key=f"probe:{n}",
                )
            await session.commit()
    finally:
        await engine.dispose()


def probe_dms(world: World, user: object) -> dict[int, int]:
    counts: dict[int, int] = {}
    for message in world.dc.dms_to(user):
        if (message.content or "").startswith("probe "):
            n = int(message.content.split()[1])
            counts[n] = counts.get(n, 0) + 1
    return counts


def club_db(club: Any) -> Database:
    return Database(f"sqlite+aiosqlite:///{club.db_path}")


async def eventually(
    check: Callable[[], Awaitable[bool]], what: str, timeout: float = 10.0
) -> None:
    """Poll an async condition (a database read) until it holds."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not await check():
        if loop.time() > deadline:
            raise AssertionError(f"timed out after {timeout:.0f} s waiting for {what}")
        await asyncio.sleep(0.05)
