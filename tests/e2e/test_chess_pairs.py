"""Chess between pairs through the loopback Discord: `/chess new` with partners,
every member invited accepts, either partner moves for the side, both partners
to move are mentioned and reminded, and a resignation rates all four."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select

from bot.db.models import ResultRecord
from tests.e2e.club import Club
from tests.e2e.games import number_of, shown_game
from tests.e2e.test_chess import _move, _pgn


async def _pairs_game(club: Club, time: str) -> tuple[int, Any]:
    """alice & carol (White) challenge bob & dave (Black); everyone accepts."""
    dc = club.dc
    alice, bob, carol, dave = (club.members[n] for n in ("alice", "bob", "carol", "dave"))
    before = {t.id for t in dc.threads_in(club.channel)}
    ix = await dc.slash(
        alice,
        club.channel,
        "chess new",
        opponent=bob,
        partner=carol,
        opponent_partner=dave,
        time=time,
        color="white",
    )
    invite = ix.answer
    assert invite is not None and not invite.ephemeral, ix.response
    assert set(invite.mentioned_user_ids()) >= {bob.id, carol.id, dave.id}
    assert "alice & carol (White) vs bob & dave (Black)" in invite.content
    game_id = shown_game(club.db_path, club.guild.id, "chess", invite.content)
    accept = f"chess:invite:accept:{game_id}"

    # The opponent side's first partner accepts: the game still waits for the others.
    first = await dc.click(bob, invite, accept)
    assert first.answer.ephemeral and "Waiting for" in first.answer.content
    assert "carol" in first.answer.content and "dave" in first.answer.content
    again = await dc.click(bob, invite, accept)
    assert again.answer.ephemeral and "accepted already" in again.answer.content
    assert not [t for t in dc.threads_in(club.channel) if t.id not in before]
    await dc.click(dave, invite, accept)
    await dc.click(carol, invite, accept)
    thread = await dc.wait_until(
        lambda: next((t for t in dc.threads_in(club.channel) if t.id not in before), None),
        what="the game's thread",
    )
    await dc.wait_for_message(thread, predicate=lambda m: "Game on" in m.content)
    return game_id, thread


async def test_a_pairs_game_is_played_by_both_partners_to_a_resignation(club: Club) -> None:
    await club.start()
    dc = club.dc
    alice, bob, carol, dave, erin = (
        club.members[n] for n in ("alice", "bob", "carol", "dave", "erin")
    )
    game_id, thread = await _pairs_game(club, "1d")
    number = number_of(club.db_path, game_id)

    # Each partner moves for the side; the board mentions both partners to move.
    posted = await _move(club, alice, thread, "e4")
    assert {bob.id, dave.id} <= set(posted.mentioned_user_ids())
    assert "alice & carol (White) vs bob & dave (Black)" in posted.content
    assert "seen from Black's side" in posted.attachments[0].description
    await _move(club, dave, thread, "e5")
    posted = await _move(club, carol, thread, "Nf3")
    assert "carol played **Nf3**" in posted.content
    await _move(club, bob, thread, "Nc6")

    # Someone outside the game, or the other side out of turn, is refused.
    ix = await dc.slash(erin, thread, "chess move", move="Bb5")
    assert ix.answer.ephemeral and "not yours" in ix.answer.content, ix.answer.content
    ix = await dc.slash(dave, thread, "chess move", move="Nf6")
    assert ix.answer.ephemeral and "Done" not in ix.answer.content

    # Half the day gone on White's move: both White partners are reminded by DM.
    club.clock.advance(hours=12)
    await club.tick()
    for member in (alice, carol):
        reminder = await dc.wait_for_message(
            member, predicate=lambda m: f"Chess #{number}" in m.content
        )
        assert "Your move" in reminder.content
    assert not [m for m in dc.dms_to(bob) if f"Chess #{number}" in m.content]

    # QA F36: both Black partners' DMs are closed: their reminder is one post in the
    # thread naming both.
    await _move(club, alice, thread, "Bb5")
    dc.close_dms(bob)
    dc.close_dms(dave)
    club.clock.advance(hours=12)
    await club.tick()
    await dc.wait_for_message(thread, predicate=lambda m: "time runs out" in m.content)
    await club.tick()
    fallbacks = [m for m in dc.messages_in(thread) if "time runs out" in (m.content or "")]
    assert len(fallbacks) == 1, [m.content for m in fallbacks]
    assert set(fallbacks[0].mentioned_user_ids()) == {bob.id, dave.id}
    assert "<#" not in fallbacks[0].content

    game = await _pgn(club, carol, thread)
    assert (game.headers["White"], game.headers["Black"]) == ("alice & carol", "bob & dave")

    # Black's second partner resigns for the side.
    ix = await dc.slash(dave, thread, "chess resign")
    final = await dc.wait_for_message(thread, predicate=lambda m: "**1-0**" in m.content)
    assert "dave resigned" in final.content and "Ratings:" in final.content
    assert club.bot is not None
    async with club.bot.ctx.reader() as uow:
        rows = (
            (await uow.session.execute(select(ResultRecord).where(ResultRecord.game_id == game_id)))
            .scalars()
            .all()
        )
        assert {r.player_id: r.outcome for r in rows} == {
            alice.id: "win",
            carol.id: "win",
            bob.id: "loss",
            dave.id: "loss",
        }
    ix = await dc.slash(alice, thread, "chess move", move="Bb5")
    assert ix.answer.ephemeral and "is over" in ix.answer.content


async def test_a_game_against_the_computer_takes_no_partner(club: Club) -> None:
    await club.start()
    dc = club.dc
    ix = await dc.slash(
        club.members["alice"],
        club.channel,
        "chess new",
        opponent=dc.bot_user,
        partner=club.members["bob"],
    )
    assert ix.answer.ephemeral and "one player against me" in ix.answer.content
