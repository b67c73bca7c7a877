"""Word definitions from an offline dictd dictionary (e.g. Debian's ``dict-gcide``).

Used by Scrabble's optional "explain the word" rule. A dictd dictionary is two
files: ``NAME.index`` (one ``headword<TAB>offset<TAB>length`` line per entry,
numbers in dictd's base-64) and ``NAME.dict`` or ``NAME.dict.dz`` (the text;
``.dz`` is dictzip, a gzip file cut into independently compressed chunks so
one entry can be read without inflating the whole file). Both are read with
the standard library only.

When no dictionary is installed, :func:`open_definitions` returns ``None`` and
the rule falls back to asking the player to explain the word.
"""

from __future__ import annotations

import re
import struct
import threading
import zlib
from collections.abc import Iterable
from pathlib import Path

DEFAULT_BASES = ("/usr/share/dictd/gcide",)
_B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
_B64_VALUE = {ch: i for i, ch in enumerate(_B64)}
MAX_DEFINITION_CHARS = 220


class DefinitionsError(ValueError):
    """The dictionary files could not be read."""


def decode_number(text: str) -> int:
    """dictd's base-64 numbers: most significant digit first."""
    value = 0
    for ch in text:
        try:
            value = value * 64 + _B64_VALUE[ch]
        except KeyError:
            raise DefinitionsError(f"bad number {text!r} in the dictionary index") from None
    return value


class _DictzipReader:
    """Random access into a dictzip file (falls back to inflating a plain gzip file)."""

    def __init__(self, data: bytes) -> None:
        self._data = data
        self._chunk_length = 0
        self._chunks: list[tuple[int, int]] = []  # (compressed offset, compressed size)
        self._whole: bytes | None = None
        self._read_header()

    def _read_header(self) -> None:
        data = self._data
        if data[:2] != b"\x1f\x8b":
            raise DefinitionsError("the .dict.dz file is not gzip data")
        flags = data[3]
        pos = 10
        random_access: tuple[int, list[int]] | None = None
        if flags & 4:  # FEXTRA
            (xlen,) = struct.unpack_from("<H", data, pos)
            pos += 2
            end = pos + xlen
            while pos + 4 <= end:
                si1, si2, length = (
                    data[pos],
                    data[pos + 1],
                    struct.unpack_from("<H", data, pos + 2)[0],
                )
                body = data[pos + 4 : pos + 4 + length]
                if (si1, si2) == (ord("R"), ord("A")) and len(body) >= 6:
                    _version, chunk_length, count = struct.unpack_from("<HHH", body, 0)
                    sizes = list(struct.unpack_from(f"<{count}H", body, 6))
                    random_access = (chunk_length, sizes)
                pos += 4 + length
            pos = end
        for flag in (8, 16):  # FNAME, FCOMMENT: zero-terminated
            if flags & flag:
                pos = data.index(b"\x00", pos) + 1
        if flags & 2:  # FHCRC
            pos += 2
        if random_access is None:
            self._whole = _inflate_all(data)
            return
        self._chunk_length, sizes = random_access
        offset = pos
        for size in sizes:
            self._chunks.append((offset, size))
            offset += size

    def read(self, start: int, length: int) -> bytes:
        if self._whole is not None:
            return self._whole[start : start + length]
        first = start // self._chunk_length
        last = (start + length - 1) // self._chunk_length
        pieces = []
        for index in range(first, min(last, len(self._chunks) - 1) + 1):
            offset, size = self._chunks[index]
            pieces.append(zlib.decompressobj(-15).decompress(self._data[offset : offset + size]))
        text = b"".join(pieces)
        skip = start - first * self._chunk_length
        return text[skip : skip + length]


def _inflate_all(data: bytes) -> bytes:
    return zlib.decompress(data, 16 + zlib.MAX_WBITS)


class Definitions:
    """Headword lookups in one dictd dictionary."""

    def __init__(self, index_text: str, body: _DictzipReader | bytes) -> None:
        self._entries: dict[str, list[tuple[int, int]]] = {}
        for line in index_text.splitlines():
            parts = line.split("\t")
            if len(parts) < 3:
                continue
            word = parts[0].strip().lower()
            if not word or word.startswith("00-database") or word.startswith("00database"):
                continue
            self._entries.setdefault(word, []).append(
                (decode_number(parts[1]), decode_number(parts[2]))
            )
        self._body = body

    def __len__(self) -> int:
        return len(self._entries)

    def _raw(self, start: int, length: int) -> str:
        if isinstance(self._body, bytes):
            chunk = self._body[start : start + length]
        else:
            chunk = self._body.read(start, length)
        return chunk.decode("utf-8", errors="replace")

    def define(self, word: str) -> str | None:
        """A short definition of ``word`` (or of its stem: cats → cat), else None."""
        for candidate in _candidates(word.lower()):
            places = self._entries.get(candidate)
            if not places:
                continue
            for start, length in places:
                text = summarise_entry(self._raw(start, length))
                if text:
                    return text
        return None


