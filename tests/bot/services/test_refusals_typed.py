"""A refusal travels as data: a stable code, and the engine's template and fields, so
the club's language is written from the template where the refusal is shown (never
by patching the English). Scrabble's placement and the one duration grammar, through
the services on a real database."""

from __future__ import annotations

import pytest

from bot.errors import InvalidInputError
from bot.messages.errors import refusal
from bot.messages.i18n import use_language
from bot.ui.errors import user_message_for
from engines.scrabble import ScrabbleOptions
from tests.bot.services.scrabble_support import (
    BOB,
    request,
    rig,
    seat_member,
    started,
)
from tests.engines.scrabble.support import rigged_game


async def test_a_bad_turn_clock_is_refused_with_its_code_and_read_in_filipino(service) -> None:
    with pytest.raises(InvalidInputError) as refused:
        await service.invitations.create(request(BOB, clock="5s"))
    error = refused.value
    assert error.code == "duration"
    assert error.text is not None
    english = refusal(error)
    assert english == str(error) and "must be" in english
    with use_language("fil"):
        filipino = user_message_for(error)
    assert filipino == "Dapat mula 10 segundo hanggang 2 linggo ang turn clock.", filipino


async def test_an_illegal_scrabble_placement_is_refused_with_its_code_and_read_in_filipino(
    service, ctx
) -> None:
    game_id = await started(service)
    rigged = rigged_game(
        ScrabbleOptions(turn_order="fixed"),
        racks=["BAWLXYZ", "EEIOULN"],
        words=(("H8", "SI"),),
    )
    await rig(ctx, game_id, rigged)
    user = await seat_member(ctx, game_id, 0)
    with pytest.raises(InvalidInputError) as refused:
        await service.moves.play(game_id, user, "BAWL", "A1")  # far from every tile
    error = refused.value
    assert error.code == "placement"
    assert error.text is not None and error.sentence
    english = refusal(error)
    assert english[0].isupper() and english.endswith(".")
    with use_language("fil"):
        filipino = refusal(error)
        assert user_message_for(error) == filipino
    assert filipino == (
        "Dapat dumikit sa board ang mga tile: dumaan o tumabi sa tile na nandoon na."
    )
    assert english == "Tiles must touch the board: play through or next to a tile already there."
