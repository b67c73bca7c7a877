import subprocess
import sys

from engines.boggle import Grid, roll


def run(*args):
    return subprocess.run(
        [sys.executable, "-m", "engines.boggle", *args], capture_output=True, text=True, timeout=120
    )


def test_solve_prints_every_word_and_score_best_first(tmp_path):
    words = tmp_path / "words.txt"
    words.write_text("cats\ncart\nquit\nquits\ndealt\nsteal\ncat\nrate\n", encoding="utf-8")
    done = run("solve", "C A T S/O R E N/D E A L/QU I T S", "--lexicon", str(words))
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        "DEALT 2",
        "QUITS 2",
        "STEAL 2",
        "CART 1",
        "CATS 1",
        "QUIT 1",
        "RATE 1",
    ]


def test_solve_with_minimum_three_includes_three_letter_words(tmp_path):
    words = tmp_path / "words.txt"
    words.write_text("cat\ncats\n", encoding="utf-8")
    done = run("solve", "CATS/ORES/DEAL/QITS", "--lexicon", str(words), "--min", "3")
    assert done.stdout.splitlines() == ["CAT 1", "CATS 1"]


def test_solve_uses_the_default_list_when_none_is_given():
    done = run("solve", "T U R N/X X X O/X X R V/X X E X")
    assert "TURNOVER 11" in done.stdout.splitlines()


def test_solve_reports_a_bad_grid_without_a_traceback():
    done = run("solve", "A B/C")
    assert done.returncode == 2
    assert "error:" in done.stderr and "Traceback" not in done.stderr


def test_roll_prints_the_seeded_grid_in_parse_format():
    done = run("roll", "--size", "5", "--seed", "7")
    assert done.returncode == 0, done.stderr
    printed = done.stdout.strip()
    assert Grid.parse(printed) == roll("big25", 7)
    assert printed.count("/") == 4


def test_roll_accepts_another_dice_set_of_that_size():
    done = run("roll", "--size", "4", "--dice", "new16", "--seed", "3")
    assert done.stdout.strip() == str(roll("new16", 3))


def test_roll_refuses_dice_of_another_size():
    done = run("roll", "--size", "4", "--dice", "big25", "--seed", "3")
    assert done.returncode == 2
    assert "5x5" in done.stderr
