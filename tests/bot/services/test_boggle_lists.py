"""Boggle lists as members type them: only words of letters go on a list, each
no longer than the grid can spell, the receipt says what was left out, and
nothing of a left-out token reaches the results; the best words nobody found
are the ones a member knows; a slash command typed into a DM finds the open
rounds it was not added to."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from bot.db.models_boggle import BoggleSubmissionRecord
from bot.messages.boggle import command_in_dm, dm_reply, form_receipt
from bot.services.boggle import OpenList
from tests.bot.services.test_boggle import (
    ANA,
    BEN,
    GUILD,
    OTHER_CHANNEL,
    OTHER_GUILD,
    T0,
    Env,
    env,
    finish,
    lexicon_file,
)

pytestmark = pytest.mark.clock(T0)
__all__ = ["env", "lexicon_file"]  # the fixtures, shared with test_boggle

LONG_RUN = "a" * 975
JUNK = f"word:QUIZ position:8H 8H {LONG_RUN}"


async def test_a_dm_keeps_only_words_of_letters_and_the_receipt_says_what_was_left_out(
    env: Env,
) -> None:
    await env.start()
    outcome = await env.dm(ANA, f"canoe {JUNK} tonic canoe")
    [receipt] = outcome.receipts
    assert (receipt.new_words, receipt.total_words) == (2, 2)
    assert receipt.not_letters == ("word:QUIZ", "position:8H", "8H")
    assert receipt.too_long == (LONG_RUN,) and receipt.longest == 16
    reply = dm_reply(outcome.receipts, outcome.late)
    assert reply is not None and reply.startswith("✅ 2 new words")
    assert "Left out 3 that are not letters only (word:QUIZ, position:8H, 8H)" in reply
    assert "Left out 1 longer than this grid can spell (16 letters at most)." in reply
    assert LONG_RUN[:21] not in reply  # never quoted back
    async with env.factory() as session:
        [row] = (await session.execute(select(BoggleSubmissionRecord))).scalars().all()
    assert row.words == ["canoe", "tonic"]
    assert row.entries[0]["text"] == f"canoe {JUNK} tonic canoe"  # kept as sent


async def test_the_form_keeps_only_words_of_letters_too(env: Env) -> None:
    info = await env.start()
    receipt = await env.service.submissions.submit_form(
        round_id=info.id, user_id=BEN, display_name="ben", source_id=7, text=f"{JUNK}\nenvoy"
    )
    assert (receipt.new_words, receipt.total_words) == (1, 1)
    assert len(receipt.not_letters) == 3 and receipt.too_long == (LONG_RUN,)
    text = form_receipt(receipt)
    assert "Left out 3 that are not letters only" in text and "16 letters at most" in text
    only_junk = await env.service.submissions.submit_form(
        round_id=info.id, user_id=BEN, display_name="ben", source_id=8, text="12 34 5:6 7:8"
    )
    shown = form_receipt(only_junk)
    assert shown.startswith("⚠️ 0 new words") and "(12, 34, 5:6 and 1 more)" in shown


async def test_a_left_out_token_is_quoted_as_plain_text_cut_short(env: Env) -> None:
    await env.start()
    outcome = await env.dm(ANA, "@everyone:1 <@&123>x1 **bo:ld** " + "z:" * 40)
    reply = dm_reply(outcome.receipts, outcome.late)
    assert reply is not None
    assert "@everyone" not in reply and "<@&" not in reply  # "@" is broken: nothing can ping
    assert "\\*\\*bo:ld\\*\\*" in reply and "and 1 more" in reply
    assert "z:" * 11 not in reply  # each quoted token is cut to 20 characters


async def test_nothing_of_a_left_out_token_is_in_the_results(env: Env) -> None:
    info = await env.start()
    await env.dm(ANA, f"toucanet {JUNK}")
    await env.dm(BEN, "canoe 8H")
    # A list stored before lists were read this way still has its junk: scoring drops it.
    async with env.factory() as session:
        row = (
            await session.execute(
                select(BoggleSubmissionRecord).where(BoggleSubmissionRecord.player_id == BEN)
            )
        ).scalar_one()
        row.words = ["canoe", "8h", "word:quiz", LONG_RUN]
        await session.commit()
    await finish(env, info)
    # The results (the achievements they earned follow).
    [*_, post] = [p for p in await env.outbox() if "achievement" not in p.payload["content"]]
    payload = post.payload
    public = [payload["content"], repr(payload["embeds"]), payload["files"][1]["args"]["text"]]
    for text in public:
        assert "QUIZ" not in text.upper() and "8H" not in text.upper()
        assert "AAAAAAAAAA" not in text.upper()
    assert "TOUCANET (11)" in payload["files"][1]["args"]["text"]


async def test_the_best_words_nobody_found_are_words_a_member_knows(env: Env) -> None:
    info = await env.start()
    await env.dm(ANA, "canoe")
    await finish(env, info)
    [record] = await env.rounds()
    missed = [word for word, _ in record.results["missed"]]
    # TOUCANET (11 points) is on the grid and in the list, but SCOWL has it only among its
    # "strange and unusual" words; OVINE and CAIN are less known than CONVEY or NAIVE.
    assert "toucanet" not in missed and "ovine" not in missed and "cain" not in missed
    assert missed[:2] == ["convey", "toucan"]  # familiar, and the best-scoring of those
    assert {"naive", "tonic", "envoy"} <= set(missed)


async def test_the_rounds_a_dm_would_go_to_are_named_for_a_command_typed_there(env: Env) -> None:
    assert await env.service.submissions.open_lists([GUILD]) == []
    await env.start()
    await env.start(guild=OTHER_GUILD, channel=OTHER_CHANNEL)
    rounds = await env.service.submissions.open_lists([GUILD, OTHER_GUILD])
    assert rounds == [OpenList(1, f"club {GUILD}"), OpenList(1, f"club {OTHER_GUILD}")]
    assert await env.service.submissions.open_lists([]) == []
    text = command_in_dm("/scrabble play", rounds[:1])
    assert text.startswith("`/scrabble play` is a command")
    assert "Commands work in the server: type / in a channel" in text
    assert "not on your Word Boggle list for round #1 in **club 1**" in text
    outside = command_in_dm(None, [])
    assert "Commands work in the server: type / in a channel" in outside
    assert "Boggle" not in outside
    async with env.factory() as session:
        assert (await session.execute(select(BoggleSubmissionRecord))).scalars().all() == []
