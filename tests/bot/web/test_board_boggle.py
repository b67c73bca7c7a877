"""A member's own Boggle board (bot/web/board_boggle.py) through the web server, on
the real database: the state shows only the member's own list; what the page sends
and what the member DMs are one list, merged as the round's rules say (later
messages add, a word taken off on the page is off); a round that no longer takes
words refuses with its own words and nothing changes; another member's or another
round's session cannot act."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from aiohttp.test_utils import TestClient, TestServer
from sqlalchemy import select

from bot.db.models_boggle import BoggleSubmissionRecord
from bot.db.models_events import GamesEventRecord, GamesEventRoundRecord
from bot.messages.boggle import rounds as say
from bot.services import ServiceContext
from bot.services.board_links import BoardLinks
from bot.services.boggle import BoggleService, RoundInfo
from bot.services.boggle.submissions import replay_words
from bot.web.boards import cookie_name
from bot.web.server import WebApp
from tests.bot.services.test_boggle import (
    ANA,
    BEN,
    CHANNEL,
    GUILD,
    SEED,
    T0,
    Env,
    finish,
    lexicon_file,
)
from tests.conftest import make_service_context

pytestmark = pytest.mark.clock(T0)
__all__ = ["lexicon_file"]  # the fixture, shared with test_boggle


@dataclass
class Board:
    env: Env
    ctx: ServiceContext
    client: TestClient[Any, Any]
    links: BoardLinks

    async def open(self, user: int, round_id: int) -> Member:
        path = await self.links.link(GUILD, user, "boggle", round_id, guild_name="club 1")
        assert path is not None
        token = path.removeprefix("/p/")
        session = await self.links.session(token)
        return Member(self, round_id, token, session.csrf)

    async def lists(self, round_id: int) -> dict[int, BoggleSubmissionRecord]:
        async with self.env.factory() as session:
            rows = await session.execute(
                select(BoggleSubmissionRecord).where(BoggleSubmissionRecord.round_id == round_id)
            )
            return {row.player_id: row for row in rows.scalars()}


@dataclass
class Member:
    board: Board
    round_id: int
    token: str
    csrf: str

    def headers(self, round_id: int | None = None, csrf: str | None = None) -> dict[str, str]:
        rid = self.round_id if round_id is None else round_id
        return {
            "Cookie": f"{cookie_name('boggle', rid)}={self.token}",
            "X-CSRF-Token": self.csrf if csrf is None else csrf,
        }

    async def state(self) -> dict[str, Any]:
        response = await self.board.client.get(
            f"/board/boggle/{self.round_id}/state", headers=self.headers()
        )
        assert response.status == 200, await response.text()
        return dict(await response.json())

    async def words(self, status: int = 200, **body: list[str]) -> dict[str, Any]:
        response = await self.board.client.post(
            f"/board/boggle/{self.round_id}/words", json=body, headers=self.headers()
        )
        assert response.status == status, await response.text()
        return dict(await response.json())


@pytest.fixture
async def board(session_factory, lexicon_file: Path, clock) -> AsyncIterator[Board]:
    ctx = make_service_context(session_factory, clock, lexicon=str(lexicon_file), web_port=0)
    service = BoggleService(ctx, seeds=lambda: SEED)
    ctx.scheduler.register_service(service)
    env = Env(service, clock, ctx.scheduler, session_factory)
    client: TestClient[Any, Any] = TestClient(TestServer(WebApp(ctx).app()))
    await client.start_server()
    try:
        yield Board(env, ctx, client, BoardLinks(ctx))
    finally:
        await client.close()
        await service.core.wait_background()


def _words(state: dict[str, Any]) -> list[str]:
    return [item["word"] for item in state["words"]]


async def test_the_state_has_the_grid_the_countdown_and_only_the_members_own_list(
    board: Board,
) -> None:
    info = await board.env.start()
    await board.env.dm(ANA, "canoe tonic")
    ana, ben = await board.open(ANA, info.id), await board.open(BEN, info.id)
    await ben.words(add=["envoy", "covet"])
    state = await ana.state()
    assert _words(state) == ["canoe", "tonic"]
    assert state["taking"] is True and state["results"] is None
    assert state["round"]["ends_at"] == info.ends_at.isoformat()
    assert state["now"] == board.env.clock().isoformat()
    assert [c["face"] for c in state["cells"][:4]] == ["I", "T", "V", "A"]
    assert state["cells"][5]["label"] == "row 2 column 2, letter E"
    assert state["cells"][0]["next"] == [1, 4, 5]  # the engine's neighbours
    shown = (
        json.dumps(state)
        + await (await board.client.get(f"/board/boggle/{info.id}", headers=ana.headers())).text()
    )
    assert "envoy" not in shown and "covet" not in shown  # Ben's list, before the close
    assert _words(await ben.state()) == ["envoy", "covet"]


async def test_a_word_not_on_the_grid_or_too_short_is_marked_but_kept(board: Board) -> None:
    info = await board.env.start()
    ana = await board.open(ANA, info.id)
    answer = await ana.words(add=["zebra", "ton", "ovin"])
    notes = {item["word"]: item["note"] for item in answer["words"]}
    # Whether it is a word is never said before the results ("ovin" is not one).
    assert notes == {"zebra": "Not on the grid", "ton": "Too short", "ovin": ""}


async def test_the_page_and_the_dms_are_one_list_merged_in_the_order_sent(board: Board) -> None:
    info = await board.env.start()
    await board.env.dm(ANA, "canoe tonic")
    ana = await board.open(ANA, info.id)
    answer = await ana.words(add=["acne"])
    assert (answer["added"], _words(answer)) == (1, ["canoe", "tonic", "acne"])
    # A correction: one word off, another on, in one change.
    answer = await ana.words(remove=["tonic"], add=["envoy"])
    assert (answer["added"], answer["removed"]) == (1, 1)
    assert _words(answer) == ["canoe", "acne", "envoy"]
    # A later DM adds to the list, a word taken off included; the page shows it.
    await board.env.dm(ANA, "covet tonic canoe")
    assert _words(await ana.state()) == ["canoe", "acne", "envoy", "covet", "tonic"]
    await ana.words(remove=["covet"])
    [row] = (await board.lists(info.id)).values()
    assert [e["via"] for e in row.entries] == ["dm", "web", "web", "dm", "web"]
    assert row.entries[2]["removed"] == ["tonic"] and row.entries[2]["text"] == "envoy"
    assert replay_words(row.entries) == row.words == ["canoe", "acne", "envoy", "tonic"]
    # The results judge the merged list (Ben shares "canoe": cancelled on both lists).
    await board.env.dm(BEN, "canoe")
    await finish(board.env, info)
    [record] = await board.env.rounds()
    [ana_result] = [p for p in record.results["players"] if p["id"] == ANA]
    assert [w for w, _status, _points in ana_result["words"]] == ["canoe", "acne", "envoy", "tonic"]
    assert dict((w, s) for w, s, _p in ana_result["words"])["canoe"] == "cancelled"


def test_a_list_replayed_to_the_end_leaves_out_what_was_sent_after_it() -> None:
    def entry(at: str, text: str, removed: list[str] | None = None) -> Any:
        base = {"id": "1", "at": f"2026-11-30T18:0{at}+00:00", "via": "web", "text": text}
        return {**base, "removed": removed} if removed else base

    entries = [entry("0", "canoe tonic"), entry("1", "acne", ["tonic"]), entry("5", "", ["acne"])]
    ends = T0.replace(minute=3)
    assert replay_words(entries) == ["canoe"]
    assert replay_words(entries, ends_at=ends) == ["canoe", "acne"]


async def test_a_round_that_no_longer_takes_words_refuses_and_nothing_changes(
    board: Board,
) -> None:
    info = await board.env.start()
    ana = await board.open(ANA, info.id)
    await ana.words(add=["canoe"])
    before = (await board.lists(info.id))[ANA].entries
    # The countdown is over, the close job not run yet (the grace for late DMs).
    board.env.clock.now = info.ends_at
    refused = await ana.words(409, add=["tonic"])
    assert refused["message"] == say.has_ended(info.number, CHANNEL)
    assert (await ana.state())["taking"] is False
    await finish(board.env, info)
    refused = await ana.words(409, remove=["canoe"])
    assert refused == {"ok": False, "code": "not_found", "message": refused["message"]}
    assert (await board.lists(info.id))[ANA].entries == before


async def test_once_scored_the_page_shows_the_results_as_the_club_page_does(
    board: Board,
) -> None:
    info = await board.env.start()
    ana = await board.open(ANA, info.id)
    await ana.words(add=["canoe", "toucanet"])
    await board.env.dm(BEN, "canoe envoy")
    version = await _version(board, info)
    await finish(board.env, info)
    assert await _version(board, info) > version  # closed, then scored: pushed
    state = await ana.state()
    assert state["round"]["status"] == "scored" and state["taking"] is False
    assert state["status_text"] == f"Round #{info.number} is over: here are its results."
    players = {p["name"]: p for p in state["results"]["players"]}
    assert players["player12"]["words"] == [
        ["canoe", "Cancelled (on another list too)", 0],
        ["envoy", "Scored", 2],
    ]
    assert players[str(ANA)]["points"] == "11 points"  # toucanet: 8 letters
    assert state["results"]["url"] is None  # the club's page is off


async def test_the_version_moves_on_with_the_members_own_list_and_the_rounds_status(
    board: Board,
) -> None:
    info = await board.env.start()
    ana = await board.open(ANA, info.id)
    seen = [await _version(board, info)]
    await board.env.dm(BEN, "canoe")  # another member's list: not this page's news
    assert await _version(board, info) == seen[0]
    assert await _version(board, info, BEN) > seen[0]
    await board.env.dm(ANA, "canoe")
    seen.append(await _version(board, info))
    await ana.words(add=["tonic"])
    seen.append(await _version(board, info))
    await ana.words(remove=["tonic"])
    seen.append(await _version(board, info))
    assert seen == sorted(set(seen))  # each change a new, larger number
    assert (await ana.state())["version"] == seen[-1]
    await finish(board.env, info)
    assert await _version(board, info) > seen[-1]  # closed, then scored


async def test_a_page_is_pushed_its_own_changes_only_not_every_members(board: Board) -> None:
    """Thirty members typing must not make thirty pages each ask for their state thirty
    times: another member's list changing pushes nothing to this page."""
    info = await board.env.start()
    ana, ben = await board.open(ANA, info.id), await board.open(BEN, info.id)
    first = (await ana.state())["version"]
    stream = await board.client.get(f"/board/boggle/{info.id}/events", headers=ana.headers())
    assert stream.status == 200
    assert await _next_version(stream.content) == first
    await ben.words(add=["canoe"])
    await ben.words(add=["envoy"])
    await board.env.dm(BEN, "covet")
    assert (await ana.state())["version"] == first
    # Ana's own change is the next thing her stream says (nothing came before it).
    await ana.words(add=["tonic"])
    mine = (await ana.state())["version"]
    assert mine == first + 1
    assert await _next_version(stream.content) == mine
    stream.close()


