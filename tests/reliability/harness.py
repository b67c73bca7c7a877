"""A loopback Discord world driving the bot as a real subprocess, and direct database reads.

The loopback server runs in the test process; the bot runs as
``tests.reliability.botproc`` (``python -m bot`` plus the crash points described
there, forked from the ``zygote`` so a restart skips the imports) or as plain
``python -m bot``, with the environment a real
deployment would have: ``DISCORD_API_BASE``/``DISCORD_GATEWAY_URL``/``DISCORD_TOKEN``
from the loopback, ``DATABASE_URL`` and ``DISCORD_GUILD_IDS``.

Tests assert through the database (read directly, never through the bot) and
through what the loopback saw posted. ``World.close`` fails the test when the
bot broke one of Discord's rules, when an interaction timed out that was not in
flight at a kill, or when a bot process logged an unexpected error.
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import json
import os
import re
import secrets
import signal
import sqlite3
import subprocess
import sys
import threading
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sqlalchemy import text
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

from tests.clock import ZERO, FakeClock
from tests.loopback import LoopbackDiscord
from tests.reliability import logscan
from tests.reliability.botproc import CRASH_MARK

REPO = Path(__file__).resolve().parents[2]
READY_LINE = re.compile(r"clubbot: ready as ")
START_TIMEOUT = 90.0
_INHERITED_OUT = (
    "DISCORD_",
    "DATABASE_URL",
    "LEXICON",
    "SHARD_",
    "LOG_LEVEL",
    "RELIABILITY_",
    "SCHEDULER_",
)


WORDS = [
    "toucanet",
    "toucan",
    "convey",
    "canoe",
    "civet",
    "covet",
    "envoy",
    "naive",
    "ovine",
    "tonic",
    "acne",
    "cane",
    "cain",
    "coven",
    "covey",
]


def small_word_list(tmp_path: Path) -> Path:
    """A word list that loads at once (the bot's word games need one)."""
    path = tmp_path / "words.txt"
    path.write_text("\n".join(WORDS) + "\n", encoding="utf-8")
    return path


def postgres_url() -> str | None:
    """PostgreSQL for the tests that need it (``TEST_DATABASE_URL``), if configured."""
    return os.environ.get("TEST_DATABASE_URL")


def crash_point(at: str, table: str | None = None, nth: int = 1) -> dict[str, Any]:
    """A kill point for ``botproc`` (see its docstring)."""
    point: dict[str, Any] = {"at": at, "nth": nth}
    if table is not None:
        point["table"] = table
    return point


class Database:
    """Reads the bot's database directly: sqlite3 on a file, SQLAlchemy on PostgreSQL.

    SQLite is read with plain ``sqlite3`` (deferred, read-only transactions) so a
    test never takes the write lock the bot needs.
    """

    def __init__(self, url: str) -> None:
        self.url = url
        parsed = make_url(url)
        self.is_sqlite = parsed.get_backend_name() == "sqlite"
        self.sqlite_path = Path(parsed.database) if self.is_sqlite and parsed.database else None
        self._engine: AsyncEngine | None = None

    def _sqlite(self) -> sqlite3.Connection:
        assert self.sqlite_path is not None
        db = sqlite3.connect(f"file:{self.sqlite_path}?mode=ro", uri=True, timeout=10)
        return db

    async def rows(self, sql: str, **params: Any) -> list[tuple[Any, ...]]:
        if self.is_sqlite:
            if self.sqlite_path is None or not self.sqlite_path.exists():
                return []
            with contextlib.closing(self._sqlite()) as db:
                try:
                    return [tuple(r) for r in db.execute(sql, params).fetchall()]
                except sqlite3.OperationalError as exc:
                    if "no such table" in str(exc):
                        return []
                    raise
        async with self._pg().connect() as conn:
            return [tuple(r) for r in (await conn.execute(text(sql), params)).all()]

    def _pg(self) -> AsyncEngine:
        if self._engine is None:
            # Kept open and reused: under the load benchmark's reads, a small pool's
            # overflow opened and closed a server connection per read (a PostgreSQL
            # backend started each time, CPU the bots were measured against).
            self._engine = create_async_engine(self.url, pool_size=12, max_overflow=4)
        return self._engine

    async def value(self, sql: str, **params: Any) -> Any:
        found = await self.rows(sql, **params)
        return found[0][0] if found else None

    async def execute(self, sql: str, **params: Any) -> None:
        """A write by the test itself (e.g. jobs inserted directly)."""
        if self.is_sqlite:
            assert self.sqlite_path is not None
            with contextlib.closing(sqlite3.connect(self.sqlite_path, timeout=10)) as db:
                db.execute(sql, params)
                db.commit()
            return
        async with self._pg().begin() as conn:
            await conn.execute(text(sql), params)

    def logical_dump(self) -> str:
        """Every committed row as SQL text (SQLite): what "unchanged" is compared on.

        The file's bytes are not stable in WAL mode (a reader can checkpoint the
        log into the main file, and page layout may change without any row
        changing), so the comparison is on content, which is what a member
        could notice.
        """
        assert self.sqlite_path is not None
        with contextlib.closing(sqlite3.connect(self.sqlite_path, timeout=10)) as db:
            return "\n".join(db.iterdump())

    async def snapshot(self) -> str:
        """The database's whole content as text, on either backend (see ``logical_dump``)."""
        if self.is_sqlite:
            return self.logical_dump()
        from bot.db.registry import Base

        parts = []
        async with self._pg().connect() as conn:
            for name in sorted(Base.metadata.tables):
                rows = (await conn.execute(text(f'select * from "{name}"'))).all()
                parts.append(f"{name}: {sorted(repr(tuple(r)) for r in rows)}")
        return "\n".join(parts)

    async def close(self) -> None:
        if self._engine is not None:
            await self._engine.dispose()
            self._engine = None


class Zygote:
    """Client of the fork server (``tests.reliability.zygote``), one per test session.

    Requests are blocking line exchanges under a lock (callers use
    ``asyncio.to_thread``), so it serves every test's event loop alike.
    """

    _shared: Zygote | None = None

    def __init__(self) -> None:
        env = {**os.environ, "PYTHONPATH": str(REPO), "PYTHONDONTWRITEBYTECODE": "1"}
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "tests.reliability.zygote"],
            cwd=str(REPO),
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            bufsize=1,
        )
        self._lock = threading.Lock()
        hello = self._read()
        assert "ready" in hello, hello

    @classmethod
    def shared(cls) -> Zygote:
        if cls._shared is None or cls._shared.proc.poll() is not None:
            cls._shared = cls()
            atexit.register(cls._shared.close)
        return cls._shared

    def _read(self) -> dict[str, Any]:
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError(f"the bot fork server died (exit {self.proc.poll()})")
        return json.loads(line)

    def request(self, message: dict[str, Any]) -> dict[str, Any]:
        with self._lock:
            assert self.proc.stdin is not None
            self.proc.stdin.write(json.dumps(message) + "\n")
            self.proc.stdin.flush()
            return self._read()

    def close(self) -> None:
        if self.proc.poll() is None:
            assert self.proc.stdin is not None
            with contextlib.suppress(OSError):
                self.proc.stdin.close()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()


