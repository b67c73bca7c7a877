"""Word lists shared by the word games (Boggle, Scrabble).

from engines.lexicon import load_lexicon
lexicon = load_lexicon()            # the built-in English list (SCOWL-based)
"quixotic" in lexicon               # True
lexicon.has_prefix("quix")          # True
lexicon.dawg.walk("qui")            # DAWG node for prefix walking
load_lexicon("/srv/club/words.txt") # a club's own list, one word per line
"""

from engines.lexicon.dawg import ALPHABET, Dawg, DawgFormatError, build_dawg
from engines.lexicon.lexicon import (
    DEFAULT_NAME,
    DawgStore,
    Lexicon,
    LexiconError,
    available_lexicons,
    load_lexicon,
    normalise_word_lines,
)

__all__ = [
    "ALPHABET",
    "DEFAULT_NAME",
    "Dawg",
    "DawgFormatError",
    "DawgStore",
    "Lexicon",
    "LexiconError",
    "available_lexicons",
    "build_dawg",
    "load_lexicon",
    "normalise_word_lines",
]
