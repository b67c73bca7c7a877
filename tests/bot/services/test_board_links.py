"""Private board links (issue #28): signed per member and game, refused when forged,
expired, revoked, ended or someone else's."""

from __future__ import annotations

from datetime import timedelta

import pytest

from bot.db.models import GameRecord, PlayerRecord
from bot.services import ServiceContext
from bot.services.board_links import (
    ENDED_VIEW,
    LINK_DAYS,
    LINK_PATH,
    BoardLinks,
    Grant,
    LinkRefused,
    check,
    parse,
    sign,
)
from tests.conftest import make_service_context

GUILD = 4242
ALICE, BOB, CAROL = 11, 12, 13


@pytest.fixture
def web_ctx(session_factory, clock) -> ServiceContext:
    return make_service_context(session_factory, clock, lexicon="default", web_port=0)


@pytest.fixture
def links(web_ctx) -> BoardLinks:
    return BoardLinks(web_ctx)


async def _game(ctx: ServiceContext, kind: str = "scrabble", status: str = "active") -> int:
    async with ctx.uow() as uow:
        await uow.guilds.ensure(GUILD, "Library Club")
        for user in (ALICE, BOB, CAROL):
            if await uow.players.get(user) is None:
                uow.session.add(PlayerRecord(id=user, display_name=f"user{user}"))
        game = await uow.games.add_with_seats(
            GameRecord(guild_id=GUILD, kind=kind, status=status, channel_id=1),
            [(0, ALICE, True), (1, BOB, True)],
        )
        await uow.commit()
        return game.id


def _token(path: str | None) -> str:
    assert path is not None and path.startswith(LINK_PATH)
    return path.removeprefix(LINK_PATH)


async def test_a_link_opens_its_own_game_as_its_member(links, web_ctx) -> None:
    game_id = await _game(web_ctx)
    token = _token(await links.link(GUILD, ALICE, "scrabble", game_id))
    grant = await links.open(token)
    assert (grant.guild_id, grant.user_id, grant.kind, grant.subject_id) == (
        GUILD,
        ALICE,
        "scrabble",
        game_id,
    )
    assert grant.allows("scrabble", game_id)
    assert not grant.allows("scrabble", game_id + 1)
    assert not grant.allows("chess", game_id)


async def test_the_secret_is_made_once_and_kept_in_the_database(links, web_ctx) -> None:
    game_id = await _game(web_ctx)
    first = await links.link(GUILD, ALICE, "scrabble", game_id)
    async with web_ctx.reader() as uow:
        settings = (await uow.guilds.get(GUILD)).settings
    assert settings["links"]["generation"] == 1
    secret = settings["links"]["secret"]
    await links.link(GUILD, BOB, "scrabble", game_id)
    async with web_ctx.reader() as uow:
        assert (await uow.guilds.get(GUILD)).settings["links"]["secret"] == secret
    # The link's mac is the club's secret's: a new BoardLinks (a restart) still opens it.
    assert (await BoardLinks(web_ctx).open(_token(first))).user_id == ALICE


@pytest.mark.parametrize(
    "tamper",
    [
        lambda t: t.replace(f".{ALICE}.", f".{BOB}.", 1),  # another member
        lambda t: t[:-2] + ("AA" if not t.endswith("AA") else "BB"),  # a changed mac
        lambda t: t.rsplit(".", 1)[0] + ".",  # no mac
        lambda t: "v2" + t[2:],  # an unknown version
        lambda t: "garbage",
        lambda t: t + ".extra",
    ],
)
async def test_a_forged_link_is_refused(links, web_ctx, tamper) -> None:
    game_id = await _game(web_ctx)
    token = _token(await links.link(GUILD, ALICE, "scrabble", game_id))
    with pytest.raises(LinkRefused) as refused:
        await links.open(tamper(token))
    assert refused.value.code == "link_forged"


async def test_another_games_number_in_a_genuine_link_is_refused(links, web_ctx) -> None:
    mine = await _game(web_ctx)
    theirs = await _game(web_ctx)
    token = _token(await links.link(GUILD, ALICE, "scrabble", mine))
    with pytest.raises(LinkRefused) as refused:
        await links.open(token.replace(f".s{mine}.", f".s{theirs}.", 1))
    assert refused.value.code == "link_forged"


