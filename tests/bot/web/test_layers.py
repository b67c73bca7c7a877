"""The web layer's place (DESIGN.md): aiohttp pages over the services and renderers,
with no Discord in it, and no asset from outside the bot."""

from __future__ import annotations

import re
from pathlib import Path

from tests.test_architecture import _violations

WEB = Path(__file__).resolve().parents[3] / "bot" / "web"


def test_the_web_layer_imports_no_discord_and_no_ui_or_cogs() -> None:
    assert _violations("bot/web", ("discord", "bot.ui", "cogs", "bot.gateway")) == []


def test_templates_and_static_files_load_nothing_from_another_site() -> None:
    for path in [
        *WEB.glob("templates/*.html"),
        *WEB.glob("static/*.css"),
        *WEB.glob("static/*.js"),
    ]:
        text = path.read_text(encoding="utf-8")
        assert not re.search(r"(src|href)=\"(https?:)?//", text), path.name
        assert "url(http" not in text and "@import" not in text, path.name


def test_every_template_image_has_alt_text() -> None:
    for path in WEB.glob("templates/*.html"):
        for tag in re.findall(r"<img\b[^>]*>", path.read_text(encoding="utf-8")):
            assert 'alt="' in tag, (path.name, tag)
