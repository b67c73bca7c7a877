"""Tournaments through the loopback Discord: the issue's (#19) "done when" scenarios.

The real bot runs each tournament: the director makes it and starts it, the bot
pairs every round, makes each game (its own thread and board, as any game),
advances when the round's games are done, and posts standings after every
round and the final table. Games end quickly here (resignations, agreed draws).
"""

from __future__ import annotations

import csv
import io
import re
import zipfile
from typing import Any

from sqlalchemy import select

from bot.db.models import GameRecord, ResultRecord
from tests.e2e.club import Club

BOARD = re.compile(r"^R(?P<round>\d+) B(?P<board>\d+) · (?P<first>\S+) vs (?P<second>\S+)$")


def _tid(text: str) -> int:
    match = re.search(r"tournament #(\d+)", text) or re.search(r"\(#(\d+)\)", text)
    assert match, text
    return int(match.group(1))


def _bot_posts(club: Club, needle: str) -> list[Any]:
    return [
        m
        for m in club.dc.messages_in(club.channel)
        if m.author.id == club.dc.bot_user.id and needle in m.content
    ]


async def _new(club: Club, **options: Any) -> tuple[int, Any]:
    """The host makes a tournament here: its id and its sign-up post."""
    ix = await club.dc.slash(club.moderator, club.channel, "tournament new", **options)
    assert ix.answer.ephemeral, ix.response
    tid = _tid(ix.answer.content)
    post = await club.dc.wait_for_message(
        club.channel, predicate=lambda m: f"(tournament #{tid})" in m.content
    )
    return tid, post


async def _round_games(club: Club, number: int, boards: int) -> dict[int, tuple[Any, Any, Any]]:
    """Round ``number``'s games once open: board -> (thread, first member, second member)."""
    dc = club.dc

    def threads() -> list[Any] | None:
        found = [t for t in dc.threads_in(club.channel) if t.name.startswith(f"R{number} ")]
        return found if len(found) >= boards else None

    found = await dc.wait_until(threads, timeout=10, what=f"round {number}'s {boards} threads")
    by_name = {u.name: u for u in club.members.values()}
    games = {}
    for thread in found:
        match = BOARD.match(thread.name)
        assert match, thread.name
        await dc.wait_until(
            lambda t=thread: any(
                m.author.id == dc.bot_user.id and m.attachments for m in dc.messages_in(t)
            ),
            timeout=10,
            what=f"the first board in {thread.name}",
        )
        games[int(match["board"])] = (thread, by_name[match["first"]], by_name[match["second"]])
    return games


async def _resign(club: Club, thread: Any, user: Any) -> None:
    ix = await club.dc.slash(user, thread, "chess resign")
    assert ix.response is not None and "resign" in (ix.answer.content or "").lower(), ix.response


async def _agree_draw(club: Club, thread: Any, offer: Any, accept: Any) -> None:
    ix = await club.dc.slash(offer, thread, "chess draw", action="offer")
    assert ix.response is not None, ix
    ix = await club.dc.slash(accept, thread, "chess draw", action="accept")
    assert ix.response is not None and "draw" in (ix.answer.content or "").lower(), ix.response


def _table_points(text: str) -> dict[str, str]:
    """Entrant -> points, from a standings post's table."""
    rows = {}
    for line in text.splitlines():
        match = re.match(r"^\s*\d+ (?P<name>\S+)(?: \(w\))?\s+(?P<pts>\d+½?|½)\s", line)
        if match:
            rows[match["name"]] = match["pts"]
    return rows


def _shown(points: float) -> str:
    whole = int(points)
    if points - whole == 0.5:
        return "½" if whole == 0 else f"{whole}½"
    return str(whole)


