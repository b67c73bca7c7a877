"""The move generator: brute-force agreement, real games, stuck racks, self-play."""

from __future__ import annotations

import math
import random
from collections import Counter
from functools import lru_cache

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engines.scrabble import Board, ScrabbleError, ScrabbleGame, ScrabbleOptions
from engines.scrabble.board import index_name
from engines.scrabble.errors import NotYourTurnError
from engines.scrabble.gcg import read_gcg, recorded_rack
from engines.scrabble.layout import BLANK, SIZE
from engines.scrabble.lexicon import is_word
from engines.scrabble.movegen import (
    CASUAL_CHOICES,
    LEAVE_VALUES,
    LEVELS,
    Exchange,
    MoveGenerator,
    MoveGenError,
    Pass,
    Play,
    apply_move,
    derive_leave_values,
    equity,
    leave_value,
    points_left,
)
from engines.scrabble.wordgraph import WordGraph, word_graph
from tests.engines.scrabble.support import conformance_dir

# A small list with hooks, two-letter words for parallel plays and a few bingos.
SMALL_WORDS = frozenset(
    [
        "AB",
        "AD",
        "AE",
        "AI",
        "AL",
        "AN",
        "AR",
        "AS",
        "AT",
        "BA",
        "BE",
        "BI",
        "BO",
        "DA",
        "DE",
        "DO",
        "ED",
        "EL",
        "EN",
        "ER",
        "ES",
        "ET",
        "ID",
        "IN",
        "IS",
        "IT",
        "LA",
        "LI",
        "LO",
        "NA",
        "NE",
        "NO",
        "OD",
        "OE",
        "OI",
        "ON",
        "OR",
        "OS",
        "RE",
        "SI",
        "SO",
        "TA",
        "TE",
        "TI",
        "TO",
        "ACT",
        "ACTS",
        "CAT",
        "CATS",
        "SCAT",
        "TACO",
        "TACOS",
        "COAT",
        "COATS",
        "COST",
        "COTS",
        "DOT",
        "DOTS",
        "NOD",
        "NODS",
        "DON",
        "DONS",
        "DONE",
        "NODE",
        "NODES",
        "TONE",
        "TONES",
        "NOTE",
        "NOTES",
        "STONE",
        "ONSET",
        "SETON",
        "LOT",
        "LOTS",
        "SLOT",
        "LOST",
        "TOLD",
        "BOLD",
        "BOLT",
        "BLOT",
        "BLOTS",
        "BOLTS",
        "LIST",
        "SILT",
        "SLIT",
        "LINT",
        "LINTS",
        "TIN",
        "TINS",
        "NIT",
        "NITS",
        "SNIT",
        "INTO",
        "RIOT",
        "RIOTS",
        "TRIO",
        "TRIOS",
        "ROT",
        "ROTS",
        "SORT",
        "ORE",
        "ORES",
        "ROE",
        "ROES",
        "ROSE",
        "SORE",
        "BORE",
        "BORED",
        "ROBE",
        "ROBED",
        "ROBES",
        "DEBT",
        "BED",
        "BEDS",
        "BID",
        "BIDS",
        "BIDE",
        "BIDES",
        "DIE",
        "DIES",
        "DIET",
        "DIETS",
        "EDIT",
        "EDITS",
        "TIDE",
        "TIDES",
        "SIDE",
        "IDEA",
        "IDEAS",
        "AIDE",
        "AIDES",
        "RAID",
        "RAIDS",
        "ARID",
        "DIRT",
        "DIRE",
        "RIDE",
        "RIDES",
        "CIDER",
        "CRIED",
        "RICE",
        "RICES",
        "NICE",
        "NICER",
        "LACE",
        "LACES",
        "CLEAR",
        "CARE",
        "CARES",
        "RACE",
        "RACES",
        "ACRE",
        "ACRES",
        "SCARE",
        "CRATE",
        "TRACE",
        "REACT",
        "CATER",
        "CARET",
        "BLEAT",
        "TABLE",
        "TABLES",
        "STABLE",
        "BLADE",
        "BALD",
        "LAD",
        "LADS",
        "SAD",
        "DAB",
        "DABS",
        "BAD",
        "BADE",
        "ABED",
        "BEAD",
        "BEADS",
        "BREAD",
        "BEARD",
        "BARD",
        "DRAB",
        "LOBE",
        "NOBLE",
        "ODE",
        "ODES",
        "DOE",
        "DOES",
        "TOE",
        "TOES",
        "EAT",
        "EATS",
        "TEA",
        "TEAS",
        "SEA",
        "SEAT",
        "EAST",
        "ATE",
        "ETA",
        "TAN",
        "ANT",
        "ANTS",
        "NET",
        "NETS",
        "TEN",
        "TENS",
        "SENT",
        "NEST",
        "TOAD",
        "TOADS",
        "LOAD",
        "LOADS",
        "DEAL",
        "DEALS",
        "LEAD",
        "LEADS",
        "DALE",
        "DALES",
        "IDEAL",
        "IDEALS",
        "SNORE",
        "TENOR",
        "TONER",
        "NOTED",
        "TONED",
        "RODE",
        "DOER",
        "REDO",
        "REDOS",
        "CODE",
        "CODES",
        "COED",
        "DECOR",
        "CREDO",
        "CORED",
        "CORE",
        "CORES",
        "SCORE",
        "BORN",
        "BRAN",
        "BARN",
        "BARNS",
        "BEAN",
        "BEANS",
        "BANE",
        "BANES",
        "SABLE",
        "BALE",
        "BALES",
        "ABLE",
        "ABLER",
        "CABLE",
        "CABLED",
        "CABLES",
        "DESALT",
        "LASTED",
        "SALTED",
        "DETAILS",
        "DILATES",
        "NOTABLE",
        "CORDIALS",
        "ACTIONS",
        "CATIONS",
        "DOCTRINE",
        "CREDITS",
        "DIRECTS",
    ]
)
RACK_POOL = "AABCDEEEIILNNOORRSSTT??"

