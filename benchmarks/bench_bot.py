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
from datetime import datetime, timedelta, timezone
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
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(json.dumps({"seconds": elapsed, "rss_mib": rss, "commands": len(payloads), "words": len(lex)}))

asyncio.run(main())
"""


def _cold_start(repeat: int) -> list[Row]:
    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite+aiosqlite:///{tmp}/bench.db"
        env = {**os.environ, "PYTHONPATH": str(REPO)}
        # First run creates and migrates the database; later runs find it at head.
        subprocess.run([sys.executable, "-c", _PROBE, url], env=env, check=True, capture_output=True, cwd=tmp)
        seconds, rss = [], []
        for _ in range(repeat):
            out = subprocess.run(
                [sys.executable, "-c", _PROBE, url], env=env, check=True, capture_output=True, text=True, cwd=tmp
            ).stdout
            data = json.loads(out.strip().splitlines()[-1])
            seconds.append(data["seconds"] * 1000)
            rss.append(data["rss_mib"])
    return [
        ms_row("cold start to ready (existing db, word list, cogs, tree)", seconds, 1000.0),
        Row("resident memory after start", "MiB", 100.0, statistics.median(rss), None,
            f"min {min(rss):.0f} / max {max(rss):.0f} (n={len(rss)})"),
    ]


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
            games = [uow.games.add(GameRecord(guild_id=1, kind="scrabble", status="active", state={"ply": 0, "board": ["." * 15] * 15}, options={})) for _ in range(200)]
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

        n = 300 if quick else 1000
        rates = []
        counter = 0
        for _ in range(3 if quick else 5):
            t0 = time.perf_counter()
            for _ in range(n):
                await commit_once(counter)
                counter += 1
            rates.append(n / (time.perf_counter() - t0))
        rows.append(rate_row("game-state commits (SQLite WAL, repositories)", rates, 900.0))

        # 100k results over 500 members for the leaderboard queries.
        rng = random.Random(7)
        now = datetime(2026, 11, 29, 12, tzinfo=timezone.utc)
        async with factory() as session:
            await session.execute(insert(PlayerRecord), [{"id": p, "display_name": f"member{p}", "updated_at": now} for p in range(1, 501)])
            await session.execute(
                insert(RatingRecord),
                [
                    {"guild_id": 1, "game_kind": kind, "player_id": p, "rating": rng.gauss(1500, 200), "rd": rng.uniform(50, 350),
                     "volatility": 0.06, "games": 200, "wins": 100, "losses": 90, "draws": 10, "points": rng.uniform(0, 900),
                     "spread": 0.0, "last_played_at": now - timedelta(days=rng.uniform(0, 120))}
                    for p in range(1, 501) for kind in ("chess", "scrabble", "boggle")
                ],
            )
            batch = []
            for i in range(100_000):
                kind = ("chess", "scrabble", "boggle")[i % 3]
                batch.append({
                    "guild_id": 1, "game_kind": kind, "player_id": rng.randint(1, 500), "outcome": rng.choice(("win", "loss")),
                    "score": rng.randint(200, 500), "points": rng.randint(0, 20), "extra": {}, "season": None,
                    "played_at": now - timedelta(minutes=i * 5),
                })
            await session.execute(insert(ResultRecord), batch)
            await session.commit()
        ctx = ServiceContext(settings=load_settings(None), session_factory=factory, scheduler=Scheduler(factory), clock=lambda: now)
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

        repeat = 50 if quick else 200
        rows.append(ms_row("leaderboard top-10, chess all time (100k results)", await timed("chess", "all", repeat), 2.0))
        rows.append(ms_row("leaderboard top-10, Boggle this week (100k results)", await timed("boggle", "week", repeat), 2.0))
        rows.append(ms_row("leaderboard top-10, all games this month (100k results)", await timed("all", "month", repeat), None))
        await engine.dispose()
    return rows


def run(quick: bool) -> list[Row]:
    rows = _cold_start(3 if quick else 7)
    rows.extend(asyncio.run(_db_rows(quick)))
    return rows
