"""A GCG record played as a club game: the engine's own ``ScrabbleGame``, each turn
made from the rack the record gives (so the move log holds the mover's real rack, as
a game played on Discord does). Shared by the puzzle tests of the engine, the
service and the loopback."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from engines.scrabble import ScrabbleGame, ScrabbleOptions
from engines.scrabble.game import ENDING
from engines.scrabble.gcg import GcgEvent, read_gcg, recorded_rack
from tests.engines.scrabble.support import conformance_dir

# A clean record (no phony withdrawn, no challenge bonus): every play stands.
PUZZLE_GAME = "liwords-josh_nationals_round_7.gcg"


def puzzle_game_path() -> Path:
    return conformance_dir() / PUZZLE_GAME


def _with_rack(game: ScrabbleGame, seat: int, rack: str) -> ScrabbleGame:
    """``game`` with ``rack`` on ``seat``: the tiles come from the bag and the other racks
    (what is unseen by everyone), the other racks topped up again from what is left."""
    state = game.to_json()
    racks: list[str] = state["racks"]
    pool = Counter(state["bag"])
    for held in racks:
        pool.update(held)
    need = Counter(rack)
    assert not need - pool, f"{rack} is not among the unseen tiles"
    pool -= need
    sizes = [len(r) for r in racks]
    racks[seat] = rack
    for other, held in enumerate(list(racks)):
        if other == seat:
            continue
        kept = []
        for tile in held:
            if pool[tile] > 0:
                kept.append(tile)
                pool[tile] -= 1
        racks[other] = "".join(kept)
    rest = sorted(pool.elements())
    for other in range(len(racks)):
        while other != seat and len(racks[other]) < sizes[other] and rest:
            racks[other] += rest.pop()
    state["racks"] = racks
    state["bag"] = "".join(rest)
    return ScrabbleGame.from_json(state)


def gcg_turns(path: Path | None = None) -> list[GcgEvent]:
    """The record's turns (plays, passes, exchanges), in order."""
    record = read_gcg(path or puzzle_game_path())
    return [e for e in record.events if e.kind in ("play", "pass", "exchange")]


def gcg_club_game(path: Path | None = None, *, upto: int | None = None) -> ScrabbleGame:
    """The record at ``path`` (default ``PUZZLE_GAME``) played through the engine,
    finished (its last play accepted); with ``upto``, only its first ``upto`` turns,
    the next turn's rack on the rack of the seat to play."""
    record = read_gcg(path or puzzle_game_path())
    seat_of = {p.nick: p.number - 1 for p in record.players}
    game = ScrabbleGame.new(ScrabbleOptions(turn_order="fixed", challenge="single"), seed=0)
    first = seat_of[record.events[0].nick]
    state = game.to_json()
    state["first_seat"] = state["current_seat"] = first
    game = ScrabbleGame.from_json(state)
    turns = [e for e in record.events if e.kind in ("play", "pass", "exchange")]
    for number, event in enumerate(turns):
        seat = seat_of[event.nick]
        rack = recorded_rack(event.rack)
        assert rack, f"{event.line}: the record lacks the rack"
        game = _with_rack(game, seat, rack)
        if upto is not None and number >= upto:
            break
        if event.kind == "play":
            assert event.word and event.position
            game.play(seat, event.word, event.position)
        elif event.kind == "pass":
            game.pass_turn(seat)
        else:
            game.exchange(seat, event.tiles or "")
        if game.status == ENDING:
            for other in range(game.seats):
                if game.status == ENDING and other != seat and game.can_challenge(other):
                    game.accept(other)
    return game