PROPERTY_SETTINGS = settings(
    max_examples=200,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


@lru_cache(maxsize=4)
def next_letters(words: frozenset[str]) -> dict[str, frozenset[str]]:
    """Every prefix of a word of ``words`` -> the letters that can follow it."""
    table: dict[str, set[str]] = {}
    for word in words:
        for k in range(len(word) + 1):
            table.setdefault(word[:k], set())
            if k < len(word):
                table[word[:k]].add(word[k])
    return {prefix: frozenset(letters) for prefix, letters in table.items()}


def brute_force(
    board: Board, rack: str, words: frozenset[str] = SMALL_WORDS
) -> dict[frozenset, int]:
    """Every legal play by exhaustion: each line, each start, each ordered choice of
    rack tiles (a blank as any letter), judged by the engine.

    Cuts that cannot lose a legal play keep it quick: a start is skipped when no
    square it can reach touches a tile (or, on an empty board, is the centre); a
    spelling stops when it begins no word of the list, or when a tile makes a
    word across it that is not in the list; a placement is handed to the engine
    only when it touches the board and its main word is in the list. The
    engine has the last word on every play (connection, first-move rule,
    cross-words) and gives the score. Returns {frozenset of (square, cell): score}.
    """
    following = next_letters(words)
    cells = board.cells
    found: dict[frozenset, int] = {}

    def square(line: int, offset: int, across: bool) -> int:
        return line * SIZE + offset if across else offset * SIZE + line

    def near_tile(index: int) -> bool:
        if board.is_empty:
            return index == 7 * SIZE + 7
        row, col = divmod(index, SIZE)
        return cells[index] is not None or any(
            0 <= r < SIZE and 0 <= c < SIZE and cells[r * SIZE + c] is not None
            for r, c in ((row - 1, col), (row + 1, col), (row, col - 1), (row, col + 1))
        )

    touching_squares = [near_tile(index) for index in range(SIZE * SIZE)]
    touches = touching_squares.__getitem__

    def beside(index: int, across: bool) -> tuple[str, str]:
        """The tiles before and after ``index`` in the line across the play."""
        step = SIZE if across else 1
        row = index // SIZE

        def on_line(i: int) -> bool:
            return 0 <= i < SIZE * SIZE and (across or i // SIZE == row)

        before, i = "", index - step
        while on_line(i) and cells[i] is not None:
            before = cells[i].upper() + before  # type: ignore[union-attr]
            i -= step
        after, i = "", index + step
        while on_line(i) and cells[i] is not None:
            after += cells[i].upper()  # type: ignore[union-attr]
            i += step
        return before, after

    sides = {
        (index, across): beside(index, across)
        for index in range(SIZE * SIZE)
        for across in (True, False)
        if cells[index] is None
    }

    def fits_across(index: int, letter: str, across: bool) -> bool:
        before, after = sides[index, across]
        return not (before or after) or before + letter + after in words

    def reachable(line: int, begin: int, across: bool) -> bool:
        empties = 0
        offset = begin
        while offset < SIZE and empties < len(rack):
            index = square(line, offset, across)
            if touches(index):
                return True
            empties += cells[index] is None
            offset += 1
        return False

    def judge(placed: list[tuple[int, str]]) -> None:
        key = frozenset(placed)
        if key in found:
            return
        tiles = [(index_name(i), f"?{c.upper()}" if c.islower() else c) for i, c in placed]
        try:
            evaluation = board.evaluate_tiles(tiles)
        except ScrabbleError:
            return
        if all(is_word(words, w.word) for w in evaluation.words):
            found[key] = evaluation.score

    for across in (True, False):
        for line in range(SIZE):
            for begin in range(SIZE):
                if begin > 0 and cells[square(line, begin - 1, across)] is not None:
                    continue  # a word starts on an empty square's far side
                if not reachable(line, begin, across):
                    continue

                def extend(
                    offset: int,
                    word: str,
                    left: str,
                    placed: list,
                    touching: bool,
                    line: int = line,
                    across: bool = across,
                ) -> None:
                    if offset < SIZE and cells[square(line, offset, across)] is not None:
                        letter = cells[square(line, offset, across)].upper()  # type: ignore[union-attr]
                        if letter in following[word]:
                            extend(offset + 1, word + letter, left, placed, True)
                        return
                    if placed and touching and word in words:
                        judge(placed)
                    if offset >= SIZE:
                        return
                    index = square(line, offset, across)
                    near = touching or touches(index)
                    for tile in set(left):
                        rest = left.replace(tile, "", 1)
                        for letter in following[word] if tile == BLANK else tile:
                            if letter in following[word] and fits_across(index, letter, across):
                                cell = letter.lower() if tile == BLANK else letter
                                extend(
                                    offset + 1, word + letter, rest, placed + [(index, cell)], near
                                )

                extend(begin, "", rack, [], False)
    return found


def within(tiles: frozenset, rack: str) -> bool:
    """Whether a play's tiles all come from ``rack`` (a blank as ``?``)."""
    need = Counter(BLANK if cell.islower() else cell for _, cell in tiles)
    have = Counter(rack)
    return all(have[tile] >= count for tile, count in need.items())


def generated(generator: MoveGenerator, board: Board, rack: str) -> dict[frozenset, int]:
    plays = generator.generate(board, rack)
    keyed = {frozenset(play.tiles): play.score for play in plays}
    assert len(keyed) == len(plays), "a play was generated twice"
    return keyed


def random_board(generator: MoveGenerator, rng: random.Random, turns: int) -> Board:
    """A board built by random legal plays (each checked by the engine and the list)."""
    board = Board()
    for _ in range(turns):
        rack = "".join(rng.sample(RACK_POOL, 7))
        plays = generator.generate(board, rack)
        if not plays:
            continue
        play = rng.choice(plays)
        evaluation = board.evaluate(play.word, play.position, rack=rack)
        assert evaluation.score == play.score
        assert all(w.word in SMALL_WORDS for w in evaluation.words)
        board.apply(evaluation)
    return board


def sub_racks(rack: str, rng: random.Random, count: int) -> list[str]:
    """``rack`` itself, each of its single tiles, and random sub-racks."""
    chosen = [rack] + sorted(set(rack))
    while len(chosen) < count:
        chosen.append("".join(rng.sample(rack, rng.randint(1, len(rack)))))
    return chosen[:count]


big_racks = st.sampled_from([0, 0, 0, 1, 1, 2]).flatmap(
    lambda blanks: st.lists(
        st.sampled_from(RACK_POOL.replace(BLANK, "")), min_size=7 - blanks, max_size=7 - blanks
    ).map(lambda tiles: "".join(tiles) + BLANK * blanks)
)


@PROPERTY_SETTINGS
@given(seed=st.integers(0, 2**32 - 1), turns=st.integers(0, 14), rack=big_racks)
def test_generated_plays_equal_brute_force_on_random_boards_and_racks(seed, turns, rack):
    """Per board: one exhaustive search with a 7-tile rack; a placement is legal for
    any sub-rack holding its tiles, so that also answers each sub-rack (the rack,
    its single tiles and random others: 2,000 positions in all)."""
    rng = random.Random(seed)
    generator = MoveGenerator(SMALL_WORDS)
    board = random_board(generator, rng, turns)
    legal = brute_force(board, rack)
    for part in sub_racks(rack, rng, 10):
        expected = {tiles: score for tiles, score in legal.items() if within(tiles, part)}
        assert generated(generator, board, part) == expected
        assert generator.has_valid_play(board, part) == bool(expected)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), turns=st.integers(1, 14), rack=big_racks)
