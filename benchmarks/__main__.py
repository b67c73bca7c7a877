"""Run every benchmark and print one table.

python -m benchmarks            # all rows
python -m benchmarks --quick    # fewer repetitions
python -m benchmarks --only scrabble boggle
python -m benchmarks --enforce  # exit 1 when a budget is missed
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys
import time
import traceback

import benchmarks
from benchmarks._core import Row


def _modules(only: list[str] | None) -> list[str]:
    names = sorted(
        m.name for m in pkgutil.iter_modules(benchmarks.__path__) if m.name.startswith("bench_")
    )
    if only:
        names = [n for n in names if any(o in n for o in only)]
    return names


def _fmt(v: float | None) -> str:
    if v is None:
        return "-"
    if abs(v) >= 1000:
        return f"{v:,.0f}"
    return f"{v:.3g}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks")
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--enforce", action="store_true")
    parser.add_argument("--only", nargs="*")
    args = parser.parse_args(argv)

    rows: list[Row] = []
    failed_modules = []
    for name in _modules(args.only):
        started = time.perf_counter()
        try:
            mod = importlib.import_module(f"benchmarks.{name}")
            rows.extend(mod.run(quick=args.quick))
        except Exception:  # a broken benchmark is reported, the others still run
            failed_modules.append(name)
            traceback.print_exc()
        # Progress on stderr: the table stays clean, and slow modules are easy to spot.
        print(f"{name}: {time.perf_counter() - started:.1f} s", file=sys.stderr, flush=True)

    header = f"{'metric':<58} {'budget':>12} {'median':>12} {'p99':>10}  ok   spread"
    print(header)
    print("-" * len(header))
    misses = 0
    for r in rows:
        budget = (
            "-" if r.budget is None else ("≥ " if r.higher_is_better else "≤ ") + _fmt(r.budget)
        )
        if r.budget is not None and r.budget_on == "p99":
            budget = "p99 " + budget
        verdict = {True: "yes", False: "NO", None: "-"}[r.ok]
        misses += r.ok is False
        print(
            f"{r.metric:<58} {budget + ' ' + r.unit:>12} {_fmt(r.median) + ' ' + r.unit:>12} "
            f"{_fmt(r.p99):>10}  {verdict:<4} {r.spread}"
        )
    if failed_modules:
        print(f"benchmark modules that crashed: {', '.join(failed_modules)}")
    print(f"{len(rows)} rows, {misses} over budget")
    if failed_modules:
        return 2
    return 1 if (args.enforce and misses) else 0


if __name__ == "__main__":
    sys.exit(main())
