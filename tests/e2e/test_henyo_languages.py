"""A Henyo event in a Filipino club, and the same event in the pseudo-locale,
through the loopback Discord: registration, the secret's DMs, a penalty, the
reply buttons, a guess, a time-out, audience coaching flagged to the host, the
word bank, the standings and the close. In Filipino every text reads Filipino;
in the pseudo-locale nothing the bot sends escaped the catalogue."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest

from bot.messages import i18n
from engines.henyo import builtin_words
from tests.e2e.languages import (
    PSEUDO,
    bot_texts,
    english_leaks,
    install_pseudo,
    speak,
    undecorated_texts,
)

BOLD = re.compile(r"\*\*(.+?)\*\*")


@pytest.fixture
def pseudo() -> Iterator[None]:
    install_pseudo()
    yield
    i18n.uninstall(PSEUDO)


def unescape(text: str) -> str:
    return re.sub(r"\\(.)", r"\1", text)


class Event:
    def __init__(self, club: Any) -> None:
        self.club, self.dc, self.channel, self.host = club, club.dc, club.channel, club.moderator
        self.m = club.members

    async def slash(self, who: Any, command: str, **options: Any) -> Any:
        return await self.dc.slash(who, self.channel, command, **options)

    async def post(self, predicate: Any = None, who: Any = None) -> Any:
        return await self.dc.wait_for_message(
            channel=who or self.channel,
            predicate=lambda m: not m.ephemeral and (predicate is None or predicate(m)),
            timeout=10,
        )

    async def start_round(self, answerer: Any) -> tuple[Any, Any, str, int]:
        before = len(self.dc.dms_to(answerer))
        ix = await self.slash(self.host, "henyo start")
        running = await ix.next_message(timeout=10)
        announcement = await self.post(lambda m: any("henyo:reply:" in c for c in m.custom_ids))
        dm = self.dc.dms_to(answerer)[before]
        secret = unescape(BOLD.findall(dm.content.splitlines()[1])[0])
        round_id = int(announcement.custom_ids[0].split(":")[2])
        return running, announcement, secret, round_id

    async def say(self, who: Any, text: str, announcement: Any, seconds: float) -> None:
        at = announcement.created_at + timedelta(seconds=seconds)
        await self.dc.say(who, self.channel, text, at=at)


async def play_an_event(club: Any, code: str) -> dict[str, Any]:
    """The scenario, in ``code``; returns what the checks look at."""
    await club.start()
    await speak(club, code)
    e = Event(club)
    seen: dict[str, Any] = {}

    seen["too_short"] = await e.slash(e.host, "henyo event open", time_limit="5 segundo")
    opened = await e.slash(e.host, "henyo event open", pairs=2, time_limit="1 minuto")
    seen["list"], seen["opened"] = opened.original, opened
    for guesser, answerer in (("alice", "bob"), ("carol", "dave")):
        seen[f"registered {guesser}"] = await e.slash(
            e.m[guesser], "henyo register", partner=e.m[answerer]
        )
    seen["again"] = await e.slash(e.m["bob"], "henyo register", partner=e.m["erin"])
    seen["words"] = await e.slash(e.host, "henyo words list")

    # pair 1: a penalty, the buttons, audience coaching, a guess
    seen["running"], announcement, secret, round_id = await e.start_round(e.m["bob"])
    seen["announcement"], seen["secret"] = announcement, secret
    seen["answerer dm"] = e.dc.dms_to(e.m["bob"])[-1]
    await e.say(e.m["bob"], "siguro", announcement, 2.0)
    seen["penalty"] = await e.post(lambda m: m.id > announcement.id)
    seen["pressed"] = await e.dc.click(e.m["bob"], announcement, f"henyo:reply:{round_id}:oo")
    seen["not yours"] = await e.dc.click(e.m["alice"], announcement, f"henyo:reply:{round_id}:oo")
    await e.say(e.m["erin"], "hint: nasa bahay!", announcement, 6.0)
    seen["flag"] = await e.post(who=e.host, predicate=lambda m: "🚩" in m.content)
    await e.say(e.m["alice"], secret, announcement, 12.3)
    seen["guessed"] = await e.post(lambda m: m.id > announcement.id and "🎉" in m.content)

    # pair 2: time runs out
    _, announcement, secret2, _ = await e.start_round(e.m["dave"])
    seen["secret2"] = secret2
    club.clock.advance(seconds=65)
    await club.tick()
    seen["time up"] = await e.post(lambda m: m.id > announcement.id and "⌛" in m.content)

    seen["standings"] = await e.slash(e.m["alice"], "henyo standings")
    seen["closed"] = await e.slash(e.host, "henyo event close")
    closed_list = len(e.dc.messages[seen["list"].id].edits) + 1
    await e.dc.wait_until(
        lambda: len(e.dc.messages[seen["list"].id].edits) >= closed_list,
        what="the registration list to show the event closed",
    )
    return seen


async def test_a_filipino_club_plays_a_henyo_event_in_filipino(club) -> None:
    seen = await play_an_event(club, "fil")
    dc = club.dc

    assert seen["too_short"].answer.content == (
        "Dapat mula 10 segundo hanggang 10 minuto ang time limit."
    )
    registration = seen["opened"].answer.embeds[0]
    assert registration["title"].endswith("(bukas ang registration)")
    assert "time limit 1 minuto" in registration["description"]
    assert registration["fields"][0]["name"] == "Maglalaro (0/2)"
    assert seen["registered alice"].answer.content.startswith("Rehistrado: **alice & bob**")
    assert seen["again"].answer.content == "Rehistrado ka na sa event na ito (pair 1)."
    assert seen["words"].answer.embeds[0]["title"] == "Mga Henyo word — sariling salita ng club"

    assert seen["running"].content.startswith("Tumatakbo na ang round #")
    assert "Ang sikretong salita ay: **" in seen["answerer dm"].content
    assert "Ikaw ang answerer" in seen["answerer dm"].content
    assert seen["announcement"].content.startswith("🎯 **Library Henyo — Pair 1**")
    assert "Tumatakbo na ang oras — go!" in seen["announcement"].content
    first = (seen["announcement"].edits or [{"components": seen["announcement"].components}])[0]
    labels = [c["label"] for c in first["components"][0]["components"]]
    assert labels == ["Oo", "Hindi", "Pwede"]
    assert seen["penalty"].content.startswith("⏱️ Penalty: +5 segundo kay **bob**")
    assert seen["pressed"].answer.content == "✅ **Oo** — bob"
    assert seen["not yours"].answer.content.startswith("Ang answerer lang (<@")
    assert "May mensahe ang audience habang Henyo round" in seen["flag"].content
    assert seen["guessed"].content.startswith("🎉 Nahulaan ni **alice**: **")
    assert "Oras 12.3 s + penalty 5.0 s (1) = final time **17.3 s**" in seen["guessed"].content
    assert "Susunod: pair 2, **carol & dave**" in seen["guessed"].content
    assert "Ubos na ang oras! Hindi ito nahulaan ng **carol & dave** sa loob ng 1 minuto" in (
        seen["time up"].content
    )
    table = seen["standings"].answer.embeds[0]
    assert table["title"] == "Library Henyo — standings ng event #1 (bukas)"
    assert "carol & dave — tanggal (ubos ang oras)" in table["description"]
    assert "Ang pinakamabilis ang panalo." in table["footer"]["text"]
    assert seen["closed"].answer.content == "🏆 Tapos na ang event #1. Panalo: **alice & bob**!"
    assert dc.messages[seen["list"].id].embeds[0]["title"].endswith("(sarado na)")

    assert english_leaks(dc, "fil") == []


async def test_in_the_pseudo_locale_nothing_the_henyo_event_sends_escapes_the_catalogue(
    club, pseudo
) -> None:
    seen = await play_an_event(club, PSEUDO)
    allowed = [*club.members, "host", "siguro", "hint: nasa bahay!"]
    allowed += [w.text for w in builtin_words()]
    allowed += ["Tao", "Bagay", "Hayop", "Pagkain", "Lugar", "fil", "en", "Library Henyo"]
    assert seen["secret"] in allowed
    texts = [text for _where, text in bot_texts(club.dc)]
    assert len(texts) > 40  # replies, posts, DMs, embeds, buttons: all looked at
    assert "⟦Oo⟧" in texts and "⟦Close the event anyway⟧" not in texts
    assert any(t.startswith("🎯 ⟦**Library Henyo — ⟦Pair 1⟧**⟧") for t in texts)
    assert undecorated_texts(club.dc, allowed) == []


async def test_a_reply_read_back_after_a_restart_is_refereed_in_the_club_s_language(club) -> None:
    await club.start()
    await speak(club, "fil")
    e = Event(club)
    await e.slash(e.host, "henyo event open", pairs=1)
    await e.slash(e.m["alice"], "henyo register", partner=e.m["bob"])
    _, announcement, _secret, _ = await e.start_round(e.m["bob"])
    await club.stop()
    await e.say(e.m["bob"], "siguro", announcement, 3.0)  # sent while the bot is away
    await club.start()
    penalty = await e.post(lambda m: m.id > announcement.id and "⏱️" in m.content)
    assert penalty.content.startswith("⏱️ Penalty: +5 segundo kay **bob**")
