"""Scrabble through the loopback Discord, from /scrabble new to the GCG export.

The test plans each game before playing it: it reads the dealt game's state
(tests may look inside), replays it on a local engine with a scripted policy
(bingo first, then an exchange, a pass, a timed-out turn, a play that is
challenged and stands, a phony that is challenged off, then plays until
someone goes out), and writes the word list the bot will judge challenges
with: every word of every play that stands, and none of the phony's. Then it
plays the same moves as members, through slash commands and buttons, and
checks that the bot's game ends exactly where the local one did.

The word list is the built-in one plus the planned plays' words (random
letter strings): near the end the bot asks the move generator whether anyone
can still play, and with a real dictionary someone always can, as the plan
checks, so the game ends where the plan says.
"""

from __future__ import annotations

import asyncio
import json
import random
import sqlite3
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.services.scrabble.options import MAX_REMINDER_LEAD
from engines.lexicon import load_lexicon
from engines.scrabble import ScrabbleError, ScrabbleGame, typed_notation
from engines.scrabble.movegen import MoveGenerator
from tests.e2e.games import number_of
from tests.engines.scrabble.support import random_placement

REPO = Path(__file__).resolve().parents[2]


# -- planning -----------------------------------------------------------------------------


@dataclass
class Step:
    kind: str  # play | exchange | pass | timeout | challenge | accept | close
    seat: int | None = None
    word: str = ""
    position: str = ""
    tiles: str = ""
    moves_after: int = 0
    status_after: str = "active"
    by_command: bool = False  # a challenge by /scrabble challenge rather than the button


@dataclass
class Plan:
    steps: list[Step] = field(default_factory=list)
    words: set[str] = field(default_factory=set)
    phony: set[str] = field(default_factory=set)
    final: ScrabbleGame | None = None


class _Lexicon:
    def __init__(self, words: set[str]) -> None:
        self.words = words

    def __contains__(self, word: object) -> bool:
        return isinstance(word, str) and word.upper() in self.words


def _best_play(
    game: ScrabbleGame,
    rng: random.Random,
    phony: set[str],
    *,
    want_blank: bool,
    fresh_words: set[str] | None = None,
):
    """The legal random placement using the most tiles (so the game gets to its end)."""
    seat = game.current_seat
    rack = game.racks[seat]
    best = None
    for _ in range(250):
        candidate = random_placement(game, rng)
        if candidate is None:
            return None
        word, position = candidate
        try:
            evaluation = game.preview(seat, word, position)
        except ScrabbleError:
            continue
        formed = {w.word for w in evaluation.words}
        if formed & phony:
            continue
        if fresh_words is not None and formed & fresh_words:
            continue  # a phony must be made of words nobody has played
        uses_blank = "?" in evaluation.rack_tiles
        if want_blank and "?" in rack and not uses_blank:
            continue
        key = (len(evaluation.tiles), evaluation.score)
        if best is None or key > best[0]:
            best = (key, word, position, formed)
    return None if best is None else best[1:]


def _generated_blank_play(game: ScrabbleGame, generator: MoveGenerator, phony: set[str]):
    """The longest (then highest-scoring) legal play of the current rack that uses a blank."""
    seat = game.current_seat
    best = None
    for candidate in generator.generate(game.board_copy(), game.racks[seat]):
        if "?" not in candidate.rack_tiles:
            continue
        try:
            evaluation = game.preview(seat, candidate.word, candidate.position)
        except ScrabbleError:
            continue
        formed = {w.word for w in evaluation.words}
        if formed & phony:
            continue
        key = (len(evaluation.tiles), evaluation.score)
        if best is None or key > best[0]:
            best = (key, candidate.word, candidate.position, formed)
    return None if best is None else best[1:]


def _dictionary() -> tuple[set[str], MoveGenerator]:
    built_in = load_lexicon("default")
    return {w.upper() for w in built_in}, MoveGenerator(built_in)


class PlanFailed(Exception):
    """This seed's script misses something the test needs: try the next seed."""


