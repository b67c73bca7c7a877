"""Scrabble seats in any mix through the loopback Discord: three pairs, and two
pairs beside a single player, each played to the end from `/scrabble new` (every
member accepts), partners sharing a rack and taking turns at the keyboard, the
GCG record passing the checker; a member named for two seats; and
`/scrabble check words`, with lookups off refused to a running game's players.

The games are planned and driven as tests/e2e/test_scrabble.py does (a local
engine scripts the whole game, then members play it through slash commands and
buttons), so the bot's game ends exactly where the plan does.
"""

from __future__ import annotations

import asyncio
import sqlite3
import subprocess
import sys

from tests.e2e.test_scrabble import (
    REPO,
    Table,
    finish_checks,
    game_state,
    plan_game,
    reply_text,
    write_word_list,
)


async def _play(club, table: Table, plan, clock_seconds: float) -> None:
    restart_at = len(plan.steps) // 2
    for index, step in enumerate(plan.steps):
        if index == restart_at:
            await club.restart()
        await table.perform(step, plan, clock_seconds=clock_seconds)


async def _racks_shared(dc, table: Table, seat: int) -> None:
    """Each partner of ``seat`` sees the same rack, privately."""
    racks = []
    for member in table.seats[seat]:
        ix = await dc.slash(member, table.thread, "scrabble rack")
        text = await reply_text(ix)
        assert ix.answer.ephemeral and text.startswith("Your rack:"), text
        racks.append(text.splitlines()[0])
    assert len(set(racks)) == 1


async def test_a_game_of_three_pairs_is_played_to_the_end_and_its_gcg_passes(club, tmp_path):
    words = tmp_path / "club-words.txt"
    words.write_text("placeholder\n", encoding="utf-8")
    await club.start(lexicon=str(words))
    m = club.members
    table = Table(club, [[m["alice"], m["dave"]], [m["bob"], m["erin"]], [m["carol"], m["frank"]]])
    await table.open(
        m["alice"],
        opponent=m["bob"],
        opponent2=m["carol"],
        partner=m["dave"],
        opponent_partner=m["erin"],
        opponent2_partner=m["frank"],
        clock="3m",
        deadline="7d",
    )
    state = game_state(club.db_path, table.game_id)
    assert len(state["engine"]["racks"]) == 3
    plan = plan_game(state["engine"], rng_seed=21)
    write_word_list(words, plan)
    await _racks_shared(club.dc, table, plan.steps[0].seat)
    await _play(club, table, plan, clock_seconds=180)
    await finish_checks(table, plan, tmp_path)
    final = [
        msg for msg in club.dc.messages_in(table.thread) if "Game over" in (msg.content or "")
    ][-1]
    gcg = dict(final.files)[f"scrabble-{table.game_id}.gcg"].decode()
    assert "#player" in gcg and "alice_&_dave" in gcg and "carol_&_frank" in gcg


async def test_two_pairs_and_a_single_player_play_to_the_end_with_turn_dms_to_partners(
    club, tmp_path
):
    dc = club.dc
    words = tmp_path / "club-words.txt"
    words.write_text("placeholder\n", encoding="utf-8")
    await club.start(lexicon=str(words))
    m = club.members
    table = Table(club, [[m["alice"], m["carol"]], [m["bob"]], [m["dave"], m["erin"]]])
    await table.open(
        m["alice"],
        opponent=m["bob"],
        opponent2=m["dave"],
        partner=m["carol"],
        opponent2_partner=m["erin"],
        clock="1d",
        deadline="14d",
    )
    plan = plan_game(game_state(club.db_path, table.game_id)["engine"], rng_seed=31)
    write_word_list(words, plan)
    await _racks_shared(dc, table, 0)
    await _play(club, table, plan, clock_seconds=86400)
    # A correspondence game: every partner of a seat was told of its turns by DM.
    for seat in table.seats:
        for member in seat:
            assert any("your turn" in (msg.content or "") for msg in dc.dms_to(member)), member
    await finish_checks(table, plan, tmp_path)
    with sqlite3.connect(club.db_path) as db:
        rows = db.execute(
            "select player_id, outcome from results where game_id = ?", (table.game_id,)
        ).fetchall()
    outcome = dict(rows)
    for seat in table.seats:  # partners share their seat's result
        assert len({outcome[member.id] for member in seat}) == 1


async def test_a_member_named_for_two_seats_is_told_privately_and_nothing_is_made(club):
    dc = club.dc
    await club.start()
    m = club.members
    ix = await dc.slash(
        m["alice"], club.channel, "scrabble new", opponent=m["bob"], opponent_partner=m["alice"]
    )
    assert ix.answer.ephemeral and "alice is named twice" in ix.answer.content
    ix = await dc.slash(
        m["alice"],
        club.channel,
        "scrabble new",
        opponent=m["bob"],
        opponent2=m["carol"],
        partner=m["carol"],
    )
    assert ix.answer.ephemeral and "carol is named twice" in ix.answer.content
    assert [msg for msg in dc.messages_in(club.channel) if not msg.ephemeral] == []
    with sqlite3.connect(club.db_path) as db:
        assert db.execute("select count(*) from games").fetchone()[0] == 0


