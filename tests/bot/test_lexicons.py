"""The bot's word-list loading: a club's list has its DAWG built once and kept on disk,
in the folder the settings name (``CLUBBOT_CACHE_DIR``), for the next process."""

from __future__ import annotations

import pytest

import engines.lexicon.lexicon as lexicon_module
from bot.config import load_settings
from bot.lexicons import DiskDawgStore, dawg_cache_dir, load_word_list
from bot.services.words import get_lexicon
from engines.lexicon import Dawg


def _club_list(tmp_path, text="ant\nants\nbee\n"):
    path = tmp_path / "club-words.txt"
    path.write_text(text, encoding="utf-8")
    return path


def test_the_cache_folder_is_the_settings_one(tmp_path, monkeypatch):
    monkeypatch.setenv("CLUBBOT_CACHE_DIR", str(tmp_path / "cache"))
    assert dawg_cache_dir(load_settings(None)) == tmp_path / "cache" / "lexicon"


def test_without_a_setting_the_cache_is_in_the_users_cache_folder(tmp_path, monkeypatch):
    monkeypatch.delenv("CLUBBOT_CACHE_DIR", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert dawg_cache_dir(load_settings(None)) == tmp_path / "xdg" / "clubbot" / "lexicon"


def test_a_club_lists_dawg_is_built_once_and_read_from_disk_by_the_next_process(
    tmp_path, monkeypatch
):
    settings = load_settings(None, clubbot_cache_dir=tmp_path / "cache")
    path = _club_list(tmp_path)
    first = load_word_list(str(path), settings)
    assert "ants" in first.dawg
    cached = list((tmp_path / "cache" / "lexicon").glob("*.dawg.gz"))
    assert [p.name for p in cached] == [f"{first.fingerprint}.dawg.gz"]
    assert Dawg.from_bytes(cached[0].read_bytes()).fingerprint.hex() == first.fingerprint

    # A new process: nothing in memory, so the list is read again; its DAWG is not rebuilt.
    monkeypatch.setattr(lexicon_module, "_loaded", {})
    monkeypatch.setattr(lexicon_module, "build_dawg", lambda *a, **k: pytest.fail("rebuilt"))
    again = load_word_list(str(path), settings)
    assert again is not first
    assert list(again.dawg.words()) == ["ant", "ants", "bee"]


def test_an_unwritable_cache_folder_still_gives_a_dawg(tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    store = DiskDawgStore(blocker / "lexicon")
    lexicon = lexicon_module._load_file(_club_list(tmp_path, "ant\n"))
    lexicon.use_store(store)
    assert "ant" in lexicon.dawg
    assert store.read(bytes.fromhex(lexicon.fingerprint)) is None


def test_the_built_in_list_writes_nothing_to_the_cache(tmp_path):
    settings = load_settings(None, clubbot_cache_dir=tmp_path / "cache")
    assert "quixotic" in load_word_list("default", settings).dawg
    assert not (tmp_path / "cache").exists()


async def test_a_games_word_list_is_cached_where_the_bots_settings_say(tmp_path, ctx):
    ctx.settings = load_settings(None, clubbot_cache_dir=tmp_path / "club-cache")
    lexicon = await get_lexicon(ctx, str(_club_list(tmp_path, "quiz\nquizzes\n")))
    assert "quizzes" in lexicon.dawg
    assert [p.name for p in (tmp_path / "club-cache" / "lexicon").iterdir()] == [
        f"{lexicon.fingerprint}.dawg.gz"
    ]