def plan_game(state: dict[str, Any], rng_seed: int, tries: int = 20) -> Plan:
    """Script a whole game on a local copy of the bot's dealt game (the deal is random:
    a script that never plays a blank, or gets stuck, is made again from the next seed)."""
    for seed in range(rng_seed, rng_seed + tries):
        try:
            return _plan_game(state, seed)
        except PlanFailed:
            continue
    raise AssertionError(f"no usable script in {tries} seeds")


def _plan_game(state: dict[str, Any], rng_seed: int) -> Plan:
    dictionary, generator = _dictionary()
    game = ScrabbleGame.from_json(state)
    rng = random.Random(rng_seed)
    plan = Plan()
    lexicon = _Lexicon(plan.words)
    blank_played = False
    turn = 0

    def record(step: Step) -> None:
        step.moves_after = len(game.moves)
        step.status_after = game.status
        plan.steps.append(step)
        # The bot would end a game nobody can play on: the plan must never get there.
        if generator.is_blocked(game):
            raise PlanFailed("stuck")

    def play(word: str, position: str, formed: set[str]) -> None:
        nonlocal blank_played
        seat = game.current_seat
        result = game.play(seat, word, position)
        blank_played = blank_played or any(tile.blank for _, tile in result.tiles)
        record(Step("play", seat, word=word, position=position))

    while game.status != "finished" and turn < 400:
        turn += 1
        seat = game.current_seat
        if game.status == "ending":
            opponents = [s for s in range(game.seats) if s != game.last_play["seat"]]
            if game.seats == 2:
                game.accept(opponents[0])
                record(Step("accept", opponents[0]))
            else:
                game.close_challenge_window()
                record(Step("close"))
            continue
        rack = game.racks[seat]
        if turn == 1:  # bingo through the centre, blanks as E
            word = "".join("e" if t == "?" else t for t in rack[:7])
            plan.words.add(word.upper())
            play(word, "8H", {word.upper()})
            continue
        if turn == 2 and game.bag_count >= 7:
            tiles = "".join(
                [t for t in rack if t != "?"][:3]
            )  # keep the blanks: the game must play one
            game.exchange(seat, tiles)
            record(Step("exchange", seat, tiles=tiles))
            continue
        if turn == 3:
            game.pass_turn(seat)
            record(Step("pass", seat))
            continue
        if turn == 4:
            game.pass_turn(seat, timed_out=True)
            record(Step("timeout", seat))
            continue
        if turn == 5:  # a good play, challenged by the next seat: it stands
            found = _best_play(game, rng, plan.phony, want_blank=False)
            if found is None:
                raise PlanFailed("no play to challenge")
            word, position, formed = found
            plan.words.update(formed)
            play(word, position, formed)
            challenger = game.current_seat
            game.challenge(challenger, lexicon)
            record(Step("challenge", challenger))
            continue
        if turn == 6:  # a phony, challenged off by the next seat
            found = _best_play(
                game, rng, plan.phony, want_blank=False, fresh_words=plan.words | dictionary
            )
            if found is None:
                raise PlanFailed("no phony to play")
            word, position, formed = found
            plan.phony.update(formed)
            play(word, position, formed)
            challenger = game.current_seat
            result = game.challenge(challenger, lexicon)
            assert result.withdrawn
            record(Step("challenge", challenger, by_command=True))
            continue
        if (
            not blank_played
            and game.bag_count == 0
            and "?" not in rack
            and any("?" in other for other in game.racks)
        ):
            # A blank drawn last: wait for its holder rather than go out before it is played.
            game.pass_turn(seat)
            record(Step("pass", seat))
            continue
        found = None
        if not blank_played and "?" in rack:
            # Random placements rarely find a blank play; the move generator always does
            # if there is one, so a blank drawn late is still played before the game ends.
            found = _generated_blank_play(game, generator, plan.phony)
        if found is None:
            found = _best_play(game, rng, plan.phony, want_blank=not blank_played)
        if found is None:
            game.pass_turn(seat)
            record(Step("pass", seat))
            continue
        word, position, formed = found
        plan.words.update(formed)
        play(word, position, formed)
    if game.status != "finished" or not blank_played:
        raise PlanFailed("unfinished, or no blank played")
    plan.final = game
    return plan


