"""ScrabbleService on a real database (SQLite file; PostgreSQL with TEST_DATABASE_URL)."""

from __future__ import annotations

import asyncio
import dataclasses
import gzip
import json
import zlib
from datetime import timedelta
from pathlib import Path

import pytest
from sqlalchemy import select

from bot.db.models import JobRecord, RatingRecord, ResultRecord
from bot.errors import ConflictError, InvalidInputError, NotFoundError, PermissionDeniedError
from bot.services.definitions import (
    decode_number,
    load_definitions,
    open_definitions,
    summarise_entry,
)
from bot.services.scrabble import (
    JOB_INVITE,
    JOB_TURN,
    Member,
    describe_entries,
    parse_game_ref,
)
from engines.scrabble import ScrabbleOptions
from tests.bot.services.scrabble_support import (
    ALICE,
    BOB,
    CAROL,
    CHANNEL,
    DAVE,
    ERIN,
    GUILD,
    THREAD,
    Definitions,
    engine_of,
    first_play,
    jobs,
    make_service,
    outbox,
    posts,
    register,
    request,
    rig,
    seat_member,
    started,
)
from tests.engines.scrabble.support import rigged_game
from tests.leaks import shown_secrets

# -- parsing -----------------------------------------------------------------------------------


def test_game_references_accept_numbers_and_autocomplete_labels():
    assert parse_game_ref("#12 vs Bob · your turn") == 12
    assert parse_game_ref("7") == 7
    assert parse_game_ref(None) is None
    with pytest.raises(InvalidInputError):
        parse_game_ref("my game")


def test_move_descriptions_name_bingos_blanks_and_challenges_but_no_tiles():
    entries = [
        {
            "type": "play",
            "seat": 0,
            "position": "8H",
            "word": "QUIZZEs",
            "score": 90,
            "words": ["QUIZZES"],
            "rack": "QUIZZE?",
        },
        {"type": "exchange", "seat": 1, "tiles": "QVV", "score": 0, "rack": "QVVAEIO"},
        {
            "type": "challenge",
            "seat": 1,
            "challenged_seat": 0,
            "result": "withdrawn",
            "invalid_words": ["QUIZZES"],
            "score": -90,
        },
    ]
    text = "\n".join(describe_entries(entries, lambda seat: ["Ana", "Ben"][seat]))
    assert (
        "bingo" in text
        and "blank as S" in text
        and "exchanged 3 tiles" in text
        and "not in the word list" in text
    )
    assert "QVV" not in text and "QUIZZE?" not in text


# -- creating and joining -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "bad,message",
    [
        (request(ALICE), "only one place"),
        (request(Member(9, "Botty", is_bot=True)), "Other bots"),
        (request(BOB, opponent2_partner=CAROL), "name `opponent2`"),
        (request(BOB, CAROL, opponent2_partner=BOB), "Bob is named twice"),
        (request(BOB, partner=Member(99, "Me", is_bot=True, computer=True)), "seat of its own"),
        (request(BOB, clock="2s"), "turn clock"),
        (request(BOB, word_list="/etc/passwd"), "word list"),
        (request(BOB, target="lots"), "finish line"),
    ],
)
async def test_invalid_new_games_are_refused_with_a_reason(service, bad, message):
    with pytest.raises(InvalidInputError, match=message):
        await service.invitations.create(bad)


async def test_a_game_starts_when_everyone_invited_accepts_and_posts_the_first_board(service, ctx):
    outcome = await service.invitations.create(request(BOB, partner=CAROL, opponent_partner=DAVE))
    assert not outcome.all_accepted and set(outcome.waiting_for) == {"Bob", "Carol", "Dave"}
    for m in (BOB, CAROL):
        outcome = await service.invitations.accept(outcome.game_id, m.user_id, GUILD)
    assert outcome.waiting_for == ("Dave",)
    with pytest.raises(PermissionDeniedError):
        await service.invitations.accept(outcome.game_id, ERIN.user_id, GUILD)
    outcome = await service.invitations.accept(outcome.game_id, DAVE.user_id, GUILD)
    assert outcome.all_accepted
    view = await service.invitations.start(outcome.game_id, THREAD)
    assert view.status == "active" and view.home_channel_id == THREAD
    assert [s.label for s in view.seats] == ["Alice & Carol", "Bob & Dave"]
    board = (await posts(ctx))[-1]
    assert board.target_id == THREAD and board.payload["files"][0]["render"] == "scrabble_board"
    keys = await jobs(ctx)
    assert {f"scrabble:{outcome.game_id}:{k}" for k in ("turn", "reminder", "deadline")} <= set(
        keys
    )
    assert f"scrabble:{outcome.game_id}:invite" not in keys
    again = await service.invitations.start(outcome.game_id, THREAD)  # a second start is harmless
    assert again.status == "active"


