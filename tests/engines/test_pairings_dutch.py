"""FIDE Dutch pairings (engines.pairings.dutch) against bbpPairings.

The corpus (tests/engines/pairings_corpus, README there) holds simulated chess
Swiss tournaments paired round by round by bbpPairings 6.0.0, the FIDE-endorsed
Dutch engine Lichess uses: every round of every tournament must come out of
the adapter with the same boards, the same colours, the same bye and the same
board order. bbpPairings is not needed here: its answers are in the files.

Run time: the library takes about a second for a 64-player round, so the
tournaments of more than 32 players are marked ``slow``: the suite starts them
first (tests/conftest.py), so they never make the tail of a parallel run, and
``-m "not slow"`` leaves them out of a quick run (the 64-player event's last
round still runs).

The small cases below were checked against bbpPairings the same way (a TRF of
the case, ``bbpPairings.exe --dutch case.trf -p``) when they were written.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest

from engines.pairings import Entrant, Game, Pairing, PairingError
from engines.pairings.dutch import NoDutchPairingError, dutch_pairings

CORPUS = Path(__file__).parent / "pairings_corpus" / "data"
BIG_FIELD = 32  # tournaments above it are slow
POINTS = {"1": 1.0, "=": 0.5, "0": 0.0, "+": 1.0, "-": 0.0}


@dataclass(frozen=True)
class CorpusRound:
    tournament: str
    round: int
    planned: int
    entrants: list[Entrant]
    games: list[Game]
    expected: list[Pairing] | None  # None: bbpPairings found no legal pairing


@dataclass(frozen=True)
class TrfPlayer:
    number: int
    rating: int
    cells: list[tuple[int, str, str]]  # per round: opponent, colour, result


def read_trf(text: str) -> tuple[int, list[TrfPlayer]]:
    """The planned rounds (XXR) and the players of a TRF16 file, as bbpPairings reads it."""
    planned, players = 0, []
    for line in text.splitlines():
        if line.startswith("XXR"):
            planned = int(line[4:])
        elif line.startswith("001"):
            rest = line[91:]
            cells = [
                (int(rest[i : i + 4]), rest[i + 5], rest[i + 7]) for i in range(0, len(rest), 10)
            ]
            players.append(TrfPlayer(int(line[4:8]), int(line[48:52].strip() or 0), cells))
    return planned, players


def read_pairs(text: str) -> dict[int, list[Pairing] | None]:
    """bbpPairings' ``-p`` outputs, each after a ``round k`` line (White first, 0 = bye)."""
    rounds: dict[int, list[Pairing] | None] = {}
    current: list[Pairing] | None = None
    for line in text.splitlines():
        words = line.split()
        if words[0] == "round":
            current = []
            rounds[int(words[1])] = current
        elif words == ["none"]:
            rounds[max(rounds)] = None
        elif len(words) == 2:
            assert current is not None
            current.append(Pairing(int(words[0]), int(words[1]) or None))
    return rounds


def games_of(players: list[TrfPlayer]) -> list[Game]:
    """Every game in the file: a bye ``U`` scores 1, ``+``/``-`` are forfeits, ``Z`` no game."""
    games = []
    for p in players:
        for rnd, (opponent, colour, result) in enumerate(p.cells, start=1):
            if opponent == 0 and result == "U":
                games.append(Game(rnd, p.number, None, 1.0))
            elif opponent and colour == "w":
                games.append(Game(rnd, p.number, opponent, POINTS[result], forfeit=result in "+-"))
    return games


@cache
def corpus(name: str) -> list[CorpusRound]:
    planned, players = read_trf((CORPUS / f"{name}.trf").read_text())
    games = games_of(players)
    out = []
    for rnd, expected in read_pairs((CORPUS / f"{name}.pairs").read_text()).items():
        # Seeds are the starting ranks; a Z in the round's column: not paired.
        present = [p for p in players if not (len(p.cells) >= rnd and p.cells[rnd - 1][2] == "Z")]
        entrants = [Entrant(p.number, float(p.rating), p.number) for p in present]
        before = [g for g in games if g.round < rnd]
        out.append(CorpusRound(name, rnd, planned, entrants, before, expected))
    return out


def field_size(name: str) -> int:
    return len(read_trf((CORPUS / f"{name}.trf").read_text())[1])


TOURNAMENTS = sorted(p.stem for p in CORPUS.glob("*.trf"))


def pair(r: CorpusRound) -> list[Pairing] | None:
    try:
        return dutch_pairings(r.entrants, r.games, round=r.round, rounds=r.planned)
    except NoDutchPairingError:
        return None


@pytest.mark.parametrize(
    "name",
    [
        pytest.param(n, marks=pytest.mark.slow) if field_size(n) > BIG_FIELD else n
        for n in TOURNAMENTS
    ],
)
def test_every_round_is_bbppairings_own(name: str) -> None:
    differ = [
        (r.round, pair(r), r.expected)
        for r in corpus(name)
        if pair(r) != r.expected  # boards, colours (White first), bye and order
    ]
    assert differ == []


def test_the_64_player_events_last_round_is_bbppairings_own() -> None:
    last = corpus("t01")[-1]
    assert len(last.entrants) > BIG_FIELD and last.round == last.planned == 11
    assert pair(last) == last.expected


