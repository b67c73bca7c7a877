"""A club session over real boards (issue #29) through the service, on SQLite and
PostgreSQL: two boards of two pairs, each entered play by play from a conformance
GCG game, every running total the record's; corrections by a side and by the
director with the later scores recomputed; refusals that change nothing; the
racks at the end and the ranking across boards; and a new service over the same
database (a restart) between entries."""

from __future__ import annotations

import random

import pytest

from bot.errors import InvalidInputError, PermissionDeniedError
from bot.services.scrabble import ScrabbleService
from bot.services.sessions import Member, SessionService
from bot.services.sessions.tally import BoardTally
from tests.bot.services.scrabble_support import CHANNEL, GUILD, Words, make_service, posts
from tests.engines.scrabble.room_support import TallyEntry, TallyGame, clean_games

MOD = Member(900, "Host")
PEOPLE = [Member(100 + i, f"member{i}") for i in range(8)]


def fresh(ctx, words: Words, *, restart: bool = False) -> SessionService:
    """The session service as a (re)started bot makes it (the scheduler's handlers are
    the first one's: every timer is a row, whoever runs it)."""
    scrabble: ScrabbleService = make_service(ctx, words)
    svc = SessionService(ctx, scrabble, rng=random.Random(3))
    if not restart:
        ctx.scheduler.register_service(scrabble)
        ctx.scheduler.register_service(svc)
    return svc


async def room_session(svc: SessionService) -> list[tuple[int, list[int]]]:
    """A session in the room with boards of two pairs: (game id, a member of each seat)."""
    await svc.entry.open(
        guild_id=GUILD,
        guild_name="Club",
        channel_id=CHANNEL,
        moderator=MOD,
        is_moderator=True,
        where="room",
        board_pairs=2,
    )
    for i in range(0, 8, 2):
        await svc.entry.signup(
            guild_id=GUILD,
            channel_id=CHANNEL,
            user=PEOPLE[i],
            by=PEOPLE[i],
            is_moderator=False,
            partner=PEOPLE[i + 1],
        )
    for _ in range(2):
        await svc.forming.start(guild_id=GUILD, channel_id=CHANNEL, by=MOD, is_moderator=True)
    await svc.core.ctx.scheduler.run_due()
    view = await svc.core.get(1)
    assert [len(b.seats) for b in view.boards] == [2, 2]
    return [(int(b.game_id or 0), [s.user_ids[0] for s in b.seats]) for b in view.boards]


async def enter(svc: SessionService, game_id: int, members: list[int], e: TallyEntry) -> BoardTally:
    user = members[e.seat]
    if e.kind == "play":
        done = await svc.tally.play(game_id, user, e.typed, e.position, guild_id=GUILD)
    elif e.kind == "pass":
        done = await svc.tally.pass_turn(game_id, user, guild_id=GUILD)
    elif e.kind == "exchange":
        done = await svc.tally.exchange(game_id, user, e.count, guild_id=GUILD)
    elif e.kind == "challenge":
        done = await svc.tally.challenge(game_id, user, guild_id=GUILD)
    else:
        done = await svc.tally.rack(game_id, user, e.tiles, guild_id=GUILD)
    return done.tally


def scores(tally: BoardTally) -> tuple[int, ...]:
    return tuple(s.score for s in tally.seats)


async def play_through(
    svc: SessionService, game_id: int, members: list[int], record: TallyGame, *, stop: int = 0
) -> BoardTally:
    tally = await svc.tally.board(game_id, guild_id=GUILD)
    for e in record.entries[: len(record.entries) - stop]:
        tally = await enter(svc, game_id, members, e)
        if e.totals is not None:
            assert scores(tally) == e.totals, (record.name, e)
    return tally


