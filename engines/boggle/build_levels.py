"""Rebuild ``engines/boggle/word_levels.txt.gz`` (see ``commonness.py``).

Maintainer tool, not used at run time. It needs the Debian ``scowl`` package
(``apt-get install scowl``) and reads the same lists as the default word list
(``engines.lexicon.build_default``: every spelling but ``variant_3``, the
"words" category, lowercase a–z only, the same two-letter and abbreviation
filters), recording each word's smallest size up to ``MAX_LEVEL``:

    python -m engines.boggle.build_levels [--scowl-dir /usr/share/dict/scowl]

The output is byte-identical for the same SCOWL release.
"""

from __future__ import annotations

import argparse
import gzip
from pathlib import Path

from engines.boggle.commonness import DICTIONARY_LEVEL
from engines.lexicon.build_default import WORDS_LIST, keep, selected_lists

MAX_LEVEL = DICTIONARY_LEVEL
OUT = Path(__file__).resolve().parent / "word_levels.txt.gz"
HEADER = (
    "# Each word's SCOWL size level (the smallest list it is in), up to size {max_level}:\n"
    "# built by engines/boggle/build_levels.py from SCOWL; SCOWL's copyright and\n"
    "# permission notice: engines/lexicon/data/LICENSE-SCOWL.txt\n"
)


def collect_levels(lists: list[Path], max_level: int = MAX_LEVEL) -> dict[str, int]:
    """Each kept word's SCOWL size level: the smallest of ``lists`` it is in, to ``max_level``."""
    levels: dict[str, int] = {}
    for path in lists:
        match = WORDS_LIST.match(path.name)
        assert match is not None  # selected_lists only returns word lists
        size = int(match["size"])
        if size > max_level:
            continue
        for line in path.read_text(encoding="utf-8").splitlines():
            word = line.strip()
            if keep(word) and size < levels.get(word, max_level + 1):
                levels[word] = size
    return levels


def levels_text(levels: dict[str, int], max_level: int = MAX_LEVEL) -> str:
    """The levels file's text: the header, then for each level ``=N`` and its words, sorted."""
    lines = [HEADER.format(max_level=max_level).rstrip("\n")]
    for size in sorted(set(levels.values())):
        lines.append(f"={size}")
        lines += sorted(word for word, level in levels.items() if level == size)
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> None:
    """Read the SCOWL lists and write the gzipped levels file (``--out``)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scowl-dir", type=Path, default=Path("/usr/share/dict/scowl"))
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args(argv)
    levels = collect_levels(selected_lists(args.scowl_dir))
    with (
        open(args.out, "wb") as raw,
        gzip.GzipFile(fileobj=raw, mode="wb", compresslevel=9, mtime=0) as handle,
    ):
        handle.write(levels_text(levels).encode("ascii"))
    print(f"{len(levels)} words' levels written to {args.out}")


if __name__ == "__main__":
    main()
