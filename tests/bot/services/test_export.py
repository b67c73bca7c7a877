from __future__ import annotations

import csv
import io
import zipfile
from datetime import UTC, datetime

from bot.config import load_settings
from bot.db.models import GameRecord
from bot.db.uow import UnitOfWork
from bot.scheduler import Scheduler
from bot.services import ServiceContext
from bot.services.export import EXPORTERS, ExportService
from bot.services.results import SeatOutcome, record_game_result, record_points

WHEN = datetime(2026, 11, 29, tzinfo=UTC)


async def test_export_zip_holds_this_guilds_csv_and_finished_games(
    session_factory, monkeypatch, clock
) -> None:
    async with UnitOfWork(session_factory) as uow:
        for gid in (1, 2):
            await uow.guilds.ensure(gid, f"g{gid}")
        for pid, name in {1: "Niño", 2: "Ben", 3: "Other"}.items():
            await uow.players.ensure(pid, name)
        await record_game_result(
            uow,
            guild_id=1,
            kind="scrabble",
            game_id=None,
            played_at=WHEN,
            seats=[SeatOutcome(0, [1], 0, 420), SeatOutcome(1, [2], 1, 380)],
        )
        await record_points(
            uow, guild_id=2, kind="boggle", player_id=3, points=5, played_at=WHEN, round_ref="r"
        )
        uow.games.add(
            GameRecord(
                guild_id=1, kind="fake", status="finished", state={"text": "hello"}, options={}
            )
        )
        uow.games.add(
            GameRecord(
                guild_id=1, kind="fake", status="active", state={"text": "unfinished"}, options={}
            )
        )
        uow.games.add(
            GameRecord(
                guild_id=2,
                kind="fake",
                status="finished",
                state={"text": "other guild"},
                options={},
            )
        )
        await uow.commit()

    async def fake_exporter(ctx, game_id, guild_id):
        async with ctx.uow() as uow:
            game = await uow.games.get(game_id, guild_id=guild_id)
            return f"game-{game.id}.txt", game.state["text"]

    monkeypatch.setitem(EXPORTERS, "fake", fake_exporter)
    ctx = ServiceContext(
        settings=load_settings(None),
        session_factory=session_factory,
        scheduler=Scheduler(session_factory, clock=clock),
        clock=clock,
    )
    data, counts = await ExportService(ctx).export_zip(1)
    archive = zipfile.ZipFile(io.BytesIO(data))
    assert counts == {"results": 2, "ratings": 2, "games": 1}
    results = list(csv.DictReader(io.StringIO(archive.read("results.csv").decode())))
    assert [(r["player"], r["outcome"], r["score"]) for r in results] == [
        ("Niño", "win", "420"),
        ("Ben", "loss", "380"),
    ]
    ratings = list(csv.DictReader(io.StringIO(archive.read("ratings.csv").decode())))
    assert {r["player"] for r in ratings} == {"Niño", "Ben"} and float(ratings[0]["rating"]) > 1500
    game_files = [n for n in archive.namelist() if n.startswith("games/")]
    assert len(game_files) == 1 and archive.read(game_files[0]) == b"hello"
