"""A Boggle round played in the room (issue #29), on SQLite and PostgreSQL: the
countdown on paper, then the time to type the lists (``entry_s``), on the
scheduler's timers; the host's ``/boggle enter`` is one entry of the member's own
list, DM'd to them; nothing is taken after the lists close, and a new service on
the same database (a restart) carries on."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import select

from bot.db.models_boggle import BoggleScheduleRecord, BoggleSubmissionRecord
from bot.errors import InvalidInputError, NotFoundError, PermissionDeniedError
from bot.messages.boggle.replies import schedule_reply
from bot.services.boggle import DEFAULT_ENTRY_S, JOB_ENTRY, BoggleService
from bot.services.boggle.core import ANNOUNCE_LEAD
from bot.services.boggle.jobs import JOB_OPEN, JOB_WEEKLY
from tests.bot.services.test_boggle import (
    ANA,
    BEN,
    CHANNEL,
    CY,
    GUILD,
    HOST,
    SEED,
    T0,
    Env,
    env,
    lexicon_file,
)
from tests.conftest import make_service_context

pytestmark = pytest.mark.clock(T0)
__all__ = ["env", "lexicon_file"]  # the fixtures, shared with test_boggle


async def enter(env: Env, member: int, text: str, *, by: int = HOST, moderator: bool = False):
    return await env.service.submissions.enter_for(
        guild_id=GUILD,
        entered_by=by,
        host_name="host",
        moderator=moderator,
        member_id=member,
        member_name=f"player{member}",
        text=text,
    )


async def test_the_time_to_type_follows_the_countdown_on_the_schedulers_timers(env: Env) -> None:
    with pytest.raises(InvalidInputError):
        await env.start(entry_time="2m")  # a round played in Discord has none
    with pytest.raises(InvalidInputError):
        await env.start(where="room", entry_time="5s")  # shorter than the grammar's minimum
    assert await env.rounds() == []

    info = await env.start(duration="3m", where="room")
    assert info.entry_s == DEFAULT_ENTRY_S == 120
    assert info.countdown_ends_at == T0 + timedelta(minutes=3)
    assert info.ends_at == T0 + timedelta(minutes=5)
    [job] = await env.jobs(JOB_ENTRY)
    assert job.due_at == T0 + timedelta(minutes=3)

    # Pens down: the channel is told to type; the round still takes lists.
    env.clock.now = T0 + timedelta(minutes=3)
    assert await env.run_due() == [JOB_ENTRY]
    posts = [row.payload["content"] for row in await env.outbox()]
    assert any("pens down!" in text for text in posts)
    [record] = await env.rounds()
    assert record.status == "open"

    # A DM during the time to type counts; one sent after it does not.
    outcome = await env.dm(ANA, "canoe tonic", at=T0 + timedelta(minutes=4))
    assert [r.total_words for r in outcome.receipts] == [2]
    late = await env.dm(BEN, "envoy", at=T0 + timedelta(minutes=5, seconds=1))
    assert late.receipts == [] and [n.round_number for n in late.late] == [1]
    env.clock.now = T0 + timedelta(minutes=5, seconds=1)
    with pytest.raises(NotFoundError):
        await env.service.submissions.submit_page(round_id=info.id, user_id=BEN, add=["envoy"])
    with pytest.raises(NotFoundError):
        await enter(env, BEN, "envoy")

    env.clock.now = info.ends_at + timedelta(seconds=5)
    await env.run_due()
    [record] = await env.rounds()
    assert record.status == "scored"
    assert [p["id"] for p in record.results["players"]] == [ANA]


async def test_the_host_types_a_members_paper_list_merged_with_their_own(env: Env) -> None:
    info = await env.start(duration="3m", where="room", entry_time="90s")
    assert info.entry_s == 90
    await env.dm(CY, "canoe", at=T0 + timedelta(seconds=30))

    # Only the round's host or a moderator; the member's list is left as it was.
    with pytest.raises(PermissionDeniedError):
        await enter(env, CY, "tonic", by=ANA)
    entered = await enter(env, CY, "tonic, canoe acne")
    assert (entered.receipt.new_words, entered.receipt.total_words) == (2, 3)
    assert entered.words == ("tonic", "canoe", "acne")
    by_moderator = await enter(env, CY, "envoy", by=BEN, moderator=True)
    assert by_moderator.receipt.total_words == 4

    # The member is told by DM, privately; nothing goes to the channel.
    dms = [row for row in await env.outbox() if row.target_kind == "user"]
    assert [row.target_id for row in dms] == [CY, CY]
    assert "tonic, canoe, acne" in dms[0].payload["content"]
    assert dms[0].fallback_channel_id is None

    # A restart: a new service on the same database carries on with the same list.
    ctx = make_service_context(env.factory, env.clock, lexicon=env.service.ctx.settings.lexicon)
    again = BoggleService(ctx, seeds=lambda: SEED)
    ctx.scheduler.register_service(again)
    env = Env(again, env.clock, ctx.scheduler, env.factory, next_message_id=2000)
    env.clock.now = T0 + timedelta(minutes=3, seconds=10)
    await env.run_due()
    outcome = await env.dm(CY, "ovine", at=env.clock.now)
    assert [r.total_words for r in outcome.receipts] == [5]
    async with env.factory() as session:
        [row] = (await session.execute(select(BoggleSubmissionRecord))).scalars().all()
    assert [e["via"] for e in row.entries] == ["dm", "host", "host", "dm"]
    assert row.words == ["canoe", "tonic", "acne", "envoy", "ovine"]

    env.clock.now = T0 + timedelta(minutes=4, seconds=35)
    await env.run_due()
    [record] = await env.rounds()
    assert record.status == "scored" and record.channel_id == CHANNEL
    [player] = record.results["players"]
    assert player["id"] == CY and len(player["words"]) == 5


async def test_pens_down_is_not_announced_when_the_bot_was_down_past_the_time_to_type(
    env: Env,
) -> None:
    info = await env.start(duration="3m", where="room")
    await env.dm(ANA, "canoe", at=T0 + timedelta(minutes=1))
    assert info.ends_at is not None
    env.clock.now = info.ends_at + timedelta(minutes=10)  # the bot was down all along
    done = await env.run_due()
    assert JOB_ENTRY in done
    posts = [row.payload["content"] for row in await env.outbox()]
    assert not any("pens down!" in text for text in posts)
    assert any("round #1 results" in text for text in posts)


async def test_a_weekly_round_in_the_room_gives_each_round_its_time_to_type(env: Env) -> None:
    """``/boggle schedule where:room``: the weekly rounds are played in the room as a
    ``/boggle start where:room`` round (pens down, then the time to type), the schedule
    keeps it, and a time to type for rounds played in Discord is refused."""
    with pytest.raises(InvalidInputError):
        await env.service.schedule.schedule_weekly(
            guild_id=GUILD,
            guild_name="club",
            channel_id=CHANNEL,
            created_by=HOST,
            weekday=1,
            at="7pm",
            entry_time="2m",
        )
    info = await env.service.schedule.schedule_weekly(
        guild_id=GUILD,
        guild_name="club",
        channel_id=CHANNEL,
        created_by=HOST,
        weekday=1,
        at="7pm",
        duration="3m",
        where="room",
        entry_time="90s",
    )
    assert info.entry_s == 90
    assert "Played in the room" in schedule_reply(info, ANNOUNCE_LEAD)
    occurrence = info.next_at
    env.clock.now = occurrence - ANNOUNCE_LEAD
    assert await env.run_due() == [JOB_WEEKLY]
    env.clock.now = occurrence
    assert await env.run_due() == [JOB_OPEN]
    [record] = await env.rounds()
    assert record.status == "open" and record.entry_s == 90
    assert record.ends_at == occurrence + timedelta(minutes=3, seconds=90)
    [job] = await env.jobs(JOB_ENTRY)
    assert job.due_at == occurrence + timedelta(minutes=3)  # pens down
    # The next week's round is played in the room too.
    async with env.factory() as session:
        schedule = (await session.execute(select(BoggleScheduleRecord))).scalar_one()
        assert schedule.entry_s == 90
