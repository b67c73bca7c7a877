"""A club session over real boards (issue #29) through the loopback Discord: the
moderator opens a session in the room with boards of two pairs, eight members sign
up as four pairs, and the two boards are entered play by play from two conformance
GCG games with ``/tally`` in their threads, by either partner. Every running
total is the record's; a side corrects its last entry; a blank entered as a letter is
corrected by the director at the end and every later total recomputed to the record's;
the bot restarts between entries; bad entries are refused privately with the engine's
words and change nothing; the tiles left on the racks end each board by RULES.md's
rule, and the session's results rank the four pairs across both boards."""

from __future__ import annotations

import json
import shutil
import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.web.screen import ScreenBoard
from engines.scrabble import ScrabbleError, ScrabbleGame, ScrabbleOptions
from tests.clock import FakeClock
from tests.e2e.club import Club, open_club
from tests.engines.scrabble.room_support import TallyEntry, TallyGame, clean_games


@pytest.fixture
async def club(
    loopback: Any, tmp_path: Path, clock: FakeClock, migrated_sqlite_template: Path
) -> AsyncIterator[Club]:
    shutil.copyfile(migrated_sqlite_template, tmp_path / "club.db")
    async for c in open_club(loopback, tmp_path, clock, extra_members=2):
        yield c


def rows(db_path: Path, sql: str, *args: Any) -> list[tuple[Any, ...]]:
    with sqlite3.connect(db_path) as db:
        return db.execute(sql, args).fetchall()


def state_of(db_path: Path, game_id: int) -> tuple[ScrabbleGame, int]:
    ((state, version),) = rows(db_path, "select state, version from games where id = ?", game_id)
    return ScrabbleGame.from_json(json.loads(state)["engine"]), version


async def answer(ix: Any) -> str:
    response = await ix.wait_response()
    if response.deferred:
        await ix.wait_done()
    assert (ix.followups[-1] if ix.followups else response).ephemeral
    return (ix.followups[-1].content if ix.followups else response.content) or ""


LATER = 2  # entries made after the slip before the director corrects it


def misentered_blank(record: TallyGame) -> int:
    """The index of a play with a blank that, typed as a plain letter instead, leaves the
    next ``LATER`` entries standing (the mistake the director corrects)."""
    for index, e in enumerate(record.entries):
        if e.kind != "play" or e.word == e.word.upper():
            continue
        game = ScrabbleGame.new(ScrabbleOptions(room=True), 1)
        try:
            for j, other in enumerate(record.entries[: index + 1 + LATER]):
                word = other.word.upper() if j == index else other.typed
                if other.kind == "play":
                    game.play(other.seat, word, other.position)
                elif other.kind == "pass":
                    game.pass_turn(other.seat)
                elif other.kind == "exchange":
                    game.exchange(other.seat, str(other.count))
        except ScrabbleError:
            continue
        return index
    raise AssertionError(f"{record.name}: no blank to mis-enter")


class Table:
    """A board in the room: its game, thread and the members of its two sides."""

    def __init__(self, club: Club, game_id: int, thread: Any) -> None:
        self.club = club
        self.game_id = game_id
        self.thread = thread
        users = {u.id: u for u in club.members.values()}
        self.sides: dict[int, list[Any]] = {}
        for seat, user in rows(
            club.db_path,
            "select seat, user_id from game_seats where game_id = ? order by seat, user_id",
            game_id,
        ):
            self.sides.setdefault(seat, []).append(users[user])
        self.turns = 0

    def engine(self) -> ScrabbleGame:
        return state_of(self.club.db_path, self.game_id)[0]

    async def enter(self, e: TallyEntry, *, word: str | None = None) -> str:
        member = self.sides[e.seat][self.turns % 2]  # the partners take turns entering
        self.turns += 1
        dc = self.club.dc
        if e.kind == "play":
            ix = await dc.slash(
                member,
                self.thread,
                "tally play",
                word=word or e.typed,
                position=e.position,
            )
        elif e.kind == "pass":
            ix = await dc.slash(member, self.thread, "tally pass")
        elif e.kind == "exchange":
            ix = await dc.slash(member, self.thread, "tally exchange", count=e.count)
        else:
            ix = await dc.slash(member, self.thread, "tally rack", tiles=e.tiles)
        return await answer(ix)


