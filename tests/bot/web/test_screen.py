"""The room's screen (issue #29, ``bot/web/screen.py``) through the web server on the real
services and database: its link opens like a board's; forged, revoked and other
clubs' links are refused; it shows what the club is doing now, by the priority its
module gives (a Henyo round, a Boggle round, results just in, …, the idle club);
a Boggle round's grid and countdown, then its results and the best words nobody
found; a Henyo round's pair, clock and penalties without its secret (in the state,
the page and the pushed events alike), then the result and the event's standings;
and the version moves whenever what it shows does."""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from aiohttp.test_utils import TestClient, TestServer

from bot.services import ServiceContext
from bot.services.board_links import LINK_DAYS, BoardLinks
from bot.services.boggle import BoggleService
from bot.services.club import ClubService
from bot.services.events.service import EventService
from bot.services.events.service import Member as EventMember
from bot.services.henyo import HenyoService
from bot.services.web import WebService
from bot.web import screen as screen_module
from bot.web.boards import cookie_name
from bot.web.server import WebApp
from tests.bot.services.test_boggle import (
    ANA,
    BEN,
    CHANNEL,
    SEED,
    T0,
    Env,
    finish,
    lexicon_file,
)
from tests.bot.services.test_henyo import PLAYERS
from tests.bot.services.test_henyo import World as HenyoWorld
from tests.clock import FakeClock
from tests.conftest import make_service_context

pytestmark = pytest.mark.clock(T0)
__all__ = ["lexicon_file"]  # the fixture, shared with test_boggle
GUILD = 10  # the Henyo tests' club; the Boggle rounds are started in it too
MODERATOR = 9


@dataclass
class Screen:
    ctx: ServiceContext
    client: TestClient[Any, Any]
    boggle: Env
    henyo: HenyoWorld
    links: BoardLinks

    async def link(self, guild: int = GUILD, subject: int | None = None) -> str:
        path = await self.links.link(
            guild, MODERATOR, "screen", guild if subject is None else subject, guild_name="Library"
        )
        assert path is not None
        return path.removeprefix("/p/")

    def cookies(self, token: str, guild: int = GUILD) -> dict[str, str]:
        return {cookie_name("screen", guild): token}

    async def state(self, token: str | None = None) -> dict[str, Any]:
        token = token or await self.link()
        response = await self.client.get(
            f"/board/screen/{GUILD}/state", cookies=self.cookies(token)
        )
        assert response.status == 200, await response.text()
        return dict(await response.json())

    async def page(self, token: str) -> str:
        response = await self.client.get(f"/board/screen/{GUILD}", cookies=self.cookies(token))
        assert response.status == 200
        return await response.text()


@pytest.fixture
async def screen(session_factory, lexicon_file: Path, clock: FakeClock) -> AsyncIterator[Screen]:
    ctx = make_service_context(session_factory, clock, lexicon=str(lexicon_file), web_port=0)
    boggle = BoggleService(ctx, seeds=lambda: SEED)
    henyo = HenyoService(ctx, rng=random.Random(5))
    ctx.scheduler.register_service(boggle)
    ctx.scheduler.register_service(henyo)
    client: TestClient[Any, Any] = TestClient(TestServer(WebApp(ctx).app()))
    await client.start_server()
    try:
        yield Screen(
            ctx,
            client,
            Env(boggle, clock, ctx.scheduler, session_factory),
            HenyoWorld(henyo, clock, ctx.scheduler, session_factory),
            BoardLinks(ctx),
        )
    finally:
        await client.close()
        await boggle.core.wait_background()


async def test_the_screen_link_opens_its_page_with_a_cookie_and_shows_the_idle_club(
    screen: Screen,
) -> None:
    token = await screen.link()
    response = await screen.client.get(f"/p/{token}", allow_redirects=False)
    assert response.status == 303
    assert response.headers["Location"] == f"/board/screen/{GUILD}"
    (cookie,) = response.headers.getall("Set-Cookie")
    assert cookie.startswith(f"{cookie_name('screen', GUILD)}={token};")
    assert f"Path=/board/screen/{GUILD}" in cookie and "HttpOnly" in cookie
    assert f"Max-Age={LINK_DAYS * 86400}" in cookie
    html = await screen.page(token)
    assert token not in html and "/static/board/screen.js" in html
    state = await screen.state(token)
    assert state["panel"] == "idle" and state["heading"] == "Library"
    assert "first a Henyo round, then a Boggle round" in state["priority"]
    # Nothing to change on a screen: no action route answers.
    response = await screen.client.post(
        f"/board/screen/{GUILD}/anything", json={}, cookies=screen.cookies(token)
    )
    assert response.status == 404


