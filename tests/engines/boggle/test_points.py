import pytest

from engines.boggle import BoggleError, word_score


@pytest.mark.parametrize(
    ("length", "points"), [(3, 0), (4, 1), (5, 2), (6, 3), (7, 5), (8, 11), (9, 11), (16, 11)]
)
def test_word_scores_by_length(length, points):
    assert word_score(length) == points


def test_three_letter_words_score_one_only_with_the_three_letter_option():
    assert word_score(3, min_length=3) == 1
    assert word_score(4, min_length=3) == 1
    assert word_score(3, min_length=4) == 0


def test_minimum_length_below_three_is_refused():
    with pytest.raises(BoggleError):
        word_score(4, min_length=2)
