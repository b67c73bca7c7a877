"""The event exports: FIDE TRF16 player lines (fixed columns) and tsh results read back."""

from __future__ import annotations

from datetime import date

from engines.pairings import Entrant, Game, round_robin, standings
from engines.pairings.trf import trf_player_line, trf_report
from engines.pairings.tsh import parse_tsh_results, tsh_results

ENTRANTS = [
    Entrant(id=11, rating=2105, seed=1),
    Entrant(id=22, rating=1950.4, seed=2),
    Entrant(id=33, rating=1800, seed=3),
    Entrant(id=44, rating=0, seed=4),
    Entrant(id=55, rating=1500, seed=5),
]
NAMES = {
    11: "Magnus, Alpha",
    22: "Reyes, Bea",
    33: "Santos, Carlo",
    44: "A Very Long Name That Does Not Fit In Thirty-Three",
    55: "Cruz, Dan",
}


def chess_games() -> list[Game]:
    """Three rounds of the five-entrant round robin: a win, a draw, a loss,
    a forfeit, byes, and round 3 with one game not played yet."""
    rounds = round_robin(ENTRANTS, colours=True)
    results = {1: [1.0, 0.5], 2: [0.0, 1.0], 3: [None, 0.5]}
    games = []
    for r in (1, 2, 3):
        boards = [p for p in rounds[r - 1] if p.second is not None]
        for p in rounds[r - 1]:
            if p.second is None:
                games.append(Game(r, p.first, None, 1.0))
        for p, score in zip(boards, results[r], strict=True):
            forfeit = r == 2 and score == 1.0
            games.append(Game(r, p.first, p.second, score, forfeit=forfeit))
    return games


def cell(line: str, k: int) -> tuple[str, str, str]:
    start = 91 + 10 * k  # column 92, 0-based
    padded = line.ljust(start + 8)
    return padded[start : start + 4], padded[start + 5], padded[start + 7]


def test_a_trf_player_line_has_fide_columns() -> None:
    line = trf_player_line(7, "Reyes, Bea", 1950.4, 2.5, 3, [(12, "w", "1"), (0, "-", "U")])
    assert line[0:3] == "001"
    assert line[4:8] == "   7"
    assert line[14:47] == "Reyes, Bea".ljust(33)
    assert line[48:52] == "1950"
    assert line[80:84] == " 2.5"
    assert line[85:89] == "   3"
    assert cell(line, 0) == ("0012", "w", "1")
    assert cell(line, 1) == ("0000", "-", "U")
    assert len(line) == 109  # the last result, in column 99 + 10


def test_trf_report_of_a_round_robin() -> None:
    games = chess_games()
    text = trf_report(
        ENTRANTS,
        games,
        names=NAMES,
        tournament="Club  Championship\n2026",
        kind="Round robin",
        rounds=5,
        start=date(2026, 11, 1),
    )
    lines = text.splitlines()
    assert lines[:5] == [
        "012 Club Championship 2026",
        "042 2026/11/01",
        "062 5",
        "092 Round robin",
        "XXR 5",
    ]
    players = [ln for ln in lines if ln.startswith("001")]
    assert len(players) == 5
    by_rank = {int(ln[4:8]): ln for ln in players}
    table = {s.entrant: s for s in standings(ENTRANTS, games, game_kind="chess")}
    codes = {"1": 1.0, "=": 0.5, "0": 0.0, "+": 1.0, "-": 0.0, "U": 1.0, " ": 0.0}
    for start_rank, e in enumerate(ENTRANTS, start=1):
        ln = by_rank[start_rank]
        assert ln[14:47].rstrip() == NAMES[e.id][:33]
        assert ln[48:52] == ("    " if e.rating == 0 else f"{round(e.rating):>4}")
        # The points column agrees with the results written per round, and with the standings.
        written = sum(codes[cell(ln, k)[2]] for k in range(3))
        assert float(ln[80:84]) == written == table[e.id].points
        assert int(ln[85:89]) == table[e.id].rank
    # Round 1 of the five-table: 1 bye, 2-5 (1-0), 3-4 (draw).
    assert cell(by_rank[1], 0) == ("0000", "-", "U")
    assert cell(by_rank[2], 0) == ("0005", "w", "1")
    assert cell(by_rank[5], 0) == ("0002", "b", "0")
    assert cell(by_rank[3], 0) == ("0004", "w", "=")
    # Round 2: 5-3 (0-1), 1-2 forfeit won by White.
    assert cell(by_rank[1], 1) == ("0002", "w", "+")
    assert cell(by_rank[2], 1) == ("0001", "b", "-")
    # Round 3: 2 has the bye, 3-1 is not played yet, 4-5 drawn.
    assert cell(by_rank[3], 2) == ("0001", "w", " ")
    assert cell(by_rank[1], 2) == ("0003", "b", " ")
    assert cell(by_rank[2], 2) == ("0000", "-", "U")


