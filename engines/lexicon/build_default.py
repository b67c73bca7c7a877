"""Rebuild the default word list shipped in ``engines/lexicon/data/``.

Maintainer tool, not used at run time. It needs the Debian ``scowl`` package
(the raw SCOWL lists, ``apt-get install scowl``) and writes:

* ``data/default.txt.gz`` — one lowercase a–z word per line, sorted;
* ``data/default.dawg.gz`` — the same list as a DAWG (see ``dawg.py``), so that
  solvers need not build it (a few seconds) in every process;
* ``data/LICENSE-SCOWL.txt`` — SCOWL's copyright and permission notice.

    python -m engines.lexicon.build_default [--scowl-dir /usr/share/dict/scowl]

Selection: every SCOWL ``<spelling>-words.<size>`` list up to size 80 ("huge",
the level of Debian's ``wamerican-huge``), for every spelling (American,
British, Canadian, Australian and their common variants: tournament lists
accept both COLOR and COLOUR), except ``variant_3`` (spellings SCOWL itself
calls seldom used). The ``abbreviations``, ``contractions``, ``proper-names``
and ``upper`` categories are left out entirely, and only entries made of
lowercase a–z survive, so names, acronyms, contractions, hyphenated and
accented words are gone. SCOWL's "words" lists still carry single letters and
some two-letter abbreviations or letter plurals (bs, cm, kb, ...), so
one-letter entries are dropped and two-letter entries are kept only when they
are in ``GENUINE_TWO_LETTER_WORDS``; a few abbreviations that slipped into the
longer lists are dropped through ``KNOWN_ABBREVIATIONS``.
"""

from __future__ import annotations

import argparse
import gzip
import re
from pathlib import Path

from engines.lexicon.dawg import build_dawg

MAX_SIZE = 80
SKIPPED_SPELLINGS = {"variant_3"}
WORDS_LIST = re.compile(r"^(?P<spelling>[a-z_0-9]+)-words\.(?P<size>\d+)$")
LOWERCASE_WORD = re.compile(r"^[a-z]+$")

# Two-letter entries judged to be real words (interjections, musical notes,
# letters' names, Greek letters and common short words), decided by hand.
# Left out on purpose: letter plurals (bs, cs, ...), units (kb, lm, mb, ...),
# and dialect or foreign entries (da, fy, ja, ky, ny, ug, ur, yu, ...).
GENUINE_TWO_LETTER_WORDS = frozenset(
    [
        "ad",
        "ag",
        "ah",
        "ai",
        "am",
        "an",
        "as",
        "at",
        "aw",
        "ax",
        "ay",
        "ba",
        "be",
        "bi",
        "bo",
        "by",
        "de",
        "do",
        "eh",
        "el",
        "em",
        "en",
        "er",
        "es",
        "et",
        "ex",
        "fa",
        "go",
        "ha",
        "he",
        "hi",
        "hm",
        "ho",
        "id",
        "if",
        "in",
        "is",
        "it",
        "jo",
        "ka",
        "ki",
        "la",
        "li",
        "lo",
        "ma",
        "me",
        "mi",
        "mm",
        "mo",
        "mu",
        "my",
        "na",
        "no",
        "nu",
        "od",
        "oe",
        "of",
        "oh",
        "oi",
        "om",
        "on",
        "op",
        "or",
        "os",
        "ow",
        "ox",
        "oy",
        "pa",
        "pe",
        "pi",
        "po",
        "qi",
        "re",
        "sh",
        "so",
        "ta",
        "ti",
        "to",
        "uh",
        "um",
        "un",
        "up",
        "us",
        "ut",
        "we",
        "xi",
        "xu",
        "ya",
        "ye",
        "yo",
        "za",
    ]
)

# Abbreviations found among SCOWL's size <= 80 "words" (checked by comparing
# with its abbreviation lists).
KNOWN_ABBREVIATIONS = frozenset(["aeq", "csc", "csch", "dkl", "dso", "eniac", "esc", "hhd", "rotl"])

DATA_DIR = Path(__file__).resolve().parent / "data"


def selected_lists(scowl_dir: Path) -> list[Path]:
    """The SCOWL word lists the default list is made of, by name (see the module's docstring);
    none found stops the tool."""
    chosen = []
    for path in sorted(scowl_dir.iterdir()):
        match = WORDS_LIST.match(path.name)
        if not match:
            continue
        if match["spelling"] in SKIPPED_SPELLINGS or int(match["size"]) > MAX_SIZE:
            continue
        chosen.append(path)
    if not chosen:
        raise SystemExit(f"no SCOWL word lists in {scowl_dir}: apt-get install scowl")
    return chosen


def keep(word: str) -> bool:
    """Whether a SCOWL entry goes in the list: lowercase a–z, two letters only when genuine,
    not one letter, not a known abbreviation."""
    if not LOWERCASE_WORD.match(word) or word in KNOWN_ABBREVIATIONS:
        return False
    if len(word) == 1:
        return False
    if len(word) == 2:
        return word in GENUINE_TWO_LETTER_WORDS
    return True


def collect_words(lists: list[Path]) -> list[str]:
    """Every kept word of ``lists``, once each, sorted."""
    words: set[str] = set()
    for path in lists:
        # SCOWL's files are UTF-8 (a few accented entries); those are dropped.
        for line in path.read_text(encoding="utf-8").splitlines():
            word = line.strip()
            if keep(word):
                words.add(word)
    return sorted(words)


def scowl_licence_text(readme_gz: Path) -> str:
    """SCOWL's own README section "COPYRIGHT, SOURCES, and CREDITS"."""
    with gzip.open(readme_gz, "rt", encoding="utf-8") as handle:
        lines = handle.read().splitlines()
    header = lines[:4]
    start = next(i for i, line in enumerate(lines) if line.startswith("COPYRIGHT, SOURCES"))
    end = next(i for i, line in enumerate(lines) if i > start and line.startswith("FUTURE PLANS"))
    intro = [
        "The default word list of engines/lexicon (data/default.txt.gz) is derived from",
        "SCOWL (Spell Checker Oriented Word Lists); see engines/lexicon/build_default.py",
        "for the selection and filtering. SCOWL's copyright and permission notice follow,",
        "as printed in its README:",
        "",
    ]
    return "\n".join(intro + header + [""] + lines[start:end]).rstrip() + "\n"


def main(argv: list[str] | None = None) -> None:
    """Read the SCOWL lists and README and write the three data files (``--out-dir``)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scowl-dir", type=Path, default=Path("/usr/share/dict/scowl"))
    parser.add_argument("--readme", type=Path, default=Path("/usr/share/doc/scowl/README.gz"))
    parser.add_argument("--out-dir", type=Path, default=DATA_DIR)
    args = parser.parse_args(argv)

    words = collect_words(selected_lists(args.scowl_dir))
    args.out_dir.mkdir(parents=True, exist_ok=True)
    # mtime=0 keeps the archive byte-identical between rebuilds of the same list.
    with (
        open(args.out_dir / "default.txt.gz", "wb") as raw,
        gzip.GzipFile(fileobj=raw, mode="wb", compresslevel=9, mtime=0) as handle,
    ):
        handle.write(("\n".join(words) + "\n").encode("ascii"))
    (args.out_dir / "default.dawg.gz").write_bytes(build_dawg(words).to_bytes())
    (args.out_dir / "LICENSE-SCOWL.txt").write_text(
        scowl_licence_text(args.readme), encoding="utf-8"
    )
    print(f"{len(words)} words written to {args.out_dir / 'default.txt.gz'}")


if __name__ == "__main__":
    main()
