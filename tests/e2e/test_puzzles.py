"""Puzzles through the loopback Discord (issue #31): a club Scrabble game (a conformance
GCG record played as the club's game) finishes and yields its puzzles; carol solves
one with the Answer form, dave fails one in three tries and sees the solution, both
ratings move, and carol's puzzles on two days in a row make a streak in /stats."""

from __future__ import annotations

import json
import sqlite3
from typing import Any

from engines.scrabble.board import typed_notation
from tests.bot.services.scrabble_support import rig
from tests.e2e.test_scrabble import game_state, reply_text
from tests.e2e.test_scrabble_members import open_game
from tests.engines.scrabble.puzzle_support import gcg_club_game, gcg_turns


def puzzles_stored(club: Any) -> list[dict[str, Any]]:
    with sqlite3.connect(club.db_path) as db:
        rows = db.execute("select id, data from puzzles order by id").fetchall()
    return [{"id": pid, **json.loads(data)} for pid, data in rows]


def puzzle_rating(club: Any, user: Any) -> float | None:
    with sqlite3.connect(club.db_path) as db:
        row = db.execute(
            "select rating from ratings where game_kind = 'puzzle' and player_id = ?", (user.id,)
        ).fetchone()
    return None if row is None else float(row[0])


def seat_user(club: Any, game_id: int, seat: int) -> Any:
    with sqlite3.connect(club.db_path) as db:
        (user_id,) = db.execute(
            "select user_id from game_seats where game_id = ? and seat = ?", (game_id, seat)
        ).fetchone()
    return next(u for u in club.members.values() if u.id == user_id)


async def finished_game(club: Any) -> int:
    """Alice and bob's game: the record's turns but the last set in the saved state, the
    last played with /scrabble play; its challenge window closes and the game is over."""
    dc = club.dc
    alice, bob = club.members["alice"], club.members["bob"]
    game_id, thread, _first = await open_game(club, alice, bob, clock="1d")
    turns = gcg_turns()
    ctx = club.bot.get_cog("ScrabbleCog").service.ctx
    await rig(ctx, game_id, gcg_club_game(upto=len(turns) - 1))
    seat = game_state(club.db_path, game_id)["engine"]["current_seat"]
    last = turns[-1]
    ix = await dc.slash(
        seat_user(club, game_id, seat),
        thread,
        "scrabble play",
        word=typed_notation(last.word or ""),
        position=last.position,
    )
    played = await reply_text(ix)
    assert played.startswith(("You played", "Tinira mo", "⟦")), played
    club.clock.advance(hours=25)  # the finishing play's challenge window closes
    await club.tick()
    await dc.wait_until(
        lambda: game_state(club.db_path, game_id)["engine"]["status"] == "finished",
        what="the game's end",
    )
    # The puzzles' job, due at the finish. On a loaded machine a run may fail (SQLite
    # busy) and is retried after its backoff (seconds): the clock moves on for it.
    for _attempt in range(5):
        await club.tick()
        try:
            await dc.wait_until(lambda: puzzles_stored(club), what="the game's puzzles")
            break
        except AssertionError:  # the loopback's timeout
            club.clock.advance(minutes=1)
    assert puzzles_stored(club)
    return game_id


async def open_puzzle(club: Any, user: Any) -> tuple[Any, dict[str, Any]]:
    """/puzzle as ``user``: the private answer and the puzzle it shows."""
    ix = await club.dc.slash(user, club.channel, "puzzle")
    await ix.wait_done()
    shown = ix.followups[-1] if ix.followups else ix.answer
    assert shown.ephemeral and "Rack: `" in shown.content and "Puzzle rating " in shown.content
    [answer_id] = [c for c in shown.custom_ids if c.startswith("puzzle:answer:")]
    assert f"puzzle:solution:{answer_id.split(':')[2]}" in shown.custom_ids
    puzzle = next(p for p in puzzles_stored(club) if p["id"] == int(answer_id.split(":")[2]))
    return shown, puzzle