async def test_forged_revoked_and_other_clubs_screen_links_are_refused(screen: Screen) -> None:
    token = await screen.link()
    client = screen.client

    async def refused(cookie: str, code: str, guild: int = GUILD) -> None:
        path = f"/board/screen/{guild}"
        assert (await client.get(path, cookies=screen.cookies(cookie, guild))).status == 403
        for url in (f"{path}/state", f"{path}/events"):
            response = await client.get(url, cookies=screen.cookies(cookie, guild))
            assert response.status == 403, url
            assert (await response.json())["code"] == code

    forged = token[:-3] + ("AAA" if not token.endswith("AAA") else "BBB")
    assert (await client.get(f"/p/{forged}", allow_redirects=False)).status == 403
    await refused(forged, "link_forged")
    # A link of this club naming another club's screen, though signed: not this one's.
    await refused(await screen.link(subject=GUILD + 1), "link_not_yours")
    # This club's screen cookie sent to another club's screen.
    await screen.links.link(GUILD + 1, MODERATOR, "screen", GUILD + 1)
    await refused(token, "link_not_yours", GUILD + 1)
    # A member's Boggle board link is no screen.
    info = await screen.boggle.start(guild=GUILD)
    board = await screen.links.link(GUILD, ANA, "boggle", info.id)
    assert board is not None
    await refused(board.removeprefix("/p/"), "link_not_yours")
    # /club web rotate: every screen link given before is refused.
    await WebService(screen.ctx).set(GUILD, "Library", "rotate")
    await refused(token, "link_revoked")


async def test_a_boggle_round_shows_its_grid_and_countdown_then_its_results(
    screen: Screen,
) -> None:
    token = await screen.link()
    idle = await screen.state(token)
    info = await screen.boggle.start(guild=GUILD)
    await screen.boggle.dm(ANA, "canoe tonic toucan", guilds=(GUILD,))
    await screen.boggle.dm(BEN, "envoy canoe", guilds=(GUILD,))
    state = await screen.state(token)
    assert state["panel"] == "boggle" and state["version"] != idle["version"]
    assert state["heading"] == "Word Boggle — round 1"
    assert state["grid"][0] == ["I", "T", "V", "A"] and len(state["grid"]) == 4
    assert state["ends_at"] == info.ends_at.isoformat()
    assert state["now"] == screen.ctx.clock().isoformat()
    # Nobody's list before the round is scored, on the screen or in its page.
    shown = json.dumps(state) + await screen.page(token)
    for word in ("canoe", "tonic", "toucan", "envoy"):
        assert word not in shown.lower()

    await finish(screen.boggle, info)
    state = await screen.state(token)
    assert state["panel"] == "boggle_result"
    rows = {name: (rank, points) for rank, name, points in state["rows"]}
    # toucan 3 + tonic 2 (canoe is on both lists: crossed off); envoy 2.
    assert rows == {"player11": ("1", "5 points"), "player12": ("2", "2 points")}
    assert "CONVEY (3)" in state["missed"] and "TOUCAN (3)" not in state["missed"]
    assert state["missed_label"] == "Best words nobody found"

    # A while later the result gives way to the idle club.
    screen.boggle.clock.now += screen_module.RECENT + screen_module.RECENT
    assert (await screen.state(token))["panel"] == "idle"


async def _henyo_running(screen: Screen) -> tuple[Any, int]:
    world = screen.henyo
    await world.open()
    await world.register(0)
    await world.register(1)
    prepared, announce = await world.start()
    return prepared, announce


async def test_a_henyo_round_shows_its_clock_and_penalties_never_its_secret(
    screen: Screen,
) -> None:
    token = await screen.link()
    prepared, announce = await _henyo_running(screen)
    world = screen.henyo
    state = await screen.state(token)
    assert state["panel"] == "henyo" and state["status"] == "running"
    assert state["pair"] == f"{PLAYERS[0].name} guesses · {PLAYERS[1].name} answers"
    assert state["limit_ms"] == 120_000 and state["penalty_ms"] == 5_000
    assert state["penalties"] == 0 and state["started_at"] is not None
    assert state["word"] is None
    await world.say(prepared, announce, prepared.answerer, "siguro", 3_000)
    await world.say(prepared, announce, prepared.answerer, "ewan", 4_000)
    penalised = await screen.state(token)
    assert penalised["penalties"] == 2 and penalised["penalty_text"] == "2 penalties (+10 s)"
    assert penalised["version"] != state["version"]
    secret = prepared.word.lower()
    for shown in (json.dumps(state), json.dumps(penalised), await screen.page(token)):
        assert secret not in shown.lower()

    # The pushed events carry a version number and nothing else.
    async with screen.client.get(
        f"/board/screen/{GUILD}/events", cookies=screen.cookies(token)
    ) as stream:
        assert stream.status == 200
        first = await _version_event(stream)
        await world.say(prepared, announce, prepared.answerer, "baka", 5_000)
        second = await _version_event(stream)
    assert first != second and second == (await screen.state(token))["version"]

    # The guess: the result, the word (public now) and the event's standings.
    await world.say(prepared, announce, prepared.guesser, prepared.word, 20_000)
    result = await screen.state(token)
    assert result["panel"] == "henyo_result" and result["status"] == "guessed"
    assert result["outcome"] == "Guessed! Final time 35.0 s"  # 20 s + 3 penalties
    assert result["word"] == f"The word: {prepared.word}"
    [first_row] = result["standings"]["rows"][:1]
    assert first_row[1] == f"{PLAYERS[0].name} & {PLAYERS[1].name}" and first_row[2] == "35.0 s"


