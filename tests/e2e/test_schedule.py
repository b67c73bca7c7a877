"""Issue #30: agreeing a game's time, and the server's scheduled events, through the
loopback Discord with the real bot.

In a tournament game on a correspondence clock a player proposes times (``/schedule
propose``, in the club's time zone); an opponent accepts one with a button on the
proposal, after a restart; a second proposal replaces the first; the agreed time is
posted in the game's thread and shown on ``/mygames``; both players are reminded an
hour before (the thread when DMs are closed). A past time, one after the round's
deadline and a non-player's press are refused privately. Where the bot may manage
events, a tournament round and a club session are Discord scheduled events, made
(after Discord fails once) and deleted with them; where it may not, nothing is asked.
"""

from __future__ import annotations

import re
import sqlite3
from datetime import UTC, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from tests.e2e.club import Club
from tests.loopback.records import MANAGE_EVENTS

MANILA = ZoneInfo("Asia/Manila")


def _rows(club: Club, sql: str, *args: Any) -> list[tuple[Any, ...]]:
    with sqlite3.connect(club.db_path) as db:
        return list(db.execute(sql, args))


def _stamp(moment: datetime, style: str = "F") -> str:
    return f"<t:{int(moment.timestamp())}:{style}>"


def _tomorrow_at(club: Club, hour: int, minute: int = 0) -> datetime:
    """Tomorrow at ``hour:minute`` in Manila, as the bot reads "tomorrow 3pm"."""
    local = club.clock().astimezone(MANILA).date() + timedelta(days=1)
    return datetime(local.year, local.month, local.day, hour, minute, tzinfo=MANILA).astimezone(UTC)


async def _chess_tournament(club: Club, name: str = "Winter RR") -> tuple[int, Any]:
    """A two-player correspondence round robin, started: its id and the game's thread."""
    dc = club.dc
    ix = await dc.slash(
        club.moderator,
        club.channel,
        "tournament new",
        game="chess",
        format="round_robin",
        time_control="3d",
        deadline="7d",
        name=name,
    )
    found = re.search(r"tournament #(\d+)", ix.answer.content) or re.search(
        r"\(#(\d+)\)", ix.answer.content
    )
    assert found, ix.answer.content
    tid = int(found[1])
    post = await dc.wait_for_message(
        club.channel, predicate=lambda m: f"(tournament #{tid})" in m.content
    )
    for member in ("alice", "bob"):
        joined = await dc.click(club.members[member], post, f"tournament:join:{tid}")
        assert joined.answer.ephemeral, joined.response
    started = await dc.slash(club.moderator, club.channel, "tournament start")
    assert started.answer.ephemeral, started.response
    thread = await dc.wait_until(
        # The round's one game (its name is in the club's language: any thread of the channel).
        lambda: next(iter(dc.threads_in(club.channel)), None),
        timeout=10,
        what="the round's game thread",
    )
    await dc.wait_until(
        lambda: any(m.attachments for m in dc.messages_in(thread)), what="the first board"
    )
    return tid, thread


def _under_way(club: Club) -> list[dict[str, Any]]:
    """The guild's scheduled events, once every one is shown as under way (status 2)."""
    events = club.dc.scheduled_events_in(club.guild)
    return events if events and all(e["status"] == 2 for e in events) else []


def _proposals(club: Club, thread: Any) -> list[Any]:
    return [
        m
        for m in club.dc.messages_in(thread)
        if m.author.id == club.dc.bot_user.id and "proposes a time" in m.content
    ]


