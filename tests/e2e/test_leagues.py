"""Leagues through the loopback Discord (issue #30's "done when"): two seasons of a
14-member Scrabble league with the clock moved forward.

Season 1: fourteen members in divisions of 6 make three divisions (5, 5 and 4), every
game started at once, each in its thread. The games end by script (the loser
resigns, so in every division the member who joined later wins), one member
withdraws mid-season (unplayed games forfeited, the played one stands), the director
adjudicates one game still in play, and one game is left to the deadline rule. At the
season's end (the clock moved four weeks on, the timers run) the top one of each
division goes up and the bottom one down, the results post, each division's winner
is in /stats, and season 2 opens for sign-up with everyone who stays. Season 2's
divisions are checked, played, and its end opens season 3. Then a chess league of
pairs plays one season.
"""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.club import Club, open_club

THREAD = re.compile(r"^R1 B(?P<board>\d+) · (?P<first>\S+) vs (?P<second>\S+)$")
FIRST = ["alice", "bob", "carol", "dave", "erin"]
SECOND = ["frank", "gina", "hugo", "iris", "jose"]
THIRD = ["kate", "leon", "mila", "noel"]
EVERYONE = FIRST + SECOND + THIRD


@pytest.fixture
async def club(loopback: Any, tmp_path: Path, clock: Any):
    async for c in open_club(loopback, tmp_path, clock, extra_members=8):
        yield c


def _bot_posts(club: Club, needle: str) -> list[Any]:
    return [
        m
        for m in club.dc.messages_in(club.channel)
        if m.author.id == club.dc.bot_user.id and needle in (m.content or "")
    ]


def _divisions(db: Path, season: int) -> list[set[str]]:
    """Season ``season``'s divisions, top first, as the members' names."""
    with sqlite3.connect(db) as con:
        rows = con.execute(
            "SELECT d.number, e.label FROM league_divisions d"
            " JOIN league_seasons s ON s.id = d.season_id"
            " JOIN tournament_entrants e ON e.tournament_id = d.tournament_id"
            " WHERE s.number = ? ORDER BY d.number",
            (season,),
        ).fetchall()
    out: dict[int, set[str]] = {}
    for number, label in rows:
        out.setdefault(number, set()).add(label)
    return [out[k] for k in sorted(out)]


def _scored(db: Path, season: int) -> int:
    """How many of season ``season``'s games have their result recorded."""
    with sqlite3.connect(db) as con:
        (count,) = con.execute(
            "SELECT count(*) FROM tournament_pairings p"
            " JOIN league_divisions d ON d.tournament_id = p.tournament_id"
            " JOIN league_seasons s ON s.id = d.season_id"
            " WHERE s.number = ? AND p.score IS NOT NULL",
            (season,),
        ).fetchone()
    return int(count)


def _game_status(db: Path, thread_id: int) -> str:
    with sqlite3.connect(db) as con:
        (status,) = con.execute(
            "SELECT status FROM games WHERE thread_id = ?", (thread_id,)
        ).fetchone()
    return str(status)


async def _games(club: Club, count: int) -> dict[frozenset[str], Any]:
    """The season's game threads once open, by the pair of members playing: each has its
    first board."""
    dc = club.dc

    def threads() -> list[Any] | None:
        found = [
            t
            for t in dc.threads_in(club.channel)
            if THREAD.match(t.name) and t.id not in club.__dict__.setdefault("seen", set())
        ]
        return found if len(found) >= count else None

    found = await dc.wait_until(threads, timeout=60, what=f"{count} game threads")
    games = {}
    for thread in found:
        match = THREAD.match(thread.name)
        assert match
        await dc.wait_until(
            lambda t=thread: any(
                m.author.id == dc.bot_user.id and m.attachments for m in dc.messages_in(t)
            ),
            timeout=30,
            what=f"the first board in {thread.name}",
        )
        games[frozenset((match["first"], match["second"]))] = thread
        club.__dict__["seen"].add(thread.id)
    assert len(games) == count
    return games


async def _resign(club: Club, thread: Any, loser: str) -> None:
    ix = await club.dc.slash(club.members[loser], thread, "scrabble resign")
    assert ix.response is not None, ix


def _later_wins(order: list[str], a: str, b: str) -> tuple[str, str]:
    """(winner, loser): in every division the member who joined later wins."""
    return (a, b) if order.index(a) > order.index(b) else (b, a)


async def _end_season(club: Club) -> None:
    club.clock.advance(weeks=4, minutes=1)
    for _ in range(4):  # the deadline, then the division's finish, then the season's end
        await club.tick()