async def answer(
    club: Any, user: Any, shown: Any, puzzle: dict[str, Any], word: str, at: str
) -> str:
    opened = await club.dc.click(user, shown, f"puzzle:answer:{puzzle['id']}")
    assert opened.modal is not None
    sent = await club.dc.submit_modal(user, opened, {"puzzle:word": word, "puzzle:position": at})
    text = await reply_text(sent)
    assert sent.answer.ephemeral
    return text


async def test_a_finished_game_yields_puzzles_members_solve_and_fail_and_streaks(club):
    dc = club.dc
    await club.start()
    await finished_game(club)
    stored = puzzles_stored(club)
    assert len(stored) == 2 and all(len(p["top"]) == 5 for p in stored)
    carol, dave = club.members["carol"], club.members["dave"]

    # Carol finds the best play (typed as a member types it: the whole word).
    shown, puzzle = await open_puzzle(club, carol)
    carols_first = puzzle["id"]
    assert shown.files[0][0] == f"puzzle-{puzzle['id']}.png"  # its alt text: the autouse check
    position, _word, spelled, best = puzzle["top"][0]
    text = await answer(club, carol, shown, puzzle, typed_notation(spelled).lower(), position)
    assert text.startswith("✅ Solved!") and f"scores {best}" in text
    assert "**Top plays:**" in text and "In Scrabble #" in text
    assert puzzle_rating(club, carol) > 1500

    # Dave: a play his rack can't make, one short of the best, a square that isn't one.
    shown, puzzle = await open_puzzle(club, dave)
    text = await answer(club, dave, shown, puzzle, "zzzz", "8H")
    assert text.startswith("That play can't be made") and "2 tries left" in text
    position, _word, spelled, score = puzzle["top"][-1]
    assert score < puzzle["best_score"]
    await club.restart()  # the reply's buttons and the form still work after a restart
    text = await answer(club, dave, shown, puzzle, typed_notation(spelled), position)
    assert f"scores {score}: there is a better play. 1 try left" in text
    text = await answer(club, dave, shown, puzzle, "quiz", "Z99")
    assert "❌ No tries left." in text and "**Top plays:**" in text
    assert puzzle["played"].split()[-1] in text  # what was played in the game
    assert puzzle_rating(club, dave) < 1500
    # Another go at it only shows the solution again.
    text = await answer(club, dave, shown, puzzle, typed_notation(spelled), position)
    assert text.startswith("You have seen this one's solution.")

    # The next day carol solves the other one: two days in a row.
    club.clock.advance(days=1)
    shown, other = await open_puzzle(club, carol)
    assert other["id"] != carols_first
    if other["id"] == puzzle["id"]:  # the one dave missed: harder now
        assert "0 of 1 members solved it." in shown.content
    position, _word, spelled, _best = other["top"][0]
    text = await answer(club, carol, shown, other, typed_notation(spelled), position)
    assert "🔥 2 days in a row with a puzzle solved." in text
    ix = await dc.slash(carol, club.channel, "stats")
    await ix.wait_done()
    stats = ix.followups[-1] if ix.followups else ix.answer
    fields = {f["name"]: f["value"] for f in stats.embeds[0]["fields"]}
    assert "Puzzles solved: 2 days in a row" in fields["Streaks"]
    assert "2 solved / 0 missed" in fields["Puzzles"]

    # The puzzle table ranks carol above dave.
    ix = await dc.slash(carol, club.channel, "leaderboard", game="puzzle")
    await ix.wait_done()
    table = (ix.followups[-1] if ix.followups else ix.answer).content
    assert table.index("carol") < table.index("dave")

    # Nothing left for carol: she is told privately.
    ix = await dc.slash(carol, club.channel, "puzzle")
    assert "You have done every puzzle" in await reply_text(ix)
