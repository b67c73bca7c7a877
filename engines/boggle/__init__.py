"""Word Boggle: dice, grids, word checks, round scoring and a fast solver (pure).

from engines.boggle import roll, score_round, solve
from engines.lexicon import load_lexicon

grid = roll("classic16", seed=42)
result = score_round(grid, {"ana": "cats, tame", "ben": ["tame"]}, load_lexicon())
"""

from engines.boggle.blocklist import DisplayBlocklist, display_blocklist, parse_blocklist
from engines.boggle.commonness import WordLevels, parse_levels, word_levels
from engines.boggle.dice import (
    BIG_25,
    CLASSIC_16,
    DEFAULT_DICE_FOR_SIDE,
    DICE_SETS,
    NEW_16,
    SUPER_36,
    DiceSet,
    dice_for_side,
    dice_set,
    roll,
)
from engines.boggle.grid import FACES, MULTI_LETTER_FACES, BoggleError, Grid
from engines.boggle.points import DEFAULT_MIN_LENGTH, word_score
from engines.boggle.scoring import (
    DEFAULT_MISSED_LIMIT,
    MissedWord,
    PlayerResult,
    RoundResult,
    WordResult,
    player_words,
    score_round,
)
from engines.boggle.solver import find_words, solve, solver_index
from engines.boggle.words import (
    Verdict,
    WordList,
    WordStatus,
    check_word,
    find_path,
    normalise_word,
    parse_word_list,
    read_words,
)

__all__ = [
    "BIG_25",
    "CLASSIC_16",
    "DEFAULT_DICE_FOR_SIDE",
    "DEFAULT_MIN_LENGTH",
    "DEFAULT_MISSED_LIMIT",
    "DICE_SETS",
    "FACES",
    "MULTI_LETTER_FACES",
    "NEW_16",
    "SUPER_36",
    "BoggleError",
    "DiceSet",
    "DisplayBlocklist",
    "Grid",
    "MissedWord",
    "PlayerResult",
    "RoundResult",
    "Verdict",
    "WordLevels",
    "WordList",
    "WordResult",
    "WordStatus",
    "check_word",
    "dice_for_side",
    "dice_set",
    "display_blocklist",
    "find_path",
    "find_words",
    "normalise_word",
    "parse_blocklist",
    "parse_levels",
    "parse_word_list",
    "player_words",
    "read_words",
    "roll",
    "score_round",
    "solve",
    "solver_index",
    "word_levels",
    "word_score",
]