async def test_a_declined_invitation_closes_the_game(service):
    outcome = await service.invitations.create(request(BOB))
    closed = await service.invitations.decline(outcome.game_id, BOB.user_id, GUILD)
    assert "declined" in closed.text
    with pytest.raises(InvalidInputError):
        await service.invitations.accept(outcome.game_id, BOB.user_id, GUILD)


async def test_an_unanswered_invitation_expires_on_its_timer(service, ctx, clock):
    ctx.scheduler.register(JOB_INVITE, service.timers.on_invite_expiry)
    outcome = await service.invitations.create(request(BOB))
    clock.advance(days=3, seconds=1)
    await ctx.scheduler.run_due()
    async with ctx.uow() as uow:
        assert (await uow.games.get(outcome.game_id)).status == "abandoned"
    assert "expired" in (await posts(ctx))[-1].payload["content"]


# -- moves ------------------------------------------------------------------------------------------


async def test_a_play_is_committed_logged_and_announced_without_the_rack(service, ctx):
    game_id = await started(service)
    before = await engine_of(ctx, game_id)
    user, _word = await first_play(service, ctx, game_id)
    after = await engine_of(ctx, game_id)
    assert after.scores[before.current_seat] > 0 and after.current_seat != before.current_seat
    async with ctx.uow() as uow:
        moves = [(m.ply, m.user_id, m.notation) for m in await uow.moves.for_game(game_id)]
    assert len(moves) == 1 and moves[0][:2] == (0, user) and moves[0][2].startswith("8H ")
    board = (await posts(ctx))[-1].payload
    assert "move 1" in board["content"] and board["view"]["args"]["challenge"] is True
    rack_after = after.racks[before.current_seat]
    for post in await posts(ctx):
        text = json.dumps(post.payload)
        assert not shown_secrets(text, [rack_after, before.racks[before.current_seat]])


async def test_a_non_player_and_a_player_out_of_turn_change_nothing(service, ctx):
    game_id = await started(service)
    game = await engine_of(ctx, game_id)
    waiting = await seat_member(ctx, game_id, 1 - game.current_seat)
    with pytest.raises(PermissionDeniedError, match="not yours"):
        await service.moves.pass_turn(game_id, ERIN.user_id)
    with pytest.raises(InvalidInputError, match="not your turn"):
        await service.moves.pass_turn(game_id, waiting)
    with pytest.raises(InvalidInputError, match="off the board"):
        await service.moves.play(
            game_id, await seat_member(ctx, game_id, game.current_seat), "AB", "Z99"
        )
    assert await engine_of(ctx, game_id) == game
    async with ctx.uow() as uow:
        assert (await uow.games.get(game_id)).version == 3  # created, accepted, started
        assert await uow.moves.count(game_id) == 0


async def test_two_plays_sent_at_once_apply_once(service, ctx):
    game_id = await started(service, request(BOB, partner=CAROL, opponent_partner=DAVE))
    game = await engine_of(ctx, game_id)
    seat = game.current_seat
    members = [s for s in (ALICE, CAROL) if seat == 0] or [BOB, DAVE]
    word = "".join("e" if t == "?" else t for t in game.racks[seat][:2])
    results = await asyncio.gather(
        *(service.moves.play(game_id, m.user_id, word, "8H") for m in members),
        return_exceptions=True,
    )
    assert sum(not isinstance(r, Exception) for r in results) == 1
    assert all(
        isinstance(r, (InvalidInputError, ConflictError))
        for r in results
        if isinstance(r, Exception)
    )
    async with ctx.uow() as uow:
        assert await uow.moves.count(game_id) == 1


async def test_a_stale_version_is_a_conflict_and_nothing_is_applied(service, ctx):
    game_id = await started(service)
    async with ctx.uow() as uow:
        record = await uow.games.get(game_id)
        version = record.version
    await first_play(service, ctx, game_id)
    async with ctx.uow() as uow:
        record = await uow.games.get(game_id)
        with pytest.raises(ConflictError):
            await uow.games.save_state(record, expected_version=version, state={})


