"""Game numbers through the loopback Discord (issue #17): a number per guild and
game kind, so the club's first chess game is Chess #1 even when a Scrabble game
came first; games made before the change keep the numbers members saw."""

from __future__ import annotations

from typing import Any

from bot.db.engine import create_engine
from bot.db.migrate import downgrade_to
from tests.e2e.club import Club
from tests.e2e.games import game_id_of, number_of, shown_number


async def _scrabble_invite(club: Club, creator: Any, opponent: Any) -> Any:
    ix = await club.dc.slash(creator, club.channel, "scrabble new", opponent=opponent)
    assert ix.answer is not None, ix.response
    return ix.answer


async def _chess_invite(club: Club, white: Any, black: Any) -> Any:
    ix = await club.dc.slash(
        white, club.channel, "chess new", opponent=black, time="3d", color="white"
    )
    assert ix.answer is not None, ix.response
    return ix.answer


async def test_the_clubs_first_chess_game_is_chess_1_though_a_scrabble_game_came_first(
    club: Club,
) -> None:
    await club.start()
    dc = club.dc
    alice, bob = club.members["alice"], club.members["bob"]

    scrabble = await _scrabble_invite(club, alice, bob)
    assert "\n**Scrabble #1** — alice, bob\n" in scrabble.content, scrabble.content
    challenge = await _chess_invite(club, alice, bob)
    assert "challenges you to Chess #1 " in challenge.content, challenge.content

    # The club's second game: its buttons carry the internal id, members see #1.
    chess_id = game_id_of(club.db_path, club.guild.id, "chess", 1)
    assert chess_id == 2
    assert f"chess:invite:accept:{chess_id}" in challenge.custom_ids
    before = {t.id for t in dc.threads_in(club.channel)}
    await dc.click(bob, challenge, f"chess:invite:accept:{chess_id}")
    thread = await dc.wait_until(
        lambda: next((t for t in dc.threads_in(club.channel) if t.id not in before), None),
        what="the chess game's thread",
    )
    assert thread.name.startswith("Chess #1: alice vs bob"), thread.name
    opening = await dc.wait_for_message(thread, predicate=lambda m: "Game on" in m.content)
    assert opening.content.startswith("**Chess #1**") and opening.files[0][0] == "chess-1-0.png"

    # A typed number means the game of the command's kind: chess #1 and Scrabble #1.
    # typed as Scrabble's option takes it too: "#1" or "1"
    board = await dc.slash(alice, club.channel, "chess board", game="#1")
    assert board.answer.content.startswith("**Chess #1**"), board.answer.content
    board = await dc.slash(alice, club.channel, "chess board", game="1")
    assert board.answer.content.startswith("**Chess #1**"), board.answer.content
    missing = await dc.slash(alice, club.channel, "chess board", game="#2")
    assert missing.answer.ephemeral
    assert "There is no Chess #2 in this server." in missing.answer.content
    games = await dc.slash(alice, club.channel, "scrabble games")
    listed = games.answer.content + " ".join(
        str(e.get("description", "")) + str(e.get("fields", "")) for e in games.answer.embeds
    )
    assert "#1 vs bob" in listed and "#2" not in listed, listed

    # Autocomplete offers the numbers, and what it offers works as the option.
    offered = await dc.autocomplete(alice, club.channel, "chess board", "game", game="")
    assert [c["value"] for c in offered] == ["1"] and offered[0]["name"].startswith("#1 vs bob")
    board = await dc.slash(alice, club.channel, "chess board", game=offered[0]["value"])
    assert board.answer.content.startswith("**Chess #1**"), board.answer.content
    offered = await dc.autocomplete(alice, club.channel, "scrabble resign", "game", game="#")
    assert [c["value"] for c in offered] == ["1"] and offered[0]["name"].startswith("#1 vs bob")
    resigned = await dc.slash(alice, club.channel, "scrabble resign", game=offered[0]["value"])
    assert resigned.response is not None


async def test_games_made_before_numbers_keep_theirs_and_new_games_count_per_kind(
    club: Club,
) -> None:
    """Per-game numbering after a migration of existing games."""
    await club.start()
    dc = club.dc
    alice, bob, carol = (club.members[n] for n in ("alice", "bob", "carol"))
    old_scrabble = await _scrabble_invite(club, alice, bob)
    old_chess = await _chess_invite(club, alice, bob)
    chess_id = game_id_of(club.db_path, club.guild.id, "chess", shown_number(old_chess.content))
    await club.stop()

    # The club's database as it was before games had numbers (revision 0005): a
    # Scrabble game (id 1, shown then as #1) and a chess game (id 2, shown as #2).
    engine = create_engine(f"sqlite+aiosqlite:///{club.db_path}")
    try:
        assert await downgrade_to(engine, "0005_command_syncs") == "0005_command_syncs"
    finally:
        await engine.dispose()

    await club.start()  # the bot upgrades the database as it starts
    assert number_of(club.db_path, chess_id) == chess_id == 2

    # The number members saw still names the same game.
    board = await dc.slash(alice, club.channel, "chess board", game="#2")
    assert board.answer.content.startswith("**Chess #2**"), board.answer.content
    gone = await dc.slash(alice, club.channel, "chess board", game="#1")
    assert "There is no Chess #1 in this server." in gone.answer.content
    # Buttons posted before the change still work: bob joins the old Scrabble game.
    joined = await dc.click(bob, old_scrabble, "scrabble:join:1")
    assert joined.response is not None
    thread = await dc.wait_until(
        lambda: next(iter(dc.threads_in(club.channel)), None), what="the Scrabble game's thread"
    )
    assert thread.name.startswith("Scrabble #1: alice vs bob"), thread.name
    first = await dc.wait_for_message(thread, predicate=lambda m: "move 0" in (m.content or ""))
    assert first.content.startswith("**Scrabble #1**")

    # New games take the next number of their kind.
    next_chess = await _chess_invite(club, carol, bob)
    assert "challenges you to Chess #3 " in next_chess.content, next_chess.content
    next_scrabble = await _scrabble_invite(club, carol, alice)
    assert "\n**Scrabble #2** — carol, alice\n" in next_scrabble.content, next_scrabble.content
    assert game_id_of(club.db_path, club.guild.id, "scrabble", 2) == 4
