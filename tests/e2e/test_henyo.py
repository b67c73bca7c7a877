"""Library Henyo through the loopback Discord: the issue's "Done when" scenario.

Six pairs register (one waits, then moves up when a pair withdraws); rounds are
played with a correct guess, an answerer who types "siguro" twice (+10 s), a
time-out, audience coaching flagged to the host, a bot restart in the middle of
a round, and a tie broken by a tie-break word; the standings and the
leaderboard show the times to the tenth of a second.

Players' messages are sent with chosen Discord timestamps (``at=``), counted
from the announcement's own timestamp, so every expected time is exact.
"""

from __future__ import annotations

import logging
import re
from datetime import timedelta
from typing import Any

import pytest

from bot.config import configure_logging
from tests.leaks import shown_secrets, shows_secret

SECRET = re.compile(r"The secret word is: \*\*(.+?)\*\*")


def unescape(text: str) -> str:
    return re.sub(r"\\(.)", r"\1", text)


class Henyo:
    """Small steps of the scenario, in the players' words."""

    def __init__(self, club: Any) -> None:
        self.club = club
        self.dc = club.dc
        self.channel = club.channel
        self.host = club.moderator
        self.people = dict(club.members)
        for name in ("gina", "hugo", "ivy", "jack", "kate", "liam"):
            user = self.dc.add_user(name)
            self.dc.add_member(club.guild, user)
            self.people[name] = user

    def __getitem__(self, name: str) -> Any:
        return self.people[name]

    async def slash(self, who: Any, command: str, **options: Any) -> Any:
        return await self.dc.slash(who, self.channel, command, **options)

    async def start_round(self, answerer: Any) -> tuple[Any, str, int]:
        """/henyo start by the host: returns the announcement, the secret (from the answerer's DM) and the round id."""
        dms_before = len(self.dc.dms_to(answerer))
        ix = await self.slash(self.host, "henyo start")
        done = await ix.next_message(timeout=10)
        assert done.ephemeral and "is running" in done.content, done.content
        announcement = await self.dc.wait_for_message(
            channel=self.channel, predicate=lambda m: m.content.startswith("🎯 **Library Henyo")
        )
        dm = self.dc.dms_to(answerer)[dms_before]
        match = SECRET.search(dm.content)
        assert match, dm.content
        round_id = int(announcement.custom_ids[0].split(":")[2])
        return announcement, unescape(match.group(1)), round_id

    async def say(self, who: Any, text: str, announcement: Any, seconds: float) -> Any:
        return await self.dc.say(
            who, self.channel, text, at=announcement.created_at + timedelta(seconds=seconds)
        )

    async def posted(self, needle: str, timeout: float = 5.0) -> Any:
        return await self.dc.wait_for_message(
            channel=self.channel, predicate=lambda m: needle in m.content, timeout=timeout
        )

    def channel_text(self) -> str:
        parts = []
        for message in self.dc.messages_in(self.channel):
            parts.append(message.content)
            for embed in message.embeds:
                parts.extend(str(v) for v in (embed.get("title"), embed.get("description")))
                parts.extend(f"{f.get('name')} {f.get('value')}" for f in embed.get("fields", []))
        return "\n".join(parts)


def embed_text(embed: dict[str, Any]) -> str:
    fields = " ".join(f"{f['name']}: {f['value']}" for f in embed.get("fields", []))
    return f"{embed.get('title', '')}\n{embed.get('description', '')}\n{fields}"


@pytest.fixture
def debug_logging(caplog):
    """Capture everything the bot would log at LOG_LEVEL=DEBUG, as configured for production."""
    names = ("discord", "aiosqlite", "alembic")
    saved = {name: logging.getLogger(name).level for name in names}
    caplog.set_level(logging.DEBUG)
    configure_logging("DEBUG")
    yield caplog
    for name, level in saved.items():
        logging.getLogger(name).setLevel(level)