async def test_exchange_and_pass_are_announced_without_the_tiles(service, ctx):
    game_id = await started(service)
    game = await engine_of(ctx, game_id)
    user = await seat_member(ctx, game_id, game.current_seat)
    tiles = game.racks[game.current_seat][:3]
    outcome = await service.moves.exchange(game_id, user, tiles)
    assert outcome.message.startswith("You exchanged 3 tiles")
    board = (await posts(ctx))[-1].payload["content"]
    assert "exchanged 3 tiles" in board and tiles not in board.split("exchanged")[1][:20]
    other = await seat_member(ctx, game_id, 1 - game.current_seat)
    assert (await service.moves.pass_turn(game_id, other)).message == "You passed."


async def test_a_failed_double_challenge_costs_the_challenger_a_turn(service, ctx, words):
    game_id = await started(service)
    player, _ = await first_play(service, ctx, game_id)
    challenger = BOB.user_id if player == ALICE.user_id else ALICE.user_id
    outcome = await service.moves.challenge(game_id, challenger)
    assert "stands" in outcome.message and "lose your next turn" in outcome.message
    game = await engine_of(ctx, game_id)
    assert await seat_member(ctx, game_id, game.current_seat) == player  # the player moves again
    with pytest.raises(InvalidInputError, match="no play to challenge"):
        await service.moves.challenge(game_id, challenger)


async def test_a_successful_challenge_takes_the_play_back(service, ctx, words):
    game_id = await started(service)
    before = await engine_of(ctx, game_id)
    player, word = await first_play(service, ctx, game_id)
    words.phonies.add(word.upper())
    challenger = BOB.user_id if player == ALICE.user_id else ALICE.user_id
    outcome = await service.moves.challenge(game_id, challenger)
    assert "succeeded" in outcome.message
    after = await engine_of(ctx, game_id)
    assert (
        after.scores == [0, 0]
        and after.racks == before.racks
        and after.bag_count == before.bag_count
    )
    assert "taken back" in (await posts(ctx))[-1].payload["content"]


async def test_a_challenge_button_from_an_older_move_is_refused(service, ctx):
    game_id = await started(service)
    player, _ = await first_play(service, ctx, game_id)
    challenger = BOB.user_id if player == ALICE.user_id else ALICE.user_id
    with pytest.raises(InvalidInputError, match="no longer"):
        await service.moves.challenge(game_id, challenger, ply=0)


async def test_void_mode_refuses_a_word_outside_the_list_up_front(service, ctx, words):
    game_id = await started(service, request(BOB, challenge="void"))
    game = await engine_of(ctx, game_id)
    user = await seat_member(ctx, game_id, game.current_seat)
    word = "".join("e" if t == "?" else t for t in game.racks[game.current_seat][:2])
    words.phonies.add(word.upper())
    with pytest.raises(InvalidInputError, match="not in the word list"):
        await service.moves.play(game_id, user, word, "8H")
    assert await engine_of(ctx, game_id) == game


async def test_explain_the_word_shows_definitions_or_asks_the_player(ctx, words):
    service = make_service(ctx, words, definitions=Definitions())
    game_id = await started(service, request(BOB, explain=True))
    await first_play(service, ctx, game_id)
    explained = (await posts(ctx))[-1].payload["content"]
    assert "Explain the word" in explained and "a thing that is tested" in explained

    plain = make_service(ctx, words, definitions=None)
    game_id = await started(plain, request(CAROL, explain=True))
    user, word = await first_play(plain, ctx, game_id)
    asked = (await posts(ctx))[-1].payload["content"]
    assert f"please explain **{word.upper()}**" in asked and f"<@{user}>" in asked


async def test_position_suggestions_are_legal_places_for_the_word_best_first(service, ctx):
    game_id = await started(service)
    game = await engine_of(ctx, game_id)
    user = await seat_member(ctx, game_id, game.current_seat)
    word = "".join("e" if t == "?" else t for t in game.racks[game.current_seat][:3])
    choices = await service.reading.position_choices(game_id, user, word, "")
    assert choices and all(game.preview(game.current_seat, word, c.position) for c in choices)
    assert [c.score for c in choices] == sorted((c.score for c in choices), reverse=True)
    assert {
        c.position for c in await service.reading.position_choices(game_id, user, word, "8")
    } <= {
        "8F",
        "8G",
        "8H",
    }


