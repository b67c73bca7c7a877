"""The Scrabble computer's service helpers: moves, hints, analysis, off the event loop."""

from __future__ import annotations

import json

import pytest

from bot.messages.scrabble import format_analysis
from bot.services.scrabble.ai import (
    AiOptions,
    ComputerMoveError,
    analyse_game,
    apply_move_description,
    computer_move,
    has_valid_play,
    hint,
)
from engines.scrabble import ScrabbleGame, ScrabbleOptions
from tests.engines.scrabble.support import rigged_game

WORDS = frozenset(
    [
        "AA",
        "AB",
        "AD",
        "AE",
        "AG",
        "AH",
        "AI",
        "AL",
        "AM",
        "AN",
        "AR",
        "AS",
        "AT",
        "AW",
        "AX",
        "AY",
        "BA",
        "BE",
        "BI",
        "BO",
        "BY",
        "DA",
        "DE",
        "DO",
        "ED",
        "EF",
        "EH",
        "EL",
        "EM",
        "EN",
        "ER",
        "ES",
        "ET",
        "EX",
        "FA",
        "FE",
        "GO",
        "HA",
        "HE",
        "HI",
        "HM",
        "HO",
        "ID",
        "IF",
        "IN",
        "IS",
        "IT",
        "JO",
        "KA",
        "LA",
        "LI",
        "LO",
        "MA",
        "ME",
        "MI",
        "MO",
        "MU",
        "MY",
        "NA",
        "NE",
        "NO",
        "NU",
        "OD",
        "OE",
        "OF",
        "OH",
        "OI",
        "OM",
        "ON",
        "OP",
        "OR",
        "OS",
        "OW",
        "OX",
        "OY",
        "PA",
        "PE",
        "PI",
        "QI",
        "RE",
        "SH",
        "SI",
        "SO",
        "TA",
        "TI",
        "TO",
        "UH",
        "UM",
        "UN",
        "UP",
        "US",
        "UT",
        "WE",
        "WO",
        "XI",
        "XU",
        "YA",
        "YE",
        "YO",
        "ZA",
        "CAT",
        "CATS",
        "ACT",
        "ACTS",
        "BAT",
        "BATS",
        "TAB",
        "TABS",
        "RAT",
        "RATS",
        "TAR",
        "TARS",
        "ART",
        "ARTS",
        "STAR",
        "EAT",
        "EATS",
        "TEA",
        "TEAS",
        "SEA",
        "SEAT",
        "EAST",
        "ATE",
        "RATE",
        "RATES",
        "TEAR",
        "TEARS",
        "STARE",
        "ONE",
        "ONES",
        "NOTE",
        "NOTES",
        "TONE",
        "TONES",
        "STONE",
        "TEN",
        "TENS",
        "NET",
        "NETS",
        "NEST",
        "SENT",
        "DOG",
        "DOGS",
        "GOD",
        "GODS",
        "LOG",
        "LOGS",
        "FOG",
        "HOG",
        "HOGS",
        "JOG",
        "JOGS",
        "MOB",
        "MOBS",
        "ROB",
        "ROBS",
        "SOB",
        "ORB",
        "ORBS",
        "BOAT",
        "BOATS",
        "COAT",
        "COATS",
        "OAT",
        "OATS",
        "OAR",
        "OARS",
        "ROAD",
        "ROADS",
        "IRE",
        "DIRE",
        "RIDE",
        "RIDES",
        "SIDE",
        "TIDE",
        "TIDES",
        "DIET",
        "EDIT",
        "EDITS",
        "TIE",
        "TIES",
        "LIE",
        "LIES",
        "LINE",
        "LINES",
        "MINE",
        "MINES",
        "NINE",
        "PINE",
        "PINES",
        "WINE",
        "WINES",
        "VINE",
        "VINES",
        "QUIT",
        "QUITE",
        "ZEST",
        "JAB",
        "JABS",
        "EXIT",
        "AXE",
        "AXES",
    ]
)
OPTIONS = AiOptions(lexicon=WORDS)


def new_state(seed: int = 1, challenge: str = "void") -> dict:
    return ScrabbleGame.new(
        ScrabbleOptions(turn_order="fixed", challenge=challenge), seed
    ).to_json()


