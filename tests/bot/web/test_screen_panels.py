"""The room's screen's data (``ScreenBoard.shown``, bot/web/screen.py) for a tournament:
its current round's pairings and its standings, members as text; and the idle club's
leaderboard once it is over."""

from __future__ import annotations

from bot.db.models_tournaments import TournamentRecord
from bot.web.screen import ScreenBoard
from tests.bot.services.scrabble_support import GUILD
from tests.bot.web.conftest import SNEAKY, World
from tests.bot.web.test_tournaments import _tournament


async def _set_status(world: World, tid: int, status: str) -> None:
    async with world.ctx.uow() as uow:
        t = await uow.session.get(TournamentRecord, tid)
        assert t is not None
        t.status = status
        await uow.commit()


async def test_a_running_tournament_shows_its_current_round_s_pairings_and_standings(
    world: World,
) -> None:
    screen = ScreenBoard(world.ctx)
    idle = await screen.shown(GUILD)
    assert idle["panel"] == "idle"
    tid = await _tournament(world)
    await _set_status(world, tid, "running")
    shown = await screen.shown(GUILD)
    assert shown["panel"] == "tournament" and shown["version"] != idle["version"]
    assert shown["heading"] == "<i>Winter</i> Open"  # text: the page sets it as text
    assert shown["round"] == "Round 2 of 2"
    # Round 2 only (the current round): dave against the scripted name, in play.
    assert shown["pairings"] == [["1", "dave", SNEAKY, "playing"]]
    standings = [row[1] for row in shown["standings"]]
    assert standings.index("dave") < standings.index("carol")  # dave won round 1
    assert await screen.shown(GUILD) == shown  # nothing changed: the same version

    await _set_status(world, tid, "finished")
    over = await screen.shown(GUILD)
    assert over["panel"] == "idle" and over["leaderboard"]  # the games' players