def test_every_generated_play_types_its_whole_main_word(seed, turns, rack):
    """The computer's plays and the hints go through ``ScrabbleGame.play`` as
    ``word`` at ``position``: each is the whole main word, so the run-on rule
    (RULES.md: the word typed is the word played) never refuses one."""
    board = random_board(MoveGenerator(SMALL_WORDS), random.Random(seed), turns)
    for play in MoveGenerator(SMALL_WORDS).generate(board, rack):
        evaluation = board.evaluate(play.word, play.position, rack=rack)  # no RunOnError
        assert evaluation.words[0].spelled == play.spelled(board)
        assert (evaluation.position, evaluation.word) == (play.position, play.word)


# -- the built-in word list: real games, stuck racks, the computer --------------------


@pytest.fixture(scope="module")
def lexicon():
    from engines.lexicon import load_lexicon

    return load_lexicon()


@pytest.fixture(scope="module")
def generator(lexicon) -> MoveGenerator:
    return MoveGenerator(lexicon)


def recorded_positions(per_game: int = 1) -> list[tuple[str, Board, str, str, str]]:
    """(game, board before, rack, position, word) for plays from the real games, one
    from each game's middle (the first play once 20 tiles are down)."""
    found = []
    for path in sorted(conformance_dir().glob("*.gcg")):
        board = Board()
        history: dict[str, tuple] = {}
        taken = 0
        for event in read_gcg(path).events:
            if event.kind == "withdraw":
                board.remove(history.pop(event.nick))
                continue
            if event.kind != "play":
                continue
            rack = recorded_rack(event.rack)
            if rack and board.count >= 20 and taken < per_game:
                found.append((path.name, board.copy(), rack, event.position, event.word))
                taken += 1
            evaluation = board.evaluate(event.word, event.position)
            board.apply(evaluation)
            history[event.nick] = evaluation.tiles
    return found


