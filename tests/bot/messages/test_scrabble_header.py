"""The board image's header names every seat whole, four pairs included."""

from __future__ import annotations

from bot.messages.scrabble.thread import BoardFacts, picture_header
from bot.render._common import font, text_width
from bot.render.scrabble import MAX_HEADER_LINES, _header_font_px, scrabble_geometry

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


def test_four_pairs_of_long_names_get_one_seat_to_a_line_with_every_score_shown() -> None:
    base = "Maria Clara de los Santos Reyes"  # 31 characters, then a digit: 32
    pairs = [f"{base}{2 * i} & {base}{2 * i + 1}" for i in range(4)]
    facts = _facts(pairs)
    facts = BoardFacts(**{**facts.__dict__, "last": (pairs[3], "8H", 72, ["OSEEAVS"])})
    header = picture_header(facts)
    assert len(header) <= MAX_HEADER_LINES
    assert header[0] == "#12 · bag 41"
    seats = header[1:5]
    assert [line.rsplit(" ", 1)[1] for line in seats] == ["100", "101", "102", "103"]
    assert all(line.startswith(base + str(2 * i)) for i, line in enumerate(seats))
    assert header[5].startswith("▶ " + base + "0") and header[5].endswith(" to play")
    assert header[6].startswith("last: Maria") and header[6].endswith("played OSEEAVS at 8H for 72")
    assert all(_fits(line) for line in header), [line for line in header if not _fits(line)]