def test_trf_marks_a_round_without_a_game() -> None:
    games = [Game(1, 11, 22, 1.0), Game(2, 11, 33, 0.5)]
    text = trf_report(ENTRANTS[:3], games, names=NAMES)
    line = next(ln for ln in text.splitlines() if ln.startswith("001    2"))
    assert cell(line, 1) == ("0000", "-", "Z")


def scrabble_games() -> list[Game]:
    return [
        Game(1, 11, 22, 1.0, spread=62, scores=(412, 350)),
        Game(1, 33, 44, 0.0, spread=-15, scores=(380, 395)),
        Game(1, 55, None, 1.0, spread=50),
        Game(2, 44, 11, 1.0, spread=8),  # board scores not stored
        Game(2, 22, 55, 0.0, spread=-50, forfeit=True),
        Game(2, 33, None, 1.0, spread=50),
        Game(3, 11, 33, None),
    ]


def test_tsh_results_read_back() -> None:
    games = scrabble_games()
    names = {**NAMES, 55: "Team 7"}
    text = tsh_results(ENTRANTS, games, names=names, withdrawn=frozenset({22}))
    lines = parse_tsh_results(text)
    assert [ln.name for ln in lines] == [
        "Magnus, Alpha",
        "Reyes, Bea",
        "Santos, Carlo",
        "A Very Long Name That Does Not Fit In Thirty-Three",
        "Team 7.",
    ]
    assert [ln.rating for ln in lines] == [2105, 1950, 1800, 0, 1500]
    one, two, three, four, five = lines
    assert one.opponents == (2, 4, 3) and one.scores == (412, 0) and one.p12 == (1, 2, 1)
    assert two.opponents == (1, 0, 0) and two.scores == (350, -50, 0) and two.p12 == (2, 0, 0)
    assert two.off and not one.off
    assert three.opponents == (4, 0, 1) and three.scores == (380, 50) and three.p12 == (1, 0, 2)
    assert four.opponents == (3, 1, 0) and four.scores == (395, 8, 0)
    assert five.opponents == (0, 0, 0) and five.scores == (50, 50, 0)
    # What tsh computes from the file agrees with the engine's spread.
    table = {s.entrant: s for s in standings(ENTRANTS, games, game_kind="scrabble")}
    for e, ln in zip(ENTRANTS, lines, strict=True):
        spread = 0
        for k, (opp, own) in enumerate(zip(ln.opponents, ln.scores, strict=False)):
            if opp == 0:
                spread += own
            else:
                theirs = lines[opp - 1].scores[k]
                spread += own - theirs
        assert spread == table[e.id].spread, e.id


def test_tsh_results_of_an_empty_event() -> None:
    text = tsh_results(ENTRANTS[:2], [], names=NAMES)
    assert text == "Magnus, Alpha 2105;; p12\nReyes, Bea 1950;; p12\n"
    assert [ln.opponents for ln in parse_tsh_results(text)] == [(), ()]


def test_tsh_writes_an_unplayed_result_with_the_sign_tsh_reads() -> None:
    games = [Game(1, 11, 22, 1.0, forfeit=True), Game(1, 33, None, 1.0)]  # spreads not stored
    one, two, three = parse_tsh_results(tsh_results(ENTRANTS[:3], games, names=NAMES))
    assert (one.opponents, one.scores) == ((0,), (50,))
    assert (two.opponents, two.scores) == ((0,), (-50,))
    assert (three.opponents, three.scores) == ((0,), (50,))


def _tsh_points(lines: list) -> list[float]:
    """Each line's points as tsh reads them: a played game's result from the two
    board scores, an unplayed one (opponent 0) from its score's sign."""
    points = []
    for ln in lines:
        total = 0.0
        for k, (opp, own) in enumerate(zip(ln.opponents, ln.scores, strict=False)):
            theirs = 0 if opp == 0 else lines[opp - 1].scores[k]
            total += 1.0 if own > theirs else 0.5 if own == theirs else 0.0
        points.append(total)
    return points


def test_tsh_read_back_gives_the_tournaments_points_for_a_resignation_a_bye_and_a_forfeit() -> None:
    """QA F30: a resignation won at 0-0 is not written "0 0" (a tie in tsh)."""
    games = [
        Game(1, 11, 22, 0.0, spread=0, scores=(0, 0)),  # 11 resigned before a tile was placed
        Game(1, 33, None, 1.0, spread=50),  # a bye
        Game(2, 22, 33, 1.0, spread=50, forfeit=True),  # 33 withdrew: forfeited
        Game(2, 11, None, 1.0, spread=50),
        Game(3, 33, 11, 0.5, spread=0, scores=(300, 280)),  # a director's draw
        Game(3, 22, None, 1.0, spread=50),
    ]
    entrants = ENTRANTS[:3]
    lines = parse_tsh_results(tsh_results(entrants, games, names=NAMES))
    one, two, _three = lines
    assert (one.scores[0], two.scores[0]) == (0, 1)  # the winner by the least margin
    table = {s.entrant: s for s in standings(entrants, games, game_kind="scrabble")}
    assert _tsh_points(lines) == [table[e.id].points for e in entrants]
    assert _tsh_points(lines) == [1.5, 3.0, 1.5]
