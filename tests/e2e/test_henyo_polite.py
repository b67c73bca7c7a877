"""Library Henyo's polite replies through the loopback Discord (RULES.md).

In an ordinary event the answerer may be polite — "Opo", "Hindi po",
"Pwede po…" — at no cost; in an event the host opened with ``strict`` only the
bare words count, so "Opo" costs the pair its 5 seconds. Messages carry chosen
Discord timestamps counted from the announcement's, so the times are exact.
"""

from __future__ import annotations

from tests.e2e.test_henyo import Henyo, embed_text, unescape


async def test_polite_replies_cost_nothing_and_a_strict_event_penalises_them(club) -> None:
    await club.start()
    h = Henyo(club)
    dc = h.dc

    # --- an ordinary event: the list and the round's rules say polite is fine
    opened = await h.slash(h.host, "henyo event open")
    assert "Polite is fine" in embed_text(opened.answer.embeds[0])
    await h.slash(h["alice"], "henyo register", partner=h["bob"])
    announcement, secret, _ = await h.start_round(h["bob"])
    assert "Polite is fine: **Opo**, **Oo po**, **Hindi po**, **Pwede po**" in (
        announcement.content
    )
    assert "Polite is fine" in dc.dms_to(h["bob"])[-1].content
    assert announcement.custom_ids[0].endswith(":oo")  # the buttons stay Oo / Hindi / Pwede
    await h.say(h["alice"], "Hayop ba?", announcement, 1.0)
    await h.say(h["bob"], "Opo", announcement, 2.0)
    await h.say(h["alice"], "Malaki ba?", announcement, 3.0)
    await h.say(h["bob"], "Hindi po", announcement, 4.0)
    await h.say(h["alice"], "Sa bahay ba?", announcement, 5.0)
    await h.say(h["bob"], "Pwede po…", announcement, 6.0)
    await h.say(h["alice"], secret, announcement, 20.0)
    result = await h.posted("guessed it")
    assert "Time 20.0 s + penalties 0.0 s (0) = final time **20.0 s**" in result.content
    assert not any("Penalty" in m.content for m in dc.messages_in(h.channel))
    closed = await h.slash(h.host, "henyo event close")
    assert "alice & bob" in closed.answer.content

    # --- a strict event: bare words only, and "Opo" costs 5 s
    opened = await h.slash(h.host, "henyo event open", strict=True)
    assert "Bare words only" in embed_text(opened.answer.embeds[0])
    await h.slash(h["carol"], "henyo register", partner=h["dave"])
    announcement, secret, _ = await h.start_round(h["dave"])
    assert "Bare words only: **Opo**, **Oo po**, **Hindi po**, **Pwede po**" in (
        announcement.content
    )
    assert "Bare words only" in dc.dms_to(h["dave"])[-1].content
    await h.say(h["carol"], "Tao ba?", announcement, 1.0)
    await h.say(h["dave"], "Opo", announcement, 2.0)
    penalty = await h.posted("Penalty")
    assert "+5 s for **dave**" in penalty.content and "bare words only" in penalty.content
    assert "Penalties so far: **5 s** (1)" in penalty.content
    await h.say(h["dave"], "Oo.", announcement, 3.0)
    await h.say(h["carol"], secret, announcement, 10.0)
    result = await h.posted("guessed it")
    assert "Time 10.0 s + penalties 5.0 s (1) = final time **15.0 s**" in result.content
    assert secret in unescape(result.content)
    assert sum("Penalty" in m.content for m in dc.messages_in(h.channel)) == 1
