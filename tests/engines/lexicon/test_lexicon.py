import gzip
from importlib import resources

import pytest

from engines.lexicon import Lexicon, LexiconError, available_lexicons, load_lexicon

ACCEPTED = [
    "cats",
    "jumped",
    "quixotic",
    "turnover",
    "turn",
    "over",
    "qat",
    "zax",
    "cwm",
    "colour",
    "color",
    "qi",
    "za",
]
REJECTED = ["london", "usa", "nasa", "don't", "e-mail", "www", "bs", "cm", "kb", "b", "café"]


@pytest.fixture(scope="module")
def default():
    return load_lexicon()


@pytest.mark.parametrize("word", ACCEPTED)
def test_default_list_accepts_ordinary_and_game_words(default, word):
    assert word in default


@pytest.mark.parametrize("word", REJECTED)
def test_default_list_rejects_names_abbreviations_contractions_and_letters(default, word):
    assert word not in default


def test_default_list_has_plurals_and_verb_forms(default):
    for word in ("cat", "cats", "jump", "jumps", "jumped", "jumping", "turnovers"):
        assert word in default


def test_default_list_is_large_sorted_unique_and_lowercase_letters_only():
    raw = resources.files("engines.lexicon.data").joinpath("default.txt.gz").read_bytes()
    words = gzip.decompress(raw).decode("ascii").split("\n")[:-1]
    assert len(words) > 240_000
    assert words == sorted(set(words))
    assert all(word.isascii() and word.isalpha() and word.islower() for word in words)


def test_default_two_letter_words_are_all_real_words(default):
    two_letter = {word for word in default if len(word) == 2}
    assert {"at", "be", "ox", "qi", "za", "xu"} <= two_letter
    assert not two_letter & {"bs", "cm", "kb", "mb", "ms", "ly"}
    assert len(two_letter) < 100


def test_default_list_ships_scowl_licence_text():
    licence = resources.files("engines.lexicon.data").joinpath("LICENSE-SCOWL.txt").read_text()
    assert "Kevin Atkinson" in licence
    assert "Permission to use, copy, modify, distribute and sell" in licence


def test_membership_ignores_case(default):
    assert "Quixotic" in default
    assert "CATS" in default
    assert 42 not in default


def test_has_prefix_is_true_only_for_beginnings_of_words(default):
    assert default.has_prefix("quix")
    assert default.has_prefix("QUIX")
    assert default.has_prefix("cats")  # a whole word is its own prefix
    assert default.has_prefix("")
    assert not default.has_prefix("qxz")
    assert not default.has_prefix("zzzzzz")


def test_words_with_prefix_lists_exactly_the_words_starting_with_it(default):
    found = list(default.words_with_prefix("quixot"))
    assert "quixotic" in found
    assert found == sorted(found)
    assert all(word.startswith("quixot") for word in found)


def test_iteration_is_alphabetical_and_matches_length():
    lexicon = Lexicon.from_words(["pear", "apple", "fig"])
    assert list(lexicon) == ["apple", "fig", "pear"]
    assert len(lexicon) == 3


def test_default_is_loaded_once_per_process():
    assert load_lexicon() is load_lexicon("default") is load_lexicon(None)
    assert load_lexicon().name == "default"


def test_available_lexicons_names_the_built_in_list():
    assert "default" in available_lexicons()


def test_custom_file_is_case_folded_and_keeps_only_letter_words(tmp_path):
    path = tmp_path / "club-words.txt"
    path.write_text(
        "# our club list\nCAT\nDog\n  tree  \nLondon\ndon't\ne-mail\ncafé\ntwo words\n\nCAT\n",
        encoding="utf-8",
    )
    lexicon = load_lexicon(str(path))
    assert list(lexicon) == ["cat", "dog", "london", "tree"]
    assert lexicon.name == "club-words"
    assert "DOG" in lexicon


def test_gzipped_custom_file_is_read(tmp_path):
    path = tmp_path / "words.txt.gz"
    path.write_bytes(gzip.compress(b"zebra\napple\n"))
    assert list(load_lexicon(path)) == ["apple", "zebra"]


def test_custom_file_with_byte_order_mark_keeps_its_first_word(tmp_path):
    path = tmp_path / "bom.txt"
    path.write_bytes("\ufeffaardvark\nbee\n".encode("utf-8"))
    assert "aardvark" in load_lexicon(path)


def test_missing_file_raises_lexicon_error_naming_it(tmp_path):
    with pytest.raises(LexiconError, match=r"nowhere\.txt.*not found"):
        load_lexicon(str(tmp_path / "nowhere.txt"))


def test_file_without_usable_words_raises_lexicon_error(tmp_path):
    path = tmp_path / "empty.txt"
    path.write_text("don't\ne-mail\n42\n\n", encoding="utf-8")
    with pytest.raises(LexiconError, match="no usable words"):
        load_lexicon(path)


def test_directory_instead_of_file_raises_lexicon_error(tmp_path):
    with pytest.raises(LexiconError, match="not a file"):
        load_lexicon(tmp_path)


def test_non_utf8_file_raises_lexicon_error(tmp_path):
    path = tmp_path / "latin1.txt"
    path.write_bytes("caf\xe9\n".encode("latin-1"))
    with pytest.raises(LexiconError, match="not UTF-8"):
        load_lexicon(path)


def test_lexicon_error_is_a_value_error():
    assert issubclass(LexiconError, ValueError)


def test_a_changed_file_is_read_again(tmp_path):
    path = tmp_path / "words.txt"
    path.write_text("one\n", encoding="utf-8")
    assert list(load_lexicon(path)) == ["one"]
    path.write_text("one\ntwo\n", encoding="utf-8")
    assert list(load_lexicon(path)) == ["one", "two"]


def test_from_words_filters_like_a_file_and_rejects_an_empty_result():
    assert list(Lexicon.from_words(["Bee", "bee", "x-ray", "ant"])) == ["ant", "bee"]
    with pytest.raises(LexiconError):
        Lexicon.from_words(["x-ray", "U.S."])


def test_fingerprint_identifies_the_word_list():
    first = Lexicon.from_words(["ant", "bee"])
    same = Lexicon.from_words(["BEE", "ant"])
    other = Lexicon.from_words(["ant", "bee", "cat"])
    assert first.fingerprint == same.fingerprint
    assert first.fingerprint != other.fingerprint
    assert len(first.fingerprint) == 64


def test_derived_structures_are_built_once_per_lexicon():
    lexicon = Lexicon.from_words(["ant"])
    calls = []

    def build(lex):
        calls.append(lex)
        return object()

    assert lexicon.derived("test.index", build) is lexicon.derived("test.index", build)
    assert calls == [lexicon]


def test_custom_file_with_windows_or_old_mac_line_ends_is_read(tmp_path):
    path = tmp_path / "crlf.txt"
    path.write_bytes(b"Apple\r\nbee \r\n\tcat\rdog\r")
    assert list(load_lexicon(path)) == ["apple", "bee", "cat", "dog"]
