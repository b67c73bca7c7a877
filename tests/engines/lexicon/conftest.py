import pytest


@pytest.fixture(autouse=True)
def _private_dawg_cache(tmp_path, monkeypatch):
    """Built DAWGs go to a per-test folder, never to the developer's cache."""
    monkeypatch.setenv("CLUBBOT_CACHE_DIR", str(tmp_path / "cache"))
