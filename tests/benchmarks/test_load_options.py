"""The load benchmark's scaling and soak options (issue #32): each bot process held to
a CPU share by a cgroup of its own, the rate sustained within the ack budget named,
and memory printed over time. The cgroup files are written in a folder standing for
the cgroup filesystem (the real one needs root; the benchmark itself uses it)."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from benchmarks.load import (
    CpuQuota,
    CpuQuotaError,
    LoadConfig,
    LoadRun,
    ProcessFigures,
    RssSample,
    StepFigures,
    _parse,
    table,
)


def test_a_v1_group_holds_its_processes_to_the_share(tmp_path: Path) -> None:
    quota = CpuQuota(0.4, root=tmp_path)
    group = quota.group("bot0")
    assert (group / "cpu.cfs_period_us").read_text() == "100000\n"
    assert (group / "cpu.cfs_quota_us").read_text() == "40000\n"
    quota.add(group, 4242424)  # no such process: nothing of its children to add
    assert (group / "cgroup.procs").read_text() == "4242424\n"


def test_a_v2_group_is_limited_by_cpu_max(tmp_path: Path) -> None:
    (tmp_path / "cgroup.controllers").write_text("cpuset cpu io memory pids\n")
    group = CpuQuota(0.25, root=tmp_path).group("bot1")
    assert (group / "cpu.max").read_text() == "25000 100000\n"
    (group / "cpu.stat").write_text("usage_usec 10\nthrottled_usec 2500000\n")
    assert CpuQuota(0.25, root=tmp_path).throttled_seconds(group) == 2.5


def test_where_no_group_can_be_made_it_says_why(tmp_path: Path) -> None:
    with pytest.raises(CpuQuotaError, match="cannot make the cgroup"):
        CpuQuota(0.4, root=tmp_path / "not-mounted").group("bot0")
    with pytest.raises(CpuQuotaError, match="share of one core"):
        CpuQuota(0, root=tmp_path)


def test_the_options_are_read_and_documented(capsys: pytest.CaptureFixture[str]) -> None:
    config, _ = _parse(["--cpu-quota", "0.4", "--duration", "3600", "--rss-every", "60"])
    assert (config.cpu_quota, config.seconds, config.rss_every) == (0.4, 3600.0, 60.0)
    with pytest.raises(SystemExit):
        _parse(["--help"])
    shown = capsys.readouterr().out
    assert "--cpu-quota" in shown and "--rss-every" in shown and "add up" in shown


def _step(rate: float, p99: float, misses: int) -> StepFigures:
    proc = ProcessFigures("bot0", 40.0, 8.0, 6.0, 0.0, 150.0, 0.0)
    nan = math.nan
    return StepFigures(rate, 60, 600, 0, 0, 5, 20, p99, p99, misses, 0, nan, nan, 30, [proc])


def test_the_table_names_the_highest_rate_within_the_budget_and_the_memory_trend() -> None:
    run = LoadRun(
        LoadConfig(cpu_quota=0.4),
        2.0,
        [120.0],
        [_step(10, 40, 0), _step(15, 90, 0), _step(20, 140, 0), _step(25, 80, 3)],
        [],
        [],
        [],
        [
            RssSample(60, 10, {"bot0": 140.0}, {"bot0": 0.0}),
            RssSample(600, 25, {"bot0": 152.0}, {"bot0": 0.0}),
        ],
        {"bot0": 12.5},
    )
    shown = table(run)
    assert "held to 0.4 of a core" in shown
    assert "within the ack budget (p99 ≤ 100 ms, none past 3 s): 15/s" in shown
    assert "bot0 12.5 s" in shown
    assert "bot0 140 MiB at 60 s → 152 MiB at 600 s" in shown
