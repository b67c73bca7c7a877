"""The pages a director prints for a night in the room (issue #29): a tournament round's
pairings with a box for each result, a chess round's result slips, the standings after
a round, a club session's score sheets (one a board, a tally to fill in by hand) and its
results, a games event's results; each reached from a "Print" link on its own page, on
A4 or Letter (the club's by its time zone, or the page's switch), in the club's
language. In Chromium: tests/bot/web/test_print_browser.py."""

from __future__ import annotations

import re

import pytest

from bot.db.models_events import GamesEventRoundRecord
from bot.db.models_sessions import ClubSessionRecord
from bot.db.models_tournaments import (
    TournamentEntrantRecord,
    TournamentPairingRecord,
    TournamentRecord,
)
from bot.services import signups
from bot.services.club import ClubService
from bot.web.paper import default_paper
from tests.bot.services.scrabble_support import GUILD
from tests.bot.web.conftest import CLUB_NAME, World
from tests.bot.web.test_events import _event
from tests.bot.web.test_tournaments import _tournament

LONG_NAME = "Maria Clara de los Santos y Villanueva-Ramirez the Third of Quezon City"


async def formed_session(world: World, boards: list[list[list[int]]]) -> int:
    """A session in the room whose boards are formed (their pairs known, not started)."""
    async with world.ctx.uow() as uow:
        for user in {m for group in boards for seat in group for m in seat}:
            name = LONG_NAME if user == 31 else f"member{user}"
            await uow.players.ensure(user, name)
        row = ClubSessionRecord(
            guild_id=GUILD,
            channel_id=30,
            moderator_id=5,
            status="formed",
            groups=boards,
            options={"where": "room", "clock_seconds": 180, "length_seconds": 4800},
        )
        uow.session.add(row)
        await uow.session.flush()
        await signups.open_list(
            uow, guild_id=GUILD, owner_kind="session", owner_id=row.id, now=world.ctx.clock()
        )
        sid = row.id
        await uow.commit()
    return sid


PLAYERS = [
    "Ana",
    "Ben",
    LONG_NAME,
    "Dina",
    "Eli",
    "Francisco Baltazar Dela Cruz-Magsaysay",
    "Gigi",
    "Hugo",
]


async def room_swiss(world: World) -> int:
    """A chess Swiss of eight played over the board: round 1 done, round 2 in play."""
    async with world.ctx.uow() as uow:
        for n, label in enumerate(PLAYERS, start=1):
            await uow.players.ensure(500 + n, label)
        t = TournamentRecord(
            guild_id=GUILD,
            channel_id=20,
            name="Library Chess Night",
            game_kind="chess",
            format="swiss",
            rounds=3,
            options={"where": "room"},
            status="running",
            current_round=2,
            created_by=1,
        )
        uow.session.add(t)
        await uow.session.flush()
        people = [
            TournamentEntrantRecord(
                tournament_id=t.id, number=n, user_id=500 + n, label=label, rating=1500.0
            )
            for n, label in enumerate(PLAYERS, start=1)
        ]
        uow.session.add_all(people)
        await uow.session.flush()
        for board, (a, b, score) in enumerate(
            [(0, 4, 1.0), (5, 1, 0.5), (2, 6, 0.0), (7, 3, 1.0)], start=1
        ):
            uow.session.add(
                TournamentPairingRecord(
                    tournament_id=t.id,
                    round=1,
                    board=board,
                    first_id=people[a].id,
                    second_id=people[b].id,
                    score=score,
                    source="report",
                )
            )
        for board, (a, b) in enumerate([(0, 7), (6, 5), (1, 2), (4, 3)], start=1):
            uow.session.add(
                TournamentPairingRecord(
                    tournament_id=t.id,
                    round=2,
                    board=board,
                    first_id=people[a].id,
                    second_id=people[b].id,
                )
            )
        tid = t.id
        await uow.commit()
    return tid


TWO_BOARDS = [[[31, 32], [33, 34]], [[35, 36], [37, 38], [39, 40], [41, 42]]]


async def _html(world: World, path: str, status: int = 200) -> str:
    response = await world.get(path)
    text = str(await response.text())
    assert response.status == status, (path, text[:300])
    return text


async def test_a_tournament_page_links_to_its_printed_pairings_slips_and_standings(
    world: World,
) -> None:
    tid = await _tournament(world)
    page = await _html(world, f"{world.base}tournaments/{tid}")
    for sheet in ("pairings", "slips", "standings"):
        assert f'href="{world.base}tournaments/{tid}/print/{sheet}"' in page


async def test_a_round_s_pairings_print_board_numbers_colours_and_a_box_for_each_result(
    world: World,
) -> None:
    tid = await _tournament(world)
    html = await _html(world, f"{world.base}tournaments/{tid}/print/pairings")
    assert '<link rel="stylesheet" href="/static/paper-a4.css">' in html  # a UTC club: A4
    assert "Round 2" in html and ">White<" in html and ">Black<" in html
    # Round 2 (the newest) is in play: dave has White against the member with the
    # sneaky name (escaped), and the result is a box to write in.
    row = re.search(r"<tr><td class=\"num\">1</td>(.*?)</tr>", html, re.S)
    assert row is not None
    assert 'class="name">dave<' in row[1] and "&lt;script&gt;" in row[1]
    assert '<td class="result write"></td>' in row[1]
    assert "<script>alert" not in html and "/static/print.js" in html
    # Round 1 on request: its result printed, the bye said.
    first = await _html(world, f"{world.base}tournaments/{tid}/print/pairings?round=1")
    assert ">0–1<" in first and "has a bye" in first


