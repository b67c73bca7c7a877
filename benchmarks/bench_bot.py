"""The bot as a whole: cold start, memory, database commits, leaderboard queries."""

from __future__ import annotations

import asyncio
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

from benchmarks._core import Row, ms_row, rate_row

REPO = Path(__file__).resolve().parents[1]

_PROBE = r"""
import asyncio, json, resource, sys, time
t0 = time.perf_counter()
from bot.config import load_settings
from bot.client import ClubBot

async def main():
    settings = load_settings(None, database_url=sys.argv[1])
    bot = ClubBot(settings, sync_commands=False, run_background=False)
    await bot.prepare()
    from engines.lexicon import load_lexicon
    lex = await asyncio.to_thread(load_lexicon, settings.lexicon)
    payloads = [c.to_dict(bot.tree) for c in bot.tree.get_commands()]
    elapsed = time.perf_counter() - t0
    await bot.engine.dispose()
    # VmRSS of this process, not ru_maxrss: after fork+exec Linux carries the
    # parent's peak into ru_maxrss, so a big benchmark runner inflated it.
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    try:
        with open("/proc/self/status") as status:
            rss = next(int(line.split()[1]) / 1024 for line in status if line.startswith("VmRSS:"))
    except (OSError, StopIteration):
        pass
    usage = resource.getrusage(resource.RUSAGE_SELF)
    cpu = usage.ru_utime + usage.ru_stime  # apart from wall time: on a busy machine the two differ
    print(json.dumps({"seconds": elapsed, "cpu_seconds": cpu, "rss_mib": rss, "commands": len(payloads),
                      "words": len(lex)}))

asyncio.run(main())
"""


def _cold_start(repeat: int) -> list[Row]:
    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite+aiosqlite:///{tmp}/bench.db"
        # Started as a deployed bot is: with compiled bytecode. Environments that
        # set PYTHONDONTWRITEBYTECODE would otherwise recompile every module on
        # each start (~0.3 s); the caches go to the temporary folder, not the repo.
        env = {**os.environ, "PYTHONPATH": str(REPO), "PYTHONPYCACHEPREFIX": f"{tmp}/pycache"}
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        # First run creates and migrates the database (and writes the bytecode);
        # later runs find both ready.
        subprocess.run(
            [sys.executable, "-c", _PROBE, url], env=env, check=True, capture_output=True, cwd=tmp
        )
        seconds, cpu, rss = [], [], []
        for _ in range(repeat):
            out = subprocess.run(
                [sys.executable, "-c", _PROBE, url],
                env=env,
                check=True,
                capture_output=True,
                text=True,
                cwd=tmp,
            ).stdout
            data = json.loads(out.strip().splitlines()[-1])
            seconds.append(data["seconds"] * 1000)
            cpu.append(data["cpu_seconds"] * 1000)
            rss.append(data["rss_mib"])
    return [
        ms_row("cold start to ready (existing db, word list, cogs, tree)", seconds, 1000.0),
        ms_row("cold start, CPU time used (user+sys, from process start)", cpu, None),
        Row(
            "resident memory after start",
            "MiB",
            100.0,
            statistics.median(rss),
            None,
            f"min {min(rss):.0f} / max {max(rss):.0f} (n={len(rss)})",
        ),
    ]


READY_GUILDS = 200


