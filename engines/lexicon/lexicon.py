"""Word lists for the word games: the built-in English list or a club's own file.

A ``Lexicon`` keeps its sorted words packed in one string per four-letter
start (:class:`PackedWords`, about 5 MiB for 250k words instead of 17 MiB as a
tuple of strings): membership and prefix queries search one bucket, iteration
is in order. The DAWG, which solvers and move generators walk, is loaded or built
on first use: shipped prebuilt for the built-in list, and built (a few
seconds) for other lists, unless the caller's :class:`DawgStore` has it: the
bot keeps built DAWGs on disk (``bot/lexicons.py``); the engine itself reads no
environment and writes no file.
"""

from __future__ import annotations

import gzip
import hashlib
import os
import re
import threading
from collections.abc import Callable, Iterable, Iterator
from importlib import resources
from pathlib import Path
from typing import Protocol, TypeAlias, TypeVar

from engines.lexicon.dawg import Dawg, DawgFormatError, build_dawg

DEFAULT_NAME = "default"
_DATA_PACKAGE = "engines.lexicon.data"
_BUILTIN_FILES = {DEFAULT_NAME: ("default.txt.gz", "default.dawg.gz")}

_WORD_LINE = re.compile(r"^[ \t]*([a-z]+)[ \t]*$", re.MULTILINE)
T = TypeVar("T")


class LexiconError(ValueError):
    """A word list that cannot be used; the message can be shown to a moderator."""


class DawgStore(Protocol):
    """Where built DAWGs are kept between processes, by the list's sha256.

    ``read`` answers ``None`` when it has none; a store that cannot write
    simply does not (the store only saves the time of a rebuild).
    """

    def read(self, fingerprint: bytes) -> bytes | None:
        """The stored DAWG of the list with ``fingerprint``, or None."""

    def write(self, fingerprint: bytes, data: bytes) -> None:
        """Keep the DAWG of the list with ``fingerprint`` (a store that cannot write does not)."""


_KEY = slice(0, 4)  # words are bucketed by their first four letters
# One bucket of a sorted text: the lines sharing their first four letters, or a
# shorter word alone.
_BUCKET = re.compile(r"^(?:(.{4}).*\n(?:\1.*\n)*|.{1,3}\n)", re.MULTILINE)


class PackedWords:
    """A sorted word list kept as some 18,000 strings, one per four-letter start:
    ``{"quiz": "\\nquiz\\nquizzed\\nquizzer\\n…", …}`` (5 MiB for 250k words, where
    a tuple of strings takes 17 MiB). A word is in the list when ``"\\nword\\n"`` is
    in its bucket: a search of mostly a few hundred bytes in C (2–4 µs a word)."""

    __slots__ = ("_buckets", "_count", "_short_prefixes")

    def __init__(self, sorted_words: Iterable[str] | str) -> None:
        """``sorted_words``: the words, or their text (one a line, each line ending in
        ``\\n``). A regular expression cuts the text into buckets in C, so a
        quarter-million word strings never exist at once (they would stay in the
        process's memory) and the built-in list is packed in about 30 ms."""
        text = sorted_words if isinstance(sorted_words, str) else "\n".join(sorted_words) + "\n"
        if not text.endswith("\n"):
            text += "\n"
        # Sorted words give the buckets in sorted order (dicts keep insertion order).
        buckets: dict[str, str] = {}
        for match in _BUCKET.finditer(text):
            chunk = match.group(0)
            buckets[match.group(1) or chunk[:-1]] = "\n" + chunk
        self._buckets = buckets
        self._count = text.count("\n") if buckets else 0  # the input has no empty lines
        self._short_prefixes: frozenset[str] | None = None  # made on the first short prefix asked

    def __len__(self) -> int:
        return self._count

    def __iter__(self) -> Iterator[str]:
        for chunk in self._buckets.values():
            yield from chunk[1:-1].split("\n")

    def __contains__(self, word: object) -> bool:
        if not isinstance(word, str) or not word or "\n" in word:
            return False
        chunk = self._buckets.get(word[_KEY])
        return chunk is not None and f"\n{word}\n" in chunk

    def has_prefix(self, prefix: str) -> bool:
        """Whether some word starts with ``prefix`` (the empty prefix always does)."""
        if "\n" in prefix:
            return False
        if len(prefix) >= _KEY.stop:
            chunk = self._buckets.get(prefix[_KEY])
            return chunk is not None and f"\n{prefix}" in chunk
        if self._short_prefixes is None:
            self._short_prefixes = frozenset(
                key[:n] for key in self._buckets for n in range(1, _KEY.stop)
            )
        return prefix == "" or prefix in self._short_prefixes

    def with_prefix(self, prefix: str) -> Iterator[str]:
        """The words starting with ``prefix``, in order."""
        if "\n" in prefix:
            return
        if len(prefix) < _KEY.stop:
            for key in self._prefix_keys(prefix):
                yield from self._buckets[key][1:-1].split("\n")
            return
        chunk = self._buckets.get(prefix[_KEY])
        if chunk is None:
            return
        at = chunk.find(f"\n{prefix}")
        while at >= 0:
            end = chunk.index("\n", at + 1)
            yield chunk[at + 1 : end]
            at = end if chunk.startswith(prefix, end + 1) else -1

    def _prefix_keys(self, prefix: str) -> list[str]:
        """The bucket keys starting with a prefix shorter than a key, in order."""
        return [key for key in self._buckets if key.startswith(prefix)]

    def text(self) -> str:
        """The list as one word per line (what a word-list file holds)."""
        return "".join(chunk[1:] for chunk in self._buckets.values())


