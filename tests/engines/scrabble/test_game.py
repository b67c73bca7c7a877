"""Game rules: turn order, moves, challenges, the end, saving and replaying."""

from __future__ import annotations

import json
import random

import pytest

from engines.scrabble import (
    ChallengeError,
    ExchangeError,
    GameOverError,
    InvalidWordError,
    LexiconRequiredError,
    NotYourTurnError,
    PlacementError,
    RackError,
    ScrabbleError,
    ScrabbleGame,
    ScrabbleOptions,
    StateFormatError,
    TurnError,
    UndeclaredBlankError,
)
from engines.scrabble.board import face_value
from engines.scrabble.game import FINISH_LINE_TARGETS
from tests.engines.scrabble.support import AcceptAll, random_placement, rigged_game

FIXED = ScrabbleOptions(turn_order="fixed")


def opts(**changes) -> ScrabbleOptions:
    return ScrabbleOptions(**{"turn_order": "fixed", **changes})


def _rank(tile: str) -> int:
    return -1 if tile == "?" else ord(tile)


# -- setting up ----------------------------------------------------------------------


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_draw_for_first_play_gives_the_turn_to_the_tile_nearest_a(seats):
    for seed in range(40):
        game = ScrabbleGame.new(ScrabbleOptions(seats=seats), seed)
        last = game.first_draw[-1]
        drawn = {seat: tile for seat, tile in enumerate(last) if tile is not None}
        best = min(drawn.values(), key=_rank)
        assert [s for s, t in drawn.items() if t == best] == [game.first_seat]
        assert game.current_seat == game.first_seat
        for earlier in game.first_draw[:-1]:
            tiles = [t for t in earlier if t is not None]
            best_earlier = min(tiles, key=_rank)
            assert tiles.count(best_earlier) > 1, "only a tie causes a redraw"


def test_tied_draws_are_redrawn_among_the_tied_seats():
    redraws = [
        game.first_draw
        for seed in range(300)
        if len((game := ScrabbleGame.new(ScrabbleOptions(seats=4), seed)).first_draw) > 1
    ]
    assert redraws, "some seed in 300 should tie"
    first, second = redraws[0][0], redraws[0][1]
    best = min((t for t in first if t is not None), key=_rank)
    tied = {s for s, t in enumerate(first) if t == best}
    assert {s for s, t in enumerate(second) if t is not None} == tied


def test_a_drawn_blank_beats_every_letter():
    for seed in range(400):
        game = ScrabbleGame.new(ScrabbleOptions(seats=4), seed)
        first_round = game.first_draw[0]
        if first_round.count("?") == 1:
            assert game.first_seat == first_round.index("?")
            return
    pytest.fail("no seed drew exactly one blank")


@pytest.mark.parametrize(("seats", "rack_size"), [(2, 7), (3, 7), (4, 9)])
def test_new_game_deals_full_racks_and_keeps_the_rest_in_the_bag(seats, rack_size):
    game = ScrabbleGame.new(ScrabbleOptions(seats=seats, rack_size=rack_size), 7)
    assert all(len(rack) == rack_size for rack in game.racks)
    assert game.bag_count == 100 - seats * rack_size
    assert game.tile_total() == 100
    assert game.status == "active"


def test_same_seed_deals_the_same_game_and_another_seed_differs():
    assert ScrabbleGame.new(FIXED, 99) == ScrabbleGame.new(FIXED, 99)
    assert ScrabbleGame.new(FIXED, 99).racks != ScrabbleGame.new(FIXED, 100).racks


@pytest.mark.parametrize(
    "bad",
    [
        {"seats": 1},
        {"seats": 5},
        {"rack_size": 8},
        {"challenge": "triple"},
        {"end_rule": "never"},
        {"target_score": 0},
        {"turn_order": "alphabetical"},
    ],
)
def test_bad_options_are_refused(bad):
    with pytest.raises(ScrabbleError):
        ScrabbleOptions(**bad)


