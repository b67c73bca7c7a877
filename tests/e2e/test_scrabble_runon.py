"""The word typed is the word played, through the loopback Discord (issue #26).

A play whose typed word tiles already on the board would lengthen is refused,
privately, with the whole word and the tiles it runs into, and nothing changes;
typed whole, it plays. The race a club evening found: a play typed against the
board before the opponent's move landed, applied to the new board, where it runs
on into the opponent's fresh tiles, is refused, never played as the longer word.
And in a Filipino club the refusal reads Filipino.

The deal is made from a seed the test chooses (alice draws first) and the racks
are set in the saved state, as ``test_scrabble_members`` does.
"""

from __future__ import annotations

import asyncio
from typing import Any

from tests.e2e.languages import english_leaks, speak
from tests.e2e.test_scrabble import game_state, reply_text
from tests.e2e.test_scrabble_members import (
    _first_seat_zero_seed,
    board_at,
    deal_from,
    set_racks,
)

BAWL_REFUSED = (
    "BAWL runs on into S and I (H8\u2013H9): the word would be BAWLSI. To play it, type BAWLSI."
)
SIT_REFUSED = (
    "SIT runs on into B, A, W and L (H4\u2013H7) before it: the word would be BAWLSIT. "
    "To play it, type BAWLSIT at H4."
)


async def si_down_from_h8(club: Any) -> tuple[int, Any]:
    """A correspondence game in which alice has played SI down from H8 and bob,
    to move, holds B, A, W and L (and alice T, for later)."""
    dc = club.dc
    deal_from(club, _first_seat_zero_seed())
    alice, bob = club.members["alice"], club.members["bob"]
    ix = await dc.slash(alice, club.channel, "scrabble new", opponent=bob, clock="1d")
    join = next(c for c in ix.answer.custom_ids if c.startswith("scrabble:join"))
    game_id = int(join.split(":")[2])
    await dc.click(bob, ix.answer, join)
    threads = await dc.wait_until(lambda: dc.threads_in(club.channel), what="the game's thread")
    thread = threads[-1]
    await board_at_any_language(club, thread, 0)  # the first board, in either language
    await set_racks(club, game_id, {0: "SITEEOU", 1: "BAWLRNA"})
    ix = await dc.slash(alice, thread, "scrabble play", word="si", position="H8")
    assert (await reply_text(ix)).startswith(("You played SI at H8", "Tinira mo ang SI sa H8"))
    await board_at_any_language(club, thread, 1)
    return game_id, thread


async def board_at_any_language(club: Any, thread: Any, moves: int) -> Any:
    return await club.dc.wait_for_message(
        channel=thread,
        predicate=lambda m: (
            f"· move {moves}\n" in (m.content or "") or f"· tira {moves}\n" in (m.content or "")
        ),
        timeout=10,
    )


def words_played(club: Any, game_id: int) -> list[str]:
    """Every word every play formed, as the saved game logs them."""
    moves = game_state(club.db_path, game_id)["engine"]["moves"]
    return [word for move in moves if move["type"] == "play" for word in move["words"]]


def thread_texts(club: Any, thread: Any) -> str:
    return "\n".join(m.content or "" for m in club.dc.messages_in(thread, include_ephemeral=True))


async def test_a_word_that_runs_on_into_tiles_is_refused_with_the_whole_word_and_typed_whole_plays(
    club,
):
    dc = club.dc
    await club.start()
    game_id, thread = await si_down_from_h8(club)
    alice, bob = club.members["alice"], club.members["bob"]

    # BAWL down from H4 would run on into the S and I already on H8 and H9.
    refused = await dc.slash(bob, thread, "scrabble play", word="bawl", position="H4")
    assert refused.answer.ephemeral
    assert await reply_text(refused) == BAWL_REFUSED
    assert len(game_state(club.db_path, game_id)["engine"]["moves"]) == 1
    assert "BAWLSI" not in " ".join(words_played(club, game_id))

    # Typed whole, as the refusal says, it plays: the S and I are played through.
    ix = await dc.slash(bob, thread, "scrabble play", word="bawlsi", position="H4")
    assert (await reply_text(ix)).startswith("You played BAWLSI at H4"), ix
    assert "**BAWLSI**" in (await board_at(club, thread, 2)).content

    # Across, and before the word: EE from I4 would be BEE with the B on H4.
    refused = await dc.slash(alice, thread, "scrabble play", word="ee", position="4I")
    assert await reply_text(refused) == (
        "EE runs on into B (H4) before it: the word would be BEE. To play it, type BEE at 4H."
    )
    ix = await dc.slash(alice, thread, "scrabble play", word="bee", position="4H")
    assert (await reply_text(ix)).startswith("You played BEE at 4H"), ix
    await board_at(club, thread, 3)
    assert words_played(club, game_id) == ["SI", "BAWLSI", "BEE"]


