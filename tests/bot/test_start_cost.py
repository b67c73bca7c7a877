"""What the bot imports to start: a feature's heavy packages load when the feature
is used, not at start (benchmarks/bench_bot.py measures the time and memory).

Each test starts a fresh interpreter, as a deployment does, so the modules other
tests imported into this process do not count. No wall clock is read: the
guard is which modules a started bot holds.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]

# Started as ``python -m bot`` starts: settings, the client, then everything
# short of connecting (database, word list, every cog, the command tree).
_PROBE = r"""
import asyncio, json, sys
from bot.config import load_settings
from bot.client import ClubBot

async def main():
    web_port = None if sys.argv[2] == "-" else int(sys.argv[2])
    settings = load_settings(None, database_url=sys.argv[1], web_port=web_port)
    bot = ClubBot(settings, sync_commands=False, run_background=False)
    await bot.setup_hook()
    status = None
    if bot.web is not None:
        import aiohttp
        async with aiohttp.ClientSession() as http:
            async with http.get(f"http://127.0.0.1:{bot.web.port}/healthz") as response:
                status = [response.status, await response.json()]
    modules = sorted(sys.modules)
    if bot.web is not None:
        await bot.web.stop()
    await bot.engine.dispose()
    print(json.dumps({"modules": modules, "web": bot.web is not None, "healthz": status}))

asyncio.run(main())
"""

# Each only for the feature that needs it: the web page and its /metrics
# (WEB_PORT), a Swiss round's pairing (networkx, caissify-pairings), a club's
# translated catalogue, the browser tests.
NOT_AT_START = (
    "aiohttp.web",
    "jinja2",
    "bot.web.server",
    "bot.web.data",
    "bot.web.metrics",
    "prometheus_client",
    "networkx",
    "caissify_pairings",
    "playwright",
    "babel.messages",
)


def _start(tmp_path: Path, web_port: int | None) -> dict[str, Any]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("WEB_")}
    env["PYTHONPATH"] = str(REPO)
    out = subprocess.run(
        [
            sys.executable,
            "-c",
            _PROBE,
            f"sqlite+aiosqlite:///{tmp_path}/start.db",
            "-" if web_port is None else str(web_port),
        ],
        env=env,
        cwd=tmp_path,
        check=True,
        capture_output=True,
        text=True,
        timeout=300,
    ).stdout
    result: dict[str, Any] = json.loads(out.strip().splitlines()[-1])
    return result


def _loaded(modules: object, name: str) -> list[str]:
    assert isinstance(modules, list)
    return [m for m in modules if m == name or m.startswith(name + ".")]


def test_a_bot_without_its_web_page_starts_without_the_heavy_packages(tmp_path: Path) -> None:
    started = _start(tmp_path, web_port=None)
    assert started["web"] is False
    loaded = {name: _loaded(started["modules"], name) for name in NOT_AT_START}
    assert {name: mods for name, mods in loaded.items() if mods} == {}
    # and it did start: the cogs and the Swiss pairing's service are there
    assert _loaded(started["modules"], "cogs.tournament")
    assert _loaded(started["modules"], "engines.pairings.swiss")


def test_with_web_port_set_the_page_is_served(tmp_path: Path) -> None:
    started = _start(tmp_path, web_port=0)  # any free port
    assert started["web"] is True
    assert _loaded(started["modules"], "bot.web.server")
    assert _loaded(started["modules"], "jinja2")
    assert _loaded(started["modules"], "prometheus_client")
    # /healthz reads the database; the gateway is never connected in this probe
    status, body = started["healthz"]
    assert status == 503
    assert body["database"] == "ok" and body["gateway"] == "disconnected"