async def test_result_slips_are_one_a_board_without_the_byes(world: World) -> None:
    tid = await _tournament(world)
    html = await _html(world, f"{world.base}tournaments/{tid}/print/slips?round=1")
    assert html.count('<article class="slip"') == 1  # board 2 is a bye
    assert "Round 1, board 1" in html and "1–0" in html and "½–½" in html
    assert "Signed (White)" in html and "Signed (Black)" in html


async def test_the_standings_say_after_which_round_they_are(world: World) -> None:
    tid = await _tournament(world)
    html = await _html(world, f"{world.base}tournaments/{tid}/print/standings")
    assert "Standings after round 1" in html  # round 2 has no result yet
    table = html.split('<table class="standings">')[1].split("</table>")[0]
    assert table.index("dave") < table.index("carol")
    assert "<h3>Round 1</h3>" in html and ">0–1<" in html  # the round's results below


async def test_standings_with_some_of_a_round_s_results_in_say_so(world: World) -> None:
    tid = await room_swiss(world)
    path = f"{world.base}tournaments/{tid}/print/standings"
    assert "Standings after round 1" in await _html(world, path)
    async with world.ctx.uow() as uow:
        board = next(
            p for p in await uow.tournaments.pairings(tid) if p.round == 2 and p.board == 1
        )
        board.score = 1.0
        await uow.commit()
    html = await _html(world, path)
    assert "Standings during round 2: some results are still to come" in html
    assert "<h3>Round 2</h3>" in html and ">1–0<" in html and ">playing<" in html


async def test_a_session_prints_one_score_sheet_a_board_with_a_tally_for_each_side(
    world: World,
) -> None:
    sid = await formed_session(world, TWO_BOARDS)
    page = await _html(world, f"{world.base}sessions/{sid}")
    assert f'href="{world.base}sessions/{sid}/print/scoresheets"' in page
    html = await _html(world, f"{world.base}sessions/{sid}/print/scoresheets")
    sheets = html.split('<article class="sheet scoresheet"')[1:]
    assert len(sheets) == 2
    assert sheets[0].count('<section class="side"') == 2
    assert sheets[1].count('<section class="side"') == 4
    assert f"{LONG_NAME} &amp; member32" in sheets[0] and "member41 &amp; member42" in sheets[1]
    for column in ("Turn", "Word", "Position", "Score", "Running total"):
        assert f">{column}</th>" in sheets[0]
    assert "Tiles left on the rack" in sheets[0] and "3 minutes a turn" in sheets[0]
    results = await _html(world, f"{world.base}sessions/{sid}/print/results")
    assert "member37 &amp; member38" in results


async def test_the_paper_is_the_club_s_by_its_time_zone_or_the_one_asked_for(
    world: World,
) -> None:
    tid = await _tournament(world)
    await ClubService(world.ctx).setup(GUILD, CLUB_NAME, timezone="Asia/Manila")
    path = f"{world.base}tournaments/{tid}/print/pairings"
    assert "/static/paper-letter.css" in await _html(world, path)  # "short bond"
    a4 = await _html(world, f"{path}?paper=a4&round=1")
    assert "/static/paper-a4.css" in a4
    assert 'href="' in a4 and "paper=letter" in a4 and "round=1" in a4  # the switch keeps the round
    await _html(world, f"{path}?paper=a3", 400)
    await _html(world, f"{path}?round=9", 404)
    await _html(world, f"{world.base}tournaments/{tid}/print/everything", 404)


@pytest.mark.parametrize(
    ("zone", "paper"),
    [
        ("America/New_York", "letter"),
        ("Asia/Manila", "letter"),
        ("Europe/London", "a4"),
        ("UTC", "a4"),
        ("Asia/Tokyo", "a4"),
    ],
)
def test_a_club_s_paper_follows_its_time_zone(zone: str, paper: str) -> None:
    from zoneinfo import ZoneInfo

    assert default_paper(ZoneInfo(zone)) == paper


async def test_a_games_event_prints_its_pairs_and_results(world: World) -> None:
    _service, event_id = await _event(world)
    page = await _html(world, f"{world.base}events/{event_id}")
    assert f'href="{world.base}events/{event_id}/print"' in page
    html = await _html(world, f"{world.base}events/{event_id}/print")
    assert "Prizes &lt;i&gt;night&lt;/i&gt;" in html and "<i>night" not in html
    assert "member 1 &amp; member 2" in html
    await _html(world, f"{world.base}events/{event_id + 50}/print", 404)


async def test_a_games_event_s_page_links_the_pairings_of_its_chess_and_scrabble_rounds(
    world: World,
) -> None:
    _service, event_id = await _event(world)
    tid = await _tournament(world)  # as the event's chess round plays it
    async with world.ctx.uow() as uow:
        uow.session.add(
            GamesEventRoundRecord(
                event_id=event_id, game="chess", ref_id=tid, pairs=[], started_by=10
            )
        )
        await uow.commit()
    page = await _html(world, f"{world.base}events/{event_id}")
    link = f'href="{world.base}tournaments/{tid}/print/pairings">the Chess pairings</a>'
    assert link in page


async def test_the_printed_pages_speak_the_club_s_language(world: World) -> None:
    tid = await _tournament(world)
    sid = await formed_session(world, TWO_BOARDS)
    await ClubService(world.ctx).setup(GUILD, CLUB_NAME, language="fil")
    html = await _html(world, f"{world.base}tournaments/{tid}/print/pairings")
    assert '<html lang="fil">' in html and ">Puti<" in html
    sheets = await _html(world, f"{world.base}sessions/{sid}/print/scoresheets")
    assert "Running total" not in sheets and "Tiles left on the rack" not in sheets
