"""The web page's move log says in words what each Scrabble turn was, in the club's language."""

from __future__ import annotations

import pytest

from bot.messages.i18n import use_language
from bot.web.data import scrabble_move_text


@pytest.mark.parametrize(
    ("notation", "english"),
    [
        ("- (timed out)", "passed: the turn clock ran out"),
        ("- (lost turn)", "lost the turn (a failed challenge)"),
        ("challenge: withdrawn", "challenged: the play was taken back"),
        ("challenge: stood", "challenged: the play stands"),
        ("-", "passed"),
        ("-3", "exchanged 3 tiles"),
    ],
)
def test_every_kind_of_turn_reads_as_words(notation: str, english: str) -> None:
    assert scrabble_move_text(notation) == english
    with use_language("fil"):
        filipino = scrabble_move_text(notation)
    assert filipino and filipino != english
