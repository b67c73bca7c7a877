from __future__ import annotations

from pathlib import Path

import pytest

from bot.config import Settings, SettingsError, load_settings

KEYS = (
    "DISCORD_TOKEN",
    "DATABASE_URL",
    "DISCORD_GUILD_IDS",
    "LEXICON",
    "LOG_LEVEL",
    "SHARD_COUNT",
    "SHARD_IDS",
)


@pytest.fixture(autouse=True)
def _clean_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for key in KEYS + ("STOCKFISH_PATH", "DISCORD_API_BASE"):
        monkeypatch.delenv(key, raising=False)


def test_defaults_use_a_local_sqlite_file_and_no_token(tmp_path: Path) -> None:
    s = load_settings(tmp_path / "missing.env")
    assert s.discord_token is None
    assert s.database_url == "sqlite+aiosqlite:///clubbot.db"
    assert s.discord_guild_ids == []
    assert s.log_level == "INFO"


def test_guild_ids_are_a_comma_list(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("DISCORD_GUILD_IDS", "123, 456,789")
    assert load_settings(tmp_path / "none").discord_guild_ids == [123, 456, 789]


def test_malformed_guild_ids_give_a_readable_error(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("DISCORD_GUILD_IDS", "123,abc")
    with pytest.raises(
        SettingsError, match="DISCORD_GUILD_IDS must be a comma-separated list of numbers"
    ):
        load_settings(tmp_path / "none")


def test_unknown_key_in_env_file_is_rejected_by_name(tmp_path: Path) -> None:
    env = tmp_path / ".env"
    env.write_text("DISCORD_TOKNE=abc\n")
    with pytest.raises(SettingsError, match="DISCORD_TOKNE: is not a clubbot setting"):
        load_settings(env)


def test_bad_log_level_and_database_driver_are_reported(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("LOG_LEVEL", "loud")
    monkeypatch.setenv("DATABASE_URL", "mysql://root@localhost/db")
    with pytest.raises(SettingsError) as info:
        load_settings(tmp_path / "none")
    assert "LOG_LEVEL must be one of" in str(info.value)
    assert "driver 'mysql' is not supported" in str(info.value)


def test_plain_postgres_url_gets_the_async_driver_and_password_is_masked(
    monkeypatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("DATABASE_URL", "postgresql://club:s3cret@db.example/club")
    s = load_settings(tmp_path / "none")
    assert s.database_url.startswith("postgresql+asyncpg://")
    assert "s3cret" not in s.safe_database_url


def test_token_is_secret_in_repr(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", "MTIz.secret-token")
    s = load_settings(tmp_path / "none")
    assert s.discord_token is not None and s.discord_token.get_secret_value() == "MTIz.secret-token"
    assert "secret-token" not in repr(s) and "secret-token" not in str(s)


def test_shard_ids_must_fit_the_shard_count(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("SHARD_COUNT", "2")
    monkeypatch.setenv("SHARD_IDS", "0,2")
    with pytest.raises(SettingsError, match="below SHARD_COUNT"):
        load_settings(tmp_path / "none")


def test_every_setting_is_documented_in_env_example() -> None:
    example = (Path(__file__).resolve().parents[2] / ".env.example").read_text()
    for name in Settings.model_fields:
        assert f"{name.upper()}=" in example, f"{name.upper()} is missing from .env.example"


def _example() -> str:
    return (Path(__file__).resolve().parents[2] / ".env.example").read_text()


def test_env_example_copied_to_env_loads_with_its_empty_keys_unset(tmp_path: Path) -> None:
    env = tmp_path / ".env"
    env.write_text(_example().replace("DISCORD_TOKEN=\n", "DISCORD_TOKEN=abc.def\n"))
    s = load_settings(env)
    assert s.discord_token is not None and s.discord_token.get_secret_value() == "abc.def"
    assert s.shard_count is None and s.shard_ids is None and s.stockfish_path is None
    assert s.database_url == "sqlite+aiosqlite:///clubbot.db"


def test_env_example_passed_as_environment_loads_too(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # systemd's EnvironmentFile= hands every line over, the empty ones as "".
    for line in _example().splitlines():
        if line and not line.startswith("#"):
            key, _, value = line.partition("=")
            monkeypatch.setenv(key, value)
    s = load_settings(tmp_path / "missing.env")
    assert s.shard_count is None and s.discord_guild_ids == [] and s.discord_token is None
    assert s.scheduler_poll_seconds == 1.0
