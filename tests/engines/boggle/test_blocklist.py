"""The display blocklist: slurs and obscenities are never suggested, yet still score."""

import pytest

from engines.boggle import (
    BoggleError,
    Grid,
    WordStatus,
    display_blocklist,
    parse_blocklist,
    score_round,
)
from engines.lexicon import Lexicon, load_lexicon

# S H I T
# O A E S
# N R L P
# G S D M
GRID = Grid.parse("S H I T/O A E S/N R L P/G S D M")
LEXICON = Lexicon.from_words(["shit", "shits", "hits", "song", "songs"])


def test_the_built_in_list_hides_slurs_and_obscenities_in_any_case():
    hidden = display_blocklist()
    for word in (
        "shit",
        "fucking",
        "Motherfuckers",
        "cunts",
        "niggers",
        "faggots",
        "kikes",
        "retards",
        "WHOREHOUSE",
    ):
        assert word in hidden, word


def test_the_built_in_list_leaves_innocent_neighbours_alone():
    hidden = display_blocklist()
    for word in (
        "shittim",
        "niggard",
        "niggle",
        "spice",
        "cocktail",
        "cockatoo",
        "scunthorpe",
        "assassin",
        "classic",
        "dickens",
        "titter",
        "homogeneous",
        "japan",
        "therapist",
        "retardant",
        "skanking",
        "hits",
        "this",
    ):
        assert word not in hidden, word


def test_the_star_stems_catch_no_innocent_word_of_the_built_in_list():
    """A stem hides every continuation: in the built-in list, each one caught is meant."""
    stems = display_blocklist().prefixes
    caught = {word for word in load_lexicon() if word.startswith(stems)}
    assert {
        "fuck",
        "motherfucking",
        "cocksucker",
        "cunt",
        "bullshitter",
        "nigger",
        "whoremonger",
        "faggots",
    } <= caught
    assert not caught & {
        "shittim",
        "shittah",
        "niggard",
        "niggardly",
        "niggle",
        "cunning",
        "cockatoo",
        "whorl",
        "fagot",
    }


def test_parse_reads_words_stems_and_comments():
    blocklist = parse_blocklist("# a comment\nBoo\n\n  darn*  # trailing comment\n")
    assert blocklist.words == frozenset({"boo"}) and blocklist.prefixes == ("darn",)
    assert "boo" in blocklist and "darned" in blocklist and "boot" not in blocklist
    assert blocklist.visible(["boot", "boo", "darnit", "dawn"]) == ["boot", "dawn"]
    assert 42 not in blocklist


@pytest.mark.parametrize("line", ["two words", "e-mail", "caf\u00e9", "*"])
def test_parse_refuses_a_line_that_is_not_a_word(line):
    with pytest.raises(BoggleError, match="line 1"):
        parse_blocklist(line)


def test_a_hidden_word_is_never_among_the_best_words_nobody_found():
    result = score_round(GRID, {"ana": "song"}, LEXICON)
    assert [m.word for m in result.missed] == ["songs", "hits"]
    # The grid's totals still count every word on it.
    assert result.words_on_grid == 5
    assert result.points_on_grid == 2 + 1 + 2 + 1 + 1


def test_a_hidden_word_a_player_writes_still_scores():
    result = score_round(GRID, {"ana": "shits", "ben": "shit hits"}, LEXICON)
    assert {w.word: (w.status, w.points) for w in result.players["ana"].words} == {
        "shits": (WordStatus.SCORED, 2)
    }
    assert result.players["ben"].total == 2
    assert [m.word for m in result.missed] == ["songs", "song"]


def test_the_caller_may_pass_its_own_hidden_words():
    shown = score_round(GRID, {}, LEXICON, hidden=())
    assert {m.word for m in shown.missed} == {"shit", "shits", "hits", "song", "songs"}
    custom = score_round(GRID, {}, LEXICON, hidden=parse_blocklist("song*"))
    assert [m.word for m in custom.missed] == ["shits", "hits", "shit"]