async def test_a_pair_members_page_follows_the_partners_list_too(board: Board) -> None:
    info = await board.env.start()
    async with board.env.factory() as session:
        event = GamesEventRecord(guild_id=GUILD, channel_id=CHANNEL, host_id=9, name="Fair")
        session.add(event)
        await session.flush()
        session.add(
            GamesEventRoundRecord(
                event_id=event.id, game="boggle", ref_id=info.id, pairs=[[ANA, BEN]], started_by=9
            )
        )
        await session.commit()
    before = await _version(board, info)
    await board.env.dm(BEN, "canoe")  # whose list counts for the pair: on Ana's page
    assert await _version(board, info) > before


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


async def test_another_members_or_another_rounds_session_cannot_act(board: Board) -> None:
    first = await board.env.start()
    ana = await board.open(ANA, first.id)
    ben = await board.open(BEN, first.id)
    # Ben's session with Ana's CSRF token: refused, whoever's words it names.
    response = await board.client.post(
        f"/board/boggle/{first.id}/words",
        json={"add": ["canoe"]},
        headers=ben.headers(csrf=ana.csrf),
    )
    assert response.status == 403 and (await response.json())["code"] == "csrf"
    # Ana's link of one round, sent to another round's page.
    await finish(board.env, first)
    second = await board.env.start()
    response = await board.client.post(
        f"/board/boggle/{second.id}/words",
        json={"add": ["canoe"]},
        headers=ana.headers(round_id=second.id),
    )
    assert response.status == 403 and (await response.json())["code"] == "link_not_yours"
    response = await board.client.get(
        f"/board/boggle/{second.id}/state", headers=ana.headers(round_id=second.id)
    )
    assert response.status == 403
    assert await board.lists(first.id) == {} and await board.lists(second.id) == {}


