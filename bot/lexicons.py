"""Word lists as the bot loads them: the engine's loader, with built DAWGs kept on disk.

A club's own list has no shipped DAWG; building one takes a few seconds, so the
first process to build it leaves it in the cache folder for the next start
(``CLUBBOT_CACHE_DIR``, else the user's cache folder). The engine only sees a
:class:`engines.lexicon.DawgStore`; the folder, the environment and the file
writes are the bot's.
"""

from __future__ import annotations

import os
from pathlib import Path

from bot.config import Settings
from engines.lexicon import Lexicon, load_lexicon


class DiskDawgStore:
    """Built DAWGs as ``<sha256>.dawg.gz`` files in one folder; failures only cost a rebuild."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory

    def _path(self, fingerprint: bytes) -> Path:
        return self.directory / f"{fingerprint.hex()}.dawg.gz"

    def read(self, fingerprint: bytes) -> bytes | None:
        """The stored DAWG for this list, or ``None`` when there is none (or it can't be read)."""
        try:
            return self._path(fingerprint).read_bytes()
        except OSError:
            return None

    def write(self, fingerprint: bytes, data: bytes) -> None:
        """Keep a DAWG for the next start; a read-only folder must not break a game."""
        path = self._path(fingerprint)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            partial = path.with_suffix(f".{os.getpid()}.tmp")
            partial.write_bytes(data)
            os.replace(partial, path)  # atomic: a concurrent reader never sees half a file
        except OSError:
            pass


def dawg_cache_dir(settings: Settings) -> Path:
    """Where built DAWGs are kept: ``CLUBBOT_CACHE_DIR``, else the user's cache folder."""
    if settings.clubbot_cache_dir is not None:
        return settings.clubbot_cache_dir / "lexicon"
    base = os.environ.get("XDG_CACHE_HOME") or (
        os.environ.get("LOCALAPPDATA") if os.name == "nt" else None
    )
    root = Path(base) if base else Path.home() / ".cache"
    return root / "clubbot" / "lexicon"


def load_word_list(name: str | None, settings: Settings) -> Lexicon:
    """A built-in list or a club's file (``engines.lexicon.load_lexicon``), its DAWG cached on disk."""
    return load_lexicon(name, store=DiskDawgStore(dawg_cache_dir(settings)))
