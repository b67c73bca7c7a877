"""F27: a live game's page showed "Live This page follows the game: reload to see
the newest move." (the badge ran into a sentence that was untrue while live.js
refreshed the board). The badge stands alone; the note under it tells a page
without JavaScript to reload and carries the text live.js shows instead."""

from __future__ import annotations

import html as html_lib
import re
from pathlib import Path

from bot.web import server
from tests.bot.web.conftest import World


async def test_a_live_page_shows_its_badge_apart_from_a_note_true_without_javascript(
    world: World,
) -> None:
    response = await world.get(f"{world.base}games/{world.chess_live}")
    page = await response.text()
    assert response.status == 200
    status = re.search(r'<p class="status">(.*?)</p>', page, re.S)
    assert status is not None
    assert re.sub(r"<[^>]+>", "", status.group(1)).strip() == "Live"
    note = re.search(r'<p class="live-note" id="live-note" data-js="([^"]+)">(.*?)</p>', page, re.S)
    assert note is not None, page
    shown = re.sub(r"<[^>]+>", "", note.group(2)).strip()
    assert shown == "Reload this page to see the newest move. Reload"
    assert html_lib.unescape(note.group(1)) == "New moves appear here as they are played."


def test_the_live_script_swaps_the_note_for_its_javascript_text() -> None:
    script = (Path(server.__file__).parent / "static" / "live.js").read_text(encoding="utf-8")
    assert 'getElementById("live-note")' in script and 'getAttribute("data-js")' in script
