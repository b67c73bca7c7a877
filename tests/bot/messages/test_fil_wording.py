"""Texts that read naturally in both languages (QA findings F33, F34, F35 and
the names a member sees): built in Filipino and in English, checked whole."""

from __future__ import annotations

from bot.messages import chess as chess_msg
from bot.messages.henyo import rounds as henyo_rounds
from bot.messages.i18n import use_language


def test_a_move_made_in_its_thread_is_acknowledged_without_a_capital_mid_sentence() -> None:
    """F33: "Ayos na — Tumira si erin ng **e4**." put the headline's capital inside a
    sentence; the acknowledgement and the headline are two sentences now."""
    with use_language("fil"):
        text = chess_msg.posted_here(chess_msg.played("erin", "e4"))
    assert text == "Ayos na. Tumira si erin ng **e4**. Naka-post dito ang board para sa lahat."
    with use_language("en"):
        text = chess_msg.posted_here(chess_msg.played("erin", "e4"))
    assert text == "Done. erin played **e4**. The board is posted here for everyone."


def test_a_henyo_result_writes_its_three_times_in_one_unit() -> None:
    """F34: "Oras 14.0 s + penalty 5 segundo (1) = final time **19.0 s**"."""
    for code in ("fil", "en"):
        with use_language(code):
            line = henyo_rounds.guessed(
                "bob", "aso", elapsed_ms=14_000, penalties=1, penalty_ms=5_000, final_ms=19_000
            )[1]
        assert "14.0 s + " in line and " 5.0 s (1) = " in line and "**19.0 s**" in line, line
        assert "segundo" not in line


class _Person:
    def __init__(self, name: str) -> None:
        self.name = name
        self.user_id = 1


class _Card:
    round_id = 1
    channel_id = 5
    title = "Round 1"
    guesser = _Person("alice")
    answerer = _Person("bob")
    word = "aso"
    category = "hayop"
    penalty_ms = 5_000
    strict = False


def test_the_answerers_dm_says_the_penalty_the_filipino_way() -> None:
    with use_language("fil"):
        dm = henyo_rounds.secret_dm(_Card(), for_host=False)  # type: ignore[arg-type]
    assert "may 5 segundong penalty" in dm, dm


def test_the_boggle_grid_image_header_is_in_the_clubs_language() -> None:
    """F35: the grid image's header read "Round 1" in a Filipino club."""
    from bot.messages.boggle import rounds as boggle_rounds

    grid = [["A", "B"], ["C", "D"]]
    with use_language("fil"):
        spec = boggle_rounds.grid_file(grid, 1)
    assert spec.args["title"] == "Ika-1 na round"
    with use_language("en"):
        assert boggle_rounds.grid_file(grid, 1).args["title"] == "Round 1"


def test_the_computers_seat_and_an_unknown_player_are_named_in_the_clubs_language() -> None:
    from bot.messages import scrabble as scrabble_msg

    with use_language("fil"):
        assert scrabble_msg.computer_label("casual") == "Computer (kaswal)"
        assert scrabble_msg.computer_label("strong") == "Computer (matakaw)"
        assert chess_msg.played(chess_msg.someone(), "e4") == "Tumira si Isang player ng **e4**."
    with use_language("en"):
        assert scrabble_msg.computer_label("casual") == "Computer (casual)"
        assert scrabble_msg.computer_label("equity") == "Computer (expert)"
        assert chess_msg.someone() == "A player"


def test_the_finish_line_suggestions_are_labelled_in_the_clubs_language() -> None:
    from bot.messages import scrabble as scrabble_msg
    from engines.scrabble import FINISH_LINE_TARGETS

    with use_language("fil"):
        options = scrabble_msg.finish_line_choices(FINISH_LINE_TARGETS, 2, "150")
    assert options == [
        ("150 puntos", "150"),
        ("baguhan — 70 puntos", "beginner"),
        ("katamtaman — 120 puntos", "intermediate"),
        ("eksperto — 200 puntos", "expert"),
    ]
    with use_language("en"):
        options = scrabble_msg.finish_line_choices(FINISH_LINE_TARGETS, 4, "")
    assert options[0] == ("beginner — 50 points", "beginner")
