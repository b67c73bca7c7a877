import gzip

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engines.lexicon.lexicon as lexicon_module
from engines.lexicon import Dawg, DawgFormatError, build_dawg, load_lexicon

words_strategy = st.sets(st.text(alphabet="abcde", min_size=1, max_size=7), min_size=1, max_size=60)


@settings(max_examples=60, deadline=None)
@given(words_strategy)
def test_dawg_holds_exactly_the_words_it_was_built_from(words):
    dawg = build_dawg(sorted(words))
    assert list(dawg.words()) == sorted(words)
    for word in words:
        assert word in dawg
        assert dawg.walk(word) is not None


@settings(max_examples=30, deadline=None)
@given(words_strategy, st.text(alphabet="abcdef", min_size=1, max_size=7))
def test_dawg_prefix_walk_agrees_with_the_word_list(words, probe):
    dawg = build_dawg(sorted(words))
    has_prefix = any(word.startswith(probe) for word in words)
    assert (dawg.walk(probe) is not None) == has_prefix
    assert (probe in dawg) == (probe in words)


def test_dawg_shares_common_endings():
    dawg = build_dawg(["bat", "bats", "cat", "cats"])
    # root -b/c-> x -a-> y -t-> word -s-> word: five states for four words.
    assert dawg.node_count == 5
    assert dawg.child(dawg.root, "b") == dawg.child(dawg.root, "c")


def test_dawg_children_and_terminal_flags_describe_the_graph():
    dawg = build_dawg(["at", "ate", "to"])
    root_children = dawg.children(dawg.root)
    assert set(root_children) == {"a", "t"}
    after_at = dawg.walk("at")
    assert dawg.is_terminal(after_at)
    assert not dawg.is_terminal(root_children["a"])
    assert dawg.child(after_at, "e") is not None
    assert dawg.child(after_at, "z") is None
    assert dawg.child(after_at, "?") is None


def test_every_edge_points_to_an_earlier_node():
    dawg = build_dawg(sorted({"tree", "trees", "treat", "eat", "eats", "seat"}))
    for node in range(dawg.node_count):
        for edge in range(dawg.edge_start[node], dawg.edge_start[node + 1]):
            assert dawg.edge_target[edge] < node


def test_build_dawg_refuses_unsorted_or_repeated_words():
    with pytest.raises(ValueError):
        build_dawg(["bee", "ant"])
    with pytest.raises(ValueError):
        build_dawg(["ant", "ant"])


def test_serialized_dawg_reads_back_identical():
    dawg = build_dawg(["ant", "ants", "bee", "bees"])
    again = Dawg.from_bytes(dawg.to_bytes())
    assert list(again.words()) == ["ant", "ants", "bee", "bees"]
    assert again.fingerprint == dawg.fingerprint
    assert again.edge_start == dawg.edge_start


@pytest.mark.parametrize(
    "data",
    [
        b"",
        b"not gzip",
        gzip.compress(b"CLUBDAWG", mtime=0),
        gzip.compress(b"OTHERFMT" + bytes(80), mtime=0),
    ],
    # gzip stamps the time: each xdist worker must name the same tests
    ids=["empty", "not gzip", "header only", "another format"],
)
def test_damaged_dawg_bytes_raise_format_error(data):
    with pytest.raises(DawgFormatError):
        Dawg.from_bytes(data)


def test_truncated_dawg_raises_format_error():
    raw = gzip.decompress(build_dawg(["ant", "bee"]).to_bytes())
    with pytest.raises(DawgFormatError, match="truncated"):
        Dawg.from_bytes(gzip.compress(raw[:-3]))


def test_default_list_uses_the_shipped_dawg_without_building(monkeypatch):
    def refuse(*args, **kwargs):
        raise AssertionError("the shipped DAWG should have been used")

    monkeypatch.setattr(lexicon_module, "build_dawg", refuse)
    fresh = lexicon_module._load_builtin("default")
    dawg = fresh.dawg
    assert dawg.fingerprint.hex() == fresh.fingerprint
    for word in ("quixotic", "turnover", "cats", "zax"):
        assert word in dawg
    assert "london" not in dawg


class MemoryStore:
    """A DawgStore in a dict: what the engine asks of the bot's disk cache."""

    def __init__(self) -> None:
        self.kept: dict[bytes, bytes] = {}
        self.reads = 0

    def read(self, fingerprint: bytes) -> bytes | None:
        self.reads += 1
        return self.kept.get(fingerprint)

    def write(self, fingerprint: bytes, data: bytes) -> None:
        self.kept[fingerprint] = data


def test_a_built_dawg_goes_to_the_store_and_is_read_back_instead_of_rebuilt(tmp_path, monkeypatch):
    path = tmp_path / "words.txt"
    path.write_text("ant\nants\nbee\n", encoding="utf-8")
    store = MemoryStore()
    first = lexicon_module._load_file(path)
    first.use_store(store)
    assert "ants" in first.dawg
    assert list(store.kept) == [bytes.fromhex(first.fingerprint)]

    monkeypatch.setattr(lexicon_module, "build_dawg", lambda *a, **k: pytest.fail("rebuilt"))
    again = lexicon_module._load_file(path)
    again.use_store(store)
    assert list(again.dawg.words()) == ["ant", "ants", "bee"]


def test_a_stale_or_corrupt_stored_dawg_is_rebuilt(tmp_path):
    path = tmp_path / "words.txt"
    path.write_text("ant\nbee\n", encoding="utf-8")
    store = MemoryStore()
    lexicon = lexicon_module._load_file(path)
    store.kept[bytes.fromhex(lexicon.fingerprint)] = b"not a dawg"
    lexicon.use_store(store)
    assert list(lexicon.dawg.words()) == ["ant", "bee"]
    assert Dawg.from_bytes(store.kept[bytes.fromhex(lexicon.fingerprint)]).fingerprint.hex() == (
        lexicon.fingerprint
    )


def test_the_engine_reads_no_environment_and_writes_no_file(tmp_path, monkeypatch):
    monkeypatch.setenv("CLUBBOT_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    path = tmp_path / "words.txt"
    path.write_text("ant\nbee\n", encoding="utf-8")
    assert "bee" in load_lexicon(path).dawg
    assert sorted(p.name for p in tmp_path.iterdir()) == ["words.txt"]
