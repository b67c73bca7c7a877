"""The library's games event through the loopback Discord: the issue's "Done when".

The host opens an event for Henyo, Boggle, Scrabble and chess with 5 pairs; six
pairs register (the sixth waits); a pair withdraws and the sixth is told by DM
that it moved up; the Henyo round is played pair by pair with ``/henyo start``;
the Boggle round is played in pairs (both partners DM, the pair's last list
counts); a Scrabble round robin and a chess knockout are finished by
resignations in their threads; the bot restarts in the Boggle round and between
two Scrabble games; the host writes prize lines and closes the event; the final
post shows each game's standings
and winners, and the leaderboard's history (``/stats``) keeps the event.
"""

from __future__ import annotations

import asyncio
import re
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select

import bot.services.boggle as boggle_service
from bot.db.models import GameRecord, ResultRecord
from bot.db.models_events import GamesEventRoundRecord
from tests.e2e.club import open_club

pytestmark = pytest.mark.clock(datetime(2026, 12, 5, 2, 0, tzinfo=UTC))
SECRET = re.compile(r"The secret word is: \*\*(.+?)\*\*")
SEED = 42  # classic16 → I T V A / T E V W / Y O N I / L U C A
WORDS = ["toucanet", "toucan", "convey", "canoe", "civet", "covet", "envoy", "naive", "tonic"]
PAIRS = [
    ("alice", "bob"),
    ("carol", "dave"),
    ("erin", "frank"),
    ("gina", "hugo"),
    ("iris", "jose"),
    ("kate", "leon"),
]


@pytest.fixture
async def club(loopback: Any, tmp_path: Path, clock: Any, monkeypatch: pytest.MonkeyPatch):
    path = tmp_path / "words.txt"
    path.write_text("\n".join(WORDS) + "\n")
    monkeypatch.setenv("LEXICON", str(path))
    monkeypatch.setattr(boggle_service, "new_seed", lambda: SEED)
    async for c in open_club(loopback, tmp_path, clock, extra_members=6):
        yield c


def unescape(text: str) -> str:
    return re.sub(r"\\(.)", r"\1", text)