async def test_two_boards_entered_from_recorded_games_give_every_total_and_the_ranking(
    ctx, words
) -> None:
    games = clean_games()
    first, second = games[2], games[0]  # a phony challenged off; a plain game
    words.phonies |= set(first.phonies)
    svc = fresh(ctx, words)
    (game_a, members_a), (game_b, members_b) = await room_session(svc)

    # Board 1 to its last play, with a restart half-way.
    half = len(first.entries) // 2
    await play_through(svc, game_a, members_a, first, stop=len(first.entries) - half)
    svc = fresh(ctx, words, restart=True)
    for e in first.entries[half:]:
        tally = await enter(svc, game_a, members_a, e)
        if e.totals is not None:
            assert scores(tally) == e.totals
    assert tally.status == "finished"
    assert scores(tally) == first.finals
    assert tally.lines[-1].kind == "end"

    # Board 2, all but its racks; the session's ranking covers both boards.
    tally = await play_through(svc, game_b, members_b, second, stop=1)
    assert tally.status == "racks" and [s.rack_due for s in tally.seats].count(True) == 1
    last = second.entries[-1]
    with pytest.raises(InvalidInputError, match="should have"):
        await svc.tally.rack(game_b, members_b[last.seat], last.tiles + "E", guild_id=GUILD)
    tally = await enter(svc, game_b, members_b, last)
    assert tally.status == "finished" and scores(tally) == second.finals

    clock_free = await svc.tally.session(guild_id=GUILD, session_id=1)
    ranked = sorted([*first.finals, *second.finals], reverse=True)
    assert [p.score for p in clock_free.ranking] == ranked
    assert [b.board for b in clock_free.boards] == [1, 2]


async def test_a_side_corrects_its_last_entry_and_the_director_an_earlier_one(ctx, words) -> None:
    record = clean_games()[0]
    svc = fresh(ctx, words)
    (game_id, members), _ = await room_session(svc)
    entries = record.entries
    for e in entries[:4]:
        await enter(svc, game_id, members, e)
    # A typo: the fifth play entered one column off, then corrected by its side.
    fifth = entries[4]
    assert fifth.kind == "play"
    wrong = await svc.tally.play(
        game_id, members[fifth.seat], fifth.typed, fifth.position, guild_id=GUILD
    )
    assert scores(wrong.tally) == fifth.totals
    other = members[1 - fifth.seat]
    fixed = await svc.tally.correct(game_id, other, is_moderator=False, passed=True, guild_id=GUILD)
    assert fixed.tally.lines[-1].kind == "pass"
    back = await svc.tally.correct(
        game_id,
        members[fifth.seat],
        is_moderator=False,
        word=fifth.typed,
        position=fifth.position,
        guild_id=GUILD,
    )
    assert scores(back.tally) == fifth.totals
    for e in entries[5:8]:
        await enter(svc, game_id, members, e)
    # Only the last entry is a side's to correct.
    with pytest.raises(PermissionDeniedError, match="Only the last entry"):
        await svc.tally.correct(
            game_id, members[0], is_moderator=False, entry=2, passed=True, guild_id=GUILD
        )
    content = [p.payload["content"] for p in await posts(ctx)]
    assert any("corrected entry 5" in c for c in content)


async def test_the_directors_correction_of_an_earlier_entry_recomputes_the_later_scores(
    ctx, words
) -> None:
    svc = fresh(ctx, words)
    (game_id, members), _ = await room_session(svc)
    await svc.tally.play(game_id, members[0], "CAT", "8G", guild_id=GUILD)  # it was CAB
    await svc.tally.play(game_id, members[1], "CO", "G8", guild_id=GUILD)
    done = await svc.tally.pass_turn(game_id, members[0], guild_id=GUILD)
    assert scores(done.tally) == (10, 5)
    # Nothing later leans on entry 1's tiles but its C: a pass there breaks entry 2.
    before = await svc.tally.board(game_id, guild_id=GUILD)
    with pytest.raises(InvalidInputError, match="entry 2 would no longer stand"):
        await svc.tally.correct(
            game_id, MOD.id, is_moderator=True, entry=1, passed=True, guild_id=GUILD
        )
    assert await svc.tally.board(game_id, guild_id=GUILD) == before
    fixed = await svc.tally.correct(
        game_id, MOD.id, is_moderator=True, entry=1, word="cab", position="8G", guild_id=GUILD
    )
    assert scores(fixed.tally) == (14, 5)
    assert [(line.text, line.total) for line in fixed.tally.lines] == [
        ("8G CAB", 14),
        ("G8 CO", 5),
        ("pass", 14),
    ]
    assert fixed.tally.to_move == 1
    content = [p.payload["content"] for p in await posts(ctx)]
    assert any("corrected entry 1: 8G CAT → 8G CAB" in c for c in content)


