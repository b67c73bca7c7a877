"""Chess's timers after downtime, through the loopback Discord: when the bot comes
back after a correspondence player's whole allowance, the flag falls and no
reminder is sent for the move already lost on time."""

from __future__ import annotations

from typing import Any

from tests.e2e.club import Club
from tests.e2e.test_chess import _start


async def test_a_reminder_for_a_flag_already_fallen_is_not_sent_after_downtime(club: Club) -> None:
    await club.start()
    dc: Any = club.dc
    carol, dave = club.members["carol"], club.members["dave"]
    _, thread = await _start(club, carol, dave, time="1d")

    await club.stop()
    club.clock.advance(days=1, minutes=5)  # carol's reminder and her flag both due
    await club.start()
    await club.tick()
    final = await dc.wait_for_message(thread, predicate=lambda m: "**0-1**" in m.content)
    assert "wins on time" in final.content
    await club.flush()
    assert not [m for m in dc.dms_to(carol) if "time runs out" in (m.content or "")]
    assert not [m for m in dc.messages_in(thread) if "time runs out" in (m.content or "")]