def test_finish_line_levels_match_the_rules_sheet():
    assert ScrabbleOptions.finish_line("expert", 3).target_score == 180
    assert FINISH_LINE_TARGETS["beginner"] == {2: 70, 3: 60, 4: 50}
    with pytest.raises(ScrabbleError):
        ScrabbleOptions.finish_line("grandmaster", 2)


# -- playing ----------------------------------------------------------------------------


def test_play_scores_draws_replacements_and_passes_the_turn():
    game = rigged_game(racks=["QUIZEST", "AEIOULN"])
    bag = game.to_json()["bag"]
    result = game.play(0, "QUIZ", "8H")
    assert result.score == 44
    assert result.main_word == "QUIZ"
    assert result.squares == ("H8", "I8", "J8", "K8")
    assert result.drawn == bag[:4]
    assert game.racks[0] == "EST" + bag[:4]
    assert game.to_json()["bag"] == bag[4:]
    assert game.scores == [44, 0]
    assert game.current_seat == 1
    assert game.moves[-1]["position"] == "8H" and game.moves[-1]["word"] == "QUIZ"


def test_play_reports_every_word_formed_for_definitions():
    game = rigged_game(racks=["ATOXIES", "EEIOULN"])
    game.play(0, "AT", "8H")
    result = game.play(1, "OE", "9H")
    assert [w.word for w in result.words] == ["OE", "AO", "TE"]


def test_nine_tile_rack_play_of_eight_tiles_is_a_bingo():
    game = rigged_game(opts(rack_size=9), racks=["RELATIONS", "AEEIIOUNN"])
    result = game.play(0, "RELATION", "8D")
    assert result.bingo
    assert result.score == (2 + 1 + 1 + 1 + 1 + 1 + 1 + 1) * 2 + 50
    assert len(game.racks[0]) == 9


def test_seven_tile_rack_play_of_six_tiles_is_not_a_bingo():
    game = rigged_game(racks=["RETAINS", "AEEIOUN"])
    assert not game.play(0, "RETAIN", "8H").bingo


def test_playing_out_of_turn_is_refused_and_says_whose_turn_it_is():
    game = rigged_game(racks=["CATSEIR", "DOGSAEI"])
    with pytest.raises(NotYourTurnError, match="it is not your turn") as err:
        game.play(1, "DOG", "8H")
    assert err.value.current_seat == 0


def test_a_refused_move_changes_nothing():
    game = rigged_game(racks=["CATSEIR", "DOGSAEI"])
    before = game.to_json()
    for bad in [("CAT", "7H"), ("CATT", "8H"), ("C?T", "8H"), ("CAT", "Z9")]:
        with pytest.raises(ScrabbleError):
            game.play(0, *bad)
    assert game.to_json() == before


@pytest.mark.parametrize(
    ("setup", "move", "error", "message"),
    [
        ([], ("CAT", "7H"), PlacementError, "the first play must cover the centre square H8"),
        ([], ("A", "8H"), PlacementError, "the first play needs at least two tiles"),
        ([("8H", "CAT")], ("RAT", "8H"), PlacementError, "H8 is already taken"),
        ([("8H", "CAT")], ("SEA", "2B"), PlacementError, "tiles must touch the board"),
        ([("8H", "CAT")], ("...S.E", "8H"), PlacementError, "there is a gap at L8"),
        ([], ("EEL", "8H"), RackError, "you have no second E"),
        ([], ("RA?", "8H"), UndeclaredBlankError, "say which letter the blank is"),
    ],
)
def test_illegal_plays_say_exactly_what_is_wrong(setup, move, error, message):
    game = rigged_game(racks=["EARSLT?", "DOGSAEI"], words=tuple(setup))
    with pytest.raises(error, match=message):
        game.play(0, *move)


def test_loose_tiles_not_in_one_line_are_refused():
    game = rigged_game(racks=["EARSLT?", "DOGSAEI"])
    with pytest.raises(PlacementError, match="words must be in one row or column"):
        game.play_tiles(0, [("H8", "E"), ("I9", "A")])


