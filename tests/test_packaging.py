"""A non-editable install carries every file the bot reads at run time: the
message catalogues, the web page's templates and files, fonts and word data."""

from __future__ import annotations

import subprocess
import tomllib
from fnmatch import fnmatch
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
PACKAGES = ("bot", "cogs", "engines", "migrations", "benchmarks")


def _patterns() -> dict[str, list[str]]:
    config = tomllib.loads((REPO / "pyproject.toml").read_text())
    data: dict[str, list[str]] = config["tool"]["setuptools"]["package-data"]
    return data


def _packaged(path: Path, patterns: dict[str, list[str]]) -> bool:
    """Whether setuptools' package-data takes ``path``: a ``"*"`` pattern matches
    names in the file's own package folder, a package's patterns match paths
    below that package."""
    parent = path.parent
    if (parent / "__init__.py").exists() and any(
        fnmatch(path.name, p) for p in patterns.get("*", [])
    ):
        return True
    for package, globs in patterns.items():
        root = REPO / package.replace(".", "/")
        if package != "*" and root in path.parents:
            relative = path.relative_to(root).as_posix()
            if any(fnmatch(relative, g) for g in globs):
                return True
    return False


def test_every_data_file_the_bot_reads_is_in_the_package_data() -> None:
    tracked = subprocess.run(
        ["git", "ls-files", *PACKAGES], cwd=REPO, capture_output=True, text=True, check=True
    ).stdout.split()
    data = [REPO / f for f in tracked if not f.endswith((".py", ".pyi", ".md")) and "/" in f]
    assert any(p.suffix == ".po" for p in data) and any(p.suffix == ".html" for p in data)
    patterns = _patterns()
    missing = [str(p.relative_to(REPO)) for p in data if not _packaged(p, patterns)]
    assert missing == [], f"not in [tool.setuptools.package-data]: {missing}"
