"""/word anagram, hooks, pattern and check through the loopback Discord, on the
club's own word list: each answered privately (once through the CPU workers too),
bad input refused privately, and a running game with lookups off closing every tool
to its players (in its thread too) while a member not seated there may still use them."""

from __future__ import annotations

import functools
import os

from bot import offload
from tests.e2e.test_scrabble import reply_text

WORDS = (
    "at ta ate eat tea eta rate tear tare stare tears aster rates treats "
    "care scare cares cared carer qi qis zax"
)


async def _club(club, tmp_path) -> None:
    words = tmp_path / "club-words.txt"
    words.write_text("\n".join(WORDS.split()) + "\n", encoding="utf-8")
    await club.start(lexicon=str(words))


async def _private(dc, member, where, command, **options) -> str:
    ix = await dc.slash(member, where, command, **options)
    text = await reply_text(ix)
    assert ix.answer.ephemeral, text
    assert not any(message.pings for message in ix.followups)
    return text


async def test_each_word_tool_answers_privately_on_the_club_s_list(club, tmp_path):
    await _club(club, tmp_path)
    dc, erin = club.dc, club.members["erin"]

    text = await _private(dc, erin, club.channel, "word anagram", letters="stare?")
    lines = text.splitlines()
    assert lines[0] == "**Anagrams of `STARE?`** in `club-words`: 17 words, the longest first."
    assert lines[1] == "A blank's letter is in lower case."
    assert lines[2] == "**6 letters** (1): TREAtS"
    assert lines[3] == "**5 letters** (6): ASTER, cARES, RATES, ScARE, STARE, TEARS"
    text = await _private(dc, erin, club.channel, "word anagram", letters="care?", all_letters=True)
    assert "**5 letters** (4): CAREd, CAREr, CAREs, sCARE" in text

    text = await _private(dc, erin, club.channel, "word hooks", word="care")
    assert text.splitlines() == [
        "**Hooks of CARE** in `club-words`:",
        "✅ CARE is a word.",
        "Front hooks: **S**CARE",
        "Back hooks: CARE**D**, CARE**R**, CARE**S**",
    ]

    text = await _private(dc, erin, club.channel, "word pattern", pattern="?a?e")
    assert text.splitlines() == [
        "**Words matching `?A?E`** in `club-words`: 3 words, the longest first.",
        "**4 letters** (3): CARE, RATE, TARE",
    ]

    text = await _private(dc, erin, club.channel, "word check", words="qi QIZ")
    assert "✅ **QI**" in text and "❌ **QIZ**" in text
    assert [m for m in dc.messages_in(club.channel) if not m.ephemeral] == []


async def test_the_searches_run_in_the_cpu_workers_as_in_production(club, tmp_path):
    club.start = functools.partial(club.start, cpu_workers=1)
    await test_each_word_tool_answers_privately_on_the_club_s_list(club, tmp_path)
    pool = offload.current()
    assert pool.workers == 1 and pool.in_threads == 0 and pool.restarts == 0
    assert pool.worker_pids() and os.getpid() not in pool.worker_pids()


async def test_bad_input_is_refused_privately_with_the_reason(club, tmp_path):
    await _club(club, tmp_path)
    dc, erin = club.dc, club.members["erin"]
    text = await _private(dc, erin, club.channel, "word anagram", letters="AB???")
    assert text == "At most 2 blanks (`?`) at a time."
    text = await _private(dc, erin, club.channel, "word anagram", letters="@everyone")
    # Echoed in a code span, and pinging nobody (``_private`` checks it).
    assert text == "Letters are A to Z, with `?` for a blank: `@EVERYONE` has others."
    text = await _private(dc, erin, club.channel, "word pattern", pattern="***")
    assert text.startswith("`*` alone is every word")
    text = await _private(dc, erin, club.channel, "word pattern", pattern="c.t")
    assert text == "A pattern is letters A to Z, `?` and `*`: `C.T` has others."
    text = await _private(dc, erin, club.channel, "word hooks", word="care", list="/etc/passwd")
    assert "I don't know that word list" in text
    assert [m for m in dc.messages_in(club.channel) if not m.ephemeral] == []


async def test_a_lookups_off_game_closes_the_word_tools_to_its_players(club, tmp_path):
    await _club(club, tmp_path)
    dc, m = club.dc, club.members
    ix = await dc.slash(m["alice"], club.channel, "scrabble new", opponent=m["bob"], lookups=False)
    invite = ix.answer
    game_id = next(c for c in invite.custom_ids if c.startswith("scrabble:join")).split(":")[2]
    await dc.click(m["bob"], invite, f"scrabble:join:{game_id}")
    thread = await dc.wait_until(
        lambda: next(iter(dc.threads_in(club.channel)), None), what="thread"
    )
    await dc.wait_for_message(
        channel=thread, predicate=lambda msg: "move 0" in (msg.content or ""), timeout=10
    )
    for player in (m["alice"], m["bob"]):
        text = await _private(dc, player, thread, "word anagram", letters="AEINRST")
        assert "lookups are off" in text and "Scrabble #" in text, text
    text = await _private(dc, m["alice"], thread, "word pattern", pattern="?A?E")
    assert "lookups are off" in text
    # A member not seated in the game may use the tools in its thread.
    text = await _private(dc, m["erin"], thread, "word hooks", word="care")
    assert "✅ CARE is a word." in text
