"""The session-wide log scan: it finds secrets, only as whole words, and fails the run."""

from __future__ import annotations

import logging
import os
import subprocess
import sys
import textwrap
from pathlib import Path

from tests.reliability.logscan import SCANNER, LeakScanner

REPO = Path(__file__).resolve().parents[2]


def test_secrets_are_found_as_whole_words_ignoring_case_and_never_repeated_in_the_report() -> None:
    scanner = LeakScanner()
    scanner.register("ate")
    scanner.register("QZX-token.abc")
    scanner.register("ab")  # too short to tell from ordinary text: ignored
    scanner.add("log a", "created a game; the rack was ordered")
    scanner.add("log b", "the word is ATE, shh")
    scanner.add("log c", "auth qzx-token.abc failed")
    scanner.add("log d", "tab stop")
    leaks = scanner.leaks()
    assert [line.split(":")[0] for line in leaks] == ["log b", "log c"]
    assert all("ATE" not in line and "qzx-token" not in line for line in leaks)


def test_the_bots_own_debug_lines_and_discords_info_lines_are_scanned() -> None:
    before = len(SCANNER.texts)
    logging.getLogger("bot.services.example").debug("a debug line from the bot")
    logging.getLogger("discord.gateway").info("an info line from discord.py")
    logging.getLogger("discord.gateway").debug(
        "a debug line from discord.py, which production caps"
    )
    texts = [text for _, text in SCANNER.texts[before:]]
    assert "a debug line from the bot" in texts and "an info line from discord.py" in texts
    assert "a debug line from discord.py, which production caps" not in texts


def _run_pytest(tmp_path: Path, body: str, *options: str) -> subprocess.CompletedProcess[str]:
    test_file = tmp_path / "test_sample.py"
    test_file.write_text(textwrap.dedent(body), encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "-p",
            "tests.reliability.logscan",
            "--rootdir",
            str(tmp_path),
            *options,
            str(test_file),
        ],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_a_secret_logged_by_any_test_fails_the_whole_run_without_printing_it(
    tmp_path: Path,
) -> None:
    leaky = _run_pytest(
        tmp_path,
        """
        import logging
        from tests.reliability.logscan import register_secret

        def test_logs_a_rack():
            register_secret("QUIZJAX")
            logging.getLogger("bot.services.scrabble").debug("dealt quizjax to seat 1")
    """,
    )
    assert leaky.returncode == 1, leaky.stdout + leaky.stderr
    assert "secrets in the log" in leaky.stdout and "1 passed" in leaky.stdout
    assert "quizjax" not in leaky.stdout.lower()

    clean = _run_pytest(
        tmp_path,
        """
        import logging
        from tests.reliability.logscan import register_secret

        def test_logs_nothing_secret():
            register_secret("QUIZJAX")
            logging.getLogger("bot.services.scrabble").debug("dealt the racks")
    """,
    )
    assert clean.returncode == 0, clean.stdout + clean.stderr


def test_a_secret_logged_in_a_pytest_xdist_worker_fails_the_run_the_controller_reports(
    tmp_path: Path,
) -> None:
    leaky = _run_pytest(
        tmp_path,
        """
        import logging
        from tests.reliability.logscan import register_secret

        def test_logs_nothing_secret():
            logging.getLogger("bot.services.scrabble").debug("dealt the racks")

        def test_logs_a_rack():
            register_secret("QUIZJAX")
            logging.getLogger("bot.services.scrabble").debug("dealt quizjax to seat 1")
    """,
        "-n",
        "2",
    )
    assert leaky.returncode == 1, leaky.stdout + leaky.stderr
    assert "secrets in the log" in leaky.stdout and "2 passed" in leaky.stdout
    assert "quizjax" not in leaky.stdout.lower()