async def test_four_player_chess_round_robin_is_played_to_the_end_with_standings_after_every_round(
    club: Club,
) -> None:
    await club.start()
    dc = club.dc
    players = [club.members[n] for n in ("alice", "bob", "carol", "dave")]
    tid, post = await _new(
        club, game="chess", format="round_robin", time_control="3d", name="Winter RR"
    )
    for user in players:
        ix = await dc.click(user, post, f"tournament:join:{tid}")
        assert ix.answer.ephemeral and "You're in" in ix.answer.content
    again = await dc.click(players[0], post, f"tournament:join:{tid}")
    assert again.answer.ephemeral and "already" in again.answer.content

    ix = await dc.slash(players[0], club.channel, "tournament start")
    assert ix.answer.ephemeral and "director" in ix.answer.content  # not alice's to start
    ix = await dc.slash(club.moderator, club.channel, "tournament start")
    assert ix.answer.ephemeral and "4 entrants, 3 rounds." in ix.answer.content, ix.response

    points = {u.name: 0.0 for u in players}
    met: set[frozenset[str]] = set()
    for number in (1, 2, 3):
        await dc.wait_until(
            lambda n=number: _bot_posts(club, f"round {n} of 3: pairings"), what=f"round {number}"
        )
        games = await _round_games(club, number, 2)
        assert sorted(games) == [1, 2]
        seated = [u.name for _t, a, b in games.values() for u in (a, b)]
        assert sorted(seated) == sorted(points)  # everyone plays once a round
        for _thread, white, black in games.values():
            pair = frozenset((white.name, black.name))
            assert pair not in met  # nobody meets twice
            met.add(pair)
        thread, white, black = games[1]
        await _resign(club, thread, black)  # board 1: White wins
        points[white.name] += 1
        thread, white, black = games[2]
        await _agree_draw(club, thread, white, black)  # board 2: a draw
        points[white.name] += 0.5
        points[black.name] += 0.5
        if number < 3:
            (standings,) = await dc.wait_until(
                lambda n=number: _bot_posts(club, f"standings after round {n} of 3"),
                what=f"the standings after round {number}",
            )
            assert _table_points(standings.content) == {k: _shown(v) for k, v in points.items()}
    assert len(met) == 6  # every pair met once

    (final,) = await dc.wait_until(lambda: _bot_posts(club, "is over. Final table"), what="final")
    assert _table_points(final.content) == {k: _shown(v) for k, v in points.items()}
    best = max(points.values())
    for name, value in points.items():
        if value == best:
            assert name in final.content.split("Winner:")[1]
    assert len(final.content) <= 2000

    # Nothing more is paired, and the standings command says it is over.
    assert not _bot_posts(club, "round 4")
    ix = await dc.slash(players[1], club.channel, "tournament standings", tournament=tid)
    assert "(finished)" in ix.answer.content

    # The exports: CSV standings, TRF, and every game's PGN.
    ix = await dc.slash(club.moderator, club.channel, "tournament export", tournament=tid)
    await ix.wait_done(timeout=10)
    (message,) = [m for m in ix.messages if m.attachments]
    files = dict(message.files)
    assert all(a.description for a in message.attachments)
    # Titled with the tournament, not with the last game file of the zip (QA F11).
    assert message.content.startswith(f"Winter RR: tournament-{tid}-standings.csv"), message.content
    rows = list(csv.DictReader(io.StringIO(files[f"tournament-{tid}-standings.csv"].decode())))
    assert {r["entrant"]: float(r["points"]) for r in rows} == points
    trf = files[f"tournament-{tid}.trf"].decode()
    assert trf.count("\n001 ") + trf.startswith("001 ") == 4
    assert "Winter RR" in trf
    with zipfile.ZipFile(io.BytesIO(files[f"tournament-{tid}-games.zip"])) as archive:
        pgns = [archive.read(n).decode() for n in archive.namelist()]
    assert len(pgns) == 6
    assert sum('[Result "1/2-1/2"]' in p for p in pgns) == 3


def _bye_of(post: Any) -> str | None:
    match = re.search(r"^\s+(\S+)\s+bye\s*$", post.content, re.MULTILINE)
    return match.group(1) if match else None


async def _join_all(club: Club, tid: int, post: Any, names: list[str]) -> list[Any]:
    users = [club.members[n] for n in names]
    for user in users:
        ix = await club.dc.click(user, post, f"tournament:join:{tid}")
        assert "You're in" in ix.answer.content, ix.answer.content
    return users


