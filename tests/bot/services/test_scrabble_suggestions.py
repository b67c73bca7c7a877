"""The position autocomplete's cache (bot.caches.SUGGESTIONS): a member typing in an
unchanged position is answered from it; a move, or another seat, is worked out anew."""

from __future__ import annotations

from bot.caches import SUGGESTIONS
from tests.bot.services.scrabble_support import engine_of, first_play, seat_member, started


def _word(rack: str) -> str:
    return "".join("e" if t == "?" else t for t in rack[:3])


async def test_typing_in_an_unchanged_position_is_answered_from_the_cache(service, ctx):
    SUGGESTIONS.clear()
    game_id = await started(service)
    game = await engine_of(ctx, game_id)
    seat = game.current_seat
    user = await seat_member(ctx, game_id, seat)
    word = _word(game.racks[seat])

    misses = SUGGESTIONS.misses
    first = await service.reading.position_choices(game_id, user, word, "")
    hits = SUGGESTIONS.hits
    narrowed = await service.reading.position_choices(game_id, user, word, "8")
    assert SUGGESTIONS.hits == hits + 1 and SUGGESTIONS.misses == misses + 1
    assert {c.position for c in narrowed} <= {c.position for c in first}
    assert all(c.position.startswith("8") for c in narrowed)


async def test_a_move_or_another_seat_is_not_answered_from_the_cache(service, ctx):
    SUGGESTIONS.clear()
    game_id = await started(service)
    game = await engine_of(ctx, game_id)
    other_seat = 1 - game.current_seat
    other = await seat_member(ctx, game_id, other_seat)
    word = _word(game.racks[other_seat])
    before = await service.reading.position_choices(game_id, other, word, "")

    # The first seat plays: the board changed, so the other seat's places are worked out
    # again (and now must touch the tiles on the board).
    await first_play(service, ctx, game_id)
    misses = SUGGESTIONS.misses
    after = await service.reading.position_choices(game_id, other, word, "")
    assert SUGGESTIONS.misses == misses + 1
    game = await engine_of(ctx, game_id)
    assert all(game.preview(other_seat, word, c.position) for c in after)
    assert before != after or not before

    # The same word typed from the player's own seat is not the other seat's answer.
    mover = await seat_member(ctx, game_id, 1 - other_seat)
    misses = SUGGESTIONS.misses
    await service.reading.position_choices(game_id, mover, word, "")
    assert SUGGESTIONS.misses == misses + 1
