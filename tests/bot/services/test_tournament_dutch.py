"""Which engine pairs a Swiss: a chess Swiss by the FIDE Dutch system unless the
director picks the club's own engine; a round with no legal Dutch pairing by
the club's engine, said in the director's log. On a real SQLite file (and
PostgreSQL when configured), through the service as the cog calls it."""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence

import pytest
from sqlalchemy import select

from bot.db.models import OutboxRecord
from bot.db.models_tournaments import TournamentRecord
from bot.db.uow import UnitOfWork
from bot.errors import InvalidInputError
from bot.messages.i18n import use_language
from bot.services import ServiceContext
from bot.services.chess import ChessService
from bot.services.tournaments import pairing
from bot.services.tournaments.service import TournamentService
from engines.pairings import Game, Pairing, dutch_pairings, swiss_pairings
from tests.bot.services.scrabble_support import Words, make_service
from tests.bot.services.test_tournaments import CHANNEL, GUILD, _act, _made, _rows, _start

RESULTS = {"win": 1.0, "draw": 0.5, "loss": 0.0}
DRAWS = ("draw", "draw", "draw", "draw")


@pytest.fixture
def tournaments(ctx: ServiceContext) -> TournamentService:
    chess = ChessService(ctx, engine=None, rng=random.Random(3))
    service = TournamentService(
        ctx, chess=chess, scrabble=make_service(ctx, Words()), rng=random.Random(11)
    )
    ctx.scheduler.register_service(service)
    ctx.scheduler.register_service(chess)
    return service


def _boards(pairings: list, number: int) -> list[Pairing]:
    rows = sorted((p for p in pairings if p.round == number), key=lambda p: p.board)
    return [Pairing(p.first_id, p.second_id) for p in rows]


async def _play_round(
    ctx: ServiceContext, tournaments: TournamentService, tid: int, results: Sequence[str]
) -> None:
    """Adjudicate the current round's boards in order (first's result) and let the jobs advance."""
    _, _, pairings, entrants = await _rows(ctx, tid)
    current = max(p.round for p in pairings)
    games = [p for p in pairings if p.round == current and p.second_id is not None]
    for p, result in zip(sorted(games, key=lambda p: p.board), results, strict=False):
        first = entrants[p.first_id]
        await tournaments.director.adjudicate(_act(tid), (first.user_id, first.label), result, None)
    await ctx.scheduler.run_due()


async def _two_rounds(
    ctx: ServiceContext, tournaments: TournamentService, **more: object
) -> tuple[list[Pairing], list[Pairing], list[Pairing]]:
    """An eight-entrant chess Swiss through round 2: what was stored for round 2,
    and what each engine gives for the same rows. Round 1's results are the
    first (in a fixed order) for which the two engines pair round 2 differently,
    so the test tells them apart whatever either engine's details become."""
    tid = await _made(tournaments, 8, fmt="swiss", rounds=5, **more)
    await _start(tournaments, tid)
    _, _, pairings, entrants = await _rows(ctx, tid)
    everyone = pairing.engine_entrants(list(entrants.values()))
    boards = _boards(pairings, 1)

    def both(results: Sequence[str]) -> tuple[list[Pairing], list[Pairing]]:
        games = [
            Game(1, b.first, b.second, RESULTS[r]) for b, r in zip(boards, results, strict=True)
        ]
        return (
            dutch_pairings(everyone, games, round=2, rounds=5),
            swiss_pairings(everyone, games, round=2, colours=True),
        )

    def differ(results: Sequence[str]) -> bool:
        dutch, club = both(results)
        return dutch != club

    chosen = next(r for r in itertools.product(RESULTS, repeat=4) if differ(r))
    await _play_round(ctx, tournaments, tid, chosen)
    head, _, pairings, _ = await _rows(ctx, tid)
    assert head[1] == 2
    dutch, club = both(chosen)
    return _boards(pairings, 2), dutch, club


async def _log(ctx: ServiceContext, tid: int) -> list[tuple[str, dict]]:
    async with UnitOfWork(ctx.session_factory) as uow:
        entries = [(e.action, dict(e.detail)) for e in await uow.tournaments.log_entries(tid)]
        await uow.commit()
    return entries


async def test_a_chess_swiss_is_paired_by_the_fide_dutch_system_by_default(
    ctx: ServiceContext, tournaments: TournamentService
) -> None:
    stored, dutch, _club = await _two_rounds(ctx, tournaments)
    assert stored == dutch


async def test_the_director_may_pick_the_clubs_own_engine(
    ctx: ServiceContext, tournaments: TournamentService
) -> None:
    stored, _dutch, club = await _two_rounds(ctx, tournaments, pairing="clubbot")
    assert stored == club


