"""The word typed is the word played, through the Scrabble service on a real database:
a play that tiles already on the board would lengthen is refused with the whole word,
changes nothing, and reads in the club's language; the whole word then plays."""

from __future__ import annotations

import pytest

from bot.errors import InvalidInputError
from bot.messages.errors import refusal
from bot.messages.i18n import use_language
from engines.scrabble import RunOnError, ScrabbleOptions
from tests.bot.services.scrabble_support import engine_of, posts, rig, seat_member, started
from tests.engines.scrabble.support import rigged_game

ENGLISH = (
    "BAWL runs on into S and I (H8\u2013H9): the word would be BAWLSI. To play it, type BAWLSI."
)
FILIPINO = (
    "Dumidikit ang BAWL sa S at I (H8\u2013H9): BAWLSI ang magiging salita. "
    "Para itira iyan, isulat ang BAWLSI."
)


async def _si_on_the_board(service, ctx) -> tuple[int, int]:
    """A game whose board has SI down from H8, the seat on turn holding B, A, W and L."""
    game_id = await started(service)
    rigged = rigged_game(
        ScrabbleOptions(turn_order="fixed"),
        racks=["BAWLXYZ", "EEIOULN"],
        words=(("H8", "SI"),),
    )
    await rig(ctx, game_id, rigged)
    return game_id, await seat_member(ctx, game_id, 0)


async def test_a_play_that_runs_on_is_refused_with_the_whole_word_and_changes_nothing(service, ctx):
    game_id, user = await _si_on_the_board(service, ctx)
    before = (await engine_of(ctx, game_id)).to_json()
    posted = len(await posts(ctx))

    with pytest.raises(InvalidInputError) as refused:
        await service.moves.play(game_id, user, "bawl", "H4")

    assert refused.value.message == ENGLISH
    engine_error = refused.value.__context__
    assert isinstance(engine_error, RunOnError)
    assert (engine_error.typed, engine_error.whole) == ("BAWL", "BAWLSI")
    assert (engine_error.letters, engine_error.squares) == (("S", "I"), ("H8", "H9"))
    assert (await engine_of(ctx, game_id)).to_json() == before
    assert len(await posts(ctx)) == posted

    outcome = await service.moves.play(game_id, user, "bawlsi", "H4")
    assert outcome.message.startswith("You played BAWLSI at H4")
    assert (await engine_of(ctx, game_id)).moves[-1]["word"] == "BAWL.."


async def test_the_refusal_reads_in_filipino_from_its_template_and_fields(service, ctx):
    game_id, user = await _si_on_the_board(service, ctx)
    with pytest.raises(InvalidInputError) as refused:
        await service.moves.play(game_id, user, "BAWL", "H4")
    error = refused.value
    assert error.code == "run_on"
    with use_language("fil"):
        assert refusal(error) == FILIPINO
    with use_language("en"):
        assert refusal(error) == ENGLISH


async def test_the_suggested_position_is_given_when_the_word_starts_earlier(service, ctx):
    game_id, user = await _si_on_the_board(service, ctx)
    with pytest.raises(InvalidInputError) as refused:
        await service.moves.play(game_id, user, "BAWL", "H10")  # SIBAWL, from H8
    assert refused.value.message == (
        "BAWL runs on into S and I (H8\u2013H9) before it: the word would be SIBAWL. "
        "To play it, type SIBAWL at H8."
    )
    with use_language("fil"):
        assert refusal(refused.value) == (
            "Dumidikit ang BAWL sa S at I (H8\u2013H9) bago nito: SIBAWL ang magiging salita. "
            "Para itira iyan, isulat ang SIBAWL sa H8."
        )
