"""The start-up shortcut: a database already at the newest revisions is left alone without Alembic."""

from __future__ import annotations

from pathlib import Path

import pytest

import bot.db.migrate as migrate
from bot.db.engine import create_engine
from bot.db.migrate import (
    downgrade_to,
    head_revision,
    head_revisions,
    script_heads_without_alembic,
    upgrade_to_head,
)


def test_heads_read_from_the_files_are_alembics_heads() -> None:
    assert script_heads_without_alembic() == frozenset(head_revisions())


async def test_a_database_at_head_is_not_handed_to_alembic(
    database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    engine = create_engine(database_url)
    try:
        assert await upgrade_to_head(engine) == head_revision()

        async def alembic_run(*args: object) -> None:
            raise AssertionError("Alembic ran although the database was at head")

        monkeypatch.setattr(migrate, "_run", alembic_run)
        assert await upgrade_to_head(engine) == head_revision()
    finally:
        await engine.dispose()


async def test_a_database_behind_head_is_still_upgraded(database_url: str) -> None:
    engine = create_engine(database_url)
    try:
        await upgrade_to_head(engine)
        await downgrade_to(engine, "0001")
        assert await upgrade_to_head(engine) == head_revision()
    finally:
        await engine.dispose()


def _versions(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, files: dict[str, str]) -> None:
    (tmp_path / "versions").mkdir()
    for name, body in files.items():
        (tmp_path / "versions" / name).write_text(body, encoding="utf-8")
    monkeypatch.setattr(migrate, "MIGRATIONS_DIR", tmp_path)


def test_branches_and_merges_give_the_unreferenced_revisions(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _versions(
        tmp_path,
        monkeypatch,
        {
            "a.py": 'revision = "a"\ndown_revision = None\n',
            "b.py": 'revision: str = "b"\ndown_revision = "a"\n',
            "c.py": "revision = 'c'\ndown_revision = 'a'\n",
            "m.py": 'revision = "m"\ndown_revision = ("b", "c")\n',
            "d.py": 'revision = "d"\ndown_revision = "a"\n',
            "__init__.py": "",
        },
    )
    assert script_heads_without_alembic() == {"m", "d"}


@pytest.mark.parametrize(
    "body",
    [
        'revision = make_id()\ndown_revision = "a"\n',  # not a literal
        'revision = "b"\n',  # no down_revision
        'revision = "b"\ndown_revision = "a"\nrevision = "c"\n',  # assigned twice
        'revision = "b"\ndown_revision = "zzz"\n',  # an unknown parent
        "revision = (\n",  # not Python
    ],
)
def test_a_file_it_cannot_read_plainly_leaves_the_decision_to_alembic(
    body: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _versions(
        tmp_path, monkeypatch, {"a.py": 'revision = "a"\ndown_revision = None\n', "b.py": body}
    )
    assert script_heads_without_alembic() is None