async def test_an_event_with_six_pairs_runs_to_the_standings_and_the_leaderboard(
    club, debug_logging
) -> None:
    secrets: list[str] = []
    await club.start()
    h = Henyo(club)
    dc = h.dc

    # --- the host opens the event; the registration list is a live message
    opened = await h.slash(h.host, "henyo event open")
    assert not opened.answer.ephemeral
    list_message = opened.original
    assert "Playing (0/5)" in embed_text(opened.answer.embeds[0])

    pairs = [
        ("alice", "bob"),
        ("carol", "dave"),
        ("erin", "frank"),
        ("gina", "hugo"),
        ("ivy", "jack"),
        ("kate", "liam"),
    ]
    for guesser, answerer in pairs:
        ix = await h.slash(h[guesser], "henyo register", partner=h[answerer])
        assert ix.answer.ephemeral
    assert "waiting list (#1)" in ix.answer.content
    await dc.wait_until(
        lambda: "Waiting list" in embed_text(dc.messages[list_message.id].embeds[0]),
        what="the live list",
    )
    assert (
        "kate & liam" in embed_text(dc.messages[list_message.id].embeds[0]).split("Waiting list")[1]
    )

    again = await h.slash(h["bob"], "henyo register", partner=h["erin"])
    assert again.answer.ephemeral and "already registered" in again.answer.content

    # --- erin & frank withdraw: kate & liam move up
    gone = await h.slash(h["frank"], "henyo withdraw")
    assert gone.answer.ephemeral and "kate & liam move up" in gone.answer.content
    await h.posted("move up from the waiting list")
    await dc.wait_until(
        lambda: "Waiting list" not in embed_text(dc.messages[list_message.id].embeds[0]),
        what="list update",
    )
    assert "Playing (5/5)" in embed_text(dc.messages[list_message.id].embeds[0])

    # --- pair 1, alice & bob: the bot restarts mid-round; the guess made meanwhile still counts, exactly
    announcement, secret, round_id = await h.start_round(h["bob"])
    secrets.append(secret)
    assert not shows_secret(h.channel_text(), secret)
    host_dm = dc.dms_to(h.host)[-1].content
    assert secret in unescape(host_dm) and "alice" in host_dm
    assert not any(shows_secret(m.content, secret) for m in dc.dms_to(h["alice"]))
    assert f"henyo:reply:{round_id}:oo" in announcement.custom_ids
    await h.say(h["bob"], "Oo", announcement, 3.0)
    await club.stop()
    await h.say(h["alice"], secret.upper() + "!", announcement, 45.6)
    await club.start()
    result = await h.posted("guessed it")
    assert "final time **45.6 s**" in result.content and secret in unescape(result.content)
    assert "Next up: pair 2" in result.content

    # --- pair 2, carol & dave: allowed replies, a button, a clean guess in 37.4 s
    announcement, secret, round_id = await h.start_round(h["dave"])
    secrets.append(secret)
    await h.say(h["carol"], "Tao ba?", announcement, 1.0)
    await h.say(h["dave"], "hindi.", announcement, 2.0)
    await h.say(h["dave"], "  PWEDE! ", announcement, 4.0)
    await h.say(h["dave"], "Pwede…", announcement, 4.5)  # a phone's ellipsis: no penalty
    pressed = await dc.click(h["dave"], announcement, f"henyo:reply:{round_id}:oo")
    assert not pressed.answer.ephemeral and "**Oo**" in pressed.answer.content
    refused = await dc.click(h["carol"], announcement, f"henyo:reply:{round_id}:oo")
    assert refused.answer.ephemeral and "Only the answerer" in refused.answer.content
    await h.say(h["carol"], secret, announcement, 37.4)
    result = await h.posted("guessed it")
    assert "penalties 0.0 s (0) = final time **37.4 s**" in result.content
    await dc.wait_until(
        lambda: dc.messages[announcement.id].components == [], what="the buttons to go"
    )

    # --- pair 4, gina & hugo: "siguro" twice costs 10 s; 27.4 s + 10 s = 37.4 s (a tie with pair 2)
    announcement, secret, _ = await h.start_round(h["hugo"])
    secrets.append(secret)
    await h.say(h["hugo"], "siguro", announcement, 5.0)
    first = await h.posted("Penalty")
    await h.say(h["hugo"], "Siguro", announcement, 9.0)
    second = await h.posted("Penalty")
    assert "**5 s** (1)" in first.content and "**10 s** (2)" in second.content
    await h.say(h["gina"], secret, announcement, 27.4)
    result = await h.posted("guessed it")
    assert "Time 27.4 s + penalties 10.0 s (2) = final time **37.4 s**" in result.content

    # --- pair 5, ivy & jack: nobody guesses; time is up
    announcement, secret, _ = await h.start_round(h["jack"])
    secrets.append(secret)
    await h.say(h["jack"], "ewan ko", announcement, 10.0)
    await h.posted("Penalty")
    assert not shows_secret(h.channel_text(), secret)
    club.clock.advance(seconds=125)
    await club.tick()
    result = await h.posted("Time's up")
    assert (
        "ivy & jack" in result.content
        and "eliminated" in result.content
        and secret in unescape(result.content)
    )

    # --- pair 6, kate & liam: the audience coaches; the host is told privately and disqualifies them
    announcement, secret, _ = await h.start_round(h["liam"])
    secrets.append(secret)
    await h.say(h["erin"], "hint: think of school!", announcement, 6.0)
    flag = await dc.wait_for_message(
        channel=h.host, predicate=lambda m: "Audience message" in m.content
    )
    assert "erin" in flag.content and "/henyo disqualify" in flag.content
    dq = await h.slash(h.host, "henyo disqualify")
    assert dq.answer.ephemeral
    result = await h.posted("disqualified by the host")
    assert "kate & liam" in result.content and secret in unescape(result.content)
    assert (
        "Tie at 37.4 s" in result.content
        and "carol & dave" in result.content
        and "gina & hugo" in result.content
    )

    # --- the tie-break word: gina & hugo are faster
    announcement, secret, _ = await h.start_round(h["dave"])
    secrets.append(secret)
    assert "Pair 2 — tie-break word 1" in announcement.content
    await h.say(h["carol"], secret, announcement, 25.3)
    await h.posted("guessed it")
    announcement, secret, _ = await h.start_round(h["hugo"])
    secrets.append(secret)
    await h.say(h["gina"], secret, announcement, 20.0)
    result = await h.posted("guessed it")
    assert "Every pair has played" in result.content

    standings = await h.slash(h["alice"], "henyo standings")
    table = standings.answer.embeds[0]["description"]
    lines = table.splitlines()
    assert lines[0].startswith(
        "**1.** gina & hugo — **37.4 s (27.4 s + 2 penalties) · tie-break 20.0 s**"
    )
    assert lines[1].startswith("**2.** carol & dave — **37.4 s · tie-break 25.3 s**")
    assert lines[2].startswith("**3.** alice & bob — **45.6 s**")
    assert "ivy & jack — eliminated" in table and "kate & liam — disqualified" in table

    closed = await h.slash(h.host, "henyo event close")
    assert "Winners: **gina & hugo**" in closed.answer.content
    await dc.wait_until(
        lambda: "(closed)" in embed_text(dc.messages[list_message.id].embeds[0]),
        what="the list to close",
    )
    assert "kate & liam — disqualified" in embed_text(dc.messages[list_message.id].embeds[0])

    board = await h.slash(h["alice"], "leaderboard", game="henyo")
    text = board.answer.content
    assert re.search(r"gina — best time 20\.0 s, .*events won 1", text), text
    assert re.search(r"carol — best time 25\.3 s", text) and re.search(
        r"alice — best time 45\.6 s", text
    )
    assert re.search(r"ivy — best time –", text)

    # The secret words never reached the log, even at DEBUG level.
    logged = "\n".join(r.getMessage() for r in debug_logging.records)
    assert shown_secrets(logged, secrets) == []


