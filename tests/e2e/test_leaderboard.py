"""The club leaderboard through the loopback Discord: games of each kind end,
then /leaderboard and /stats show the right numbers in two guilds that do not
see each other, and /club export re-imports."""

from __future__ import annotations

import asyncio
import csv
import io
import re
import subprocess
import sys
import zipfile
from datetime import timedelta
from pathlib import Path
from typing import Any

import chess
import chess.pgn

from bot.services.results import record_points
from tests.conftest import shared_path  # noqa: F401  (shared/ is needed by other e2e tests, not here)
from tests.e2e.club import Club
from tests.e2e.games import number_of, shown_game

REPO = Path(__file__).resolve().parents[2]


async def _chess_fools_mate(club: Club, channel: Any, white: Any, black: Any) -> int:
    dc = club.dc
    before = {t.id for t in dc.threads_in(channel)}
    ix = await dc.slash(white, channel, "chess new", opponent=black, time="3d", color="white")
    game_id = shown_game(club.db_path, channel.guild_id, "chess", ix.answer.content)
    await dc.click(black, ix.answer, f"chess:invite:accept:{game_id}")
    thread = await dc.wait_until(
        lambda: next((t for t in dc.threads_in(channel) if t.id not in before), None)
    )
    await dc.wait_for_message(thread, predicate=lambda m: "Game on" in m.content)
    for mover, move in ((white, "f3"), (black, "e5"), (white, "g4"), (black, "Qh4#")):
        ix = await dc.slash(mover, thread, "chess move", move=move)
        assert ix.answer.content.startswith("Done. "), ix.answer.content
    await dc.wait_for_message(
        thread, predicate=lambda m: "**0-1**" in m.content, include_ephemeral=False
    )
    return game_id


async def _scrabble_resigned(club: Club, channel: Any, a: Any, b: Any) -> tuple[int, Any]:
    """A Scrabble game that ends when ``a`` resigns: ``b`` wins."""
    dc = club.dc
    before = {t.id for t in dc.threads_in(channel)}
    ix = await dc.slash(a, channel, "scrabble new", opponent=b)
    invite = ix.answer
    game_id = int(next(c for c in invite.custom_ids if c.startswith("scrabble:join")).split(":")[2])
    await dc.click(b, invite, f"scrabble:join:{game_id}")
    thread = await dc.wait_until(
        lambda: next((t for t in dc.threads_in(channel) if t.id not in before), None)
    )
    await dc.wait_for_message(thread, predicate=lambda m: "move 0" in (m.content or ""), timeout=10)
    ix = await dc.slash(a, thread, "scrabble resign")
    assert ix.response is not None
    await dc.wait_for_message(
        thread, predicate=lambda m: "Game over" in (m.content or ""), timeout=10
    )
    return game_id, thread


async def _henyo_guessed(club: Club, guesser: Any, answerer: Any, seconds: float) -> None:
    dc = club.dc
    ix = await dc.slash(
        club.moderator,
        club.channel,
        "henyo start",
        guesser=guesser,
        answerer=answerer,
        word="Kalabaw",
    )
    done = await ix.next_message(timeout=10)
    assert done.ephemeral and "Kalabaw" not in done.content
    announcement = await dc.wait_for_message(
        channel=club.channel, predicate=lambda m: m.content.startswith("🎯 **Library Henyo")
    )
    await dc.say(
        guesser, club.channel, "kalabaw!", at=announcement.created_at + timedelta(seconds=seconds)
    )
    await dc.wait_for_message(channel=club.channel, predicate=lambda m: "final time" in m.content)


def _table_rows(text: str) -> list[str]:
    return [line for line in text.splitlines() if re.match(r"^\d+\. ", line)]


