"""A chess game in a Filipino club, and the same game in the pseudo-locale,
through the loopback Discord: the challenge and its buttons, the thread, an
illegal move and a move out of turn refused privately, a draw offered and
declined with the buttons, the games list, the reminder DM of a correspondence
clock, and the checkmate with the ratings. In Filipino it all reads Filipino;
in the pseudo-locale nothing the bot sends escaped the catalogue."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from bot.messages import i18n
from tests.e2e.games import shown_game
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

SCHOLARS_MATE = ["e4", "e5", "Bc4", "Nc6", "Qh5", "Nf6", "Qxf7#"]


@pytest.fixture
def pseudo() -> Iterator[None]:
    install_pseudo()
    yield
    i18n.uninstall(PSEUDO)


async def play_a_game(club: Any, code: str) -> dict[str, Any]:
    await club.start()
    await speak(club, code)
    dc = club.dc
    alice, bob = club.members["alice"], club.members["bob"]
    seen: dict[str, Any] = {}
    before = {t.id for t in dc.threads_in(club.channel)}

    ix = await dc.slash(
        alice, club.channel, "chess new", opponent=bob, time="3 araw", color="white"
    )
    seen["invite"] = invite = dc.messages[ix.answer.id]  # live: the acceptance edits it
    game_id = shown_game(club.db_path, club.guild.id, "chess", invite.content)
    await dc.click(bob, invite, f"chess:invite:accept:{game_id}")
    thread = seen["thread"] = await dc.wait_until(
        lambda: next((t for t in dc.threads_in(club.channel) if t.id not in before), None),
        what="the game's thread",
    )
    seen["opening"] = await dc.wait_for_message(thread, predicate=lambda m: bool(m.files))

    seen["illegal"] = await dc.slash(alice, thread, "chess move", move="e5")
    seen["not your move"] = await dc.slash(bob, thread, "chess move", move="e5")
    players = [alice, bob]
    for ply, move in enumerate(SCHOLARS_MATE):
        if ply == 2:
            offer = await dc.slash(alice, thread, "chess draw", action="offer")
            seen["offer"] = offer
            offered = await dc.wait_for_message(
                thread, predicate=lambda m: f"chess:draw:decline:{game_id}" in m.custom_ids
            )
            seen["offered"] = offered
            seen["declined"] = await dc.click(bob, offered, f"chess:draw:decline:{game_id}")
            seen["games"] = await dc.slash(bob, club.channel, "chess games")
            club.clock.advance(days=2, hours=23)
            await club.tick()
            seen["reminder"] = await dc.wait_for_message(alice, timeout=10)
        seen[f"move {move}"] = await dc.slash(players[ply % 2], thread, "chess move", move=move)
    seen["final"] = await dc.wait_until(
        lambda: next((m for m in reversed(dc.messages_in(thread)) if "**1-0**" in m.content), None),
        what="the final board",
    )
    return seen


async def test_a_filipino_club_plays_a_chess_game_in_filipino(club) -> None:
    seen = await play_a_game(club, "fil")

    invite = seen["invite"]
    first = first_version(invite)
    assert "hinahamon ka ni <@" in first["content"]
    assert "(3 araw bawat tira; Puti siya)" in first["content"]
    assert invite.content.endswith("— tinanggap! Nasa thread sa ibaba ang laro.")
    assert labels(first["components"]) == ["Tanggapin", "Tanggihan"]
    assert seen["thread"].name == "Chess #1: alice vs bob"
    assert seen["opening"].content.startswith(
        "**Chess #1** · alice (Puti) vs bob (Itim) · 3 araw bawat tira"
    )
    assert "Simula na! Puti si alice, Itim si bob" in seen["opening"].content
    assert "· **Puti** ang titira: <@" in seen["opening"].content
    assert "mula sa panig ng Puti" in seen["opening"].attachments[0].description
    assert seen["illegal"].answer.content.startswith(
        "Hindi legal dito ang `e5`: walang piyon ng Puti na makakapunta sa e5."
    )
    assert seen["not your move"].answer.content.startswith("Si alice ang titira, hindi ikaw.")
    assert seen["move e4"].answer.content.startswith("Ayos na. Tumira si alice ng **e4**.")
    assert "Nag-aalok ng tabla si alice." in seen["offered"].content
    offered = first_version(seen["offered"])["components"]
    assert labels(offered) == ["Tanggapin ang tabla", "Tanggihan ang tabla"]
    declined = seen["declined"]
    shown = declined.answer.content if declined.answer.content else declined.original.content
    assert "Tinanggihan ni bob ang alok na tabla. Tuloy ang laro!" in shown
    games = seen["games"].answer.embeds[0]
    assert games["title"] == "Mga chess game mo"
    assert games["fields"][0]["name"] == "Kasalukuyan"
    assert "ikaw na ang titira" not in games["fields"][0]["value"]
    assert "#1 vs alice · si alice ang titira · 3 araw bawat tira" in games["fields"][0]["value"]
    reminder = seen["reminder"].content.lower()  # "chess #1" or "Chess #1"
    assert reminder.startswith("♟ ikaw na ang titira sa chess #1 laban kay bob")
    final = seen["final"].content
    assert "**1-0** — Panalo si alice sa checkmate." in final
    assert "Mga rating: alice 1500 →" in final

    assert english_leaks(club.dc, "fil") == []


async def test_in_the_pseudo_locale_nothing_the_chess_game_sends_escapes_the_catalogue(
    club, pseudo
) -> None:
    await play_a_game(club, PSEUDO)
    allowed = [*club.members, "host", "Stockfish"]
    texts = [text for _where, text in bot_texts(club.dc)]
    assert len(texts) > 30 and "⟦Accept⟧" in texts
    # game notation is allowed outside the catalogue: moves, FEN, results, numbers
    notation = [*SCHOLARS_MATE, "1-0", "FEN"]
    assert undecorated_texts(club.dc, allowed + notation + _fens(texts)) == []


def _fens(texts: list[str]) -> list[str]:
    fen = r"[rnbqkpRNBQKP1-8/]+ [wb] [KQkq-]+ [a-h1-8-]+ \d+ \d+"
    return [found for text in texts for found in re.findall(fen, text)]
