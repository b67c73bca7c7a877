"""Henyo played aloud through the loopback Discord (issue #29): a games event whose
Henyo round is refereed by the host in the room, driven only by the host's presses
on the private console.

Pair 1 plays with two penalties (a third one pressed by mistake and undone) and a
Start tapped twice (counted once); pair 2's Got it is pressed too early and undone,
a bot restart comes between its presses, and it ends on the same final time, so
the pairs play a tie-break word each, which pair 1 wins. Press times come from the
test's clock (the bot's), so every expected time is exact. A member who is not the
host is refused the console privately, and the secret never reaches the channel
before its round is over.
"""

from __future__ import annotations

import re
from typing import Any

from tests.e2e.test_events import Event

SPOILER = re.compile(r"\|\|(.+?)\|\|")


def unescape(text: str) -> str:
    return re.sub(r"\\(.)", r"\1", text)


class Host:
    """The host's console: the ephemeral message and its buttons, pressed by the host."""

    def __init__(self, ev: Event) -> None:
        self.ev = ev
        self.dc = ev.dc
        self.message: Any = None

    async def start_round(self) -> str:
        """``/henyo start``: the console (ephemeral) and the secret it shows the host."""
        ix = await self.ev.slash(self.ev.host, "henyo start")
        console = await ix.next_message(timeout=10)
        assert console.ephemeral, console.content
        assert "Host console" in console.content, console.content
        self.message = console
        match = SPOILER.search(console.content)
        assert match, console.content
        return unescape(match.group(1))

    @property
    def live(self) -> Any:
        return self.dc.messages[self.message.id]

    def custom_id(self, press: str) -> str:
        found = [c for c in self.live.custom_ids if f":{press}:" in c]
        assert found, (press, self.live.custom_ids)
        return found[0]

    def enabled(self, press: str) -> bool:
        component = self.live.find_component(self.custom_id(press))
        return not component.get("disabled", False)

    async def press(self, press: str) -> Any:
        ix = await self.dc.click(self.ev.host, self.message, self.custom_id(press), timeout=10)
        await ix.wait_done(10)
        return ix

    async def double_tap(self, press: str) -> list[Any]:
        """The same button twice before the console could change: both reach the bot."""
        custom_id = self.custom_id(press)
        taps = [
            await self.dc.click(self.ev.host, self.message, custom_id, wait=False) for _ in range(2)
        ]
        for tap in taps:
            await tap.wait_done(10)
        return taps

    @property
    def text(self) -> str:
        return str(self.live.content)


def public_text(ev: Event) -> str:
    return "\n".join(str(m.content) for m in ev.dc.messages_in(ev.channel))


async def test_a_henyo_event_played_aloud_runs_on_the_hosts_presses(club) -> None:
    await club.start()
    ev = Event(club)
    clock = club.clock

    opened = await ev.private(ev.host, "event open", games="henyo", pairs=2)
    assert "open" in opened.lower()
    for user, partner in (("alice", "bob"), ("carol", "dave")):
        await ev.private(ev[user], "event register", partner=ev[partner])
    started = await ev.private(ev.host, "event round", game="henyo", referee="host")
    assert "Library Henyo round has started for 2 pairs" in started

    host = Host(ev)

    # --- pair 1: Start tapped twice, two penalties, a third undone, Got it at 30 s
    word = await host.start_round()
    announcement = await ev.posted("played aloud")
    assert "alice" in announcement.content and "bob" in announcement.content
    assert announcement.custom_ids == []  # no reply buttons: the answerer speaks
    assert host.enabled("start") and not host.enabled("got_it")

    await host.double_tap("start")
    await ev.posted("Go! The clock is running")
    told = await ev.posted("already counted")  # the second tap, privately
    assert told.ephemeral
    assert public_text(ev).count("Go! The clock is running") == 1

    clock.advance(seconds=10)
    await host.press("penalty")
    await ev.posted("Penalties so far: **5 s** (1)")
    clock.advance(seconds=5)
    await host.press("penalty")
    await ev.posted("Penalties so far: **10 s** (2)")
    clock.advance(seconds=3)
    await host.press("penalty")
    await ev.posted("Penalties so far: **15 s** (3)")
    await host.press("undo")
    await ev.posted("took back a penalty. Penalties so far: **10 s** (2)")
    assert "Penalties: 2" in host.text
    assert word.lower() not in public_text(ev).lower(), "the secret stays off the channel"

    clock.advance(seconds=12)
    await host.press("got_it")
    result = await ev.posted("guessed it")
    assert unescape(result.content).count(word) == 1
    assert "Time 30.0 s + penalties 10.0 s (2) = final time **40.0 s**" in result.content
    assert "Next up: pair 2" in result.content
    assert "= **40.0 s**" in host.text

    # --- a member who is not the host is refused the console, privately
    refused = await ev.private(ev["alice"], "henyo console")
    assert "Only the round's host or a moderator" in refused

    # --- pair 2: Got it pressed too early and undone, a restart, Got it at 40 s
    word2 = await host.start_round()
    assert word2 != word
    await host.press("start")
    clock.advance(seconds=35)
    await host.press("got_it")
    early = await ev.posted("final time **35.0 s**")
    assert "carol" in early.content
    await host.press("undo")
    await ev.posted("took back **Got it**")
    assert host.enabled("got_it") and host.enabled("penalty")

    await club.restart()
    clock.advance(seconds=5)
    await host.press("got_it")  # the console's buttons still work after the restart
    tie = await ev.posted("Tie at 40.0 s")
    assert "final time **40.0 s**" in public_text(ev)
    assert "alice & bob" in tie.content and "carol & dave" in tie.content

    # --- the tie-break words: pair 1 in 20 s, pair 2 in 25 s
    for seconds in (20, 25):
        await host.start_round()
        assert "tie-break word 1" in host.text
        await host.press("start")
        clock.advance(seconds=seconds)
        await host.press("got_it")
        last = await ev.posted(f"final time **{seconds}.0 s**")
    assert "Every pair has played" in last.content

    standings = await ev.slash(ev["erin"], "henyo standings")
    table = standings.answer.embeds[0]
    text = " ".join(
        [table.get("description", "")]
        + [f"{f['name']} {f['value']}" for f in table.get("fields", [])]
    )
    assert "**1.** alice & bob — **40.0 s (30.0 s + 2 penalties) · tie-break 20.0 s**" in text
    assert "**2.** carol & dave — **40.0 s · tie-break 25.0 s**" in text


async def test_a_round_played_aloud_runs_out_of_time_through_the_timer_in_the_database(
    club,
) -> None:
    await club.start()
    ev = Event(club)
    host = Host(ev)
    ix = await ev.slash(
        ev.host,
        "henyo start",
        guesser=ev["alice"],
        answerer=ev["bob"],
        referee="host",
        word="kalabaw",
    )
    console = await ix.next_message(timeout=10)
    assert console.ephemeral and "||kalabaw||" in console.content
    host.message = console
    await ev.posted("played aloud")
    await host.press("start")
    club.clock.advance(seconds=30)
    await host.press("penalty")
    await ev.posted("Penalties so far")

    await club.restart()
    club.clock.advance(seconds=95)  # past 2 minutes and the grace
    await club.tick()
    up = await ev.posted("Time's up!")
    assert "kalabaw" in up.content
    late = await host.press("got_it")
    assert not host.enabled("got_it") and "Time's up" in host.text
    assert late.followups == [] or all("already" not in str(m.content) for m in late.followups)
