"""A Scrabble game in a Filipino club, and the same game in the pseudo-locale,
through the loopback Discord: the invitation and its buttons, the thread and
its boards (their image headers and alt text), plays and their answers, a play
the rack can't make refused by the engine, the turn DMs, the rack button, an
exchange, a pass, /scrabble games, a resignation and the final post with its
GCG file. In Filipino it all reads Filipino; in the pseudo-locale nothing the
bot sends, nor any text drawn on a board, escaped the catalogue."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from bot.messages import catalogue, i18n
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
from tests.e2e.test_scrabble_members import (
    _first_seat_zero_seed,
    deal_from,
    outbox_headers,
    set_racks,
)


@pytest.fixture
def pseudo() -> Iterator[None]:
    install_pseudo()
    yield
    i18n.uninstall(PSEUDO)


async def play_a_game(club: Any, code: str) -> dict[str, Any]:
    dc = club.dc
    await club.start()
    await speak(club, code)
    deal_from(club, _first_seat_zero_seed())
    alice, bob = club.members["alice"], club.members["bob"]
    seen: dict[str, Any] = {}

    ix = await dc.slash(alice, club.channel, "scrabble new", opponent=bob, clock="1 araw")
    seen["invite"] = invite = ix.answer
    game_id = int(next(c for c in invite.custom_ids if c.startswith("scrabble:join")).split(":")[2])
    await dc.click(bob, invite, f"scrabble:join:{game_id}")
    thread = seen["thread"] = (
        await dc.wait_until(lambda: dc.threads_in(club.channel), what="the game's thread")
    )[-1]

    async def board(after: int) -> Any:
        return await dc.wait_for_message(
            channel=thread, predicate=lambda m: m.id > after and bool(m.attachments), timeout=10
        )

    seen["first board"] = await board(0)
    seen["alice's turn"] = await dc.wait_for_message(alice, timeout=10)
    await set_racks(club, game_id, {0: "ENJOYRT", 1: "T?ABCDE"})
    seen["played"] = await dc.slash(alice, thread, "scrabble play", word="enjoy", position="8H")
    seen["board 1"] = await board(seen["first board"].id)
    seen["bob's turn"] = await dc.wait_for_message(bob, timeout=10)
    seen["no O"] = await dc.slash(bob, thread, "scrabble play", word="toy", position="L6")
    seen["blank"] = await dc.slash(bob, thread, "scrabble play", word="t?oy", position="L6")
    seen["board 2"] = await board(seen["board 1"].id)
    seen["rack"] = await dc.click(alice, seen["board 2"], f"scrabble:rack:{game_id}")
    seen["exchange"] = await dc.slash(alice, thread, "scrabble exchange", tiles="RT")
    seen["board 3"] = await board(seen["board 2"].id)
    seen["pass"] = await dc.slash(bob, thread, "scrabble pass")
    seen["board 4"] = await board(seen["board 3"].id)
    seen["games"] = await dc.slash(alice, club.channel, "scrabble games")
    seen["resign"] = await dc.slash(alice, thread, "scrabble resign")
    seen["over"] = await dc.wait_for_message(
        channel=thread,
        predicate=lambda m: any(a.filename.endswith(".gcg") for a in m.attachments),
        timeout=10,
    )
    seen["headers"] = outbox_headers(club.db_path)
    return seen


def _text(ix: Any) -> str:
    if ix.response is not None and ix.answer.content:
        return str(ix.answer.content)
    return str((ix.followups[-1] if ix.followups else ix.answer).content)


async def test_a_filipino_club_plays_a_scrabble_game_in_filipino(club) -> None:
    seen = await play_a_game(club, "fil")

    invite = first_version(seen["invite"])
    assert "inaanyayahan kayo ni <@" in invite["content"]
    assert "Upuan 1: alice" in invite["content"] and "turn clock: 1 araw" in invite["content"]
    assert labels(invite["components"]) == ["Tanggapin", "Tanggihan"]
    first = seen["first board"]
    assert "Para tumira: `/scrabble play word:QUIZ position:8H`" in first.content
    assert first.attachments[0].description.startswith("Board ng Scrabble #1 pagkatapos ng tira 0.")
    assert "Wala pang tile sa board." in first.attachments[0].description
    assert seen["alice's turn"].content.startswith("Ikaw na ang titira sa **Scrabble #1**")
    assert _text(seen["played"]).startswith("Tinira mo ang ENJOY sa 8H para sa ")
    assert "**Scrabble #1** · tira 1" in seen["board 1"].content
    assert labels(seen["board 1"].components) == ["Ipakita ang rack ko", "Challenge"]
    assert seen["bob's turn"].content.startswith("Ikaw na ang titira sa **Scrabble #1**")
    refused = _text(seen["no O"])
    assert refused.startswith("Wala kang O (para laruin ang blank mo bilang O, isulat ang ?O"), (
        refused
    )
    assert _text(seen["blank"]).startswith("Tinira mo ang TOY sa L6 para sa ")
    assert "blank bilang O" in seen["board 2"].content
    assert _text(seen["rack"]).startswith("Ang rack mo: ")
    assert _text(seen["exchange"]).startswith("Nag-exchange ka ng 2 tile at nakabunot ng ")
    assert _text(seen["pass"]).startswith("Nag-pass ka.")
    games = _text(seen["games"])
    assert games.startswith("**Mga Scrabble game mo**") and "· ikaw na ang titira" in games
    assert _text(seen["resign"]).startswith("Nag-resign ka sa laro.")
    over = seen["over"].content
    assert "**Tapos na ang laro** (nag-resign). Panalo: **bob**." in over
    assert "Naka-attach ang record ng laro (GCG)" in over

    headers = seen["headers"]
    assert headers[0][1] == "▶ si alice ang titira"
    assert headers[1][-1].startswith("huli: Tinira ni alice ang ENJOY sa 8H para sa ")
    assert any(
        line.startswith("huli: Nag-exchange si alice ng 2 tile") for h in headers for line in h
    )
    assert all("bag" in h[0] for h in headers)

    assert english_leaks(club.dc, "fil") == []


async def test_in_the_pseudo_locale_nothing_the_scrabble_game_sends_escapes_the_catalogue(
    club, pseudo
) -> None:
    seen = await play_a_game(club, PSEUDO)
    allowed = [*club.members, "host", "ENJOY", "TOY", "8H", "L6", "H8", "QUIZ", "qui?z", "?x"]
    allowed += ["?O", "RT", "GCG", "Scrabble"]
    texts = [text for _where, text in bot_texts(club.dc)]
    assert len(texts) > 30 and "⟦Show my rack⟧" in texts
    # racks and tiles are notation: single letters and blanks
    rack_letters = [letter for letter in "ABCDEFGHIJKLMNOPQRSTUVWXYZ"]
    assert undecorated_texts(club.dc, allowed + rack_letters) == []
    drawn = [line for header in seen["headers"] for line in header]
    escaped = [
        line
        for line in drawn
        if any(ch.isalpha() for ch in catalogue.undecorated(line).replace("bag", ""))
        and not set(catalogue.undecorated(line).split()) <= {*club.members, *rack_letters}
    ]
    assert escaped == [], escaped
