"""A game id the database does not hold for this server (an old button's): the
database layer raises a typed error with its fields, and the error handler
writes it in the club's language (it was an English f-string in bot/db)."""

from __future__ import annotations

import pytest

from bot.errors import GameNotFoundError, NotFoundError
from bot.messages.errors import refusal
from bot.messages.i18n import use_language
from bot.services import ServiceContext
from bot.ui.errors import user_message_for


async def test_the_database_refuses_an_unknown_game_with_its_fields(ctx: ServiceContext) -> None:
    async with ctx.reader() as uow:
        with pytest.raises(GameNotFoundError) as refused:
            await uow.games.get(4242, guild_id=1, kind="chess")
    assert (refused.value.kind, refused.value.game_id) == ("chess", 4242)
    assert isinstance(refused.value, NotFoundError)
    assert str(refused.value) == "There is no Chess #4242 in this server."  # English as before


def test_the_error_handler_writes_it_in_the_clubs_language() -> None:
    with use_language("fil"):
        assert (
            user_message_for(GameNotFoundError("chess", 7)) == "Walang Chess #7 sa server na ito."
        )
        assert user_message_for(GameNotFoundError(None, 7)) == "Walang laro #7 sa server na ito."
        assert refusal(GameNotFoundError("scrabble", 3)) == "Walang Scrabble #3 sa server na ito."
        assert GameNotFoundError("scrabble", 3).code == "game_not_found"
    with use_language("en"):
        assert (
            user_message_for(GameNotFoundError("chess", 7))
            == "There is no Chess #7 in this server."
        )