# -- driving the bot ----------------------------------------------------------------------------


def game_state(db_path: Path, game_id: int) -> dict[str, Any]:
    with sqlite3.connect(db_path) as db:
        (state,) = db.execute("select state from games where id = ?", (game_id,)).fetchone()
    return json.loads(state)


async def reply_text(ix: Any) -> str:
    response = await ix.wait_response()
    if response.deferred:
        await ix.wait_done()
    if ix.followups:
        return ix.followups[-1].content or ""
    if ix.answer is not None and ix.answer.content:
        return ix.answer.content
    return response.content or ""


class Table:
    """One game being played through Discord by the club's members."""

    def __init__(self, club: Any, seats: list[list[Any]]) -> None:
        self.club = club
        self.dc = club.dc
        self.seats = seats
        self.game_id = 0  # as the buttons know it
        self.number = 0  # as members see it: Scrabble #1
        self.thread: Any = None
        self.turns_taken = 0

    def member(self, seat: int) -> Any:
        members = self.seats[seat]
        self.turns_taken += 1
        return members[self.turns_taken % len(members)]  # partners take turns at the keyboard

    async def board_post(self, predicate) -> Any:
        return await self.dc.wait_for_message(channel=self.thread, predicate=predicate, timeout=10)

    async def open(self, creator: Any, **options: Any) -> None:
        ix = await self.dc.slash(creator, self.club.channel, "scrabble new", **options)
        invite = ix.answer
        assert invite is not None and "scrabble:join" in " ".join(invite.custom_ids)
        self.game_id = int(
            next(c for c in invite.custom_ids if c.startswith("scrabble:join")).split(":")[2]
        )
        self.number = number_of(self.club.db_path, self.game_id)
        invited = [m for seat in self.seats for m in seat if m is not creator]
        for member in invited:
            click = await self.dc.click(member, invite, f"scrabble:join:{self.game_id}")
            assert click.response is not None
        threads = await self.dc.wait_until(
            lambda: self.dc.threads_in(self.club.channel), what="the game's thread"
        )
        self.thread = threads[-1]
        first = await self.board_post(lambda m: "move 0" in (m.content or ""))
        assert first.attachments and first.attachments[0].filename.endswith(".png")

    async def perform(self, step: Step, plan: Plan, clock_seconds: float) -> None:
        dc, club = self.dc, self.club
        challenged_off = False
        if step.kind == "play":
            ix = await dc.slash(
                self.member(step.seat),
                self.thread,
                "scrabble play",
                word=typed_notation(step.word),  # each blank as ?X, as a member types it
                position=step.position,
            )
            text = await reply_text(ix)
            assert text.startswith("You played"), text
            assert "!." not in text, text  # "— bingo! You drew…", one stop after the word
            assert ix.answer.ephemeral
        elif step.kind == "exchange":
            ix = await dc.slash(
                self.member(step.seat), self.thread, "scrabble exchange", tiles=step.tiles
            )
            assert (await reply_text(ix)).startswith("You exchanged")
        elif step.kind == "pass":
            ix = await dc.slash(self.member(step.seat), self.thread, "scrabble pass")
            assert (await reply_text(ix)) == "You passed."
        elif step.kind == "timeout":
            # The reminder comes on time, then the clock runs out (a reminder the
            # scheduler would run only after the turn ran out is not sent).
            lead = min(clock_seconds / 3, MAX_REMINDER_LEAD.total_seconds())
            club.clock.advance(seconds=clock_seconds - lead + 1)
            await club.tick()
            club.clock.advance(seconds=lead)
            await club.tick()
        elif step.kind == "challenge":
            board = dc.messages_in(self.thread)[-1]
            button = next((c for c in board.custom_ids if c.startswith("scrabble:challenge")), None)
            assert button is not None, board.custom_ids
            if step.by_command:
                ix = await dc.slash(self.member(step.seat), self.thread, "scrabble challenge")
            else:
                ix = await dc.click(self.member(step.seat), board, button)
            text = await reply_text(ix)
            assert text.startswith(("Your challenge succeeded", "The play stands")), text
            challenged_off = text.startswith("Your challenge succeeded")
        elif step.kind == "accept":
            board = dc.messages_in(self.thread)[-1]
            button = next(c for c in board.custom_ids if c.startswith("scrabble:accept"))
            ix = await dc.click(self.member(step.seat), board, button)
            assert "accepted" in await reply_text(ix)
        elif step.kind == "close":
            club.clock.advance(hours=25)
            await club.tick()
        if step.status_after == "finished":
            await self.board_post(lambda m: "Game over" in (m.content or ""))
        else:
            post = await self.board_post(
                lambda m: f"move {step.moves_after}\n" in (m.content or "")
            )
            if step.kind == "challenge" and challenged_off:
                # The play is off the board, the ones before it are not: the alt text says so.
                alt = post.attachments[0].description or ""
                assert "No tiles on the board yet" not in alt and "Last play:" in alt, alt


