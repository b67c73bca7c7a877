"""The word list as a graph the move generator walks (a DAWG, upper-case letters).

Appel & Jacobson's generator needs two things from the lexicon: "which letters
may follow this prefix" and "is this prefix a word". The shared lexicon
(``engines.lexicon``) already ships a minimal DAWG as flat arrays; walking
arrays from Python costs an index computation per step, so the graph is
re-shaped once into linked Python objects:

* a node is a tuple ``(children, is_word, letter_mask)``;
* ``children`` maps an upper-case letter to the child node itself (not an id),
  so a step is one ``dict.get``;
* ``letter_mask`` has bit ``ord(L) - 65`` set for each child letter ``L``, so
  "can this node go on with any tile of the rack on this square" is two ANDs
  (see :func:`letter_mask`).

The built-in list (254k words, 82k nodes, 188k edges) converts in about
0.3 s and costs about 22 MiB; ``benchmarks/bench_movegen.py`` measures both.
A graph is built once per lexicon object and kept with it (see
:func:`word_graph`).

Cross-checks ("which letters may go on this square, given the tiles above and
below it") are asked again and again for the same short fragments, so each
graph memoises them.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable
from typing import Protocol, TypeAlias, TypeGuard, TypeVar

from engines.lexicon.dawg import ALPHABET, Dawg, build_dawg

UPPER = ALPHABET.upper()
MAX_WORD = 15  # a word longer than the board is never playable

# (children, is_word, letter_mask); children: {letter: Node}
Node: TypeAlias = tuple[dict[str, "Node"], bool, int]
ALL_LETTERS_MASK = (1 << 26) - 1

_CROSS_CACHE_LIMIT = 200_000


class WordGraphError(ValueError):
    """A word list the move generator cannot read."""


class WordGraph:
    """An immutable DAWG over upper-case A–Z, shaped for fast walking."""

    __slots__ = ("_cross", "_lock", "edge_count", "node_count", "root")

    def __init__(self, root: Node, node_count: int, edge_count: int) -> None:
        self.root = root
        self.node_count = node_count
        self.edge_count = edge_count
        self._cross: dict[tuple[str, str], tuple[frozenset[str], int]] = {}
        self._lock = threading.Lock()

    # -- construction ------------------------------------------------------------

    @classmethod
    def from_dawg(cls, dawg: Dawg) -> WordGraph:
        """The graph of ``dawg`` re-shaped into linked nodes (about 0.3 s for the built-in list)."""
        starts, letters, targets, terminal = (
            dawg.edge_start,
            dawg.edge_letter,
            dawg.edge_target,
            dawg.terminal,
        )
        upper = UPPER
        nodes: list[Node] = []
        # The DAWG numbers nodes in post-order: children are always built first.
        for node in range(dawg.node_count):
            edges = range(starts[node], starts[node + 1])
            children = {upper[letters[edge]]: nodes[targets[edge]] for edge in edges}
            mask = 0
            for edge in edges:
                mask |= 1 << letters[edge]
            nodes.append((children, bool(terminal[node]), mask))
        old_root = nodes[-1]
        # One-letter words are never Scrabble plays; a fresh root keeps the
        # children but makes sure nothing of length 1 counts as a word.
        root: Node = (dict(old_root[0]), False, old_root[2])
        for letter, child in list(root[0].items()):
            if child[1]:
                root[0][letter] = (child[0], False, child[2])
        return cls(root, dawg.node_count, dawg.edge_count)

    @classmethod
    def from_words(cls, words: Iterable[str]) -> WordGraph:
        """Build from any iterable of words (case-insensitive; non A–Z words are skipped)."""
        kept = sorted(
            {
                w.lower()
                for w in words
                if isinstance(w, str) and 2 <= len(w) <= MAX_WORD and w.isascii() and w.isalpha()
            }
        )
        if not kept:
            raise WordGraphError("the word list has no words of 2 to 15 letters A–Z")
        return cls.from_dawg(build_dawg(kept))

    # -- queries -------------------------------------------------------------------

    def walk(self, letters: str, node: Node | None = None) -> Node | None:
        """The node reached by spelling ``letters`` (upper case) from ``node`` (root by default)."""
        current: Node | None  # declared apart, so the assignment below narrows it
        current = self.root if node is None else node
        for letter in letters:
            current = current[0].get(letter)
            if current is None:
                return None
        return current

    def __contains__(self, word: object) -> bool:
        if not isinstance(word, str):
            return False
        node = self.walk(word.upper())
        return node is not None and node[1]

    def words(self) -> Iterable[str]:
        """Every word, alphabetically (slow: for tests and tools)."""
        stack: list[tuple[Node, str]] = [(self.root, "")]
        while stack:
            node, prefix = stack.pop()
            if node[1]:
                yield prefix
            for letter in sorted(node[0], reverse=True):
                stack.append((node[0][letter], prefix + letter))

    def cross_check(self, before: str, after: str) -> tuple[frozenset[str], int]:
        """Letters L such that ``before + L + after`` is a word (upper case), as a
        set and as a letter mask."""
        key = (before, after)
        found = self._cross.get(key)
        if found is not None:
            return found
        node = self.walk(before)
        letters: list[str] = []
        if node is not None:
            for letter, child in node[0].items():
                end = self.walk(after, child)
                if end is not None and end[1]:
                    letters.append(letter)
        found = (frozenset(letters), letter_mask(letters))
        with self._lock:
            if len(self._cross) >= _CROSS_CACHE_LIMIT:
                self._cross.clear()  # a crude bound: the hot fragments come back at once
            self._cross[key] = found
        return found


def letter_mask(letters: Iterable[str]) -> int:
    """The bit set of upper-case ``letters``, as in a node's ``letter_mask``."""
    mask = 0
    for letter in letters:
        mask |= 1 << (ord(letter) - 65)
    return mask


