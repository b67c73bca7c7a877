"""The games the web benchmarks fill their club with (``bench_web``: the club's
pages; ``bench_web_boards``: the members' board pages), made through the real
services: one maker for each kind of game."""

from __future__ import annotations

import random

import chess

from bot.services import ServiceContext
from bot.services.chess import ChessService, PlayerRef
from bot.services.scrabble import Member, NewGameRequest, ScrabbleService

GUILD = 10
WHITE, BLACK = PlayerRef(1, "alice"), PlayerRef(2, "bob")
SCRABBLE_PLAYERS = Member(3, "carol"), Member(4, "dave")


async def chess_game(
    service: ChessService, plies: int = 0, seed: int = 0, *, finish: bool = False
) -> int:
    """A chess game between ``WHITE`` and ``BLACK``, open in its thread, after ``plies``
    random legal moves (``seed``); ``finish``: then the side to move resigns."""
    snap = await service.starting.challenge(
        guild_id=GUILD,
        guild_name="Bench club",
        channel_id=20,
        challenger=WHITE,
        opponent=BLACK,
        time_control="3d",
        color="white",
    )
    await service.starting.accept(snap.game_id, BLACK)
    await service.starting.open_in(snap.game_id, 1000 + snap.game_id)
    rng = random.Random(seed)
    board = chess.Board()
    for _ in range(plies):
        legal = sorted(board.legal_moves, key=lambda m: m.uci())
        if not legal:
            break
        move = rng.choice(legal)
        mover = WHITE if board.turn == chess.WHITE else BLACK
        await service.moves.play(snap.game_id, mover.user_id, board.san(move), reply_channel_id=20)
        board.push(move)
    if finish and not board.is_game_over():
        loser = WHITE if board.turn == chess.WHITE else BLACK
        await service.endings.resign(snap.game_id, loser.user_id)
    return snap.game_id


async def scrabble_game(ctx: ServiceContext, *, plays: bool = False) -> int:
    """A started Scrabble game of ``SCRABBLE_PLAYERS``; ``plays``: with a first play of
    three tiles at 8H and four passes after it."""
    service = ScrabbleService(ctx, rng=random.Random(5))
    ana, ben = SCRABBLE_PLAYERS
    req = NewGameRequest(
        guild_id=GUILD, guild_name="Bench club", channel_id=20, creator=ana, opponents=[ben]
    )
    outcome = await service.invitations.create(req)
    await service.invitations.accept(outcome.game_id, ben.user_id, GUILD)
    await service.invitations.start(outcome.game_id, 2000)
    if not plays:
        return outcome.game_id
    users = {0: ana.user_id, 1: ben.user_id}
    async with ctx.reader() as uow:
        record = await uow.games.get(outcome.game_id)
        seat = int(record.state["engine"]["current_seat"])
        rack = [t for t in record.state["engine"]["racks"][seat] if t != "?"]
    first = "".join(rack[:3]).lower()
    await service.moves.play(outcome.game_id, users[seat], first, "8H")
    for _ in range(4):
        async with ctx.reader() as uow:
            record = await uow.games.get(outcome.game_id)
            seat = int(record.state["engine"]["current_seat"])
        await service.moves.pass_turn(outcome.game_id, users[seat])
    return outcome.game_id