async def test_a_time_is_proposed_replaced_accepted_after_a_restart_and_reminded(
    club: Club,
) -> None:
    dc = club.dc
    alice, bob, carol = club.members["alice"], club.members["bob"], club.members["carol"]
    await club.start()
    ix = await dc.slash(club.moderator, club.channel, "club setup", timezone="Asia/Manila")
    assert ix.answer.ephemeral
    _tid, thread = await _chess_tournament(club)

    # Refused privately, nothing written: a past time, one after the round's deadline,
    # something unreadable, and a member who is not playing.
    past = await dc.slash(alice, thread, "schedule propose", when="2020-01-02 10:00")
    assert past.answer.ephemeral and "has passed already" in past.answer.content
    late_day = (club.clock() + timedelta(days=30)).astimezone(MANILA).strftime("%Y-%m-%d")
    late = await dc.slash(alice, thread, "schedule propose", when=f"{late_day} 10:00")
    assert late.answer.ephemeral and "after this game's deadline" in late.answer.content
    odd = await dc.slash(alice, thread, "schedule propose", when="whenever")
    assert odd.answer.ephemeral and "couldn't read `whenever`" in odd.answer.content
    assert "Asia/Manila" in odd.answer.content
    outsider = await dc.slash(carol, thread, "schedule propose", when="tomorrow 3pm")
    assert outsider.answer.ephemeral and "Only this game's players" in outsider.answer.content
    nothing = await dc.slash(bob, thread, "schedule accept")
    assert nothing.answer.ephemeral and "No time is proposed" in nothing.answer.content
    assert _rows(club, "select count(*) from time_proposals") == [(0,)]

    # The game option suggests the member's game, by its kind and number.
    suggestions = await dc.autocomplete(alice, club.channel, "schedule propose", focused="game")
    assert [s["value"] for s in suggestions] == ["chess:1"], suggestions

    first = await dc.slash(alice, thread, "schedule propose", when="tomorrow 3pm")
    assert first.answer.ephemeral and f"<#{thread.id}>" in first.answer.content
    (old,) = await dc.wait_until(lambda: _proposals(club, thread) or None, what="the proposal")
    assert _stamp(_tomorrow_at(club, 15)) in old.content
    assert old.pings == frozenset({f"user:{bob.id}"}), old.pings  # the opponent, nobody else

    second = await dc.slash(
        alice,
        club.channel,  # outside the thread: the game option names it
        "schedule propose",
        when="tomorrow 3pm",
        when2="tomorrow 19:30",
        game="chess:1",
    )
    assert second.answer.ephemeral, second.response
    new = await dc.wait_until(
        lambda: next((m for m in _proposals(club, thread) if m.id != old.id), None),
        what="the second proposal",
    )
    assert _stamp(_tomorrow_at(club, 19, 30)) in new.content
    new_ids = [c for c in new.custom_ids if c.startswith("schedule:accept:")]
    assert len(new_ids) == 2, new.custom_ids

    stale = await dc.click(bob, old, old.custom_ids[0])
    assert stale.answer.ephemeral and "replaced by a newer proposal" in stale.answer.content
    mine = await dc.click(alice, new, new_ids[1])
    assert mine.answer.ephemeral and "your own times" in mine.answer.content
    theirs = await dc.click(carol, new, new_ids[1])
    assert theirs.answer.ephemeral and "Only this game's players" in theirs.answer.content

    await club.restart()  # the proposal and its buttons live on
    agreed_at = _tomorrow_at(club, 19, 30)
    accepted = await dc.click(bob, new, new_ids[1])
    assert accepted.answer.ephemeral, accepted.response
    assert accepted.answer.content == f"Agreed: {_stamp(agreed_at)}."
    post = await dc.wait_for_message(thread, predicate=lambda m: "accepted" in m.content)
    assert _stamp(agreed_at) in post.content and "reminder an hour before" in post.content
    await dc.wait_until(lambda: not dc.messages[new.id].custom_ids, what="its buttons gone")
    again = await dc.slash(bob, thread, "schedule accept", time=1)
    assert again.answer.ephemeral and "agreed already" in again.answer.content
    assert _rows(club, "select status from time_proposals order by id") == [
        ("replaced",),
        ("accepted",),
    ]

    listing = await dc.slash(bob, club.channel, "mygames")
    assert f"agreed time {_stamp(agreed_at, 'f')}" in listing.answer.content

    # An hour before: both are reminded; bob's DMs are closed, so the thread tells him.
    dc.close_dms(bob)
    club.clock.now = agreed_at - timedelta(hours=1, seconds=1)
    await club.tick()
    assert not [m for m in dc.dms_to(alice) if "Reminder" in m.content]
    club.clock.advance(seconds=2)
    await club.tick()
    reminder = await dc.wait_until(
        lambda: next((m for m in dc.dms_to(alice) if "Reminder" in m.content), None),
        what="alice's reminder",
    )
    assert "**Chess #1** against bob" in reminder.content and _stamp(agreed_at) in reminder.content
    fallback = await dc.wait_for_message(thread, predicate=lambda m: "reminder:" in m.content)
    assert fallback.content.startswith(f"<@{bob.id}>")
    assert fallback.pings == frozenset({f"user:{bob.id}"})
    await club.tick()
    assert len([m for m in dc.dms_to(alice) if "Reminder" in m.content]) == 1  # once