async def test_results_of_every_game_reach_each_guilds_own_leaderboard_and_export(
    club: Club, tmp_path: Path
) -> None:
    dc = club.dc
    other_guild = dc.add_guild("English Speaking Society")
    other_channel = dc.add_text_channel(other_guild, "games")
    gus, hana = dc.add_user("gus"), dc.add_user("hana")
    for user in (gus, hana):
        dc.add_member(other_guild, user)
    alice, bob, carol, dave = (club.members[n] for n in ("alice", "bob", "carol", "dave"))
    await club.start(discord_guild_ids=[club.guild.id, other_guild.id])

    await _chess_fools_mate(club, club.channel, alice, bob)  # bob (black) mates
    scrabble_id, _ = await _scrabble_resigned(club, club.channel, carol, dave)  # dave wins
    await _henyo_guessed(club, alice, carol, seconds=12.34)
    await _chess_fools_mate(club, other_channel, gus, hana)  # the other club: hana wins

    ix = await dc.slash(alice, club.channel, "leaderboard", game="chess")
    rows = _table_rows(ix.answer.content)
    assert [r.split(" — ")[0] for r in rows] == ["1. bob", "2. alice"]
    assert "w-l-d 1-0-0" in rows[0] and "w-l-d 0-1-0" in rows[1]
    assert ix.answer.files and ix.answer.files[0][0] == "leaderboard.png"
    assert not ix.answer.ephemeral
    # The image says its rows in words (alt text), without the message's markdown.
    [image] = ix.answer.attachments
    assert image.description.startswith("Chess — all time:\n1. bob — rating ")
    assert "2. alice — " in image.description and "**" not in image.description

    ix = await dc.slash(alice, club.channel, "leaderboard", game="scrabble", period="week")
    assert [r.split(" — ")[0] for r in _table_rows(ix.answer.content)] == ["1. dave", "2. carol"]

    ix = await dc.slash(alice, club.channel, "leaderboard", game="henyo")
    rows = _table_rows(ix.answer.content)
    assert {r.split(" — ")[0].split(". ")[1] for r in rows} == {"alice", "carol"}
    assert all("best time 12.3 s" in r for r in rows)

    ix = await dc.slash(alice, club.channel, "leaderboard")  # all games
    names = {r.split(" — ")[0].split(". ")[1] for r in _table_rows(ix.answer.content)}
    assert names == {"alice", "bob", "carol", "dave"}

    ix = await dc.slash(gus, other_channel, "leaderboard", game="chess")
    assert [r.split(" — ")[0] for r in _table_rows(ix.answer.content)] == ["1. hana", "2. gus"]
    ix = await dc.slash(gus, other_channel, "leaderboard")
    assert {r.split(" — ")[0].split(". ")[1] for r in _table_rows(ix.answer.content)} == {
        "gus",
        "hana",
    }

    ix = await dc.slash(carol, club.channel, "stats", member=bob)
    [embed] = ix.answer.embeds
    fields = {f["name"]: f["value"] for f in embed["fields"]}
    assert set(fields) == {"Chess", "Achievements"} and "1 W / 0 L / 0 D" in fields["Chess"]
    assert "First win" in fields["Achievements"]  # earned with that win (issue #31)
    ix = await dc.slash(carol, club.channel, "stats")
    fields = {f["name"]: f["value"] for f in ix.answer.embeds[0]["fields"]}
    assert set(fields) == {"Scrabble", "Library Henyo"}
    assert "12.3 s" in fields["Library Henyo"]
    ix = await dc.slash(hana, other_channel, "stats", member=hana)
    assert {f["name"] for f in ix.answer.embeds[0]["fields"]} == {"Chess", "Achievements"}

    # Export: moderators only; the archive re-imports.
    ix = await dc.slash(alice, club.channel, "club export")
    assert ix.answer.ephemeral and "moderators" in ix.answer.content
    ix = await dc.slash(club.moderator, club.channel, "club export")
    message = await ix.next_message(timeout=10)
    assert message.ephemeral
    ((_name, data),) = message.files
    archive = zipfile.ZipFile(io.BytesIO(data))
    results = list(csv.DictReader(io.StringIO(archive.read("results.csv").decode())))
    assert {r["player"] for r in results} == {"alice", "bob", "carol", "dave"}
    assert {r["game"] for r in results} == {"chess", "scrabble", "henyo"}
    ratings = list(csv.DictReader(io.StringIO(archive.read("ratings.csv").decode())))
    assert {(r["game"], r["player"]) for r in ratings if r["game"] == "chess"} == {
        ("chess", "alice"),
        ("chess", "bob"),
    }
    gcg = [n for n in archive.namelist() if n.endswith(".gcg")]
    pgn = [n for n in archive.namelist() if n.endswith(".pgn")]
    assert gcg == [f"games/scrabble-{number_of(club.db_path, scrabble_id)}.gcg"] and len(pgn) == 1
    gcg_path = tmp_path / "export.gcg"
    gcg_path.write_bytes(archive.read(gcg[0]))
    check = await asyncio.to_thread(
        subprocess.run,
        [sys.executable, "-m", "engines.scrabble.gcg", "check", str(gcg_path)],
        cwd=REPO,
        capture_output=True,
        text=True,
    )
    assert check.returncode == 0 and check.stdout.strip().endswith("1 passed, 0 failed"), (
        check.stdout + check.stderr
    )
    game = chess.pgn.read_game(io.StringIO(archive.read(pgn[0]).decode()))
    board = game.end().board()
    assert board.is_checkmate() and game.headers["Result"] == "0-1"


async def test_the_pages_of_a_long_table_turn_with_their_buttons_and_each_image_has_alt_text(
    club: Club,
) -> None:
    dc = club.dc
    bot = await club.start()
    names = {100 + i: f"member{i:02d}" for i in range(12)}
    async with bot.ctx.uow() as uow:
        await uow.guilds.ensure(club.guild.id, club.guild.name)
        for player_id, name in names.items():
            await uow.players.ensure(player_id, name)
            await record_points(
                uow,
                guild_id=club.guild.id,
                kind="boggle",
                player_id=player_id,
                points=player_id - 90,  # member11 has most
                played_at=club.clock(),
                round_ref="boggle:seeded",
                outcome="loss",
            )
        await uow.commit()
    alice = club.members["alice"]

    ix = await dc.slash(alice, club.channel, "leaderboard", game="boggle")
    first = ix.answer
    assert first.content.startswith("**Word Boggle — all time** (page 1 of 2)")
    assert _table_rows(first.content)[0].startswith("1. member11 — points 21")
    assert first.attachments[0].description.startswith(
        "Word Boggle — all time (page 1 of 2):\n1. member11 — points 21, rounds 1, won 0"
    )
    assert "lb:boggle:all:0:n" in first.custom_ids

    turned = await dc.click(alice, first, "lb:boggle:all:0:n")
    await turned.wait_done()
    second = dc.messages[first.id]
    assert second.content.startswith("**Word Boggle — all time** (page 2 of 2)")
    assert [r.split(" — ")[0] for r in _table_rows(second.content)] == [
        "11. member01",
        "12. member00",
    ]
    [image] = second.attachments
    assert image.filename == "leaderboard.png"
    assert image.description.splitlines()[1:] == [
        "11. member01 — points 11, rounds 1, won 0",
        "12. member00 — points 10, rounds 1, won 0",
    ]