def test_loose_tiles_in_a_line_play_like_the_word_notation():
    a = rigged_game(racks=["EARSLT?", "DOGSAEI"])
    b = rigged_game(racks=["EARSLT?", "DOGSAEI"])
    assert (
        a.play_tiles(0, [("H8", "E"), ("I8", "A"), ("J8", "?r")]).score
        == b.play(0, "EAr", "8H").score
    )
    assert a == b


def test_exchange_swaps_tiles_and_scores_nothing():
    game = rigged_game(racks=["QVWWKJX", "AEIOULN"])
    rack = game.racks[0]
    drawn = game.exchange(0, rack[:3].lower())
    assert len(drawn) == 3
    assert sorted(game.racks[0]) == sorted(rack[3:] + drawn)
    assert game.scores == [0, 0]
    assert game.current_seat == 1
    assert game.tile_total() == 100


def test_exchange_needs_seven_tiles_in_the_bag():
    game = rigged_game(racks=["QVWWKJX", "AEIOULN"], bag="ABCDEF")
    with pytest.raises(ExchangeError, match="at least 7 tiles; it holds 6"):
        game.exchange(0, "Q")


@pytest.mark.parametrize("bag", ["ABCDEFGH", "ABCDEFG"])
def test_a_nine_tile_exchange_needs_nine_tiles_in_the_bag(bag):
    game = rigged_game(opts(rack_size=9), racks=["QVWWKJXZY", "AEIOULNRS"], bag=bag)
    with pytest.raises(ExchangeError, match=f"at least 9 tiles; it holds {len(bag)}"):
        game.exchange(0, "Q")
    assert game.racks[0] == "QVWWKJXZY" and game.bag_count == len(bag) and game.moves == []


def test_a_nine_tile_exchange_with_nine_in_the_bag_keeps_the_rack_full():
    game = rigged_game(opts(rack_size=9), racks=["QVWWKJXZY", "AEIOULNRS"], bag="ABCDEFGHI")
    game.exchange(0, "QVWWKJXZY")
    assert len(game.racks[0]) == 9 and game.bag_count == 9


def test_exchange_of_tiles_not_held_is_refused():
    game = rigged_game(racks=["QVWWKJX", "AEIOULN"])
    # Said as an exchange (QA F28), not as a play's advice about blanks.
    with pytest.raises(ExchangeError, match=r"^you can.t exchange E: your rack has none$"):
        game.exchange(0, "QE")
    with pytest.raises(ExchangeError, match=r"exchange 3 × W: your rack has only 2$"):
        game.exchange(0, "WWW")
    with pytest.raises(ExchangeError, match="say which tiles"):
        game.exchange(0, " ")


def test_moves_after_the_game_is_over_are_refused():
    game = rigged_game(racks=["CATSEIR", "DOGSAEI"])
    game.resign(1)
    for move in (
        lambda: game.play(0, "CAT", "8H"),
        lambda: game.pass_turn(0),
        lambda: game.exchange(0, "C"),
    ):
        with pytest.raises(GameOverError, match="the game is over"):
            move()
    with pytest.raises(GameOverError):
        game.end_by_deadline()


# -- challenges ------------------------------------------------------------------------------


def test_double_challenge_that_fails_costs_the_challenger_their_next_turn():
    game = rigged_game(racks=["CATSEIR", "DOGSAEI"])
    game.play(0, "CAT", "8H")
    assert game.can_challenge(1) and not game.can_challenge(0)
    result = game.challenge(1, {"cat"})
    assert result.valid and result.lost_turn_seat == 1
    assert game.current_seat == 0
    assert game.scores == [10, 0]
    assert game.moves[-1] == {
        "type": "pass",
        "seat": 1,
        "score": 0,
        "rack": "DOGSAEI",
        "auto": True,
        "lost_turn": True,
    }


def test_successful_challenge_takes_the_play_back_and_restores_the_bag():
    game = rigged_game(racks=["CATSEIR", "DOGSAEI"])
    before = game.to_json()
    game.play(0, "CAT", "8H")
    result = game.challenge(1, {"DOG"})
    assert result.withdrawn and result.invalid_words == ("CAT",) and result.score_removed == 10
    after = game.to_json()
    assert after["board"] == before["board"]
    assert after["bag"] == before["bag"]
    assert after["racks"] == before["racks"]
    assert game.scores == [0, 0]
    assert game.current_seat == 1
    assert game.scoreless_turns == 1