def test_the_corpus_covers_what_the_rules_turn_on() -> None:
    rounds = [r for name in TOURNAMENTS for r in corpus(name)]
    sizes = [field_size(n) for n in TOURNAMENTS]
    assert len(rounds) >= 300 and min(sizes) == 8 and max(sizes) == 64
    paired = [r for r in rounds if r.expected is not None]
    assert sum(1 for r in paired for p in r.expected or [] if p.second is None) >= 50  # byes
    assert sum(1 for r in rounds if r.round == r.planned) >= 40  # last rounds
    assert (
        sum(1 for r in rounds if r.round > 1 and len(r.entrants) < field_size(r.tournament)) >= 50
    )
    forfeits = {(r.tournament, g.round, g.first) for r in rounds for g in r.games if g.forfeit}
    assert len(forfeits) >= 50
    assert any(r.expected is None for r in rounds)  # a round with no legal pairing


def test_a_round_with_no_legal_pairing_raises_for_the_fallback() -> None:
    stuck = [r for name in TOURNAMENTS for r in corpus(name) if r.expected is None]
    assert stuck
    for r in stuck:
        with pytest.raises(NoDutchPairingError):
            dutch_pairings(r.entrants, r.games, round=r.round, rounds=r.planned)


# ---------------------------------------------------------------- small cases


def field(n: int, *, absent: tuple[int, ...] = ()) -> list[Entrant]:
    return [Entrant(k, 2500 - 10 * k, k) for k in range(1, n + 1) if k not in absent]


def test_a_withdrawn_entrant_is_left_out_and_the_others_keep_their_numbers() -> None:
    played = [Game(1, 1, 4, 1.0), Game(1, 5, 2, 0.0), Game(1, 3, 6, 0.5)]
    boards = dutch_pairings(field(6, absent=(2,)), played, round=2, rounds=5)
    assert boards == [Pairing(6, 1), Pairing(4, 3), Pairing(5, None)]


def test_the_bye_goes_to_the_lowest_entrant_who_has_not_had_one() -> None:
    rounds = [Game(1, 1, 3, 1.0), Game(1, 4, 2, 0.0), Game(1, 5, None, 1.0)]
    rounds += [Game(2, 1, 2, 0.5), Game(2, 4, None, 1.0), Game(2, 5, 3, 0.0)]
    # 3, 4 and 5 have one point each; 4 and 5 had the bye.
    boards = dutch_pairings(field(5), rounds, round=3, rounds=5)
    assert boards == [Pairing(4, 1), Pairing(2, 5), Pairing(3, None)]


def test_a_forfeit_win_counts_as_the_bye_already_given() -> None:
    rounds = [Game(1, 1, 3, 1.0), Game(1, 4, 2, 0.0), Game(1, 5, None, 1.0)]
    rounds += [Game(2, 1, 2, 0.5), Game(2, 4, None, 1.0)]
    won_by_3 = [*rounds, Game(2, 5, 3, 0.0, forfeit=True)]
    won_by_5 = [*rounds, Game(2, 3, 5, 0.0, forfeit=True)]
    # 3 won by forfeit: nobody in the bottom group may have the bye, it floats up.
    assert dutch_pairings(field(5), won_by_3, round=3, rounds=5)[-1] == Pairing(2, None)
    assert dutch_pairings(field(5), won_by_5, round=3, rounds=5)[-1] == Pairing(3, None)


def test_a_forfeited_game_is_not_a_meeting_so_the_two_may_meet_again() -> None:
    forfeited = [Game(1, 1, 2, 1.0, forfeit=True)]
    assert dutch_pairings(field(2), forfeited, round=2, rounds=3) == [Pairing(1, 2)]
    with pytest.raises(NoDutchPairingError):
        dutch_pairings(field(2), [Game(1, 1, 2, 1.0)], round=2, rounds=3)


def test_in_the_last_round_topscorers_may_meet_with_a_third_white() -> None:
    # 1 and 2 have won twice with White; 4 and 5 had Black twice.
    rounds = [Game(1, 1, 4, 1.0), Game(1, 2, 5, 1.0), Game(1, 6, 3, 0.5)]
    rounds += [Game(2, 1, 5, 1.0), Game(2, 2, 6, 1.0), Game(2, 3, 4, 0.5)]
    last = dutch_pairings(field(6), rounds, round=3, rounds=3)
    assert last == [Pairing(2, 1), Pairing(5, 3), Pairing(4, 6)]
    not_last = dutch_pairings(field(6), rounds, round=3, rounds=5)
    assert not_last == [Pairing(3, 1), Pairing(4, 2), Pairing(5, 6)]


def test_colours_rank_by_score_before_pairing_number() -> None:
    # 3 and 4 both played Black then White (both would like Black); 4 has a
    # point, 3 none, so 4 ranks higher and has Black although 3 has the lower
    # number (caissify-pairings' own allocation gives it to 3).
    rounds = [Game(1, 1, 3, 1.0), Game(1, 2, 4, 0.0), Game(2, 3, 2, 0.0), Game(2, 4, 1, 0.0)]
    boards = dutch_pairings(field(4), rounds, round=3, rounds=3)
    assert boards == [Pairing(1, 2), Pairing(3, 4)]


def test_an_earlier_game_without_a_result_is_refused() -> None:
    with pytest.raises(PairingError, match="no result yet"):
        dutch_pairings(field(4), [Game(1, 1, 3, None), Game(1, 4, 2, 1.0)], round=2, rounds=3)
    with pytest.raises(PairingError, match="listed twice"):
        dutch_pairings([*field(2), *field(2)], [], round=1, rounds=3)
