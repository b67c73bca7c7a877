"""Agreeing a game's time in the club's language: the proposal, its buttons, the
refusals, the agreed time, /mygames and the reminder in Filipino, and nothing of them
escaping the catalogue (the pseudo-locale)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from bot.messages import catalogue, i18n
from tests.e2e.languages import (
    PSEUDO,
    english_leaks,
    first_version,
    install_pseudo,
    labels,
    speak,
)
from tests.e2e.test_schedule import _chess_tournament


@pytest.fixture
def pseudo() -> Iterator[None]:
    install_pseudo()
    yield
    i18n.uninstall(PSEUDO)


async def propose_accept_and_remind(club: Any, code: str) -> dict[str, Any]:
    await club.start()
    await speak(club, code)
    dc = club.dc
    alice, bob, carol = club.members["alice"], club.members["bob"], club.members["carol"]
    _tid, thread = await _chess_tournament(club)
    seen: dict[str, Any] = {}
    seen["past"] = (
        await dc.slash(alice, thread, "schedule propose", when="2020-01-02 10:00")
    ).answer
    seen["odd"] = (await dc.slash(alice, thread, "schedule propose", when="whenever")).answer
    seen["proposed"] = (
        await dc.slash(alice, thread, "schedule propose", when="tomorrow 3pm", when2="Sat 5pm")
    ).answer
    seen["post"] = post = await dc.wait_for_message(
        thread, predicate=lambda m: any(c.startswith("schedule:accept:") for c in m.custom_ids)
    )
    first = next(c for c in post.custom_ids if c.startswith("schedule:accept:"))
    seen["outsider"] = (await dc.click(carol, post, first)).answer
    seen["own"] = (await dc.click(alice, post, first)).answer
    seen["agreed"] = (await dc.click(bob, post, first)).answer
    seen["thread"] = await dc.wait_for_message(
        thread, predicate=lambda m: f"<@{bob.id}>" in m.content and ":F>" in m.content
    )
    seen["mygames"] = (await dc.slash(bob, club.channel, "mygames")).answer
    club.clock.advance(days=2)
    await club.tick()
    seen["reminder"] = await dc.wait_until(lambda: next(iter(dc.dms_to(alice)), None))
    return seen


async def test_a_filipino_club_agrees_a_time_in_filipino(club: Any) -> None:
    seen = await propose_accept_and_remind(club, "fil")
    assert seen["past"].content.endswith("magmungkahi ng oras na darating pa.")
    assert seen["odd"].content.startswith("Hindi ko mabasa ang `whenever` bilang araw at oras")
    assert seen["proposed"].content.startswith("Naimungkahi na ang mga oras mo sa <#")
    assert "nagmumungkahi si <@" in seen["post"].content
    buttons = labels(first_version(seen["post"])["components"])
    assert len(buttons) == 2 and all("Tanggapin ang" in label for label in buttons), buttons
    assert seen["outsider"].content.startswith("Ang mga manlalaro lang ng larong ito")
    assert seen["own"].content.startswith("Sarili mong mga oras ang mga ito")
    assert seen["agreed"].content.startswith("Napagkasunduan: <t:")
    assert "tinanggap ni <@" in seen["thread"].content
    assert "napagkasunduang oras <t:" in seen["mygames"].content
    assert seen["reminder"].content.startswith("Paalala: ang **Chess #1** laban kay bob")
    # (what the tournament itself posts is its own tests' business)
    mine = {str(m.id) for m in seen.values()}
    assert [leak for leak in english_leaks(club.dc, "fil") if leak.split()[1] in mine] == []


async def test_in_the_pseudo_locale_nothing_of_agreeing_a_time_escapes_the_catalogue(
    club: Any, pseudo: None
) -> None:
    seen = await propose_accept_and_remind(club, PSEUDO)
    # The buttons show the times as Babel writes them (a test-only locale: in English).
    post = seen["post"]
    buttons = labels(first_version(post)["components"])
    assert len(buttons) == 2, buttons
    shown = [w for label in buttons for w in label.split()]
    texts = [seen[k].content for k in seen] + buttons
    left = [_outside(text, [*club.members, *shown]) for text in texts]
    assert [text for text in left if re.search(r"[^\W\d_]", text)] == []


def _outside(text: str, allowed: list[str]) -> str:
    """What of ``text`` is outside the pseudo-locale's brackets, names and times aside."""
    left = catalogue.undecorated(text)
    left = re.sub(r"<(?:@[!&]?|#)\d+>|<t:-?\d+(?::[tTdDfFR])?>", " ", left)
    for word in sorted(allowed, key=len, reverse=True):
        left = left.replace(word, " ")
    return left