# -- clocks and endings -------------------------------------------------------------------------------


async def test_a_turn_that_runs_out_is_a_pass_after_a_reminder(service, ctx, clock):
    register(ctx, service)
    game_id = await started(service, request(BOB, clock="3m"))
    game = await engine_of(ctx, game_id)
    late = await seat_member(ctx, game_id, game.current_seat)
    clock.advance(minutes=2, seconds=1)
    await ctx.scheduler.run_due()
    reminder = (await outbox(ctx))[-1]
    assert (
        reminder.target_kind == "user"
        and reminder.target_id == late
        and reminder.fallback_channel_id == THREAD
    )
    assert "Reminder" in reminder.payload["content"]
    clock.advance(minutes=1)
    await ctx.scheduler.run_due()
    after = await engine_of(ctx, game_id)
    assert (
        after.moves[-1]["type"] == "pass"
        and after.moves[-1]["timed_out"]
        and after.current_seat != game.current_seat
    )
    assert "ran out" in (await posts(ctx))[-1].payload["content"]
    assert (await jobs(ctx))[f"scrabble:{game_id}:turn"].due_at == clock.now + timedelta(minutes=3)


async def test_a_turn_timer_from_an_earlier_move_does_nothing(service, ctx, clock):
    register(ctx, service)
    game_id = await started(service, request(BOB, clock="3m"))
    async with ctx.uow() as uow:
        stale = {"game_id": game_id, "moves": 5, "seat": 0}
        uow.session.add(
            JobRecord(kind=JOB_TURN, payload=stale, due_at=clock.now, status="due", attempts=0)
        )
        await uow.commit()
    await ctx.scheduler.run_due()
    assert (await engine_of(ctx, game_id)).moves == []


async def test_asynchronous_games_tell_the_next_player_by_dm(service, ctx):
    game_id = await started(service, request(BOB, clock="1d"))
    mover, _ = await first_play(service, ctx, game_id)
    dms = [p for p in await outbox(ctx) if p.target_kind == "user"]
    assert dms and dms[-1].target_id != mover and "your turn" in dms[-1].payload["content"]


async def test_the_deadline_ends_the_game_with_unplayed_tiles_deducted_and_results(
    service, ctx, clock
):
    register(ctx, service)
    game_id = await started(service, request(BOB, clock="off", deadline="80m"))
    await first_play(service, ctx, game_id)
    before = await engine_of(ctx, game_id)
    clock.advance(minutes=81)
    await ctx.scheduler.run_due()
    game = await engine_of(ctx, game_id)
    result = game.result()
    assert result.reason == "deadline" and all(a < 0 for a in result.adjustments)
    async with ctx.uow() as uow:
        record = await uow.games.get(game_id)
        assert record.status == "finished" and record.finished_at == clock.now
        results = {
            r.player_id
            for r in (
                await uow.session.execute(
                    select(ResultRecord).where(ResultRecord.game_id == game_id)
                )
            ).scalars()
        }
        rated = [r.games for r in (await uow.session.execute(select(RatingRecord))).scalars()]
    assert results == {ALICE.user_id, BOB.user_id}
    assert rated == [1, 1]
    final = (await posts(ctx))[-1].payload
    assert "Game over" in final["content"] and [f["render"] for f in final["files"]] == [
        "scrabble_board",
        "scrabble_text_file",
    ]
    assert (
        before.racks[0] in final["files"][1]["args"]["text"]
    )  # racks are public once the game is over
    # Only the search for the game's puzzles is left to run (issue #31).
    assert set(await jobs(ctx)) == {f"puzzles:game:{game_id}"}


async def test_an_out_play_waits_for_the_challenge_window_and_then_finishes(service, ctx, clock):
    register(ctx, service)
    game_id = await started(service, request(BOB, CAROL, clock="1d"))
    rigged = rigged_game(
        ScrabbleOptions(seats=3, turn_order="fixed"), racks=["AT", "EEE", "III"], bag=""
    )
    await rig(ctx, game_id, rigged)
    await service.moves.play(
        game_id, ALICE.user_id, "AT", "7A"
    )  # under the tiles laid aside on rows 1-6
    game = await engine_of(ctx, game_id)
    assert game.status == "ending"
    with pytest.raises(InvalidInputError, match="challenge it or accept it"):
        await service.moves.pass_turn(game_id, BOB.user_id)
    assert "Accept" in (await posts(ctx))[-1].payload["content"]
    await service.moves.accept_play(game_id, BOB.user_id)  # Carol has not accepted yet
    assert (await engine_of(ctx, game_id)).status == "ending"
    clock.advance(hours=24, seconds=1)
    await ctx.scheduler.run_due()
    final = await engine_of(ctx, game_id)
    assert final.status == "finished" and final.result().reason == "out"
    with pytest.raises(InvalidInputError, match="over"):
        await service.moves.pass_turn(game_id, BOB.user_id)


