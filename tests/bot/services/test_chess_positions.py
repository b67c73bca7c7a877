"""A chess command replays its game's moves at most once, and a process that made the
last move not at all (issue #32), with the same results: the move's legality and SAN,
the board post's move list, FEN and image, the suggestions, the draw rules that need
the whole move stack. On a real database (SQLite; PostgreSQL when TEST_DATABASE_URL
is set).

A replay is counted as a board set up at the standard start: every replay of a game's
moves begins with one (python-chess's copies and positions from a FEN do not count).
"""

from __future__ import annotations

import random
from typing import Any

import chess
import pytest

from bot.messages import chess as msg
from bot.services import ServiceContext
from bot.services.chess import ChessService, PlayerRef
from bot.services.chess.positions import POSITIONS, position_of
from engines.chess_game import ChessStateError, move_choices, numbered_moves, san_moves

GUILD, CHANNEL, THREAD = 10, 20, 30
ALICE, BOB = PlayerRef(1, "alice"), PlayerRef(2, "bob")
PLIES = 40


@pytest.fixture
def replays(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The boards set up at the standard start from now on (one per replay)."""
    made: list[str] = []
    setup = chess.Board.__init__

    def counted(self: chess.Board, fen: str | None = chess.STARTING_FEN, **kwargs: Any) -> None:
        if fen == chess.STARTING_FEN:
            made.append(fen)
        setup(self, fen, **kwargs)

    monkeypatch.setattr(chess.Board, "__init__", counted)
    return made


@pytest.fixture
def service(ctx: ServiceContext) -> ChessService:
    return ChessService(ctx, rng=random.Random(7))


async def _new_game(service: ChessService) -> int:
    snap = await service.starting.challenge(
        guild_id=GUILD,
        guild_name="Club",
        channel_id=CHANNEL,
        challenger=ALICE,
        opponent=BOB,
        time_control="3d",
        color="white",
    )
    await service.starting.accept(snap.game_id, BOB)
    await service.starting.open_in(snap.game_id, THREAD)
    return snap.game_id


def _long_game(plies: int, seed: int = 32) -> list[chess.Move]:
    """Random legal moves that do not end the game."""
    rng = random.Random(seed)
    board = chess.Board()
    while len(board.move_stack) < plies:
        moves = list(board.legal_moves)
        rng.shuffle(moves)
        for move in moves:
            board.push(move)
            if board.outcome(claim_draw=True) is None:
                break
            board.pop()
        else:
            raise AssertionError("no move goes on")
    return list(board.move_stack)


async def _move(service: ChessService, board: chess.Board, move: chess.Move) -> Any:
    """``move`` as a member types it in the game's thread (in SAN), then on ``board``."""
    user = ALICE.user_id if board.turn == chess.WHITE else BOB.user_id
    asked = service.finder.asked(guild_id=GUILD, user_id=user, channel_id=THREAD, ref=None)
    update = await service.moves.play(
        asked, user, board.san(move), reply_channel_id=THREAD, guild_id=GUILD
    )
    board.push(move)
    return update


def _same_game(snap: Any, board: chess.Board) -> None:
    moves = [m.uci() for m in board.move_stack]
    assert list(snap.moves) == moves
    assert snap.sans == san_moves(moves)
    assert snap.board.fen() == board.fen() and snap.board.move_stack == board.move_stack
    text = msg.board_text(snap)
    assert numbered_moves(snap.sans, last=msg.MOVES_SHOWN) in text and board.fen() in text
    image = snap.board_image()
    assert image.args["fen"] == board.fen()
    assert image.args["last_move"] == (board.peek().uci() if board.move_stack else None)


async def _board(service: ChessService, user_id: int) -> Any:
    """``/chess board`` in the thread: the snapshot and the text beside its image."""
    asked = service.finder.asked(
        guild_id=GUILD, user_id=user_id, channel_id=THREAD, ref=None, want="any"
    )
    snap = await service.reading.snapshot(asked, guild_id=GUILD)
    msg.board_text(snap)
    snap.board_image()
    return snap


async def _suggestions(service: ChessService, user_id: int, typed: str) -> list[tuple[str, str]]:
    return await service.reading.move_choices(
        guild_id=GUILD, user_id=user_id, channel_id=THREAD, game_id=None, typed=typed
    )


async def test_a_move_replays_its_game_at_most_once_and_the_next_commands_not_at_all(
    service: ChessService, replays: list[str]
) -> None:
    await _new_game(service)
    board = chess.Board()
    *opening, last, reply = _long_game(PLIES + 2)
    for move in opening:
        await _move(service, board, move)

    POSITIONS.clear()  # a process that has not seen the game (restarted, or another's)
    replays.clear()
    update = await _move(service, board, last)
    assert len(replays) <= 1
    _same_game(update.snapshot, board)

    expected, before = move_choices(board, ""), board.copy()
    to_move = BOB.user_id if board.turn == chess.BLACK else ALICE.user_id
    replays.clear()  # the game goes on in this process: nothing is replayed
    choices = await _suggestions(service, to_move, "")
    shown = await _board(service, to_move)
    update = await _move(service, board, reply)
    again = await _board(service, ALICE.user_id)
    assert replays == []
    assert choices == expected
    _same_game(shown, before)
    _same_game(update.snapshot, board)
    _same_game(again, board)


async def test_a_board_or_a_keystroke_replays_a_game_at_most_once(
    service: ChessService, replays: list[str]
) -> None:
    await _new_game(service)
    board = chess.Board()
    for move in _long_game(PLIES):
        await _move(service, board, move)
    expected = move_choices(board, "N")

    POSITIONS.clear()
    replays.clear()
    shown = await _board(service, ALICE.user_id)
    assert len(replays) <= 1
    _same_game(shown, board)

    POSITIONS.clear()
    replays.clear()
    choices = await _suggestions(service, ALICE.user_id, "N")
    assert len(replays) <= 1
    assert choices == expected


async def test_a_move_another_process_made_costs_this_one_that_move_only(
    service: ChessService, replays: list[str]
) -> None:
    await _new_game(service)
    board = chess.Board()
    *opening, theirs, mine = _long_game(PLIES + 2)
    for move in [*opening, theirs]:
        await _move(service, board, move)
    POSITIONS.clear()
    position_of([m.uci() for m in opening])  # this process saw the game before their move

    replays.clear()
    update = await _move(service, board, mine)
    assert replays == []
    _same_game(update.snapshot, board)


async def test_repetitions_count_the_whole_game_whether_kept_or_replayed(
    service: ChessService,
) -> None:
    game_id = await _new_game(service)
    board = chess.Board()
    for ply, san in enumerate(["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1", "Ng8"]):
        if ply % 3 == 0:
            POSITIONS.clear()
        await _move(service, board, board.parse_san(san))
    POSITIONS.clear()
    update = await service.endings.draw(game_id, BOB.user_id, "claim")
    assert (update.snapshot.result, update.snapshot.termination) == (
        "1/2-1/2",
        "threefold_repetition",
    )


def test_a_kept_position_is_never_changed_by_the_moves_after_it() -> None:
    before = position_of(["e2e4", "e7e5"])
    fen = before.board.fen()
    after = before.after(chess.Move.from_uci("g1f3"))
    assert before.board.fen() == fen and before.sans == ("e4", "e5")
    assert after.sans == ("e4", "e5", "Nf3") and after.moves == ("e2e4", "e7e5", "g1f3")
    assert position_of(["e2e4", "e7e5", "g1f3"]) is after
    assert position_of(["e2e4", "e7e5"]).board.fen() == fen


@pytest.mark.parametrize("moves", [["e2e5"], ["e2e4", "e2e4"], ["e2e4", "xx"]])
def test_moves_that_do_not_replay_are_reported_kept_or_not(moves: list[str]) -> None:
    POSITIONS.clear()
    position_of(moves[:-1])  # the position before the damaged move is kept
    with pytest.raises(ChessStateError):
        position_of(moves)
    POSITIONS.clear()
    with pytest.raises(ChessStateError):
        position_of(moves)