async def test_the_engine_is_stored_shown_on_the_card_and_logged(
    ctx: ServiceContext, tournaments: TournamentService
) -> None:
    dutch = await _made(tournaments, 0, fmt="swiss", rounds=5)
    club = await _made(tournaments, 0, fmt="swiss", rounds=5, pairing="clubbot")
    scrabble = await _made(tournaments, 0, game="scrabble", fmt="swiss", rounds=5)
    async with UnitOfWork(ctx.session_factory) as uow:
        options = {tid: (await uow.tournaments.get(tid)).options for tid in (dutch, club, scrabble)}
        await uow.commit()
    assert [options[t].get("pairing") for t in (dutch, club, scrabble)] == [
        "dutch",
        "clubbot",
        "clubbot",
    ]
    with use_language("en"):
        text = (await tournaments.reading.log(guild_id=GUILD, channel_id=CHANNEL, ref=dutch)).text
        other = (await tournaments.reading.log(guild_id=GUILD, channel_id=CHANNEL, ref=club)).text
    assert "made the tournament: Chess, Swiss, paired by the FIDE Dutch system" in text
    assert "made the tournament: Chess, Swiss, paired by the club's own engine" in other
    async with ctx.session_factory() as session:
        posts = [
            r.payload.get("content", "")
            for r in await session.scalars(select(OutboxRecord).order_by(OutboxRecord.id))
        ]
    cards = [p for p in posts if "(tournament #" in p]
    assert len(cards) == 3 and "Swiss, 5 rounds, paired by the FIDE Dutch system" in cards[0]
    assert "paired by the club's own engine" in cards[1] and "paired by" not in cards[2]


@pytest.mark.parametrize(
    ("game", "fmt", "choice", "refusal"),
    [
        ("scrabble", "swiss", "dutch", "pairs chess"),
        ("chess", "round_robin", "dutch", "Only a Swiss"),
        ("chess", "swiss", "burstein", "`dutch`"),
    ],
)
async def test_a_pairing_engine_that_does_not_fit_is_refused_and_nothing_made(
    ctx: ServiceContext,
    tournaments: TournamentService,
    game: str,
    fmt: str,
    choice: str,
    refusal: str,
) -> None:
    with use_language("en"), pytest.raises(InvalidInputError, match=refusal):
        await _made(tournaments, 0, game=game, fmt=fmt, rounds=5, pairing=choice)
    async with ctx.reader() as uow:
        assert await uow.tournaments.recent_in_guild(GUILD) == []


async def test_a_round_without_a_legal_dutch_pairing_falls_back_and_the_log_says_so(
    ctx: ServiceContext, tournaments: TournamentService
) -> None:
    # Three entrants, three rounds. One withdraws in round 1 (their opponent wins
    # by forfeit); the two left play round 2; in round 3 they have met, so no
    # Dutch pairing exists and the club's engine pairs them again.
    tid = await _made(tournaments, 3, fmt="swiss", rounds=3)
    await _start(tournaments, tid)
    _, _, pairings, entrants = await _rows(ctx, tid)
    (game,) = [p for p in pairings if p.second_id is not None]
    leaver = entrants[game.first_id]
    await tournaments.director.withdraw(_act(tid), (leaver.user_id, leaver.label))
    await ctx.scheduler.run_due()
    await _play_round(ctx, tournaments, tid, DRAWS)
    head, _, pairings, _ = await _rows(ctx, tid)
    assert head[1] == 3
    assert {frozenset((p.first_id, p.second_id)) for p in pairings if p.round == 3} == {
        frozenset((p.first_id, p.second_id)) for p in pairings if p.round == 2
    }
    log = await _log(ctx, tid)
    assert ("pairing_fallback", {"round": 3}) in log
    assert not any(action == "pairing_fallback" and d["round"] != 3 for action, d in log)
    with use_language("en"):
        text = (await tournaments.reading.log(guild_id=GUILD, channel_id=CHANNEL, ref=tid)).text
    assert (
        "**the bot** found no legal FIDE Dutch pairing for round 3, so paired it with the "
        "club's own engine." in text
    )


@pytest.mark.parametrize(
    ("kind", "options", "engine"),
    [
        ("chess", {"games_event_id": 7, "team_size": 2}, "dutch"),  # a games event's round
        ("chess", {"seed": 1}, "dutch"),  # made before the choice existed
        ("chess", {"pairing": "clubbot"}, "clubbot"),
        ("scrabble", {"games_event_id": 7}, "clubbot"),
        ("scrabble", {"pairing": "dutch"}, "clubbot"),  # never Dutch for Scrabble
    ],
)
def test_a_tournament_without_a_choice_pairs_chess_by_dutch_and_scrabble_by_the_club(
    kind: str, options: dict, engine: str
) -> None:
    t = TournamentRecord(game_kind=kind, format="swiss", options=options)
    assert pairing.pairing_engine(t) == engine
