"""Run Alembic migrations from inside the application (no alembic.ini needed).

Alembic is imported only when there is something to do: a start on a
database that is already at the newest revisions (every start but the first
after a deploy) reads the revision ids from the migration files and the
``alembic_version`` table and stops there. Importing Alembic costs ~0.3–0.6 s
and ~12 MiB, since it loads the DDL support of every database it knows.
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sqlalchemy import Connection, text
from sqlalchemy.exc import DBAPIError
from sqlalchemy.ext.asyncio import AsyncEngine

if TYPE_CHECKING:
    from alembic.config import Config

# Any fixed number: the PostgreSQL advisory lock that serialises migrations.
MIGRATION_LOCK_KEY = 0x636C7562  # "club"

MIGRATIONS_DIR = Path(__file__).resolve().parents[2] / "migrations"


def alembic_config(database_url: str | None = None) -> Config:
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS_DIR))
    if database_url:
        cfg.set_main_option("sqlalchemy.url", database_url.replace("%", "%%"))
    return cfg


def head_revisions() -> tuple[str, ...]:
    """The newest revision of each branch (features may branch off and merge later)."""
    from alembic.script import ScriptDirectory

    return tuple(sorted(ScriptDirectory.from_config(alembic_config()).get_heads()))


def head_revision() -> str | None:
    """The single head, or the heads joined by "+" while branches are unmerged."""
    heads = head_revisions()
    return "+".join(heads) if heads else None


async def upgrade_to_head(engine: AsyncEngine) -> str | None:
    """Upgrade the database behind ``engine`` to the newest revisions; return them."""
    heads = script_heads_without_alembic()
    if heads and await _stamped_revisions(engine) == heads:
        return "+".join(sorted(heads))
    return await _run(engine, "upgrade", "heads")


def script_heads_without_alembic() -> frozenset[str] | None:
    """The heads of ``migrations/versions``, read from the files' ``revision`` and
    ``down_revision`` literals; None when any file is not plainly readable that way
    (then Alembic decides)."""
    parents: dict[str, tuple[str, ...]] = {}
    for path in sorted((MIGRATIONS_DIR / "versions").glob("*.py")):
        if path.name == "__init__.py" or path.name.startswith(".#"):
            continue  # what Alembic skips too
        found = _revision_literals(path)
        if found is None or found[0] in parents:
            return None
        parents[found[0]] = found[1]
    referenced = {parent for ids in parents.values() for parent in ids}
    if not parents or not referenced <= parents.keys():
        return None
    return frozenset(parents.keys() - referenced)


def _revision_literals(path: Path) -> tuple[str, tuple[str, ...]] | None:
    try:
        tree = ast.parse(path.read_text(encoding="utf-8"))
    except (OSError, SyntaxError, ValueError):
        return None
    values: dict[str, Any] = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            target, value = node.targets[0], node.value
        elif isinstance(node, ast.AnnAssign) and node.value is not None:
            target, value = node.target, node.value
        else:
            continue
        if isinstance(target, ast.Name) and target.id in ("revision", "down_revision"):
            if target.id in values:
                return None  # assigned twice: only running the module would tell
            try:
                values[target.id] = ast.literal_eval(value)
            except ValueError:
                return None
    revision, down = values.get("revision"), values.get("down_revision", ...)
    if not isinstance(revision, str) or down is ...:
        return None
    if down is None:
        return revision, ()
    if isinstance(down, str):
        return revision, (down,)
    if isinstance(down, (tuple, list)) and all(isinstance(d, str) for d in down):
        return revision, tuple(down)
    return None


async def _stamped_revisions(engine: AsyncEngine) -> frozenset[str] | None:
    """What ``alembic_version`` holds; None when the table is missing (a new database)."""
    try:
        async with engine.connect() as conn:
            rows = await conn.execute(text("SELECT version_num FROM alembic_version"))
            return frozenset(row[0] for row in rows)
    except DBAPIError:
        return None


async def downgrade_to(engine: AsyncEngine, revision: str = "base") -> str | None:
    return await _run(engine, "downgrade", revision)


def _current(sync_conn: Connection) -> str | None:
    from alembic.runtime.migration import MigrationContext

    heads = sorted(MigrationContext.configure(sync_conn).get_current_heads())
    return "+".join(heads) if heads else None


async def current_revision(engine: AsyncEngine) -> str | None:
    async with engine.connect() as conn:
        return await conn.run_sync(_current)


async def _run(engine: AsyncEngine, action: str, revision: str) -> str | None:
    from alembic import command

    cfg = alembic_config()

    def work(sync_conn: Connection) -> str | None:
        cfg.attributes["connection"] = sync_conn
        getattr(command, action)(cfg, revision)
        return _current(sync_conn)

    async with engine.begin() as conn:
        if conn.dialect.name == "postgresql":
            # Shard processes often start together: one migrates, the others wait
            # here and then find nothing left to do (SQLite's BEGIN IMMEDIATE does the same).
            await conn.execute(
                text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK_KEY}
            )
        return await conn.run_sync(work)
