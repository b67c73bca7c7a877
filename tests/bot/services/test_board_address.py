"""Where the bot offers a member their board link (issue #28): an absolute address
under WEB_BASE_URL, only to a player of a game in play or while a round is open,
and none at all without an absolute address or without WEB_PORT."""

from __future__ import annotations

from datetime import timedelta
from urllib.parse import urlsplit

import pytest

from bot.db.models import GameRecord, PlayerRecord
from bot.db.models_boggle import BoggleRoundRecord
from bot.services import ServiceContext
from bot.services.board_address import VIEW_BOARD_LINK, BoardAddresses, absolute_base
from bot.services.board_links import LINK_PATH, BoardLinks, parse
from tests.conftest import make_service_context

GUILD, OTHER_GUILD = 4242, 4343
ALICE, BOB, ERIN = 11, 12, 15
BASE = "https://games.example.org"


def _ctx(session_factory, clock, **web: object) -> ServiceContext:
    return make_service_context(session_factory, clock, lexicon="default", **web)


@pytest.fixture
def boards(session_factory, clock) -> BoardAddresses:
    return BoardAddresses(_ctx(session_factory, clock, web_port=0, web_base_url=BASE))


async def _game(ctx: ServiceContext, kind: str = "scrabble", status: str = "active") -> int:
    async with ctx.uow() as uow:
        await uow.guilds.ensure(GUILD, "Library Club")
        for user in (ALICE, BOB, ERIN):
            if await uow.players.get(user) is None:
                uow.session.add(PlayerRecord(id=user, display_name=f"user{user}"))
        game = await uow.games.add_with_seats(
            GameRecord(guild_id=GUILD, kind=kind, status=status, channel_id=1),
            [(0, ALICE, True), (1, BOB, True)],
        )
        await uow.commit()
        return game.id


async def _round(ctx: ServiceContext, status: str = "open") -> int:
    now = ctx.clock()
    async with ctx.uow() as uow:
        await uow.guilds.ensure(GUILD, "Library Club")
        number = await uow.boggle.next_round_number(GUILD)
        record = BoggleRoundRecord(
            guild_id=GUILD,
            number=number,
            channel_id=20,
            status=status,
            size=4,
            dice="classic",
            seed=1,
            grid="Qu A I T/E V W T/S R N L/O D E X",
            lexicon="default",
            opens_at=now,
            ends_at=now + timedelta(minutes=3),
        )
        uow.session.add(record)
        await uow.commit()
        return record.id


def _names(url: str | None) -> tuple[int, int, str, int]:
    assert url is not None
    parts = urlsplit(url)
    assert f"{parts.scheme}://{parts.netloc}" == BASE and parts.path.startswith(LINK_PATH)
    parsed = parse(parts.path.removeprefix(LINK_PATH))
    assert parsed is not None
    grant = parsed[0]
    return grant.guild_id, grant.user_id, grant.kind, grant.subject_id


async def test_a_player_of_a_game_in_play_gets_an_absolute_link_naming_them(boards) -> None:
    game_id = await _game(boards.ctx)
    for user in (ALICE, BOB):
        url = await boards.url(GUILD, user, "scrabble", game_id)
        assert _names(url) == (GUILD, user, "scrabble", game_id)
    # The link it gives opens that board as that member.
    url = await boards.url(GUILD, ALICE, "scrabble", game_id)
    assert url is not None
    grant = await BoardLinks(boards.ctx).open(urlsplit(url).path.removeprefix(LINK_PATH))
    assert grant.user_id == ALICE


async def test_no_link_for_a_non_player_another_club_another_kind_or_a_game_not_in_play(
    boards,
) -> None:
    game_id = await _game(boards.ctx, kind="chess")
    assert await boards.url(GUILD, ERIN, "chess", game_id) is None
    assert await boards.url(OTHER_GUILD, ALICE, "chess", game_id) is None
    assert await boards.url(GUILD, ALICE, "scrabble", game_id) is None
    assert await boards.url(GUILD, ALICE, "chess", game_id + 100) is None
    for status in ("invited", "finished", "abandoned"):
        other = await _game(boards.ctx, kind="chess", status=status)
        assert await boards.url(GUILD, ALICE, "chess", other) is None


async def test_a_boggle_round_s_link_is_offered_to_anyone_while_it_is_open(boards) -> None:
    open_round = await _round(boards.ctx)
    assert _names(await boards.url(GUILD, ERIN, "boggle", open_round)) == (
        GUILD,
        ERIN,
        "boggle",
        open_round,
    )
    assert await boards.url(OTHER_GUILD, ERIN, "boggle", open_round) is None
    for status in ("scheduled", "closed", "scored", "cancelled"):
        other = await _round(boards.ctx, status)
        assert await boards.url(GUILD, ERIN, "boggle", other) is None


@pytest.mark.parametrize(
    "web",
    [{}, {"web_base_url": BASE}, {"web_port": 0}],
    ids=["nothing", "no WEB_PORT", "no WEB_BASE_URL"],
)
async def test_without_pages_at_an_absolute_address_nothing_is_offered(
    session_factory, clock, web
) -> None:
    boards = BoardAddresses(_ctx(session_factory, clock, **web))
    game_id = await _game(boards.ctx)
    assert not boards.offered
    assert await boards.url(GUILD, ALICE, "scrabble", game_id) is None
    assert boards.dm_button(GUILD, "scrabble", game_id) is None
    async with boards.ctx.reader() as uow:  # no secret was made for nothing
        guild = await uow.guilds.get(GUILD)
        assert guild is not None and "links" not in (guild.settings or {})


def test_only_an_absolute_http_address_is_a_base() -> None:
    assert absolute_base("https://games.example.org") == "https://games.example.org"
    assert absolute_base("http://10.0.0.2:8080/club") == "http://10.0.0.2:8080/club"
    for base in (None, "", "/board", "games.example.org", "ftp://games.example.org", "https://"):
        assert absolute_base(base) is None


async def test_a_dm_s_link_is_made_for_whoever_the_dm_goes_to(boards) -> None:
    game_id = await _game(boards.ctx)
    spec = boards.dm_button(GUILD, "scrabble", game_id)
    assert spec is not None and spec.kind == VIEW_BOARD_LINK
    assert "user_id" not in spec.args  # partners' DMs stay one text: the member comes later
    for user in (ALICE, BOB):
        url = await boards.url_for_dm(spec.args, user)
        assert _names(url) == (GUILD, user, "scrabble", game_id)
    assert await boards.url_for_dm(spec.args, ERIN) is None
    for bad in ({}, {**spec.args, "kind": "henyo"}, {**spec.args, "subject_id": "1"}):
        assert await boards.url_for_dm(bad, ALICE) is None
