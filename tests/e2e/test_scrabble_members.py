"""Scrabble as a club member meets it, through the loopback Discord (issue #17).

Words typed as people type them (lower case is plain letters; a blank is marked
``?x``), how to move said where the move is needed, who is told it is their turn
(a DM in a correspondence game, from its first turn; a mention in a live one),
the last turn in words on the board, a deadline reached before any tile was
placed, and names that look like mentions.

The deal is made from a seed the test chooses (the service's random source is
replaced), so the first player is known; racks are set by swapping tiles with
the bag in the game's saved state, which the bot reads afresh for every command.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

from engines.scrabble import ScrabbleGame, ScrabbleOptions
from tests.bot.services.scrabble_support import set_racks as swap_racks
from tests.e2e.games import number_of
from tests.e2e.test_scrabble import game_state, reply_text

EXAMPLE = "`/scrabble play word:QUIZ position:8H`"


class _Seed:
    """Stands in for the service's random source: every game is dealt from ``seed``."""

    def __init__(self, seed: int) -> None:
        self.seed = seed

    def randrange(self, *_: Any) -> int:
        return self.seed


def _first_seat_zero_seed() -> int:
    """A deal in which seat 0 (the inviter) draws first play."""
    return next(s for s in range(200) if ScrabbleGame.new(ScrabbleOptions(), s).current_seat == 0)


def deal_from(club: Any, seed: int) -> None:
    cog = club.bot.get_cog("ScrabbleCog")
    cog.service.core.rng = _Seed(seed)


async def set_racks(club: Any, game_id: int, racks: dict[int, str]) -> None:
    """Give each seat these tiles, swapped with the bag (the 100 tiles stay the 100),
    through the bot's own unit of work (as the service tests rig a game)."""
    await swap_racks(club.bot.get_cog("ScrabbleCog").service.ctx, game_id, racks)


def outbox_headers(db_path: Path) -> list[list[str]]:
    """The header lines of every board image the bot posted (as the renderer gets them)."""
    with sqlite3.connect(db_path) as db:
        rows = db.execute("select payload from outbox order by id").fetchall()
    headers = []
    for (payload,) in rows:
        for spec in json.loads(payload).get("files", []):
            if spec["render"] == "scrabble_board":
                headers.append(spec["args"]["header"])
    return headers


async def open_game(club: Any, inviter: Any, opponent: Any, **options: Any) -> tuple[int, Any, Any]:
    """The game's id (as its buttons know it), its thread and its first board post."""
    dc = club.dc
    ix = await dc.slash(inviter, club.channel, "scrabble new", opponent=opponent, **options)
    invite = ix.answer
    game_id = int(next(c for c in invite.custom_ids if c.startswith("scrabble:join")).split(":")[2])
    await dc.click(opponent, invite, f"scrabble:join:{game_id}")
    threads = await dc.wait_until(lambda: dc.threads_in(club.channel), what="the game's thread")
    first = await board_at(club, threads[-1], 0)
    return game_id, threads[-1], first


async def board_at(club: Any, thread: Any, moves: int) -> Any:
    return await club.dc.wait_for_message(
        channel=thread, predicate=lambda m: f"· move {moves}\n" in (m.content or ""), timeout=10
    )


async def test_words_typed_in_lower_case_play_as_letters_and_a_blank_is_marked_with_a_question_mark(
    club,
):
    dc = club.dc
    await club.start()
    deal_from(club, _first_seat_zero_seed())
    alice, bob = club.members["alice"], club.members["bob"]
    game_id, thread, first = await open_game(club, alice, bob, clock="1d")
    assert game_state(club.db_path, game_id)["engine"]["current_seat"] == 0

    # The first board says how to move; the inviter, first to play, is told by DM.
    assert EXAMPLE in first.content
    told = await dc.wait_until(
        lambda: [m for m in dc.dms_to(alice) if "It's your turn" in (m.content or "")],
        what="the inviter's turn DM",
    )
    number = number_of(club.db_path, game_id)
    assert f"Scrabble #{number}" in told[0].content and EXAMPLE in told[0].content

    # All lower case, as a phone types it: plain letters.
    await set_racks(club, game_id, {0: "ENJOYRT", 1: "T?ABCDE"})
    ix = await dc.slash(alice, thread, "scrabble play", word="enjoy", position="8H")
    assert (await reply_text(ix)).startswith("You played ENJOY at 8H"), ix
    played = await board_at(club, thread, 1)
    assert "**ENJOY**" in played.content and "blank" not in played.content
    later = await dc.wait_until(
        lambda: [m for m in dc.dms_to(bob) if "It's your turn" in (m.content or "")],
        what="bob's turn DM",
    )
    assert EXAMPLE in later[-1].content

    # The rack lacks a letter: the answer says how to play the blank, and nothing changes.
    refused = await dc.slash(bob, thread, "scrabble play", word="toy", position="L6")
    text = await reply_text(refused)
    assert refused.answer.ephemeral and "You have no O" in text and "?O" in text, text
    assert len(game_state(club.db_path, game_id)["engine"]["moves"]) == 1

    # The blank marked with ?: T from the rack, the blank as O, through the Y already there.
    ix = await dc.slash(bob, thread, "scrabble play", word="t?oy", position="L6")
    assert (await reply_text(ix)).startswith("You played TOY at L6"), ix
    through = await board_at(club, thread, 2)
    assert "**TOY**" in through.content and "blank as O" in through.content

    # The board's header and /scrabble board name the whole word, then say a pass is a pass.
    assert outbox_headers(club.db_path)[-1][-1].startswith("last: bob played TOY at L6 for ")
    ix = await dc.slash(alice, thread, "scrabble pass")
    assert await reply_text(ix) == "You passed."
    await board_at(club, thread, 3)
    assert outbox_headers(club.db_path)[-1][-1] == "last: alice passed"
    shown = await dc.slash(bob, thread, "scrabble board")
    summary = await reply_text(shown)
    assert "Last turn: alice passed." in summary and "bob, TOY at L6 for " in summary, summary
    assert "To." not in summary and "To." not in " ".join(outbox_headers(club.db_path)[-2])
    # A correspondence game's boards ping nobody (only the invitation pinged bob).
    assert all("invites you" in m.content for m in dc.pinging_messages())