async def _version_event(stream: Any) -> int:
    """The next ``version`` event's number (comments and the retry line skipped)."""
    async with asyncio.timeout(10):
        event = None
        while True:
            line = (await stream.content.readline()).decode().strip()
            if line.startswith("event:"):
                event = line.removeprefix("event:").strip()
            elif line.startswith("data:") and event == "version":
                data = line.removeprefix("data:").strip()
                assert data.isdigit(), data
                return int(data)


async def test_a_henyo_round_comes_before_an_open_boggle_round_which_comes_before_results(
    screen: Screen,
) -> None:
    token = await screen.link()
    await screen.boggle.start(guild=GUILD)
    prepared, announce = await _henyo_running(screen)
    assert (await screen.state(token))["panel"] == "henyo"
    await screen.henyo.say(prepared, announce, prepared.guesser, prepared.word, 9_000)
    # The Henyo round is over; the Boggle round still open comes first.
    assert (await screen.state(token))["panel"] == "boggle"


async def test_the_host_s_hook_shows_the_secret_of_a_round_in_play(
    screen: Screen, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The documented hook the Henyo host console turns on (``secret_on_screen``)."""
    token = await screen.link()
    prepared, _announce = await _henyo_running(screen)
    assert (await screen.state(token))["word"] is None
    monkeypatch.setattr(screen_module, "secret_on_screen", lambda round_: True)
    assert (await screen.state(token))["word"] == f"The word: {prepared.word}"


async def test_the_screen_speaks_the_club_s_language(screen: Screen) -> None:
    await ClubService(screen.ctx).setup(GUILD, "Library", language="fil")
    token = await screen.link()
    state = await screen.state(token)
    assert state["nothing"] == "Walang nilalaro ngayon."
    assert state["title"] == "Library: ang screen ng silid"
    assert 'lang="fil"' in await screen.page(token)
    await screen.boggle.start(guild=GUILD)
    shown = await screen.state(token)
    assert shown["left_label"] == "Natitirang oras"
    assert shown["playing_text"] == "Isulat ang inyong mga salita: hindi bababa sa 4 letra."


async def test_a_games_event_under_way_shows_each_game_s_standings_between_rounds(
    screen: Screen,
) -> None:
    events = EventService(screen.ctx, boggle=lambda: screen.boggle.service)
    view = await events.entry.open(
        guild_id=GUILD,
        guild_name="Library",
        channel_id=CHANNEL,
        host=EventMember(MODERATOR, "host"),
        is_moderator=True,
        games="boggle",
        pairs=2,
        name="Play games and win prizes",
    )
    for first, second in ((ANA, BEN), (ANA + 10, BEN + 10)):
        await events.entry.register(
            guild_id=GUILD,
            channel_id=CHANNEL,
            ref=None,
            user=EventMember(first, f"player{first}"),
            partner=EventMember(second, f"player{second}"),
        )
    token = await screen.link()
    assert (await screen.state(token))["panel"] == "idle"  # registering: not under way yet
    started = await events.running.start_round(
        guild_id=GUILD,
        guild_name="Library",
        channel_id=CHANNEL,
        ref=view.id,
        user_id=MODERATOR,
        is_moderator=True,
        game="boggle",
    )
    assert (await screen.state(token))["panel"] == "boggle"  # the round itself comes first
    await screen.boggle.dm(ANA, "canoe tonic", guilds=(GUILD,))
    [info] = [r for r in await screen.boggle.rounds() if r.id == started.ref_id]
    await finish(screen.boggle, info)
    assert (await screen.state(token))["panel"] == "boggle_result"
    screen.boggle.clock.now += screen_module.RECENT + screen_module.RECENT
    state = await screen.state(token)
    assert state["panel"] == "event" and state["heading"] == "Play games and win prizes"
    [table] = state["tables"]
    assert table["heading"] == "Word Boggle"
    assert table["rows"][0][1] == "player11 & player12"
