"""The board image's header names every seat whole, four pairs included."""

from __future__ import annotations

from bot.messages.scrabble.thread import BoardFacts, picture_header
from bot.render._common import font, text_width
from bot.render.scrabble import _header_font_px, scrabble_geometry

SIZE = 900


def _facts(names: list[str]) -> BoardFacts:
    return BoardFacts(
        number=12,
        moves=9,
        names=names,
        scores=[100 + i for i in range(len(names))],
        bag=41,
        status="active",
        to_play=names[0],
        last=None,
    )


def _fits(line: str) -> bool:
    face = font(_header_font_px(SIZE))
    return text_width(line, face) <= SIZE - 2 * scrabble_geometry(SIZE).origin


def test_four_pairs_get_their_scores_two_seats_to_a_line_and_every_line_fits() -> None:
    pairs = ["alice & bob", "carol & dave", "erin & frank", "grace & heidi"]
    header = picture_header(_facts(pairs))
    assert header[0] == "#12 · bag 41"
    assert header[1] == "alice & bob 100 · carol & dave 101"
    assert header[2] == "erin & frank 102 · grace & heidi 103"
    assert all(_fits(line) for line in header)


def test_two_players_keep_one_line_of_scores() -> None:
    header = picture_header(_facts(["alice", "bob"]))
    assert header[0] == "#12 · alice 100 · bob 101 · bag 41"
    assert _fits(header[0])