async def test_a_cancelled_rounds_link_no_longer_opens(board: Board) -> None:
    info = await board.env.start()
    ana = await board.open(ANA, info.id)
    await board.env.service.cancelling.cancel(guild_id=GUILD, what="round")
    response = await board.client.get(f"/board/boggle/{info.id}/state", headers=ana.headers())
    assert response.status == 403 and (await response.json())["code"] == "link_ended"


async def test_a_pair_member_is_told_whose_list_counts_for_the_pair(board: Board) -> None:
    info = await board.env.start()
    async with board.env.factory() as session:
        event = GamesEventRecord(guild_id=GUILD, channel_id=CHANNEL, host_id=9, name="Fair")
        session.add(event)
        await session.flush()
        session.add(
            GamesEventRoundRecord(
                event_id=event.id, game="boggle", ref_id=info.id, pairs=[[ANA, BEN]], started_by=9
            )
        )
        await session.commit()
    ana = await board.open(ANA, info.id)
    assert (await ana.state())["pair_note"].startswith("This round is played in pairs")
    await board.env.dm(BEN, "canoe")
    state = await ana.state()
    assert _words(state) == []  # Ben's words stay his
    assert state["pair_note"].endswith(
        "Your pair's list is player12's now: a change you make here makes yours the pair's list."
    )
    board.env.clock.advance(seconds=1)
    answer = await ana.words(add=["tonic"])
    assert answer["pair_note"].endswith("Your pair's list is yours now.")


