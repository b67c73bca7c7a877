"""Word lists as the bot loads them: the engine's loader, with built DAWGs kept on disk.

A club's own list has no shipped DAWG; building one takes a few seconds, so the
first process to build it leaves it in the cache folder for the next start
(``CLUBBOT_CACHE_DIR``, else the user's cache folder). The engine only sees a
:class:`engines.lexicon.DawgStore`; the folder, the environment and the file
writes are the bot's.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engines.lexicon import Lexicon, load_lexicon
from engines.scrabble.lexicon import Lexicon as WordSet

if TYPE_CHECKING:  # a worker process imports this module without the settings' stack
    from bot.config import Settings


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


@dataclass(frozen=True)
class WordListRef:
    """A word list to send to a worker process by name, not by value (a list with its
    graph is tens of megabytes; its name is a few bytes).

    ``loaded`` is the list the sender already holds: used as it is where the work runs
    in the sender's own process (a thread), and left out when the reference is sent to
    another, which loads the list by name through the same disk cache and keeps it
    (:meth:`lexicon`). A list from a loader of a test's own (``portable`` False) can
    only be used where it was loaded.
    """

    name: str
    cache_dir: Path | None
    loaded: WordSet | None = field(default=None, compare=False, repr=False)
    portable: bool = True

    def __getstate__(self) -> dict[str, Any]:
        if not self.portable:
            raise TypeError(f"the word list {self.name!r} can't be sent to another process")
        return {"name": self.name, "cache_dir": self.cache_dir, "portable": True}

    def __setstate__(self, state: dict[str, Any]) -> None:
        for key, value in {**state, "loaded": None}.items():
            object.__setattr__(self, key, value)

    def lexicon(self) -> Lexicon:
        """The list: the one sent along, else this process's copy (``load_lexicon`` keeps
        each list once per process, and reads a file again when it has changed; its
        word graph is built once per process too)."""
        if isinstance(self.loaded, Lexicon):
            return self.loaded
        store = DiskDawgStore(self.cache_dir) if self.cache_dir is not None else None
        return load_lexicon(self.name, store=store)

    def words(self) -> WordSet:
        """The list as the Scrabble engine takes it (any set of words a test gave too)."""
        return self.loaded if self.loaded is not None else self.lexicon()
