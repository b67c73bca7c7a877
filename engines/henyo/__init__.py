"""Library Henyo rules (RULES.md "Library Henyo"): pure and clock-free.

- ``text``: comparing a guess with the secret (case, accents, punctuation,
  spacing ignored; ñ = n).
- ``referee``: the answerer's Oo / Hindi / Pwede (and their polite forms unless
  strict), and the penalty otherwise.
- ``timing``: elapsed and final times from Discord snowflakes, tenths of a second.
- ``ranking``: event standings with tie-break detection.
- ``words``: categories, languages, the built-in bank, picking an unused word.
"""

from engines.henyo.ranking import (
    Attempt,
    AttemptOutcome,
    PairRecord,
    Ranking,
    Standing,
    StandingStatus,
    TieGroup,
    rank_pairs,
)
from engines.henyo.referee import POLITE_FORMS, Reply, Verdict, judge_answer, parse_reply
from engines.henyo.text import compact, is_correct_guess, mentions_secret, normalize, word_key
from engines.henyo.timing import (
    HenyoTimingError,
    Timing,
    elapsed_ms,
    final_time_ms,
    format_time,
    snowflake_at,
    snowflake_ms,
    snowflake_time,
    tenths,
    within_limit,
)
from engines.henyo.words import (
    ANY_LANGUAGE,
    CATEGORIES,
    CATEGORY_MEANINGS,
    LANGUAGES,
    HenyoWordError,
    WordEntry,
    builtin_words,
    clean_bank_word,
    clean_word,
    filter_words,
    parse_categories,
    parse_category,
    parse_language,
    pick_word,
)

__all__ = [
    "ANY_LANGUAGE",
    "CATEGORIES",
    "CATEGORY_MEANINGS",
    "LANGUAGES",
    "POLITE_FORMS",
    "Attempt",
    "AttemptOutcome",
    "HenyoTimingError",
    "HenyoWordError",
    "PairRecord",
    "Ranking",
    "Reply",
    "Standing",
    "StandingStatus",
    "TieGroup",
    "Timing",
    "Verdict",
    "WordEntry",
    "builtin_words",
    "clean_bank_word",
    "clean_word",
    "compact",
    "elapsed_ms",
    "filter_words",
    "final_time_ms",
    "format_time",
    "is_correct_guess",
    "judge_answer",
    "mentions_secret",
    "normalize",
    "parse_categories",
    "parse_category",
    "parse_language",
    "parse_reply",
    "pick_word",
    "rank_pairs",
    "snowflake_at",
    "snowflake_ms",
    "snowflake_time",
    "tenths",
    "within_limit",
    "word_key",
]
