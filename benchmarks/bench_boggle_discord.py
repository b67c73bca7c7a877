"""Word Boggle through the service: DM'd lists per second while five rounds run,
and closing a 50-player round (the engine's scoring, then the whole close job).

Runs on a temporary SQLite file with the built-in word list, as the bot does.
"""

from __future__ import annotations

import asyncio
import random
import tempfile
import time
from datetime import UTC, datetime, timedelta
from typing import Any

from benchmarks._core import Row, ms_row, rate_row, time_calls

T0 = datetime(2026, 11, 30, 18, 0, tzinfo=UTC)
SEED = 42  # a classic 4x4 grid with ~130 words
LIVE_ROUNDS = 5
PLAYERS, WORDS_EACH = 50, 60
DM_BUDGET = PLAYERS / 2.0  # DMs per second


class _Clock:
    def __init__(self) -> None:
        self.now = T0

    def __call__(self) -> datetime:
        return self.now


def run(quick: bool) -> list[Row]:
    return asyncio.run(_run(quick))


async def _run(quick: bool) -> list[Row]:
    import bot.services.boggle as boggle
    from bot.config import load_settings
    from bot.db.engine import create_engine, create_session_factory
    from bot.db.migrate import upgrade_to_head
    from bot.scheduler import Scheduler
    from bot.services import ServiceContext
    from bot.services.words import get_lexicon

    boggle.new_seed = lambda: SEED  # the same grid for every round: comparable runs
    rows: list[Row] = []
    with tempfile.TemporaryDirectory() as tmp:
        engine = create_engine(f"sqlite+aiosqlite:///{tmp}/bench.db")
        await upgrade_to_head(engine)
        factory = create_session_factory(engine)
        clock = _Clock()
        scheduler = Scheduler(factory, clock=clock)
        ctx = ServiceContext(
            settings=load_settings(None), session_factory=factory, scheduler=scheduler, clock=clock
        )
        service = boggle.BoggleService(ctx)
        scheduler.register_service(service)
        lexicon = await get_lexicon(ctx)
        await service.core.warm_lexicon()
        rng = random.Random(7)
        on_grid, junk = _word_pools(lexicon, rng)

        rows += await _dm_rates(service, clock, on_grid, junk, rng, quick)
        rows += await _closing(service, scheduler, clock, lexicon, on_grid, junk, rng, quick)
        await service.core.wait_background()
        await engine.dispose()
    return rows


def _word_pools(lexicon: Any, rng: random.Random) -> tuple[list[str], list[str]]:
    from engines.boggle import roll, solve

    grid = roll("classic16", SEED)
    on_grid = sorted(solve(grid, lexicon, 4))
    words = list(lexicon)
    junk = [w for w in rng.sample(words, 400) if w not in on_grid] + ["xq" * 3, "zzzz", "ab", "cat"]
    return on_grid, junk


def _list_of(count: int, on_grid: list[str], junk: list[str], rng: random.Random) -> str:
    # Two thirds real finds (so many are shared and cancelled), a third misses.
    real = rng.sample(on_grid, min(len(on_grid), count * 2 // 3))
    wrong = rng.sample(junk, count - len(real))
    return ", ".join(real + wrong)


async def _dm_rates(service, clock, on_grid, junk, rng, quick: bool) -> list[Row]:  # type: ignore[no-untyped-def]
    for guild in range(1, LIVE_ROUNDS + 1):
        await service.starting.start_round(
            guild_id=guild,
            guild_name=f"club {guild}",
            channel_id=100 + guild,
            started_by=1,
            duration="60m",
        )
    messages = 150 if quick else 400
    repeats = 3 if quick else 5
    message_id = 10_000
    sequential, concurrent = [], []
    for _ in range(repeats):
        batch = []
        for _ in range(messages):
            message_id += 1
            player = rng.randrange(1_000, 1_200)
            guilds = [player % LIVE_ROUNDS + 1] + (
                [1] if player % 7 == 0 else []
            )  # some play in two clubs
            batch.append((player, message_id, guilds, _list_of(5, on_grid, junk, rng)))
        t0 = time.perf_counter()
        for player, mid, guilds, text in batch:
            await service.submissions.submit_dm(
                user_id=player,
                display_name=f"p{player}",
                message_id=mid,
                sent_at=clock(),
                text=text,
                guild_ids=guilds,
            )
        sequential.append(messages / (time.perf_counter() - t0))

        batch = [(p, mid + messages, g, t) for p, mid, g, t in batch]
        message_id += messages
        t0 = time.perf_counter()
        for start in range(0, messages, 10):
            await asyncio.gather(
                *(
                    service.submissions.submit_dm(
                        user_id=p,
                        display_name=f"p{p}",
                        message_id=mid,
                        sent_at=clock(),
                        text=t,
                        guild_ids=g,
                    )
                    for p, mid, g, t in batch[start : start + 10]
                )
            )
        concurrent.append(messages / (time.perf_counter() - t0))
    # Budget: the end-of-round burst of a 50-player round (everyone sends a
    # last message at once) is stored within two seconds.
    return [
        rate_row(
            f"boggle: DM lists stored, {LIVE_ROUNDS} live rounds (one at a time)",
            sequential,
            DM_BUDGET,
        ),
        rate_row(
            f"boggle: DM lists stored, {LIVE_ROUNDS} live rounds (10 at once)",
            concurrent,
            DM_BUDGET,
        ),
    ]


async def _closing(
    service, scheduler, clock, lexicon, on_grid, junk, rng, quick: bool
) -> list[Row]:  # type: ignore[no-untyped-def]
    from engines.boggle import Grid, score_round

    lists = {
        player: _list_of(WORDS_EACH, on_grid, junk, rng) for player in range(5_000, 5_000 + PLAYERS)
    }
    grid = Grid.parse("I T V A/T E V W/Y O N I/L U C A")
    scoring = time_calls(lambda: score_round(grid, lists, lexicon, 4), repeat=10 if quick else 30)

    jobs_ms = []
    for attempt in range(3 if quick else 6):
        guild = 500 + attempt
        clock.now = T0 + timedelta(hours=2 + attempt)
        info = await service.starting.start_round(
            guild_id=guild, guild_name="big club", channel_id=900, started_by=1
        )
        for number, (player, text) in enumerate(lists.items()):
            await service.submissions.submit_dm(
                user_id=player,
                display_name=f"p{player}",
                message_id=90_000_000 + attempt * 1000 + number,
                sent_at=clock(),
                text=text,
                guild_ids=[guild],
            )
        clock.now = info.ends_at + timedelta(seconds=10)
        t0 = time.perf_counter()
        while await scheduler.run_due():  # the close job, then the score job
            pass
        jobs_ms.append((time.perf_counter() - t0) * 1000)
    return [
        ms_row(
            f"boggle: score a round, {PLAYERS} players x {WORDS_EACH} words (engine)", scoring, 50.0
        ),
        # Budget: the results are in the outbox a second after the lists close.
        ms_row(
            f"boggle: close + score jobs, {PLAYERS} x {WORDS_EACH} (DB, points, results post)",
            jobs_ms,
            1000.0,
        ),
    ]
