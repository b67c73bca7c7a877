"""The shared word list: load time and memory of the default list, DAWG costs.

Loads are measured in fresh interpreter processes, so nothing is cached in
memory; the DAWG disk cache of a club's own list goes to a temporary folder.
"""

from __future__ import annotations

import gzip
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmarks._core import Row, ms_row, rate_row

REPO = Path(__file__).resolve().parents[1]

_LOAD_PROBE = r"""
import json, sys, time, tracemalloc
trace = sys.argv[1] == "memory"
if trace:
    tracemalloc.start()
t0 = time.perf_counter()
from engines.lexicon import load_lexicon
lexicon = load_lexicon(sys.argv[2] if len(sys.argv) > 2 else None)
loaded = time.perf_counter()
words_bytes = tracemalloc.get_traced_memory()[0] if trace else 0
dawg = lexicon.dawg
done = time.perf_counter()
total_bytes = tracemalloc.get_traced_memory()[0] if trace else 0
print(json.dumps({"load_s": loaded - t0, "dawg_s": done - loaded,
                  "words_mib": words_bytes / 2**20, "total_mib": total_bytes / 2**20}))
"""


def _probe(mode: str, *args: str, env: dict[str, str] | None = None) -> dict[str, float]:
    done = subprocess.run(
        [sys.executable, "-c", _LOAD_PROBE, mode, *args],
        capture_output=True,
        text=True,
        cwd=REPO,
        env=env,
        check=True,
    )
    return json.loads(done.stdout)


def run(quick: bool) -> list[Row]:
    repeat = 3 if quick else 7
    rows: list[Row] = []

    timings = [_probe("time") for _ in range(repeat)]
    rows.append(
        ms_row(
            "lexicon: load default list, fresh process", [t["load_s"] * 1000 for t in timings], 500
        )
    )
    rows.append(
        ms_row(
            "lexicon: default DAWG, shipped (first .dawg)",
            [t["dawg_s"] * 1000 for t in timings],
            None,
        )
    )

    memory = _probe("memory")
    rows.append(Row("lexicon: default list memory (tracemalloc)", "MiB", 60, memory["words_mib"]))
    rows.append(
        Row("lexicon: default list + DAWG memory (tracemalloc)", "MiB", 60, memory["total_mib"])
    )

    rows.extend(_custom_list_rows(repeat))
    rows.extend(_query_rows(quick))
    return rows


def _custom_list_rows(repeat: int) -> list[Row]:
    """A club's own 250k-word file: the DAWG is built once, then read from disk."""
    from engines.lexicon import load_lexicon

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "club.txt.gz"
        path.write_bytes(gzip.compress("\n".join(w.upper() for w in load_lexicon()).encode()))
        env = dict(os.environ, CLUBBOT_CACHE_DIR=str(Path(folder) / "cache"))
        cold = _probe("time", str(path), env=env)
        warm = [_probe("time", str(path), env=env) for _ in range(repeat)]
    return [
        ms_row(
            "lexicon: load a club's 254k-word file, fresh process",
            [t["load_s"] * 1000 for t in warm],
            500,
        ),
        Row("lexicon: club file DAWG, cold (built, then cached)", "s", None, cold["dawg_s"]),
        ms_row(
            "lexicon: club file DAWG, warm (disk cache)", [t["dawg_s"] * 1000 for t in warm], None
        ),
    ]


def _query_rows(quick: bool) -> list[Row]:
    from engines.lexicon import load_lexicon

    lexicon = load_lexicon()
    rng = random.Random(5)
    words = rng.sample(list(lexicon), 20_000)
    probes = [w[: rng.randint(1, len(w))] for w in words] + ["qxz", "zzzv"] * 100
    rates = []
    for _ in range(3 if quick else 7):
        t0 = time.perf_counter()
        for probe in probes:
            lexicon.has_prefix(probe)
        rates.append(len(probes) / (time.perf_counter() - t0))
    contains = []
    for _ in range(3 if quick else 7):
        t0 = time.perf_counter()
        for word in words:
            _ = word.upper() in lexicon
        contains.append(len(words) / (time.perf_counter() - t0))
    return [
        rate_row("lexicon: has_prefix queries", rates, None),
        rate_row("lexicon: case-insensitive membership", contains, None),
    ]


if __name__ == "__main__":
    for row in run(quick="--quick" in sys.argv):
        print(row)
