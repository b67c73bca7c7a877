"""Builds the FIDE Dutch test corpus: simulated chess Swiss tournaments paired
round by round by bbpPairings (README.md beside this file says where it came
from and how it was run).

Each tournament is simulated from a fixed seed: 8 to 64 players with distinct
ratings (starting rank = rating order), 5 to 11 rounds (never more than the
field allows), results drawn from the rating difference with draws, a few
games forfeited (``+``/``-``: not played, so the two may meet again), a few
players absent for one round or withdrawn for good (``0000 - Z`` from then on),
and the pairing-allocated bye (``0000 - U``) in odd fields. Before each round
the tournament so far is written as a TRF file (the XXR line says the planned
rounds, so the last round is paired as one) and bbpPairings pairs it:

    bbpPairings.exe --dutch round.trf -p out.txt

Its output becomes the round's games. What is kept, per tournament ``tNN``:

* ``tNN.trf``: the whole tournament (every round's pairings, with results).
  Round k's input is this file cut after column k - 1, plus the ``Z`` of the
  players absent in round k (the generator checks that the cut file is byte
  for byte what bbpPairings was given).
* ``tNN.pairs``: bbpPairings' own output for every round, as it wrote it,
  after a ``round k`` line ("none" when it found no legal pairing).

Run from the repository root:

    python tests/engines/pairings_corpus/make_corpus.py --bbp /path/to/bbpPairings.exe

The test (tests/engines/test_pairings_dutch.py) needs only the files.
"""

from __future__ import annotations

import argparse
import random
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[2]))

from engines.pairings.trf import trf_player_line  # noqa: E402

SEED = 20261206
TOURNAMENTS = 48
FORFEIT = 0.03  # a game not played (one side scores the win)
ABSENT = 0.01  # a player sits out one round (no game: 0 points)
WITHDRAW = 0.012  # a player leaves for good after a round
DRAWS = 0.3


@dataclass
class Player:
    number: int
    rating: int
    # Per round: (opponent's number or 0, colour "w"/"b"/"-", result character).
    cells: list[tuple[int, str, str]] = field(default_factory=list)
    withdrawn: bool = False

    def points(self, upto: int | None = None) -> float:
        cells = self.cells if upto is None else self.cells[:upto]
        return sum({"1": 1.0, "+": 1.0, "U": 1.0, "=": 0.5}.get(c[2], 0.0) for c in cells)


def trf(name: str, players: list[Player], planned: int, columns: int) -> str:
    """The TRF of the first ``columns`` rounds; a player with a ``Z`` in the next
    column (absent or withdrawn) gets it too: bbpPairings leaves them unpaired."""
    lines = [f"012 {name}", f"062 {len(players)}", "092 Swiss (Dutch)", f"XXR {planned}"]
    lines.append("XXC white1")
    for p in players:
        cells = p.cells[:columns]
        if len(p.cells) > columns and p.cells[columns][2] == "Z":
            cells = p.cells[: columns + 1]
        lines.append(
            trf_player_line(
                p.number, f"Player {p.number:02d}", p.rating, p.points(columns), p.number, cells
            )
        )
    return "\n".join(lines) + "\n"


def expected(white: Player, black: Player, rng: random.Random) -> str:
    """White's result: Elo expectation with a share of draws."""
    e = 1 / (1 + 10 ** ((black.rating - white.rating) / 400))
    draw = DRAWS * (1 - abs(2 * e - 1))
    x = rng.random()
    if x < draw:
        return "="
    return "1" if rng.random() < e else "0"


def simulate(index: int, bbp: Path, out: Path, work: Path) -> int:
    rng = random.Random(SEED * 1000 + index)
    # The first two are the edges: a full 64-player field over 11 rounds, and
    # eight players over seven (every round of a round robin's length).
    n = {1: 64, 2: 8}.get(index) or rng.randint(8, 64)
    planned = {1: 11, 2: 7}.get(index) or min(rng.randint(5, 11), n - 1)
    ratings = sorted(rng.sample(range(1200, 2800), n), reverse=True)
    players = [Player(k + 1, r) for k, r in enumerate(ratings)]
    name = f"Corpus t{index:02d}"
    log = []
    rounds = 0
    for rnd in range(1, planned + 1):
        # Who sits this round out (withdrawn for good, or absent once).
        for p in players:
            if p.withdrawn or (rnd > 1 and rng.random() < ABSENT):
                p.cells.append((0, "-", "Z"))
            elif rnd > 1 and rnd < planned and rng.random() < WITHDRAW:
                p.withdrawn = True
                p.cells.append((0, "-", "Z"))
        playing = [p for p in players if len(p.cells) < rnd]
        text = trf(name, players, planned, rnd - 1)
        given = work / f"t{index:02d}r{rnd}.trf"
        given.write_text(text)
        result = work / f"t{index:02d}r{rnd}.out"
        run = subprocess.run(
            [str(bbp), "--dutch", str(given), "-p", str(result)], capture_output=True, text=True
        )
        if run.returncode == 1:
            log.append(f"round {rnd}\nnone\n")  # the tournament stops here
            break
        if run.returncode != 0:
            raise SystemExit(f"bbpPairings failed on {given}: {run.stderr}")
        output = result.read_text()
        log.append(f"round {rnd}\n{output}")
        by_number = {p.number: p for p in players}
        lines = output.split()
        count = int(lines[0])
        pairs = [(int(lines[1 + 2 * i]), int(lines[2 + 2 * i])) for i in range(count)]
        seen = set()
        for w, b in pairs:
            white = by_number[w]
            seen.add(w)
            if b == 0:
                white.cells.append((0, "-", "U"))
                continue
            seen.add(b)
            black = by_number[b]
            if rng.random() < FORFEIT:
                won = rng.random() < 0.5
                white.cells.append((b, "w", "+" if won else "-"))
                black.cells.append((w, "b", "-" if won else "+"))
                continue
            res = expected(white, black, rng)
            other = {"1": "0", "0": "1", "=": "="}[res]
            white.cells.append((b, "w", res))
            black.cells.append((w, "b", other))
        assert seen == {p.number for p in playing}, (index, rnd)
        rounds = rnd
    final = trf(name, players, planned, rounds)
    # Each round's input is the final file cut after the round before.
    for rnd in range(1, rounds + 1):
        cut = trf(name, players, planned, rnd - 1)
        assert cut == (work / f"t{index:02d}r{rnd}.trf").read_text(), (index, rnd)
    (out / f"t{index:02d}.trf").write_text(final)
    (out / f"t{index:02d}.pairs").write_text("".join(log))
    return rounds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bbp", type=Path, required=True, help="the bbpPairings executable")
    parser.add_argument("--out", type=Path, default=HERE / "data")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    total = 0
    with tempfile.TemporaryDirectory() as tmp:
        for index in range(1, TOURNAMENTS + 1):
            rounds = simulate(index, args.bbp, args.out, Path(tmp))
            total += rounds
            print(f"t{index:02d}: {rounds} rounds", flush=True)
    print(f"{total} rounds in {TOURNAMENTS} tournaments")


if __name__ == "__main__":
    main()
