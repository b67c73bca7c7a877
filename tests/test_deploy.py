"""deploy/clubbot.service: a unit systemd accepts, with the settings that keep a
club's bot running (and stopped when only a human can fix it); and
deploy/clubbot@.service, the same as a template whose instances each run their
own shards on one PostgreSQL database."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from bot.__main__ import EXIT_CONFIG

REPO = Path(__file__).resolve().parents[1]
UNIT = REPO / "deploy" / "clubbot.service"
TEMPLATE = REPO / "deploy" / "clubbot@.service"
CLONE = "/srv/clubbot/app"  # where the unit expects the clone
SYSTEMD_ANALYZE = shutil.which("systemd-analyze")


def _settings(text: str) -> dict[str, list[str]]:
    """``Key`` → every value given for it (systemd allows a key several times)."""
    found: dict[str, list[str]] = {}
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith(("#", ";", "[")):
            continue
        key, _, value = line.partition("=")
        found.setdefault(key.strip(), []).append(value.strip())
    return found


def _runnable_copy(tmp_path: Path, text: str, name: str = "clubbot.service") -> Path:
    """The unit with its clone paths pointed at a folder that exists here, holding a
    .venv/bin/python (this interpreter) and a .env, so verify judges the unit itself."""
    clone = tmp_path / "app"
    (clone / ".venv" / "bin").mkdir(parents=True)
    (clone / ".venv" / "bin" / "python").symlink_to(sys.executable)
    (clone / ".env").write_text("DISCORD_TOKEN=\n")
    unit = tmp_path / name
    unit.write_text(text.replace(CLONE, str(clone)))
    return unit


def _verify(unit: Path) -> list[str]:
    """What ``systemd-analyze verify`` objects to in this unit (empty: accepted).

    It exits 0 after a key it does not know or a value it cannot parse, saying
    only "…, ignoring" on stderr: those lines count as objections too.
    """
    assert SYSTEMD_ANALYZE is not None
    proc = subprocess.run(
        [SYSTEMD_ANALYZE, "verify", str(unit)], capture_output=True, text=True, timeout=60
    )
    output = (proc.stdout + proc.stderr).splitlines()
    ours = [line for line in output if unit.name in line]
    if proc.returncode != 0:
        return ours or output or [f"exit {proc.returncode}"]
    return ours


def test_the_unit_restarts_on_failure_but_not_after_a_bad_setting() -> None:
    s = _settings(UNIT.read_text())
    assert s["Type"] == ["simple"]
    assert s["Restart"] == ["on-failure"]
    assert s["RestartSec"] and s["RestartSec"][0] not in ("0", "0s")
    # The bot exits 2 for a bad setting or a refused token (tests/bot/test_main.py).
    assert EXIT_CONFIG == 2
    assert "2" in " ".join(s["RestartPreventExitStatus"]).split()


def test_the_unit_runs_the_venvs_python_as_its_own_user_with_the_env_file() -> None:
    s = _settings(UNIT.read_text())
    assert s["ExecStart"] == [f"{CLONE}/.venv/bin/python -m bot"]
    assert s["WorkingDirectory"] == [CLONE]
    assert s["EnvironmentFile"] == [f"{CLONE}/.env"]
    assert s["User"] and s["User"][0] not in ("root", "0")


def test_the_unit_is_hardened_and_can_write_only_its_data_folders() -> None:
    s = _settings(UNIT.read_text())
    assert s["NoNewPrivileges"] == ["yes"]
    assert s["ProtectSystem"] == ["strict"]
    assert s["PrivateTmp"] == ["yes"]
    writable = " ".join(s["ReadWritePaths"]).split()
    assert "/var/lib/clubbot" in writable  # the SQLite database (and its WAL files)
    # The word-graph cache goes to a folder it may write.
    cache = next(v for v in s["Environment"] if v.startswith("CLUBBOT_CACHE_DIR="))
    assert cache.partition("=")[2] in writable
    # The database path the unit's comment gives is in the writable folder.
    assert "DATABASE_URL=sqlite+aiosqlite:////var/lib/clubbot/clubbot.db" in UNIT.read_text()


@pytest.mark.skipif(SYSTEMD_ANALYZE is None, reason="systemd-analyze is not installed")
def test_systemd_accepts_the_unit(tmp_path: Path) -> None:
    assert _verify(_runnable_copy(tmp_path, UNIT.read_text())) == []


@pytest.mark.skipif(SYSTEMD_ANALYZE is None, reason="systemd-analyze is not installed")
@pytest.mark.parametrize(
    ("line", "broken"),
    [
        ("Restart=on-failure", "Restart=sometimes"),  # a value systemd cannot parse
        ("ProtectSystem=strict", "ProtectSystm=strict"),  # a misspelt key
        ("[Service]", "[Servic]"),  # a misspelt section
    ],
)
def test_verify_catches_a_broken_unit(tmp_path: Path, line: str, broken: str) -> None:
    # So the test above can fail: each of these would be "ignored" by systemd.
    text = UNIT.read_text()
    assert line in text
    assert _verify(_runnable_copy(tmp_path, text.replace(line, broken, 1))) != []


def test_each_instance_of_the_template_reads_its_own_shards_after_the_shared_settings() -> None:
    s = _settings(TEMPLATE.read_text())
    # systemd reads them in order, the later winning: the instance's SHARD_IDS.
    assert s["EnvironmentFile"] == [f"{CLONE}/.env", "/etc/clubbot/%i.env"]
    single = _settings(UNIT.read_text())
    for key in ("Type", "User", "WorkingDirectory", "ExecStart", "Restart", "RestartSec"):
        assert s[key] == single[key], key
    assert "2" in " ".join(s["RestartPreventExitStatus"]).split()
    for key in ("NoNewPrivileges", "ProtectSystem", "PrivateTmp", "ProtectHome", "UMask"):
        assert s[key] == single[key], key
    cache = next(v for v in s["Environment"] if v.startswith("CLUBBOT_CACHE_DIR="))
    assert cache.partition("=")[2] in " ".join(s["ReadWritePaths"]).split()


def test_the_readme_shows_the_template_and_how_to_start_two_processes() -> None:
    readme = (REPO / "README.md").read_text()
    assert "deploy/clubbot@.service" in readme
    assert "systemctl enable --now clubbot@0 clubbot@1" in readme
    assert "/etc/clubbot/%i.env" in TEMPLATE.read_text()


@pytest.mark.skipif(SYSTEMD_ANALYZE is None, reason="systemd-analyze is not installed")
def test_systemd_accepts_the_template(tmp_path: Path) -> None:
    assert _verify(_runnable_copy(tmp_path, TEMPLATE.read_text(), "clubbot@.service")) == []
    # …and would say so if it did not: a value systemd cannot parse.
    broken = TEMPLATE.read_text().replace("Restart=on-failure", "Restart=sometimes", 1)
    (tmp_path / "again").mkdir()
    assert _verify(_runnable_copy(tmp_path / "again", broken, "clubbot@.service")) != []
