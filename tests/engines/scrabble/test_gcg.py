"""GCG: parsing every line type, export, and the conformance set of real games."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import pytest

from engines.scrabble import ScrabbleGame, ScrabbleOptions
from engines.scrabble.gcg import (
    GcgError,
    check_file,
    check_game,
    decode_gcg,
    export_gcg,
    main,
    parse_gcg,
)
from tests.engines.scrabble.support import (
    AcceptAll,
    RejectLetter,
    conformance_dir,
    conformance_files,
    play_randomly,
    repo_root,
)

FILES = conformance_files()


# -- the conformance set ---------------------------------------------------------------


def test_conformance_set_is_present_with_all_91_games():
    conformance_dir()
    assert len(FILES) == 91


@pytest.mark.parametrize("path", FILES or [None], ids=lambda p: p.name if p else "missing")
def test_recorded_game_rescored_from_geometry_matches_the_file(path: Path | None):
    conformance_dir()
    assert path is not None
    result = check_file(path)
    assert result.ok, str(result)
    assert result.plays > 0


def test_check_command_passes_every_conformance_game():
    conformance_dir()
    completed = subprocess.run(
        [sys.executable, "-m", "engines.scrabble.gcg", "check", *map(str, FILES)],
        cwd=repo_root(),
        capture_output=True,
        text=True,
        check=False,
    )
    lines = completed.stdout.strip().splitlines()
    assert lines[-1] == "91 passed, 0 failed"
    assert completed.returncode == 0
    assert all(line.startswith("OK ") for line in lines[:-1])


# -- the checker on crafted records ------------------------------------------------------

HEADER = "#player1 ann Ann A\n#player2 bob Bob B\n"


def write(tmp_path: Path, text: str, name: str = "game.gcg") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_wrong_play_score_is_reported_with_line_and_both_figures(tmp_path):
    path = write(tmp_path, HEADER + ">ann: QUIZEST 8H QUIZ +40 40\n")
    result = check_file(path)
    assert not result.ok
    assert str(result) == "FAIL game.gcg: line 3: expected +40, computed +44"


def test_wrong_running_total_is_reported(tmp_path):
    path = write(tmp_path, HEADER + ">ann: QUIZEST 8H QUIZ +44 45\n")
    assert str(check_file(path)) == "FAIL game.gcg: line 3: expected total 45, computed 44"


def test_play_that_breaks_the_rules_is_reported(tmp_path):
    path = write(tmp_path, HEADER + ">ann: QUIZEST 7H QUIZ +44 44\n")
    result = check_file(path)
    assert not result.ok and "centre square" in result.message


def test_placed_tile_missing_from_the_recorded_rack_is_reported(tmp_path):
    path = write(tmp_path, HEADER + ">ann: QUAZEST 8H QUIZ +44 44\n")
    assert "you have no I" in check_file(path).message


def test_check_command_prints_fail_lines_and_exits_non_zero(tmp_path, capsys):
    good = write(tmp_path, HEADER + ">ann: QUIZEST 8H QUIZ +44 44\n", "good.gcg")
    bad = write(tmp_path, HEADER + ">ann: QUIZEST 8H QUIZ +45 45\n", "bad.gcg")
    assert main(["check", str(good), str(bad)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out == [
        "OK good.gcg: 1 plays",
        "FAIL bad.gcg: line 3: expected +45, computed +44",
        "1 passed, 1 failed",
    ]


def test_check_command_without_files_shows_usage():
    assert main([]) == 2


def test_unreadable_file_fails_instead_of_crashing(tmp_path):
    result = check_file(tmp_path / "absent.gcg")
    assert not result.ok


EVERY_LINE_TYPE = """#character-encoding UTF-8
#player1 ann Ann Smith
#player2 bob Bob Jones
#title Every line type
#lexicon NWL23
>ann: AEIQRTU 8D QUAI.T +0 0
#note a note
  a continuation line of the note