async def test_a_session_in_the_room_tallies_two_recorded_games_to_the_ranking(club) -> None:
    await club.start()
    dc = club.dc
    m = club.members
    names = list(m)
    assert len(names) == 8

    opened = await dc.slash(
        club.moderator, club.channel, "scrabble session open", where="room", pairs=2
    )
    assert "over the board (the bot keeps the tally)" in opened.original.content
    for first, second in zip(names[0::2], names[1::2], strict=True):
        await dc.slash(m[first], club.channel, "scrabble session signup", partner=m[second])
    formed = await dc.slash(club.moderator, club.channel, "scrabble session start")
    assert formed.answer.content.count("(2 pairs)") == 2
    await dc.slash(club.moderator, club.channel, "scrabble session start")
    await dc.wait_for_message(
        channel=club.channel,
        predicate=lambda x: "Where everyone plays" in (x.content or ""),
        timeout=15,
    )
    boards_rows = rows(
        club.db_path,
        "select b.game_id, g.thread_id from session_boards b join games g on g.id = b.game_id "
        "order by b.number",
    )
    threads = {t.id: t for t in dc.threads_in(club.channel)}
    one, two = (Table(club, game, threads[thread]) for game, thread in boards_rows)
    assert one.engine().options.room

    games = clean_games()
    first, second = games[0], games[4]  # second has an exchange

    # Bad entries are refused privately with the engine's words; nothing changes.
    before = state_of(club.db_path, one.game_id)[1]
    opening = first.entries[0]
    for word, position, said in (
        ("QUIZ", "1A", "H8"),  # the first play must cover the centre square
        ("ZEBRAS", "1K", "off the board"),
        ("AB", "16A", "Row 16 is off the board"),
    ):
        bad = await dc.slash(
            one.sides[opening.seat][0],
            one.thread,
            "tally play",
            word=word,
            position=position,
        )
        assert said in await answer(bad)
    assert state_of(club.db_path, one.game_id)[1] == before

    # Board 1 entered play by play; the bot restarts half-way.
    for index, e in enumerate(first.entries[:-1]):
        if index == len(first.entries) // 2:
            await club.restart()
        told = await one.enter(e)
        assert e.totals is not None
        assert tuple(one.engine().scores) == e.totals, (index, e, told)
        assert f"**{e.totals[e.seat]}**" in told or e.kind == "challenge"
        if index == 4:
            # The side that entered it corrects its last entry (it first said pass).
            wrong_side = one.sides[e.seat][0]
            redo = TallyEntry("pass", e.seat)
            oops = await dc.slash(wrong_side, one.thread, "tally correct", passed=True)
            assert "Entry 5 corrected" in await answer(oops)
            assert one.engine().moves[-1]["type"] == "pass"
            fixed = await dc.slash(
                wrong_side, one.thread, "tally correct", word=e.typed, position=e.position
            )
            assert "Entry 5 corrected" in await answer(fixed)
            assert tuple(one.engine().scores) == e.totals
            del redo
    # An entry by the wrong side, and a correction of an older entry by a side: refused.
    nxt = first.entries[-1]
    assert nxt.kind == "rack"
    not_yours = await dc.slash(
        one.sides[1 - nxt.seat][0], one.thread, "tally correct", entry=1, passed=True
    )
    assert "Only the last entry can be corrected" in await answer(not_yours)

    # The room's screen: both boards with their scores (board 1 waiting for a rack); the
    # ranking across boards as it stands.
    assert club.bot is not None
    screen = await ScreenBoard(club.bot.ctx).shown(club.guild.id)
    assert screen["panel"] == "session"
    one_seats = screen["boards"][0]["seats"]
    for seat, users in sorted(one.sides.items()):
        shown = next(s for s in one_seats if users[0].name in s)
        assert shown.endswith(f": {one.engine().scores[seat]}")
    assert screen["boards"][1]["turn"] is None  # no entry yet: whoever plays first enters
    standing = first.entries[-2].totals
    assert standing is not None
    assert [row[2] for row in screen["ranking"][:2]] == [
        str(s) for s in sorted(standing, reverse=True)
    ]

    # Board 2: a blank entered as a plain letter; the director corrects it two entries later.
    slip = misentered_blank(second)
    for index, e in enumerate(second.entries[: slip + 1 + LATER]):
        await two.enter(e, word=e.word.upper() if index == slip else None)
        if index < slip:
            assert tuple(two.engine().scores) == e.totals
    assert tuple(two.engine().scores) != second.entries[slip + LATER].totals  # the slip counts
    e = second.entries[slip]
    director = await dc.slash(
        club.moderator,
        two.thread,
        "tally correct",
        entry=slip + 1,
        word=e.typed,
        position=e.position,
    )
    assert f"Entry {slip + 1} corrected" in await answer(director)
    assert tuple(two.engine().scores) == second.entries[slip + LATER].totals
    screen = await ScreenBoard(club.bot.ctx).shown(club.guild.id)
    two_seats = screen["boards"][1]["seats"]
    for seat, users in sorted(two.sides.items()):
        shown = next(s for s in two_seats if users[0].name in s)
        assert shown.endswith(f": {second.entries[slip + LATER].totals[seat]}")
        assert screen["boards"][1]["turn_due"] is not None  # the turn clock runs
    for e in second.entries[slip + 1 + LATER : -1]:
        await two.enter(e)
        assert tuple(two.engine().scores) == e.totals
    game = two.engine()
    # Every running total on the tally is the record's after the correction.
    totals = [0, 0]
    for move, entry in zip(
        (x for x in game.moves if not x.get("auto") and x["type"] != "accept"),
        second.entries[:-1],
        strict=True,
    ):
        totals[move["seat"]] += move["score"]
        assert tuple(totals) == entry.totals
    posted = await dc.wait_for_message(
        channel=two.thread,
        predicate=lambda x: f"corrected entry {slip + 1}" in (x.content or ""),
        timeout=10,
    )
    assert "The director" in posted.content and not posted.pings

    # The tiles left on the racks end both boards; the results rank all four pairs.
    for table, record in ((one, first), (two, second)):
        told = await table.enter(record.entries[-1])
        game = table.engine()
        assert game.status == "finished", told
        result = game.result()
        assert result is not None and result.final_scores == record.finals
    club.clock.advance(minutes=1)
    await club.tick()
    results = await dc.wait_for_message(
        channel=club.channel,
        predicate=lambda x: "Club session results" in (x.content or ""),
        timeout=15,
    )
    ranked = sorted([*first.finals, *second.finals], reverse=True)
    order = [line for line in results.content.splitlines() if line[:2].rstrip(".").isdigit()]
    assert len(order) == 4
    for line, score in zip(order, ranked, strict=True):
        assert str(score) in line
    shown = await dc.slash(
        m[names[0]],
        club.channel,
        "tally show",
        game=str(rows(club.db_path, "select number from games where id = ?", one.game_id)[0][0]),
    )
    text = await answer(shown)
    assert "these are the final scores" in text