async def test_five_player_swiss_with_a_bye_a_withdrawal_mid_round_and_a_restart_between_rounds(
    club: Club,
) -> None:
    await club.start()
    dc = club.dc
    tid, post = await _new(club, game="chess", format="swiss", rounds=3, name="Autumn Swiss")
    users = await _join_all(club, tid, post, ["alice", "bob", "carol", "dave", "erin"])
    ix = await dc.slash(club.moderator, club.channel, "tournament start")
    assert "5 entrants, 3 rounds." in ix.answer.content, ix.answer.content

    points = {u.name: 0.0 for u in users}
    met: set[frozenset[str]] = set()
    byes: list[str] = []

    async def play(number: int, boards: int, withdraw: bool = False) -> Any:
        (pairing_post,) = await dc.wait_until(
            lambda: _bot_posts(club, f"round {number} of 3: pairings"), what=f"round {number}"
        )
        bye = _bye_of(pairing_post)
        if bye is not None:
            byes.append(bye)
            points[bye] += 1
        games = await _round_games(club, number, boards)
        for _thread, a, b in games.values():
            pair = frozenset((a.name, b.name))
            assert pair not in met, f"{pair} met twice"
            met.add(pair)
        thread, white, black = games[1]
        gone = black.name if withdraw else None
        if withdraw:
            # Black leaves the tournament mid-game: the game is forfeited to White.
            ix = await dc.slash(black, club.channel, "tournament withdraw")
            assert ix.answer.ephemeral and "1 game of this round is forfeited" in ix.answer.content
            # The thread says why the game ended: a withdrawal, not a resignation.
            ended = await dc.wait_for_message(
                thread,
                predicate=lambda m: "withdrew from the tournament" in m.content,
                timeout=10,
            )
            assert f"{black.name} withdrew from the tournament: the game is forfeited" in (
                ended.content
            )
            assert "resigned" not in ended.content and "Ratings" not in ended.content
            # Forfeits are not rated: the game leaves no result for the leaderboard.
            assert club.bot is not None
            async with club.bot.ctx.reader() as uow:
                game = (
                    await uow.session.execute(
                        select(GameRecord).where(GameRecord.thread_id == thread.id)
                    )
                ).scalar_one()
                assert game.status == "finished"
                rows = (
                    await uow.session.execute(
                        select(ResultRecord).where(ResultRecord.game_id == game.id)
                    )
                ).all()
            assert rows == []
            ix = await dc.slash(white, club.channel, "tournament standings")
            assert "1–0 (forfeit)" in ix.answer.content
        else:
            await _resign(club, thread, black)
        points[white.name] += 1
        for board in range(2, boards + 1):
            thread, white, black = games[board]
            await _agree_draw(club, thread, white, black)
            points[white.name] += 0.5
            points[black.name] += 0.5
        return gone

    await play(1, 2)
    assert len(byes) == 1
    (after_one,) = await dc.wait_until(
        lambda: _bot_posts(club, "standings after round 1 of 3"), what="standings after round 1"
    )
    assert _table_points(after_one.content) == {k: _shown(v) for k, v in points.items()}
    await dc.wait_until(lambda: _bot_posts(club, "round 2 of 3: pairings"), what="round 2")
    await _round_games(club, 2, 2)

    # A restart between rounds: nothing is paired or opened twice.
    threads_before = {t.id for t in dc.threads_in(club.channel)}
    await club.restart()
    await club.tick()
    assert {t.id for t in dc.threads_in(club.channel)} == threads_before
    assert len(_bot_posts(club, "round 2 of 3: pairings")) == 1

    gone = await play(2, 2, withdraw=True)
    assert gone is not None
    (after_two,) = await dc.wait_until(
        lambda: _bot_posts(club, "standings after round 2 of 3"), what="standings after round 2"
    )
    assert f"{gone} (w)" in after_two.content
    # Round 3 pairs the four still playing: no bye, and the one who withdrew is not paired.
    (round_three,) = await dc.wait_until(
        lambda: _bot_posts(club, "round 3 of 3: pairings"), what="round 3"
    )
    assert _bye_of(round_three) is None and gone not in round_three.content
    await play(3, 2)
    (final,) = await dc.wait_until(lambda: _bot_posts(club, "is over. Final table"), what="final")
    assert _table_points(final.content) == {k: _shown(v) for k, v in points.items()}
    assert len(_bot_posts(club, "of 3: pairings")) == 3  # each round paired once
    assert len([t for t in dc.threads_in(club.channel) if t.name.startswith("R")]) == 6

    ix = await dc.slash(club.moderator, club.channel, "tournament log")
    assert ix.answer.ephemeral
    assert f"**{gone}** withdrew in round 2; 1 game forfeited." in ix.answer.content
    assert "**host** started it with 5 entrants and 3 rounds." in ix.answer.content
    assert "(member" not in ix.answer.content and "forfeited 1)" not in ix.answer.content


