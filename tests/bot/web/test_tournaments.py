"""Tournaments and club sessions on the club's page: standings, each round's
pairings (a knockout's bracket round by round) linked to their games, and a
session's boards with their scores and its pairs ranked across the boards."""

from __future__ import annotations

import re

import pytest

from bot.db.models_sessions import ClubSessionRecord, SessionBoardRecord
from bot.db.models_tournaments import (
    TournamentEntrantRecord,
    TournamentPairingRecord,
    TournamentRecord,
)
from bot.errors import NotFoundError
from bot.services import signups
from bot.services.scrabble import ScrabbleService
from bot.services.sessions import SessionService
from tests.bot.services.scrabble_support import GUILD
from tests.bot.web.conftest import CHESS_BLACK, CHESS_WHITE, SNEAKY, World


async def _tournament(world: World) -> int:
    async with world.ctx.uow() as uow:
        t = TournamentRecord(
            guild_id=GUILD,
            channel_id=20,
            name="<i>Winter</i> Open",
            game_kind="chess",
            format="knockout",
            rounds=2,
            status="playing",
            current_round=2,
            created_by=CHESS_WHITE.user_id,
        )
        uow.session.add(t)
        await uow.session.flush()
        entrants = [
            TournamentEntrantRecord(
                tournament_id=t.id, number=n, user_id=user, label=label, rating=1500.0
            )
            for n, (user, label) in enumerate(
                [(CHESS_WHITE.user_id, "carol"), (CHESS_BLACK.user_id, "dave"), (1, SNEAKY)],
                start=1,
            )
        ]
        uow.session.add_all(entrants)
        await uow.session.flush()
        carol, dave, sneaky = entrants
        uow.session.add_all(
            [
                TournamentPairingRecord(
                    tournament_id=t.id,
                    round=1,
                    board=1,
                    first_id=carol.id,
                    second_id=dave.id,
                    game_id=world.chess_done,
                    score=0.0,
                    source="game",
                ),
                TournamentPairingRecord(
                    tournament_id=t.id, round=1, board=2, first_id=sneaky.id, score=1.0
                ),
                TournamentPairingRecord(
                    tournament_id=t.id,
                    round=2,
                    board=1,
                    first_id=dave.id,
                    second_id=sneaky.id,
                    game_id=world.chess_live,
                ),
            ]
        )
        tid = t.id
        await uow.commit()
    return tid


async def test_a_tournament_page_shows_standings_and_each_round_s_pairings(world: World) -> None:
    tid = await _tournament(world)
    response = await world.get(f"{world.base}tournaments/{tid}")
    html = await response.text()
    assert response.status == 200, html[:400]
    assert "&lt;i&gt;Winter&lt;/i&gt; Open" in html and "<i>Winter" not in html
    assert "knockout" in html and "round 2 of 2" in html
    standings = html.split("<h2>Standings</h2>")[1].split("</table>")[0]
    assert standings.index("dave") < standings.index("carol")  # dave won round 1
    assert "&lt;script&gt;" in standings and SNEAKY not in html
    assert html.index('id="round-2"') < html.index('id="round-1"')  # newest round first
    assert f'href="{world.base}games/{world.chess_done}">0–1</a>' in html
    assert f'href="{world.base}games/{world.chess_live}">playing</a>' in html
    assert "has a bye" in html
    home = await (await world.get(world.base)).text()
    assert f"tournaments/{tid}" in home and "&lt;i&gt;Winter" in home


async def test_another_club_s_tournament_is_not_found(world: World) -> None:
    tid = await _tournament(world)
    async with world.ctx.uow() as uow:
        row = await uow.tournaments.get(tid)
        assert row is not None
        await uow.guilds.ensure(11, "Other")
        row.guild_id = 11
        await uow.commit()
    assert (await world.get(f"{world.base}tournaments/{tid}")).status == 404
    assert (await world.get(f"{world.base}tournaments/0")).status == 404


async def test_a_session_page_shows_its_boards_with_their_scores(world: World) -> None:
    async with world.ctx.uow() as uow:
        row = ClubSessionRecord(
            guild_id=GUILD, channel_id=20, moderator_id=5, status="started", groups=[[[1], [2]]]
        )
        uow.session.add(row)
        await uow.session.flush()
        await signups.open_list(
            uow, guild_id=GUILD, owner_kind="session", owner_id=row.id, now=world.ctx.clock()
        )
        uow.session.add(
            SessionBoardRecord(session_id=row.id, number=1, game_id=world.scrabble_live)
        )
        sid = row.id
        await uow.commit()
    response = await world.get(f"{world.base}sessions/{sid}")
    html = await response.text()
    assert response.status == 200, html[:400]
    assert "Board 1" in html and f"games/{world.scrabble_live}" in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;: " in html and "Ben &amp; Co: 0" in html
    home = await (await world.get(world.base)).text()
    assert f"sessions/{sid}" in home
    assert (await world.get(f"{world.base}sessions/{sid + 100}")).status == 404


async def test_a_session_page_ranks_the_pairs_across_boards_as_the_results_post_does(
    world: World,
) -> None:
    async with world.ctx.uow() as uow:
        row = ClubSessionRecord(
            guild_id=GUILD,
            channel_id=21,
            moderator_id=5,
            status="started",
            groups=[[[1], [2]], [[1], [2]]],
        )
        uow.session.add(row)
        await uow.session.flush()
        await signups.open_list(
            uow, guild_id=GUILD, owner_kind="session", owner_id=row.id, now=world.ctx.clock()
        )
        for number, game in ((1, world.scrabble_live), (2, world.scrabble_done)):
            uow.session.add(SessionBoardRecord(session_id=row.id, number=number, game_id=game))
        sid = row.id
        await uow.commit()
    ranked = await SessionService(world.ctx, ScrabbleService(world.ctx)).reading.ranking(
        guild_id=GUILD, session_id=sid
    )
    assert ranked is not None and len(ranked.pairs) == 4 and ranked.plays == ()
    html = await (await world.get(f"{world.base}sessions/{sid}")).text()
    table = html.split('id="ranking"')[1].split("</table>")[0]
    rows = re.findall(r"<tr><td>(\d+)</td><th scope=\"row\">(.*?)</th><td>(-?\d+)</td>", table)
    names = {1: "&lt;script&gt;alert(1)&lt;/script&gt;", 2: "Ben &amp; Co"}
    assert rows == [(str(p.rank), names[p.user_ids[0]], str(p.score)) for p in ranked.pairs]
    scores = [int(score) for _rank, _name, score in rows]
    assert scores == sorted(scores, reverse=True) and len(set(scores)) > 1
    with pytest.raises(NotFoundError):
        await SessionService(world.ctx, ScrabbleService(world.ctx)).reading.ranking(
            guild_id=GUILD + 1, session_id=sid
        )