async def _ready_with_guilds(repeat: int) -> list[Row]:
    """Connecting to a loopback Discord of 200 guilds (4-8 members each) until
    on_ready, discord.py's 2 s wait for further GUILD_CREATEs included, as deployed.
    In-process, after one unmeasured start (database migrated, word list loaded),
    so what is measured is the gateway's part and setup_hook's, not Python's start."""
    from bot.client import ClubBot
    from bot.config import load_settings
    from tests.loopback import LoopbackDiscord
    from tests.loopback.gateway import REQUEST_MEMBERS

    rng = random.Random(11)
    seconds: list[float] = []
    asked = 0
    with tempfile.TemporaryDirectory() as tmp:
        dc = LoopbackDiscord()
        await dc.start()
        try:
            for number in range(READY_GUILDS):
                guild = dc.add_guild(f"Club {number}")
                for seat in range(rng.randint(4, 8)):
                    dc.add_member(guild, dc.add_user(f"m{number}-{seat}"))
            settings = load_settings(
                None,
                discord_token="test-token",
                database_url=f"sqlite+aiosqlite:///{tmp}/bench.db",
            )
            for attempt in range(repeat + 1):
                bot = ClubBot(settings)
                frames = len(dc.gateway.frames_received)
                t0 = time.perf_counter()
                await dc.start_bot(bot, token="test-token", timeout=300, guild_ready_timeout=2.0)
                if attempt:
                    seconds.append((time.perf_counter() - t0) * 1000)
                asked += sum(
                    f.get("op") == REQUEST_MEMBERS for f in dc.gateway.frames_received[frames:]
                )
                await dc.stop_bot(bot)
        finally:
            await dc.close()
    row = ms_row(f"ready with {READY_GUILDS} guilds (loopback, from start())", seconds, 10_000.0)
    row.spread += f"; member requests (REQUEST_GUILD_MEMBERS) sent: {asked}"
    return [row]


