import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engines.boggle import FACES, Grid, check_word, find_words, roll, solve, word_score
from engines.lexicon import Lexicon, load_lexicon

# Everyday words plus words that need the multi-letter faces, so that small
# random grids hold some of them.
VOCABULARY = [
    "ant",
    "ants",
    "art",
    "arts",
    "ate",
    "eat",
    "eats",
    "east",
    "seat",
    "sat",
    "set",
    "sets",
    "tea",
    "teas",
    "tear",
    "tears",
    "rat",
    "rats",
    "star",
    "stare",
    "rest",
    "rate",
    "rates",
    "tan",
    "tans",
    "ten",
    "tens",
    "net",
    "nets",
    "nest",
    "note",
    "notes",
    "tone",
    "stone",
    "son",
    "sons",
    "one",
    "ones",
    "neat",
    "near",
    "earn",
    "earns",
    "ear",
    "ears",
    "era",
    "eras",
    "tin",
    "tins",
    "sin",
    "sit",
    "its",
    "tie",
    "ties",
    "site",
    "rite",
    "the",
    "then",
    "them",
    "they",
    "there",
    "three",
    "that",
    "this",
    "than",
    "thin",
    "thing",
    "these",
    "ether",
    "other",
    "others",
    "queen",
    "queens",
    "quit",
    "quits",
    "quite",
    "quest",
    "quiet",
    "quint",
    "squat",
    "squint",
    "equal",
    "quota",
    "her",
    "here",
    "hers",
    "hear",
    "heat",
    "heart",
    "hen",
    "hens",
    "herb",
    "inn",
    "inner",
    "tine",
    "tines",
    "into",
    "intern",
    "inter",
    "enter",
    "enters",
    "an",
    "and",
    "any",
    "anti",
    "antler",
    "ant",
    "anthem",
]

# Face weights: common letters often, the multi-letter faces sometimes.
FACE_POOL = list("aeeinorsst") * 3 + list("bcdghlmpuy") + ["qu", "th", "in", "er", "he", "an"]


def oracle(grid, lexicon, min_length):
    return {
        w for w in lexicon if len(w) >= min_length and check_word(grid, w, lexicon, min_length).ok
    }


@st.composite
def grid_and_lexicon(draw):
    width, height = draw(st.integers(2, 5)), draw(st.integers(2, 5))
    cells = draw(
        st.lists(st.sampled_from(FACE_POOL), min_size=width * height, max_size=width * height)
    )
    grid = Grid(tuple(cells), width)
    # Random walks over the grid (cells may repeat, so some are not traceable).
    walks = []
    for _ in range(draw(st.integers(0, 25))):
        cell = draw(st.integers(0, len(cells) - 1))
        word = cells[cell]
        for _ in range(draw(st.integers(1, 7))):
            cell = draw(st.sampled_from(grid.neighbours(cell)))
            word += cells[cell]
        walks.append(word)
    return grid, Lexicon.from_words(VOCABULARY + walks)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(grid_and_lexicon(), st.sampled_from([3, 4]))
def test_solver_finds_exactly_the_words_check_word_accepts_small_lexicon(case, min_length):
    grid, lexicon = case
    assert set(solve(grid, lexicon, min_length)) == oracle(grid, lexicon, min_length)


def test_solver_matches_the_oracle_on_seeded_random_grids_with_any_faces():
    rng = random.Random(2024)
    lexicon = Lexicon.from_words(VOCABULARY)
    for _ in range(150):
        side = rng.randint(3, 6)
        grid = Grid(tuple(rng.choice(FACES) for _ in range(side * side)), side)
        assert set(solve(grid, lexicon, 3)) == oracle(grid, lexicon, 3)


def default_oracle(grid, lexicon, min_length):
    letters = set("".join(grid.cells))
    total_letters = sum(len(face) for face in grid.cells)
    candidates = (w for w in lexicon if min_length <= len(w) <= total_letters and set(w) <= letters)
    return {w for w in candidates if check_word(grid, w, lexicon, min_length).ok}


def test_solver_matches_the_oracle_with_the_default_list():
    lexicon = load_lexicon()
    grids = [roll("classic16", seed) for seed in (1, 2, 3)] + [
        roll("new16", 4),
        roll("big25", 5),
        roll("super36", 6),
    ]
    for grid in grids:
        assert set(solve(grid, lexicon, 3)) == default_oracle(grid, lexicon, 3), str(grid)


def test_solver_scores_each_word_by_its_length():
    lexicon = load_lexicon()
    words = solve(roll("big25", 11), lexicon, min_length=4)
    assert words
    assert all(points == word_score(len(word)) and len(word) >= 4 for word, points in words.items())


def test_solver_finds_words_within_words():
    grid = Grid.parse("T U R N/X X X O/X X R V/X X E X")
    found = solve(grid, load_lexicon(), 4)
    assert {"turn", "turnover", "over"} <= set(found)
    assert found["turnover"] == 11


def test_solver_reads_multi_letter_faces_as_their_two_letters():
    grid = Grid.parse("QU I T/E E S/TH HE X")
    found = find_words(grid, load_lexicon())
    assert {"quit", "quite", "quiet", "quest", "the", "thee"} <= found


def test_solver_gives_nothing_when_no_word_fits():
    grid = Grid.parse("X X/X X")
    assert solve(grid, load_lexicon(), 3) == {}