async def test_computer_move_is_a_play_the_engine_accepts_with_the_same_score():
    state = new_state()
    move = await computer_move(state, OPTIONS, 0, "strong", seed=1)
    assert move["type"] == "play"
    game = ScrabbleGame.from_json(state)
    result = apply_move_description(game, 0, move, WORDS)
    assert result.score == move["score"]
    assert result.notation == move["notation"]
    json.dumps(move)  # plain data, ready for the move log


async def test_computer_move_is_the_same_for_the_same_state_and_seed():
    state = new_state(seed=2)
    first = await computer_move(state, OPTIONS, 0, "casual", seed=7)
    again = await computer_move(state, OPTIONS, 0, "casual", seed=7)
    assert first == again


async def test_two_computers_finish_a_game_through_the_helpers():
    game = ScrabbleGame.new(ScrabbleOptions(turn_order="fixed", challenge="double"), 3)
    levels = ("equity", "casual")
    for ply in range(300):
        if game.status == "finished":
            break
        seat = game.current_seat if game.status == "active" else 1 - game.last_play["seat"]
        move = await computer_move(game.to_json(), OPTIONS, seat, levels[seat], seed=ply)
        assert move["type"] != "challenge"  # the computers never play a phony
        apply_move_description(game, seat, move, WORDS)
    assert game.status == "finished"


async def test_the_computer_challenges_a_phony_that_would_end_the_game_and_accepts_a_word():
    options = ScrabbleOptions(turn_order="fixed", challenge="double")
    for tile, expected in (("T", "challenge"), ("S", "accept")):
        game = rigged_game(options, racks=[tile, "EEE"], bag="", words=(("8H", "CAT"),))
        game.play(0, "..." + tile, "8H")  # CATT is no word; CATS is
        assert game.status == "ending"
        move = await computer_move(game.to_json(), OPTIONS, 1, "strong", seed=0)
        assert move == {"type": expected}
        apply_move_description(game, 1, move, WORDS)


async def test_the_computer_refuses_to_move_out_of_turn_or_at_an_unknown_level():
    state = new_state()
    with pytest.raises(ComputerMoveError):
        await computer_move(state, OPTIONS, 1, "strong", seed=0)
    with pytest.raises(ComputerMoveError):
        await computer_move(state, OPTIONS, 0, "grandmaster", seed=0)


async def test_hint_lists_the_best_moves_by_equity_each_playable():
    state = new_state(seed=4)
    hints = await hint(state, OPTIONS, 0)
    assert 1 <= len(hints) <= 3
    assert [h["equity"] for h in hints] == sorted((h["equity"] for h in hints), reverse=True)
    for move in hints:
        apply_move_description(ScrabbleGame.from_json(state), 0, move, WORDS)


async def test_has_valid_play_knows_a_stuck_rack():
    stuck = rigged_game(racks=["VW", "EEE"], words=(("8H", "QI"),))
    assert not await has_valid_play(stuck.to_json(), OPTIONS, 0)
    assert await has_valid_play(new_state(seed=4), OPTIONS, 0)


async def test_analysis_rows_add_up_and_render_as_a_table():
    game = ScrabbleGame.new(ScrabbleOptions(turn_order="fixed", challenge="void"), 5)
    for ply in range(300):
        if game.status == "finished":
            break
        seat = game.current_seat
        move = await computer_move(
            game.to_json(), OPTIONS, seat, ("strong", "casual")[seat], seed=ply
        )
        apply_move_description(game, seat, move, WORDS)
    analysis = await analyse_game(game.to_json(), OPTIONS)
    turns = analysis["turns"]
    assert turns and all(t["best_score"] >= t["score"] for t in turns)
    assert analysis["left_on_table"][0] == 0  # the strong seat always took the top score
    assert analysis["left_on_table"][1] == sum(t["left_on_table"] for t in turns if t["seat"] == 1)
    table = format_analysis(analysis, ["Ana", "Computer"])
    assert len(table) < 2000
    assert table.splitlines()[1].split()[1] == "Ana"
    assert "points left on the table" in table
