"""Settings: one pydantic-settings class read from the environment and ``.env``.

Every key is listed in ``.env.example``. Malformed values raise ``SettingsError``
with one readable line per problem; the token is a ``SecretStr`` and never logged.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Annotated, Any

from pydantic import Field, SecretStr, ValidationError, field_validator, model_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict
from sqlalchemy.engine import make_url

from bot.offload import default_workers

DEFAULT_DATABASE_URL = "sqlite+aiosqlite:///clubbot.db"
_LOG_LEVELS = ("CRITICAL", "ERROR", "WARNING", "INFO", "DEBUG")


class SettingsError(Exception):
    """Settings could not be loaded; ``str()`` is fit to print to an operator."""


def _int_list(value: Any, name: str) -> list[int]:
    if value is None or value == "":
        return []
    if isinstance(value, int):
        return [value]
    if isinstance(value, str):
        parts = [p.strip() for p in value.replace(";", ",").split(",") if p.strip()]
    else:
        parts = list(value)
    out = []
    for part in parts:
        try:
            number = int(part)
        except (TypeError, ValueError):
            raise ValueError(
                f"{name} must be a comma-separated list of numbers, got {part!r}"
            ) from None
        if number < 0:
            raise ValueError(f"{name} must not contain negative numbers, got {number}")
        out.append(number)
    return out


class Settings(BaseSettings):
    model_config = SettingsConfigDict(
        env_file=".env",
        env_file_encoding="utf-8",
        extra="forbid",
        case_sensitive=False,
        hide_input_in_errors=True,
        # ``SHARD_COUNT=`` (as in .env.example, and as systemd's EnvironmentFile
        # passes it on) means "not set", not an empty value to parse.
        env_ignore_empty=True,
    )

    discord_token: SecretStr | None = None
    database_url: str = DEFAULT_DATABASE_URL
    discord_guild_ids: Annotated[list[int], NoDecode] = Field(default_factory=list)
    lexicon: str = "default"
    # Where the DAWG built for a club's own word list is kept (default: the user's cache folder).
    clubbot_cache_dir: Path | None = None
    log_level: str = "INFO"
    shard_count: int | None = None
    shard_ids: Annotated[list[int] | None, NoDecode] = None
    stockfish_path: str | None = None
    # Testing and self-hosted gateways only: where the Discord REST API lives.
    discord_api_base: str | None = None
    discord_gateway_url: str | None = None
    scheduler_poll_seconds: float = 1.0
    # PostgreSQL's connection pool, per process (SQLite ignores them): connections
    # kept open, more opened at a peak (and closed after), and how old a connection
    # may grow before it is replaced (seconds; a proxy or firewall may cut idle ones).
    database_pool_size: int = 10
    database_max_overflow: int = 10
    database_pool_recycle: int = 1800
    # The club web page (off unless WEB_PORT is set): where it listens, and the
    # address members reach it at (for the link /club web gives).
    web_port: int | None = None
    web_host: str = "127.0.0.1"
    web_base_url: str | None = None
    # Worker processes for CPU-heavy work (images, move generation, pairing): 0 runs it
    # in a thread of the bot's own process instead.
    cpu_workers: int = Field(default_factory=default_workers)
    # A Scrabble turn becomes a puzzle when the best play scored at least this many
    # points more than the move made (RULES.md, "Puzzles and daily play").
    puzzle_margin: int = 15

    @field_validator("discord_token", mode="before")
    @classmethod
    def _blank_token_is_none(cls, v: Any) -> Any:
        if isinstance(v, str) and not v.strip():
            return None
        return v

    @field_validator("discord_guild_ids", mode="before")
    @classmethod
    def _guild_ids(cls, v: Any) -> list[int]:
        return _int_list(v, "DISCORD_GUILD_IDS")

    @field_validator("shard_ids", mode="before")
    @classmethod
    def _shard_ids(cls, v: Any) -> list[int] | None:
        ids = _int_list(v, "SHARD_IDS")
        return ids or None

    @field_validator("log_level", mode="before")
    @classmethod
    def _log_level(cls, v: Any) -> str:
        level = str(v).strip().upper()
        if level not in _LOG_LEVELS:
            raise ValueError(f"LOG_LEVEL must be one of {', '.join(_LOG_LEVELS)}, got {v!r}")
        return level

    @field_validator("database_url")
    @classmethod
    def _database_url(cls, v: str) -> str:
        v = v.strip()
        try:
            url = make_url(v)
        except Exception:
            raise ValueError(
                "DATABASE_URL is not a database URL (example: sqlite+aiosqlite:///clubbot.db)"
            ) from None
        if url.drivername in ("sqlite", "sqlite+pysqlite"):
            url = url.set(drivername="sqlite+aiosqlite")
        elif url.drivername in ("postgresql", "postgres", "postgresql+psycopg2"):
            url = url.set(drivername="postgresql+asyncpg")
        if url.drivername not in ("sqlite+aiosqlite", "postgresql+asyncpg"):
            raise ValueError(
                f"DATABASE_URL driver {url.drivername!r} is not supported; "
                "use sqlite+aiosqlite:///file.db or postgresql+asyncpg://user@host/db"
            )
        return url.render_as_string(hide_password=False)

    @field_validator("scheduler_poll_seconds")
    @classmethod
    def _poll(cls, v: float) -> float:
        if not 0.01 <= v <= 60:
            raise ValueError("SCHEDULER_POLL_SECONDS must be between 0.01 and 60")
        return v

    @field_validator("database_pool_size")
    @classmethod
    def _pool_size(cls, v: int) -> int:
        if not 1 <= v <= 1000:
            raise ValueError("DATABASE_POOL_SIZE must be between 1 and 1000")
        return v

    @field_validator("database_max_overflow")
    @classmethod
    def _max_overflow(cls, v: int) -> int:
        if not 0 <= v <= 1000:
            raise ValueError("DATABASE_MAX_OVERFLOW must be between 0 and 1000")
        return v

    @field_validator("database_pool_recycle")
    @classmethod
    def _pool_recycle(cls, v: int) -> int:
        if v != -1 and not 30 <= v <= 86_400:
            raise ValueError(
                "DATABASE_POOL_RECYCLE must be between 30 and 86400 seconds, or -1 (never)"
            )
        return v

    @field_validator("web_port")
    @classmethod
    def _web_port(cls, v: int | None) -> int | None:
        if v is not None and not 0 <= v <= 65535:
            raise ValueError("WEB_PORT must be between 0 and 65535 (0: any free port)")
        return v

    @field_validator("cpu_workers")
    @classmethod
    def _cpu_workers(cls, v: int) -> int:
        if not 0 <= v <= 64:
            raise ValueError("CPU_WORKERS must be between 0 (threads only) and 64")
        return v

    @field_validator("puzzle_margin")
    @classmethod
    def _puzzle_margin(cls, v: int) -> int:
        if not 1 <= v <= 200:
            raise ValueError("PUZZLE_MARGIN must be between 1 and 200 points")
        return v

    @field_validator("web_base_url")
    @classmethod
    def _web_base_url(cls, v: str | None) -> str | None:
        if v is None or not v.strip():
            return None
        v = v.strip().rstrip("/")
        if not v.startswith(("http://", "https://")):
            raise ValueError("WEB_BASE_URL must start with http:// or https://")
        return v

    @model_validator(mode="after")
    def _shards(self) -> Settings:
        if self.shard_count is not None and self.shard_count < 1:
            raise ValueError("SHARD_COUNT must be at least 1")
        if self.shard_ids and self.shard_count is None:
            raise ValueError("SHARD_IDS needs SHARD_COUNT")
        if self.shard_ids and any(i >= (self.shard_count or 0) for i in self.shard_ids):
            raise ValueError(
                f"every SHARD_IDS value must be below SHARD_COUNT ({self.shard_count})"
            )
        return self

    @property
    def safe_database_url(self) -> str:
        """The database URL with any password masked, for logs and summaries."""
        return make_url(self.database_url).render_as_string(hide_password=True)

    @property
    def is_sqlite(self) -> bool:
        return self.database_url.startswith("sqlite")

    @property
    def database_pool(self) -> dict[str, int]:
        """The pool's options for ``bot.db.engine.create_engine`` (none for SQLite,
        whose pool is a file's connections and needs no sizing)."""
        if self.is_sqlite:
            return {}
        return {
            "pool_size": self.database_pool_size,
            "max_overflow": self.database_max_overflow,
            "pool_recycle": self.database_pool_recycle,
        }