# -- one graph per lexicon object ---------------------------------------------------

_DERIVED_KEY = "scrabble.movegen.graph"
_T = TypeVar("_T")


class _KeepsDerived(Protocol):
    """What :func:`word_graph` needs of a lexicon that keeps the graph itself
    (``engines.lexicon.Lexicon``)."""

    @property
    def dawg(self) -> Dawg: ...

    def derived(self, key: str, build: Callable[[_KeepsDerived], _T], /) -> _T: ...


def _keeps_derived(lexicon: object) -> TypeGuard[_KeepsDerived]:
    # Asked of the type, not the object: reading ``dawg`` would build the DAWG.
    return callable(getattr(lexicon, "derived", None)) and (
        getattr(type(lexicon), "dawg", None) is not None
    )


def _graph_of(lexicon: _KeepsDerived) -> WordGraph:
    return WordGraph.from_dawg(lexicon.dawg)


_cache_lock = threading.Lock()
# Lexicons that cannot carry derived data (a plain set, say) are kept here by
# id, together with the object itself so the id cannot be reused while cached.
_by_id: dict[int, tuple[object, WordGraph]] = {}
_BY_ID_LIMIT = 8


def word_graph(lexicon: object) -> WordGraph:
    """The graph of ``lexicon``, built on first use and kept as long as the lexicon.

    ``lexicon`` is an ``engines.lexicon.Lexicon`` (its shipped DAWG is used and
    the graph is stored with it), a :class:`WordGraph`, or any iterable of
    words such as a set (kept in a small cache keyed by the object).
    """
    if isinstance(lexicon, WordGraph):
        return lexicon
    if _keeps_derived(lexicon):
        return lexicon.derived(_DERIVED_KEY, _graph_of)
    with _cache_lock:
        hit = _by_id.get(id(lexicon))
        if hit is not None and hit[0] is lexicon:
            return hit[1]
    try:
        graph = WordGraph.from_words(_words_of(lexicon))
    except TypeError:
        raise WordGraphError(
            "the move generator needs a word list it can read word by word"
        ) from None
    with _cache_lock:
        if len(_by_id) >= _BY_ID_LIMIT:
            _by_id.pop(next(iter(_by_id)))
        _by_id[id(lexicon)] = (lexicon, graph)
    return graph


def word_graph_ready(lexicon: object) -> bool:
    """Whether :func:`word_graph` would answer at once (its graph is built)."""
    if isinstance(lexicon, WordGraph):
        return True
    has_derived = getattr(lexicon, "has_derived", None)
    if callable(has_derived) and getattr(type(lexicon), "dawg", None) is not None:
        return bool(has_derived(_DERIVED_KEY))
    with _cache_lock:
        hit = _by_id.get(id(lexicon))
        return hit is not None and hit[0] is lexicon


def _words_of(lexicon: object) -> list[str]:
    """The words the engine itself would accept: it asks upper case, then lower case."""
    # ``lexicon`` may be any object: duck-typed on purpose, since one that cannot
    # be iterated or asked ``in`` raises TypeError, which word_graph reports.
    words = []
    for word in lexicon:  # type: ignore[attr-defined]
        if isinstance(word, str):
            upper = word.upper()
            if upper in lexicon or upper.lower() in lexicon:  # type: ignore[operator]
                words.append(upper)
    return words
