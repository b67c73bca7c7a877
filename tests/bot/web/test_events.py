"""A games event's page: the roster and waiting list while it registers, each
game's standings, and once it is closed its prize lines; members by their display
names, as text (a member named ``<script>`` is not markup), never a mention."""

from __future__ import annotations

from bot.services.events.service import EventService, Member
from tests.bot.services.scrabble_support import GUILD
from tests.bot.web.conftest import OTHER_GUILD, SNEAKY, World

CHANNEL = 77
HOST = Member(10, "Ms. Keith")
PEOPLE = [Member(100 + i, f"member {i}") for i in range(6)]
SCRIPTED = Member(200, SNEAKY)


async def _event(world: World) -> tuple[EventService, int]:
    service = EventService(world.ctx)
    view = await service.entry.open(
        guild_id=GUILD,
        guild_name="Club",
        channel_id=CHANNEL,
        host=HOST,
        is_moderator=True,
        games="henyo boggle",
        pairs=2,
        name="Prizes <i>night</i>",
    )
    for first, second in ((SCRIPTED, PEOPLE[0]), (PEOPLE[1], PEOPLE[2]), (PEOPLE[3], PEOPLE[4])):
        await service.entry.register(
            guild_id=GUILD, channel_id=CHANNEL, ref=None, user=first, partner=second
        )
    return service, view.id


async def _html(world: World, path: str, status: int = 200) -> str:
    response = await world.get(path)
    body = str(await response.text())
    assert response.status == status, (path, response.status, body[:300])
    return body


async def test_an_event_s_page_shows_its_roster_waiting_list_and_prizes_as_text(
    world: World,
) -> None:
    service, event_id = await _event(world)
    home = await _html(world, world.base)
    events = home.split('id="events-h"')[1].split("</section>")[0]
    assert f'href="{world.base}events/{event_id}"' in events
    assert "Prizes &lt;i&gt;night&lt;/i&gt;" in events

    page = await _html(world, f"{world.base}events/{event_id}")
    assert SNEAKY not in page and "<i>night" not in page
    roster = page.split('id="roster"')[1].split("</ol>")[0]
    assert "&lt;script&gt;alert(1)&lt;/script&gt; &amp; member 0" in roster
    assert "member 1 &amp; member 2" in roster and "member 3" not in roster
    waiting = page.split('id="waiting"')[1].split("</ol>")[0]
    assert "member 3 &amp; member 4" in waiting
    assert "<@" not in page and "&lt;@" not in page  # names, never mentions
    assert "Prizes</h3>" not in page  # the prize lines come with the close

    await service.running.prize(
        guild_id=GUILD,
        channel_id=CHANNEL,
        ref=event_id,
        user_id=HOST.id,
        is_moderator=False,
        game="boggle",
        place=1,
        text="A <b>book</b> voucher",
    )
    await service.closing.close(
        guild_id=GUILD,
        channel_id=CHANNEL,
        ref=event_id,
        user_id=HOST.id,
        is_moderator=False,
        confirmed=True,
    )
    closed = await _html(world, f"{world.base}events/{event_id}")
    assert "closed" in closed and 'id="roster"' not in closed
    boggle = closed.split("Word Boggle <span")[1].split("</section>")[0]
    assert "Place 1: A &lt;b&gt;book&lt;/b&gt; voucher" in boggle
    assert "Library Henyo" in closed and "not started" in closed


async def test_another_club_s_event_or_a_bad_number_is_not_found(world: World) -> None:
    _, event_id = await _event(world)
    other = EventService(world.ctx)
    theirs = await other.entry.open(
        guild_id=OTHER_GUILD,
        guild_name="Other",
        channel_id=CHANNEL + 1,
        host=HOST,
        is_moderator=True,
        games="henyo",
        pairs=2,
    )
    await _html(world, f"{world.base}events/{theirs.id}", 404)
    await _html(world, f"{world.base}events/{event_id + 100}", 404)
    await _html(world, f"{world.base}events/0", 404)
    await _html(world, f"{world.base}events/abc", 404)
    await _html(world, f"{world.base}events/{event_id}?x=1", 400)