class Event:
    def __init__(self, club: Any) -> None:
        self.club = club
        self.dc = club.dc
        self.channel = club.channel
        self.host = club.moderator

    def __getitem__(self, name: str) -> Any:
        return self.club.members[name]

    async def slash(self, who: Any, command: str, where: Any = None, **options: Any) -> Any:
        return await self.dc.slash(who, where or self.channel, command, **options)

    async def private(self, who: Any, command: str, **options: Any) -> str:
        ix = await self.slash(who, command, **options)
        if ix.answer.content is None or ix.response.type == 5:  # deferred
            reply = await ix.next_message(timeout=15)
            assert reply.ephemeral, reply.content
            return str(reply.content)
        assert ix.answer.ephemeral, ix.answer.content
        return str(ix.answer.content)

    async def posted(self, needle: str, timeout: float = 10.0) -> Any:
        return await self.dc.wait_for_message(
            channel=self.channel, predicate=lambda m: needle in (m.content or ""), timeout=timeout
        )

    async def settle(self) -> None:
        """Run the jobs that are due (a game's finish, a round's opening) and send the outbox."""
        for _attempt in range(3):
            await self.club.tick()

    async def round_ref(self, game: str) -> int:
        assert self.club.bot is not None
        async with self.club.bot.ctx.reader() as uow:
            row = (
                await uow.session.execute(
                    select(GamesEventRoundRecord).where(GamesEventRoundRecord.game == game)
                )
            ).scalar_one()
            return int(row.ref_id)

    async def open_games(
        self, tournament_id: int
    ) -> list[tuple[int, str, int | None, list[tuple[int, int]]]]:
        """The tournament's games still to finish: (id, kind, thread id, seated member ids)."""
        assert self.club.bot is not None
        async with self.club.bot.ctx.reader() as uow:
            games = (await uow.session.execute(select(GameRecord))).scalars().all()
            found = []
            for g in games:
                if (g.options or {}).get("tournament_id") != tournament_id:
                    continue
                if g.status not in ("active", "invited"):
                    continue
                full = await uow.games.get(g.id)
                found.append((g.id, g.kind, g.thread_id, [(s.seat, s.user_id) for s in full.seats]))
            return found

    async def finished(self, tournament_id: int) -> bool:
        assert self.club.bot is not None
        async with self.club.bot.ctx.reader() as uow:
            t = await uow.tournaments.get(tournament_id)
            return t is not None and t.status == "finished"

    async def play_out(
        self, tournament_id: int, kind: str, champion: Any, *, restart_after: int = 0
    ) -> int:
        """Every game of the tournament, round after round, ends by a resignation
        in its thread (``champion``'s opponent resigns; else the first seat);
        returns how many games were played."""
        played = 0
        for _round in range(40):
            await self.settle()
            games = await self.open_games(tournament_id)
            if not games:
                if await self.finished(tournament_id):
                    return played
                await asyncio.sleep(0.1)
                continue
            if any(thread_id is None for _g, _k, thread_id, _s in games):
                continue  # the round's threads are still opening
            for _game_id, game_kind, thread_id, seats in games:
                assert game_kind == kind and thread_id is not None
                thread = self.dc.channels[thread_id]
                await self.dc.wait_until(
                    lambda t=thread: any(
                        m.author.id == self.dc.bot_user.id for m in self.dc.messages_in(t)
                    ),
                    10,
                    "the game's first board",
                )
                champion_seat = next((seat for seat, uid in seats if uid == champion.id), None)
                loser = next(uid for seat, uid in seats if seat != champion_seat)
                ix = await self.dc.slash(self.dc.users[loser], thread, f"{kind} resign")
                assert ix.response is not None
                played += 1
                if played == restart_after:
                    await self.club.restart()  # between two games of a round
            await self.settle()
        raise AssertionError("the tournament did not finish")


