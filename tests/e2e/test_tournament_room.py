"""Chess over the board through the loopback Discord (issue #29's "done when": an
over-the-board chess round with one result conflict resolved by the director).

The real bot pairs a small Swiss made with ``where: room``: it posts each round's
boards (the first named has White, and I won / Draw / I lost buttons) and makes
no game or thread; each player reports their own result with ``/tournament
result`` or those buttons. Agreeing reports record a board, differing ones reach
the director (pinged with the two players only), who settles it with
``/tournament adjudicate``; then the round is done as any round: the standings,
the next round paired. A restart between two reports loses nothing; an earlier
round's button is refused.
"""

from __future__ import annotations

import re
from typing import Any

from sqlalchemy import select

from bot.db.models import GameRecord, ResultRecord
from tests.e2e.club import Club
from tests.e2e.test_tournaments import _bot_posts, _join_all, _new, _table_points

ROW = re.compile(r"^\s*(?P<board>\d+)\. (?P<white>\S+)\s+– (?P<black>\S+)\s")


def _boards(club: Club, text: str) -> dict[int, tuple[Any, Any]]:
    """A pairings post's boards: board -> (White, Black) as members."""
    by_name = {u.name: u for u in club.members.values()}
    boards = {}
    for line in text.splitlines():
        match = ROW.match(line)
        if match:
            boards[int(match["board"])] = (by_name[match["white"]], by_name[match["black"]])
    return boards


async def _report(club: Club, user: Any, result: str) -> str:
    ix = await club.dc.slash(user, club.channel, "tournament result", result=result)
    assert ix.answer.ephemeral, ix.response
    return str(ix.answer.content)


