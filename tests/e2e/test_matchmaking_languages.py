"""Issue #30 in the club's language: a seek, its game, a rematch and /mygames in
Filipino, and nothing of them escaping the catalogue (the pseudo-locale)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from bot.messages import i18n
from tests.e2e.languages import (
    PSEUDO,
    bot_texts,
    english_leaks,
    first_version,
    install_pseudo,
    labels,
    speak,
    undecorated_texts,
)


@pytest.fixture
def pseudo() -> Iterator[None]:
    install_pseudo()
    yield
    i18n.uninstall(PSEUDO)


def _private(ix: Any) -> Any:
    answers = [m for m in (ix.answer, *ix.followups) if m is not None and m.ephemeral]
    assert answers, ix.response
    return answers[-1]


async def seek_play_and_rematch(club: Any, code: str) -> dict[str, Any]:
    await club.start()
    await speak(club, code)
    dc = club.dc
    alice, bob = club.members["alice"], club.members["bob"]
    seen: dict[str, Any] = {}
    ix = await dc.slash(alice, club.channel, "chess seek", time="3d", color="white")
    seen["seek"] = post = dc.messages[ix.answer.id]
    seek_id = next(c for c in post.custom_ids if c.startswith("seek:chess:accept:")).rsplit(":")[-1]
    seen["own"] = _private(await dc.click(alice, post, f"seek:chess:accept:{seek_id}"))
    await dc.click(bob, post, f"seek:chess:accept:{seek_id}")
    thread = await dc.wait_until(
        lambda: next(iter(dc.threads_in(club.channel)), None), what="the game's thread"
    )
    await dc.wait_for_message(thread, predicate=lambda m: bool(m.files))
    seen["mygames"] = _private(await dc.slash(alice, club.channel, "mygames"))
    await dc.slash(alice, thread, "chess resign")
    final = await dc.wait_until(
        lambda: next(
            (m for m in dc.messages_in(thread) if "rematch:chess:" in str(m.custom_ids)), None
        ),
        what="the final post",
    )
    seen["final"] = final
    button = next(c for c in final.custom_ids if c.startswith("rematch:chess:"))
    seen["waiting"] = _private(await dc.click(bob, final, button))
    seen["started"] = _private(await dc.click(alice, final, button))
    return seen


async def test_a_filipino_club_seeks_plays_and_rematches_in_filipino(club: Any) -> None:
    seen = await seek_play_and_rematch(club, "fil")
    first = first_version(seen["seek"])
    assert "naghahanap ng kalaro si <@" in first["content"]
    assert labels(first["components"]) == ["Tanggapin", "Kanselahin"]
    assert "tinanggap ni <@" in seen["seek"].content
    assert seen["own"].content.startswith("Sarili mong hamon ito")
    assert seen["mygames"].content.startswith("**Naghihintay sa iyo rito**")
    assert "ikaw na ang titira" in seen["mygames"].content
    assert labels(first_version(seen["final"])["components"]) == ["Rematch"]
    assert seen["waiting"].content.startswith("Humingi ng rematch: 1 sa 2")
    assert seen["started"].content.startswith("Tuloy ang rematch: Chess #2")
    assert english_leaks(club.dc, "fil") == []


async def test_in_the_pseudo_locale_nothing_of_a_seek_or_a_rematch_escapes_the_catalogue(
    club: Any, pseudo: None
) -> None:
    await seek_play_and_rematch(club, PSEUDO)
    allowed = [*club.members, "host", "Stockfish", "1-0", "0-1", "FEN"]
    texts = [text for _where, text in bot_texts(club.dc)]
    fens = [t.split("FEN ", 1)[1].split("`")[0].split()[0:6] for t in texts if "FEN " in t]
    allowed += [" ".join(f) for f in fens] + [w for f in fens for w in f]
    assert undecorated_texts(club.dc, allowed) == []
