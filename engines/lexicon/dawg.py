"""A compact DAWG (minimal acyclic word automaton) over lowercase a–z.

The graph is stored as flat arrays (CSR layout) rather than as Python objects,
so a 250k-word list costs a few MiB and loads in milliseconds. Nodes are
numbered in post-order: every edge points to a smaller id and the root is the
last node, which lets a consumer build its own per-node structure (a Boggle
index, a GADDAG, ...) in one forward pass without recursion.

Prefix walking for callers:

    dawg.child(dawg.root, "c")      -> node id or None
    dawg.walk("ca")                 -> node id of the prefix, or None
    dawg.is_terminal(node)          -> whether the path to node spells a word
    dawg.children(node)             -> {"t": node_id, ...}
"""

from __future__ import annotations

import gzip
import hashlib
import sys
from array import array
from collections.abc import Iterable, Iterator

ALPHABET = "abcdefghijklmnopqrstuvwxyz"
_LETTER_INDEX = {letter: index for index, letter in enumerate(ALPHABET)}

_MAGIC = b"CLUBDAWG"
_FORMAT_VERSION = 1


def _uint32_array(values: Iterable[int] = ()) -> array[int]:
    # "I" is 4 bytes on every platform CPython supports today; "L" is the
    # fallback for an exotic build where it is not.
    code = "I" if array("I").itemsize == 4 else "L"
    return array(code, values)


class DawgFormatError(ValueError):
    """A serialized DAWG is damaged or from another format version."""


class Dawg:
    """Immutable DAWG over a sorted word list; see the module docstring."""

    __slots__ = ("edge_letter", "edge_start", "edge_target", "fingerprint", "terminal")

    def __init__(
        self,
        terminal: bytes,
        edge_start: array[int],
        edge_letter: bytes,
        edge_target: array[int],
        fingerprint: bytes,
    ) -> None:
        self.terminal = terminal  # 1 byte per node: 1 when a word ends there
        self.edge_start = edge_start  # node k's edges are edge_start[k]:edge_start[k+1]
        self.edge_letter = edge_letter  # letter index 0–25 per edge, ascending per node
        self.edge_target = edge_target  # target node id per edge
        self.fingerprint = fingerprint  # sha256 of the word list it was built from

    @property
    def root(self) -> int:
        """The root node, the empty prefix: the last node."""
        return len(self.terminal) - 1

    @property
    def node_count(self) -> int:
        """How many nodes the graph has."""
        return len(self.terminal)

    @property
    def edge_count(self) -> int:
        """How many edges the graph has."""
        return len(self.edge_letter)

    def is_terminal(self, node: int) -> bool:
        """Whether the path to ``node`` spells a word."""
        return bool(self.terminal[node])

    def child(self, node: int, letter: str) -> int | None:
        """The node ``letter`` leads to from ``node``, or None (also for a letter outside a–z)."""
        index = _LETTER_INDEX.get(letter)
        if index is None:
            return None
        letters = self.edge_letter
        for edge in range(self.edge_start[node], self.edge_start[node + 1]):
            if letters[edge] == index:
                return self.edge_target[edge]
        return None

    def children(self, node: int) -> dict[str, int]:
        """``node``'s edges, letter → node, in alphabetical order."""
        start, end = self.edge_start[node], self.edge_start[node + 1]
        return {
            ALPHABET[self.edge_letter[edge]]: self.edge_target[edge] for edge in range(start, end)
        }

    def walk(self, prefix: str) -> int | None:
        """The node the path ``prefix`` ends at, or None when no word starts with it."""
        node = self.root
        for letter in prefix:
            child = self.child(node, letter)
            if child is None:
                return None
            node = child
        return node

    def __contains__(self, word: object) -> bool:
        if not isinstance(word, str):
            return False
        node = self.walk(word)
        return node is not None and self.is_terminal(node)

    def words(self) -> Iterator[str]:
        """Every word, in alphabetical order (slow: for tests and tools)."""
        stack: list[tuple[int, str]] = [(self.root, "")]
        while stack:
            node, prefix = stack.pop()
            if self.terminal[node] and prefix:
                yield prefix
            start, end = self.edge_start[node], self.edge_start[node + 1]
            for edge in range(end - 1, start - 1, -1):
                stack.append((self.edge_target[edge], prefix + ALPHABET[self.edge_letter[edge]]))

    # -- serialization -------------------------------------------------------

    def to_bytes(self) -> bytes:
        """The graph as a gzipped file (``from_bytes`` reads it back); the same graph always
        gives the same bytes."""
        header = (
            _MAGIC + _uint32_array([_FORMAT_VERSION, self.node_count, self.edge_count]).tobytes()
        )
        starts, targets = _little_endian(self.edge_start), _little_endian(self.edge_target)
        body = self.fingerprint + self.terminal + starts + self.edge_letter + targets
        return gzip.compress(header + body, compresslevel=6, mtime=0)

    @classmethod
    def from_bytes(cls, data: bytes) -> Dawg:
        """The graph ``to_bytes`` wrote; a damaged file or another format version raises
        ``DawgFormatError``."""
        try:
            raw = gzip.decompress(data)
        except (OSError, EOFError) as exc:
            raise DawgFormatError(f"not a DAWG file: {exc}") from exc
        if not raw.startswith(_MAGIC) or len(raw) < len(_MAGIC) + 12 + 32:
            raise DawgFormatError("not a DAWG file")
        offset = len(_MAGIC)
        numbers = _from_little_endian(raw[offset : offset + 12])
        version, nodes, edges = numbers
        if version != _FORMAT_VERSION:
            raise DawgFormatError(f"DAWG format {version} is not supported")
        offset += 12
        expected = offset + 32 + nodes + 4 * (nodes + 1) + edges + 4 * edges
        if len(raw) != expected or nodes == 0:
            raise DawgFormatError("DAWG file is truncated")
        fingerprint = raw[offset : offset + 32]
        offset += 32
        terminal = raw[offset : offset + nodes]
        offset += nodes
        edge_start = _from_little_endian(raw[offset : offset + 4 * (nodes + 1)])
        offset += 4 * (nodes + 1)
        edge_letter = raw[offset : offset + edges]
        offset += edges
        edge_target = _from_little_endian(raw[offset:])
        return cls(terminal, edge_start, edge_letter, edge_target, fingerprint)