async def test_a_closed_dm_tells_the_host_at_once_and_the_round_does_not_start(club) -> None:
    await club.start()
    dc = club.dc
    alice, bob = club.members["alice"], club.members["bob"]
    dc.close_dms(bob)
    ix = await dc.slash(club.moderator, club.channel, "henyo start", guesser=alice, answerer=bob)
    reply = await ix.next_message(timeout=10)
    assert (
        reply.ephemeral
        and "DMs are closed" in reply.content
        and "did **not** start" in reply.content
    )
    assert not any(m.content.startswith("🎯") for m in dc.messages_in(club.channel))
    assert dc.dms_to(club.moderator) == []

    dc.open_dms(bob)
    ix = await dc.slash(club.moderator, club.channel, "henyo start", guesser=alice, answerer=bob)
    assert "is running" in (await ix.next_message(timeout=10)).content


async def test_a_closed_host_dm_gets_the_secret_in_the_private_reply(club) -> None:
    await club.start()
    dc = club.dc
    dc.close_dms(club.moderator)
    ix = await dc.slash(
        club.moderator,
        club.channel,
        "henyo start",
        guesser=club.members["alice"],
        answerer=club.members["bob"],
    )
    reply = await ix.next_message(timeout=10)
    secret = unescape(SECRET.search(dc.dms_to(club.members["bob"])[-1].content).group(1))
    assert reply.ephemeral and f"here is the secret: **{secret}**" in unescape(reply.content)
    assert not any(shows_secret(m.content, secret) for m in dc.messages_in(club.channel))