async def test_two_seasons_of_a_fourteen_member_scrabble_league(club: Club) -> None:
    await club.start()
    dc, host = club.dc, club.moderator

    ix = await dc.slash(host, club.channel, "league new", game="scrabble", name="Winter League")
    assert ix.answer.ephemeral and "season 1 is open for sign-up" in ix.answer.content, ix.response
    ix = await dc.slash(club.members["alice"], club.channel, "league start")
    assert ix.answer.ephemeral and "director" in ix.answer.content  # not hers to start
    for name in EVERYONE:
        ix = await dc.slash(club.members[name], club.channel, "league join")
        assert "you're in season 1" in ix.answer.content, ix.answer.content
    ix = await dc.slash(club.members["alice"], club.channel, "league join")
    assert ix.answer.ephemeral and "already" in ix.answer.content  # once each

    ix = await dc.slash(host, club.channel, "league start")
    assert "14 entrants in 3 divisions (5, 5, 4)" in ix.answer.content, ix.answer.content
    # Equal ratings: placed in the order they joined, strongest first.
    assert _divisions(club.db_path, 1) == [set(FIRST), set(SECOND), set(THIRD)]
    games = await _games(club, 10 + 10 + 6)
    ix = await dc.slash(club.members["gina"], club.channel, "league join")
    assert ix.answer.ephemeral and "under way" in ix.answer.content

    # Division 1: bob beats alice, then withdraws: his three games to play are forfeited.
    await _resign(club, games[frozenset(("alice", "bob"))], "alice")
    await dc.wait_until(
        lambda: _game_status(club.db_path, games[frozenset(("alice", "bob"))].id) == "finished",
        timeout=30,
        what="alice's resignation",
    )
    ix = await dc.slash(club.members["bob"], club.channel, "league withdraw")
    assert "3 games" in ix.answer.content and "next season" in ix.answer.content, ix.answer.content
    left_open = {frozenset(("hugo", "iris")), frozenset(("kate", "leon"))}
    for division in (FIRST, SECOND, THIRD):
        for pair, thread in games.items():
            if not pair <= set(division) or "bob" in pair or pair in left_open:
                continue
            _winner, loser = _later_wins(division, *sorted(pair))
            await _resign(club, thread, loser)
    # Division 2's hugo–iris is adjudicated by the director while in play; division 3's
    # kate–leon is left to the deadline (no tile down: the scores as they stand, a draw).
    ix = await dc.slash(
        club.members["hugo"],
        club.channel,
        "league adjudicate",
        member=club.members["iris"],
        opponent=club.members["hugo"],
        result="win",
    )
    assert ix.answer.ephemeral and "director" in ix.answer.content
    ix = await dc.slash(
        host,
        club.channel,
        "league adjudicate",
        member=club.members["iris"],
        opponent=club.members["hugo"],
        result="win",
    )
    assert "adjudicated by the director" in ix.answer.content, ix.answer.content

    # Each finish is recorded by a job of its own: every result but kate–leon's is in.
    await dc.wait_until(
        lambda: _scored(club.db_path, 1) == 25, timeout=30, what="25 results recorded"
    )
    ix = await dc.slash(club.members["kate"], club.channel, "league standings")
    assert "season 1 (under way)" in ix.answer.content
    assert "Division 3 (5 of 6 games played)" in ix.answer.content, ix.answer.content

    # The season's end: nothing moves before its date.
    await club.tick()
    assert not _bot_posts(club, "season 1: the results")
    await _end_season(club)
    (results,) = await dc.wait_until(
        lambda: _bot_posts(club, "season 1: the results"), timeout=30, what="season 1's results"
    )
    text = results.content
    assert "Division 1: won by erin · down: alice" in text, text
    assert "Division 2: won by jose · up: jose · down: frank" in text, text
    assert "Division 3: won by noel · up: noel" in text, text
    assert "12 entries who stay are entered already" not in text
    assert "13 entries who stay are entered already" in text, text
    assert _game_status(club.db_path, games[frozenset(("kate", "leon"))].id) == "finished"
    for name in ("erin", "jose", "noel"):
        stats = await dc.slash(club.members[name], club.channel, "stats")
        fields = {f["name"]: f["value"] for e in stats.answer.embeds for f in e.get("fields", [])}
        assert "**1** division won in 1 league season played" in fields["Leagues"], fields

    # Season 2: everyone who stays is entered; bob is not. The moves stand.
    ix = await dc.slash(club.members["bob"], club.channel, "league season")
    assert "season 2: open for sign-up" in ix.answer.content and "13 entered" in ix.answer.content
    ix = await dc.slash(host, club.channel, "league start")
    assert "13 entrants in 3 divisions (4, 5, 4)" in ix.answer.content, ix.answer.content
    second = _divisions(club.db_path, 2)
    assert second == [
        {"erin", "dave", "carol", "jose"},
        {"alice", "iris", "hugo", "gina", "noel"},
        {"frank", "mila", "leon", "kate"},
    ], second
    order = [sorted(d) for d in second]
    games = await _games(club, 6 + 10 + 6)
    for division in order:
        for pair, thread in games.items():
            if pair <= set(division):
                _winner, loser = _later_wins(division, *sorted(pair))
                await _resign(club, thread, loser)
    await dc.wait_until(
        lambda: _scored(club.db_path, 2) == 22, timeout=30, what="22 results recorded"
    )
    await _end_season(club)
    (results,) = await dc.wait_until(
        lambda: _bot_posts(club, "season 2: the results"), timeout=30, what="season 2's results"
    )
    # Alphabetical order in each division decides: the last name wins.
    assert "Division 1: won by jose · down: carol" in results.content, results.content
    assert "Division 2: won by noel · up: noel · down: alice" in results.content
    assert "Division 3: won by mila · up: mila" in results.content
    ix = await dc.slash(host, club.channel, "league season")
    assert "season 3: open for sign-up" in ix.answer.content and "13 entered" in ix.answer.content