async def test_scrabble_knockout_of_four_with_a_director_adjudication_and_its_log(
    club: Club,
) -> None:
    await club.start()
    dc = club.dc
    tid, post = await _new(club, game="scrabble", format="knockout", name="Spring Cup")
    users = await _join_all(club, tid, post, ["alice", "bob", "carol", "dave"])
    ix = await dc.slash(club.moderator, club.channel, "tournament start")
    assert "4 entrants, 2 rounds." in ix.answer.content, ix.answer.content

    await dc.wait_until(lambda: _bot_posts(club, "round 1 of 2: pairings"), what="round 1")
    semis = await _round_games(club, 1, 2)
    thread, first, second = semis[1]
    ix = await dc.slash(second, thread, "scrabble resign")
    assert ix.answer.ephemeral, ix.response
    winners = [first.name]

    # Board 2 is adjudicated by the director while it is still being played.
    board_two, first, second = semis[2]
    ix = await dc.slash(first, club.channel, "tournament adjudicate", member=second, result="win")
    assert ix.answer.ephemeral and "director" in ix.answer.content  # not a player's to do
    ix = await dc.slash(
        club.moderator, club.channel, "tournament adjudicate", member=second, result="win"
    )
    assert ix.answer.ephemeral and "adjudicated a win" in ix.answer.content, ix.response
    winners.append(second.name)
    # The game itself is over: its thread says so, and a move there is refused.
    (ended,) = await dc.wait_until(
        lambda: [
            m
            for m in dc.messages_in(board_two)
            if m.author.id == dc.bot_user.id
            and "the director of **Spring Cup** adjudicated" in m.content
        ],
        what="the adjudication in the game's thread",
    )
    assert f"a win for {second.name}" in ended.content
    for player in (first, second):
        ix = await dc.slash(player, board_two, "scrabble pass")
        assert ix.answer.ephemeral and "is over" in ix.answer.content, ix.response

    (_after_one,) = await dc.wait_until(
        lambda: _bot_posts(club, "standings after round 1 of 2"), what="standings after round 1"
    )
    (final_pairing,) = await dc.wait_until(
        lambda: _bot_posts(club, "round 2 of 2: pairings"), what="the final"
    )
    assert all(name in final_pairing.content for name in winners)
    (final_game,) = (await _round_games(club, 2, 1)).values()
    thread, first, second = final_game
    assert {first.name, second.name} == set(winners)
    await dc.slash(first, thread, "scrabble resign")
    (final,) = await dc.wait_until(lambda: _bot_posts(club, "is over. Final table"), what="final")
    assert f"Winner: {second.name}!" in final.content
    assert "Spread" in final.content  # Scrabble breaks ties by spread

    ix = await dc.slash(users[0], club.channel, "tournament log")
    log = ix.answer.content
    assert ix.answer.ephemeral
    assert f"**host** set round 1, board 2 to a win for {winners[1]}." in log
    assert "<t:" in log  # when, in each reader's own time

    ix = await dc.slash(club.moderator, club.channel, "tournament export")
    await ix.wait_done(timeout=10)
    (message,) = [m for m in ix.messages if m.attachments]
    files = dict(message.files)
    tsh = files[f"tournament-{tid}.t"].decode().splitlines()
    assert len(tsh) == 4 and all(";" in line for line in tsh)
    rows = list(csv.DictReader(io.StringIO(files[f"tournament-{tid}-standings.csv"].decode())))
    assert rows[0]["entrant"] == second.name and float(rows[0]["points"]) == 2
    with zipfile.ZipFile(io.BytesIO(files[f"tournament-{tid}-games.zip"])) as archive:
        names = archive.namelist()
    # The finished games: the semi-final resigned, the one adjudicated as played so far, the final.
    assert len(names) == 3 and all(n.endswith(".gcg") for n in names)


