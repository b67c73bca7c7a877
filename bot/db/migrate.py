"""Run Alembic migrations from inside the application (no alembic.ini needed)."""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy.ext.asyncio import AsyncEngine

MIGRATIONS_DIR = Path(__file__).resolve().parents[2] / "migrations"


def alembic_config(database_url: str | None = None) -> Config:
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS_DIR))
    if database_url:
        cfg.set_main_option("sqlalchemy.url", database_url.replace("%", "%%"))
    return cfg


def head_revisions() -> tuple[str, ...]:
    """The newest revision of each branch (features may branch off and merge later)."""
    return tuple(sorted(ScriptDirectory.from_config(alembic_config()).get_heads()))


def head_revision() -> str | None:
    """The single head, or the heads joined by "+" while branches are unmerged."""
    heads = head_revisions()
    return "+".join(heads) if heads else None


async def upgrade_to_head(engine: AsyncEngine) -> str | None:
    """Upgrade the database behind ``engine`` to the newest revisions; return them."""
    return await _run(engine, "upgrade", "heads")


async def downgrade_to(engine: AsyncEngine, revision: str = "base") -> str | None:
    return await _run(engine, "downgrade", revision)


def _current(sync_conn) -> str | None:  # type: ignore[no-untyped-def]
    heads = sorted(MigrationContext.configure(sync_conn).get_current_heads())
    return "+".join(heads) if heads else None


async def current_revision(engine: AsyncEngine) -> str | None:
    async with engine.connect() as conn:
        return await conn.run_sync(_current)


async def _run(engine: AsyncEngine, action: str, revision: str) -> str | None:
    cfg = alembic_config()

    def work(sync_conn) -> str | None:  # type: ignore[no-untyped-def]
        cfg.attributes["connection"] = sync_conn
        getattr(command, action)(cfg, revision)
        return _current(sync_conn)

    async with engine.begin() as conn:
        return await conn.run_sync(work)