>ann: ?AEIRTU 8G AbUT +10 10
>bob: EEGIRST - +0 0
>ann: AEIRTUV -AEIV +0 10
>bob: EEGIRST -4 +0 0
>ann: AE --  -3 7
>bob: UNKNOWN (challenge) +5 5
>bob: EEGIRST h2 UPTIGHT +20 25 UP, TI
>ann:  (time) -10 -3
>bob: (AEIN) +8 33
>ann: AEIN (AEIN) -4 -7
"""


def test_parser_reads_every_line_type():
    record = parse_gcg(EVERY_LINE_TYPE)
    assert [(p.number, p.nick, p.name) for p in record.players] == [
        (1, "ann", "Ann Smith"),
        (2, "bob", "Bob Jones"),
    ]
    assert record.title == "Every line type" and record.lexicon == "NWL23"
    kinds = [e.kind for e in record.events]
    assert kinds == [
        "play",
        "play",
        "pass",
        "exchange",
        "exchange",
        "withdraw",
        "challenge_bonus",
        "play",
        "time_penalty",
        "end_points",
        "rack_penalty",
    ]
    exchange, count_only = record.events[3], record.events[4]
    assert (exchange.tiles, exchange.count) == ("AEIV", 4)
    assert (count_only.tiles, count_only.count) == (None, 4)
    blank_play = record.events[1]
    assert (
        blank_play.rack,
        blank_play.position,
        blank_play.word,
        blank_play.delta,
        blank_play.total,
    ) == (
        "?AEIRTU",
        "8G",
        "AbUT",
        10,
        10,
    )
    assert record.events[7].extra == ("UP,", "TI")
    assert record.events[8].rack is None and record.events[8].delta == -10
    assert record.events[9].tiles == "AEIN" and record.events[9].rack is None
    assert record.events[10].tiles == "AEIN" and record.events[10].rack == "AEIN"


def test_quackle_dash_zero_is_a_pass():
    record = parse_gcg(HEADER + ">ann: AEIRTUV -0 +0 0\n")
    assert record.events[0].kind == "pass"


def test_crlf_and_byte_order_mark_are_accepted():
    text = (HEADER + ">ann: QUIZEST 8H QUIZ +44 44\n").replace("\n", "\r\n")
    record = parse_gcg(decode_gcg(b"\xef\xbb\xbf" + text.encode("utf-8")))
    assert [p.nick for p in record.players] == ["ann", "bob"]
    assert check_game(record, "x").ok


def test_legacy_latin1_files_are_decoded():
    data = ("#player1 jose Jos\xe9\n#player2 bob Bob\n>jose: QUIZEST 8H QUIZ +44 44\n").encode(
        "latin-1"
    )
    record = parse_gcg(decode_gcg(data))
    assert record.players[0].name == "José"


def test_event_without_a_total_is_an_error_with_its_line():
    with pytest.raises(GcgError, match="line 3"):
        parse_gcg(HEADER + ">ann: QUIZEST 8H QUIZ\n")


def test_phony_withdrawal_written_as_plus_zero_takes_the_amount_from_the_total():
    text = (
        HEADER
        + ">ann: QUIZEST 8H QUIZ +44 44\n>ann: QUIZEST -- +0 0\n>bob: AEIRTUV 8D VIRTUE +26 26\n"
    )
    assert check_game(parse_gcg(text), "x").ok


def test_old_single_value_out_play_with_the_matching_deduction_passes():
    text = HEADER + ">ann: QUIZEST 8H QUIZ +44 44\n>ann: (VT) +5 49\n>bob: VT (VT) -5 -5\n"
    assert check_game(parse_gcg(text), "x").ok


def test_out_play_points_must_be_once_or_twice_the_tiles():
    text = HEADER + ">ann: QUIZEST 8H QUIZ +44 44\n>ann: (VT) +7 51\n"
    assert str(check_game(parse_gcg(text), "x")) == "FAIL x: line 4: expected +7, computed +10"


# -- export -------------------------------------------------------------------------------


def finished_game(seats: int, challenge: str, seed: int) -> ScrabbleGame:
    game = ScrabbleGame.new(ScrabbleOptions(seats=seats, challenge=challenge), seed)
    lexicon = AcceptAll() if challenge == "void" else RejectLetter("Q")
    play_randomly(game, random.Random(seed), lexicon)
    return game


@pytest.mark.parametrize(
    ("seats", "challenge", "seed"),
    [(2, "double", 1), (3, "single", 2), (4, "void", 3), (2, "double", 4)],
)
def test_exported_game_passes_the_checker_and_ends_on_the_final_scores(seats, challenge, seed):
    game = finished_game(seats, challenge, seed)
    names = [f"Player {n}" for n in range(seats)]
    record = parse_gcg(export_gcg(game, names, lexicon="ENABLE"))
    result = check_game(record, "export")
    assert result.ok, str(result)
    finals = {event.nick: event.total for event in record.events}
    assert [finals.get(f"Player_{n}", 0) for n in range(seats)] == game.scores
    assert [p.nick for p in record.players] == [f"Player_{s}" for s in game.turn_order]
    assert record.lexicon == "ENABLE"


def test_export_of_a_running_game_hides_racks_and_exchanged_tiles():
    game = ScrabbleGame.new(ScrabbleOptions(turn_order="fixed"), 3)
    rack = game.racks[0]
    game.exchange(0, rack[:3])
    text = export_gcg(game, ["Ann", "Bob"])
    assert text.splitlines()[-1] == ">Ann: -3 +0 0"
    assert rack not in text


def test_export_names_become_unique_single_token_nicks():
    game = ScrabbleGame.new(ScrabbleOptions(seats=3, turn_order="fixed"), 3)
    text = export_gcg(game, ["Ann Lee", "Ann Lee", "Bo: B"])
    assert "#player1 Ann_Lee Ann Lee" in text
    assert "#player2 Ann_Lee_2 Ann Lee" in text
    assert "#player3 Bo_B Bo: B" in text


def test_export_needs_a_name_per_seat():
    game = ScrabbleGame.new(ScrabbleOptions(), 3)
    with pytest.raises(ValueError):
        export_gcg(game, ["only one"])
