"""pytest plugin: no secret reaches the log, in any test of the whole run.

Registered from ``tests/conftest.py``. From the start of the session a handler
on the root logger keeps every record's text (message and traceback). Loggers
are opened as a production deployment at ``LOG_LEVEL=DEBUG`` would have them:
the bot's own (``clubbot``, ``bot.*``, ``cogs.*``, ``engines.*``) at DEBUG,
discord.py and aiosqlite capped at INFO (``bot.config.configure_logging`` caps
them so). Bot subprocesses hand their log files in with :func:`scan_external`.

At the end of the session all of it is searched for the bot tokens and for every
secret a test registered with :func:`register_secret` (a rack, a Henyo word) the
way every leak check of the tests looks (``tests/leaks.py``: as whole words,
ignoring case, accents, punctuation and spacing); any hit fails the session
(exit status 1) with a report that names where it was found but never prints
the secret itself.
"""

from __future__ import annotations

import logging
import re
import threading
from dataclasses import dataclass, field
from typing import Any

import pytest

from engines.henyo.text import normalize
from tests.leaks import redact, secret_pattern

# The tokens the loopback hands the bot when a test does not choose one.
DEFAULT_TOKENS = ("test-token",)
BOT_LOGGERS = ("clubbot", "bot", "cogs", "engines")
CAPPED_LOGGERS = ("discord", "aiosqlite")


@dataclass
class LeakScanner:
    """Keeps log text and secrets; finds secrets in the text."""

    secrets: dict[str, None] = field(default_factory=dict)
    texts: list[tuple[str, str]] = field(default_factory=list)  # (where, text)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def register(self, secret: str) -> None:
        """Look for ``secret`` (ignored when shorter than ``tests.leaks.MIN_SECRET_LENGTH``)."""
        if secret_pattern([secret]) is not None:
            with self._lock:
                self.secrets[secret] = None

    def add(self, where: str, text: str) -> None:
        with self._lock:
            self.texts.append((where, text))

    def pattern(self) -> re.Pattern[str] | None:
        """Every secret in one pattern over normalised text (``tests.leaks.secret_pattern``)."""
        with self._lock:
            secrets = list(self.secrets)
        return secret_pattern(secrets)

    def leaks(self) -> list[str]:
        """One line per leaking log line: where it was, normalised, every secret blacked out."""
        pattern = self.pattern()
        if pattern is None:
            return []
        with self._lock:
            texts = list(self.texts)
        found = []
        for where, text in texts:
            for line in text.splitlines():
                if pattern.search(normalize(line)):
                    found.append(f"{where}: {redact(line, pattern)[:300]}")
        return found


SCANNER = LeakScanner()
for _token in DEFAULT_TOKENS:
    SCANNER.register(_token)


def register_secret(secret: str) -> None:
    """This text must never appear in any log line of the run."""
    SCANNER.register(secret)


def scan_external(text: str, *, where: str) -> None:
    """Log output from elsewhere (a bot subprocess's log file) to scan too."""
    SCANNER.add(where, text)


class _KeepingHandler(logging.Handler):
    def __init__(self, scanner: LeakScanner) -> None:
        super().__init__(level=logging.DEBUG)
        self.scanner = scanner
        self._formatter = logging.Formatter()

    def emit(self, record: logging.LogRecord) -> None:
        try:
            text = record.getMessage()
            if record.exc_info:
                text += "\n" + self._formatter.formatException(record.exc_info)
            if record.stack_info:
                text += "\n" + record.stack_info
        except Exception:  # a broken log call is the caller's bug, not a leak
            return
        self.scanner.add(f"log {record.name}", text)


_HANDLER = _KeepingHandler(SCANNER)


def pytest_configure(config: pytest.Config) -> None:
    root = logging.getLogger()
    if _HANDLER not in root.handlers:
        root.addHandler(_HANDLER)
    for name in BOT_LOGGERS:
        logger = logging.getLogger(name)
        if logger.level == logging.NOTSET:
            logger.setLevel(logging.DEBUG)
    for name in CAPPED_LOGGERS:
        logger = logging.getLogger(name)
        if logger.level == logging.NOTSET:
            logger.setLevel(logging.INFO)


def pytest_unconfigure(config: pytest.Config) -> None:
    logging.getLogger().removeHandler(_HANDLER)


@pytest.hookimpl(trylast=True)
def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    leaks = SCANNER.leaks()
    workeroutput = getattr(session.config, "workeroutput", None)
    if workeroutput is not None:
        # A pytest-xdist worker: the controller reports them and fails the run.
        workeroutput[_WORKER_OUTPUT] = leaks
        return
    leaks += _FROM_WORKERS
    session.config.stash[_LEAKS] = leaks
    if leaks and session.exitstatus == pytest.ExitCode.OK:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node: Any, error: object) -> None:
    """pytest-xdist's controller: a worker finished; keep the leaks it found."""
    _FROM_WORKERS.extend(getattr(node, "workeroutput", {}).get(_WORKER_OUTPUT, []))


def pytest_terminal_summary(terminalreporter, exitstatus: int, config: pytest.Config) -> None:  # type: ignore[no-untyped-def]
    leaks = config.stash.get(_LEAKS, [])
    if not leaks:
        return
    terminalreporter.section("secrets in the log", sep="=", red=True, bold=True)
    terminalreporter.line(
        f"{len(leaks)} log line(s) contain a bot token or a registered secret:", red=True
    )
    for line in leaks[:50]:
        terminalreporter.line(f"  {line}")


_LEAKS = pytest.StashKey[list]()
_WORKER_OUTPUT = "clubbot_log_leaks"
_FROM_WORKERS: list[str] = []