def test_double_challenge_by_a_seat_not_next_skips_that_seat_later():
    game = rigged_game(opts(seats=3), racks=["CATSEIR", "DOGSAEI", "AEIOULN"])
    game.play(0, "CAT", "8H")
    game.challenge(2, {"CAT"})
    assert game.current_seat == 1
    game.pass_turn(1)
    assert game.current_seat == 0  # seat 2's turn was lost
    assert game.moves[-1]["seat"] == 2 and game.moves[-1]["lost_turn"]


def test_single_challenge_that_fails_costs_nothing():
    game = rigged_game(opts(challenge="single"), racks=["CATSEIR", "DOGSAEI"])
    game.play(0, "CAT", "8H")
    result = game.challenge(1, {"CAT"})
    assert result.valid and result.lost_turn_seat is None
    assert game.current_seat == 1


def test_challenge_window_closes_when_the_next_seat_moves():
    game = rigged_game(racks=["CATSEIR", "DOGSAEI"])
    game.play(0, "CAT", "8H")
    game.pass_turn(1)
    assert not game.can_challenge(1)
    with pytest.raises(ChallengeError, match="only until the next player moves"):
        game.challenge(1, {"DOG"})


def test_a_refused_move_does_not_close_the_challenge_window():
    game = rigged_game(racks=["CATSEIR", "DOGSAEI"])
    game.play(0, "CAT", "8H")
    with pytest.raises(ScrabbleError):
        game.play(1, "DOG", "2A")
    assert game.can_challenge(1)


def test_a_play_cannot_be_challenged_twice_or_by_its_player():
    game = rigged_game(opts(seats=3, challenge="single"), racks=["CATSEIR", "DOGSAEI", "AEIOULN"])
    game.play(0, "CAT", "8H")
    with pytest.raises(ChallengeError, match="your own play"):
        game.challenge(0, {"CAT"})
    game.challenge(1, {"CAT"})
    with pytest.raises(ChallengeError):
        game.challenge(2, {"CAT"})


def test_challenge_needs_a_word_list():
    game = rigged_game(racks=["CATSEIR", "DOGSAEI"])
    game.play(0, "CAT", "8H")
    with pytest.raises(LexiconRequiredError):
        game.challenge(1, None)


def test_void_mode_refuses_unknown_words_up_front_and_has_no_challenges():
    game = rigged_game(opts(challenge="void"), racks=["CATSEIR", "DOGSAEI"])
    before = game.to_json()
    with pytest.raises(InvalidWordError, match="CAT is not in the word list") as err:
        game.play(0, "CAT", "8H", lexicon={"dog"})
    assert err.value.words == ("CAT",)
    assert game.to_json() == before
    with pytest.raises(LexiconRequiredError):
        game.play(0, "CAT", "8H")
    game.play(0, "CAT", "8H", lexicon={"cat"})
    assert not game.can_challenge(1)
    with pytest.raises(ChallengeError, match="no challenges"):
        game.challenge(1, {"cat"})


# -- the end -------------------------------------------------------------------------------


def out_game(challenge: str = "double", seats: int = 2) -> ScrabbleGame:
    """Bag empty; seat 0 can go out with S on 8K (CATS, typed ...S at 8H)."""
    racks = ["S", "QZ", "VW"][:seats]
    return rigged_game(
        opts(challenge=challenge, seats=seats), racks=racks, bag="", words=(("8H", "CAT"),)
    )


def test_out_play_in_void_mode_ends_the_game_with_rack_adjustments():
    game = out_game("void")
    game.play(0, "...S", "8H", lexicon=AcceptAll())
    result = game.result()
    assert result is not None and result.reason == "out" and result.out_seat == 0
    assert result.adjustments == (20, -20)
    assert game.scores == [6 + 20, -20]
    assert result.winners == (0,)


def test_out_play_with_three_seats_gains_every_other_rack():
    game = out_game("void", seats=3)
    game.play(0, "...S", "8H", lexicon=AcceptAll())
    assert game.result().adjustments == (28, -20, -8)