def test_recorded_plays_from_real_games_are_generated_with_their_scores(generator, lexicon):
    checked = 0
    for name, board, rack, position, word in recorded_positions():
        evaluation = board.evaluate(word, position, rack=rack)
        if not all(is_word(lexicon, w.word) for w in evaluation.words):
            continue  # a word of the tournament list that ours lacks (or a phony)
        plays = {play.tiles: play for play in generator.generate(board, rack)}
        assert evaluation.tiles in plays, f"{name}: {position} {word} not generated from {rack}"
        assert plays[evaluation.tiles].score == evaluation.score, name
        checked += 1
    assert checked >= 40  # most games give a position whose words our list knows


def test_no_valid_play_when_the_rack_cannot_touch_the_board(generator):
    board = Board()
    board.apply(board.evaluate("QI", "8H"))
    assert generator.generate(board, "VW") == []
    assert not generator.has_valid_play(board, "VW")
    assert generator.has_valid_play(board, "VWS")  # QIS


def test_first_play_covers_the_centre_with_at_least_two_tiles(generator):
    plays = generator.generate(Board(), "QUIZ")
    assert plays
    assert all(7 * SIZE + 7 in {index for index, _ in play.tiles} for play in plays)
    assert all(len(play.tiles) >= 2 for play in plays)
    best = max(plays, key=lambda play: play.score)
    assert best.word == "QUIZ" and best.score == Board().evaluate(best.word, best.position).score