class Lexicon:
    """An immutable set of lowercase a–z words with prefix queries."""

    def __init__(
        self,
        name: str,
        sorted_words: Iterable[str] | str,
        *,
        source: str,
        store: DawgStore | None = None,
    ) -> None:
        """Prefer ``load_lexicon`` or ``Lexicon.from_words``: this trusts its input
        (any iterable, or their text one a line) to be unique, sorted and lowercase
        a–z only."""
        self._sorted: PackedWords = PackedWords(sorted_words)
        if not len(self._sorted):
            raise LexiconError(f"The word list {name!r} has no words.")
        self.name = name
        self.source = source
        self._store = store
        self._fingerprint: bytes | None = None
        self._dawg: Dawg | None = None
        self._derived: dict[str, object] = {}
        self._lock = threading.RLock()  # derived() builders may read .dawg

    @classmethod
    def from_words(cls, words: Iterable[str], name: str = "custom") -> Lexicon:
        """A list held in memory (tests, tools): filtered like a file, its DAWG never stored."""
        kept = normalise_word_lines(list(words))
        if not kept:
            raise LexiconError(f"The word list {name!r} has no usable words (letters a–z only).")
        return cls(name, kept, source="memory")

    def __repr__(self) -> str:
        return f"Lexicon(name={self.name!r}, words={len(self)})"

    def __len__(self) -> int:
        return len(self._sorted)

    def __iter__(self) -> Iterator[str]:
        return iter(self._sorted)

    def __contains__(self, word: object) -> bool:
        if not isinstance(word, str):
            return False
        if not word.islower():
            word = word.lower()
        return word in self._sorted

    def has_prefix(self, prefix: str) -> bool:
        """Whether some word starts with ``prefix`` (case-insensitive)."""
        return self._sorted.has_prefix(prefix.lower())

    def words_with_prefix(self, prefix: str) -> Iterator[str]:
        """The words starting with ``prefix`` (case-insensitive), in order."""
        return self._sorted.with_prefix(prefix.lower())

    @property
    def fingerprint(self) -> str:
        """Hex sha256 of the list: store it with a game to know which list judged it."""
        return self._fingerprint_bytes().hex()

    def _fingerprint_bytes(self) -> bytes:
        if self._fingerprint is None:
            self._fingerprint = hashlib.sha256(self._sorted.text().encode("ascii")).digest()
        return self._fingerprint

    @property
    def dawg(self) -> Dawg:
        """The word list as a DAWG (loaded or built on first use, then kept)."""
        if self._dawg is None:
            with self._lock:
                if self._dawg is None:
                    self._dawg = self._load_or_build_dawg()
        return self._dawg

    def has_derived(self, key: str) -> bool:
        """Whether ``derived(key, ...)`` is built already (answers without building)."""
        return key in self._derived

    def derived(self, key: str, build: Callable[[Lexicon], T]) -> T:
        """A structure an engine derives from this list, built once and kept.

        Engines use it for their own indexes (the Boggle solver's trie) so that
        they live exactly as long as the lexicon they index.
        """
        # Each key holds what its one builder made; a str key cannot carry that
        # type, so the two returns below are taken on trust (the key is the
        # caller's promise that the builder is the same).
        try:
            return self._derived[key]  # type: ignore[return-value]
        except KeyError:
            pass
        with self._lock:
            if key not in self._derived:
                self._derived[key] = build(self)
            return self._derived[key]  # type: ignore[return-value]

    def use_store(self, store: DawgStore) -> None:
        """Keep this list's DAWG in ``store`` from now on (a list loaded before the
        bot named its store gets it here; one it has already goes on being used)."""
        with self._lock:
            if self._store is None:
                self._store = store

    def _load_or_build_dawg(self) -> Dawg:
        fingerprint = self._fingerprint_bytes()
        for candidate in self._dawg_sources():
            dawg = _read_dawg(candidate)
            if dawg is not None and dawg.fingerprint == fingerprint:
                return dawg
        dawg = build_dawg(self._sorted, fingerprint)
        if self._store is not None:
            self._store.write(fingerprint, dawg.to_bytes())
        return dawg

    def _dawg_sources(self) -> list[Callable[[], bytes | None]]:
        readers: list[Callable[[], bytes | None]] = []
        builtin = _BUILTIN_FILES.get(self.source.removeprefix("builtin:"))
        if self.source.startswith("builtin:") and builtin is not None:
            readers.append(lambda: _read_package_file(builtin[1]))
        store = self._store
        if store is not None:
            fingerprint = self._fingerprint_bytes()
            readers.append(lambda: store.read(fingerprint))
        return readers