async def test_the_librarys_games_event_from_registration_to_prizes_and_the_leaderboard(
    club,
) -> None:
    await club.start()
    ev = Event(club)
    dc = ev.dc

    # --- the host opens the event; members register pairs (one with the button and the picker)
    refused = await ev.private(club.members["alice"], "event open")
    assert "Only moderators" in refused
    opened = await ev.private(ev.host, "event open", games="henyo boggle scrabble chess", pairs=5)
    assert "is open" in opened
    card = await ev.posted("Play games and win prizes")
    assert "first 5 pairs" in card.content
    button = next(c for c in card.custom_ids if c.startswith("event:register:"))

    clicked = await dc.click(ev["alice"], card, button)
    assert clicked.answer.ephemeral
    picker = clicked.original
    assert picker.content == "Pick your partner for **Play games and win prizes**:"  # QA F43
    picked = await dc.select(
        ev["alice"], picker, next(c for c in picker.custom_ids if "partner" in c), [ev["bob"]]
    )
    assert picked.answer.ephemeral and "pair 1 of 5" in picked.answer.content
    for user, partner in PAIRS[1:]:
        reply = await ev.private(ev[user], "event register", partner=ev[partner])
    assert "waiting list (#1)" in reply

    twice = await ev.private(ev["bob"], "event register", partner=ev["erin"])
    assert "already signed up" in twice
    nobody = await ev.private(ev.host, "event withdraw")
    assert "not signed up" in nobody
    early = await ev.private(ev["alice"], "event round", game="henyo")
    assert "Only the host" in early

    # --- erin & frank withdraw: kate & leon move up and are told by DM
    gone = await ev.private(ev["frank"], "event withdraw")
    assert "kate & leon" in gone and "move up" in gone
    for name in ("kate", "leon"):
        dm = await dc.wait_until(
            lambda n=name: next((m for m in dc.dms_to(ev[n]) if "moved up" in m.content), None),
            10,
            f"{name}'s DM",
        )
        assert "pair 5" in dm.content
    await ev.posted("move up from the waiting list")
    playing = [p for p in PAIRS if p != ("erin", "frank")]

    # --- the Henyo round: a Henyo event of the pairs, each pair's word with /henyo start
    started = await ev.private(ev.host, "event round", game="henyo")
    assert "Library Henyo round has started for 5 pairs" in started
    again = await ev.private(ev.host, "event round", game="henyo")
    assert "has started already" in again
    late = await ev.private(ev["erin"], "event register", partner=ev["frank"])
    assert "registration is over" in late
    times = [41.5, 33.2, 27.9, 55.0, 60.4]
    for (guesser, answerer), seconds in zip(playing, times, strict=True):
        dms = len(dc.dms_to(ev[answerer]))
        ix = await ev.slash(ev.host, "henyo start")
        await ix.next_message(timeout=10)
        announcement = await dc.wait_for_message(
            channel=ev.channel,
            predicate=lambda m, g=guesser: (
                m.content.startswith("🎯 **Library Henyo") and g in m.content
            ),
        )
        secret = SECRET.search(dc.dms_to(ev[answerer])[dms].content)
        assert secret
        await dc.say(
            ev[guesser],
            ev.channel,
            unescape(secret.group(1)),
            at=announcement.created_at + timedelta(seconds=seconds),
        )
        await ev.posted("guessed it")

    # --- the Boggle round: both partners DM; the pair's latest list is its list
    started = await ev.private(ev.host, "event round", game="boggle", duration="3m")
    assert "Word Boggle round has started for 5 pairs" in started
    await ev.posted("each pair submits one list")
    grid = await dc.wait_for_message(
        channel=ev.channel, predicate=lambda m: bool(m.attachments) and "Boggle" in m.content
    )
    t0 = grid.created_at
    lists = {
        "alice": ("toucanet toucan", 10),  # alice's list is replaced by bob's later one
        "bob": ("convey", 20),
        "carol": ("canoe civet covet", 15),
        "gina": ("envoy naive", 12),
        "iris": ("tonic", 30),
        "frank": ("tonic", 31),  # not in a pair: not judged, so iris & jose keep TONIC
    }
    for name, (words, seconds) in lists.items():
        before = len(dc.dms_to(ev[name]))
        await dc.dm(ev[name], words, at=t0 + timedelta(seconds=seconds))
        receipt = await dc.wait_until(
            lambda n=name, b=before: dc.dms_to(ev[n])[b] if len(dc.dms_to(ev[n])) > b else None,
            10,
            f"{name}'s receipt",
        )
        note = "kept but not judged" if name == "frank" else "played in pairs"
        assert note in receipt.content, receipt.content
    # --- the bot restarts in the middle of the event; nothing is lost
    await club.restart()
    club.clock.advance(minutes=4)
    await ev.settle()
    results = await ev.posted("round #1 results", timeout=20)
    assert "🏆 **carol & dave** wins with 6 points" in results.content
    ix = await ev.slash(ev["kate"], "event standings", game="boggle")
    assert "**1.** carol & dave — 6 points" in ix.answer.content
    assert "iris & jose — 2 points" in ix.answer.content
    assert "kate & leon — sent no list" in ix.answer.content

    # --- Scrabble: a round robin of the pairs; chess: a knockout (either partner moves)
    started = await ev.private(ev.host, "event round", game="scrabble")
    assert "Scrabble round has started for 5 pairs" in started
    scrabble_games = await ev.play_out(
        await ev.round_ref("scrabble"), "scrabble", ev["carol"], restart_after=3
    )
    assert scrabble_games == 10  # 5 pairs, every pair meets every other once
    started = await ev.private(ev.host, "event round", game="chess", format="knockout")
    assert "Chess round has started" in started
    chess_games = await ev.play_out(await ev.round_ref("chess"), "chess", ev["alice"])
    assert chess_games >= 4

    # --- standings per game, the host's prize lines, the final post
    ix = await ev.slash(ev["carol"], "event standings")
    table = ix.answer.content
    assert not ix.answer.ephemeral
    assert "**Library Henyo** — finished" in table
    henyo_block = table.split("**Library Henyo**")[1].split("**Word Boggle**")[0]
    assert henyo_block.index("gina & hugo") < henyo_block.index("carol & dave")
    assert "**1.** gina & hugo — 27.9 s" in henyo_block
    boggle_block = table.split("**Word Boggle**")[1].split("**Scrabble**")[0]
    # alice & bob count bob's list (convey, 3 points), not alice's earlier one
    assert "alice & bob — 3 points" in boggle_block
    assert "**1.** carol & dave" in boggle_block
    assert "**Scrabble** — finished" in table and "**Chess** — finished" in table

    not_host = await ev.private(ev["gina"], "event prize", game="henyo", text="Book voucher")
    assert "Only the host" in not_host
    for game, prize in (
        ("henyo", "Book voucher"),
        ("boggle", "Library tote bag"),
        ("scrabble", "Dictionary"),
        ("chess", "Chess set"),
    ):
        line = await ev.private(ev.host, "event prize", game=game, text=prize)
        assert prize in line
    await ev.private(ev.host, "event prize", game="henyo", place=2, text="Bookmarks <@everyone>")

    closed = await ev.private(ev.host, "event close")
    assert "is closed" in closed
    final = await ev.posted("is over: the final standings")
    text = final.content
    assert "Library Henyo winners: **gina & hugo** — Book voucher" in text
    assert "Word Boggle winners: **carol & dave** — Library tote bag" in text
    assert "Scrabble winners: **carol & dave** — Dictionary" in text
    assert "Chess winners: **alice & bob** — Chess set" in text
    assert "**1.** gina & hugo — 27.9 s" in text and "**5.** kate & leon — 1:00.4" in text
    assert "place 2: Bookmarks" in text and "@everyone" not in text.replace("@\u200beveryone", "")

    # --- the leaderboard's history keeps the event
    stats = await ev.slash(ev["gina"], "stats")
    embed = stats.answer.embeds[0]
    fields = {f["name"]: f["value"] for f in embed.get("fields", [])}
    assert "Games events" in fields, fields
    assert "**1** won of" in fields["Games events"] or "won of" in fields["Games events"]
    henyo_stats = fields["Library Henyo"]
    assert "1 events won" in henyo_stats
    assert club.bot is not None
    async with club.bot.ctx.reader() as uow:
        rows = (
            (
                await uow.session.execute(
                    select(ResultRecord).where(ResultRecord.game_kind == "event")
                )
            )
            .scalars()
            .all()
        )
        refs = {r.round_ref for r in rows}
        winners = {(r.round_ref, r.player_id) for r in rows if r.outcome == "win"}
    assert refs == {
        "event:1:henyo",
        "event:1:boggle",
        "event:1:scrabble",
        "event:1:chess",
    }
    assert ("event:1:henyo", ev["gina"].id) in winners and (
        "event:1:henyo",
        ev["hugo"].id,
    ) in winners