async def test_resigning_a_two_seat_game_ends_it(service, ctx):
    game_id = await started(service)
    await service.moves.resign(game_id, BOB.user_id)
    game = await engine_of(ctx, game_id)
    assert game.status == "finished" and game.result().winners == (0,)


# -- reading, restarting, exporting -----------------------------------------------------------------------


async def test_racks_are_shown_only_to_their_seat_and_partners_share_one(service, ctx):
    game_id = await started(service, request(BOB, partner=CAROL, opponent_partner=DAVE))
    alice, carol = (
        await service.reading.rack(game_id, ALICE.user_id),
        await service.reading.rack(game_id, CAROL.user_id),
    )
    assert alice.tiles == carol.tiles and alice.text.startswith("Your rack:")
    assert alice.tiles not in alice.game.summary
    with pytest.raises(PermissionDeniedError):
        await service.reading.rack(game_id, ERIN.user_id)


async def test_a_new_service_on_the_same_database_carries_on_and_the_log_rebuilds_the_state(
    ctx, words
):
    first = make_service(ctx, words)
    game_id = await started(first)
    await first_play(first, ctx, game_id)
    second = make_service(ctx, words)  # as after a restart
    game = await engine_of(ctx, game_id)
    user = await seat_member(ctx, game_id, game.current_seat)
    await second.moves.pass_turn(game_id, user)
    assert await second.reading.replay_from_log(game_id) == await engine_of(ctx, game_id)


async def test_the_game_is_found_from_its_thread_or_as_the_member_s_only_game(service, ctx):
    game_id = await started(service)
    assert (
        await service.finder.resolve(
            guild_id=GUILD, user_id=ERIN.user_id, ref=None, channel_id=THREAD
        )
        == game_id
    )
    assert (
        await service.finder.resolve(
            guild_id=GUILD, user_id=ALICE.user_id, ref=None, channel_id=None
        )
        == game_id
    )
    await started(service, request(CAROL))
    with pytest.raises(InvalidInputError, match="2 Scrabble games"):
        await service.finder.resolve(
            guild_id=GUILD, user_id=ALICE.user_id, ref=None, channel_id=CHANNEL
        )
    with pytest.raises(NotFoundError):
        await service.finder.resolve(
            guild_id=GUILD, user_id=ERIN.user_id, ref=None, channel_id=None
        )
    summaries = await service.reading.games_for(GUILD, ALICE.user_id)
    assert len(summaries) == 2 and all(s.label().startswith("#") for s in summaries)
    assert (
        len(await service.finder.choices(guild_id=GUILD, user_id=ALICE.user_id, typed="Carol")) == 1
    )


async def test_only_finished_games_export_and_the_gcg_passes_the_checker(service, ctx, tmp_path):
    from engines.scrabble.gcg import check_file

    game_id = await started(service)
    with pytest.raises(InvalidInputError, match="isn't finished"):
        await service.reading.export(game_id, guild_id=GUILD)
    await first_play(service, ctx, game_id)
    await service.moves.resign(game_id, ALICE.user_id)
    filename, text = await service.reading.export(game_id, guild_id=GUILD)
    path = tmp_path / filename
    path.write_text(text, encoding="utf-8")
    assert check_file(path).ok
    with pytest.raises(NotFoundError):
        await service.reading.export(game_id, guild_id=GUILD + 1)


# -- definitions ----------------------------------------------------------------------------------------------


def _b64(number: int) -> str:
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
    digits = ""
    while True:
        digits = alphabet[number % 64] + digits
        number //= 64
        if not number:
            return digits


