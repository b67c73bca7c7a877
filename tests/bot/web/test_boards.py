"""The board pages' foundation (issue #28, ``bot/web/boards.py``) through aiohttp's test
client on the real services and database, with a Scrabble game as the board: the
private link becomes a cookie scoped to its one board and leaves no secret in the
address; forged, expired, revoked and other members' links, a cookie sent to
another game's board and a missing or wrong CSRF token are refused with nothing
changed; a member's sixth change in a second is too fast; a move made through the
service (as Discord makes it) is pushed to an open page's event stream at once."""

from __future__ import annotations

import asyncio
import time
from typing import Any

from bot.services.board_links import LINK_DAYS
from bot.services.web import WebService
from bot.web.boards import RATE, RateLimit
from tests.bot.services.scrabble_support import CAROL, GUILD
from tests.bot.web import scrabble_pages
from tests.bot.web.scrabble_pages import Scrabble, tiles
from tests.clock import FakeClock

# The Scrabble pages' fixtures (a fixture is found by its name in the test's module).
web_ctx = scrabble_pages.web_ctx
scrabble_web = scrabble_pages.scrabble_web


async def _refused_everywhere(scrabble: Scrabble, game_id: int, cookie: str, code: str) -> None:
    """The page, its state, its events and a change, each refused (403) for ``cookie``."""
    path = f"/board/scrabble/{game_id}"
    cookies = {f"board_scrabble_{game_id}": cookie}
    client = scrabble.client
    response = await client.get(path, cookies=cookies)
    assert response.status == 403
    for url in (f"{path}/state", f"{path}/events"):
        response = await client.get(url, cookies=cookies)
        assert response.status == 403, url
        assert (await response.json())["code"] == code
    response = await client.post(
        f"{path}/pass", json={"version": 1}, cookies=cookies, headers={"X-CSRF-Token": "x"}
    )
    assert response.status == 403 and (await response.json())["code"] == code


async def test_a_link_opens_with_a_303_and_an_http_only_same_site_cookie_scoped_to_its_board(
    scrabble_web: Scrabble,
) -> None:
    game_id = await scrabble_web.new_game()
    link = await scrabble_web.link(1, game_id)
    token = link.removeprefix("/p/")
    response = await scrabble_web.client.get(link, allow_redirects=False)
    assert response.status == 303
    location = response.headers["Location"]
    assert location == f"/board/scrabble/{game_id}" and token not in location
    (cookie,) = response.headers.getall("Set-Cookie")
    parts = [p.strip() for p in cookie.split(";")]
    assert parts[0] == f"board_scrabble_{game_id}={token}"
    flags = {p.split("=", 1)[0].lower(): (p.split("=", 1) + [""])[1] for p in parts[1:]}
    assert "httponly" in flags and flags["samesite"] == "Lax"
    assert flags["path"] == f"/board/scrabble/{game_id}"
    assert 0 < int(flags["max-age"]) <= LINK_DAYS * 86400
    # The page it leads to: no token in it, the session's CSRF token for its script.
    page = await scrabble_web.open(1, game_id)
    assert token not in page.html and page.csrf and page.csrf not in token


async def test_forged_expired_revoked_and_other_members_links_are_refused_and_change_nothing(
    scrabble_web: Scrabble, clock: FakeClock
) -> None:
    game_id = await scrabble_web.new_game()
    other_game = await scrabble_web.new_game()
    before = await scrabble_web.row(game_id)
    client = scrabble_web.client
    link = await scrabble_web.link(1, game_id)
    token = link.removeprefix("/p/")

    forged = token[:-3] + ("AAA" if not token.endswith("AAA") else "BBB")
    response = await client.get(f"/p/{forged}", allow_redirects=False)
    assert response.status == 403 and "Set-Cookie" not in response.headers
    await _refused_everywhere(scrabble_web, game_id, forged, "link_forged")
    # A token naming another member, signed with a made-up mac: forged too.
    fields = token.split(".")
    fields[2] = str(CAROL.user_id)
    carols = ".".join(fields)
    await _refused_everywhere(scrabble_web, game_id, carols, "link_forged")
    # Carol's own genuine link: she is not in the game.
    response = await client.get(await scrabble_web.link(CAROL.user_id, game_id))
    assert response.status == 403
    await _refused_everywhere(
        scrabble_web,
        game_id,
        (await scrabble_web.link(CAROL.user_id, game_id)).removeprefix("/p/"),
        "link_not_yours",
    )
    # This game's cookie sent to another game's board.
    await _refused_everywhere(scrabble_web, other_game, token, "link_not_yours")

    # Expired: the club's clock moved past the link's days.
    clock.advance(days=LINK_DAYS, seconds=1)
    await _refused_everywhere(scrabble_web, game_id, token, "link_expired")
    clock.advance(days=-LINK_DAYS, seconds=-1)
    fresh = (await scrabble_web.link(1, game_id)).removeprefix("/p/")
    assert (
        await client.get(
            f"/board/scrabble/{game_id}/state", cookies={f"board_scrabble_{game_id}": fresh}
        )
    ).status == 200

    # Revoked: /club web rotate's service call; every link given before is refused.
    await WebService(scrabble_web.ctx).set(GUILD, "Club", "rotate")
    await _refused_everywhere(scrabble_web, game_id, fresh, "link_revoked")
    response = await client.get(f"/p/{fresh}", allow_redirects=False)
    assert response.status == 403 and "Set-Cookie" not in response.headers

    assert await scrabble_web.row(game_id) == before
    assert (await scrabble_web.row(other_game)).moves == 0


