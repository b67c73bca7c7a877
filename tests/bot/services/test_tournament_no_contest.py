"""A tournament's Scrabble game that ended at its deadline with no tile on the board
is a no-contest: the tournament scores it as the thread says, a draw with no spread."""

from __future__ import annotations

from bot.db.models import GameRecord
from bot.messages.scrabble import no_contest
from bot.services.tournaments.games import GameResult, RoundGames
from tests.engines.scrabble.support import rigged_game


def test_a_no_contest_scores_a_draw_with_no_spread_as_its_thread_says() -> None:
    game = rigged_game(racks=["AEIOUNR", "QZXJKVW"])  # counted, the racks would decide
    game.pass_turn(0)
    game.end_by_deadline()
    record = GameRecord(kind="scrabble", status="finished", state={"engine": game.to_json()})
    assert RoundGames.result(record) == GameResult(0.5, 0, (0, 0))
    said = " ".join(no_contest("deadline", part_of="tournament"))
    assert "½ point each, spread 0" in said and "nobody wins or loses" in said