async def _version(board: Board, info: RoundInfo, user: int = ANA) -> int:
    """The version of ``user``'s page of the round."""
    return await board.env.service.board.version(info.id, user)


async def test_a_room_round_s_page_counts_down_to_pens_down_then_to_the_end_of_typing(
    board: Board,
) -> None:
    """In the room the players write on paper until pens down, then have the entry time
    to type their lists: the page's countdown follows the room, not only the lists' end."""
    info = await board.env.start(where="room", entry_time="2m")
    assert info.entry_s == 120 and info.countdown_ends_at is not None
    ana = await board.open(ANA, info.id)
    state = await ana.state()
    assert state["round"]["countdown_to"] == info.countdown_ends_at.isoformat()
    assert state["round"]["ends_at"] == info.ends_at.isoformat()  # the lists' end, as before
    board.env.clock.advance(seconds=info.duration_s + 1)  # pens down: time to type
    await board.env.run_due()
    state = await ana.state()
    assert state["taking"] is True
    assert state["round"]["countdown_to"] == info.ends_at.isoformat()


async def test_a_round_played_in_discord_counts_down_to_its_end(board: Board) -> None:
    info = await board.env.start()
    state = await (await board.open(ANA, info.id)).state()
    assert state["round"]["countdown_to"] == state["round"]["ends_at"] == info.ends_at.isoformat()