async def test_bad_entries_are_refused_with_the_engines_words_and_change_nothing(
    ctx, words
) -> None:
    svc = fresh(ctx, words)
    (game_id, members), _ = await room_session(svc)
    await svc.tally.play(game_id, members[0], "QUIZ", "8H", guild_id=GUILD)
    before = await svc.tally.board(game_id, guild_id=GUILD)
    with pytest.raises(InvalidInputError, match=r"not your turn|It is .* turn"):
        await svc.tally.play(game_id, members[0], "ZA", "H8", guild_id=GUILD)
    with pytest.raises(InvalidInputError, match="off the board"):
        await svc.tally.play(game_id, members[1], "ZEBRAS", "1K", guild_id=GUILD)
    with pytest.raises(InvalidInputError, match="Row 16 is off the board"):
        await svc.tally.play(game_id, members[1], "AB", "16A", guild_id=GUILD)
    with pytest.raises(InvalidInputError, match="touch"):
        await svc.tally.play(game_id, members[1], "AB", "1A", guild_id=GUILD)
    with pytest.raises(InvalidInputError, match="Z tiles are already on the board"):
        await svc.tally.play(game_id, members[1], "ZO", "G7", guild_id=GUILD)
    with pytest.raises(InvalidInputError, match="entered once the game is over"):
        await svc.tally.rack(game_id, members[1], "ABC", guild_id=GUILD)
    with pytest.raises(InvalidInputError, match="played over a real board"):
        await svc.core.scrabble.reading.rack(game_id, members[1], guild_id=GUILD)
    assert await svc.tally.board(game_id, guild_id=GUILD) == before


async def test_a_side_resigns_as_in_scrabble_resign_and_the_board_is_over(ctx, words) -> None:
    """``/tally resign``: the side leaves the game, which ends with one side left (no
    tiles to enter: the end-of-game rule is for a game played out), its results as a
    resigned online game's; the tally says so; a side not at the board is refused."""
    record = clean_games()[0]
    svc = fresh(ctx, words)
    (game_id, members), (other_game, other_members) = await room_session(svc)
    for e in record.entries[:3]:
        tally = await enter(svc, game_id, members, e)
    before = scores(tally)
    with pytest.raises(PermissionDeniedError):
        await svc.tally.resign(game_id, other_members[0], guild_id=GUILD)
    done = await svc.tally.resign(game_id, members[0], guild_id=GUILD)
    assert done.tally.status == "finished" and scores(done.tally) == before
    assert done.tally.lines[-1].kind == "resign" and done.tally.lines[-1].text == "resigned"
    assert not any(s.rack_due for s in done.tally.seats)
    async with ctx.reader() as uow:
        game = await uow.games.get(game_id)
        assert game.status == "finished"
    with pytest.raises(InvalidInputError):
        await svc.tally.resign(game_id, members[1], guild_id=GUILD)  # the game is over
    assert (await svc.tally.board(other_game, guild_id=GUILD)).status != "finished"


async def test_a_play_from_a_page_checks_its_version_in_the_move_s_own_transaction(
    ctx, words
) -> None:
    """The tally page's play carries the version the page showed. A change that lands
    after the page's check but before the move (another device's correction, here a
    version moved just as the move starts) must refuse the play, not slip through: the
    version is checked where the move is made."""
    from bot.errors import StaleBoardError

    record = clean_games()[0]
    svc = fresh(ctx, words)
    (game_id, members), _ = await room_session(svc)
    first, second = record.entries[0], record.entries[1]
    await enter(svc, game_id, members, first)
    shown = (await svc.tally.board(game_id, guild_id=GUILD)).version
    moves = svc.tally.moves
    play = moves.play

    async def raced(*args, **kwargs):
        async with ctx.uow() as uow:  # the other change commits first
            game = await uow.games.get(game_id)
            game.version += 1
            await uow.commit()
        return await play(*args, **kwargs)

    moves.play = raced  # type: ignore[method-assign]
    try:
        with pytest.raises(StaleBoardError):
            await svc.tally.play(
                game_id,
                members[second.seat],
                second.typed,
                second.position,
                guild_id=GUILD,
                expected_version=shown,
            )
    finally:
        moves.play = play  # type: ignore[method-assign]
    tally = await svc.tally.board(game_id, guild_id=GUILD)
    assert len(tally.lines) == 1  # nothing was entered
