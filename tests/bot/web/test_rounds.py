"""Boggle rounds and Henyo events on the club's page: every player's verdicts once a
round is scored (never before), and a Henyo word only once its round is over."""

from __future__ import annotations

from datetime import timedelta

from bot.db.models_boggle import BoggleRoundRecord, BoggleSubmissionRecord
from bot.db.models_henyo import HenyoRoundRecord
from bot.services.henyo.options import event_options
from bot.services.henyo.pairs import add_pair, new_event
from tests.bot.services.scrabble_support import GUILD
from tests.bot.web.conftest import SNEAKY, World
from tests.leaks import shows_secret

GRID = "Qu A I T/E V W T/S R N L/O D E X"  # as stored: rows split by "/"


async def _boggle(world: World) -> tuple[int, int]:
    now = world.ctx.clock()
    async with world.ctx.uow() as uow:
        for user_id, name in ((1, SNEAKY), (2, "Ben & Co")):
            await uow.players.ensure(user_id, name)
        scored = BoggleRoundRecord(
            guild_id=GUILD,
            number=7,
            channel_id=20,
            status="scored",
            size=4,
            dice="classic",
            seed=1,
            grid=GRID,
            lexicon="default",
            opens_at=now - timedelta(minutes=5),
            ends_at=now - timedelta(minutes=2),
            results={
                "round_id": 0,
                "number": 7,
                "grid": GRID,
                "size": 4,
                "min_length": 3,
                "ends_at": None,
                "season": "S1",
                "players": [
                    {
                        "id": 1,
                        "name": SNEAKY,
                        "rank": 1,
                        "total": 3,
                        "words": [["TRAIN", "scored", 2], ["<b>BOLD</b>", "not_a_word", 0]],
                    },
                    {
                        "id": 2,
                        "name": "Ben & Co",
                        "rank": 2,
                        "total": 1,
                        "words": [["NOTE", "not_on_grid", 0], ["RAIN", "cancelled", 0]],
                    },
                ],
                "winners": [1],
                "missed": [["STRAINED", 11]],
                "words_on_grid": 120,
                "points_on_grid": 300,
            },
        )
        running = BoggleRoundRecord(
            guild_id=GUILD,
            number=8,
            channel_id=20,
            status="open",
            size=4,
            dice="classic",
            seed=2,
            grid=GRID,
            lexicon="default",
            opens_at=now,
            ends_at=now + timedelta(minutes=3),
        )
        uow.session.add_all([scored, running])
        await uow.session.flush()
        uow.session.add(
            BoggleSubmissionRecord(
                round_id=running.id,
                player_id=2,
                entries=[],
                words=["SECRETLIST"],
                first_at=now,
                last_at=now,
                last_source_id=5,
            )
        )
        ids = scored.id, running.id
        await uow.commit()
    return ids


async def test_a_scored_boggle_round_shows_every_player_s_verdicts(world: World) -> None:
    scored, _ = await _boggle(world)
    response = await world.get(f"{world.base}boggle/{scored}")
    html = await response.text()
    assert response.status == 200
    assert "Word Boggle round 7" in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html and SNEAKY not in html
    assert "&lt;b&gt;BOLD&lt;/b&gt;" in html and "<b>BOLD" not in html
    for word, verdict in (
        ("TRAIN", "Scored"),
        ("NOTE", "Not on the grid"),
        ("RAIN", "Cancelled (on another list too)"),
    ):
        assert f'<th scope="row">{word}</th><td>{verdict}</td>' in html
    assert "<td>Qu</td>" in html and "STRAINED (11)" in html
    home = await (await world.get(world.base)).text()
    assert f"boggle/{scored}" in home and "Round 7" in home


async def test_a_boggle_round_not_yet_scored_shows_no_list(world: World) -> None:
    _, running = await _boggle(world)
    response = await world.get(f"{world.base}boggle/{running}")
    html = await response.text()
    assert response.status == 200 and "Word Boggle round 8" in html
    assert not shows_secret(html, "SECRETLIST") and "Ben &amp; Co" not in html
    assert "once it is scored" in html


async def _henyo(world: World) -> int:
    now = world.ctx.clock()
    async with world.ctx.uow() as uow:
        for user_id, name in ((1, SNEAKY), (2, "Ben & Co"), (5, "erin"), (6, "frank")):
            await uow.players.ensure(user_id, name)
        options = event_options(
            pairs=2, time_limit=None, penalty=None, categories=None, language=None
        )
        event, lst = await new_event(
            uow, guild_id=GUILD, channel_id=20, host_id=5, options=options, now=now
        )
        first = await add_pair(uow, event, lst, user_id=1, partner_id=2, now=now)
        second = await add_pair(uow, event, lst, user_id=5, partner_id=6, now=now)
        common = {
            "guild_id": GUILD,
            "channel_id": 20,
            "event_id": event.id,
            "host_id": 5,
            "time_limit_ms": 120_000,
            "penalty_ms": 5_000,
        }
        uow.session.add_all(
            [
                HenyoRoundRecord(
                    **common,
                    team_id=first.id,
                    guesser_id=1,
                    answerer_id=2,
                    word="Aklatan",
                    word_key="aklatan",
                    status="guessed",
                    started_at=now - timedelta(minutes=3),
                    ended_at=now - timedelta(minutes=2),
                    elapsed_ms=61_200,
                    penalties=1,
                    final_ms=66_200,
                ),
                HenyoRoundRecord(
                    **common,
                    team_id=second.id,
                    guesser_id=5,
                    answerer_id=6,
                    word="Bookmark",
                    word_key="bookmark",
                    status="running",
                    started_at=now,
                ),
            ]
        )
        event_id = event.id
        await uow.commit()
    return event_id


async def test_henyo_standings_show_a_word_only_once_its_round_is_over(world: World) -> None:
    event_id = await _henyo(world)
    response = await world.get(f"{world.base}henyo/{event_id}")
    html = await response.text()
    assert response.status == 200, html[:500]
    assert "Library Henyo event" in html and "Hosted by erin" in html
    assert shows_secret(html, "Aklatan") and "1:06.2" in html  # its round is over
    assert not shows_secret(html, "Bookmark")  # still being guessed
    assert "&lt;script&gt;" in html and SNEAKY not in html
    home = await (await world.get(world.base)).text()
    assert f"henyo/{event_id}" in home and not shows_secret(home, "Bookmark")
