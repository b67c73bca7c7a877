"""The Scrabble service tests' shared helpers: members, a word list that knows every word
but its phonies, and steps of a game read and driven through the service (the fixtures
built on them are in ``conftest.py``)."""

from __future__ import annotations

import random
from collections import Counter
from types import SimpleNamespace

from sqlalchemy import select

from bot.db.models import JobRecord, OutboxRecord
from bot.services import ServiceContext
from bot.services.scrabble import LexiconCache, Member, NewGameRequest, ScrabbleService
from engines.scrabble import ScrabbleGame

GUILD, CHANNEL, THREAD = 10, 20, 30
ALICE, BOB, CAROL, DAVE, ERIN = (
    Member(i, n) for i, n in ((1, "Alice"), (2, "Bob"), (3, "Carol"), (4, "Dave"), (5, "Erin"))
)


class Words:
    """A word list that knows every word except the phonies."""

    def __init__(self) -> None:
        self.phonies: set[str] = set()

    def __contains__(self, word: object) -> bool:
        return isinstance(word, str) and word.upper() not in self.phonies


class Definitions:
    def define(self, word: str) -> str | None:
        return "a thing that is tested" if word.upper() != "ZZ" else None


def make_service(ctx: ServiceContext, words: Words, definitions=None) -> ScrabbleService:
    return ScrabbleService(
        ctx,
        rng=random.Random(5),
        lexicons=LexiconCache(lambda name: words),
        definitions=lambda: definitions,
    )


def request(*opponents: Member, **options) -> NewGameRequest:
    return NewGameRequest(
        guild_id=GUILD,
        guild_name="Club",
        channel_id=CHANNEL,
        creator=ALICE,
        opponents=list(opponents) or [BOB],
        **options,
    )


async def started(service: ScrabbleService, req: NewGameRequest | None = None) -> int:
    req = req or request()
    outcome = await service.invitations.create(req)
    invited = [m for m in [*req.opponents, *req.partners] if m is not None and not m.computer]
    for member in invited:
        outcome = await service.invitations.accept(outcome.game_id, member.user_id, GUILD)
    assert outcome.all_accepted
    await service.invitations.start(outcome.game_id, THREAD)
    return outcome.game_id


async def engine_of(ctx: ServiceContext, game_id: int) -> ScrabbleGame:
    async with ctx.uow() as uow:
        record = await uow.games.get(game_id)
        return ScrabbleGame.from_json(record.state["engine"])


async def rig(ctx: ServiceContext, game_id: int, game: ScrabbleGame) -> None:
    """Replace a game's state with a rigged one (tests only)."""
    async with ctx.uow() as uow:
        record = await uow.games.get(game_id)
        state = dict(record.state)
        state["engine"] = game.to_json()
        state["seat"] = game.current_seat
        await uow.games.save_state(record, expected_version=record.version, state=state)
        await uow.commit()


async def set_racks(ctx: ServiceContext, game_id: int, racks: dict[int, str]) -> None:
    """Give each seat these tiles, swapped with the bag (the 100 tiles stay the 100), in
    the game's saved state, which the service reads afresh for every move (tests only)."""
    async with ctx.uow() as uow:
        record = await uow.games.get(game_id)
        state = dict(record.state)
        engine = dict(state["engine"])
        pool = Counter(engine["bag"])
        for seat in racks:
            pool += Counter(engine["racks"][seat])
        engine["racks"] = list(engine["racks"])
        for seat, rack in racks.items():
            pool.subtract(Counter(rack))
            engine["racks"][seat] = rack
        assert min(pool.values()) >= 0, f"the tiles cannot make {racks}"
        engine["bag"] = "".join(sorted(pool.elements()))
        ScrabbleGame.from_json(engine)  # still a whole set of tiles
        state["engine"] = engine
        await uow.games.save_state(record, expected_version=record.version, state=state)
        await uow.commit()


async def seat_member(ctx: ServiceContext, game_id: int, seat: int) -> int:
    async with ctx.uow() as uow:
        record = await uow.games.get(game_id)
        return next(s.user_id for s in record.seats if s.seat == seat)


async def first_play(
    service: ScrabbleService, ctx: ServiceContext, game_id: int
) -> tuple[int, str]:
    game = await engine_of(ctx, game_id)
    seat = game.current_seat
    user = await seat_member(ctx, game_id, seat)
    word = "".join("e" if t == "?" else t for t in game.racks[seat][:2])
    await service.moves.play(game_id, user, word, "8H")
    return user, word


async def outbox(ctx: ServiceContext) -> list[SimpleNamespace]:
    async with ctx.uow() as uow:
        rows = (await uow.session.execute(select(OutboxRecord).order_by(OutboxRecord.id))).scalars()
        return [
            SimpleNamespace(
                target_kind=r.target_kind,
                target_id=r.target_id,
                fallback_channel_id=r.fallback_channel_id,
                payload=r.payload,
            )
            for r in rows
        ]


async def posts(ctx: ServiceContext) -> list[SimpleNamespace]:
    """What the service posted in channels (DMs left out)."""
    return [p for p in await outbox(ctx) if p.target_kind == "channel"]


async def jobs(ctx: ServiceContext) -> dict[str, SimpleNamespace]:
    async with ctx.uow() as uow:
        rows = (
            await uow.session.execute(select(JobRecord).where(JobRecord.status == "due"))
        ).scalars()
        return {
            row.key: SimpleNamespace(kind=row.kind, due_at=row.due_at, payload=row.payload)
            for row in rows
        }


def register(ctx: ServiceContext, service: ScrabbleService) -> None:
    """Let the context's scheduler run the service's jobs."""
    ctx.scheduler.register_service(service)
