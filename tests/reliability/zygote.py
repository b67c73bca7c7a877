"""A fork server for bot processes: the imports are paid once, not at every restart.

``python -m tests.reliability.zygote`` imports what ``python -m bot`` imports
(discord.py, SQLAlchemy, Alembic, Pillow, the services and engines), then
forks a fresh process for every bot start. Each child is a separate process
running ``tests.reliability.botproc.main`` — the same code path as
``python -m bot`` — with its own environment, working directory and log file;
the tests kill it with SIGKILL like any other process. It saves about three
seconds per restart, which is what lets the crash tests afford many kill
points. Tests that want the real command line use ``plain=True``.

Protocol (one JSON object per line on stdin, one answer per line on stdout):
``{"spawn": {"argv": [...], "env": {...}, "cwd": ..., "log": ...}}`` → ``{"pid": n}``;
``{"status": pid}`` → ``{"returncode": n | null}`` (negative: killed by that signal).
The server is single-threaded, so forking never copies a lock held by another thread.
"""

from __future__ import annotations

import json
import os
import signal
import sys
from typing import Any


def _preload() -> None:
    import sqlalchemy.dialects.postgresql.asyncpg
    import sqlalchemy.dialects.sqlite.aiosqlite  # noqa: F401

    import bot.__main__
    import bot.client
    import bot.db.migrate  # noqa: F401
    import tests.reliability.botproc  # noqa: F401
    from bot.client import cog_modules

    for name in cog_modules():
        __import__(name)


def _child(spec: dict[str, Any]) -> None:
    """In the forked child: become the bot process; never returns."""
    code = 70
    try:
        os.setsid()
        os.chdir(spec["cwd"])
        log = os.open(spec["log"], os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
        null = os.open(os.devnull, os.O_RDONLY)
        os.dup2(null, 0)
        os.dup2(log, 1)
        os.dup2(log, 2)
        os.close(log)
        os.close(null)
        # The child's own standard streams, open until it exits (os._exit below).
        sys.stdin = open(0, closefd=False)  # noqa: SIM115
        sys.stdout = open(1, "w", buffering=1, closefd=False)  # noqa: SIM115
        sys.stderr = open(2, "w", buffering=1, closefd=False)  # noqa: SIM115
        for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGCHLD):
            signal.signal(sig, signal.SIG_DFL)
        os.environ.clear()
        os.environ.update(spec["env"])
        sys.argv = ["botproc", *spec["argv"]]
        # Modules imported in the zygote were cogs' dependencies; the cogs
        # themselves are executed afresh by load_extension, as in a new process.
        from tests.reliability.botproc import main

        code = main()
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else 1
    except BaseException:
        import traceback

        traceback.print_exc()
        code = 1
    finally:
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        finally:
            os._exit(code or 0)


def serve() -> None:
    _preload()
    children: dict[int, int | None] = {}

    def reap() -> None:
        for pid, status in list(children.items()):
            if status is not None:
                continue
            try:
                done, raw = os.waitpid(pid, os.WNOHANG)
            except ChildProcessError:
                children[pid] = -1
                continue
            if done:
                children[pid] = os.waitstatus_to_exitcode(raw)

    out = sys.stdout
    out.write(json.dumps({"ready": os.getpid()}) + "\n")
    out.flush()
    try:
        for line in sys.stdin:
            request = json.loads(line)
            if "spawn" in request:
                out.flush()
                pid = os.fork()
                if pid == 0:
                    _child(request["spawn"])
                children[pid] = None
                answer: dict[str, Any] = {"pid": pid}
            else:
                reap()
                answer = {"returncode": children.get(int(request["status"]))}
            out.write(json.dumps(answer) + "\n")
            out.flush()
    finally:
        # The test run is over (or gone): take every bot down with it.
        for pid, status in children.items():
            if status is None:
                try:
                    os.kill(pid, signal.SIGKILL)
                    os.waitpid(pid, 0)
                except (ProcessLookupError, ChildProcessError):
                    pass


if __name__ == "__main__":
    serve()
