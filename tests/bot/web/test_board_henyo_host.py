"""The Henyo host console's page (``bot/web/board_henyo_host.py``) and the room's screen
of a round played aloud, through the web server on the real services and database
(SQLite, and PostgreSQL with TEST_DATABASE_URL): the host's link opens the console
(the secret in it, for the host only), another member's link or a typed round's is
refused, presses carry the version they were made on (a retried one counts once)
and need the session's CSRF token, and the screen shows the clock and penalties
the presses make but the secret only once the host switches it on."""

from __future__ import annotations

from typing import Any

import pytest

from bot.web.boards import cookie_name
from tests.bot.services.test_henyo import HOST, PLAYERS
from tests.bot.web import test_screen
from tests.bot.web.test_screen import GUILD, T0, Screen

pytestmark = pytest.mark.clock(T0)
screen = test_screen.screen  # the room's screen tests' web server and services (a fixture)
lexicon_file = test_screen.lexicon_file  # the fixture the screen fixture needs
KIND = "henyo_host"


async def _aloud(screen: Screen, word: str = "kalabaw") -> int:
    world = screen.henyo
    prepared = await world.prepare(
        guesser=PLAYERS[0], answerer=PLAYERS[1], word=word, referee="host"
    )
    await world.svc.host.announce(prepared.round_id, world.flake(world.clock()))
    return prepared.round_id


async def _open(
    screen: Screen, round_id: int, user_id: int = HOST.id
) -> tuple[dict[str, str], str]:
    path = await screen.links.link(GUILD, user_id, KIND, round_id, guild_name="Library")
    assert path is not None
    token = path.removeprefix("/p/")
    response = await screen.client.get(path, allow_redirects=False)
    return {cookie_name(KIND, round_id): token}, str(response.status)


async def _state(screen: Screen, round_id: int, cookies: dict[str, str]) -> dict[str, Any]:
    response = await screen.client.get(f"/board/{KIND}/{round_id}/state", cookies=cookies)
    assert response.status == 200, await response.text()
    return dict(await response.json())


async def _act(
    screen: Screen, round_id: int, cookies: dict[str, str], action: str, body: dict[str, Any]
) -> tuple[int, dict[str, Any]]:
    page = await screen.client.get(f"/board/{KIND}/{round_id}", cookies=cookies)
    html = await page.text()
    csrf = html.split('data-csrf="', 1)[1].split('"', 1)[0]
    response = await screen.client.post(
        f"/board/{KIND}/{round_id}/{action}",
        json=body,
        cookies=cookies,
        headers={"X-CSRF-Token": csrf},
    )
    return response.status, dict(await response.json())


async def test_the_hosts_link_opens_the_console_and_nobody_elses_does(screen: Screen) -> None:
    round_id = await _aloud(screen)
    cookies, status = await _open(screen, round_id)
    assert status == "303"
    state = await _state(screen, round_id, cookies)
    assert state["status"] == "waiting" and state["can"] == ["start", "undo"]
    assert state["word"] == "kalabaw"  # the host's own console
    html = await (await screen.client.get(f"/board/{KIND}/{round_id}", cookies=cookies)).text()
    assert "/static/board/henyo_host.js" in html

    other, status = await _open(screen, round_id, user_id=PLAYERS[1].id)
    assert status == "403"
    response = await screen.client.get(f"/board/{KIND}/{round_id}/state", cookies=other)
    assert response.status == 403 and (await response.json())["code"] == "link_not_yours"

    host = screen.henyo.svc.host
    for press in ("start", "got_it"):
        version = (await host.console(round_id, user_id=HOST.id, is_moderator=False)).version
        await host.press(
            round_id, user_id=HOST.id, is_moderator=False, action=press, version=version
        )
    typed, _announce = await screen.henyo.start(guesser=PLAYERS[2], answerer=PLAYERS[3])
    _cookies, status = await _open(screen, typed.round_id)
    assert status == "403"


async def test_presses_carry_their_version_and_need_the_csrf_token(screen: Screen) -> None:
    round_id = await _aloud(screen)
    cookies, _status = await _open(screen, round_id)
    version = (await _state(screen, round_id, cookies))["version"]
    forged = await screen.client.post(
        f"/board/{KIND}/{round_id}/press",
        json={"press": "start", "version": version},
        cookies=cookies,
        headers={"X-CSRF-Token": "nope"},
    )
    assert forged.status == 403
    status, started = await _act(
        screen, round_id, cookies, "press", {"press": "start", "version": version}
    )
    assert status == 200 and started["counted"] is True
    assert started["state"]["status"] == "running"
    status, again = await _act(
        screen, round_id, cookies, "press", {"press": "start", "version": version}
    )
    assert status == 200 and again["counted"] is False and "already counted" in again["note"]
    status, refused = await _act(
        screen, round_id, cookies, "press", {"press": "launch", "version": version}
    )
    assert status == 409 and refused["ok"] is False  # a refusal: nothing changed


async def test_the_screen_shows_the_presses_and_the_word_only_once_switched_on(
    screen: Screen,
) -> None:
    token = await screen.link()
    round_id = await _aloud(screen, word="bangka")
    cookies, _status = await _open(screen, round_id)
    shown = await screen.state(token)
    assert shown["panel"] == "henyo" and shown["started_at"] is None

    state = await _state(screen, round_id, cookies)
    await _act(screen, round_id, cookies, "press", {"press": "start", "version": state["version"]})
    screen.henyo.clock.advance(seconds=9)
    state = await _state(screen, round_id, cookies)
    await _act(
        screen, round_id, cookies, "press", {"press": "penalty", "version": state["version"]}
    )
    shown = await screen.state(token)
    assert shown["started_at"] is not None and shown["penalties"] == 1
    assert shown["word"] is None
    assert "bangka" not in await screen.page(token)

    status, switched = await _act(screen, round_id, cookies, "screen", {"shown": True})
    assert status == 200 and switched["state"]["shown_on_screen"] is True
    assert (await screen.state(token))["word"] == "The word: bangka"
    await _act(screen, round_id, cookies, "screen", {"shown": False})
    assert (await screen.state(token))["word"] is None
