"""The daily Boggle grid on a member's own Boggle board page (``boggle_daily``, issue #31)
through the web server, on the real database (SQLite and PostgreSQL): the day's grid
and the member's own countdown (from when they opened it, stored) and list; words
traced on the page and DM'd are one list, kept as the DMs' are; after the countdown a
change is refused with the page's own words and nothing changes; a page is pushed its
own member's changes only; another member's link or another club's opens nothing."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from aiohttp.test_utils import TestClient, TestServer
from sqlalchemy import select

import bot.services.boggle.daily as daily_module
from bot.db.models_daily import BoggleDailyPlayRecord
from bot.services.board_address import BoardAddresses
from bot.services.board_links import BoardLinks
from bot.services.boggle import BoggleService
from bot.services.boggle.daily import DailyInfo, play_words
from bot.web.boards import cookie_name
from bot.web.server import WebApp
from tests.bot.services.test_boggle import ANA, BEN, CHANNEL, GUILD, SEED, T0, Env, lexicon_file
from tests.conftest import make_service_context

pytestmark = pytest.mark.clock(T0)
__all__ = ["lexicon_file"]


@dataclass
class Page:
    client: TestClient[Any, Any]
    daily_id: int
    token: str
    csrf: str

    def headers(self) -> dict[str, str]:
        return {
            "Cookie": f"{cookie_name('boggle_daily', self.daily_id)}={self.token}",
            "X-CSRF-Token": self.csrf,
        }

    async def state(self) -> dict[str, Any]:
        response = await self.client.get(
            f"/board/boggle_daily/{self.daily_id}/state", headers=self.headers()
        )
        assert response.status == 200, await response.text()
        return dict(await response.json())

    async def words(self, status: int = 200, **body: list[str]) -> dict[str, Any]:
        response = await self.client.post(
            f"/board/boggle_daily/{self.daily_id}/words", json=body, headers=self.headers()
        )
        assert response.status == status, await response.text()
        return dict(await response.json())


@dataclass
class World:
    env: Env
    client: TestClient[Any, Any]
    links: BoardLinks

    async def opened(self, user: int) -> DailyInfo:
        return await self.env.service.daily.open(
            guild_id=GUILD,
            guild_name="club 1",
            channel_id=CHANNEL,
            user_id=user,
            display_name=f"player{user}",
        )

    async def page(self, user: int, daily_id: int) -> Page:
        path = await self.links.link(GUILD, user, "boggle_daily", daily_id, guild_name="club 1")
        assert path is not None
        token = path.removeprefix("/p/")
        return Page(self.client, daily_id, token, (await self.links.session(token)).csrf)

    async def play(self, user: int) -> BoggleDailyPlayRecord:
        async with self.env.factory() as session:
            found = await session.execute(
                select(BoggleDailyPlayRecord).where(BoggleDailyPlayRecord.player_id == user)
            )
            return found.scalar_one()


@pytest.fixture
async def world(
    session_factory, lexicon_file: Path, clock, monkeypatch: pytest.MonkeyPatch
) -> AsyncIterator[World]:
    monkeypatch.setattr(daily_module, "daily_seed", lambda guild_id, day: SEED)
    ctx = make_service_context(session_factory, clock, lexicon=str(lexicon_file), web_port=0)
    service = BoggleService(ctx)
    ctx.scheduler.register_service(service)
    client: TestClient[Any, Any] = TestClient(TestServer(WebApp(ctx).app()))
    await client.start_server()
    try:
        yield World(Env(service, clock, ctx.scheduler, session_factory), client, BoardLinks(ctx))
    finally:
        await client.close()
        await service.core.wait_background()


def _words(state: dict[str, Any]) -> list[str]:
    return [item["word"] for item in state["words"]]


async def test_the_page_has_the_days_grid_the_members_own_countdown_and_list(
    world: World,
) -> None:
    ana_info = await world.opened(ANA)
    world.env.clock.advance(seconds=50)
    ben_info = await world.opened(BEN)
    await world.env.dm(BEN, "envoy covet")
    ana, ben = await world.page(ANA, ana_info.id), await world.page(BEN, ben_info.id)
    state = await ana.state()
    assert state["taking"] is True and state["results"] is None and state["pair_note"] == ""
    assert state["round"]["countdown_to"] == ana_info.ends_at.isoformat()
    assert state["round"]["ends_at"] == (T0 + timedelta(minutes=3)).isoformat()
    assert state["now"] == world.env.clock().isoformat()
    assert [c["face"] for c in state["cells"][:4]] == ["I", "T", "V", "A"]
    assert state["title"] == f"Daily Word Boggle — {ana_info.day}"
    assert "Your own countdown runs" in state["status_text"]
    assert _words(state) == []  # Ben's words are his
    assert (await ben.state())["round"]["countdown_to"] == ben_info.ends_at.isoformat()
    assert _words(await ben.state()) == ["envoy", "covet"]
    page = await world.client.get(f"/board/boggle_daily/{ana_info.id}", headers=ana.headers())
    html = await page.text()
    assert page.status == 200 and 'id="boggle"' in html and "/static/board/boggle.js" in html
    assert "envoy" not in html


async def test_page_and_dm_words_are_one_list_kept_as_dm_words_are(world: World) -> None:
    info = await world.opened(ANA)
    ana = await world.page(ANA, info.id)
    answer = await ana.words(add=["canoe", "tonic"])
    assert [w["word"] for w in answer["words"]] == ["canoe", "tonic"]
    await world.env.dm(ANA, "covet")
    answer = await ana.words(remove=["tonic"], add=["zebra", "x1"])
    assert [w["word"] for w in answer["words"]] == ["canoe", "covet", "zebra"]
    assert answer["words"][2]["note"] == "Not on the grid"
    assert answer["note"] == "Left out (not letters only): x1."
    play = await world.play(ANA)
    assert [e["via"] for e in play.entries] == ["web", "dm", "web"]
    assert play_words(play, 16) == ["canoe", "covet", "zebra"]
    assert _words(await ana.state()) == ["canoe", "covet", "zebra"]


async def test_after_the_countdown_a_change_is_refused_and_nothing_changes(world: World) -> None:
    info = await world.opened(ANA)
    ana = await world.page(ANA, info.id)
    await ana.words(add=["canoe"])
    world.env.clock.advance(minutes=3)
    state = await ana.state()
    assert state["taking"] is False and state["round"]["status"] == "closed"
    assert "Your countdown is over" in state["status_text"]
    refused = await ana.words(409, add=["tonic"])
    assert refused["ok"] is False and refused["message"].startswith(
        "Your countdown for this grid ended at"
    )
    assert "<t:" not in refused["message"]  # the page's words, not Discord's timestamps
    assert _words(await ana.state()) == ["canoe"]
    assert [e["via"] for e in (await world.play(ANA)).entries] == ["web"]
    # Opening the grid again changes nothing: the same countdown, over.
    assert (await world.opened(ANA)).ends_at == info.ends_at


async def test_a_page_is_pushed_its_own_members_changes_only(world: World) -> None:
    info = await world.opened(ANA)
    await world.opened(BEN)
    ana, ben = await world.page(ANA, info.id), await world.page(BEN, info.id)
    first = (await ana.state())["version"]
    stream = await world.client.get(f"/board/boggle_daily/{info.id}/events", headers=ana.headers())
    assert stream.status == 200
    assert await _next_version(stream.content) == first
    await ben.words(add=["canoe"])
    await world.env.dm(BEN, "envoy")
    assert (await ana.state())["version"] == first
    await world.env.dm(ANA, "tonic")  # a DM moves Ana's page on
    mine = (await ana.state())["version"]
    assert mine == first + 1
    assert await _next_version(stream.content) == mine
    stream.close()


async def test_a_member_who_did_not_open_the_grid_or_another_clubs_link_opens_nothing(
    world: World,
) -> None:
    info = await world.opened(ANA)
    links = world.links
    for guild, user in ((GUILD, BEN), (GUILD + 1, ANA)):
        path = await links.link(guild, user, "boggle_daily", info.id, guild_name="club")
        assert path is not None
        token = path.removeprefix("/p/")
        response = await world.client.get(
            f"/board/boggle_daily/{info.id}/state",
            headers={"Cookie": f"{cookie_name('boggle_daily', info.id)}={token}"},
        )
        assert response.status == 403
        assert (await response.json())["code"] == "link_not_yours"


async def _next_version(lines: Any, timeout: float = 5) -> int:
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


async def test_the_link_is_offered_while_the_members_countdown_runs(
    session_factory, clock, world: World
) -> None:
    """/boggle daily's button: only with ``WEB_PORT`` and ``WEB_BASE_URL``, to a member
    who opened the grid, while their own countdown runs (as the form's button)."""
    info = await world.opened(ANA)
    base = "https://games.example.org"
    offered = BoardAddresses(
        make_service_context(session_factory, clock, web_port=0, web_base_url=base)
    )
    url = await offered.url(GUILD, ANA, "boggle_daily", info.id)
    assert url is not None and url.startswith(f"{base}/p/")
    assert await offered.url(GUILD, BEN, "boggle_daily", info.id) is None  # not opened
    unset = BoardAddresses(make_service_context(session_factory, clock, web_port=0))
    assert await unset.url(GUILD, ANA, "boggle_daily", info.id) is None
    world.env.clock.advance(minutes=3)
    assert await offered.url(GUILD, ANA, "boggle_daily", info.id) is None