def test_out_play_under_challenge_rules_waits_for_challenge_or_acceptance():
    game = out_game("double")
    result = game.play(0, "...S", "8H")
    assert result.status == "ending" == game.status
    with pytest.raises(TurnError, match="challenge it or accept it"):
        game.pass_turn(1)
    assert game.can_challenge(1)
    assert game.accept(1) is True
    assert game.status == "finished"
    assert game.result().reason == "out"


def test_challenged_out_play_that_is_phony_returns_the_game_to_play():
    game = out_game("double")
    game.play(0, "...S", "8H")
    game.challenge(1, {"CAT"})
    assert game.status == "active"
    assert game.racks[0] == "S"
    assert game.current_seat == 1


def test_challenged_out_play_that_is_good_ends_the_game():
    game = out_game("double")
    game.play(0, "...S", "8H")
    game.challenge(1, {"CAT", "CATS"})
    assert game.status == "finished"
    assert game.result().out_seat == 0


def test_service_can_close_the_challenge_window_of_an_ending_play():
    game = out_game("single")
    game.play(0, "...S", "8H")
    game.close_challenge_window()
    assert game.result().reason == "out"
    with pytest.raises(ChallengeError):
        game.close_challenge_window()


def test_three_seat_ending_needs_every_opponent_to_accept():
    game = out_game("double", seats=3)
    game.play(0, "...S", "8H")
    assert game.accept(1) is False
    with pytest.raises(ChallengeError):
        game.accept(0)
    assert game.accept(2) is True


def test_six_scoreless_turns_end_the_game_and_everyone_loses_their_rack():
    game = rigged_game(racks=["QZXJKVW", "AEIOULN"])
    for turn in range(6):
        assert game.status == "active"
        game.pass_turn(turn % 2)
    result = game.result()
    assert result.reason == "six_zeros"
    assert result.adjustments == (-face_value("QZXJKVW"), -7)
    assert result.winners == (1,)


def test_withdrawn_plays_and_exchanges_count_as_scoreless_turns():
    game = rigged_game(racks=["CATSEIR", "DOGSAEI"])
    game.play(0, "CAT", "8H")
    game.challenge(1, {"DOG"})  # 1
    game.pass_turn(1)  # 2
    game.exchange(0, "C")  # 3
    game.pass_turn(1)  # 4
    game.pass_turn(0)  # 5
    assert game.status == "active"
    game.pass_turn(1)  # 6
    assert game.result().reason == "six_zeros"


def test_two_passes_in_a_row_by_one_seat_end_the_game_under_the_club_rule():
    game = rigged_game(opts(end_rule="two_passes"), racks=["CATSEIR", "DOGSAEI"])
    game.pass_turn(0)
    game.exchange(1, "D")
    game.pass_turn(0)
    assert game.result().reason == "two_passes"


def test_exchanges_between_passes_do_not_count_under_the_club_rule():
    game = rigged_game(opts(end_rule="two_passes"), racks=["CATSEIR", "DOGSAEI"])
    game.pass_turn(0)
    game.pass_turn(1)
    game.exchange(0, "C")
    assert game.status == "active"
    game.pass_turn(1)
    assert game.result().reason == "two_passes"


def test_a_timed_out_turn_is_a_pass():
    game = rigged_game(opts(end_rule="two_passes"), racks=["CATSEIR", "DOGSAEI"])
    game.pass_turn(0, timed_out=True)
    assert game.moves[-1]["timed_out"] is True
    game.pass_turn(1)
    game.pass_turn(0, timed_out=True)
    assert game.status == "finished"


def test_deadline_ends_the_game_with_rack_deductions():
    game = rigged_game(racks=["CATSEIR", "DOGSAEI"])
    game.play(0, "CAT", "8H")
    racks = game.racks
    game.end_by_deadline()
    result = game.result()
    assert result.reason == "deadline"
    assert result.scores_before == (10, 0)
    assert result.adjustments == (-face_value(racks[0]), -face_value(racks[1]))
    assert result.final_scores == tuple(game.scores)
    assert game.status == "finished"