async def test_check_words_answers_privately_and_lookups_off_refuse_the_players(club, tmp_path):
    dc = club.dc
    words = tmp_path / "club-words.txt"
    words.write_text("qi\nza\nquiz\n", encoding="utf-8")
    await club.start(lexicon=str(words))
    m = club.members

    ix = await dc.slash(m["erin"], club.channel, "scrabble check", words="qi QIZ, za @everyone")
    text = await reply_text(ix)
    assert ix.answer.ephemeral
    assert "✅ **QI**" in text and "❌ **QIZ**" in text and "✅ **ZA**" in text
    assert "@everyone" not in text and not ix.followups[-1].pings

    ix = await dc.slash(m["alice"], club.channel, "scrabble new", opponent=m["bob"], lookups=False)
    invite = ix.answer
    assert "word lookups off" in invite.content
    game_id = next(c for c in invite.custom_ids if c.startswith("scrabble:join")).split(":")[2]
    await dc.click(m["bob"], invite, f"scrabble:join:{game_id}")
    thread = await dc.wait_until(
        lambda: next(iter(dc.threads_in(club.channel)), None), what="thread"
    )
    await dc.wait_for_message(
        channel=thread, predicate=lambda msg: "move 0" in (msg.content or ""), timeout=10
    )
    for player in (m["alice"], m["bob"]):
        for where in (thread, club.channel):
            ix = await dc.slash(player, where, "scrabble check", words="quiz")
            text = await reply_text(ix)
            assert ix.answer.ephemeral and "lookups are off" in text, text
    # Someone not playing may look words up, even in the game's thread.
    ix = await dc.slash(m["erin"], thread, "scrabble check", words="quiz")
    assert "✅ **QUIZ**" in await reply_text(ix)
    # When the game is over its players may look words up again.
    ix = await dc.slash(m["bob"], thread, "scrabble resign")
    await reply_text(ix)
    ix = await dc.slash(m["alice"], club.channel, "scrabble check", words="quiz")
    assert "✅ **QUIZ**" in await reply_text(ix)


async def test_the_computer_plays_a_seat_of_its_own_beside_two_pairs(club, tmp_path):
    """Two pairs and the computer: the pairs pass, the computer plays its own turns
    (a durable job), and when both pairs have resigned the game ends with a record
    that passes the checker; a game with the computer is not rated."""
    dc = club.dc
    await club.start()
    m = club.members
    ix = await dc.slash(
        m["alice"],
        club.channel,
        "scrabble new",
        opponent=m["bob"],
        opponent2=dc.bot_user,
        partner=m["carol"],
        opponent_partner=m["dave"],
        level="strong",
        clock="1d",
    )
    invite = ix.answer
    assert invite.pings == frozenset({f"user:{m[n].id}" for n in ("bob", "carol", "dave")})
    game_id = next(c for c in invite.custom_ids if c.startswith("scrabble:join")).split(":")[2]
    for name in ("bob", "carol", "dave"):
        await dc.click(m[name], invite, f"scrabble:join:{game_id}")
    thread = await dc.wait_until(
        lambda: next(iter(dc.threads_in(club.channel)), None), what="the game's thread"
    )
    await dc.wait_for_message(
        channel=thread, predicate=lambda msg: "move 0" in (msg.content or ""), timeout=10
    )
    seats = {0: [m["alice"], m["carol"]], 1: [m["bob"], m["dave"]]}
    computer_moves = 0
    for _ in range(12):
        state = game_state(club.db_path, int(game_id))
        seat = state["engine"]["current_seat"]
        if seat == 2:
            before = len(state["engine"]["moves"])
            for _ in range(40):
                club.clock.advance(seconds=2)
                await club.tick()
                if len(game_state(club.db_path, int(game_id))["engine"]["moves"]) > before:
                    break
            computer_moves += 1
            continue
        # Either partner may move for the pair: the second partner passes this time.
        ix = await dc.slash(seats[seat][computer_moves % 2], thread, "scrabble pass")
        assert await reply_text(ix) == "You passed.", await reply_text(ix)
    assert computer_moves >= 3
    assert any("**Computer (greedy)**" in (msg.content or "") for msg in dc.messages_in(thread))
    for member in (m["alice"], m["bob"]):
        ix = await dc.slash(member, thread, "scrabble resign")
        await reply_text(ix)
    final = await dc.wait_for_message(
        channel=thread, predicate=lambda msg: "Game over" in (msg.content or ""), timeout=10
    )
    gcg = next(data for name, data in final.files if name.endswith(".gcg"))
    path = tmp_path / "pairs-and-computer.gcg"
    path.write_bytes(gcg)
    checked = await asyncio.to_thread(
        subprocess.run,
        [sys.executable, "-m", "engines.scrabble.gcg", "check", str(path)],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert checked.returncode == 0 and "1 passed" in checked.stdout, checked.stdout
    with sqlite3.connect(club.db_path) as db:
        assert db.execute("select count(*) from results").fetchone()[0] == 0