def _little_endian(values: array[int]) -> bytes:
    if sys.byteorder == "little":
        return values.tobytes()
    swapped = _uint32_array(values)
    swapped.byteswap()
    return swapped.tobytes()


def _from_little_endian(data: bytes) -> array[int]:
    values = _uint32_array()
    values.frombytes(data)
    if sys.byteorder != "little":
        values.byteswap()
    return values


def word_list_fingerprint(sorted_words: Iterable[str]) -> bytes:
    """sha256 of the list as one word per line: the identity of a word list."""
    text = "\n".join(sorted_words) + "\n"
    return hashlib.sha256(text.encode("ascii")).digest()


def build_dawg(sorted_words: Iterable[str], fingerprint: bytes | None = None) -> Dawg:
    """Build the minimal DAWG of ``sorted_words`` (unique, sorted, a–z only).

    Incremental construction for sorted input (Daciuk et al., 2000): after each
    word, the part of the previous word's path that can no longer change is
    replaced by an equivalent node already registered, if there is one.
    """
    words = list(sorted_words)
    if fingerprint is None:
        fingerprint = word_list_fingerprint(words)
    edges: list[dict[int, int]] = [{}]
    final: list[bool] = [False]
    # A node's signature: whether it ends a word, and its (letter, target) edges.
    register: dict[tuple[bool, tuple[tuple[int, int], ...]], int] = {}
    path = [0]  # path[d] = node reached after the first d letters of the previous word
    previous: list[int] = []

    def freeze_down_to(depth: int) -> None:
        while len(path) - 1 > depth:
            node = path.pop()
            signature = (final[node], tuple(edges[node].items()))
            twin = register.get(signature)
            if twin is None:
                register[signature] = node
            else:
                edges[path[-1]][previous[len(path) - 1]] = twin

    for word in words:
        letters = [_LETTER_INDEX[letter] for letter in word]
        if letters <= previous:
            raise ValueError("build_dawg needs unique words in sorted order")
        common = 0
        for a, b in zip(letters, previous, strict=False):  # the words may differ in length
            if a != b:
                break
            common += 1
        freeze_down_to(common)
        node = path[-1]
        for letter in letters[common:]:
            fresh = len(edges)
            edges.append({})
            final.append(False)
            edges[node][letter] = fresh
            path.append(fresh)
            node = fresh
        final[node] = True
        previous = letters
    freeze_down_to(0)
    return _flatten(edges, final, fingerprint)


def _flatten(edges: list[dict[int, int]], final: list[bool], fingerprint: bytes) -> Dawg:
    """Renumber the reachable nodes in post-order and pack them into arrays."""
    order: dict[int, int] = {}
    stack = [(0, False)]
    while stack:
        node, expanded = stack.pop()
        if node in order:
            continue
        if expanded:
            order[node] = len(order)
            continue
        stack.append((node, True))
        for target in edges[node].values():
            if target not in order:
                stack.append((target, False))
    by_new_id = sorted(order, key=order.__getitem__)
    terminal = bytes(final[node] for node in by_new_id)
    edge_start = _uint32_array([0])
    letters = bytearray()
    targets = _uint32_array()
    for node in by_new_id:
        for letter, target in sorted(edges[node].items()):
            letters.append(letter)
            targets.append(order[target])
        edge_start.append(len(letters))
    return Dawg(terminal, edge_start, bytes(letters), targets, fingerprint)