def test_deadline_during_an_ending_lets_the_finishing_play_stand():
    game = out_game("double")
    game.play(0, "...S", "8H")
    game.end_by_deadline()
    assert game.result().reason == "out"


def test_tie_on_final_score_goes_to_the_higher_score_before_adjustments():
    # Seat 0: 100 - 5 = 95; seat 1: 98 - 3 = 95.
    game = rigged_game(racks=["K", "EEE"], scores=[100, 98], bag="")
    game.end_by_deadline()
    result = game.result()
    assert result.final_scores == (95, 95)
    assert result.winners == (0,)
    assert result.ranks == (1, 2)


def test_full_tie_is_a_draw():
    game = rigged_game(racks=["AE", "IO"], scores=[50, 50], bag="")
    game.end_by_deadline()
    result = game.result()
    assert result.winners == (0, 1) and result.is_draw
    assert result.ranks == (1, 1)


def test_finish_line_is_won_by_the_first_play_reaching_the_target():
    game = rigged_game(opts(challenge="void", target_score=40), racks=["QUIZEST", "AEIOULN"])
    game.play(0, "QUIZ", "8H", lexicon=AcceptAll())
    result = game.result()
    assert result.reason == "target"
    assert result.winners == (0,)
    assert result.adjustments == (0, 0)
    assert game.scores == [44, 0]


def test_finish_line_play_under_challenge_rules_can_still_be_challenged():
    game = rigged_game(opts(target_score=40), racks=["QUIZEST", "AEIOULN"])
    game.play(0, "QUIZ", "8H")
    assert game.status == "ending"
    game.challenge(1, {"QUIZZES"})
    assert game.status == "active" and game.scores == [0, 0]


def test_finish_line_not_reached_keeps_the_game_going():
    game = rigged_game(opts(challenge="void", target_score=45), racks=["QUIZEST", "AEIOULN"])
    game.play(0, "QUIZ", "8H", lexicon=AcceptAll())
    assert game.status == "active"


def test_resigning_in_a_two_seat_game_hands_the_win_to_the_other_seat():
    game = rigged_game(racks=["CATSEIR", "DOGSAEI"], scores=[50, 0])
    game.resign(0)
    result = game.result()
    assert result.reason == "resign"
    assert result.winners == (1,)
    assert result.resigned == (0,)
    assert result.ranks == (2, 1)


def test_resigning_with_three_seats_lets_the_others_play_on():
    game = rigged_game(opts(seats=3), racks=["CATSEIR", "DOGSAEI", "AEIOULN"])
    game.resign(1)
    assert game.status == "active"
    game.pass_turn(0)
    assert game.current_seat == 2
    with pytest.raises(TurnError, match="resigned"):
        game.pass_turn(1)
    game.resign(2)
    result = game.result()
    assert result.winners == (0,)
    assert result.ranks == (1, 3, 2)


def test_resigning_twice_is_refused():
    game = rigged_game(opts(seats=3), racks=["CATSEIR", "DOGSAEI", "AEIOULN"])
    game.resign(1)
    with pytest.raises(TurnError, match="already resigned"):
        game.resign(1)


# -- saving, loading, replaying ----------------------------------------------------------------


def some_play(game: ScrabbleGame, seed: int = 0) -> tuple[str, str]:
    """A legal (word, position) for the seat to move, found by random search."""
    rng = random.Random(seed)
    for _ in range(500):
        move = random_placement(game, rng)
        if move is None:
            break
        try:
            game.preview(game.current_seat, *move)
        except ScrabbleError:
            continue
        return move
    raise AssertionError("no legal play found")


def played_game() -> ScrabbleGame:
    """Three seats: a play, a failed challenge, a pass, an exchange, a withdrawn play."""
    game = ScrabbleGame.new(ScrabbleOptions(seats=3), 11)
    first = game.current_seat
    game.play(first, *some_play(game))
    game.challenge((first + 2) % 3, AcceptAll())  # fails: that seat loses its turn
    game.pass_turn((first + 1) % 3)
    game.exchange(first, game.racks[first][:2])
    game.play((first + 1) % 3, *some_play(game))
    game.challenge(first, set())  # succeeds: the play comes back off
    return game


