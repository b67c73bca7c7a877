"""A league season's start (issue #30): 200 members placed in divisions of six (34
divisions: 30 of six and 4 of five, 490 games). ``/league start`` places them and
writes the divisions and their entrants in one transaction; each division's job then
makes its games through the Scrabble service and queues its post and the job that
opens its threads, one transaction per division (run here one after the other, as
the scheduler would). Then the season's end (its rollover: tables, moves, winners,
the next season with everyone entered) once every game has a result.

Measured through the services on a SQLite file (no Discord: the threads are queued as
jobs, which the bot's scheduler would run after the commit). Peak memory is Python's
(``tracemalloc``) during the start.
"""

from __future__ import annotations

import asyncio
import json
import random
import resource
import statistics
import tempfile
import time
import tracemalloc
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from benchmarks._core import Row

MEMBERS = 200
GUILD = 10**17
CHANNEL = 10**17 + 1
HOST = 10**17 + 2


class _Clock:
    def __init__(self) -> None:
        self.now = datetime(2026, 12, 7, 12, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now


async def _measure(tmp: Path, members: int) -> dict[str, float]:
    from sqlalchemy import text

    from bot.config import load_settings
    from bot.db.engine import create_engine, create_session_factory
    from bot.db.migrate import upgrade_to_head
    from bot.scheduler import Scheduler
    from bot.services import ServiceContext
    from bot.services.leagues import options as opts
    from bot.services.leagues.service import LeagueService, Who
    from bot.services.scrabble import LexiconCache, ScrabbleService
    from bot.services.tournaments.service import TournamentService

    url = f"sqlite+aiosqlite:///{tmp / 'club.db'}"
    settings = load_settings(None, discord_token="test-token", database_url=url)
    engine = create_engine(url)
    await upgrade_to_head(engine)
    factory = create_session_factory(engine)
    clock = _Clock()
    ctx = ServiceContext(
        settings=settings,
        session_factory=factory,
        scheduler=Scheduler(factory, clock=clock),
        clock=clock,
    )
    scrabble = ScrabbleService(
        ctx, rng=random.Random(1), lexicons=LexiconCache(lambda _n: set()), definitions=lambda: None
    )
    tournaments = TournamentService(ctx, scrabble=scrabble, rng=random.Random(2))
    leagues = LeagueService(ctx, lambda: tournaments, rng=random.Random(3))
    await leagues.create(
        opts.NewLeague(GUILD, "Bench club", CHANNEL, HOST, "host", "scrabble", name="Big League")
    )
    who = Who(GUILD, CHANNEL, None, HOST, True, "host")
    for n in range(members):
        await leagues.join(Who(GUILD, CHANNEL, None, n + 1, False), (n + 1, f"m{n + 1}"), None)

    out: dict[str, float] = {}
    tracemalloc.start()
    t = time.perf_counter()
    await leagues.start(who)
    out["start_s"] = time.perf_counter() - t
    async with factory() as session:
        due = (
            await session.execute(
                text("SELECT payload FROM jobs WHERE kind = 'league.open_division' ORDER BY id")
            )
        ).scalars()
        payloads = [json.loads(p) if isinstance(p, str) else p for p in due]
    division_s = []
    for payload in payloads:  # as the scheduler runs them, one transaction each
        t0 = time.perf_counter()
        await leagues.prepare_open_division(payload)
        division_s.append(time.perf_counter() - t0)
    out["divisions_s"] = sum(division_s)
    out["division_max_s"] = max(division_s)
    out["division_median_s"] = statistics.median(division_s)
    out["peak_mib"] = tracemalloc.get_traced_memory()[1] / 2**20
    tracemalloc.stop()
    out["rss_mib"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    async with factory() as session:
        out["games"] = (await session.execute(text("SELECT count(*) FROM games"))).scalar_one()
        out["divisions"] = (
            await session.execute(text("SELECT count(*) FROM league_divisions"))
        ).scalar_one()
        out["open_jobs"] = (
            await session.execute(
                text("SELECT count(*) FROM jobs WHERE kind = 'tournament.open_round'")
            )
        ).scalar_one()
        out["posts"] = (
            await session.execute(text("SELECT count(*) FROM outbox WHERE sent_at IS NULL"))
        ).scalar_one()
        # Every game decided (as a forfeit-free adjudication would): the first seat wins.
        await session.execute(
            text("UPDATE tournament_pairings SET score = 1.0, source = 'adjudicated'")
        )
        await session.execute(text("UPDATE tournaments SET status = 'finished'"))
        await session.commit()

    clock.now += timedelta(weeks=4, minutes=1)
    t = time.perf_counter()
    async with ctx.uow() as uow:
        season = await uow.leagues.season(1, 1)
        assert season is not None
        rolled = await leagues.roll_over(uow, season.id)
        await uow.commit()
    out["rollover_s"] = time.perf_counter() - t
    assert rolled
    await engine.dispose()
    return out


def run(quick: bool) -> list[Row]:
    members = 60 if quick else MEMBERS
    with tempfile.TemporaryDirectory() as tmp:
        got: dict[str, Any] = asyncio.run(_measure(Path(tmp), members))
    shape = (
        f"{got['divisions']} divisions, {got['games']} games, "
        f"{got['open_jobs']} thread-opening jobs, {got['posts']} posts queued"
    )
    return [
        Row(
            f"league: /league start of {members} members (placing, divisions, entrants)",
            "s",
            5.0,
            got["start_s"],
            spread=shape,
        ),
        Row(
            f"league: a division's games made (one transaction; {members} members)",
            "s",
            2.0,
            got["division_median_s"],
            spread=f"max {got['division_max_s']:.2f} s; all divisions {got['divisions_s']:.1f} s",
        ),
        Row(
            f"league: peak Python memory opening a season of {members}",
            "MiB",
            200.0,
            got["peak_mib"],
            spread=f"process max RSS {got['rss_mib']:.0f} MiB",
        ),
        Row(
            f"league: season rollover of {members} members (one transaction)",
            "s",
            10.0,
            got["rollover_s"],
        ),
    ]


if __name__ == "__main__":
    for row in run(quick=False):
        print(row)