async def test_a_change_without_or_with_a_wrong_csrf_token_is_refused_and_changes_nothing(
    scrabble_web: Scrabble,
) -> None:
    game_id = await scrabble_web.new_game()
    _, user = await scrabble_web.mover(game_id)
    other = await scrabble_web.open(3 - user, game_id)  # the client's cookie is then the mover's
    page = await scrabble_web.open(user, game_id)
    before = await scrabble_web.row(game_id)
    body = {"version": before.version}
    for headers in ({}, {"X-CSRF-Token": "not-the-token"}, {"X-CSRF-Token": ""}):
        response = await scrabble_web.client.post(f"{page.path}/pass", json=body, headers=headers)
        assert response.status == 403, headers
        assert (await response.json())["code"] == "csrf"
    # Another member's page's token is not this one's either.
    assert other.csrf != page.csrf
    response = await scrabble_web.client.post(
        f"{page.path}/pass", json=body, headers={"X-CSRF-Token": other.csrf}
    )
    assert response.status == 403
    # A page of another site (its Origin) is refused even with the token.
    response = await scrabble_web.client.post(
        f"{page.path}/pass",
        json=body,
        headers={"X-CSRF-Token": page.csrf, "Origin": "https://elsewhere.example"},
    )
    assert response.status == 403
    assert await scrabble_web.row(game_id) == before
    status, answer = await page.post("pass", body)  # with the token: it goes
    assert status == 200 and answer["ok"] and (await scrabble_web.row(game_id)).moves == 1


async def test_a_sixth_change_within_a_second_is_too_fast(scrabble_web: Scrabble) -> None:
    now = [100.0]  # the limiter's clock, held still: all six come at the same moment
    scrabble_web.web.boards.limit = RateLimit(RATE, clock=lambda: now[0])
    game_id = await scrabble_web.new_game()
    _, user = await scrabble_web.mover(game_id)
    page = await scrabble_web.open(user, game_id)
    before = await scrabble_web.row(game_id)
    body = {"tiles": tiles((7, 7, "A"), (7, 8, "T"))}
    answers = [await page.post("preview", body) for _ in range(RATE)]
    assert [status for status, _ in answers] == [200] * RATE
    status, answer = await page.post("pass", {"version": before.version})
    assert status == 429 and answer["code"] == "too_fast" and answer["message"]
    assert await scrabble_web.row(game_id) == before  # the pass was not made
    now[0] += 1 / RATE  # a fifth of a second later, one more
    assert (await page.post("preview", body))[0] == 200
    assert (await page.post("preview", body))[0] == 429


async def _next_version(lines: Any, timeout: float) -> int:
    """The next ``version`` event of a server-sent event stream."""

    async def read() -> int:
        event = None
        async for raw in lines:
            line = raw.decode().rstrip("\n")
            if line.startswith("event: "):
                event = line.removeprefix("event: ")
            elif line.startswith("data: ") and event == "version":
                return int(line.removeprefix("data: "))
        raise AssertionError("the stream ended")

    return await asyncio.wait_for(read(), timeout)


async def test_the_event_stream_sends_a_move_made_through_the_service_within_a_second(
    scrabble_web: Scrabble,
) -> None:
    game_id = await scrabble_web.new_game()
    _, user = await scrabble_web.mover(game_id)
    page = await scrabble_web.open(3 - user, game_id)  # the other member watches
    version = (await page.state())["version"]
    response = await scrabble_web.client.get(f"{page.path}/events")
    assert response.status == 200
    assert response.headers["Content-Type"].startswith("text/event-stream")
    assert await _next_version(response.content, 2) == version
    # The mover passes in Discord: the cog calls the same service.
    started = time.monotonic()
    await scrabble_web.service.moves.pass_turn(game_id, user)
    assert await _next_version(response.content, 1) == version + 1
    assert time.monotonic() - started < 1
    response.close()