def test_state_is_plain_json_with_a_format_key():
    game = played_game()
    data = game.to_json()
    assert data["format"] == "clubbot.scrabble/1"
    text = json.dumps(data)
    assert ScrabbleGame.from_json(json.loads(text)) == game


def test_reloaded_game_draws_exactly_the_same_tiles():
    original = ScrabbleGame.new(FIXED, 2024)
    reloaded = ScrabbleGame.from_json(json.loads(json.dumps(original.to_json())))
    for game in (original, reloaded):
        game.exchange(0, game.racks[0][:4])
        game.exchange(1, game.racks[1][:2])
    assert original.racks == reloaded.racks
    assert original == reloaded


def test_replaying_the_log_rebuilds_an_equal_game():
    game = played_game()
    assert ScrabbleGame.replay(game.options, game.seed, game.moves) == game


def test_replay_needs_no_word_list_even_in_void_mode():
    game = ScrabbleGame.new(opts(challenge="void"), 5)
    rack = game.racks[0]
    game.play(0, rack[:2].replace("?", "e"), "8H", lexicon=AcceptAll())
    assert ScrabbleGame.replay(game.options, game.seed, game.moves) == game


def test_unknown_state_format_is_refused():
    data = ScrabbleGame.new(FIXED, 1).to_json()
    data["format"] = "clubbot.scrabble/99"
    with pytest.raises(StateFormatError, match="unknown Scrabble state format"):
        ScrabbleGame.from_json(data)


def test_state_with_missing_tiles_is_refused():
    data = ScrabbleGame.new(FIXED, 1).to_json()
    data["bag"] = data["bag"][1:]
    with pytest.raises(StateFormatError, match="100 tiles"):
        ScrabbleGame.from_json(data)


def test_challenge_with_lower_case_word_list_works():
    game = rigged_game(racks=["CATSEIR", "DOGSAEI"])
    game.play(0, "CAT", "8H")
    assert game.challenge(1, frozenset({"cat"})).valid


def test_unseen_tiles_are_the_bag_and_the_other_racks():
    game = rigged_game(racks=["CATSEIR", "DOGSAEI"])
    assert game.unseen_tiles(0) == "".join(sorted(game.to_json()["bag"] + "DOGSAEI"))


def test_last_play_describes_the_squares_for_highlighting():
    game = rigged_game(racks=["CATSEIR", "DOGSAEI"])
    assert game.last_play is None
    game.play(0, "CAT", "8H")
    assert game.last_play == {
        "seat": 0,
        "squares": ["H8", "I8", "J8"],
        "score": 10,
        "words": ["CAT"],
        "notation": "8H CAT",
    }


def test_a_deadline_with_no_tile_on_the_board_is_a_no_contest_without_deductions():
    # Counted, the racks would decide: seat 1 holds the dear tiles.
    game = rigged_game(racks=["AEIOUNR", "QZXJKVW"])
    game.pass_turn(0)
    game.end_by_deadline()
    result = game.result()
    assert result.no_contest and result.reason == "deadline"
    assert result.adjustments == (0, 0) and result.final_scores == (0, 0)
    assert result.ranks == (1, 1) and result.is_draw
    restored = ScrabbleGame.from_json(json.loads(json.dumps(game.to_json())))
    assert restored.result() == result


def test_a_moderator_ending_early_keeps_its_own_reason_and_the_usual_deductions():
    game = rigged_game(racks=["CATSEIR", "DOGSAEI"])
    game.play(0, "CAT", "8H")
    racks = game.racks
    game.end_by_deadline(early=True)
    result = game.result()
    assert result.reason == "ended" and not result.no_contest
    assert result.adjustments == (-face_value(racks[0]), -face_value(racks[1]))
    assert game.moves[-1] == {"type": "deadline", "early": True}
    replayed = ScrabbleGame.from_json(json.loads(json.dumps(game.to_json())))
    assert replayed.result() == result
