"""Word study on a word list: anagrams (with blanks), hooks and patterns.

The searches walk the move generator's graph of the list (``wordgraph.WordGraph``,
a DAWG over A–Z) instead of reading every word: an anagram follows only the edges
its tiles (or a blank) allow, a pattern only the edges its letters allow, and a
hook is two cross-checks. So even a rack of 7 with two blanks takes some 50,000
steps, not a pass over a quarter-million words. Like the move generator's graph, a result is
a word of 2 to 15 letters: a word a Scrabble board can hold.

    anagrams(lexicon, "AEINRST??", limit=50)   # Found: words longest first, then A–Z
    hooks(lexicon, "CARE")                     # Hooks: front "S", back "DRSTX", valid
    pattern_words(lexicon, "?A?E", limit=50)   # "?" one letter, "*" any run (or none)

A blank's letter is shown in lower case (``RETAINeR``); where a word could use a
blank or a tile for the same letter, the tiles are used first. Pure: no I/O.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from itertools import islice

from engines.lexicon import Lexicon
from engines.scrabble.errors import ScrabbleError
from engines.scrabble.wordgraph import MAX_WORD, UPPER, Node, WordGraph, word_graph
from engines.text import N_, Text

BLANK = "?"
ANY_RUN = "*"
MAX_BLANKS = 2
MAX_TILES = MAX_WORD  # letters (blanks included) an anagram is asked of
MAX_PATTERN = 30  # characters of a pattern, its runs included
MIN_WORD = 2

_SPACES = re.compile(r"[\s,]+")
_LETTERS = re.compile(r"^[A-Z?]+$")
_WORD = re.compile(r"^[A-Z]+$")
_PATTERN = re.compile(r"^[A-Z?*]+$")
_RUNS = re.compile(r"[?*]+")


class WordQueryError(ScrabbleError):
    """Letters, a word or a pattern the word tools cannot read (the message says why)."""


@dataclass(frozen=True)
class Found:
    """What a search found: ``words`` (at most the limit asked, longest first, then in
    alphabetical order; a blank's letter in lower case), ``total`` (all of them) and
    ``lengths`` (how many of each length, longest first)."""

    query: str
    words: tuple[str, ...]
    total: int
    lengths: tuple[tuple[int, int], ...] = field(default=())

    @property
    def left_out(self) -> int:
        """How many were found but not listed (the limit)."""
        return self.total - len(self.words)


@dataclass(frozen=True)
class Hooks:
    """The letters that make a word of ``word`` put in front (``front``) or after
    it (``back``), in alphabetical order, and whether ``word`` itself is one."""

    word: str
    valid: bool
    front: str
    back: str


# -- reading the member's text ---------------------------------------------------------------


def read_letters(text: str) -> str:
    """The tiles of an anagram, upper case (spaces and commas dropped); ``?`` is a blank."""
    letters = _SPACES.sub("", text).upper()
    if not letters:
        raise WordQueryError(N_("Give the letters, e.g. `AEINRST` (a blank as `?`)."))
    if not _LETTERS.match(letters):
        raise WordQueryError(
            Text(
                N_("Letters are A to Z, with `?` for a blank: `{letters}` has others."),
                letters=_shown(letters),
            )
        )
    if letters.count(BLANK) > MAX_BLANKS:
        raise WordQueryError(Text(N_("At most {count} blanks (`?`) at a time."), count=MAX_BLANKS))
    if len(letters) > MAX_TILES:
        raise WordQueryError(
            Text(N_("At most {count} letters at a time (a board's width)."), count=MAX_TILES)
        )
    return letters


def read_word(text: str) -> str:
    """A word to hook, upper case."""
    word = _SPACES.sub("", text).upper()
    if not word:
        raise WordQueryError(N_("Give a word, e.g. `CARE`."))
    if not _WORD.match(word):
        raise WordQueryError(
            Text(N_("A word is letters A to Z: `{word}` has others."), word=_shown(word))
        )
    if len(word) > MAX_WORD:
        raise WordQueryError(
            Text(N_("At most {count} letters at a time (a board's width)."), count=MAX_WORD)
        )
    return word


def read_pattern(text: str) -> str:
    """A pattern, upper case, each run of ``?`` and ``*`` written as its ``?`` then one
    ``*`` (``*?*`` is ``?*``: the same words, and neither search then tries the ways
    one word fits the runs)."""
    pattern = _RUNS.sub(_tidy_run, _SPACES.sub("", text).upper())
    if not pattern:
        raise WordQueryError(
            N_("Give a pattern, e.g. `?A?E` (`?` is one letter, `*` any run of letters).")
        )
    if not _PATTERN.match(pattern):
        raise WordQueryError(
            Text(
                N_("A pattern is letters A to Z, `?` and `*`: `{pattern}` has others."),
                pattern=_shown(pattern),
            )
        )
    if pattern == ANY_RUN:
        raise WordQueryError(
            N_("`*` alone is every word: add a letter or a `?`, e.g. `*ING` or `Q*`.")
        )
    if len(pattern) > MAX_PATTERN or len(pattern.replace(ANY_RUN, "")) > MAX_WORD:
        raise WordQueryError(
            Text(
                N_("A pattern is at most {count} letters and `?` (a board's width)."),
                count=MAX_WORD,
            )
        )
    return pattern


def _tidy_run(run: re.Match[str]) -> str:
    text = run.group(0)
    return BLANK * text.count(BLANK) + (ANY_RUN if ANY_RUN in text else "")


def _shown(text: str) -> str:
    # The member's own text shown back in a refusal, in a code span: cut, and with no
    # backtick to end the span early.
    text = text.replace("`", "'")
    return text[:20] + ("…" if len(text) > 20 else "")


# -- the searches ----------------------------------------------------------------------------------


def anagrams(lexicon: object, letters: str, *, limit: int, full_only: bool = False) -> Found:
    """The words ``letters`` (``read_letters``: A–Z and up to two ``?``) make: every
    word of 2 letters or more, or with ``full_only`` only those that use them all."""
    tiles = read_letters(letters)
    counts = [0] * 26
    for letter in tiles.replace(BLANK, ""):
        counts[ord(letter) - 65] += 1
    size = len(tiles)
    found: list[str] = []
    _anagram_walk(
        word_graph(lexicon).root,
        counts,
        tiles.count(BLANK),
        "",
        0,
        size if full_only else MIN_WORD,
        size,
        found,
    )
    return _found(tiles, found, limit)


_INDEX = {letter: index for index, letter in enumerate(UPPER)}
_BLANK_LETTER = {letter: letter.lower() for letter in UPPER}


def _anagram_walk(
    node: Node,
    counts: list[int],
    blanks: int,
    prefix: str,
    depth: int,
    shortest: int,
    size: int,
    found: list[str],
) -> None:
    # The hot loop of /word anagram (some 50,000 steps for a rack with two blanks): a
    # tile of the letter if one is left, else a blank, never both (the same word).
    depth += 1
    keep = depth >= shortest
    if depth == size:  # the last tile: only the words ending here
        if keep:
            for letter, child in node[0].items():
                if child[1]:
                    if counts[_INDEX[letter]]:
                        found.append(prefix + letter)
                    elif blanks:
                        found.append(prefix + _BLANK_LETTER[letter])
        return
    for letter, child in node[0].items():
        index = _INDEX[letter]
        left = counts[index]
        if left:
            word = prefix + letter
            if child[1] and keep:
                found.append(word)
            if child[0]:
                counts[index] = left - 1
                _anagram_walk(child, counts, blanks, word, depth, shortest, size, found)
                counts[index] = left
        elif blanks:
            word = prefix + _BLANK_LETTER[letter]
            if child[1] and keep:
                found.append(word)
            if child[0]:
                _anagram_walk(child, counts, blanks - 1, word, depth, shortest, size, found)


def hooks(lexicon: object, word: str) -> Hooks:
    """The front and back hooks of ``word`` (``read_word``) and whether it is a word."""
    upper = read_word(word)
    graph = word_graph(lexicon)
    front = graph.cross_check("", upper)[0] if len(upper) < MAX_WORD else frozenset()
    back = graph.cross_check(upper, "")[0] if len(upper) < MAX_WORD else frozenset()
    return Hooks(upper, upper in graph, "".join(sorted(front)), "".join(sorted(back)))


def pattern_words(lexicon: object, pattern: str, *, limit: int) -> Found:
    """The words matching ``pattern`` (``read_pattern``): a letter stands for itself,
    ``?`` for any one letter and ``*`` for any run of letters, none included.

    A pattern that begins with letters is walked in the graph: its start prunes the
    walk to a few thousand nodes. One that begins with a run, or asks every word of
    some length, would walk most of the graph one Python step at a time; past a
    budget of steps the walk gives up and the words are scanned with a regular
    expression instead (in C, about 50 ms for the built-in list)."""
    spelled = read_pattern(pattern)
    found: list[str] = []
    if not spelled.startswith(ANY_RUN):
        machine = _PatternMachine(spelled)
        try:
            _pattern_walk(word_graph(lexicon).root, machine.closure(1), machine, [], found)
        except _TooBroad:
            found = []
        else:
            return _found(spelled, found, limit)
    return _found(spelled, _scan(lexicon, spelled), limit, upper=True)


WALK_BUDGET = 20_000  # graph steps (about 30 ms) a pattern may take before a scan is cheaper


class _TooBroad(Exception):
    """The pattern's walk went past its budget."""


class _PatternMachine:
    """The pattern as a set of positions (a bit each) the letters read so far may
    have reached; ``*`` may be passed over or take a letter and stay."""

    def __init__(self, pattern: str) -> None:
        self.pattern = pattern
        self.accept = 1 << len(pattern)
        self.budget = WALK_BUDGET
        self._next: dict[tuple[int, str], int] = {}
        # Letters and ? still to come after each position: a bound on the word's length.
        self._needed = [len(pattern[at:].replace(ANY_RUN, "")) for at in range(len(pattern) + 1)]

    def closure(self, states: int) -> int:
        """``states`` with every position a ``*`` can be passed over to."""
        for at, char in enumerate(self.pattern):
            if states >> at & 1 and char == ANY_RUN:
                states |= 1 << (at + 1)
        return states

    def step(self, states: int, letter: str) -> int:
        """The positions after reading ``letter`` from ``states`` (0: none)."""
        key = (states, letter)
        found = self._next.get(key)
        if found is None:
            after = 0
            for at, char in enumerate(self.pattern):
                if states >> at & 1:
                    if char == ANY_RUN:
                        after |= 1 << at
                    elif char in (BLANK, letter):
                        after |= 1 << (at + 1)
            found = self.closure(after)
            self._next[key] = found
        return found

    def needed(self, states: int) -> int:
        """The fewest letters any of ``states`` still needs to reach the end."""
        return min(self._needed[at] for at in _bits(states))


def _bits(states: int) -> Iterator[int]:
    at = 0
    while states:
        if states & 1:
            yield at
        states >>= 1
        at += 1


def _pattern_walk(
    node: Node, states: int, machine: _PatternMachine, prefix: list[str], found: list[str]
) -> None:
    depth = len(prefix) + 1
    machine.budget -= len(node[0])
    if machine.budget < 0:
        raise _TooBroad
    for letter, child in node[0].items():
        after = machine.step(states, letter)
        if not after or depth + machine.needed(after) > MAX_WORD:
            continue
        prefix.append(letter)
        if child[1] and after & machine.accept:
            found.append("".join(prefix))
        if depth < MAX_WORD and child[0]:
            _pattern_walk(child, after, machine, prefix, found)
        prefix.pop()


def _scan(lexicon: object, pattern: str) -> list[str]:
    """The words matching ``pattern`` (lower case, in order), by a regular expression
    over the list's text."""
    parts = (
        "[a-z]*" if char == ANY_RUN else "[a-z]" if char == BLANK else char.lower()
        for char in pattern
    )
    expression = re.compile("^" + "".join(parts) + "$", re.MULTILINE)
    return expression.findall(_word_text(lexicon))


_TEXT_KEY = "scrabble.wordfind.text"


def _text_of(words: Iterable[object]) -> str:
    """The words of 2 to 15 letters A–Z, lower case, one a line."""
    kept = sorted(
        {
            word.lower()
            for word in words
            if isinstance(word, str)
            and MIN_WORD <= len(word) <= MAX_WORD
            and word.isalpha()
            and word.isascii()
        }
    )
    return "\n".join(kept)


def _sorted_text_of(words: Iterable[str]) -> str:
    """:func:`_text_of` for an ``engines.lexicon.Lexicon``, whose words are lower case
    a–z, sorted and unique already (a third of the time for the built-in list)."""
    return "\n".join(word for word in words if MIN_WORD <= len(word) <= MAX_WORD)


def _word_text(lexicon: object) -> str:
    """The list as text for :func:`_scan`: kept with an ``engines.lexicon.Lexicon`` (2.5 MB
    for the built-in list), made again for anything else (a test's set, a graph)."""
    if isinstance(lexicon, Lexicon):
        return lexicon.derived(_TEXT_KEY, _sorted_text_of)
    if isinstance(lexicon, WordGraph):
        return _text_of(lexicon.words())
    return _text_of(lexicon)  # type: ignore[arg-type]


# -- results -------------------------------------------------------------------------------------


def _found(query: str, words: list[str], limit: int, *, upper: bool = False) -> Found:
    """``words`` (in alphabetical order, as both searches find them) longest first;
    ``upper``: they are in lower case, and the ones listed are shown in upper case.
    Only the words listed are put in order: a broad pattern finds a quarter-million."""
    lengths = sorted(Counter(map(len, words)).items(), reverse=True)
    shown: list[str] = []
    for length, _count in lengths:
        if len(shown) >= limit:
            break
        shown.extend(islice((word for word in words if len(word) == length), limit - len(shown)))
    return Found(
        query,
        tuple(word.upper() for word in shown) if upper else tuple(shown),
        len(words),
        tuple(lengths),
    )


__all__ = [
    "ANY_RUN",
    "BLANK",
    "MAX_BLANKS",
    "MAX_TILES",
    "Found",
    "Hooks",
    "WordQueryError",
    "anagrams",
    "hooks",
    "pattern_words",
    "read_letters",
    "read_pattern",
    "read_word",
]
