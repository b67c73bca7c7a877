"""``/metrics`` in Prometheus' text format: commands and their latency (observed
where the command tree runs each command, ``bot.client.ClubTree``), and gauges
read from the database at each scrape (games running, jobs due, outbox backlog),
the CPU workers' memory and the caches' hits.

Each bot has its own registry, so several bots in one process (the tests) do not
share counters."""

from __future__ import annotations

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client.exposition import CONTENT_TYPE_LATEST

from bot import offload
from bot.caches import IMAGES, SUGGESTIONS
from bot.services import ServiceContext

CONTENT_TYPE = CONTENT_TYPE_LATEST
GAME_KINDS = ("scrabble", "chess")
LATENCY_BUCKETS = (0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)


class Metrics:
    def __init__(self) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        self.commands = Counter(
            "clubbot_commands",
            "Slash commands run, by command and outcome (ok or error)",
            ["command", "outcome"],
            registry=self.registry,
        )
        self.latency = Histogram(
            "clubbot_command_seconds",
            "Time from a slash command reaching the bot to its handler finishing",
            ["command"],
            buckets=LATENCY_BUCKETS,
            registry=self.registry,
        )
        self.games_running = Gauge(
            "clubbot_games_running",
            "Games in progress, by game",
            ["game"],
            registry=self.registry,
        )
        self.jobs_due = Gauge(
            "clubbot_jobs_due", "Timers due now and not yet run", registry=self.registry
        )
        self.outbox_backlog = Gauge(
            "clubbot_outbox_backlog",
            "Announcements written but not yet sent to Discord",
            registry=self.registry,
        )
        self.cpu_workers_rss = Gauge(
            "clubbot_cpu_workers_rss_bytes",
            "Resident memory of the CPU pool's worker processes, together (bot.offload)",
            registry=self.registry,
        )
        self.cache_lookups = Gauge(
            "clubbot_cache_lookups",
            "Lookups in the bot's caches since start, by cache and result (hit or miss)",
            ["cache", "result"],
            registry=self.registry,
        )
        self.cache_bytes = Gauge(
            "clubbot_cache_bytes",
            "What each cache holds, in bytes",
            ["cache"],
            registry=self.registry,
        )
        self.web_requests = Counter(
            "clubbot_web_requests",
            "Web page requests, by route and status code",
            ["route", "status"],
            registry=self.registry,
        )

    def observe_command(self, command: str, seconds: float, *, ok: bool) -> None:
        self.commands.labels(command=command, outcome="ok" if ok else "error").inc()
        self.latency.labels(command=command).observe(seconds)

    async def refresh(self, ctx: ServiceContext) -> None:
        """Read the gauges' values from the database (called at each scrape)."""
        async with ctx.reader() as uow:
            running = await uow.web.games_running()
            due = await uow.web.jobs_due(ctx.clock())
            backlog = await uow.web.outbox_backlog()
        for kind in sorted({*GAME_KINDS, *running}):
            self.games_running.labels(game=kind).set(running.get(kind, 0))
        self.jobs_due.set(due)
        self.outbox_backlog.set(backlog)
        self.cpu_workers_rss.set(sum(offload.current().worker_rss().values()))
        for cache in (IMAGES, SUGGESTIONS):
            self.cache_lookups.labels(cache=cache.name, result="hit").set(cache.hits)
            self.cache_lookups.labels(cache=cache.name, result="miss").set(cache.misses)
            self.cache_bytes.labels(cache=cache.name).set(cache.bytes)

    def render(self) -> bytes:
        return generate_latest(self.registry)
