"""The web page's move log named a moderator's early end of a club session's
board "the game's deadline was reached"; it says the moderator ended the session."""

from __future__ import annotations

from bot.messages.i18n import use_language
from bot.services.scrabble.core import notation
from bot.web.data import scrabble_move_text
from engines.scrabble import ScrabbleGame, ScrabbleOptions


def _last_words(early: bool) -> str:
    game = ScrabbleGame.new(ScrabbleOptions(), seed=0)
    game.end_by_deadline(early=early)
    return scrabble_move_text(notation(game.moves[-1]))


def test_a_board_the_moderator_ended_reads_so_on_the_web_page() -> None:
    assert _last_words(early=True) == "the moderator ended the session"
    assert _last_words(early=False) == "the game's deadline was reached"
    with use_language("fil"):
        assert _last_words(early=True) != "the moderator ended the session"
        assert "moderator" in _last_words(early=True)
