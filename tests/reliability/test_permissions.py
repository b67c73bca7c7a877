"""Who may do what, and what stays secret.

Only seated players move; only moderators start and schedule Boggle rounds and
open Henyo events (and so see the word bank); another guild's game id is "not
found", never its data; racks and secret words never reach a channel. Every
refusal is private and changes nothing in the database.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.leaks import shown_secrets
from tests.reliability import logscan
from tests.reliability.games import (
    chess_invite_game_id,
    club_db,
    legal_play,
    open_scrabble,
    reply_text,
    scrabble_state,
)

pytestmark = pytest.mark.slow

APOLOGY = "something went wrong"


async def _refused(club: Any, who: Any, where: Any, command: str, **options: Any) -> str:
    """Run a command that must be refused: privately, clearly, changing nothing."""
    db = club_db(club)
    await club.flush()  # earlier work still being sent is not this command's doing
    before = await db.snapshot()
    ix = await club.dc.slash(who, where, command, **options)
    text = await reply_text(ix)
    assert ix.answer.ephemeral, f"/{command}: {text}"
    assert APOLOGY not in text, f"/{command}: {text}"
    assert await db.snapshot() == before, f"/{command} changed the database: {text}"
    return text


async def _refused_click(club: Any, who: Any, message: Any, custom_id: str) -> str:
    db = club_db(club)
    await club.flush()
    before = await db.snapshot()
    ix = await club.dc.click(who, message, custom_id)
    text = await reply_text(ix)
    assert ix.answer.ephemeral and APOLOGY not in text, text
    assert await db.snapshot() == before, f"{custom_id} changed the database: {text}"
    return text


async def _chess_game(club: Any, white: Any, black: Any, channel: Any) -> tuple[int, Any]:
    dc = club.dc
    before = {t.id for t in dc.threads_in(channel)}
    ix = await dc.slash(white, channel, "chess new", opponent=black, time="3d", color="white")
    game_id = chess_invite_game_id(ix.answer)
    await dc.click(black, ix.answer, f"chess:invite:accept:{game_id}")
    thread = await dc.wait_until(
        lambda: next((t for t in dc.threads_in(channel) if t.id not in before), None), 10
    )
    # The thread is made before the game records it: the game is open (nothing of the
    # Accept still to commit) once its opening board is in the thread.
    await dc.wait_until(
        lambda: any(m.author.id == dc.bot_user.id for m in dc.messages_in(thread)) or None, 10
    )
    return game_id, thread


async def test_only_seated_players_move(club) -> None:
    dc = club.dc
    await club.start()
    alice, bob, carol = (club.members[n] for n in ("alice", "bob", "carol"))
    game_id, thread, _ = await open_scrabble(dc, club.channel, alice, [bob], opponent=bob)
    state = await scrabble_state(club_db(club), game_id)
    word, position = legal_play(state["engine"], seed=1)

    for command, options in [
        ("scrabble play", {"word": word, "position": position}),
        ("scrabble exchange", {"tiles": "AB"}),
        ("scrabble pass", {}),
        ("scrabble resign", {}),
        ("scrabble challenge", {}),
        ("scrabble rack", {}),
    ]:
        text = await _refused(club, carol, thread, command, **options)
        assert "not yours" in text or "not playing" in text, text
    board = next(m for m in dc.messages_in(thread) if f"scrabble:rack:{game_id}" in m.custom_ids)
    await _refused_click(club, carol, board, f"scrabble:rack:{game_id}")

    _chess_id, chess_thread = await _chess_game(club, alice, bob, club.channel)
    for command, options in [
        ("chess move", {"move": "e4"}),
        ("chess resign", {}),
        ("chess draw", {"action": "offer"}),
    ]:
        await _refused(club, carol, chess_thread, command, **options)
    # Black may not move for White either.
    await _refused(club, bob, chess_thread, "chess move", move="e4")


async def test_only_moderators_start_boggle_rounds_and_open_henyo_events(club) -> None:
    dc = club.dc
    await club.start()
    alice = club.members["alice"]
    refusals = [
        ("boggle start", {}),
        ("boggle schedule", {"weekday": 1, "time": "7pm"}),
        ("boggle cancel", {}),
        ("boggle season", {"target": 50}),
        ("henyo event open", {}),
        ("henyo words list", {}),
        ("henyo words add", {"text": "Sorbetes", "category": "Pagkain", "language": "Filipino"}),
    ]
    for command, options in refusals:
        text = await _refused(club, alice, club.channel, command, **options)
        assert "moderator" in text.lower(), f"/{command}: {text}"

    # The club's moderator role (without any Discord permission) is enough.
    await dc.slash(club.moderator, club.channel, "club setup", moderator_role=club.mod_role)
    gina = dc.add_user("gina")
    dc.add_member(club.guild, gina, roles=[club.mod_role])
    opened = await dc.slash(gina, club.channel, "henyo event open")
    assert not opened.answer.ephemeral
    started = await dc.slash(gina, club.channel, "boggle start", duration="3m")
    assert "is on" in await reply_text(started)


async def test_another_guilds_games_are_not_found_never_shown(club) -> None:
    dc = club.dc
    victor, wendy = dc.add_user("victor"), dc.add_user("wendy")
    other = dc.add_guild("Another Club", owner=victor)
    other_channel = dc.add_text_channel(other, "games")
    for user in (wendy, club.members["alice"]):
        dc.add_member(other, user)
    await club.start(discord_guild_ids=[club.guild.id, other.id])
    scrabble_id, _, _ = await open_scrabble(dc, other_channel, victor, [wendy], opponent=wendy)
    chess_id, _ = await _chess_game(club, victor, wendy, other_channel)
    opened = await dc.slash(victor, other_channel, "henyo event open")
    assert not opened.answer.ephemeral
    event_id = await club_db(club).value("select id from henyo_events")

    alice = club.members["alice"]  # a member of both guilds, asking in the first
    probes = [
        ("scrabble board", {"game": str(scrabble_id)}),
        ("scrabble board", {"game": f"#{scrabble_id}"}),
        ("scrabble rack", {"game": str(scrabble_id)}),
        ("scrabble export", {"game": str(scrabble_id)}),
        ("scrabble pass", {"game": str(scrabble_id)}),
        ("chess board", {"game": str(chess_id)}),
        ("chess board", {"game": f"#{chess_id}"}),
        ("chess pgn", {"game": str(chess_id)}),
        ("chess move", {"move": "e4", "game": str(chess_id)}),
        ("chess resign", {"game": str(chess_id)}),
        ("chess draw", {"action": "offer", "game": str(chess_id)}),
        ("henyo standings", {"event": event_id}),
    ]
    for command, options in probes:
        ix = await dc.slash(alice, club.channel, command, **options)
        text = await reply_text(ix)
        shown = (
            text
            + " ".join(str(e) for e in ix.answer.embeds)
            + " ".join(n for n, _ in ix.answer.files)
        )
        assert ix.answer.ephemeral, f"/{command}: {text}"
        assert "victor" not in shown.lower() and "wendy" not in shown.lower(), (
            f"/{command} showed: {shown}"
        )
        assert re.search(r"there is no .*#\d+|not found", text, re.IGNORECASE), (
            f"/{command}: {text}"
        )
        assert not ix.answer.files and not (ix.followups and ix.followups[-1].files), (
            f"/{command} sent a file"
        )


async def test_racks_and_secret_words_never_reach_a_channel(club) -> None:
    dc = club.dc
    await club.start()
    db = club_db(club)
    alice, bob = club.members["alice"], club.members["bob"]
    game_id, thread, _ = await open_scrabble(dc, club.channel, alice, [bob], opponent=bob)
    users = {alice.id: alice, bob.id: bob}
    seats = {
        int(s): users[int(u)]
        for s, u in await db.rows(
            "select seat, user_id from game_seats where game_id = :g", g=game_id
        )
    }
    for seed in range(3):
        state = await scrabble_state(db, game_id)  # registers the racks as secrets for the log scan
        racks = state["engine"]["racks"]
        _assert_not_in_channels(dc, racks)
        word, position = legal_play(state["engine"], seed=seed)
        ix = await dc.slash(
            seats[state["engine"]["current_seat"]],
            thread,
            "scrabble play",
            word=word,
            position=position,
        )
        assert (await reply_text(ix)).startswith("You played")
        await club.flush()
    _assert_not_in_channels(dc, (await scrabble_state(db, game_id))["engine"]["racks"])
    for message in dc.bot_messages(include_ephemeral=False):
        if message.channel_id != dc.dm_channel(
            alice, create=False
        ) and message.channel_id != dc.dm_channel(bob, create=False):
            assert "Your rack" not in (message.content or "") and "You drew" not in (
                message.content or ""
            )

    secret = "Sampalok"
    logscan.register_secret(secret)
    ix = await dc.slash(
        club.moderator, club.channel, "henyo start", guesser=alice, answerer=bob, word=secret
    )
    await ix.next_message(timeout=10)
    await dc.wait_for_message(channel=club.channel, predicate=lambda m: m.content.startswith("🎯"))
    _assert_not_in_channels(dc, [secret])
    assert any(secret in (m.content or "") for m in dc.dms_to(bob))


def _assert_not_in_channels(dc: Any, secrets: list[str]) -> None:
    """No public bot message (channel or thread, not DMs, not ephemeral) shows any of these."""
    for message in dc.bot_messages(include_ephemeral=False):
        if message.guild_id is None:
            continue
        text = (message.content or "") + " " + " ".join(str(e) for e in message.embeds)
        assert not shown_secrets(text, secrets), (
            f"a secret reached #{message.channel_id}: {text[:200]}"
        )
