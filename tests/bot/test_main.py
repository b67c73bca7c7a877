"""The two commands: `python -m bot` without a token, and `--check` offline."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]


def _run(args: list[str], cwd: Path, **env: str) -> subprocess.CompletedProcess[str]:
    clean = {
        k: v for k, v in os.environ.items() if k not in {"DISCORD_TOKEN", "DATABASE_URL", "LEXICON"}
    }
    clean.update(env)
    clean["PYTHONPATH"] = str(REPO)
    return subprocess.run(
        [sys.executable, "-m", "bot", *args],
        cwd=cwd,
        env=clean,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_without_token_prints_one_line_naming_the_variable_and_exits_2(tmp_path: Path) -> None:
    proc = _run([], tmp_path)
    assert proc.returncode == 2
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    assert "DISCORD_TOKEN" in lines[0] and ".env.example" in lines[0]
    assert "Traceback" not in proc.stderr


def test_malformed_setting_is_one_clear_line_and_exit_2(tmp_path: Path) -> None:
    proc = _run([], tmp_path, SHARD_COUNT="many")
    assert proc.returncode == 2
    assert "SHARD_COUNT" in proc.stderr and "Traceback" not in proc.stderr


def test_check_upgrades_database_builds_tree_and_prints_summary(tmp_path: Path) -> None:
    db = tmp_path / "check.db"
    proc = _run(["--check"], tmp_path, DATABASE_URL=f"sqlite+aiosqlite:///{db}")
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert "clubbot check: OK" in out
    assert "/help" in out and "/club" in out
    assert "word list" in out
    assert db.exists()


def test_check_masks_the_database_password(tmp_path: Path) -> None:
    # An unreachable PostgreSQL: the check fails with a reason, and never shows the password.
    proc = _run(
        ["--check"], tmp_path, DATABASE_URL="postgresql+asyncpg://club:hunter2@127.0.0.1:1/none"
    )
    assert proc.returncode == 1
    assert "check failed" in proc.stderr
    assert "hunter2" not in proc.stderr + proc.stdout


def test_help_shows_the_sync_flag_beside_check(tmp_path: Path) -> None:
    proc = _run(["--help"], tmp_path)
    assert proc.returncode == 0
    assert "--check" in proc.stdout and "--sync" in proc.stdout


def test_sync_without_token_exits_2_like_a_start(tmp_path: Path) -> None:
    proc = _run(["--sync"], tmp_path)
    assert proc.returncode == 2
    assert "DISCORD_TOKEN" in proc.stderr and "Traceback" not in proc.stderr


async def _run_against(
    dc: Any, tmp_path: Path, *args: str, stop_when_connected: bool = False, **env: str
) -> tuple[int | None, str, str]:
    """``python -m bot`` as a process talking to the loopback Discord."""
    import asyncio
    import signal

    clean = {
        k: v for k, v in os.environ.items() if k not in {"DISCORD_TOKEN", "DATABASE_URL", "LEXICON"}
    }
    clean.update(dc.env())
    clean.update(PYTHONPATH=str(REPO), DATABASE_URL=f"sqlite+aiosqlite:///{tmp_path / 'club.db'}")
    clean.update(env)
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot",
        *args,
        cwd=tmp_path,
        env=clean,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    if stop_when_connected:
        await dc.wait_for_session(timeout=60)
        proc.send_signal(signal.SIGTERM)  # what systemctl stop sends
    out, err = await asyncio.wait_for(proc.communicate(), 120)
    return proc.returncode, out.decode(), err.decode()


async def test_a_token_discord_rejects_exits_2(loopback, tmp_path: Path) -> None:
    code, _, err = await _run_against(loopback, tmp_path, DISCORD_TOKEN="not-the-token")
    assert code == 2
    assert "DISCORD_TOKEN" in err and "Traceback" not in err


async def test_an_unusable_word_list_exits_2_in_one_line(loopback, tmp_path: Path) -> None:
    code, _, err = await _run_against(loopback, tmp_path, LEXICON=str(tmp_path / "missing.txt"))
    assert code == 2
    assert "Traceback" not in err
    said = [line for line in err.splitlines() if line.startswith("clubbot:")]
    assert len(said) == 1 and "missing.txt" in said[0], err


async def test_sigterm_stops_a_running_bot_with_exit_0(loopback, tmp_path: Path) -> None:
    # systemctl stop or restart: a clean exit, which Restart=on-failure leaves alone.
    code, _, err = await _run_against(loopback, tmp_path, stop_when_connected=True)
    assert code == 0, err
    assert "shutting down" in err