async def test_a_tournament_round_and_a_session_are_scheduled_events_made_and_deleted(
    club: Club,
) -> None:
    dc = club.dc
    dc.grant_bot(club.guild, MANAGE_EVENTS)
    dc.fail_next("POST", r"/guilds/\d+/scheduled-events$", 500)  # Discord's trouble, once
    await club.start()
    tid, thread = await _chess_tournament(club, name="Spring RR")
    await club.tick()
    club.clock.advance(seconds=5)  # the failed sync's retry is due
    await club.tick()
    (event,) = await dc.wait_until(
        lambda: _under_way(club) or None, what="the round's event, under way"
    )
    assert event["name"] == "Spring RR: round 1"
    assert event["entity_metadata"] == {"location": "#games"}
    deadline = _rows(club, "select deadline from tournament_rounds where tournament_id = ?", tid)
    end = datetime.fromisoformat(event["scheduled_end_time"])
    assert abs(end - datetime.fromisoformat(deadline[0][0]).replace(tzinfo=UTC)) < timedelta(
        seconds=1
    )
    await dc.wait_until(
        lambda: _rows(club, "select discord_id from guild_events") == [(int(event["id"]),)],
        what="Discord's id kept",
    )

    # The director gives the round two more days: the event ends two days later.
    extended = await dc.slash(club.moderator, club.channel, "tournament extend", by="2d")
    assert extended.answer.ephemeral, extended.response
    later = (end + timedelta(days=2)).isoformat()
    await dc.wait_until(
        lambda: [e["scheduled_end_time"] for e in dc.scheduled_events_in(club.guild)] == [later],
        what="the event's end moved",
    )
    assert dc.scheduled_events_in(club.guild)[0]["id"] == event["id"]  # the same event

    # The round's only game ends: the round, the tournament and the event with it.
    ix = await dc.slash(club.members["bob"], thread, "chess resign")
    assert "resign" in (ix.answer.content or "").lower()
    await dc.wait_until(lambda: not dc.scheduled_events_in(club.guild), what="the event gone")
    over = await dc.slash(club.members["alice"], thread, "schedule propose", when="tomorrow 3pm")
    assert over.answer.ephemeral and over.answer.content.startswith("Chess #1 is over")

    # A club session: an event from its start to its deadline, deleted when it ends.
    await dc.slash(club.moderator, club.channel, "scrabble session open", length="80m")
    for name in ("alice", "bob", "carol", "dave"):
        await dc.slash(club.members[name], club.channel, "scrabble session signup")
    await dc.slash(club.moderator, club.channel, "scrabble session start")  # formed
    # Made, then Discord fails before it is shown as under way (as if the bot stopped
    # before keeping its id): the retry finds the event it made instead of making another.
    dc.fail_next("PATCH", r"/guilds/\d+/scheduled-events/\d+$", 500)
    await dc.slash(club.moderator, club.channel, "scrabble session start")  # the boards
    await dc.wait_until(
        lambda: any(r.method == "PATCH" and r.status == 500 for r in dc.requests),
        what="the failed edit",
    )
    club.clock.advance(seconds=5)
    await club.tick()
    (session_event,) = await dc.wait_until(
        lambda: _under_way(club) or None, what="the session's event, under way"
    )
    assert session_event["name"] == "Scrabble session"
    start = datetime.fromisoformat(session_event["scheduled_start_time"])
    end = datetime.fromisoformat(session_event["scheduled_end_time"])
    assert end - start <= timedelta(minutes=80)
    ended = await dc.slash(club.moderator, club.channel, "scrabble session end")
    assert ended.response is not None
    # Its boards end in jobs of their own, then the event goes: a loaded machine takes a while.
    await dc.wait_until(
        lambda: not dc.scheduled_events_in(club.guild), timeout=30, what="its event gone"
    )
    posts = [r for r in dc.requests if r.method == "POST" and "scheduled-events" in r.path]
    assert [r.status for r in posts] == [500, 200, 200]  # made once each, after the failures


async def test_without_manage_events_no_event_is_asked_for_and_the_round_plays_on(
    club: Club,
) -> None:
    dc = club.dc
    await club.start()
    _tid, thread = await _chess_tournament(club)
    await club.tick()
    synced = "select count(*) from guild_events where synced_version = version"
    await dc.wait_until(lambda: _rows(club, synced) == [(1,)], what="the event's sync job")
    assert _rows(club, "select discord_id from guild_events") == [(None,)]  # skipped
    assert not [r for r in dc.requests if "scheduled-events" in r.path]
    proposed = await dc.slash(club.members["bob"], thread, "schedule propose", when="tomorrow 3pm")
    assert proposed.answer.ephemeral and "proposed" in proposed.answer.content