def test_nine_tile_racks_score_like_the_engine_including_bingos():
    generator = MoveGenerator(SMALL_WORDS)
    board = Board()
    board.apply(board.evaluate("CAT", "8G"))
    plays = generator.generate(board, "DOCTRINEA")
    assert any(len(play.tiles) >= 7 for play in plays)
    for play in plays:
        assert board.evaluate(play.word, play.position, rack="DOCTRINEA").score == play.score


def test_a_play_applies_to_the_game_by_word_or_by_tiles_with_the_same_score(generator, lexicon):
    game = ScrabbleGame.new(ScrabbleOptions(turn_order="fixed", challenge="void"), 15)
    rack = game.racks[0]
    assert BLANK in rack
    plays = generator.generate(game.board_copy(), rack)
    top = max((play for play in plays if play.rack_tiles.count(BLANK)), key=lambda play: play.score)
    assert game.preview(0, top.word, top.position).score == top.score
    result = game.play_tiles(0, top.placements, lexicon=lexicon)
    assert result.score == top.score
    assert result.notation == top.notation
    assert top.spelled(game.board_copy()).upper() == result.main_word


def test_blank_plays_are_written_in_lower_case_and_score_nothing_for_the_blank():
    generator = MoveGenerator(SMALL_WORDS)
    plays = generator.generate(Board(), "CA?")
    blank_cat = [p for p in plays if p.word == "CAt" and p.position == "8H"]
    assert len(blank_cat) == 1
    assert blank_cat[0].rack_tiles == "CA?"
    assert blank_cat[0].score == (3 + 1) * 2


def test_exchanges_are_every_distinct_choice_of_tiles_while_the_bag_holds_seven():
    assert sorted(e.tiles for e in MoveGenerator.exchanges("ABA", 7)) == [
        "A",
        "AA",
        "AAB",
        "AB",
        "B",
    ]
    assert MoveGenerator.exchanges("ABA", 6) == []


def test_a_nine_tile_rack_is_offered_exchanges_only_while_the_bag_holds_nine():
    assert MoveGenerator.exchanges("QVWWKJXZY", 8) == []
    assert MoveGenerator.exchanges("QVWWKJXZY", 9)


def test_leave_values_favour_blanks_and_esses_over_q_and_duplicates():
    assert leave_value("") == 0
    assert leave_value("?") > leave_value("S") > leave_value("E")
    assert leave_value("Q") < 0 < leave_value("QU") - leave_value("Q")
    assert leave_value("II") < 2 * leave_value("I")


def test_deriving_leave_values_by_self_play_gives_a_full_table():
    fit = derive_leave_values(SMALL_WORDS, games=2, seed=1)
    assert fit.samples > 0
    assert set(fit.tiles) == set(LEAVE_VALUES)
    assert all(
        math.isfinite(v)
        for v in [*fit.tiles.values(), fit.duplicate, fit.imbalance, fit.q_without_u]
    )


def test_equity_adds_the_leave_and_counts_racks_when_the_bag_is_empty():
    assert equity(Exchange("Q"), "QS", bag_count=50) == leave_value("S")
    play = Play(20, ((112, "A"), (113, "T")), True, 112, 2)
    assert equity(play, "ATE", bag_count=50) == 20 + leave_value("E")
    assert equity(play, "ATE", bag_count=0) == 20 - 2
    assert equity(play, "AT", bag_count=0, unseen="QZ") == 20 + 40


def test_strong_takes_the_top_score_and_casual_picks_among_the_top_plays(generator):
    game = ScrabbleGame.new(ScrabbleOptions(turn_order="fixed"), 5)
    scores = sorted(
        (p.score for p in generator.generate(game.board_copy(), game.racks[0])), reverse=True
    )
    strong = generator.choose_play(game, 0, "strong", random.Random(0))
    assert strong.score == scores[0]
    picks = {generator.choose_play(game, 0, "casual", random.Random(seed)) for seed in range(30)}
    assert len(picks) > 1
    assert all(p.score >= scores[CASUAL_CHOICES - 1] for p in picks)