def write_dictd(base: Path, entries: dict[str, str], *, dictzip: bool, chunk: int = 64) -> None:
    body, index = b"", []
    for word, text in entries.items():
        data = text.encode("utf-8")
        index.append(f"{word}\t{_b64(len(body))}\t{_b64(len(data))}")
        body += data
    Path(f"{base}.index").write_text("\n".join(sorted(index)) + "\n", encoding="utf-8")
    if not dictzip:
        Path(f"{base}.dict").write_bytes(body)
        return
    pieces, compressor = [], zlib.compressobj(9, zlib.DEFLATED, -15)
    for start in range(0, len(body), chunk):
        pieces.append(
            compressor.compress(body[start : start + chunk]) + compressor.flush(zlib.Z_FULL_FLUSH)
        )
    pieces[-1] += compressor.flush(zlib.Z_FINISH)
    sizes = [len(p) for p in pieces]
    extra_body = (
        (1).to_bytes(2, "little") + chunk.to_bytes(2, "little") + len(sizes).to_bytes(2, "little")
    )
    extra_body += b"".join(s.to_bytes(2, "little") for s in sizes)
    extra = b"RA" + len(extra_body).to_bytes(2, "little") + extra_body
    header = (
        b"\x1f\x8b\x08\x04" + b"\x00" * 4 + b"\x02\x03" + len(extra).to_bytes(2, "little") + extra
    )
    trailer = zlib.crc32(body).to_bytes(4, "little") + len(body).to_bytes(4, "little")
    Path(f"{base}.dict.dz").write_bytes(header + b"".join(pieces) + trailer)


ENTRIES = {
    "quiz": "Quiz \\Quiz\\, n.; pl. {Quizzes}.\n   1. A riddle or obscure question; an enigma.\n      [1913 Webster]\n"
    "   2. A test of knowledge.\n",
    "cat": "Cat \\Cat\\, n.\n   1. A small domesticated carnivore, kept as a pet.\n      [1913 Webster]\n",
    "stop": "Stop \\Stop\\, v. t.\n   To close by filling or obstructing.\n",
}


@pytest.mark.parametrize("dictzip", [True, False])
def test_definitions_are_read_from_a_dictd_dictionary(tmp_path, dictzip):
    base = tmp_path / "gcide"
    write_dictd(base, ENTRIES, dictzip=dictzip)
    definitions = load_definitions(base)
    assert definitions.define("QUIZ") == "A riddle or obscure question; an enigma."
    assert definitions.define("cats") == "A small domesticated carnivore, kept as a pet."
    assert definitions.define("stopped") == "To close by filling or obstructing."
    assert definitions.define("zzz") is None


def test_a_gzip_dictionary_without_chunks_is_read_whole(tmp_path):
    base = tmp_path / "plain"
    write_dictd(base, ENTRIES, dictzip=False)
    Path(f"{base}.dict.dz").write_bytes(gzip.compress(Path(f"{base}.dict").read_bytes()))
    Path(f"{base}.dict").unlink()
    assert load_definitions(base).define("quiz").startswith("A riddle")


def test_no_installed_dictionary_means_no_definitions(tmp_path):
    assert open_definitions(tmp_path / "missing") is None
    assert decode_number("BA") == 64
    assert summarise_entry("Word \\Word\\\n   [1913 Webster]\n") is None


# -- what the thread sees -------------------------------------------------------------------------------------


async def test_names_in_posts_are_plain_text_and_mention_nobody(ctx, words):
    service = make_service(ctx, words)
    sneaky = Member(ALICE.user_id, "@everyone <@&77> *Al*")
    outcome = await service.invitations.create(dataclasses.replace(request(BOB), creator=sneaky))
    assert "@everyone" not in outcome.text and "<@&77>" not in outcome.text
    await service.invitations.accept(outcome.game_id, BOB.user_id, GUILD)
    await service.invitations.start(outcome.game_id, THREAD)
    board = (await posts(ctx))[-1].payload["content"]
    assert "@\u200beveryone" in board and "\\*Al\\*" in board
    assert "@everyone" not in board and "<@&77>" not in board


async def test_every_posted_image_says_the_last_play_and_the_scores_in_words(service, ctx):
    game_id = await started(service)
    user, word = await first_play(service, ctx, game_id)
    board = (await posts(ctx))[-1].payload["files"][0]
    described = board["description"]
    assert f"Scrabble #{game_id} board after move 1" in described
    assert f"{word.upper()} AT 8H" in described.upper() and "Scores: Alice" in described
    await service.moves.resign(game_id, user)
    final = (await posts(ctx))[-1].payload["files"]
    assert [bool(f["description"].strip()) for f in final] == [True, True]
    assert "The game is over" in final[0]["description"] and "GCG" in final[1]["description"]