async def test_a_link_expires_after_its_days(links, web_ctx, clock) -> None:
    game_id = await _game(web_ctx)
    token = _token(await links.link(GUILD, ALICE, "scrabble", game_id))
    clock.advance(days=LINK_DAYS, minutes=-1)
    assert (await links.open(token)).user_id == ALICE
    clock.advance(minutes=2)
    with pytest.raises(LinkRefused) as refused:
        await links.open(token)
    assert refused.value.code == "link_expired"


async def test_rotating_revokes_every_link_given_before(links, web_ctx) -> None:
    game_id = await _game(web_ctx)
    old = _token(await links.link(GUILD, ALICE, "scrabble", game_id))
    await links.rotate(GUILD)
    with pytest.raises(LinkRefused) as refused:
        await links.open(old)
    assert refused.value.code == "link_revoked"
    new = _token(await links.link(GUILD, ALICE, "scrabble", game_id))
    assert (await links.open(new)).generation == 2


async def test_a_finished_game_shows_its_end_for_a_while_then_no_longer_opens(
    links, web_ctx, clock
) -> None:
    game_id = await _game(web_ctx)
    token = _token(await links.link(GUILD, ALICE, "scrabble", game_id))
    async with web_ctx.uow() as uow:
        game = await uow.games.get(game_id)
        game.status, game.finished_at = "finished", clock()
        await uow.commit()
    # Its final position, read-only (the game refuses every change), for ENDED_VIEW.
    clock.advance(seconds=ENDED_VIEW.total_seconds() - 60)
    assert (await links.open(token)).user_id == ALICE
    clock.advance(minutes=2)
    with pytest.raises(LinkRefused) as refused:
        await links.open(token)
    assert refused.value.code == "link_ended"


async def test_a_finished_game_with_no_end_time_no_longer_opens(links, web_ctx) -> None:
    game_id = await _game(web_ctx)
    token = _token(await links.link(GUILD, ALICE, "scrabble", game_id))
    async with web_ctx.uow() as uow:
        game = await uow.games.get(game_id)
        game.status = "finished"
        await uow.commit()
    with pytest.raises(LinkRefused) as refused:
        await links.open(token)
    assert refused.value.code == "link_ended"


async def test_a_member_not_seated_in_the_game_is_refused(links, web_ctx) -> None:
    game_id = await _game(web_ctx)
    # A genuine link made for Carol, who is not seated (e.g. replaced since).
    token = _token(await links.link(GUILD, CAROL, "scrabble", game_id))
    with pytest.raises(LinkRefused) as refused:
        await links.open(token)
    assert refused.value.code == "link_not_yours"


async def test_a_link_of_the_wrong_kind_is_refused(links, web_ctx) -> None:
    game_id = await _game(web_ctx, kind="chess")
    token = _token(await links.link(GUILD, ALICE, "scrabble", game_id))
    with pytest.raises(LinkRefused) as refused:
        await links.open(token)
    assert refused.value.code == "link_not_yours"


async def test_without_a_web_port_no_link_is_offered(session_factory, clock) -> None:
    ctx = make_service_context(session_factory, clock, lexicon="default")
    assert ctx.settings.web_port is None
    assert await BoardLinks(ctx).link(GUILD, ALICE, "scrabble", 1) is None


def test_the_token_round_trips_and_any_changed_character_breaks_it(clock) -> None:
    secret = b"k" * 32
    now = clock()
    grant = Grant(GUILD, ALICE, "chess", 7, int((now + timedelta(days=1)).timestamp()), 3)
    token = sign(secret, grant)
    assert parse(token) is not None and check(token, secret, 3, now) == grant
    for i, char in enumerate(token):
        if char == ".":
            continue
        changed = token[:i] + ("0" if char != "0" else "1") + token[i + 1 :]
        with pytest.raises(LinkRefused):
            check(changed, secret, 3, now)
    with pytest.raises(LinkRefused):
        check(token, b"x" * 32, 3, now)


async def test_club_web_rotate_revokes_the_board_links_too(links, web_ctx) -> None:
    from bot.services.web import WebService

    game_id = await _game(web_ctx)
    old = _token(await links.link(GUILD, ALICE, "scrabble", game_id))
    await WebService(web_ctx).set(GUILD, "Library Club", "on")
    assert (await links.open(old)).user_id == ALICE  # turning the page on revokes nothing
    await WebService(web_ctx).set(GUILD, "Library Club", "rotate")
    with pytest.raises(LinkRefused) as refused:
        await links.open(old)
    assert refused.value.code == "link_revoked"
