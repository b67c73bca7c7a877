"""The README's backup procedure works: back up, restore, ``python -m bot --check``.

SQLite is backed up with ``sqlite3 … ".backup …"`` while the bot runs (as the
README says is safe); PostgreSQL with ``pg_dump -Fc`` and ``pg_restore``.
The restored copy passes the check and holds the same games.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from sqlalchemy.engine import make_url

from bot.db.engine import create_engine
from bot.db.migrate import upgrade_to_head
from tests.clock import FakeClock
from tests.conftest import reset_postgres
from tests.reliability.games import open_scrabble
from tests.reliability.harness import REPO, Database, World, postgres_url

pytestmark = pytest.mark.slow


def readme_backup_section() -> str:
    text = (REPO / "README.md").read_text(encoding="utf-8")
    return text[text.index("## Backups") :]


def bot_check(database_url: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("DISCORD_", "DATABASE_URL", "LEXICON"))
    }
    env.update(DATABASE_URL=database_url, PYTHONPATH=str(REPO))
    return subprocess.run(
        [sys.executable, "-m", "bot", "--check", "--env-file", str(cwd / "none.env")],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=180,
    )


def test_the_readme_documents_backups_and_the_check_after_a_restore() -> None:
    section = readme_backup_section()
    assert '".backup' in section and "pg_dump" in section and "pg_restore" in section
    assert "python -m bot --check" in section


@pytest.mark.skipif(shutil.which("sqlite3") is None, reason="the sqlite3 command is not installed")
async def test_a_sqlite_backup_taken_while_the_bot_runs_restores_and_passes_the_check(
    world: World,
) -> None:
    bot = world.bot()
    await bot.start()
    game_id, _, _ = await open_scrabble(
        world.dc, world.channel, world["alice"], [world["bob"]], opponent=world["bob"]
    )
    live = world.db.sqlite_path
    assert live is not None
    backup = world.tmp_path / "clubbot-backup.db"

    done = await asyncio.to_thread(
        subprocess.run,
        ["sqlite3", str(live), f".backup {backup}"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr

    restored_dir = world.tmp_path / "restored"
    restored_dir.mkdir()
    shutil.copy(backup, restored_dir / "clubbot.db")
    url = f"sqlite+aiosqlite:///{restored_dir / 'clubbot.db'}"
    checked = await asyncio.to_thread(bot_check, url, restored_dir)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "clubbot check: OK" in checked.stdout
    restored = Database(url)
    query = "select id, status, state from games order by id"
    assert await restored.rows(query) == await world.db.rows(query)
    assert game_id in [r[0] for r in await restored.rows(query)]


@pytest.mark.postgres
@pytest.mark.skipif(not postgres_url(), reason="TEST_DATABASE_URL is not set")
@pytest.mark.skipif(
    shutil.which("pg_dump") is None or shutil.which("pg_restore") is None,
    reason="pg_dump / pg_restore are not installed",
)
async def test_a_postgres_dump_restores_into_a_new_database_that_passes_the_check(
    tmp_path: Path,
) -> None:
    url = postgres_url()
    assert url
    await reset_postgres(url)
    engine = create_engine(url)
    try:
        await upgrade_to_head(engine)
    finally:
        await engine.dispose()
    source = Database(url)
    await source.execute(
        "insert into guilds (id, name, timezone, settings, created_at, updated_at) "
        "values (42, 'Library Games Club', 'Asia/Manila', '{}', :now, :now)",
        now=FakeClock()(),
    )

    parsed = make_url(url)
    target_name = f"{parsed.database}_restore"
    connect = [
        "-h",
        parsed.host or "127.0.0.1",
        "-p",
        str(parsed.port or 5432),
        "-U",
        parsed.username or "postgres",
    ]
    pg_env = {**os.environ, **({"PGPASSWORD": parsed.password} if parsed.password else {})}
    dump = tmp_path / "clubbot.dump"
    steps = [
        ["pg_dump", *connect, "-Fc", "-f", str(dump), parsed.database or "postgres"],
        ["psql", *connect, "-d", "postgres", "-c", f'DROP DATABASE IF EXISTS "{target_name}"'],
        ["psql", *connect, "-d", "postgres", "-c", f'CREATE DATABASE "{target_name}"'],
        ["pg_restore", *connect, "-d", target_name, "--no-owner", str(dump)],
    ]
    for step in steps:
        done = await asyncio.to_thread(
            subprocess.run, step, env=pg_env, capture_output=True, text=True, timeout=120
        )
        assert done.returncode == 0, f"{step[0]}: {done.stderr}"

    target_url = parsed.set(database=target_name).render_as_string(hide_password=False)
    restored = Database(target_url)
    try:
        checked = await asyncio.to_thread(bot_check, target_url, tmp_path)
        assert checked.returncode == 0, checked.stdout + checked.stderr
        assert "clubbot check: OK" in checked.stdout
        assert await restored.rows("select id, timezone from guilds") == [(42, "Asia/Manila")]
    finally:
        await restored.close()
        await source.close()
        await asyncio.to_thread(
            subprocess.run,
            ["psql", *connect, "-d", "postgres", "-c", f'DROP DATABASE IF EXISTS "{target_name}"'],
            env=pg_env,
            capture_output=True,
            timeout=60,
        )