async def test_a_play_typed_before_the_opponents_move_landed_does_not_run_on_into_its_tiles(
    club,
):
    """Alice types SIT (through her S and I) while it is bob's turn; bob's BAWLSI lands
    first. On the new board SIT would be BAWLSIT: it is refused with that word."""
    dc = club.dc
    await club.start()
    game_id, thread = await si_down_from_h8(club)
    alice, bob = club.members["alice"], club.members["bob"]

    ix = await dc.slash(bob, thread, "scrabble play", word="bawlsi", position="H4")
    assert (await reply_text(ix)).startswith("You played BAWLSI at H4"), ix
    late = await dc.slash(alice, thread, "scrabble play", word="sit", position="H8")

    assert late.answer.ephemeral
    assert await reply_text(late) == SIT_REFUSED
    assert words_played(club, game_id) == ["SI", "BAWLSI"]
    await board_at(club, thread, 2)
    assert "BAWLSIT" not in thread_texts(club, thread).replace(SIT_REFUSED, "")


async def test_plays_sent_at_once_as_the_opponents_move_lands_never_make_the_longer_word(club):
    """Both slash commands at once: bob's BAWLSI (his turn) and alice's SIT, typed
    against the board before it. Whichever the bot handles first, alice's play is
    refused (not her turn yet, or running on into BAWL) or would apply as typed;
    it is never played as BAWLSIT."""
    dc = club.dc
    await club.start()
    game_id, thread = await si_down_from_h8(club)
    alice, bob = club.members["alice"], club.members["bob"]

    bobs, alices = await asyncio.gather(
        dc.slash(bob, thread, "scrabble play", word="bawlsi", position="H4", wait=False),
        dc.slash(alice, thread, "scrabble play", word="sit", position="H8", wait=False),
    )
    bob_text, alice_text = await asyncio.gather(reply_text(bobs), reply_text(alices))

    assert bob_text.startswith("You played BAWLSI at H4"), bob_text
    not_yet = "It's not your turn: it's bob's turn. Nothing was changed."
    applied_as_typed = alice_text.startswith("You played SIT at H8")
    assert alice_text in (SIT_REFUSED, not_yet) or applied_as_typed, alice_text
    assert not applied_as_typed  # on either board SIT alone is not the whole word after bob's
    await board_at(club, thread, 2)
    await asyncio.sleep(0.3)  # anything else the bot would post has been posted
    assert words_played(club, game_id) == ["SI", "BAWLSI"]
    assert "BAWLSIT" not in thread_texts(club, thread).replace(SIT_REFUSED, "")
    assert "BAWLSIT" not in " ".join(words_played(club, game_id))


async def test_in_a_filipino_club_the_refusal_names_the_whole_word_in_filipino(club):
    dc = club.dc
    await club.start()
    await speak(club, "fil")
    game_id, thread = await si_down_from_h8(club)
    bob = club.members["bob"]

    refused = await dc.slash(bob, thread, "scrabble play", word="bawl", position="H4")
    assert refused.answer.ephemeral
    assert await reply_text(refused) == (
        "Dumidikit ang BAWL sa S at I (H8\u2013H9): BAWLSI ang magiging salita. "
        "Para itira iyan, isulat ang BAWLSI."
    )
    assert len(game_state(club.db_path, game_id)["engine"]["moves"]) == 1
    ix = await dc.slash(bob, thread, "scrabble play", word="bawlsi", position="H4")
    assert (await reply_text(ix)).startswith("Tinira mo ang BAWLSI sa H4"), ix
    assert english_leaks(dc, "fil") == []