async def _private(ix: Any) -> str:
    await ix.wait_done()
    answer = ix.answer
    assert answer.ephemeral, answer
    return answer.content or ""


async def test_bad_input_is_refused_privately_and_changes_nothing(
    club: Club, monkeypatch: Any
) -> None:
    await club.start()
    dc = club.dc
    host = club.moderator
    alice, bob, carol, dave = (club.members[n] for n in ("alice", "bob", "carol", "dave"))
    posts_before = len(dc.messages_in(club.channel))
    # Options that can't make a tournament: nothing is made, nothing posted.
    text = await _private(
        await dc.slash(host, club.channel, "tournament new", game="chess", format="swiss")
    )
    assert "number of `rounds`" in text
    text = await _private(
        await dc.slash(
            host, club.channel, "tournament new", game="chess", format="knockout", deadline="soon"
        )
    )
    assert "round deadline" in text
    text = await _private(
        await dc.slash(alice, club.channel, "tournament new", game="chess", format="knockout")
    )
    assert "Only the club's moderators make tournaments" in text
    thread = dc.add_thread(club.channel, "a chat")
    text = await _private(
        await dc.slash(host, thread, "tournament new", game="chess", format="knockout")
    )
    assert "not a thread" in text
    assert len(dc.messages_in(club.channel)) == posts_before

    # Check-in: an entrant who never checks in does not play; one check-in alone can't start.
    tid, post = await _new(
        club, game="chess", format="knockout", checkin=True, name="@everyone **Cup**"
    )
    assert "@everyone" not in post.content and "\\*\\*Cup" in post.content
    await _join_all(club, tid, post, ["alice", "bob", "carol"])
    text = await _private(await dc.click(dave, post, f"tournament:checkin:{tid}"))
    assert "not signed up" in text  # dave never entered
    await _private(await dc.click(alice, post, f"tournament:checkin:{tid}"))
    text = await _private(await dc.slash(host, club.channel, "tournament start"))
    assert "1 entrant ready to play; it needs at least 2. Nothing changed." in text
    await _private(await dc.click(bob, post, f"tournament:checkin:{tid}"))
    text = await _private(await dc.slash(host, club.channel, "tournament start"))
    assert "2 entrants, 1 round." in text and "Not checked in, so not playing: carol" in text
    text = await _private(await dc.click(dave, post, f"tournament:join:{tid}"))
    assert "closed" in text  # started: entry is closed
    text = await _private(await dc.slash(carol, club.channel, "tournament withdraw"))
    assert "not an entrant" in text
    games = await _round_games(club, 1, 1)
    thread, _first, second = games[1]
    await _resign(club, thread, second)
    await dc.wait_until(
        lambda: _bot_posts(club, "Cup") and _bot_posts(club, "Final table"), what="final"
    )


async def test_a_round_that_would_need_more_threads_than_allowed_is_refused(
    club: Club, monkeypatch: Any
) -> None:
    from bot.services.tournaments import options

    monkeypatch.setattr(options, "MAX_THREADS_PER_ROUND", 1)
    await club.start()
    tid, post = await _new(club, game="chess", format="round_robin")
    await _join_all(club, tid, post, ["alice", "bob", "carol", "dave"])
    text = await _private(await club.dc.slash(club.moderator, club.channel, "tournament start"))
    assert "would need 2 games" in text and "Nothing changed" in text
    ix = await club.dc.slash(club.members["erin"], club.channel, "tournament standings")
    assert "has not started: 4 entered" in ix.answer.content  # still open, nobody lost
    assert not _bot_posts(club, "pairings")


