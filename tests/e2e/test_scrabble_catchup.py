"""Scrabble's timers after downtime, through the loopback Discord: a reminder
whose turn clock has run out by the time the scheduler catches up is not sent
(the turn's own timer says the clock ran out instead); one on time still is."""

from __future__ import annotations

from typing import Any

from tests.e2e.test_scrabble_members import _first_seat_zero_seed, board_at, deal_from, open_game


def reminders(dc: Any, member: Any) -> list[Any]:
    return [m for m in dc.dms_to(member) if "Reminder" in (m.content or "")]


async def test_a_reminder_for_a_turn_already_run_out_is_not_sent_after_downtime(club):
    dc = club.dc
    await club.start()
    deal_from(club, _first_seat_zero_seed())
    alice, bob = club.members["alice"], club.members["bob"]
    _, thread, _ = await open_game(club, alice, bob, clock="1d", deadline="7d")

    # On time: alice is reminded 8 hours before her day runs out, then it runs out.
    club.clock.advance(hours=16, seconds=1)
    await club.tick()
    await dc.wait_until(lambda: reminders(dc, alice), what="alice's reminder")
    club.clock.advance(hours=8)
    await club.tick()
    await board_at(club, thread, 1)
    assert len(reminders(dc, alice)) == 1

    # The bot is down through bob's whole day: when it catches up his turn has run
    # out, so he gets the thread's "turn clock ran out", not a reminder for it.
    await club.stop()
    club.clock.advance(days=1, minutes=5)
    await club.start()
    await club.tick()
    timed_out = await board_at(club, thread, 2)
    assert "turn clock ran out" in timed_out.content
    await club.flush()
    assert reminders(dc, bob) == []
    assert len(reminders(dc, alice)) == 1