async def _db_rows(quick: bool) -> list[Row]:
    from sqlalchemy import insert

    from bot.config import load_settings
    from bot.db.engine import create_engine, create_session_factory
    from bot.db.migrate import upgrade_to_head
    from bot.db.models import GameRecord, PlayerRecord, RatingRecord, ResultRecord
    from bot.db.uow import UnitOfWork
    from bot.scheduler import Scheduler
    from bot.services import ServiceContext
    from bot.services.leaderboard import LeaderboardService

    rows: list[Row] = []
    with tempfile.TemporaryDirectory() as tmp:
        engine = create_engine(f"sqlite+aiosqlite:///{tmp}/bench.db")
        await upgrade_to_head(engine)
        factory = create_session_factory(engine)
        async with UnitOfWork(factory) as uow:
            await uow.guilds.ensure(1, "bench")
            games = [
                uow.games.add(
                    GameRecord(
                        guild_id=1,
                        kind="scrabble",
                        status="active",
                        state={"ply": 0, "board": ["." * 15] * 15},
                        options={},
                    )
                )
                for _ in range(200)
            ]
            await uow.commit()
        ids = [g.id for g in games]

        async def commit_once(i: int) -> None:
            async with UnitOfWork(factory) as uow:
                game = await uow.games.get(ids[i % len(ids)])
                state = dict(game.state)
                state["ply"] = state["ply"] + 1
                await uow.games.save_state(game, expected_version=game.version, state=state)
                await uow.moves.append(game.id, ply=state["ply"], notation="8H WORD", score=10)
                await uow.commit()

        # A few hundred commits per run are enough for a stable rate (the full
        # run must stay within five minutes on a loaded two-core machine).
        n = 100 if quick else 200
        rates = []
        counter = 0
        for _ in range(20):  # warm-up: statement caches, connection pool
            await commit_once(counter)
            counter += 1
        for _ in range(3 if quick else 5):
            t0 = time.perf_counter()
            for _ in range(n):
                await commit_once(counter)
                counter += 1
            rates.append(n / (time.perf_counter() - t0))
        rows.append(rate_row("game-state commits (SQLite WAL, repositories)", rates, 900.0))
        rows.append(
            rate_row(
                "game-state commits, same statements in plain sqlite3 (floor, no ORM/asyncio)",
                _plain_sqlite_rates(Path(tmp) / "bench.db", ids, n, 3 if quick else 5),
                None,
            )
        )

        # 100k results over 500 members for the leaderboard queries.
        rng = random.Random(7)
        now = datetime(2026, 11, 29, 12, tzinfo=UTC)
        async with factory() as session:
            await session.execute(
                insert(PlayerRecord),
                [{"id": p, "display_name": f"member{p}", "updated_at": now} for p in range(1, 501)],
            )
            await session.execute(
                insert(RatingRecord),
                [
                    {
                        "guild_id": 1,
                        "game_kind": kind,
                        "player_id": p,
                        "rating": rng.gauss(1500, 200),
                        "rd": rng.uniform(50, 350),
                        "volatility": 0.06,
                        "games": 200,
                        "wins": 100,
                        "losses": 90,
                        "draws": 10,
                        "points": rng.uniform(0, 900),
                        "spread": 0.0,
                        "last_played_at": now - timedelta(days=rng.uniform(0, 120)),
                    }
                    for p in range(1, 501)
                    for kind in ("chess", "scrabble", "boggle")
                ],
            )
            batch = []
            for i in range(100_000):
                kind = ("chess", "scrabble", "boggle")[i % 3]
                batch.append(
                    {
                        "guild_id": 1,
                        "game_kind": kind,
                        "player_id": rng.randint(1, 500),
                        "outcome": rng.choice(("win", "loss")),
                        "score": rng.randint(200, 500),
                        "points": rng.randint(0, 20),
                        "extra": {},
                        "season": None,
                        "played_at": now - timedelta(minutes=i * 5),
                    }
                )
            await session.execute(insert(ResultRecord), batch)
            await session.commit()
        ctx = ServiceContext(
            settings=load_settings(None),
            session_factory=factory,
            scheduler=Scheduler(factory),
            clock=lambda: now,
        )
        service = LeaderboardService(ctx)

        async def timed(kind: str, period: str, repeat: int) -> list[float]:
            for _ in range(5):
                await service.table(1, kind, period)
            out = []
            for _ in range(repeat):
                t0 = time.perf_counter()
                await service.table(1, kind, period)
                out.append((time.perf_counter() - t0) * 1000)
            return out

        repeat = 50 if quick else 100
        rows.append(
            ms_row(
                "leaderboard top-10, chess all time (100k results)",
                await timed("chess", "all", repeat),
                2.0,
            )
        )
        rows.append(
            ms_row(
                "leaderboard top-10, Boggle this week (100k results)",
                await timed("boggle", "week", repeat),
                2.0,
            )
        )
        # ~50 ms a call: fewer repetitions keep the module quick.
        rows.append(
            ms_row(
                "leaderboard top-10, all games this month (100k results)",
                await timed("all", "month", repeat // 2),
                None,
            )
        )
        await engine.dispose()
    return rows


def _plain_sqlite_rates(path: Path, ids: list[int], n: int, runs: int) -> list[float]:
    """The commit above written directly with sqlite3: what SQLite itself costs here."""
    import sqlite3

    db = sqlite3.connect(path, isolation_level=None)
    db.execute("PRAGMA synchronous=NORMAL")
    db.execute("PRAGMA foreign_keys=ON")
    stamp = "2026-12-01 00:00:00.000000"
    counter = 0

    def commit_once() -> None:
        nonlocal counter
        game_id = ids[counter % len(ids)]
        counter += 1
        db.execute("BEGIN IMMEDIATE")
        state_text, version = db.execute(
            "SELECT state, version FROM games WHERE id = ?", (game_id,)
        ).fetchone()
        db.execute("SELECT * FROM game_seats WHERE game_id = ?", (game_id,)).fetchall()
        state = json.loads(state_text)
        state["ply"] += 1
        db.execute(
            "UPDATE games SET state = ?, version = ?, updated_at = ? WHERE id = ? AND version = ?",
            (json.dumps(state), version + 1, stamp, game_id, version),
        )
        db.execute(
            "INSERT INTO moves (game_id, ply, notation, score, data, created_at) VALUES (?, ?, ?, ?, ?, ?)",
            (game_id, state["ply"], "8H WORD", 10, "{}", stamp),
        )
        db.execute("COMMIT")

    rates = []
    try:
        for _ in range(runs):
            t0 = time.perf_counter()
            for _ in range(n):
                commit_once()
            rates.append(n / (time.perf_counter() - t0))
    finally:
        db.close()
    return rates


def run(quick: bool) -> list[Row]:
    rows = _cold_start(3 if quick else 5)
    rows.extend(asyncio.run(_ready_with_guilds(2 if quick else 3)))
    rows.extend(asyncio.run(_db_rows(quick)))
    return rows
