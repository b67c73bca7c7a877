"""The bot under load: ``python -m benchmarks.load`` (issue #32).

A loopback Discord of ``--guilds`` guilds (4–8 members each, a games channel each)
and ``--processes`` real bot processes (``python -m bot``, each holding its share of
``--shards`` shards) on SQLite or PostgreSQL; the members play the mix of
``tests/reliability/load.py`` (Scrabble and chess games started, accepted and
played with legal moves, position autocomplete, racks, boards, ``/leaderboard``,
``/help``, Boggle word lists DM'd during open rounds) at open-loop Poisson rates,
``--seconds`` a step, after an unmeasured ``--warmup``.

Per step it prints: interactions sent (and DMs), the ack latency (INTERACTION_CREATE
to the first callback) p50/p95/p99/max, misses (no ack within 3 s), a move's board
lag (its ack to the board's post in the thread) p50/p99, and per bot process its
CPU (user+sys from /proc, as % of a core and ms per interaction; its pool workers
apart) and resident memory at the step's end, and this process's CPU (the load
generator and the loopback, which share one event loop: when it is near 100 % the
latencies include its delay).

    python -m benchmarks.load                                  # 200 guilds, 20 and 50/s, SQLite
    python -m benchmarks.load --rates 10,20,50,100 --seconds 60
    python -m benchmarks.load --database postgresql --processes 2
    python -m benchmarks.load --latency-ms 50                  # network on every REST call
    python -m benchmarks.load --profile                        # py-spy per step, if installed
    python -m benchmarks.load --json figures.json
    python -m benchmarks.load --database postgresql --processes 2 --cpu-quota 0.4 --rates 10,15,20
    python -m benchmarks.load --database postgresql --rate 50 --seconds 3600 --rss-every 60

The loopback checks each route's first 20 requests and then one in
``--spec-check-every`` (50) against Discord's spec, and reports what breaks it; the
tests check every request, which here would cost the generator, on the same cores as
the bot, a third of its CPU.

Processes that add up (``--cpu-quota Q``): on a machine with few cores, N processes
compete for the same cores with each other, the load generator and the database,
so their sum says little about what N machines would do. With ``--cpu-quota`` each
bot process (with its CPU workers) runs in a cgroup of its own limited to ``Q`` of
one core (Linux cgroup v1 ``cpu`` controller, ``cpu.cfs_quota_us``, or v2
``cpu.max``; root is needed). One process at quota Q sustains some rate R1 within
the ack budget, N processes each at Q sustain RN; RN / R1 is how far processes add
up when each has its share of CPU. Pick Q so that N × Q plus the generator and
the database fit the cores (0.4 for 2 processes on 2 cores). Where no cgroup can
be made the run stops and says so. The last line names the highest rate that met
the ack budget (p99 ≤ 100 ms, none past 3 s).

Memory over time (``--rss-every S``): each bot process's resident memory is printed
every S seconds while the steps run (and kept in ``--json``), so an hour's soak
shows its trend, not only its end.

PostgreSQL: a database ``bench_load`` is made (and dropped after) on the server of
``--postgres`` (default ``postgresql+asyncpg://postgres@127.0.0.1:5432/test``).
Profiles: ``--profile`` runs ``py-spy record`` on each bot process for each step
(``pip install py-spy``; it is not a project dependency); by hand,
``py-spy record --pid <bot pid> --duration 60 -o profile.svg`` while a step runs.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from benchmarks._core import percentile

DEFAULT_POSTGRES = "postgresql+asyncpg://postgres@127.0.0.1:5432/test"
BENCH_DATABASE = "bench_load"


@dataclass
class LoadConfig:
    guilds: int = 200
    members: tuple[int, int] = (4, 8)
    processes: int = 1
    shards: int | None = None  # default max(2, processes)
    database: str = "sqlite"
    postgres: str = DEFAULT_POSTGRES
    rates: list[float] = field(default_factory=lambda: [20.0, 50.0])
    seconds: float = 60.0
    warmup: float = 10.0
    latency_ms: float = 0.0
    spec_check_every: int = 50  # the loopback checks a route's first 20 requests, then 1 in N
    boggle_every: int = 4
    small_words: bool = False  # the tests' 15-word list instead of the bot's default
    profile: bool = False
    seed: int = 1
    keep_logs: str | None = None  # a folder the bot processes' logs are copied to
    cpu_quota: float | None = None  # of one core, per bot process (a cgroup each)
    rss_every: float = 0.0  # seconds between RSS samples printed during the steps (0: none)


@dataclass
class ProcessFigures:
    name: str
    cpu_pct: float  # of one core, the process itself (its event loop)
    cpu_ms_per_interaction: float
    loop_ms_per_interaction: float  # the main thread's alone: the event loop
    workers_cpu_pct: float
    rss_mib: float
    workers_rss_mib: float


@dataclass
class StepFigures:
    rate: float
    seconds: float
    sent: int
    dms: int
    undeliverable: int
    ack_p50: float
    ack_p95: float
    ack_p99: float
    ack_max: float
    misses: int
    board_n: int
    board_p50: float
    board_p99: float
    generator_cpu_pct: float
    processes: list[ProcessFigures]


@dataclass
class RssSample:
    seconds: float  # since the first measured step began
    rate: float
    rss_mib: dict[str, float]  # bot process name -> its own RSS
    workers_rss_mib: dict[str, float]


@dataclass
class LoadRun:
    config: LoadConfig
    ready_seconds: float
    start_rss_mib: list[float]
    steps: list[StepFigures]
    problems: list[str]
    driver_errors: list[str]
    profiles: list[str]
    rss_series: list[RssSample] = field(default_factory=list)
    throttled_seconds: dict[str, float] = field(default_factory=dict)  # with --cpu-quota


# The ack budget of issue #32 a rate is "sustained" within.
BUDGET_ACK_P99_MS = 100.0
ACK_MISSES_ALLOWED = 0


def within_budget(step: StepFigures) -> bool:
    return step.ack_p99 <= BUDGET_ACK_P99_MS and step.misses <= ACK_MISSES_ALLOWED


class CpuQuotaError(RuntimeError):
    """No cgroup could be made to hold a bot process to its CPU share."""


class CpuQuota:
    """A cgroup per bot process, limited to ``share`` of one core.

    cgroup v1 (``/sys/fs/cgroup/cpu``: ``cpu.cfs_quota_us`` over ``cpu.cfs_period_us``)
    or v2 (``/sys/fs/cgroup`` with the ``cpu`` controller: ``cpu.max``). A process and
    every process it starts later (its CPU workers) are in the group."""

    PERIOD_US = 100_000

    def __init__(self, share: float, *, root: Path | None = None) -> None:
        if not 0.01 <= share <= 64:
            raise CpuQuotaError(f"--cpu-quota {share}: give a share of one core, 0.01 to 64")
        self.share = share
        self.groups: list[Path] = []
        v1 = Path("/sys/fs/cgroup/cpu")
        v2 = Path("/sys/fs/cgroup")
        if root is not None:
            self.root, self.v2 = root, (root / "cgroup.controllers").exists()
        elif (v1 / "cpu.cfs_quota_us").exists():
            self.root, self.v2 = v1, False
        elif "cpu" in _read(v2 / "cgroup.controllers").split():
            self.root, self.v2 = v2, True
        else:
            raise CpuQuotaError(
                "--cpu-quota needs a cgroup cpu controller (v1 /sys/fs/cgroup/cpu or v2 "
                "/sys/fs/cgroup with 'cpu' in cgroup.controllers); none is mounted here"
            )

    def group(self, name: str) -> Path:
        """A new group limited to the share (its name made unique by this process's id)."""
        path = self.root / f"clubbot-bench-{os.getpid()}-{name}"
        quota = int(self.share * self.PERIOD_US)
        try:
            path.mkdir(exist_ok=True)
            if self.v2:
                (path / "cpu.max").write_text(f"{quota} {self.PERIOD_US}\n")
            else:
                (path / "cpu.cfs_period_us").write_text(f"{self.PERIOD_US}\n")
                (path / "cpu.cfs_quota_us").write_text(f"{quota}\n")
        except OSError as error:
            raise CpuQuotaError(
                f"--cpu-quota: cannot make the cgroup {path} ({error.strerror}); it needs "
                "root, and a cgroup filesystem mounted read-write"
            ) from error
        self.groups.append(path)
        return path

    def add(self, path: Path, pid: int) -> None:
        """Put ``pid`` (all its threads) and the processes it started into the group."""
        from tests.reliability.load import _descendants

        for each in [pid, *_descendants(pid)]:
            with contextlib.suppress(ProcessLookupError, OSError):
                (path / "cgroup.procs").write_text(f"{each}\n")

    def throttled_seconds(self, path: Path) -> float:
        """How long the group's processes waited for their share so far."""
        for line in _read(path / "cpu.stat").splitlines():
            key, _, value = line.partition(" ")
            if key == "throttled_time":  # v1, ns
                return int(value) / 1e9
            if key == "throttled_usec":  # v2
                return int(value) / 1e6
        return 0.0

    def remove(self) -> None:
        """Take the groups away (their processes have ended; any left go to the root)."""
        for path in self.groups:
            for pid in _read(path / "cgroup.procs").split():
                with contextlib.suppress(OSError):
                    (self.root / "cgroup.procs").write_text(f"{pid}\n")
            with contextlib.suppress(OSError):
                path.rmdir()
        self.groups.clear()


def _read(path: Path) -> str:
    try:
        return path.read_text()
    except OSError:
        return ""


async def _create_postgres(url: str) -> str:
    import asyncpg
    from sqlalchemy.engine import make_url

    admin = make_url(url)
    conn = await asyncpg.connect(
        host=admin.host, port=admin.port, user=admin.username, database=admin.database
    )
    try:
        await conn.execute(f"drop database if exists {BENCH_DATABASE} with (force)")
        await conn.execute(f"create database {BENCH_DATABASE}")
    finally:
        await conn.close()
    return admin.set(database=BENCH_DATABASE).render_as_string(hide_password=False)


async def _drop_postgres(url: str) -> None:
    import asyncpg
    from sqlalchemy.engine import make_url

    admin = make_url(url)
    conn = await asyncpg.connect(
        host=admin.host, port=admin.port, user=admin.username, database=admin.database
    )
    try:
        await conn.execute(f"drop database if exists {BENCH_DATABASE} with (force)")
    finally:
        await conn.close()


def _step_figures(driver: Any, step: Any, names: dict[int, str]) -> StepFigures:
    from tests.reliability.load import ACK_DEADLINE_S, ack_ms, interactions_in

    sent = interactions_in(driver.dc, step)
    acks = [a for ix in sent if (a := ack_ms(ix)) is not None]
    misses = sum(1 for ix in sent if (a := ack_ms(ix)) is None or a > ACK_DEADLINE_S * 1000)
    lags = [
        (m.board_at - m.ix.responded) * 1000.0
        for m in driver.moves
        if step.started <= m.ix.created < step.ended
        and m.board_at is not None
        and m.ix.responded is not None
    ]
    wall = step.ended - step.started
    events = max(1, len(sent) + step.dms)
    processes = []
    for pid, after in step.cpu_after.items():
        before = step.cpu_before.get(pid)
        if before is None:
            continue
        span = max(1e-9, after.at - before.at)
        cpu = after.cpu - before.cpu
        processes.append(
            ProcessFigures(
                name=names.get(pid, str(pid)),
                cpu_pct=100.0 * cpu / span,
                cpu_ms_per_interaction=1000.0 * cpu / events,
                loop_ms_per_interaction=1000.0 * (after.loop_cpu - before.loop_cpu) / events,
                workers_cpu_pct=100.0 * max(0.0, after.workers_cpu - before.workers_cpu) / span,
                rss_mib=after.rss_mib,
                workers_rss_mib=after.workers_rss_mib,
            )
        )
    nan = float("nan")
    return StepFigures(
        rate=step.rate,
        seconds=wall,
        sent=len(sent),
        dms=step.dms,
        undeliverable=step.undeliverable,
        ack_p50=percentile(acks, 50) if acks else nan,
        ack_p95=percentile(acks, 95) if acks else nan,
        ack_p99=percentile(acks, 99) if acks else nan,
        ack_max=max(acks) if acks else nan,
        misses=misses,
        board_n=len(lags),
        board_p50=statistics.median(lags) if lags else nan,
        board_p99=percentile(lags, 99) if lags else nan,
        generator_cpu_pct=100.0 * step.generator_cpu / max(1e-9, wall),
        processes=processes,
    )


def _keep_logs(source: Path, kept: Path) -> None:
    kept.mkdir(parents=True, exist_ok=True)
    for log in source.glob("*.log"):
        shutil.copy(log, kept / log.name)


FREEZE_EVERY = 5.0  # seconds


async def _keep_generator_unpaused() -> None:
    """Freeze this process's objects out of the cyclic collector every few seconds.

    The generator and the loopback keep a record of every interaction and share one
    event loop with the latencies they measure: their own full collections, rescanning
    those records, paused that loop for up to 400 ms (measured with gc.callbacks at
    50/s over three minutes), and each pause was counted as the bot's. Frozen objects
    are still freed when their last reference goes; a reference cycle among them stays
    (this process's memory grows a little over a long run; the bots' are untouched)."""
    while True:
        gc.freeze()
        await asyncio.sleep(FREEZE_EVERY)


def _profile(pid: int, seconds: float, out: Path) -> subprocess.Popen[bytes] | None:
    spy = shutil.which("py-spy")
    if spy is None:
        return None
    return subprocess.Popen(
        [spy, "record", "--pid", str(pid), "--duration", str(int(seconds)), "--nonblocking"]
        + ["--format", "speedscope", "-o", str(out)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


async def run_load(config: LoadConfig, *, progress: bool = True) -> LoadRun:
    """Build the world, start the bots, run each rate for its seconds, and measure."""
    import random

    from tests.reliability.harness import World, small_word_list
    from tests.reliability.load import LoadDriver, build_clubs, sample_process, shard_env

    def say(text: str) -> None:
        if progress:
            print(text, file=sys.stderr, flush=True)

    shards = config.shards or max(2, config.processes)
    quota = CpuQuota(config.cpu_quota) if config.cpu_quota else None  # fails fast
    throttled: dict[str, float] = {}
    rss_series: list[RssSample] = []
    with tempfile.TemporaryDirectory(prefix="bench-load-") as tmp_name:
        tmp = Path(tmp_name)
        if config.database == "sqlite":
            url = f"sqlite+aiosqlite:///{tmp / 'club.db'}"
        else:
            url = await _create_postgres(config.postgres)
        world = World(tmp, url)
        if config.small_words:
            world.lexicon = small_word_list(tmp)
        problems: list[str] = []
        figures: list[StepFigures] = []
        errors: list[str] = []
        profiles: list[str] = []
        ready, start_rss = 0.0, []
        try:
            await world.open(guild_shard=(0, shards))
            clubs = build_clubs(
                world, config.guilds, shards, random.Random(config.seed), config.members
            )
            world.dc.rest_latency_s = config.latency_ms / 1000.0
            world.dc.spec_check_every = config.spec_check_every
            bots = [
                world.bot(
                    f"bot{k}",
                    # Commands are global (one sync, not one per guild); logs and the
                    # scheduler's poll as a deployment has them.
                    DISCORD_GUILD_IDS="",
                    LOG_LEVEL="INFO",
                    SCHEDULER_POLL_SECONDS="1.0",
                    **shard_env(config.processes, shards, k),
                )
                for k in range(config.processes)
            ]
            loop = asyncio.get_running_loop()
            t0 = loop.time()
            say(f"starting {config.processes} bot process(es) for {config.guilds} guilds…")
            await asyncio.gather(*(b.start(plain=True, timeout=600) for b in bots))
            ready = loop.time() - t0
            pids = {b.proc.pid: b.name for b in bots}
            start_rss = [sample_process(pid).rss_mib for pid in pids]
            say(f"ready in {ready:.1f} s")
            groups: dict[str, Path] = {}
            if quota is not None:
                for pid, name in pids.items():
                    groups[name] = quota.group(name)
                    quota.add(groups[name], pid)
                say(f"each bot process held to {quota.share:g} of a core ({quota.root})")

            def samples() -> dict[int, Any]:
                return {pid: sample_process(pid) for pid in pids}

            driver = LoadDriver(world, clubs, shard_count=shards, seed=config.seed)
            await driver.open_boggle_rounds(config.boggle_every)
            if config.warmup > 0:
                say(f"warm-up: {config.warmup:.0f} s at {config.rates[0]:g}/s")
                await driver.run(config.rates[0], config.warmup, record=False)
            errors = driver.errors
            measuring = loop.time()
            current_rate = [config.rates[0]]

            async def watch_rss() -> None:
                while True:
                    await asyncio.sleep(config.rss_every)
                    found = {pid: sample_process(pid) for pid in pids}
                    sample = RssSample(
                        seconds=loop.time() - measuring,
                        rate=current_rate[0],
                        rss_mib={pids[p]: f.rss_mib for p, f in found.items()},
                        workers_rss_mib={pids[p]: f.workers_rss_mib for p, f in found.items()},
                    )
                    rss_series.append(sample)
                    say(
                        f"  {sample.seconds:6.0f} s at {sample.rate:g}/s: RSS "
                        + ", ".join(
                            f"{n} {r:.0f}+{sample.workers_rss_mib[n]:.0f} MiB"
                            for n, r in sample.rss_mib.items()
                        )
                    )

            watcher = asyncio.create_task(watch_rss()) if config.rss_every > 0 else None
            freezer = asyncio.create_task(_keep_generator_unpaused())
            for rate in config.rates:
                current_rate[0] = rate
                say(f"step: {config.seconds:.0f} s at {rate:g}/s")
                spies = []
                if config.profile:
                    for pid, name in pids.items():
                        out = Path.cwd() / f"profile-{name}-{rate:g}.speedscope.json"
                        spy = _profile(pid, config.seconds, out)
                        if spy is None:
                            say("py-spy is not installed (pip install py-spy): no profile")
                        else:
                            spies.append(spy)
                            profiles.append(str(out))
                await driver.run(rate, config.seconds, samples=samples)
                for spy in spies:
                    with contextlib.suppress(subprocess.TimeoutExpired):
                        await asyncio.to_thread(spy.wait, 30)
            freezer.cancel()
            if watcher is not None:
                watcher.cancel()
            if quota is not None:
                throttled = {n: quota.throttled_seconds(g) for n, g in groups.items()}
            say("draining…")
            await driver.drain(30)
            figures = [_step_figures(driver, step, pids) for step in driver.steps]
            for task in list(driver.tasks):
                task.cancel()
        finally:
            problems = await world.close()
            if config.keep_logs:
                await asyncio.to_thread(_keep_logs, tmp, Path(config.keep_logs))
            if config.database != "sqlite":
                await _drop_postgres(config.postgres)
            if quota is not None:
                quota.remove()
    return LoadRun(
        config, ready, start_rss, figures, problems, errors, profiles, rss_series, throttled
    )


def _fmt(value: float) -> str:
    if value != value:  # NaN: nothing measured
        return "-"
    return f"{value:,.0f}" if abs(value) >= 100 else f"{value:.3g}"


def table(run: LoadRun) -> str:
    """The figures in the benchmarks' plain-table style."""
    c = run.config
    head = (
        f"{c.guilds} guilds, {c.processes} process(es), {c.shards or max(2, c.processes)} shards, "
        f"{c.database}, {c.latency_ms:g} ms network; ready in {run.ready_seconds:.1f} s; "
        f"RSS at start {', '.join(f'{r:.0f}' for r in run.start_rss_mib)} MiB"
        + (f"; each process held to {c.cpu_quota:g} of a core" if c.cpu_quota else "")
    )
    header = (
        f"{'rate/s':>7} {'sent':>6} {'dms':>5} {'ack p50':>8} {'p95':>7} {'p99':>7} {'max':>7} "
        f"{'miss':>5} {'board p50':>10} {'p99':>7} {'gen cpu%':>9}  process: cpu% ms/ix "
        "(loop) workers% RSS MiB"
    )
    lines = [head, header, "-" * len(header)]
    for s in run.steps:
        procs = "; ".join(
            f"{p.name}: {_fmt(p.cpu_pct)} {p.cpu_ms_per_interaction:.1f} "
            f"({p.loop_ms_per_interaction:.1f}) "
            f"{_fmt(p.workers_cpu_pct)} {p.rss_mib:.0f}"
            + (f"+{p.workers_rss_mib:.0f}" if p.workers_rss_mib else "")
            for p in s.processes
        )
        lines.append(
            f"{s.rate:>7g} {s.sent:>6} {s.dms:>5} {_fmt(s.ack_p50):>8} {_fmt(s.ack_p95):>7} "
            f"{_fmt(s.ack_p99):>7} {_fmt(s.ack_max):>7} {s.misses:>5} {_fmt(s.board_p50):>10} "
            f"{_fmt(s.board_p99):>7} {_fmt(s.generator_cpu_pct):>9}  {procs}"
        )
    lines.append(
        "(latencies in ms; cpu% of one core; ms/ix: the process's CPU per interaction, "
        "(loop): its event loop's thread alone)"
    )
    met = [s.rate for s in run.steps if within_budget(s)]
    lines.append(
        f"highest rate within the ack budget (p99 ≤ {BUDGET_ACK_P99_MS:.0f} ms, none past 3 s): "
        + (f"{max(met):g}/s" if met else "none of these")
    )
    if run.throttled_seconds:
        lines.append(
            "waited for their CPU share (cgroup throttling) over the steps: "
            + ", ".join(f"{n} {t:.1f} s" for n, t in run.throttled_seconds.items())
        )
    if run.rss_series:
        first, last = run.rss_series[0], run.rss_series[-1]
        lines.append(
            "RSS over the steps: "
            + ", ".join(
                f"{n} {first.rss_mib[n]:.0f} MiB at {first.seconds:.0f} s → "
                f"{last.rss_mib.get(n, float('nan')):.0f} MiB at {last.seconds:.0f} s"
                for n in first.rss_mib
            )
        )
    if run.problems:
        lines.append(f"{len(run.problems)} problem(s) the harness saw, first: {run.problems[:3]}")
    if run.driver_errors:
        lines.append(
            f"load driver errors: {len(run.driver_errors)}, first: {run.driver_errors[:3]}"
        )
    for path in run.profiles:
        lines.append(f"profile: {path}")
    return "\n".join(lines)


def _parse(argv: list[str] | None) -> tuple[LoadConfig, str | None]:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.load", description=__doc__)
    parser.add_argument("--guilds", type=int, default=200)
    parser.add_argument("--members", default="4,8", help="members per guild: MIN,MAX")
    parser.add_argument("--processes", type=int, default=1)
    parser.add_argument("--shards", type=int, default=None, help="default max(2, processes)")
    parser.add_argument("--database", choices=["sqlite", "postgresql"], default="sqlite")
    parser.add_argument("--postgres", default=DEFAULT_POSTGRES, help="a server to make it on")
    parser.add_argument("--rate", type=float, default=None, help="one rate (interactions/s)")
    parser.add_argument("--rates", default="20,50", help="rates to step through")
    parser.add_argument(
        "--seconds", "--duration", type=float, default=60.0, help="per step (a soak: 3600)"
    )
    parser.add_argument("--warmup", type=float, default=10.0, help="unmeasured, at the first rate")
    parser.add_argument("--latency-ms", type=float, default=0.0, help="per REST call")
    parser.add_argument(
        "--spec-check-every",
        type=int,
        default=50,
        metavar="N",
        help="the loopback checks each route's first 20 requests against Discord's spec, "
        "then one in N (1: all, as the tests do; checking all costs the generator a third "
        "of its CPU)",
    )
    parser.add_argument("--boggle-every", type=int, default=4, help="a round in every n-th guild")
    parser.add_argument("--small-words", action="store_true", help="a 15-word list: starts fast")
    parser.add_argument("--profile", action="store_true", help="py-spy record each step")
    parser.add_argument("--keep-logs", metavar="DIR", help="copy the bot processes' logs here")
    parser.add_argument(
        "--cpu-quota",
        type=float,
        default=None,
        metavar="Q",
        help="hold each bot process (with its CPU workers) to Q of one core with a cgroup "
        "(root; cgroup v1 cpu or v2 cpu.max), to see whether processes add up",
    )
    parser.add_argument(
        "--rss-every",
        type=float,
        default=0.0,
        metavar="S",
        help="print each bot process's RSS every S seconds of the steps",
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", default=None, help="also write the figures here")
    args = parser.parse_args(argv)
    low, high = (int(v) for v in args.members.split(","))
    rates = [args.rate] if args.rate is not None else [float(r) for r in args.rates.split(",")]
    config = LoadConfig(
        guilds=args.guilds,
        members=(low, high),
        processes=args.processes,
        shards=args.shards,
        database=args.database,
        postgres=args.postgres,
        rates=rates,
        seconds=args.seconds,
        warmup=args.warmup,
        latency_ms=args.latency_ms,
        spec_check_every=args.spec_check_every,
        boggle_every=args.boggle_every,
        small_words=args.small_words,
        profile=args.profile,
        keep_logs=args.keep_logs,
        seed=args.seed,
        cpu_quota=args.cpu_quota,
        rss_every=args.rss_every,
    )
    return config, args.json


def main(argv: list[str] | None = None) -> int:
    config, json_path = _parse(argv)
    try:
        run = asyncio.run(run_load(config))
    except CpuQuotaError as error:
        print(f"python -m benchmarks.load: {error}", file=sys.stderr)
        return 2
    print(table(run))
    if json_path:
        Path(json_path).write_text(json.dumps(asdict(run), indent=2), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