def _candidates(word: str) -> Iterable[str]:
    """The word, then plausible stems (a cheap stand-in for real morphology)."""
    yield word
    rules = (
        ("ies", "y"),
        ("es", ""),
        ("s", ""),
        ("ied", "y"),
        ("ed", ""),
        ("ed", "e"),
        ("ing", ""),
        ("ing", "e"),
        ("er", ""),
        ("est", ""),
        ("ly", ""),
    )
    seen = {word}
    for suffix, replacement in rules:
        if word.endswith(suffix) and len(word) - len(suffix) >= 2:
            stem = word[: -len(suffix)] + replacement
            if stem not in seen:
                seen.add(stem)
                yield stem
            if (
                suffix in ("ed", "ing")
                and len(stem) >= 3
                and stem[-1] == stem[-2]
                and stem[:-1] not in seen  # stopped → stop
            ):
                seen.add(stem[:-1])
                yield stem[:-1]


_SOURCE_NOTE = re.compile(
    r"\[(?:1913 Webster|Webster 1913 Suppl\.|PJC|WordNet [^\]]*|[^\]]{0,40}Webster[^\]]*)\]"
)
_NUMBERED = re.compile(r"^\s*(?:\d+\.|\([a-z]\))\s*")


def summarise_entry(text: str) -> str | None:
    """The first sense of an entry, without the headword line and source notes."""
    lines = [line.strip() for line in text.strip().splitlines()]
    if lines and ("\\" in lines[0] or len(lines) > 1):
        lines = lines[1:]  # "Quiz \Quiz\, n.; pl. {Quizzes}." is the headword line
    body = " ".join(line for line in lines if line)
    body = _SOURCE_NOTE.sub("", body)
    body = re.sub(r"[{}]", "", body)
    body = re.sub(r"\s+", " ", body).strip()
    body = _NUMBERED.sub("", body)
    # Senses are numbered "1. ... 2. ...": keep the first.
    body = re.split(r"\s\d+\.\s", body, maxsplit=1)[0].strip()
    if not body:
        return None
    if len(body) > MAX_DEFINITION_CHARS:
        body = body[: MAX_DEFINITION_CHARS - 1].rsplit(" ", 1)[0] + "…"
    return body


def load_definitions(base: str | Path) -> Definitions:
    """Read ``base.index`` and ``base.dict.dz`` (or ``base.dict``)."""
    base = Path(base)
    index = Path(f"{base}.index")
    try:
        index_text = index.read_text(encoding="utf-8", errors="replace")
        dz = Path(f"{base}.dict.dz")
        if dz.exists():
            return Definitions(index_text, _DictzipReader(dz.read_bytes()))
        return Definitions(index_text, Path(f"{base}.dict").read_bytes())
    except OSError as exc:
        raise DefinitionsError(f"cannot read the dictionary at {base}: {exc.strerror}") from None


_lock = threading.Lock()
_opened: dict[str, Definitions | None] = {}


def open_definitions(base: str | Path | None = None) -> Definitions | None:
    """The dictionary at ``base`` (or an installed GCIDE), loaded once; None if absent.

    Blocking (reads the index): call it from a worker thread.
    """
    bases = [str(base)] if base else list(DEFAULT_BASES)
    with _lock:
        for candidate in bases:
            if candidate in _opened:
                if _opened[candidate] is not None:
                    return _opened[candidate]
                continue
            if not Path(f"{candidate}.index").exists():
                _opened[candidate] = None
                continue
            try:
                _opened[candidate] = load_definitions(candidate)
            except (DefinitionsError, zlib.error, struct.error):
                _opened[candidate] = None
                continue
            return _opened[candidate]
    return None


__all__ = [
    "DEFAULT_BASES",
    "Definitions",
    "DefinitionsError",
    "decode_number",
    "load_definitions",
    "open_definitions",
    "summarise_entry",
]