CHESS_PAIRS = [("alice", "bob"), ("carol", "dave"), ("erin", "frank"), ("gina", "hugo")]


async def test_a_chess_league_of_pairs_plays_a_season(club: Club) -> None:
    """Four pairs, one division of four: six correspondence games, colours balanced;
    either partner resigns for the pair; the winners are both partners."""
    await club.start()
    dc, host = club.dc, club.moderator
    ix = await dc.slash(
        host, club.channel, "league new", game="chess", name="Pairs League", pairs=True, weeks=2
    )
    assert "season 1 is open for sign-up" in ix.answer.content, ix.answer.content
    ix = await dc.slash(club.members["alice"], club.channel, "league join")
    assert ix.answer.ephemeral and "for pairs" in ix.answer.content  # a partner is needed
    for first, second in CHESS_PAIRS:
        ix = await dc.slash(
            club.members[first], club.channel, "league join", partner=club.members[second]
        )
        assert "you're in season 1" in ix.answer.content, ix.answer.content
    ix = await dc.slash(host, club.channel, "league start")
    assert "4 entrants in 1 division (4)" in ix.answer.content, ix.answer.content

    def threads() -> list[Any] | None:
        found = [t for t in dc.threads_in(club.channel) if t.name.startswith("R1 B")]
        return found if len(found) >= 6 else None

    found = await dc.wait_until(threads, timeout=60, what="six game threads")
    labels = [f"{a} & {b}" for a, b in CHESS_PAIRS]
    whites: dict[str, int] = dict.fromkeys(labels, 0)
    for thread in found:
        first, second = thread.name.split(" · ", 1)[1].split(" vs ")
        whites[first] += 1
        # The pair listed later always wins; the loser's second partner resigns for it.
        loser = first if labels.index(first) < labels.index(second) else second
        await dc.wait_until(
            lambda t=thread: any(m.author.id == dc.bot_user.id for m in dc.messages_in(t)),
            timeout=30,
            what=f"the first board in {thread.name}",
        )
        ix = await dc.slash(club.members[loser.split(" & ")[1]], thread, "chess resign")
        assert ix.response is not None
    assert sorted(whites.values()) == [
        1,
        1,
        2,
        2,
    ]  # White balanced: each pair plays it once or twice

    await dc.wait_until(
        lambda: _scored(club.db_path, 1) == 6, timeout=30, what="6 results recorded"
    )
    club.clock.advance(weeks=2, minutes=1)
    for _ in range(4):
        await club.tick()
    (results,) = await dc.wait_until(
        lambda: _bot_posts(club, "season 1: the results"), timeout=30, what="season 1's results"
    )
    assert "Division 1: won by gina & hugo" in results.content, results.content
    assert "4 entries who stay are entered already" in results.content
    for name in ("gina", "hugo"):
        stats = await dc.slash(club.members[name], club.channel, "stats")
        fields = {f["name"]: f["value"] for e in stats.answer.embeds for f in e.get("fields", [])}
        assert "**1** division won" in fields["Leagues"], fields
