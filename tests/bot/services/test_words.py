from __future__ import annotations

from pathlib import Path

import pytest

from bot.config import load_settings
from bot.errors import InvalidInputError
from bot.scheduler import Scheduler
from bot.services import ServiceContext
from bot.services.words import get_lexicon
from tests.clock import FakeClock


def _ctx(session_factory, **settings) -> ServiceContext:
    clock = FakeClock()
    return ServiceContext(
        settings=load_settings(None, **settings),
        session_factory=session_factory,
        scheduler=Scheduler(session_factory, clock=clock),
        clock=clock,
    )


async def test_the_configured_list_is_loaded_once_and_shared(
    session_factory, tmp_path: Path
) -> None:
    words = tmp_path / "club.txt"
    words.write_text("zax\nqat\ne-mail\ncat\n")
    ctx = _ctx(session_factory, lexicon=str(words))
    first = await get_lexicon(ctx)
    assert "zax" in first and "e-mail" not in first and "email" not in first
    assert await get_lexicon(ctx) is first


async def test_a_missing_list_is_a_clear_error(session_factory, tmp_path: Path) -> None:
    ctx = _ctx(session_factory)
    with pytest.raises(InvalidInputError, match="can't be used"):
        await get_lexicon(ctx, str(tmp_path / "nope.txt"))


async def test_a_club_list_edited_while_the_bot_runs_is_read_again(
    session_factory, tmp_path: Path
) -> None:
    words = tmp_path / "club.txt"
    words.write_text("zax\nqat\n")
    ctx = _ctx(session_factory, lexicon=str(words))
    first = await get_lexicon(ctx)
    assert "kilig" not in first
    words.write_text("zax\nqat\nkilig\n")
    second = await get_lexicon(ctx)
    assert "kilig" in second and second is not first
    assert await get_lexicon(ctx) is second
    built_in = await get_lexicon(ctx, "default")
    assert await get_lexicon(ctx, "default") is built_in
