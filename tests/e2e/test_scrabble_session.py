"""A club session through the loopback Discord (issue #18): 16 members sign up (two
of them asking to be partners), the moderator forms two boards of 4 pairs and
starts them, each board plays several turns in its thread (a partner plays for
the pair, a challenge, an exchange, a turn that times out, an explanation), the
bot restarts in the middle, and the session's deadline ends both boards at once
with one results post ranking every pair across boards and leaderboard rows for
everyone. Bad input (a non-moderator starting, a member signing up twice, too
few members, a swap once the boards have started) is refused privately and
changes nothing.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from engines.lexicon import load_lexicon
from engines.scrabble import ScrabbleError, ScrabbleGame, typed_notation
from engines.scrabble.movegen import MoveGenerator
from tests.clock import FakeClock
from tests.e2e.club import Club, open_club
from tests.loopback.harness import LoopbackUsageError


@pytest.fixture
async def club(loopback: Any, tmp_path: Path, clock: FakeClock) -> AsyncIterator[Club]:
    async for c in open_club(loopback, tmp_path, clock, extra_members=10):
        yield c


def rows(db_path: Path, sql: str, *args: Any) -> list[tuple[Any, ...]]:
    with sqlite3.connect(db_path) as db:
        return db.execute(sql, args).fetchall()


def engine_of(db_path: Path, game_id: int) -> ScrabbleGame:
    ((state,),) = rows(db_path, "select state from games where id = ?", game_id)
    return ScrabbleGame.from_json(json.loads(state)["engine"])


def seats_of(db_path: Path, game_id: int) -> dict[int, list[int]]:
    seats: dict[int, list[int]] = {}
    for seat, user in rows(
        db_path,
        "select seat, user_id from game_seats where game_id = ? order by seat, user_id",
        game_id,
    ):
        seats.setdefault(seat, []).append(user)
    return seats


GENERATOR = MoveGenerator(load_lexicon("default"))


def best_play(game: ScrabbleGame) -> tuple[str, str]:
    """The highest-scoring legal play of the seat to move (by the built-in word list)."""
    seat = game.current_seat
    for play in sorted(
        GENERATOR.generate(game.board_copy(), game.racks[seat]), key=lambda p: -p.score
    ):
        try:
            game.preview(seat, play.word, play.position)
        except ScrabbleError:
            continue
        return typed_notation(play.word), play.position
    raise AssertionError("no play found")


async def reply_text(ix: Any) -> str:
    response = await ix.wait_response()
    if response.deferred:
        await ix.wait_done()
    if ix.followups:
        return ix.followups[-1].content or ""
    return response.content or ""


class Board:
    def __init__(self, club: Club, number: int, game_id: int, thread: Any) -> None:
        self.club = club
        self.number = number
        self.game_id = game_id
        self.thread = thread
        self.users = {u.id: u for u in club.members.values()}

    def seat_members(self, seat: int) -> list[Any]:
        return [self.users[u] for u in seats_of(self.club.db_path, self.game_id)[seat]]

    def engine(self) -> ScrabbleGame:
        return engine_of(self.club.db_path, self.game_id)

    async def wait_move(self, moves: int) -> Any:
        return await self.club.dc.wait_for_message(
            channel=self.thread,
            predicate=lambda m: f"move {moves}\n" in (m.content or ""),
            timeout=10,
        )

    async def play(self, *, partner: bool = True) -> tuple[Any, str]:
        """The seat to move plays its best word, typed by the pair's second member (a seat
        whose rack makes no word exchanges first, as a player would)."""
        for _ in range(4):
            game = self.engine()
            try:
                word, position = best_play(game)
                break
            except AssertionError:
                await self.exchange()
        else:
            raise AssertionError("no seat could play a word")
        seat = game.current_seat
        member = self.seat_members(seat)[1 if partner else 0]
        ix = await self.club.dc.slash(
            member, self.thread, "scrabble play", word=word, position=position
        )
        text = await reply_text(ix)
        assert text.startswith("You played"), text
        assert ix.answer.ephemeral
        await self.wait_move(len(game.moves) + 1)
        return member, word

    async def exchange(self) -> None:
        game = self.engine()
        member = self.seat_members(game.current_seat)[0]
        tiles = "".join(t for t in game.racks[game.current_seat] if t != "?")[:3]
        ix = await self.club.dc.slash(member, self.thread, "scrabble exchange", tiles=tiles)
        assert (await reply_text(ix)).startswith("You exchanged")
        await self.wait_move(len(game.moves) + 1)

    async def challenge_last_play(self) -> None:
        """The seat to move challenges the play before it (a real word: it stands)."""
        dc = self.club.dc
        game = self.engine()
        member = self.seat_members(game.current_seat)[0]
        board = [
            m for m in dc.messages_in(self.thread) if "scrabble:challenge" in " ".join(m.custom_ids)
        ][-1]
        button = next(c for c in board.custom_ids if c.startswith("scrabble:challenge"))
        ix = await dc.click(member, board, button)
        assert (await reply_text(ix)).startswith("The play stands")

    async def explain(self, member: Any, text: str) -> Any:
        dc = self.club.dc
        post = await dc.wait_until(
            lambda: next(
                (
                    m
                    for m in reversed(dc.messages_in(self.thread))
                    if "Explain the word" in (m.content or "") and m.custom_ids
                ),
                None,
            ),
            what="the explain post",
        )
        button = next(c for c in post.custom_ids if c.startswith("scrabble:explain"))
        opened = await dc.click(member, post, button)
        assert opened.response.modal is not None
        assert opened.response.modal["title"].startswith("Explain ")
        # QA F37: the form asks for 10 characters at least, and says so.
        assert "10 characters at least" in str(opened.response.modal)
        with pytest.raises(LoopbackUsageError, match="must be 10"):
            await dc.submit_modal(member, opened, {"In your own words": "x"})
        sent = await dc.submit_modal(member, opened, {"In your own words": text})
        assert "your explanation" in await reply_text(sent)
        return post


async def test_a_session_of_sixteen_plays_two_boards_and_ends_them_at_its_deadline(club) -> None:
    await club.start()
    dc = club.dc
    m = club.members
    everyone = list(m.values())
    assert len(everyone) == 16

    # Only a moderator opens (privately refused, nothing made).
    refused = await dc.slash(m["alice"], club.channel, "scrabble session open")
    assert refused.answer.ephemeral and "Only the club's moderators" in refused.answer.content
    opened = await dc.slash(club.moderator, club.channel, "scrabble session open", length="80m")
    card = opened.original
    assert "Club session" in card.content and "turn clock 3 min" in card.content
    assert "session 1 h 20 min" in card.content  # QA F29: the one duration formatter
    signup_button = next(c for c in card.custom_ids if c.startswith("session:signup"))

    # Two ask to be partners; a moderator names one member; the rest press Sign up.
    pair = await dc.slash(m["alice"], club.channel, "scrabble session signup", partner=m["bob"])
    assert pair.answer.ephemeral and "alice & bob" in pair.answer.content
    named = await dc.slash(
        club.moderator, club.channel, "scrabble session signup", member=m["pete"]
    )
    assert "**pete** signed up" in named.answer.content
    for member in everyone:
        if member in (m["alice"], m["bob"], m["pete"]):
            continue
        ix = await dc.click(member, card, signup_button)
        assert ix.answer.ephemeral and "You are signed up" in await reply_text(ix)
    twice = await dc.click(m["bob"], card, signup_button)
    assert "already signed up for the session (place 1)" in await reply_text(twice)
    not_mod = await dc.slash(m["carol"], club.channel, "scrabble session start")
    assert not_mod.answer.ephemeral and "Only the club's moderators" in not_mod.answer.content
    assert rows(club.db_path, "select status from club_sessions") == [("open",)]
    # The card is edited after each answer, one edit at a time: the last shows all 16.
    await dc.wait_until(
        lambda: (
            "Signed up: 16 members in 15 places**: 1. alice & bob, 2."
            in dc.messages[card.id].content
        ),
        timeout=20,
        what="the card (QA F10: members and places both counted)",
    )
    await club.restart()  # the sign-ups are kept

    # The groups: two boards of 4 pairs; alice & bob together.
    formed = await dc.slash(club.moderator, club.channel, "scrabble session start")
    assert "Board 1** (4 pairs)" in formed.answer.content
    assert "Board 2** (4 pairs)" in formed.answer.content
    assert "alice & bob" in formed.answer.content or "bob & alice" in formed.answer.content
    await club.restart()  # so are the formed groups
    # Swap carol with a member of the other board (the pairs come from the stored seed).
    boards = [line for line in formed.answer.content.splitlines() if "**Board" in line]
    other = next(line for line in boards if "carol" not in line)
    swapped_with = other.split(": ", 1)[1].split(" & ")[0].strip()
    swap = await dc.slash(
        club.moderator,
        club.channel,
        "scrabble session swap",
        first=m["carol"],
        second=m[swapped_with],
    )
    assert f"Swapped **carol** and **{swapped_with}**" in swap.answer.content

    started = await dc.slash(club.moderator, club.channel, "scrabble session start")
    assert "2 boards are opening" in started.answer.content
    where = await dc.wait_for_message(
        channel=club.channel,
        predicate=lambda x: "Where everyone plays" in (x.content or ""),
        timeout=15,
    )
    assert len(where.pings) == 16
    late_swap = await dc.slash(
        club.moderator, club.channel, "scrabble session swap", first=m["carol"], second=m["erin"]
    )
    assert late_swap.answer.ephemeral and "The boards have started" in late_swap.answer.content
    boards_rows = rows(
        club.db_path,
        "select b.number, b.game_id, g.thread_id from session_boards b join games g on g.id = b.game_id order by b.number",
    )
    threads = {t.id: t for t in dc.threads_in(club.channel)}
    boards = [Board(club, n, game, threads[thread]) for n, game, thread in boards_rows]
    assert len(boards) == 2
    for board in boards:
        assert len(seats_of(club.db_path, board.game_id)) == 4
        first = await board.wait_move(0)
        assert first.attachments and first.attachments[0].filename.endswith(".png")

    # Board 1: a partner plays for the pair, the pair explains, an exchange, a play that
    # is challenged (and stands), a turn that times out.
    one, two = boards
    player, word = await one.play(partner=True)
    explain_post = await one.explain(player, "a word we both know @everyone")
    shown = await dc.wait_for_message(
        channel=one.thread,
        predicate=lambda x: " explain " in (x.content or "") and "know" in x.content,
    )
    assert "@\u200beveryone" in shown.content and not shown.pings
    await one.exchange()
    await one.play(partner=False)
    await one.challenge_last_play()
    # Board 2: a play and an exchange.
    await two.play(partner=True)
    await two.exchange()

    # A turn times out on both boards (3 minutes).
    moves = [len(b.engine().moves) for b in boards]
    club.clock.advance(minutes=3, seconds=1)
    await club.tick()
    for board, before in zip(boards, moves, strict=True):
        await board.wait_move(before + 1)
        assert board.engine().moves[-1].get("timed_out")

    # The bot restarts in the middle of the session: the boards go on, buttons still work.
    await club.restart()
    await two.play(partner=True)
    button = next(c for c in explain_post.custom_ids if c.startswith("scrabble:explain"))
    again = await dc.click(player, explain_post, button)
    assert again.answer.ephemeral and "explained already" in await reply_text(again)
    stranger = await dc.click(two.seat_members(0)[0], explain_post, button)
    assert "Only the pair that made this play" in await reply_text(stranger)

    # The deadline ends both boards at the same moment, then one results post.
    ((deadline,),) = rows(club.db_path, "select deadline from club_sessions")
    club.clock.advance(minutes=80)
    await club.tick()
    result = await dc.wait_for_message(
        channel=club.channel,
        predicate=lambda x: "Club session results" in (x.content or ""),
        timeout=15,
    )
    finished = rows(club.db_path, "select status, finished_at from games order by id")
    assert [s for s, _ in finished] == ["finished", "finished"]
    assert len({f for _, f in finished}) == 1  # the same moment
    for board in boards:
        game = board.engine()
        assert game.status == "finished" and game.moves[-1]["type"] == "deadline"
    ranked = [line for line in result.content.splitlines() if line[:2].rstrip(".").isdigit()]
    assert len(ranked) == 8 and "board 1" in result.content and "board 2" in result.content
    results = rows(
        club.db_path, "select distinct player_id from results where game_kind = 'scrabble'"
    )
    assert len(results) == 16
    board_alt = one.thread and [
        a.description
        for x in dc.messages_in(one.thread)
        for a in x.attachments
        if a.filename.endswith("final.png")
    ]
    assert board_alt and "Scores:" in board_alt[0]

    table = await dc.slash(m["alice"], club.channel, "leaderboard", game="scrabble")
    listed = [line for line in table.answer.content.splitlines() if ". " in line[:4]]
    # All 16 are rated: ten on the first page of two.
    assert len(listed) == 10 and "(page 1 of 2)" in table.answer.content

    # The moderator sees which plays were explained.
    seen = await dc.slash(club.moderator, club.channel, "scrabble session results")
    assert seen.answer.ephemeral
    assert "1 of " in seen.answer.content and "✓ board 1" in seen.answer.content
    assert word.replace("?", "").upper()[:3] in seen.answer.content.upper()
    assert deadline


async def test_a_session_of_fewer_than_four_members_is_refused_privately_and_stays_open(
    club,
) -> None:
    await club.start()
    dc = club.dc
    m = club.members
    await dc.slash(club.moderator, club.channel, "scrabble session open")
    for name in ("alice", "bob", "carol"):
        await dc.slash(m[name], club.channel, "scrabble session signup")
    refused = await dc.slash(club.moderator, club.channel, "scrabble session start")
    assert refused.answer.ephemeral
    assert "at least 4 members (2 pairs); 3 signed up" in refused.answer.content
    assert rows(club.db_path, "select status, groups from club_sessions") == [("open", "[]")]
    thread = dc.add_thread(club.channel, "a thread")
    inside = await dc.slash(club.moderator, thread, "scrabble session open")
    assert inside.answer.ephemeral and "not a thread" in inside.answer.content
    assert rows(club.db_path, "select count(*) from club_sessions") == [(1,)]
    again = await dc.slash(club.moderator, club.channel, "scrabble session open")
    assert again.answer.ephemeral and "already has a session" in again.answer.content