async def test_the_host_sets_the_word_and_it_is_never_echoed(club) -> None:
    await club.start()
    dc = club.dc
    alice, bob = club.members["alice"], club.members["bob"]
    dc.close_dms(club.moderator)
    ix = await dc.slash(
        club.moderator,
        club.channel,
        "henyo start",
        guesser=alice,
        answerer=bob,
        word="Mapúa Library",
    )
    reply = await ix.next_message(timeout=10)
    assert reply.ephemeral and "is running" in reply.content
    assert not shows_secret(reply.content, "Mapúa")
    assert "Mapúa Library" in dc.dms_to(bob)[-1].content
    assert not any(shows_secret(m.content, "Mapúa") for m in dc.messages_in(club.channel))
    announcement = await dc.wait_for_message(
        channel=club.channel, predicate=lambda m: m.content.startswith("🎯")
    )
    # Someone in the audience spells it out: the message is taken down and the host is told
    # (in the channel, as the host's DMs are closed — without repeating the message).
    leak = await dc.say(
        club.members["carol"],
        club.channel,
        "psst: MAPUA LIBRARY",
        at=announcement.created_at + timedelta(seconds=5),
    )
    await dc.wait_until(lambda: dc.messages[leak.id].deleted, what="the leak to be removed")
    flag = await dc.wait_for_message(
        channel=club.channel, predicate=lambda m: "posted during the round" in m.content
    )
    assert "carol" in flag.content and not shows_secret(flag.content, "Mapúa")
    await dc.say(
        alice, club.channel, "mapua library", at=announcement.created_at + timedelta(seconds=12.3)
    )
    result = await dc.wait_for_message(
        channel=club.channel, predicate=lambda m: "guessed it" in m.content
    )
    assert "final time **12.3 s**" in result.content


async def test_members_get_clear_private_errors(club) -> None:
    await club.start()
    dc = club.dc
    alice, bob = club.members["alice"], club.members["bob"]
    ix = await dc.slash(alice, club.channel, "henyo register", partner=bob)
    assert ix.answer.ephemeral and "no open Henyo event" in ix.answer.content
    ix = await dc.slash(alice, club.channel, "henyo event open", time_limit="5 hours")
    assert ix.answer.ephemeral and "time limit" in ix.answer.content
    ix = await dc.slash(alice, club.channel, "henyo words list")
    assert ix.answer.ephemeral and "Only moderators" in ix.answer.content
    ix = await dc.slash(
        club.moderator,
        club.channel,
        "henyo words add",
        text="Sorbetes",
        category="Pagkain",
        language="Filipino",
    )
    assert ix.answer.ephemeral and "Added **Sorbetes**" in ix.answer.content
    ix = await dc.slash(club.moderator, club.channel, "henyo words list", category="Pagkain")
    assert ix.answer.ephemeral and "Sorbetes" in ix.answer.embeds[0]["description"]
    ix = await dc.slash(alice, club.channel, "henyo start", guesser=alice, answerer=bob)
    reply = await ix.next_message(timeout=10)
    assert reply.ephemeral and "guess in" in reply.content


async def test_the_event_list_survives_a_restart_and_closing_needs_the_host(club) -> None:
    await club.start()
    dc = club.dc
    opened = await dc.slash(
        club.moderator, club.channel, "henyo event open", pairs=2, time_limit="90s", penalty="3s"
    )
    assert "time limit 1 min 30 s · penalty 3 s" in embed_text(opened.answer.embeds[0])
    await club.restart()
    await dc.slash(
        club.members["alice"], club.channel, "henyo register", partner=club.members["bob"]
    )
    await dc.wait_until(
        lambda: "alice & bob" in embed_text(dc.messages[opened.original.id].embeds[0]),
        what="list edit",
    )
    ix = await dc.slash(club.members["carol"], club.channel, "henyo event close")
    assert ix.answer.ephemeral and "host" in ix.answer.content