async def test_a_director_pairing_two_who_met_is_warned_and_two_directors_at_once_apply_once(
    club: Club,
) -> None:
    await club.start()
    dc = club.dc
    # The clerk (a second moderator) makes it and directs it; the host is a moderator too.
    alice = dc.add_user("clerk")
    dc.add_member(club.guild, alice, admin=True)
    ix = await dc.slash(
        alice, club.channel, "tournament new", game="chess", format="swiss", rounds=3
    )
    tid = _tid(ix.answer.content)
    await dc.wait_for_message(club.channel, predicate=lambda m: f"(tournament #{tid})" in m.content)
    for name in ("bob", "carol", "dave", "erin"):
        await dc.slash(alice, club.channel, "tournament join", member=club.members[name])
    text = await _private(await dc.slash(alice, club.channel, "tournament start"))
    assert "4 entrants" in text
    round_one = await _round_games(club, 1, 2)
    text = await _private(
        await dc.slash(
            alice,
            club.channel,
            "tournament pair",
            first=club.members["bob"],
            second=club.members["carol"],
        )
    )
    assert "`/tournament pause`" in text  # the games exist: pause first

    # Both directors pause at the same moment: it applies once.
    first = await dc.slash(alice, club.channel, "tournament pause", wait=False)
    second = await dc.slash(club.moderator, club.channel, "tournament pause", wait=False)
    texts = [await _private(first), await _private(second)]
    assert sum("is paused:" in t for t in texts) == 1, texts
    await dc.wait_until(lambda: _bot_posts(club, "is paused by the director"), what="the pause")
    await club.flush()
    assert len(_bot_posts(club, "is paused by the director")) == 1

    # Round 1 ends; round 2 is paired and held.
    for thread, _white, black in round_one.values():
        await _resign(club, thread, black)
    (held,) = await dc.wait_until(
        lambda: _bot_posts(club, "round 2 of 3: pairings"), what="round 2"
    )
    assert "start at `/tournament resume`" in held.content
    assert not [t for t in dc.threads_in(club.channel) if t.name.startswith("R2 ")]

    # Pairing two who met in round 1: warned, nothing changed; confirmed, changed.
    _t, a, b = round_one[1]
    before = (await dc.slash(alice, club.channel, "tournament standings")).answer.content
    text = await _private(await dc.slash(alice, club.channel, "tournament pair", first=a, second=b))
    assert f"{a.name} and {b.name} met already in round 1." in text and "confirm:True" in text
    # Their round 2 opponents would then meet: round 1's other board (QA F41).
    _t, c, d = round_one[2]
    assert (
        f"Their opponents {c.name} and {d.name} would then play each other, and they met "
        "already in round 1."
        in text
        or f"Their opponents {d.name} and {c.name} would then play each other, and they met "
        "already in round 1."
        in text
    ), text
    assert (await dc.slash(alice, club.channel, "tournament standings")).answer.content == before
    text = await _private(
        await dc.slash(alice, club.channel, "tournament pair", first=a, second=b, confirm=True)
    )
    assert f"{a.name} (White) against {b.name}" in text
    text = await _private(await dc.slash(club.moderator, club.channel, "tournament resume"))
    assert "resumes" in text
    games = await _round_games(club, 2, 2)
    # ``first`` plays White, as the option says (QA F41).
    assert any((w.name, bl.name) == (a.name, b.name) for _t, w, bl in games.values()), games

    log = await _private(await dc.slash(alice, club.channel, "tournament log"))
    assert log.count("paused") == 1
    assert f"**clerk** paired {a.name} (White) with {b.name} in round 2, after a warning" in log
    assert "warned True" not in log and "**host** resumed it in round 2." in log