# -- what a member meets (issue #17) ---------------------------------------------------------------


async def _rack(ctx, game_id: int, seat: int, rack: str) -> None:
    game = await engine_of(ctx, game_id)
    data = game.to_json()
    pool = list(data["bag"]) + list(data["racks"][seat])
    for tile in rack:
        pool.remove(tile)
    data["racks"][seat] = rack
    data["bag"] = "".join(pool)
    await rig(ctx, game_id, type(game).from_json(data))


async def test_a_word_in_lower_case_plays_its_letters_and_a_blank_is_marked_with_a_question_mark(
    service, ctx
):
    game_id = await started(service)
    game = await engine_of(ctx, game_id)
    seat = game.current_seat
    user = await seat_member(ctx, game_id, seat)
    await _rack(ctx, game_id, seat, "ENJO?RT")
    with pytest.raises(
        InvalidInputError, match=r"You have no Y \(to play your blank as Y, write \?Y"
    ):
        await service.moves.play(game_id, user, "enjoy", "8H")
    outcome = await service.moves.play(game_id, user, "enjo?y", "8H")
    assert outcome.message.startswith("You played ENJOY at 8H")
    played = (await engine_of(ctx, game_id)).moves[-1]
    assert played["word"] == "ENJOy" and played["rack"] == "ENJO?RT"
    board = (await posts(ctx))[-1].payload
    assert "blank as Y" in board["content"]
    assert board["files"][0]["args"]["header"][-1].startswith("last: ")
    assert "ENJOY at 8H" in board["files"][0]["args"]["header"][-1]


async def test_the_first_player_is_told_by_dm_as_every_later_turn_and_the_dm_says_how_to_move(
    service, ctx
):
    game_id = await started(service, request(BOB, clock="1d"))
    first = await seat_member(ctx, game_id, (await engine_of(ctx, game_id)).current_seat)
    dms = [p for p in await outbox(ctx) if p.target_kind == "user"]
    assert [d.target_id for d in dms] == [first]
    assert "It's your turn" in dms[0].payload["content"]
    assert "/scrabble play word:QUIZ position:8H" in dms[0].payload["content"]
    board = (await posts(ctx))[-1].payload
    assert "/scrabble play word:QUIZ position:8H" in board["content"]
    assert "mention_user_ids" not in board  # a correspondence game's board pings nobody


async def test_a_live_game_mentions_only_the_seat_to_move_in_the_thread(service, ctx):
    game_id = await started(service, request(BOB, clock="3m"))
    first = await seat_member(ctx, game_id, (await engine_of(ctx, game_id)).current_seat)
    board = (await posts(ctx))[-1].payload
    assert board["mention_user_ids"] == [first]
    assert not [p for p in await outbox(ctx) if p.target_kind == "user"]
    await service.moves.pass_turn(game_id, first)
    second = await seat_member(ctx, game_id, (await engine_of(ctx, game_id)).current_seat)
    board = (await posts(ctx))[-1].payload
    assert board["mention_user_ids"] == [second] and second != first
    assert board["files"][0]["args"]["header"][-1].endswith("passed")


async def test_a_deadline_reached_before_any_tile_is_placed_is_a_no_contest(service, ctx, clock):
    register(ctx, service)
    game_id = await started(service, request(BOB, clock="off", deadline="80m"))
    game = await engine_of(ctx, game_id)
    await service.moves.pass_turn(game_id, await seat_member(ctx, game_id, game.current_seat))
    clock.advance(minutes=81)
    await ctx.scheduler.run_due()
    assert (await engine_of(ctx, game_id)).result().reason == "deadline"
    async with ctx.uow() as uow:
        assert (await uow.games.get(game_id)).status == "finished"
        results = (
            await uow.session.execute(select(ResultRecord).where(ResultRecord.game_id == game_id))
        ).all()
        rated = (await uow.session.execute(select(RatingRecord))).all()
    assert results == [] and rated == []
    final = (await posts(ctx))[-1].payload
    assert "No contest" in final["content"] and "Winner" not in final["content"]
    assert [f["render"] for f in final["files"]] == ["scrabble_board", "scrabble_text_file"]
