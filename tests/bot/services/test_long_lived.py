"""What the bot keeps for good is not rescanned by the cyclic collector (issue #32).

A word list's move-generator graph is tens of thousands of small objects built in
the background after start-up; left among the collector's tracked objects, every
full collection rescans them on the event loop's thread (100–190 ms under load).
Once built they are frozen (``bot.caches.keep_for_good``): ``gc.get_objects()``
lists the objects the collector scans, and a frozen one is not among them.
"""

from __future__ import annotations

import asyncio
import gc
import weakref
from collections.abc import Iterator

import pytest

from bot.caches import keep_for_good
from bot.services.scrabble import ai
from engines.scrabble.wordgraph import word_graph


@pytest.fixture(autouse=True)
def unfrozen() -> Iterator[None]:
    """Each test starts and ends with nothing frozen (the suite's own objects apart)."""
    gc.unfreeze()
    yield
    gc.unfreeze()


def scanned(obj: object) -> bool:
    return any(o is obj for o in gc.get_objects())


class WordList:
    """A club's own list as the Scrabble service holds it: an object of its own."""

    def __init__(self, words: set[str]) -> None:
        self.words = frozenset(words)

    def __contains__(self, word: object) -> bool:
        return isinstance(word, str) and word.upper() in self.words

    def __iter__(self) -> Iterator[str]:
        return iter(self.words)


async def test_a_graph_built_in_the_background_is_kept_out_of_the_collectors_scans() -> None:
    words = WordList({a + b + c for a in "BCDFG" for b in "AEIOU" for c in "LMNRST"})
    ai.start_warm_up(words)
    for _ in range(500):
        if ai.graph_ready(words) and id(words) not in ai._warming:
            break
        await asyncio.sleep(0.01)
    assert ai.graph_ready(words)
    root = word_graph(words).root
    assert gc.is_tracked(root)  # a container the collector would scan
    assert not scanned(root)
    assert gc.get_freeze_count() > 0


def test_keep_for_good_freezes_what_is_alive_and_only_that() -> None:
    kept = [{"node": n} for n in range(100)]
    assert scanned(kept)
    keep_for_good()
    assert not scanned(kept) and not scanned(kept[0])
    made_later = [{"node": -1}]
    assert scanned(made_later)  # a later object is collected as usual


class Node:
    def __init__(self) -> None:
        self.other: Node | None = None


@pytest.mark.parametrize("collect", [True, False])
def test_keep_for_good_clears_unheld_cycles_first_only_when_asked(collect: bool) -> None:
    gc.disable()  # no automatic collection between the cycle's making and the freeze
    try:
        a, b = Node(), Node()
        a.other, b.other = b, a
        gone = weakref.ref(a)
        del a, b
        keep_for_good(collect=collect)
        assert (gone() is None) is collect  # else it stays, frozen, for good
    finally:
        gc.enable()