async def test_a_round_deadline_scores_unfinished_games_and_the_next_round_starts(
    club: Club,
) -> None:
    await club.start()
    dc = club.dc
    tid, post = await _new(club, game="chess", format="round_robin", deadline="2h")
    await _join_all(club, tid, post, ["alice", "bob", "carol"])
    await _private(await dc.slash(club.moderator, club.channel, "tournament start"))
    # Three entrants: the only game is board 1, and the bye is listed last with no
    # board number (QA F16).
    (pairing_post,) = await dc.wait_until(
        lambda: _bot_posts(club, "round 1 of 3: pairings"), what="round 1"
    )
    rows = pairing_post.content.split("```")[1].strip("\n").splitlines()
    assert len(rows) == 2 and rows[0].startswith(" 1. ") and rows[1].endswith("bye"), rows
    assert not re.match(r"^\s*\d", rows[1]), rows
    assert _bye_of(pairing_post) is not None
    round_one = await _round_games(club, 1, 1)
    assert sorted(round_one) == [1]
    ((thread, white, _black),) = round_one.values()  # nobody moves
    text = await _private(
        await dc.slash(club.moderator, club.channel, "tournament extend", by="1h")
    )
    assert "deadline is now" in text
    club.clock.advance(hours=2, minutes=1)
    await club.tick()
    assert not _bot_posts(club, "deadline passed")  # extended: not yet
    club.clock.advance(hours=1)
    await club.tick()
    (passed,) = await dc.wait_until(lambda: _bot_posts(club, "deadline passed"), what="deadline")
    assert "1 unfinished game is scored as it stands" in passed.content
    # The game itself is over, as scored (a draw): its thread says why, moves are refused.
    (ended,) = await dc.wait_until(
        lambda: [
            m
            for m in dc.messages_in(thread)
            if m.author.id == dc.bot_user.id and "reached its deadline" in m.content
        ],
        what="the deadline's end in the game's thread",
    )
    assert "1/2-1/2" in ended.content and "This game is over: round 1" in ended.content
    ix = await dc.slash(white, thread, "chess move", move="e4")
    assert ix.answer.ephemeral and "is over" in ix.answer.content, ix.response
    await dc.wait_until(lambda: _bot_posts(club, "round 2 of 3: pairings"), what="round 2")
    (after,) = _bot_posts(club, "standings after round 1 of 3")
    assert "½" in after.content
    await _round_games(club, 2, 1)
    log = await _private(await dc.slash(club.moderator, club.channel, "tournament log"))
    assert "**host** gave round 1 1 h more." in log
    assert "**the bot** ended round 1 at its deadline: 1 unfinished game scored." in log


async def test_a_bot_can_not_enter_a_tournament(club: Club) -> None:
    """QA F40: the bot itself was entered and paired, and never moved."""
    await club.start()
    dc = club.dc
    tid, _post = await _new(club, game="chess", format="knockout", entry="named")
    text = await _private(
        await dc.slash(club.moderator, club.channel, "tournament join", member=dc.bot_user)
    )
    assert "Bots can't enter a tournament" in text
    tid2, _post2 = await _new(club, game="scrabble", format="knockout", pairs=True, name="Pairs")
    text = await _private(
        await dc.slash(
            club.members["alice"],
            club.channel,
            "tournament join",
            partner=dc.bot_user,
            tournament=tid2,
        )
    )
    assert "Bots can't enter a tournament" in text
    for ref in (tid, tid2):
        ix = await dc.slash(club.moderator, club.channel, "tournament standings", tournament=ref)
        assert "0 entered" in ix.answer.content, ix.answer.content


async def test_the_director_picks_a_chess_swiss_pairing_engine_on_tournament_new(
    club: Club,
) -> None:
    """Issue #26: a chess Swiss is paired by the FIDE Dutch system unless the
    director picks the club's own engine; the card and the log say which."""
    await club.start()
    dc = club.dc
    host = club.moderator
    dutch, card = await _new(club, game="chess", format="swiss", rounds=3, name="Dutch")
    assert "Swiss, 3 rounds, paired by the FIDE Dutch system" in card.content, card.content
    own, card = await _new(
        club, game="chess", format="swiss", rounds=3, pairing="clubbot", name="Own"
    )
    assert "Swiss, 3 rounds, paired by the club's own engine" in card.content, card.content
    for tid, engine in ((dutch, "the FIDE Dutch system"), (own, "the club's own engine")):
        text = await _private(await dc.slash(host, club.channel, "tournament log", tournament=tid))
        assert f"made the tournament: Chess, Swiss, paired by {engine}." in text, text
    # The Dutch system is for chess: a Scrabble Swiss refuses it, and nothing is made.
    posts_before = len(dc.messages_in(club.channel))
    text = await _private(
        await dc.slash(
            host,
            club.channel,
            "tournament new",
            game="scrabble",
            format="swiss",
            rounds=3,
            pairing="dutch",
        )
    )
    assert "The FIDE Dutch system pairs chess" in text
    assert len(dc.messages_in(club.channel)) == posts_before