class ForkedProcess:
    """A bot forked by the zygote, with the parts of asyncio's Process the tests use."""

    def __init__(self, zygote: Zygote, pid: int) -> None:
        self.zygote = zygote
        self.pid = pid
        self.returncode: int | None = None

    def send_signal(self, sig: int) -> None:
        with contextlib.suppress(ProcessLookupError):
            os.kill(self.pid, sig)

    def kill(self) -> None:
        self.send_signal(signal.SIGKILL)

    async def poll(self) -> int | None:
        if self.returncode is None:
            answer = await asyncio.to_thread(self.zygote.request, {"status": self.pid})
            self.returncode = answer["returncode"]
        return self.returncode

    async def wait(self) -> int:
        # The fork server answers status requests only: there is no event to wait on.
        while await self.poll() is None:  # noqa: ASYNC110
            await asyncio.sleep(0.02)
        assert self.returncode is not None
        return self.returncode


@dataclass
class BotProcess:
    """One bot deployment: started, killed and restarted as many times as a test likes."""

    world: World
    name: str
    env: dict[str, str]
    proc: Any = None  # asyncio.subprocess.Process or ForkedProcess
    log_path: Path | None = None
    starts: int = 0
    logs: list[Path] = field(default_factory=list)
    allowed_errors: tuple[str, ...] = ()

    @property
    def running(self) -> bool:
        return self.proc is not None and self.proc.returncode is None

    def child_env(self, crash: list[dict[str, Any]] | None) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if not k.startswith(_INHERITED_OUT)}
        env.update(self.world.dc.env())
        env.update(
            DATABASE_URL=self.world.database_url,
            DISCORD_GUILD_IDS=",".join(str(g.id) for g in self.world.guilds),
            SCHEDULER_POLL_SECONDS="0.05",
            LOG_LEVEL="DEBUG",
            PYTHONPATH=str(REPO),
            PYTHONUNBUFFERED="1",
            PYTHONDONTWRITEBYTECODE="1",
        )
        if self.world.lexicon is not None:
            env["LEXICON"] = str(self.world.lexicon)
        env.update(self.env)
        if crash:
            env["RELIABILITY_CRASH"] = json.dumps(crash)
        # The bot's clock is the world's: the machine's time plus the world clock's offset.
        offset = self.world.clock.offset.total_seconds()
        if offset:
            env["RELIABILITY_CLOCK_OFFSET"] = repr(offset)
        return env

    async def start(
        self,
        *,
        crash: list[dict[str, Any]] | None = None,
        plain: bool = False,
        wait_ready: bool = True,
        timeout: float = START_TIMEOUT,
    ) -> None:
        """Start the bot on the world's clock; ``plain`` runs ``python -m bot`` itself (no hooks
        at all, so only while the world's clock is the machine's)."""
        assert not self.running, f"{self.name} is already running"
        assert not (plain and (crash or self.world.clock.offset)), (
            "crash points and clock offsets need botproc"
        )
        self.starts += 1
        self.log_path = self.world.tmp_path / f"bot-{self.name}-{self.starts}.log"
        self.logs.append(self.log_path)
        env_file = self.world.tmp_path / "no-such.env"  # the bot must not read the developer's .env
        argv = ["--env-file", str(env_file)]
        env = self.child_env(crash)
        if plain:
            with await asyncio.to_thread(open, self.log_path, "wb") as log:
                self.proc = await asyncio.create_subprocess_exec(
                    sys.executable,
                    "-m",
                    "bot",
                    *argv,
                    cwd=str(self.world.tmp_path),
                    env=env,
                    stdin=asyncio.subprocess.DEVNULL,
                    stdout=log,
                    stderr=asyncio.subprocess.STDOUT,
                )
        else:
            zygote = await asyncio.to_thread(Zygote.shared)
            spec = {
                "argv": argv,
                "env": env,
                "cwd": str(self.world.tmp_path),
                "log": str(self.log_path),
            }
            answer = await asyncio.to_thread(zygote.request, {"spawn": spec})
            self.proc = ForkedProcess(zygote, int(answer["pid"]))
        if wait_ready:
            await self.wait_ready(timeout)

    def log_text(self, which: Path | None = None) -> str:
        path = which or self.log_path
        if path is None or not path.exists():
            return ""
        return path.read_text(encoding="utf-8", errors="replace")

    async def wait_ready(self, timeout: float = START_TIMEOUT) -> None:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while not READY_LINE.search(self.log_text()):
            assert self.proc is not None
            if isinstance(self.proc, ForkedProcess):
                await self.proc.poll()
            if self.proc.returncode is not None:
                raise AssertionError(
                    f"{self.name} exited with {self.proc.returncode} before it was ready:\n{self.tail()}"
                )
            if loop.time() > deadline:
                raise AssertionError(
                    f"{self.name} was not ready within {timeout:.0f} s:\n{self.tail()}"
                )
            await asyncio.sleep(0.05)

    def tail(self, lines: int = 40) -> str:
        return "\n".join(self.log_text().splitlines()[-lines:])

    async def wait_crashed(self, timeout: float = 30.0) -> dict[str, Any]:
        """Wait for the armed crash point to kill the process; return the point it reached."""
        assert self.proc is not None
        try:
            await asyncio.wait_for(self.proc.wait(), timeout)
        except TimeoutError:
            raise AssertionError(
                f"{self.name} did not reach its crash point within {timeout:.0f} s:\n{self.tail()}"
            ) from None
        marks = [line for line in self.log_text().splitlines() if line.startswith(CRASH_MARK)]
        assert self.proc.returncode == -signal.SIGKILL and marks, (
            f"{self.name} exited with {self.proc.returncode}, not at its crash point:\n{self.tail()}"
        )
        await self._after_exit()
        self.world.kill_points.append(f"{self.name}: {marks[-1].removeprefix(CRASH_MARK).strip()}")
        return json.loads(marks[-1].removeprefix(CRASH_MARK))

    async def kill(self, reason: str = "kill -9") -> None:
        """SIGKILL from outside, wherever the bot is."""
        assert self.proc is not None and self.proc.returncode is None, f"{self.name} is not running"
        self.proc.send_signal(signal.SIGKILL)
        await self.proc.wait()
        await self._after_exit()
        self.world.kill_points.append(f"{self.name}: {reason}")

    async def stop(self, timeout: float = 20.0) -> int | None:
        """SIGTERM, as a deploy would; SIGKILL if it does not stop in time."""
        if self.proc is None or self.proc.returncode is not None:
            return None if self.proc is None else self.proc.returncode
        self.proc.send_signal(signal.SIGTERM)
        try:
            await asyncio.wait_for(self.proc.wait(), timeout)
        except TimeoutError:
            self.proc.kill()
            await self.proc.wait()
        await self._after_exit()
        return self.proc.returncode

    async def _after_exit(self) -> None:
        self.world.note_dead_bot()
        await self.world.forget_dead_sessions()
        # Each start logs to its own file: scan the one this process wrote.
        logscan.scan_external(self.log_text(), where=str(self.log_path))

    def unexpected_errors(self) -> list[str]:
        """ERROR lines and tracebacks in this bot's logs that no test allowed."""
        found = []
        for path in self.logs:
            for line in self.log_text(path).splitlines():
                if (" ERROR " in line or line.startswith("Traceback")) and not any(
                    a in line for a in self.allowed_errors
                ):
                    found.append(f"{path.name}: {line}")
        return found


