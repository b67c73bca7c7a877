"""The one "which game do you mean" resolver and "your games" autocomplete."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime, timedelta

import pytest

from bot.db.models import GameRecord, GameSeatRecord
from bot.db.uow import UnitOfWork
from bot.errors import InvalidInputError, NotFoundError
from bot.services import ServiceContext
from bot.services.games import GameFinder, GameKind, parse_game_ref

GUILD, OTHER_GUILD = 10, 11
ANA, BEN = 101, 102
T0 = datetime(2026, 1, 5, 12, 0, tzinfo=UTC)


async def _labels(uow: UnitOfWork, records: Sequence[GameRecord], user_id: int) -> list[str]:
    return [f"#{r.id} · {r.status}" for r in records]


@pytest.fixture
def finder(ctx: ServiceContext) -> GameFinder:
    return GameFinder(ctx, GameKind("chess", "chess", "`/chess new opponent:@member`"), _labels)


async def _game(
    ctx: ServiceContext,
    status: str,
    *,
    guild: int = GUILD,
    kind: str = "chess",
    thread: int | None = None,
    age: int = 0,
) -> int:
    async with ctx.uow() as uow:
        for gid in (GUILD, OTHER_GUILD):
            await uow.guilds.ensure(gid)
        for uid, name in ((ANA, "Ana"), (BEN, "Ben")):
            await uow.players.ensure(uid, name)
        record = uow.games.add(
            GameRecord(
                guild_id=guild,
                kind=kind,
                status=status,
                thread_id=thread,
                updated_at=T0 - timedelta(hours=age),
            )
        )
        await uow.session.flush()
        for seat, uid in enumerate((ANA, BEN)):
            uow.session.add(GameSeatRecord(game_id=record.id, seat=seat, user_id=uid))
        await uow.commit()
        return record.id


@pytest.mark.parametrize(
    ("text", "number"),
    [
        ("#12", 12),
        ("12", 12),
        (" # 7 ", 7),
        ("#12 · vs Ana · your turn", 12),
        (None, None),
        ("", None),
        (5, 5),
    ],
)
def test_a_game_reference_reads_as_members_and_the_autocomplete_write_it(text, number) -> None:
    assert parse_game_ref(text) == number


def test_a_reference_without_a_number_is_a_clear_error() -> None:
    with pytest.raises(InvalidInputError, match="like `#12`"):
        parse_game_ref("my game")


async def test_the_only_game_in_progress_is_the_default(ctx, finder) -> None:
    await _game(ctx, "finished")
    game = await _game(ctx, "active")
    await _game(ctx, "active", kind="scrabble")
    await _game(ctx, "active", guild=OTHER_GUILD)
    assert await finder.resolve(guild_id=GUILD, user_id=ANA, channel_id=None, ref=None) == game


async def test_inside_a_game_thread_that_game_is_meant(ctx, finder) -> None:
    await _game(ctx, "active")
    threaded = await _game(ctx, "active", thread=555)
    assert await finder.resolve(guild_id=GUILD, user_id=BEN, channel_id=555, ref=None) == threaded


async def test_two_games_going_ask_which_naming_them(ctx, finder) -> None:
    first = await _game(ctx, "active")
    second = await _game(ctx, "active", age=1)
    with pytest.raises(InvalidInputError) as asked:
        await finder.resolve(guild_id=GUILD, user_id=ANA, channel_id=None, ref=None)
    message = str(asked.value)
    assert "You have 2 chess games going" in message
    assert f"#{first}" in message and f"#{second}" in message


async def test_no_game_says_how_to_start_one(ctx, finder) -> None:
    with pytest.raises(NotFoundError, match="Start one with `/chess new"):
        await finder.resolve(guild_id=GUILD, user_id=ANA, channel_id=None, ref=None)


async def test_finished_games_are_the_default_only_where_the_command_wants_them(
    ctx, finder
) -> None:
    old = await _game(ctx, "finished", age=2)
    latest = await _game(ctx, "finished", age=1)
    kw = {"guild_id": GUILD, "user_id": ANA, "channel_id": None, "ref": None}
    assert await finder.resolve(**kw, want="finished") == latest
    assert await finder.resolve(**kw, want="any") == latest
    with pytest.raises(NotFoundError):
        await finder.resolve(**kw)
    assert old != latest


async def test_the_autocomplete_offers_the_members_games_filtered_by_what_was_typed(
    ctx, finder
) -> None:
    playing = await _game(ctx, "active")
    invited = await _game(ctx, "invited", age=1)
    finished = await _game(ctx, "finished", age=2)
    await _game(ctx, "active", guild=OTHER_GUILD)
    offered = await finder.choices(guild_id=GUILD, user_id=ANA, typed="")
    assert [value for _, value in offered] == [str(playing), str(invited)]
    assert await finder.choices(guild_id=GUILD, user_id=ANA, typed="invit") == [
        (f"#{invited} · invited", str(invited))
    ]
    with_finished = await finder.choices(guild_id=GUILD, user_id=ANA, typed="", want="any")
    assert [value for _, value in with_finished] == [str(playing), str(invited), str(finished)]


async def test_the_finders_refusals_read_in_the_clubs_language(ctx, finder) -> None:
    from bot.messages.errors import refusal
    from bot.messages.i18n import use_language

    await _game(ctx, "active")
    await _game(ctx, "active", age=1)
    with pytest.raises(InvalidInputError) as asked:
        await finder.resolve(guild_id=GUILD, user_id=ANA, channel_id=None, ref=None)
    with pytest.raises(InvalidInputError) as unreadable:
        await finder.resolve(guild_id=GUILD, user_id=ANA, channel_id=None, ref="twelve")
    with use_language("fil"):
        several = refusal(asked.value)
        pick = refusal(unreadable.value)
    assert several.startswith("May 2 kang kasalukuyang chess game:"), several
    assert pick == "Pumili ng laro sa listahan, o ibigay ang numero nito gaya ng `#12`."