async def test_an_over_the_board_swiss_round_with_a_conflict_the_director_settles(
    club: Club,
) -> None:
    await club.start()
    dc = club.dc
    tid, post = await _new(
        club, game="chess", format="swiss", rounds=2, where="room", name="Club Night"
    )
    assert "games on the room's boards" in post.content and "/tournament result" in post.content
    players = await _join_all(club, tid, post, ["alice", "bob", "carol", "dave"])
    ix = await dc.slash(club.moderator, club.channel, "tournament start")
    assert "4 entrants, 2 rounds." in ix.answer.content, ix.answer.content
    assert "/print/" not in ix.answer.content  # the club's web page is off

    (paired,) = await dc.wait_until(
        lambda: _bot_posts(club, "round 1 of 2: pairings"), what="round 1's pairings"
    )
    assert "the first named on a board has White" in paired.content
    boards = _boards(club, paired.content)
    assert sorted(boards) == [1, 2]
    assert sorted(u.name for pair in boards.values() for u in pair) == sorted(
        u.name for u in players
    )

    # Refusals: someone not playing, and the director (not a player) reporting.
    text = await _report(club, club.members["erin"], "win")
    assert "You are not playing in Club Night" in text
    text = await _report(club, club.moderator, "draw")
    assert "You are not playing" in text

    # Board 1: White reports a win, changes it to a draw; the bot restarts; Black agrees.
    white, black = boards[1]
    assert "Noted: a win for you in round 1, board 1" in await _report(club, white, "win")
    assert "Noted: a draw" in await _report(club, white, "draw")
    await club.restart()
    ix = await dc.click(black, paired, f"tournament:report:{tid}:1:draw")  # the post's Draw
    assert ix.answer.ephemeral, ix.response
    assert "Both reports agree: round 1, board 1 ends ½–½. Recorded." in ix.answer.content
    (agreed,) = await dc.wait_until(
        lambda: _bot_posts(club, "round 1, board 1: "), what="board 1's result"
    )
    assert f"{white.name} ½–½ {black.name} (over the board)" in agreed.content
    # Rated as a game: equal ratings drawing stay where they were.
    assert f"Ratings: {white.name} 1500 → 1500, {black.name} 1500 → 1500" in agreed.content

    # Board 2: both claim the win. The director is told, with the two players.
    white2, black2 = boards[2]
    await _report(club, white2, "win")
    text = await _report(club, black2, "win")
    assert f"{white2.name} reported a different result, so board 2 goes to the director" in text
    (flagged,) = await dc.wait_until(
        lambda: _bot_posts(club, "the reports differ"), what="the conflict's post"
    )
    assert flagged.pings == frozenset(f"user:{u.id}" for u in (white2, black2, club.moderator)), (
        flagged.pings
    )
    assert "can no longer change" in await _report(club, white2, "draw")
    assert not _bot_posts(club, "standings after round 1")  # the round waits for the director

    ix = await dc.slash(white2, club.channel, "tournament adjudicate", member=white2, result="win")
    assert "director" in ix.answer.content  # not a player's to settle
    ix = await dc.slash(
        club.moderator, club.channel, "tournament adjudicate", member=white2, result="win"
    )
    assert ix.answer.ephemeral and "adjudicated a win" in ix.answer.content, ix.response

    # The round is done: standings, then round 2 paired (no rematch).
    (standings,) = await dc.wait_until(
        lambda: _bot_posts(club, "standings after round 1 of 2"), what="the standings"
    )
    assert _table_points(standings.content) == {
        white2.name: "1",
        white.name: "½",
        black.name: "½",
        black2.name: "0",
    }
    (second,) = await dc.wait_until(
        lambda: _bot_posts(club, "round 2 of 2: pairings"), what="round 2's pairings"
    )
    met = {frozenset((a.name, b.name)) for a, b in boards.values()}
    assert all(
        frozenset((a.name, b.name)) not in met for a, b in _boards(club, second.content).values()
    )
    text = await _report(club, white, "win")  # round 1 is over: this is round 2's report
    assert "round 2" in text
    ix = await dc.click(black, paired, f"tournament:report:{tid}:1:loss")  # round 1's button
    assert ix.answer.ephemeral and "Round 1 is over" in ix.answer.content, ix.response

    # No game was made in Discord; the two boards were rated as games.
    assert not dc.threads_in(club.channel)
    assert club.bot is not None
    async with club.bot.ctx.reader() as uow:
        assert not list((await uow.session.execute(select(GameRecord))).scalars())
        rows = [
            (r.player_id, r.outcome, (r.extra or {}).get("termination"))
            for r in (await uow.session.execute(select(ResultRecord))).scalars()
        ]
    assert sorted(rows) == sorted(
        [
            (white.id, "draw", "over the board"),
            (black.id, "draw", "over the board"),
            (white2.id, "win", "over the board"),
            (black2.id, "loss", "over the board"),
        ]
    )

    # The director's log tells the story, in sentences.
    ix = await dc.slash(club.moderator, club.channel, "tournament log")
    log = ix.answer.content
    assert f"**{white2.name}** reported a win in round 1, board 2 (over the board)." in log
    assert "found the two reports of round 1, board 2 differing: the director's." in log
    assert "recorded round 1, board 1 as ½–½: both reports agree." in log
    assert f"set round 1, board 2 to a win for {white2.name}." in log


async def test_the_director_s_start_answer_links_the_round_s_printable_pairings(
    club: Club,
) -> None:
    """With the club's web page on, the director's private answer to ``/tournament
    start`` carries the address of the round's printable pairings, which has every
    board of the pairings post; with the page off it has none."""
    from tests.e2e.test_web import get, web

    await club.start(web_port=0, web_base_url="https://games.example.org")
    dc = club.dc
    await web(club, club.moderator, "on")
    tid, post = await _new(
        club, game="chess", format="swiss", rounds=2, where="room", name="Club Night"
    )
    await _join_all(club, tid, post, ["alice", "bob", "carol", "dave"])
    ix = await dc.slash(club.moderator, club.channel, "tournament start")
    assert ix.answer.ephemeral
    found = re.search(r"https://games\.example\.org(/c/\S+/print/pairings)", ix.answer.content)
    assert found, ix.answer.content
    (paired,) = await dc.wait_until(
        lambda: _bot_posts(club, "round 1 of 2: pairings"), what="round 1's pairings"
    )
    status, html = await get(club, found[1])
    assert status == 200
    for number, (white, black) in _boards(club, paired.content).items():
        row = re.search(rf'<td class="num">{number}</td>(.*?)</tr>', html, re.S)
        assert row and white.name in row[1] and black.name in row[1]
        assert row[1].index(white.name) < row[1].index(black.name)  # White first