async def test_closing_an_event_ends_its_tournament_and_the_card_follows_registration(
    club,
) -> None:
    """QA F22-F24: the sign-up card is posted before the host's reply points at it,
    loses its Register button when the first round closes registration and says
    the event is over at the end; closing with a chess round under way ends the
    tournament (its game ended in its thread, moves refused) and the final post
    names the winners instead of "under way" and "(–)"."""
    await club.start()
    ev = Event(club)
    dc = ev.dc
    ix = await ev.slash(ev.host, "event open", games="chess boggle", pairs=4, name="Cup Night")
    reply = await ix.next_message(timeout=15)
    assert reply.ephemeral and "is open" in reply.content
    cards = [m for m in dc.messages_in(ev.channel) if "Cup Night" in (m.content or "")]
    assert len(cards) == 1  # the card is there when the reply pointing at it arrives
    card = cards[0]
    assert any(c.startswith("event:register:") for c in card.custom_ids)
    for user, partner in PAIRS[:3]:
        await ev.private(ev[user], "event register", partner=ev[partner])

    started = await ev.private(ev.host, "event round", game="chess")
    assert "Chess round has started for 3 pairs" in started
    await dc.wait_until(lambda: not card.custom_ids, 10, "the card's button gone")
    assert "Registration is closed" in card.content and "later pairs wait" not in card.content
    await ev.private(ev.host, "event prize", game="chess", text="Chess set")
    await ev.private(ev.host, "event prize", game="boggle", text="Tote bag")

    tid = await ev.round_ref("chess")
    await ev.settle()
    _game_id, _kind, thread_id, seats = await _one_open_game(ev, tid)
    assert thread_id is not None
    thread = dc.channels[thread_id]
    # A pair is one side of the board: both partners are seated, and either moves for it.
    sides = {seat: sorted(uid for s, uid in seats if s == seat) for seat in (0, 1)}
    pairs = {tuple(sorted((ev[a].id, ev[b].id))) for a, b in PAIRS[:3]}
    assert all(tuple(ids) in pairs for ids in sides.values()), sides
    await dc.wait_until(
        lambda: any("Game on" in (m.content or "") for m in dc.messages_in(thread)),
        10,
        "the game's first board",
    )
    for seat, index, move in ((0, 0, "e4"), (1, 1, "e5"), (0, 1, "Nf3"), (1, 0, "Nc6")):
        ix = await dc.slash(dc.users[sides[seat][index]], thread, "chess move", move=move)
        assert ix.answer.ephemeral and move in ix.answer.content, ix.answer.content
    asked = await ev.private(ev.host, "event close")
    assert "Still under way" in asked
    closed = await ev.private(ev.host, "event close", confirm=True)
    assert "is closed" in closed
    final = await ev.posted("is over: the final standings")
    text = final.content
    assert "under way" not in text and "**Chess** — finished" in text
    assert "Chess winners: **" in text and "— Chess set" in text
    assert "Word Boggle, place 1: Tote bag (no winner: the game was not finished)" in text
    assert await ev.finished(tid)
    assert not await ev.open_games(tid)
    ended = await dc.wait_until(
        lambda: next(
            (m for m in dc.messages_in(thread) if "its games event closed" in (m.content or "")),
            None,
        ),
        10,
        "the game's end in its thread",
    )
    assert "not rated" in ended.content
    white = dc.users[next(uid for seat, uid in seats if seat == 0)]
    ix = await dc.slash(white, thread, "chess move", move="e4")
    assert ix.answer.ephemeral and "is over" in ix.answer.content, ix.response
    await ev.posted("Final table")  # the tournament's own final table
    await dc.wait_until(lambda: "This event is over" in card.content, 10, "the card's end")
    assert not card.custom_ids

    # QA F25: the pair with the bye played no game: /stats counts none for them,
    # while the pair that played counts its one game.
    seated = set(sides[0]) | set(sides[1])
    bye = next(ev[a] for a, _b in PAIRS[:3] if ev[a].id not in seated)
    fields = await _stats_fields(ev, bye)
    assert "Games events" not in fields, fields
    played = await _stats_fields(ev, dc.users[sides[0][0]])
    assert "of 1 game played" in played["Games events"], played


async def _stats_fields(ev: Event, member: Any) -> dict[str, str]:
    stats = await ev.slash(member, "stats")
    embeds = stats.answer.embeds
    return {f["name"]: f["value"] for e in embeds for f in e.get("fields", [])}


async def _one_open_game(ev: Event, tid: int) -> tuple[int, str, int | None, list[tuple[int, int]]]:
    for _attempt in range(50):
        games = await ev.open_games(tid)
        if games and all(g[2] is not None for g in games):
            assert len(games) == 1, games  # 3 pairs: one game and a bye
            return games[0]
        await ev.settle()
        await asyncio.sleep(0.1)
    raise AssertionError("the round's game did not open")