class World:
    """A guild with a games channel, a moderator and members, the loopback, the database.

    Its ``clock`` is a running ``FakeClock`` (tests/clock.py): the loopback stamps
    messages with it, and every bot process starts on it (the machine's time plus
    the clock's offset). ``time_passes`` moves it forward while the bots are down,
    so a restart comes "later" on both sides.
    """

    def __init__(
        self,
        tmp_path: Path,
        database_url: str,
        *,
        token: str | None = None,
        clock: FakeClock | None = None,
    ) -> None:
        self.clock = clock or FakeClock(running=True)
        assert self.clock.running, "bots run as processes read the machine's clock: a running one"
        self.tmp_path = tmp_path
        self.database_url = database_url
        self.db = Database(database_url)
        # A distinctive token, so the log scan can tell it apart from any other text.
        self.token = token or f"rel-{secrets.token_hex(8)}.{secrets.token_urlsafe(24)}"
        logscan.register_secret(self.token)
        self.dc = LoopbackDiscord(token=self.token, clock=self.clock)
        self.guilds: list[Any] = []
        self.bots: list[BotProcess] = []
        self.kill_points: list[str] = []
        self.lexicon: Path | None = None
        self._timeouts_allowed: set[int] = set()
        self.members: dict[str, Any] = {}

    async def open(self, *, guild_shard: tuple[int, int] | None = None) -> World:
        await self.dc.start()
        self.moderator = self.dc.add_user("host")
        for name in ("alice", "bob", "carol", "dave", "erin", "frank"):
            self.members[name] = self.dc.add_user(name)
        self.guild, self.channel, self.mod_role = self.add_guild(
            "Library Games Club", shard=guild_shard
        )
        return self

    def add_guild(
        self,
        name: str,
        *,
        shard: tuple[int, int] | None = None,
        members: Iterable[Any] | None = None,
    ) -> tuple[Any, Any, Any]:
        """A guild with a games channel, the moderator (by role and admin) and every member
        (or the ``members`` given: users of its own, as the load driver's guilds have)."""
        dc = self.dc
        guild = dc.add_guild(name, shard=shard)
        self.guilds.append(guild)
        channel = dc.add_text_channel(guild, "games")
        mod_role = dc.add_role(guild, "Game Host")
        dc.add_member(guild, self.moderator, roles=[mod_role], admin=True)
        for user in self.members.values() if members is None else members:
            dc.add_member(guild, user)
        return guild, channel, mod_role

    def __getitem__(self, name: str) -> Any:
        return self.members[name]

    def time_passes(self, **delta: float) -> None:
        """Move the world's clock forward by ``timedelta(**delta)`` while no bot runs: the
        next start is that much later for the bot and for the loopback alike."""
        running = [b.name for b in self.bots if b.running]
        assert not running, f"a running bot would not see the time move: {running}"
        self.clock.advance(**delta)

    def back_to_machine_time(self) -> None:
        """Set the world's clock back to the machine's (offset none) while no bot runs: for
        ``plain`` starts, as ``python -m bot`` itself knows no offset. Timers set on the
        later clock are then that much further away."""
        running = [b.name for b in self.bots if b.running]
        assert not running, f"a running bot would not see the time move: {running}"
        self.clock.offset = ZERO

    def bot(self, name: str = "bot", **env: str) -> BotProcess:
        process = BotProcess(self, name, dict(env))
        self.bots.append(process)
        return process

    # -- around kills ------------------------------------------------------------------------

    def note_dead_bot(self) -> None:
        """Interactions still unanswered when a bot died may time out: that is the crash, not a bug."""
        for ix in self.dc.interactions.values():
            if ix.response is None:
                self._timeouts_allowed.add(ix.id)

    async def forget_dead_sessions(self) -> None:
        """Discord drops a dead client's session after a while; the loopback is told at once.

        Only for worlds with one bot process: with several, a killed one's
        session cannot be told apart from a live one's reconnecting.
        """
        if sum(b.running for b in self.bots) > 0:
            return
        await self.dc.wait_until(
            lambda: all(s.connection is None for s in self.dc.gateway.live_sessions()),
            10,
            "the dead bot's socket to close",
        )
        for session in self.dc.gateway.live_sessions():
            session.valid = False

    # -- reading what happened -------------------------------------------------------------------

    def bot_posts(self, where: Any, needle: str | re.Pattern[str]) -> list[Any]:
        """Bot messages in a channel, thread or DM whose text matches."""
        found = []
        for message in self.dc.messages_in(where):
            if message.author.id != self.dc.bot_user.id:
                continue
            content = message.content or ""
            if needle.search(content) if isinstance(needle, re.Pattern) else needle in content:
                found.append(message)
        return found

    async def wait_post(
        self, where: Any, needle: str | re.Pattern[str], timeout: float = 15.0
    ) -> Any:
        found = await self.dc.wait_until(
            lambda: self.bot_posts(where, needle), timeout, f"a bot post matching {needle!r}"
        )
        return found[-1]

    async def wait_value(
        self, sql: str, expected: Any, timeout: float = 15.0, **params: Any
    ) -> None:
        """Poll the database until a query gives ``expected``."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while (value := await self.db.value(sql, **params)) != expected:
            if loop.time() > deadline:
                raise AssertionError(
                    f"{sql!r} gave {value!r}, not {expected!r}, for {timeout:.0f} s"
                )
            await asyncio.sleep(0.05)

    async def settle(self, seconds: float = 0.6) -> None:
        """Give a running bot time to do anything it would still do (a repeat would show)."""
        await asyncio.sleep(seconds)

    # -- teardown --------------------------------------------------------------------------------

    def problems(self) -> list[str]:
        found = []
        for violation in self.dc.unexpected_violations():
            if violation.kind != "interaction_timeout":
                found.append(f"loopback violation: {violation}")
        for ix in self.dc.interactions.values():
            if ix.timed_out and ix.id not in self._timeouts_allowed:
                found.append(
                    f"{self.dc.describe(ix)} timed out though no bot was killed while it waited"
                )
        for process in self.bots:
            found.extend(process.unexpected_errors())
        for message in self.dc.bot_messages():
            if self.token in (message.content or "") or self.token in str(message.embeds):
                found.append(f"the bot token was posted in message {message.id}")
            mass = [p for p in message.pings if p == "everyone" or p.startswith("role:")]
            if mass:
                found.append(
                    f"message {message.id} pings {mass}: {(message.content or '')[:100]!r}"
                )
        return found

    async def close(self) -> list[str]:
        for process in self.bots:
            await process.stop()
        problems = self.problems()
        await self.dc.close()
        await self.db.close()
        return problems


def assert_once(items: Iterable[Any], what: str) -> Any:
    found = list(items)
    assert len(found) == 1, f"expected exactly one {what}, found {len(found)}: {found!r}"
    return found[0]
