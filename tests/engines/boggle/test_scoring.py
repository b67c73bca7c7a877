import pytest

from engines.boggle import (
    BoggleError,
    Grid,
    WordLevels,
    WordStatus,
    parse_levels,
    score_round,
    word_levels,
    word_score,
)
from engines.lexicon import Lexicon, load_lexicon

# C  A  T  S
# O  R  E  N
# D  E  A  L
# Qu I  T  S
GRID = Grid.parse("C A T S/O R E N/D E A L/QU I T S")
LEXICON = Lexicon.from_words(
    ["cat", "cats", "cart", "quit", "quits", "deal", "dealt", "rent", "tear", "steal", "rate"]
)


def test_round_with_a_minimum_below_three_is_refused():
    with pytest.raises(BoggleError):
        score_round(GRID, {"ana": "cart"}, LEXICON, min_length=2)


def statuses(result, player):
    return {r.word: (r.status, r.points) for r in result.players[player].words}


def test_worked_round_cancels_shared_words_from_every_list():
    result = score_round(
        GRID,
        {
            "ana": "cats, cart, quit, deal, aret, cat",
            "ben": ["CATS!", "steal", "quits", "xyzzy", "steal"],
            "cleo": "deal rent dealt tear",
        },
        LEXICON,
    )
    assert statuses(result, "ana") == {
        "cats": (WordStatus.CANCELLED, 0),
        "cart": (WordStatus.SCORED, 1),
        "quit": (WordStatus.SCORED, 1),
        "deal": (WordStatus.CANCELLED, 0),
        "aret": (WordStatus.NOT_A_WORD, 0),
        "cat": (WordStatus.TOO_SHORT, 0),
    }
    assert statuses(result, "ben") == {
        "cats": (WordStatus.CANCELLED, 0),
        "steal": (WordStatus.SCORED, 2),
        "quits": (WordStatus.SCORED, 2),
        "xyzzy": (WordStatus.NOT_ON_GRID, 0),
    }
    assert statuses(result, "cleo") == {
        "deal": (WordStatus.CANCELLED, 0),
        "rent": (WordStatus.SCORED, 1),
        "dealt": (WordStatus.SCORED, 2),
        "tear": (WordStatus.SCORED, 1),
    }
    assert {p: r.total for p, r in result.players.items()} == {"ana": 2, "ben": 4, "cleo": 4}
    assert result.winners == ("ben", "cleo")
    assert [m.word for m in result.missed] == ["rate"]


def test_player_words_keep_the_order_first_written():
    result = score_round(GRID, {"ana": "rent cart RENT quit"}, LEXICON)
    assert [r.word for r in result.players["ana"].words] == ["rent", "cart", "quit"]


def test_a_word_counts_once_per_player_however_often_written():
    result = score_round(GRID, {"ana": ["dealt", "Dealt", "DEALT!", "dealt"]}, LEXICON)
    assert [(r.word, r.points) for r in result.players["ana"].words] == [("dealt", 2)]
    assert result.players["ana"].total == 2


def test_one_player_writing_a_word_twice_does_not_cancel_it():
    result = score_round(GRID, {"ana": "deal deal", "ben": "rent"}, LEXICON)
    assert statuses(result, "ana")["deal"] == (WordStatus.SCORED, 1)


def test_shared_invalid_words_keep_their_own_reason():
    result = score_round(GRID, {"ana": "xyzzy cat aret", "ben": "xyzzy cat aret"}, LEXICON)
    for player in ("ana", "ben"):
        assert statuses(result, player) == {
            "xyzzy": (WordStatus.NOT_ON_GRID, 0),
            "cat": (WordStatus.TOO_SHORT, 0),
            "aret": (WordStatus.NOT_A_WORD, 0),
        }


def test_three_letter_option_scores_three_letter_words():
    result = score_round(GRID, {"ana": "cat cart"}, LEXICON, min_length=3)
    assert statuses(result, "ana") == {
        "cat": (WordStatus.SCORED, 1),
        "cart": (WordStatus.SCORED, 1),
    }


def test_nobody_wins_a_round_where_nobody_scored():
    result = score_round(GRID, {"ana": "xyzzy", "ben": ""}, LEXICON)
    assert result.winners == ()
    assert result.players["ben"].words == ()


def test_single_top_scorer_wins_alone():
    result = score_round(GRID, {"ana": "dealt", "ben": "rent"}, LEXICON)
    assert result.winners == ("ana",)


def test_missed_words_are_the_best_nobody_wrote():
    lexicon = load_lexicon()
    grid = Grid.parse("S E R S/P A T G/L I N E/S E R S")
    result = score_round(grid, {"ana": "pastel, pirate"}, lexicon, missed_limit=8)
    assert len(result.missed) == 8
    levels = word_levels()
    keys = [(levels.band(m.word), -m.points, -len(m.word), m.word) for m in result.missed]
    assert keys == sorted(keys)
    assert all(m.points == word_score(len(m.word)) for m in result.missed)
    assert not {"pastel", "pirate"} & {m.word for m in result.missed}
    assert result.missed[0].points == 11  # this grid holds 8-letter words
    assert result.words_on_grid > 8
    assert result.points_on_grid >= sum(m.points for m in result.missed)


def test_junk_tokens_are_neither_judged_nor_shown():
    junk = "word:CATS 8H " + "a" * 975
    result = score_round(GRID, {"ana": f"cats {junk}", "ben": ["cart", "12", "q" * 18]}, LEXICON)
    assert [r.word for r in result.players["ana"].words] == ["cats"]
    assert [r.word for r in result.players["ben"].words] == ["cart"]


def test_best_words_nobody_found_are_the_familiar_ones_first():
    # On this grid "dealt", "quits" and "steal" score 2, the four-letter words 1.
    levels = parse_levels("=10\nrate\ndeal\n=60\nsteal\n")
    result = score_round(GRID, {}, LEXICON, levels=levels)
    missed = [m.word for m in result.missed]
    # Familiar (size 50 or less) first, best-scoring first among them; then size 70 or
    # less; then the rest (not listed), best-scoring first.
    assert missed[:2] == ["deal", "rate"]
    assert missed[2] == "steal"
    assert missed[3:6] == ["dealt", "quits", "cart"]  # unlisted: best-scoring first
    unranked = score_round(GRID, {}, LEXICON, levels=WordLevels())
    assert [m.word for m in unranked.missed][:3] == ["dealt", "quits", "steal"]


def test_the_built_in_levels_know_common_words_from_rare_ones():
    levels = word_levels()
    assert len(levels) > 100_000
    assert levels.band("naive") == 0 and levels.band("Convey") == 0
    assert levels.band("ovine") == 1
    assert levels.band("toucanet") == 2 and levels.band("qat") == 2
    assert levels.band("notaword") == 2


def test_word_levels_refuse_a_malformed_file():
    with pytest.raises(BoggleError, match="line 1"):
        parse_levels("cats\n")
    with pytest.raises(BoggleError, match="line 2"):
        parse_levels("=10\n=ten\n")
