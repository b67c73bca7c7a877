"""Scrabble over the board (``ScrabbleOptions(room=True)``): the bot keeps the tally,
not the racks. Recorded games entered play by play give the record's running totals;
the end takes each side's unplayed tiles and applies RULES.md's end rule."""

from __future__ import annotations

import pytest

from engines.scrabble import ScrabbleError, ScrabbleGame, ScrabbleOptions
from engines.scrabble.game import ACTIVE, ENDING, FINISHED, RACKS
from tests.engines.scrabble.room_support import TallyGame, clean_games


class Phonies:
    """A word list that knows every word but the record's phonies."""

    def __init__(self, phonies: frozenset[str]) -> None:
        self.phonies = phonies

    def __contains__(self, word: object) -> bool:
        return isinstance(word, str) and word.upper() not in self.phonies


def room_game(seats: int = 2) -> ScrabbleGame:
    return ScrabbleGame.new(ScrabbleOptions(seats=seats, room=True), seed=7)


def enter(game: ScrabbleGame, record: TallyGame) -> None:
    words = Phonies(record.phonies)
    for entry in record.entries:
        if entry.kind == "play":
            game.play(entry.seat, entry.typed, entry.position)
        elif entry.kind == "pass":
            game.pass_turn(entry.seat)
        elif entry.kind == "exchange":
            game.exchange(entry.seat, str(entry.count))
        elif entry.kind == "challenge":
            assert game.challenge(entry.seat, words).withdrawn
        else:
            game.enter_rack(entry.seat, entry.tiles)
        if entry.totals is not None:
            assert tuple(game.scores) == entry.totals, (record.name, entry)


GAMES = clean_games()


@pytest.mark.parametrize("record", GAMES, ids=lambda g: g.name)
def test_recorded_game_entered_at_the_board_gives_every_running_total(record: TallyGame) -> None:
    game = room_game()
    enter(game, record)
    assert game.status == FINISHED
    result = game.result()
    assert result is not None
    assert result.final_scores == record.finals
    assert game.tile_total() == 100


@pytest.mark.parametrize("record", GAMES[:2], ids=lambda g: g.name)
def test_a_tally_saved_and_replayed_from_its_log_is_the_same_game(record: TallyGame) -> None:
    game = room_game()
    enter(game, record)
    assert ScrabbleGame.from_json(game.to_json()) == game
    assert ScrabbleGame.replay(game.options, game.seed, game.moves) == game


def test_whoever_enters_first_plays_first_and_then_turns_alternate() -> None:
    game = room_game()
    game.play(1, "QUIZ", "8H")
    assert game.first_seat == 1 and game.current_seat == 0
    with pytest.raises(ScrabbleError, match="not your turn"):
        game.play(1, "ZA", "H11")


def test_a_play_of_tiles_all_on_the_board_already_is_refused_and_changes_nothing() -> None:
    game = room_game()
    game.play(0, "ZA", "8H")
    saved = game.to_json()
    with pytest.raises(ScrabbleError, match="all the Z tiles are already on the board"):
        game.play(1, "ZO", "G7")
    assert game.to_json() == saved


def test_an_illegal_placement_is_refused_with_the_engines_words() -> None:
    game = room_game()
    with pytest.raises(ScrabbleError) as refused:
        game.play(0, "CAT", "1A")
    assert "centre" in str(refused.value) or "H8" in str(refused.value)
    assert game.moves == []


def test_a_side_cannot_put_down_more_tiles_than_it_holds() -> None:
    game = room_game()
    game._counts[0] = 2  # late in a game, with the bag empty
    with pytest.raises(ScrabbleError, match="only 2 tiles left"):
        game.play(0, "CAT", "8H")


def test_an_exchange_names_a_count_and_keeps_the_rack_full() -> None:
    game = room_game()
    game.exchange(0, "3")
    assert game.rack_counts == [7, 7]
    assert game.bag_count == 100 - 14
    assert game.moves[-1]["count"] == 3


def test_playing_out_waits_for_the_other_sides_tiles_then_adjusts() -> None:
    game = room_game()
    game._counts = [2, 98]  # the bag is empty: every tile not on the board is on a rack
    game.play(0, "AT", "8H")
    assert game.status == ENDING  # out, and the other side may still challenge
    with pytest.raises(ScrabbleError, match="must be accepted first"):
        game.enter_rack(0, "")
    left = "".join(game._bag)
    game.enter_rack(1, left)  # counting the tiles accepts the play
    assert game.status == FINISHED
    result = game.result()
    assert result is not None and result.out_seat == 0
    penalty = sum(result.adjustments[1:]) * -1
    assert result.final_scores == (4 + penalty, -penalty)


def test_the_deadline_waits_for_every_rack_and_checks_the_count() -> None:
    game = room_game()
    game.play(0, "QUIZ", "8H")
    game.end_by_deadline()
    assert game.status == RACKS and game.awaiting_racks == [0, 1]
    with pytest.raises(ScrabbleError, match="should have 7 tiles left, not 2"):
        game.enter_rack(0, "AB")
    with pytest.raises(ScrabbleError, match="not all left"):
        game.enter_rack(0, "QAEIOUR")
    with pytest.raises(ScrabbleError, match="game is over"):
        game.pass_turn(1)
    game.enter_rack(0, "AEIOURS")
    game.enter_rack(1, "??BBCCD")
    assert game.status == FINISHED
    result = game.result()
    assert result is not None
    assert result.final_scores == (result.scores_before[0] - 7, -14)
    assert game.tile_total() == 100
    assert ScrabbleGame.replay(game.options, game.seed, game.moves) == game


def test_a_game_in_the_room_is_still_a_normal_game_when_not_in_the_room() -> None:
    game = ScrabbleGame.new(ScrabbleOptions(), seed=7)
    assert "room" not in game.to_json()["options"] and "counts" not in game.to_json()
    assert game.status == ACTIVE