async def test_a_side_resigns_a_board_in_the_room_with_tally_resign(club) -> None:
    """``/tally resign`` (as ``/scrabble resign``): the side's answer is private, the
    board is over with no rack to enter, and a member of another board is refused
    privately with nothing changed."""
    await club.start()
    dc = club.dc
    m = club.members
    names = list(m)
    await dc.slash(club.moderator, club.channel, "scrabble session open", where="room", pairs=2)
    for first, second in zip(names[0::2], names[1::2], strict=True):
        await dc.slash(m[first], club.channel, "scrabble session signup", partner=m[second])
    await dc.slash(club.moderator, club.channel, "scrabble session start")
    await dc.slash(club.moderator, club.channel, "scrabble session start")
    await dc.wait_for_message(
        channel=club.channel,
        predicate=lambda x: "Where everyone plays" in (x.content or ""),
        timeout=15,
    )
    boards_rows = rows(
        club.db_path,
        "select b.game_id, g.thread_id from session_boards b join games g on g.id = b.game_id "
        "order by b.number",
    )
    threads = {t.id: t for t in dc.threads_in(club.channel)}
    one, two = (Table(club, game, threads[thread]) for game, thread in boards_rows)
    opening = clean_games()[0].entries[0]
    await one.enter(opening)
    before = state_of(club.db_path, one.game_id)[1]
    refused = await dc.slash(two.sides[0][0], one.thread, "tally resign")
    assert "not yours" in await answer(refused)
    assert state_of(club.db_path, one.game_id)[1] == before
    resigned = await dc.slash(one.sides[1][1], one.thread, "tally resign")
    told = await answer(resigned)
    assert "You resigned from the game." in told
    game = one.engine()
    assert game.status == "finished" and game.moves[-1]["type"] == "resign"
    ((status,),) = rows(club.db_path, "select status from games where id = ?", one.game_id)
    assert status == "finished"
    assert two.engine().status != "finished"