def bot_text_in_channels(dc: Any) -> list[str]:
    return [
        m.content or ""
        for m in dc.bot_messages(include_ephemeral=False)
        if m.channel_id is not None
    ]


def assert_no_racks_in_public(dc: Any, final: ScrabbleGame) -> None:
    for text in bot_text_in_channels(dc):
        assert "You drew" not in text and "Your rack" not in text


async def finish_checks(table: Table, plan: Plan, tmp_path: Path) -> None:
    dc, club = table.dc, table.club
    final_post = [m for m in dc.messages_in(table.thread) if "Game over" in (m.content or "")][-1]
    names = [a.filename for a in final_post.attachments]
    assert any(n.endswith(".gcg") for n in names) and any(n.endswith(".png") for n in names)
    gcg = dict(final_post.files)[f"scrabble-{table.number}.gcg"]
    path = tmp_path / f"game-{table.number}.gcg"
    path.write_bytes(gcg)
    checked = await asyncio.to_thread(
        subprocess.run,
        [sys.executable, "-m", "engines.scrabble.gcg", "check", str(path)],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "1 passed" in checked.stdout

    state = game_state(club.db_path, table.game_id)
    assert state["engine"]["status"] == "finished"
    assert state["engine"]["scores"] == plan.final.scores
    for score in plan.final.scores:
        assert str(score) in final_post.content
    # Every file the bot sent says what it holds; the board image, the last play and the scores.
    for message in dc.bot_messages(include_ephemeral=True):
        for attachment in message.attachments:
            assert attachment.description, f"{attachment.filename} in {message.content[:60]!r}"
    board_alt = next(a for a in final_post.attachments if a.filename.endswith(".png")).description
    assert "Scores:" in board_alt and all(str(s) in board_alt for s in plan.final.scores)

    export = await dc.slash(
        club.members["frank"], club.channel, "scrabble export", game=str(table.number)
    )
    await reply_text(export)
    exported = export.followups[-1].files if export.followups else export.answer.files
    assert exported[0][1] == gcg

    with sqlite3.connect(club.db_path) as db:
        results = db.execute(
            "select player_id, outcome from results where game_id = ?", (table.game_id,)
        ).fetchall()
        rated = db.execute(
            "select count(*) from ratings where game_kind = 'scrabble' and games > 0"
        ).fetchone()[0]
    players = {m.id for seat in table.seats for m in seat}
    assert {r[0] for r in results} == players
    assert rated >= len(players)
    assert_no_racks_in_public(dc, plan.final)
    for message in dc.pinging_messages():
        assert message.channel_id == table.thread.id
        if "your turn" in message.content:
            continue  # a DM that fell back to the thread
        # A live game's board mentions the seat to move, and nobody else.
        assert "· move" in message.content, message.content
        assert any(message.pings == {f"user:{m.id}" for m in seat} for seat in table.seats)


def write_word_list(path: Path, plan: Plan) -> None:
    dictionary, _ = _dictionary()
    assert not (plan.words & plan.phony) and not (dictionary & plan.phony)
    words = dictionary | plan.words
    path.write_text("\n".join(sorted(w.lower() for w in words)) + "\n", encoding="utf-8")


# -- the games ---------------------------------------------------------------------------------


async def test_a_game_of_two_pairs_is_played_to_the_end_through_discord(club, tmp_path):
    dc = club.dc
    words = tmp_path / "club-words.txt"
    words.write_text("placeholder\n", encoding="utf-8")
    await club.start(lexicon=str(words))
    alice, bob, carol, dave = (club.members[n] for n in ("alice", "bob", "carol", "dave"))
    table = Table(club, [[alice, carol], [bob, dave]])
    await table.open(
        alice, opponent=bob, partner=carol, opponent_partner=dave, clock="3m", deadline="7d"
    )

    state = game_state(club.db_path, table.game_id)
    plan = plan_game(state["engine"], rng_seed=7)
    write_word_list(words, plan)
    kinds = [s.kind for s in plan.steps]
    assert {"play", "exchange", "pass", "timeout", "challenge", "accept"} <= set(kinds)

    # Before anyone moves: a member not in the game, and the seat not on turn, change nothing.
    wrong = await dc.slash(club.members["erin"], table.thread, "scrabble pass")
    assert "not yours" in await reply_text(wrong) and wrong.answer.ephemeral
    first_seat = plan.steps[0].seat
    not_on_turn = table.seats[1 - first_seat][0]
    early = await dc.slash(
        not_on_turn, table.thread, "scrabble play", word=plan.steps[0].word, position="8H"
    )
    assert "not your turn" in await reply_text(early)
    assert game_state(club.db_path, table.game_id)["engine"]["moves"] == []

    # Partners share a rack: both see the same tiles, privately.
    racks = []
    for member in table.seats[first_seat]:
        ix = await dc.slash(member, table.thread, "scrabble rack")
        text = await reply_text(ix)
        assert ix.answer.ephemeral and text.startswith("Your rack:")
        racks.append(text.splitlines()[0])
    assert racks[0] == racks[1]
    # QA F28: exchanging a letter the rack lacks is refused as an exchange.
    rack_letters = racks[0].split(":", 1)[1]
    lacking = next(c for c in "QZXJKVWYFHBCMPGDULNSTRIOAE" if c not in rack_letters)
    refused = await dc.slash(
        table.seats[first_seat][0], table.thread, "scrabble exchange", tiles=lacking * 7
    )
    assert refused.answer.ephemeral
    assert await reply_text(refused) == f"You can't exchange {lacking}: your rack has none."
    assert game_state(club.db_path, table.game_id)["engine"]["moves"] == []

    # The DMs of both partners of the seat that times out first are closed: their
    # reminders come to the thread, one post naming both (QA F36), without pointing
    # at the thread itself.
    closed_seat = next(step.seat for step in plan.steps if step.kind == "timeout")
    closed = table.seats[closed_seat]
    for member in closed:
        dc.close_dms(member)
    joint_reminders = 0
    restart_at = len(plan.steps) // 2
    for index, step in enumerate(plan.steps):
        if index == restart_at:
            await club.restart()
        if step.kind == "timeout":
            on_turn = table.seats[step.seat]
            before = len(dc.messages_in(table.thread))
            await table.perform(step, plan, clock_seconds=180)
            if step.seat == closed_seat:
                reminders = [
                    m
                    for m in dc.messages_in(table.thread)[before:]
                    if "Reminder" in (m.content or "")
                ]
                assert len(reminders) == 1, [m.content for m in reminders]
                assert set(reminders[0].mentioned_user_ids()) == {m.id for m in closed}
                assert "<#" not in reminders[0].content
                joint_reminders += 1
            else:
                for member in on_turn:
                    assert any("Reminder" in (m.content or "") for m in dc.dms_to(member))
            continue
        if step.kind == "play" and index == 0:
            # Two members of the seat send the same play at once: it applies once.
            a, b = table.seats[step.seat]
            first = await dc.slash(
                a,
                table.thread,
                "scrabble play",
                word=typed_notation(step.word),
                position=step.position,
                wait=False,
            )
            second = await dc.slash(
                b,
                table.thread,
                "scrabble play",
                word=typed_notation(step.word),
                position=step.position,
                wait=False,
            )
            texts = [await reply_text(first), await reply_text(second)]
            assert sum(t.startswith("You played") for t in texts) == 1, texts
            assert not any("!." in t for t in texts), texts  # "— bingo! You drew…"
            await table.board_post(lambda m: "move 1\n" in (m.content or ""))
            continue
        await table.perform(step, plan, clock_seconds=180)

    assert joint_reminders

    # A button posted before the restart still works after it.
    old_board = next(
        m for m in dc.messages_in(table.thread) if "scrabble:rack:" in " ".join(m.custom_ids)
    )
    clicked = await dc.click(alice, old_board, f"scrabble:rack:{table.game_id}")
    assert (await reply_text(clicked)).startswith("Your rack")
    await finish_checks(table, plan, tmp_path)
    moves = (
        sqlite3.connect(club.db_path)
        .execute("select count(*) from moves where game_id = ?", (table.game_id,))
        .fetchone()[0]
    )
    assert moves == len(plan.final.moves)


async def test_a_three_player_game_with_an_asynchronous_clock_is_played_to_the_end(club, tmp_path):
    dc = club.dc
    words = tmp_path / "club-words.txt"
    words.write_text("placeholder\n", encoding="utf-8")
    await club.start(lexicon=str(words))
    alice, bob, carol = (club.members[n] for n in ("alice", "bob", "carol"))
    table = Table(club, [[carol], [alice], [bob]])
    await table.open(carol, opponent=alice, opponent2=bob, clock="1d", deadline="14d")

    plan = plan_game(game_state(club.db_path, table.game_id)["engine"], rng_seed=11)
    write_word_list(words, plan)
    assert {"play", "exchange", "pass", "timeout", "challenge", "close"} <= {
        s.kind for s in plan.steps
    }

    restart_at = len(plan.steps) // 3
    for index, step in enumerate(plan.steps):
        if index == restart_at:
            await club.restart()
        await table.perform(step, plan, clock_seconds=86400)

    # Asynchronous play: whoever's turn it was got a DM for it.
    for member in (alice, bob, carol):
        assert any("your turn" in (m.content or "") for m in dc.dms_to(member))
    await finish_checks(table, plan, tmp_path)
    games = await dc.slash(alice, club.channel, "scrabble games")
    assert "no Scrabble game" in await reply_text(games)


async def test_invitations_refuse_strangers_and_close_when_declined(club):
    dc = club.dc
    await club.start()
    alice, bob, erin = (club.members[n] for n in ("alice", "bob", "erin"))
    self_game = await dc.slash(alice, club.channel, "scrabble new", opponent=alice)
    assert self_game.answer.ephemeral and "only one place" in self_game.answer.content

    ix = await dc.slash(
        alice, club.channel, "scrabble new", opponent=bob, clock="live", deadline="80m"
    )
    invite = ix.answer
    assert invite.pings == frozenset(
        {f"user:{bob.id}"}
    )  # the invitation pings the invited, nobody else
    game_id = invite.custom_ids[0].split(":")[2]
    stranger = await dc.click(erin, invite, f"scrabble:join:{game_id}")
    assert stranger.answer.ephemeral and "not for you" in stranger.answer.content
    declined = await dc.click(bob, invite, f"scrabble:decline:{game_id}")
    assert declined.response is not None
    closed = dc.messages[invite.id]
    assert "bob declined" in closed.content and closed.custom_ids == []
    assert dc.threads_in(club.channel) == []