def test_the_computer_refuses_unknown_levels_and_other_seats_turns(generator):
    game = ScrabbleGame.new(ScrabbleOptions(turn_order="fixed"), 5)
    with pytest.raises(MoveGenError):
        generator.choose_play(game, 0, "grandmaster", random.Random(0))
    with pytest.raises(NotYourTurnError):
        generator.choose_play(game, 1, "strong", random.Random(0))


def test_without_a_play_the_computer_exchanges_or_passes_when_the_bag_is_low(generator):
    from tests.engines.scrabble.support import rigged_game

    full_bag = rigged_game(racks=["VW", "EEE"], words=(("8H", "QI"),))
    for level in LEVELS:
        assert isinstance(generator.choose_play(full_bag, 0, level, random.Random(0)), Exchange)
    empty_bag = rigged_game(racks=["VW", "EEE"], words=(("8H", "QI"),), bag="")
    assert not generator.has_valid_play(empty_bag.board_copy(), "VW")
    assert generator.choose_play(empty_bag, 0, "equity", random.Random(0)) == Pass()
    assert generator.choose_play(empty_bag, 0, "strong", random.Random(0)) == Pass()


@pytest.mark.parametrize(("levels", "seed"), [(("strong", "casual"), 3), (("equity", "equity"), 4)])
def test_computers_play_a_whole_game_to_its_end(generator, lexicon, levels, seed):
    game = ScrabbleGame.new(ScrabbleOptions(turn_order="fixed", challenge="void"), seed)
    rng = random.Random(seed)
    for _ in range(200):
        if game.status != "active":
            break
        seat = game.current_seat
        move = generator.choose_play(game, seat, levels[seat], rng)
        result = apply_move(game, seat, move, lexicon)  # void mode: every word is checked
        if isinstance(move, Play):
            assert result.score == move.score
    assert game.status == "finished"
    assert game.result() is not None


def test_analysis_shows_each_turn_beside_the_best_play(generator, lexicon):
    game = ScrabbleGame.new(ScrabbleOptions(turn_order="fixed", challenge="void"), 8)
    rng = random.Random(8)
    levels = ("strong", "casual")
    while game.status == "active":
        seat = game.current_seat
        apply_move(game, seat, generator.choose_play(game, seat, levels[seat], rng), lexicon)
    turns = generator.analyse(game)
    decisions = [
        m for m in game.moves if m["type"] in ("play", "exchange", "pass") and not m.get("auto")
    ]
    assert len(turns) == len(decisions)
    assert all(t.left_on_table == 0 for t in turns if t.seat == 0 and t.played != "pass")
    assert all(t.best_score >= t.score and t.in_word_list for t in turns)
    totals = {seat: sum(t.score for t in turns if t.seat == seat) for seat in (0, 1)}
    assert [totals[0], totals[1]] == list(game.result().scores_before)
    assert points_left(turns)[1] == sum(t.best_score - t.score for t in turns if t.seat == 1)


def test_analysis_marks_a_challenged_off_phony(generator, lexicon):
    from tests.engines.scrabble.support import rigged_game

    game = rigged_game(
        ScrabbleOptions(turn_order="fixed", challenge="single"), racks=["QXZVJKW", "AEIOUST"]
    )
    game.play(0, "ZXQ", "8H")
    assert generator.should_challenge(game, 1)
    game.challenge(1, lexicon)
    (turn,) = generator.analyse(game)
    assert turn.withdrawn and turn.score == 0 and not turn.in_word_list
    assert turn.left_on_table == turn.best_score


def test_the_word_graph_is_built_once_per_lexicon(lexicon):
    assert word_graph(lexicon) is word_graph(lexicon)
    assert word_graph(SMALL_WORDS) is word_graph(SMALL_WORDS)
    graph = word_graph(SMALL_WORDS)
    assert isinstance(graph, WordGraph)
    assert sorted(graph.words()) == sorted(SMALL_WORDS)
    assert "cat" in graph and "CA" not in graph