async def test_a_live_game_mentions_the_player_to_move_and_nobody_else(club):
    dc = club.dc
    await club.start()
    deal_from(club, _first_seat_zero_seed())
    alice, bob = club.members["alice"], club.members["bob"]
    _, thread, first = await open_game(club, alice, bob, clock="3m", deadline="80m")

    assert first.pings == frozenset({f"user:{alice.id}"}) and EXAMPLE in first.content
    ix = await dc.slash(alice, thread, "scrabble pass")
    assert await reply_text(ix) == "You passed."
    second = await board_at(club, thread, 1)
    assert second.pings == frozenset({f"user:{bob.id}"})
    assert f"<@{bob.id}>" in second.content
    # Live play is told in the thread, where the game is: no DMs.
    assert not [m for m in dc.dms_to(alice) + dc.dms_to(bob) if "your turn" in (m.content or "")]
    assert {p for m in dc.pinging_messages() for p in m.pings} <= {
        f"user:{alice.id}",
        f"user:{bob.id}",
    }


async def test_a_game_that_reaches_its_deadline_before_any_tile_is_placed_is_no_contest(club):
    dc = club.dc
    await club.start()
    deal_from(club, _first_seat_zero_seed())
    alice, bob = club.members["alice"], club.members["bob"]
    game_id, thread, _ = await open_game(club, alice, bob, clock="off", deadline="1d")
    # Alice keeps the cheap tiles, Bob the dear ones: counted, the rack would decide.
    await set_racks(club, game_id, {0: "AEIOUNR", 1: "QZXJKVW"})
    ix = await dc.slash(alice, thread, "scrabble pass")
    assert await reply_text(ix) == "You passed."
    await board_at(club, thread, 1)

    club.clock.advance(days=1, seconds=1)
    await club.tick()
    final = await dc.wait_for_message(
        channel=thread, predicate=lambda m: "Game over" in (m.content or ""), timeout=10
    )
    assert "No contest" in final.content and "not rated" in final.content
    assert "no tiles are deducted" in final.content  # what the racks hold decides nothing
    assert "Winner" not in final.content
    with sqlite3.connect(club.db_path) as db:
        results = db.execute(
            "select count(*) from results where game_id = ?", (game_id,)
        ).fetchone()[0]
        status = db.execute("select status from games where id = ?", (game_id,)).fetchone()[0]
        rated = db.execute(
            "select count(*) from ratings where game_kind = 'scrabble' and games > 0"
        ).fetchone()[0]
    assert results == 0 and rated == 0 and status == "finished"


async def test_names_that_look_like_mentions_stay_text_in_every_scrabble_post(club):
    dc = club.dc
    role = dc.add_role(club.guild, "Everyone Who Plays", mentionable=True)
    sneaky = dc.add_user("sneaky")
    nick = f"@everyone <@&{role.id}> @here **Al**"
    dc.add_member(club.guild, sneaky, nick=nick)
    await club.start()
    deal_from(club, _first_seat_zero_seed())
    bob = club.members["bob"]
    dc.close_dms(bob)  # bob's turn notice falls back to the thread, with his mention only
    _, thread, _ = await open_game(club, sneaky, bob, clock="1d", deadline="7d")
    await dc.wait_until(
        lambda: [m for m in dc.dms_to(sneaky) if "your turn" in (m.content or "")],
        what="the turn DM",
    )
    ix = await dc.slash(sneaky, thread, "scrabble pass")
    assert await reply_text(ix) == "You passed."
    await board_at(club, thread, 1)
    (notice,) = await dc.wait_until(
        lambda: [m for m in dc.messages_in(thread) if "your turn" in (m.content or "")],
        what="bob's turn notice in the thread",
    )
    assert notice.content.startswith(f"<@{bob.id}> It's your turn in **Scrabble #")
    assert "<#" not in notice.content  # QA F36: not pointed at the thread it is in
    for command in ("scrabble board", "scrabble games"):
        await reply_text(await dc.slash(bob, thread, command))
    ix = await dc.slash(bob, thread, "scrabble resign")
    assert "resigned" in await reply_text(ix)
    final = await dc.wait_for_message(
        channel=thread, predicate=lambda m: "Game over" in (m.content or ""), timeout=10
    )
    assert "Winner" in final.content and "Al" in final.content

    texts = [m.content or "" for m in dc.bot_messages(include_ephemeral=True)]
    where = {"invitation": "Seat 1:", "board": "· move", "result": "Game over"}
    for what, marker in where.items():
        assert any(marker in t and "Al" in t for t in texts), what
    for text in texts:
        assert "@everyone" not in text and "@here" not in text, text
        assert f"<@&{role.id}>" not in text and "**Al**" not in text, text
    pinged = {p for m in dc.pinging_messages() for p in m.pings}
    assert pinged <= {f"user:{bob.id}"}, pinged  # the invitation and his fallback notice
