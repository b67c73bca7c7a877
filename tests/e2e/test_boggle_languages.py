"""A Word Boggle round in a Filipino club, and the same round in the
pseudo-locale, through the loopback Discord: the weekly schedule and its
heads-up, the grid post and its buttons, the grid by DM, DM'd lists and their
receipts, a command typed into a DM, the form, a late list, the results post
(text, embed, image and file), /boggle results, the season, and the hint after
the round. In Filipino it all reads Filipino; in the pseudo-locale nothing the
bot sends escaped the catalogue."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

import bot.services.boggle as boggle_service
from bot.messages import i18n
from tests.e2e.languages import (
    PSEUDO,
    bot_texts,
    english_leaks,
    install_pseudo,
    speak,
    undecorated_texts,
)

SEED = 42  # classic16 → I T V A / T E V W / Y O N I / L U C A
WORDS = ["toucanet", "toucan", "convey", "canoe", "civet", "covet", "envoy", "naive", "tonic"]
pytestmark = pytest.mark.clock(datetime(2026, 11, 30, 18, 0, tzinfo=UTC))
OPENS = datetime(2026, 12, 1, 11, 0, tzinfo=UTC)  # Tuesday 19:00 in Manila
ENDS = OPENS + timedelta(minutes=3)


@pytest.fixture
def boggle_words(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "boggle-words.txt"
    path.write_text("\n".join(WORDS) + "\n")
    monkeypatch.setenv("LEXICON", str(path))
    monkeypatch.setattr(boggle_service, "new_seed", lambda: SEED)
    return path


@pytest.fixture
def pseudo() -> Iterator[None]:
    install_pseudo()
    yield
    i18n.uninstall(PSEUDO)


async def play_a_round(club: Any, code: str) -> dict[str, Any]:
    dc, clock, channel = club.dc, club.clock, club.channel
    alice, bob, carol = club.members["alice"], club.members["bob"], club.members["carol"]
    await club.start()
    await speak(club, code)
    seen: dict[str, Any] = {}

    async def post(where: Any, predicate: Any = None) -> Any:
        return await dc.wait_for_message(
            channel=where, predicate=predicate or (lambda m: True), timeout=10
        )

    await dc.slash(
        club.moderator,
        channel,
        "club setup",
        options={"moderator_role": club.mod_role, "timezone": "Asia/Manila"},
    )
    seen["schedule"] = await dc.slash(
        club.moderator, channel, "boggle schedule", weekday=1, time="7pm", duration="3 minuto"
    )
    clock.now = OPENS - timedelta(hours=1)
    await club.tick()
    seen["heads up"] = await post(channel, lambda m: not m.ephemeral and "⏰" in m.content)
    clock.now = OPENS
    await club.tick()
    grid = seen["grid"] = await post(channel, lambda m: "boggle:submit:1" in m.custom_ids)

    ix = await dc.click(alice, grid, "boggle:dm:1")
    await ix.wait_done()
    seen["grid dm"] = await post(alice, lambda m: m.attachments)
    await dc.dm(alice, "Toucanet, convey\ncanoe 8H", at=OPENS + timedelta(seconds=20))
    seen["receipt"] = await post(alice)
    await dc.dm(bob, "canoe tonic", at=OPENS + timedelta(seconds=30))
    await post(bob)
    await dc.dm(bob, "/scrabble play word:QUIZ", at=OPENS + timedelta(seconds=35))
    seen["typed command"] = await post(bob)

    dc.close_dms(carol)
    ix = await dc.click(carol, grid, "boggle:dm:1")
    await ix.wait_done()
    seen["dms closed"] = ix.followups[-1]
    opened = await dc.click(carol, seen["dms closed"], "boggle:submit:1")
    seen["form"] = opened.modal
    clock.now = OPENS + timedelta(seconds=50)
    seen["form receipt"] = await dc.submit_modal(carol, opened, {"boggle:words": "canoe, naive"})

    clock.now = ENDS + timedelta(seconds=2)
    await dc.dm(bob, "covet", at=ENDS + timedelta(seconds=1))
    seen["late"] = await post(bob)
    clock.now = ENDS + boggle_service.CLOSE_GRACE
    await club.tick()
    await club.tick()
    seen["results"] = await post(channel, lambda m: not m.ephemeral and "📋" in m.content)
    seen["results again"] = await dc.slash(carol, channel, "boggle results")
    seen["leaderboard"] = await dc.slash(
        alice, channel, "leaderboard", game="boggle", period="season"
    )
    seen["stats"] = await dc.slash(alice, channel, "stats")
    seen["help"] = await dc.slash(alice, channel, "help")
    await (await dc.click(alice, seen["help"].answer, "help:admin")).wait_done()
    seen["help admin"] = dc.messages[seen["help"].answer.id]
    seen["season"] = await dc.slash(club.moderator, channel, "boggle season", target=50)
    seen["cancel"] = await dc.slash(club.moderator, channel, "boggle cancel", what="schedule")

    clock.now = ENDS + timedelta(hours=2)
    await dc.dm(alice, "hello", at=clock.now)
    seen["hint"] = await post(alice)
    return seen


async def test_a_filipino_club_plays_a_boggle_round_in_filipino(club, boggle_words) -> None:
    seen = await play_a_round(club, "fil")

    schedule = seen["schedule"].answer.content
    assert schedule.startswith(
        "Naka-schedule na: may Word Boggle round tuwing **Martes nang 19:00**"
    )
    assert "3 minuto" in schedule
    assert "Magsisimula rito ang **Word Boggle round #1**" in seen["heads up"].content
    grid = seen["grid"]
    assert grid.content.startswith("🎲 **Word Boggle — round #1** · 4x4 na grid · 3 minuto")
    assert "Mga letra, bawat hanay: **I T V A / T E V W / Y O N I / L U C A**" in grid.content
    assert grid.attachments[0].description.startswith("Word Boggle round 1, 4x4 na grid.")
    labels = [c["label"] for row in grid.components for c in row["components"]]
    assert labels == ["Ipasa ang mga salita", "I-DM sa akin ang grid"]
    assert "Isagot dito ang mga salita mo" in seen["grid dm"].content
    receipt = seen["receipt"].content
    assert receipt.startswith("✅ 3 bagong salita — may **3** na ang listahan mo para sa round #1")
    assert "Hindi isinama ang 1 na hindi puro letra (8H)" in receipt
    assert seen["typed command"].content.startswith("Command ang `/scrabble play`")
    assert "Hindi kita ma-DM" in seen["dms closed"].content
    assert seen["form"]["title"] == "Mga salita mo — round #1"
    assert "may **2** na ang listahan mo" in seen["form receipt"].answer.content
    assert seen["late"].content.startswith("Pasensya na, natapos ang round #1")

    results = seen["results"]
    assert results.content.startswith("📋 **Word Boggle — mga resulta ng round #1**")
    assert "🏆 Panalo si **alice** na may 14 na puntos." in results.content
    fields = {f["name"]: f["value"] for f in results.embeds[0]["fields"]}
    assert "May puntos: TOUCANET (11), CONVEY (3)" in fields["1. alice — 14 na puntos"]
    assert "Kanselado (nasa ibang listahan din): CANOE" in fields["1. alice — 14 na puntos"]
    assert results.embeds[0]["title"] == "Round #1 — lahat ng listahan"
    text_file = next(a for a in results.attachments if a.filename.endswith(".txt"))
    assert "Pinakamagagandang salitang walang nakahanap" in text_file.data.decode()
    assert "mga resulta ng round #1" in seen["results again"].answer.content
    assert "**Season 1** (unang umabot ng 50 puntos)" in seen["season"].answer.content
    assert seen["cancel"].answer.content.startswith("Itinigil ang **lingguhang schedule**")
    assert seen["hint"].content.startswith("Walang bukas na Word Boggle round para sa iyo ngayon.")
    board = seen["leaderboard"].answer
    assert board.content.startswith("**Word Boggle — ngayong season**")
    assert "1. alice — puntos 14" in board.content
    assert board.attachments[0].description.startswith("Word Boggle — ngayong season:")
    stats = seen["stats"].answer.embeds[0]
    assert stats["title"] == "alice — record sa club"
    assert any(f["name"] == "Word Boggle" and "puntos" in f["value"] for f in stats["fields"])
    help_embed = seen["help"].answer.embeds[0]
    assert help_embed["title"].startswith("clubbot — mga laro ng club · ")
    admin_page = seen["help admin"].embeds[0]
    assert any(f["name"] == "Para sa mga admin at moderator" for f in admin_page["fields"])

    assert english_leaks(club.dc, "fil") == []


async def test_in_the_pseudo_locale_nothing_the_boggle_round_sends_escapes_the_catalogue(
    club, boggle_words, pseudo
) -> None:
    await play_a_round(club, PSEUDO)
    allowed = [*club.members, "host", *WORDS, "8H", "Asia/Manila", "Word Boggle", "QUIZ"]
    allowed += ["/scrabble play", "tame, quit, tones"]  # a command quoted, the form's example
    texts = [text for _where, text in bot_texts(club.dc)]
    assert len(texts) > 30
    assert "⟦Submit words⟧" in texts
    assert undecorated_texts(club.dc, allowed) == []