# -- loading -------------------------------------------------------------------

# ("builtin", name), or ("file", resolved path, mtime in ns, size): an edited
# file gets a new key, and the first two items say which list it is.
_CacheKey: TypeAlias = tuple[str, str] | tuple[str, str, int, int]

_cache_lock = threading.Lock()
_loaded: dict[_CacheKey, Lexicon] = {}


def available_lexicons() -> list[str]:
    """Names of the built-in word lists ("default" is SCOWL-based English)."""
    return sorted(_BUILTIN_FILES)


def load_lexicon(
    name_or_path: str | os.PathLike[str] | None = None, *, store: DawgStore | None = None
) -> Lexicon:
    """A built-in list by name (``None`` means "default") or a word-list file.

    A file is UTF-8 text, one word per line, optionally gzip-compressed (.gz).
    Words are case-folded; lines that are then not only letters a–z (names
    with spaces, hyphens, apostrophes, accents, comments) are skipped. Lists
    are loaded once per process and shared. ``store`` keeps a built DAWG for
    the next process (the built-in list ships its own).
    """
    if name_or_path is None or str(name_or_path) in _BUILTIN_FILES:
        name = DEFAULT_NAME if name_or_path is None else str(name_or_path)
        return _cached(("builtin", name), lambda: _load_builtin(name))
    path = Path(name_or_path).expanduser()
    try:
        stat = path.stat()
    except FileNotFoundError:
        raise LexiconError(
            f"Word list {str(name_or_path)!r} not found: give a built-in name "
            f"({', '.join(available_lexicons())}) or the path of a word-list file."
        ) from None
    except OSError as exc:
        raise LexiconError(f"Cannot read the word list {str(path)!r}: {exc.strerror}.") from None
    if not path.is_file():
        raise LexiconError(f"The word list {str(path)!r} is not a file.")
    key = ("file", str(path.resolve()), stat.st_mtime_ns, stat.st_size)
    lexicon = _cached(key, lambda: _load_file(path))
    if store is not None:
        lexicon.use_store(store)
    return lexicon


def _cached(key: _CacheKey, load: Callable[[], Lexicon]) -> Lexicon:
    with _cache_lock:
        lexicon = _loaded.get(key)
        if lexicon is None:
            lexicon = load()
            # A file edited since it was loaded: the older versions are dropped
            # (games already holding one keep it until they let go).
            for old in [k for k in _loaded if k[:2] == key[:2]]:
                del _loaded[old]
            _loaded[key] = lexicon
        return lexicon


def _load_builtin(name: str) -> Lexicon:
    words_file, _ = _BUILTIN_FILES[name]
    text = gzip.decompress(_read_package_file(words_file)).decode("ascii")
    # The shipped file is already filtered and sorted (build_default.py and a
    # test check it), so it needs no per-word work here: that keeps the load
    # of a quarter-million words near 0.1 s. The text is packed as it is: see
    # PackedWords.
    return Lexicon(name, text, source=f"builtin:{name}")


def _load_file(path: Path) -> Lexicon:
    try:
        raw = path.read_bytes()
        if raw[:2] == b"\x1f\x8b":
            raw = gzip.decompress(raw)
        text = raw.decode("utf-8-sig")
    except (OSError, EOFError) as exc:
        raise LexiconError(f"Cannot read the word list {str(path)!r}: {exc}.") from None
    except UnicodeDecodeError:
        raise LexiconError(f"The word list {str(path)!r} is not UTF-8 text.") from None
    words = normalise_word_lines(text)
    if not words:
        raise LexiconError(
            f"The word list {str(path)!r} has no usable words: it needs one word "
            "per line, letters a–z only."
        )
    return Lexicon(_display_name(path), words, source=str(path))


def normalise_word_lines(lines: str | Iterable[str]) -> list[str]:
    """Case-fold each line and keep those made only of letters a–z, sorted, unique.

    Works on the whole text with one regular expression (lines may carry
    spaces around the word), which keeps a 250k-line file well under 0.5 s.
    """
    text = lines if isinstance(lines, str) else "\n".join(lines)
    # Old Mac files end lines with a bare CR; Windows files with CR LF.
    words = _WORD_LINE.findall(text.casefold().replace("\r", "\n"))
    # Word lists usually come sorted: sorting the list in place is then a
    # linear pass, where sorting a set's shuffled order would take ~0.2 s.
    words.sort()
    return list(dict.fromkeys(words))


def _display_name(path: Path) -> str:
    name = path.name
    for suffix in (".gz", ".txt", ".dic", ".lst"):
        name = name.removesuffix(suffix)
    return name or path.name


def _read_package_file(filename: str) -> bytes:
    return resources.files(_DATA_PACKAGE).joinpath(filename).read_bytes()


def _read_dawg(read: Callable[[], bytes | None]) -> Dawg | None:
    try:
        data = read()
        return None if data is None else Dawg.from_bytes(data)
    except (OSError, DawgFormatError):
        return None  # absent or stale: the caller rebuilds it