def load_settings(env_file: str | Path | None = ".env", **overrides: Any) -> Settings:
    """Load settings, turning validation problems into one ``SettingsError``."""
    try:
        return Settings(_env_file=env_file, **overrides)
    except ValidationError as exc:
        problems = []
        for err in exc.errors():
            field = ".".join(str(p) for p in err["loc"]).upper() or "settings"
            msg = err["msg"].removeprefix("Value error, ")
            if err["type"] == "extra_forbidden":
                msg = "is not a clubbot setting (see .env.example for the keys)"
            problems.append(f"{field}: {msg}" if not msg.startswith(field) else msg)
        raise SettingsError("; ".join(problems)) from None


def configure_logging(level: str) -> None:
    logging.basicConfig(
        level=getattr(logging, level, logging.INFO),
        format="%(asctime)s %(levelname)-7s %(name)s: %(message)s",
    )
    # discord.py's own INFO lines are useful; its DEBUG lines can carry payloads.
    logging.getLogger("discord").setLevel(max(logging.INFO, getattr(logging, level, logging.INFO)))
    logging.getLogger("alembic").setLevel(logging.WARNING)
    # aiosqlite's DEBUG lines carry every SQL parameter (secret words, racks).
    logging.getLogger("aiosqlite").setLevel(
        max(logging.INFO, getattr(logging, level, logging.INFO))
    )
    logging.getLogger("discord.client").addFilter(_NoVoiceWarning())


class _NoVoiceWarning(logging.Filter):
    """The bot has no voice features; discord.py's warning about it is noise."""

    def filter(self, record: logging.LogRecord) -> bool:
        return "voice will NOT be supported" not in record.getMessage()
