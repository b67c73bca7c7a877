"""Command processing through the real bot and the loopback Discord.

The real ``ClubBot`` runs against :mod:`tests.loopback` on a SQLite file that
holds 200 live games (Scrabble and chess, made through the services before the
bot starts) and a few Scrabble games of four pairs (made as a club session makes
its boards, seats given and accepted for their members) and, once it is up, five open Boggle rounds and a running Henyo
round (a one-off pair). Members then take turns, one command at a time with
the bot idle in between (its outbox flushed): ``/scrabble play`` in two-seat games and in four-pair games (real plays:
the rack is read from the stored game, as the Scrabble e2e test does, and the
placement laying the most tiles among random tries is sent), ``/chess move``
(a random legal move in SAN), a Boggle word list by DM, and ``oo``/``hindi``/
``pwede`` from the Henyo answerer.

Two figures per command:

* **in bot**, the budgeted one: from the moment discord.py parses the gateway
  event to the moment the bot hands its reply to the HTTP layer. Time spent
  awaiting the bot's own earlier requests for the same interaction (a defer)
  is taken out, so the loopback's network and request handling are excluded.
  A Henyo ``oo`` gets no reply (the referee only records it), so its figure
  ends when the referee has committed.
* **round trip**, for reference: from the harness sending the event to the
  reply arriving there. ``/help`` (a static embed) gives the loopback's own
  floor for a round trip.
"""

from __future__ import annotations

import asyncio
import json
import random
import sqlite3
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from benchmarks._core import Row, ms_row

BUDGET_P99_MS = 50.0
T0 = datetime(2026, 11, 30, 18, 0, tzinfo=UTC)
BOGGLE_SEED = 42  # classic16 → I T V A / T E V W / Y O N I / L U C A
BOGGLE_WORDS = [
    "toucan",
    "convey",
    "canoe",
    "civet",
    "covet",
    "envoy",
    "naive",
    "ovine",
    "tonic",
    "acne",
    "cane",
    "coven",
    "covey",
    "zebra",
    "quiz",
]
LIVE_GAMES = 200
BOGGLE_ROUNDS = 5


class _Clock:
    """The bot's clock stands still: no turn clock or round end fires while we measure."""

    def __init__(self) -> None:
        self.now = T0

    def __call__(self) -> datetime:
        return self.now


# -- timing probes inside the bot process ------------------------------------------------


@dataclass
class _Call:
    start: float
    end: float = float("nan")  # set when the reply to the request came back
    token: str | None = None
    channel_id: int | None = None
    method: str = ""


@dataclass
class _Probe:
    """Timestamps taken inside the bot: events parsed, HTTP calls made, referee done."""

    received: dict[int, float] = field(default_factory=dict)
    webhook_calls: list[_Call] = field(default_factory=list)
    rest_calls: list[_Call] = field(default_factory=list)
    refereed: dict[int, float] = field(default_factory=dict)
    referee_done: asyncio.Event = field(default_factory=asyncio.Event)
    _undo: list[Callable[[], None]] = field(default_factory=list)

    def install(self, bot: Any, henyo_cog: Any) -> None:
        from discord.webhook import async_ as webhook_async

        parsers = bot._connection.parsers
        for event in ("INTERACTION_CREATE", "MESSAGE_CREATE"):
            original = parsers[event]

            def parse(data: dict[str, Any], _original: Callable[[Any], None] = original) -> None:
                self.received[int(data["id"])] = time.perf_counter()
                _original(data)

            parsers[event] = parse
            self._undo.append(lambda e=event, o=original: parsers.__setitem__(e, o))

        # Interaction replies go through the webhook adapter (token in the route).
        adapter = webhook_async.AsyncWebhookAdapter
        webhook_request = adapter.request

        # A call is logged when it starts: the harness may see the reply before the bot's await returns.
        async def timed_webhook(adapter_self: Any, route: Any, *args: Any, **kwargs: Any) -> Any:
            call = _Call(time.perf_counter(), token=route.webhook_token)
            self.webhook_calls.append(call)
            try:
                return await webhook_request(adapter_self, route, *args, **kwargs)
            finally:
                call.end = time.perf_counter()

        adapter.request = timed_webhook  # type: ignore[method-assign]
        self._undo.append(lambda: setattr(adapter, "request", webhook_request))

        # Everything else (channel and DM posts) goes through the bot's HTTP client.
        http_request = bot.http.request

        async def timed_http(route: Any, **kwargs: Any) -> Any:
            channel = route.channel_id
            call = _Call(
                time.perf_counter(),
                channel_id=int(channel) if channel else None,
                method=route.method,
            )
            self.rest_calls.append(call)
            try:
                return await http_request(route, **kwargs)
            finally:
                call.end = time.perf_counter()

        bot.http.request = timed_http
        self._undo.append(lambda: setattr(bot.http, "request", http_request))

        referee = henyo_cog._referee

        async def timed_referee(message: Any) -> None:
            try:
                await referee(message)
            finally:
                self.refereed[message.id] = time.perf_counter()
                self.referee_done.set()

        henyo_cog._referee = timed_referee
        self._undo.append(lambda: delattr(henyo_cog, "_referee"))

    def uninstall(self) -> None:
        while self._undo:
            self._undo.pop()()

    def interaction_ms(self, ix: Any) -> float:
        """Parse → final reply handed to HTTP, minus the time awaiting this interaction's earlier requests."""
        calls = [c for c in self.webhook_calls if c.token == ix.token]
        if not calls:
            raise RuntimeError(f"no reply was sent for interaction {ix.id}")
        final = calls[-1]
        awaited = sum(c.end - c.start for c in calls[:-1])
        return (final.start - self.received[ix.id] - awaited) * 1000.0

    def dm_reply_ms(self, message_id: int, channel_id: int) -> float:
        start = self.received[message_id]
        post = next(
            c
            for c in self.rest_calls
            if c.channel_id == channel_id and c.method == "POST" and c.start > start
        )
        return (post.start - start) * 1000.0

    def referee_ms(self, message_id: int) -> float:
        return (self.refereed[message_id] - self.received[message_id]) * 1000.0


# -- the world and the seeded database ------------------------------------------------------


@dataclass
class _World:
    dc: Any
    guild: Any
    games: Any
    henyo: Any
    moderator: Any
    scrabble_pairs: list[tuple[Any, Any]]
    scrabble_fours: list[list[list[Any]]]  # per game, four seats of two partners
    chess_pairs: list[tuple[Any, Any]]
    boggle_guilds: list[tuple[Any, Any]]  # (guild, channel)
    boggle_players: list[Any]
    guesser: Any
    answerer: Any
    bystanders: list[Any]


def _build_world(dc: Any, scrabble_tables: int, chess_tables: int, four_pair_tables: int) -> _World:
    guild = dc.add_guild("Library Games Club")
    games = dc.add_text_channel(guild, "games")
    henyo = dc.add_text_channel(guild, "henyo")
    moderator = dc.add_user("host")
    dc.add_member(guild, moderator, admin=True)

    def member(name: str, in_guild: Any = guild) -> Any:
        user = dc.add_user(name)
        dc.add_member(in_guild, user)
        return user

    scrabble = [(member(f"s{i}a"), member(f"s{i}b")) for i in range(scrabble_tables)]
    fours = [
        [[member(f"q{i}s{s}a"), member(f"q{i}s{s}b")] for s in range(4)]
        for i in range(four_pair_tables)
    ]
    chess_pairs = [(member(f"c{i}w"), member(f"c{i}b")) for i in range(chess_tables)]
    boggle_guilds = [(guild, games)]
    for n in range(1, BOGGLE_ROUNDS):
        other = dc.add_guild(f"Boggle Club {n}")
        boggle_guilds.append((other, dc.add_text_channel(other, "boggle")))
    players = [
        member(f"b{n}", boggle_guilds[n % BOGGLE_ROUNDS][0]) for n in range(5 * BOGGLE_ROUNDS)
    ]
    return _World(
        dc,
        guild,
        games,
        henyo,
        moderator,
        scrabble,
        fours,
        chess_pairs,
        boggle_guilds,
        players,
        member("guesser"),
        member("answerer"),
        [member(f"x{i}") for i in range(5)],
    )


async def _seed_games(
    url: str, world: _World, settings: Any, clock: _Clock
) -> tuple[list[int], list[int], list[int]]:
    """200 live games through the services; the measured ones are played by loopback members.

    Their opening posts are marked sent: the loopback never saw those channels' history.
    """
    from sqlalchemy import text

    from bot.db.engine import create_engine, create_session_factory
    from bot.db.migrate import upgrade_to_head
    from bot.scheduler import Scheduler
    from bot.services import ServiceContext
    from bot.services.chess import ChessService, PlayerRef
    from bot.services.scrabble import LexiconCache, Member, NewGameRequest, ScrabbleService

    engine = create_engine(url)
    await upgrade_to_head(engine)
    factory = create_session_factory(engine)
    ctx = ServiceContext(
        settings=settings,
        session_factory=factory,
        scheduler=Scheduler(factory, clock=clock),
        clock=clock,
    )
    scrabble = ScrabbleService(
        ctx,
        rng=random.Random(1),
        lexicons=LexiconCache(lambda _name: set()),
        definitions=lambda: None,
    )
    chess_service = ChessService(ctx, rng=random.Random(2))
    guild, channel = world.guild, world.games.id
    half = LIVE_GAMES // 2

    scrabble_ids = []
    for n in range(half):
        if n < len(world.scrabble_pairs):
            a, b = (Member(u.id, u.name) for u in world.scrabble_pairs[n])
        else:
            a, b = Member(10**15 + 2 * n, f"p{2 * n}"), Member(10**15 + 2 * n + 1, f"p{2 * n + 1}")
        invite = await scrabble.invitations.create(
            NewGameRequest(guild.id, guild.name, channel, a, [b], clock="3m", deadline="7d")
        )
        await scrabble.invitations.accept(invite.game_id, b.user_id)
        await scrabble.invitations.start(invite.game_id, None)
        scrabble_ids.append(invite.game_id)
    four_ids = []  # made before the chess games, so each one's number is its id
    for table in world.scrabble_fours:
        seats = [[Member(u.id, u.name) for u in seat] for seat in table]
        invite = await scrabble.invitations.create_seated(
            NewGameRequest(guild.id, guild.name, channel, seats[0][0], clock="3m", deadline="7d"),
            seats,
            accepted=True,
        )
        await scrabble.invitations.start(invite.game_id, None)
        four_ids.append(invite.game_id)

    chess_ids = []
    for n in range(LIVE_GAMES - half):
        if n < len(world.chess_pairs):
            w, b = (PlayerRef(u.id, u.name) for u in world.chess_pairs[n])
        else:
            w, b = (
                PlayerRef(2 * 10**15 + 2 * n, f"w{n}"),
                PlayerRef(2 * 10**15 + 2 * n + 1, f"b{n}"),
            )
        snap = await chess_service.starting.challenge(
            guild_id=guild.id,
            guild_name=guild.name,
            channel_id=channel,
            challenger=w,
            opponent=b,
            time_control="3d",
            color="white",
        )
        await chess_service.starting.accept(snap.game_id, b)
        chess_ids.append(snap.game_id)

    async with factory() as session:
        await session.execute(text("UPDATE outbox SET sent_at = created_at WHERE sent_at IS NULL"))
        await session.commit()
    await engine.dispose()
    return (
        scrabble_ids[: len(world.scrabble_pairs)],
        chess_ids[: len(world.chess_pairs)],
        four_ids,
    )


# -- choosing legal moves from the stored state ----------------------------------------------


def _state(db_path: Path, game_id: int) -> dict[str, Any]:
    with sqlite3.connect(db_path) as db:
        (state,) = db.execute("select state from games where id = ?", (game_id,)).fetchone()
    return json.loads(state)


def _number(db_path: Path, game_id: int) -> int:
    """The number members type for the game (``game:3``): per guild and kind, not the id."""
    with sqlite3.connect(db_path) as db:
        (number,) = db.execute("select number from games where id = ?", (game_id,)).fetchone()
    return int(number)


_COLUMNS = "ABCDEFGHIJKLMNO"


def _placements(
    cells: list[str | None], rack: str, rng: random.Random, tries: int
) -> list[tuple[str, str]]:
    """Candidate (word, position) notations laying rack tiles through squares next to the board's tiles.

    Existing tiles are written ``.``, blanks as ``?x``; the engine judges each one.
    """
    anchors = [
        i
        for i, cell in enumerate(cells)
        if cell is None
        and any(
            0 <= r < 15 and 0 <= c < 15 and cells[r * 15 + c] is not None
            for r, c in (
                (i // 15 + dr, i % 15 + dc) for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1))
            )
        )
    ]
    found = []
    for _ in range(tries):
        anchor, across = rng.choice(anchors), rng.random() < 0.5
        step = 1 if across else 15
        tiles = rng.sample(rack, rng.randint(1, len(rack)))
        start = anchor
        for _ in range(
            rng.randint(0, len(tiles) - 1)
        ):  # start some empty squares before the anchor
            previous = start - step
            if (
                previous < 0
                or (across and previous // 15 != anchor // 15)
                or cells[previous] is not None
            ):
                break
            start = previous
        while (
            True
        ):  # and take in the tiles already touching the start, so the notation begins the word
            previous = start - step
            if (
                previous < 0
                or (across and previous // 15 != anchor // 15)
                or cells[previous] is None
            ):
                break
            start = previous
        word, index, queue = [], start, list(tiles)
        while queue and index < 225 and not (across and index // 15 != start // 15):
            if cells[index] is not None:
                word.append(".")
            else:
                tile = queue.pop()
                word.append("?" + rng.choice("AEIOU") if tile == "?" else tile)
            index += step
        # ...and the tiles touching its end: the word typed must be the whole word.
        while index < 225 and not (across and index // 15 != start // 15) and cells[index]:
            word.append(".")
            index += step
        row, col = divmod(start, 15)
        found.append(
            ("".join(word), f"{row + 1}{_COLUMNS[col]}" if across else f"{_COLUMNS[col]}{row + 1}")
        )
    return found


def _scrabble_play(db_path: Path, game_id: int, rng: random.Random) -> tuple[int, str, str]:
    """(seat on turn, word, position): the legal placement using the most tiles among random tries."""
    from engines.scrabble import ScrabbleError, ScrabbleGame

    game = ScrabbleGame.from_json(_state(db_path, game_id)["engine"])
    seat = game.current_seat
    rack = game.racks[seat]
    board = game.board_copy()
    if board.is_empty:  # through the centre, blanks as E
        return seat, "".join("?E" if t == "?" else t for t in rack), "8H"
    best: tuple[int, str, str] | None = None
    for word, position in _placements(list(board.cells), rack, rng, tries=300):
        try:
            placed = len(game.preview(seat, word, position).tiles)
        except ScrabbleError:
            continue
        if best is None or placed > best[0]:
            best = (placed, word, position)
    if best is None:
        raise RuntimeError(f"no legal placement found in Scrabble #{game_id}")
    return seat, best[1], best[2]


def _chess_move(db_path: Path, game_id: int, rng: random.Random) -> tuple[bool, str]:
    """(White to move?, a random legal move in SAN that does not end the game)."""
    import chess

    board = chess.Board()
    for uci in _state(db_path, game_id)["moves"]:
        board.push_uci(uci)
    moves = list(board.legal_moves)
    rng.shuffle(moves)
    for move in moves:
        board.push(move)
        over = board.is_game_over(claim_draw=True)
        board.pop()
        if not over:
            return board.turn == chess.WHITE, board.san(move)
    raise RuntimeError(f"chess #{game_id} has no quiet move left")


# -- the measured commands -------------------------------------------------------------------


@dataclass
class _Samples:
    in_bot: dict[str, list[float]] = field(default_factory=dict)
    round_trip: dict[str, list[float]] = field(default_factory=dict)

    def add(self, kind: str, in_bot: float, round_trip: float) -> None:
        self.in_bot.setdefault(kind, []).append(in_bot)
        self.round_trip.setdefault(kind, []).append(round_trip)


class _Bench:
    def __init__(
        self,
        world: _World,
        bot: Any,
        probe: _Probe,
        db_path: Path,
        scrabble_ids: list[int],
        chess_ids: list[int],
        four_ids: list[int],
        announcement: Any,
    ) -> None:
        self.w, self.dc, self.bot, self.probe, self.db_path = world, world.dc, bot, probe, db_path
        self.scrabble_ids, self.chess_ids, self.four_ids = scrabble_ids, chess_ids, four_ids
        self.announcement = announcement
        self.rng = random.Random(11)
        self.samples = _Samples()
        self.turns = 0

    async def _idle(self) -> None:
        await self.bot.outbox.flush()  # the board posts a move queued: sent before the next command

    async def scrabble(self) -> None:
        game_id = self.scrabble_ids[self.turns % len(self.scrabble_ids)]
        seat, word, position = _scrabble_play(self.db_path, game_id, self.rng)
        user = self.w.scrabble_pairs[self.scrabble_ids.index(game_id)][seat]
        await self._scrabble_play("/scrabble play", user, game_id, word, position)

    async def scrabble_fours(self) -> None:
        """A play in a game of four pairs, by either partner of the seat on turn."""
        game_id = self.four_ids[self.turns % len(self.four_ids)]
        seat, word, position = _scrabble_play(self.db_path, game_id, self.rng)
        partners = self.w.scrabble_fours[self.four_ids.index(game_id)][seat]
        user = partners[self.turns // len(self.four_ids) % 2]
        await self._scrabble_play("/scrabble play (4 pairs)", user, game_id, word, position)

    async def _scrabble_play(
        self, kind: str, user: Any, game_id: int, word: str, position: str
    ) -> None:
        number = _number(self.db_path, game_id)
        sent = time.perf_counter()
        ix = await self.dc.slash(
            user,
            self.w.games,
            "scrabble play",
            word=word,
            position=position,
            game=str(number),
        )
        await ix.wait_done(timeout=10)
        done = time.perf_counter()
        reply = (
            ix.followups[-1].content
            if ix.followups
            else (ix.original.content if ix.original else "")
        )
        if not (reply or "").startswith("You played"):
            raise RuntimeError(
                f"/scrabble play {word} {position} in #{game_id} was refused: {reply!r}"
            )
        self.samples.add(kind, self.probe.interaction_ms(ix), (done - sent) * 1000)
        await self._idle()

    async def chess(self) -> None:
        index = self.turns % len(self.chess_ids)
        game_id = self.chess_ids[index]
        white_to_move, san = _chess_move(self.db_path, game_id, self.rng)
        user = self.w.chess_pairs[index][0 if white_to_move else 1]
        number = _number(self.db_path, game_id)
        sent = time.perf_counter()
        ix = await self.dc.slash(user, self.w.games, "chess move", move=san, game=str(number))
        done = time.perf_counter()
        # A move made where the game is played is acknowledged privately ("Done. …").
        if ix.response is None or not ix.response.content.startswith("Done. "):
            raise RuntimeError(
                f"/chess move {san} in #{game_id} was refused: {ix.response and ix.response.content!r}"
            )
        self.samples.add("/chess move", self.probe.interaction_ms(ix), (done - sent) * 1000)
        await self._idle()

    async def boggle(self) -> None:
        player = self.w.boggle_players[self.turns % len(self.w.boggle_players)]
        words = " ".join(self.rng.sample(BOGGLE_WORDS, 3))
        at = T0 + timedelta(seconds=10 + self.turns * 0.01)
        channel = self.dc.dm_channel(player)
        sent = time.perf_counter()
        message = await self.dc.dm(player, words, at=at)
        reply = await self.dc.wait_for_message(channel=player, timeout=10)
        done = time.perf_counter()
        if "round" not in reply.content:
            raise RuntimeError(f"unexpected answer to a Boggle DM: {reply.content!r}")
        self.samples.add(
            "Boggle word list by DM",
            self.probe.dm_reply_ms(message.id, channel.id),
            (done - sent) * 1000,
        )

    async def henyo(self) -> None:
        at = self.announcement.created_at + timedelta(seconds=1 + self.turns * 0.2)
        self.probe.referee_done.clear()
        sent = time.perf_counter()
        message = await self.dc.say(
            self.w.answerer, self.w.henyo, self.rng.choice(("oo", "Oo", "hindi", "pwede")), at=at
        )
        while (
            message.id not in self.probe.refereed
        ):  # nothing is posted: the referee's end is the answer
            await asyncio.wait_for(self.probe.referee_done.wait(), timeout=10)
            self.probe.referee_done.clear()
        done = time.perf_counter()
        self.samples.add(
            "Henyo answerer reply (oo/hindi/pwede)",
            self.probe.referee_ms(message.id),
            (done - sent) * 1000,
        )
        await self._idle()

    async def help(self) -> None:
        user = self.w.bystanders[self.turns % len(self.w.bystanders)]
        sent = time.perf_counter()
        ix = await self.dc.slash(user, self.w.games, "help")
        done = time.perf_counter()
        self.samples.add("/help", self.probe.interaction_ms(ix), (done - sent) * 1000)

    async def run(self, rounds: int, *, warmup: int) -> _Samples:
        steps: list[Callable[[], Awaitable[None]]] = [
            self.scrabble,
            self.scrabble_fours,
            self.chess,
            self.boggle,
            self.henyo,
            self.help,
        ]
        for _ in range(warmup):
            for step in steps:
                await step()
            self.turns += 1
        self.samples = _Samples()
        for _ in range(rounds):
            for step in steps:  # interleaved, so a change in machine load hits every command alike
                await step()
            self.turns += 1
        return self.samples


# -- setting up the bot's live rounds ----------------------------------------------------------


def _cog(bot: Any, class_name: str) -> Any:
    return next(c for c in bot.cogs.values() if type(c).__name__ == class_name)


async def _open_boggle_rounds(bot: Any, world: _World) -> None:
    service = _cog(bot, "BoggleCog").service
    for guild, channel in world.boggle_guilds:
        await service.starting.start_round(
            guild_id=guild.id,
            guild_name=guild.name,
            channel_id=channel.id,
            started_by=world.moderator.id,
            duration="60m",
        )
    await bot.outbox.flush()
    await service.core.wait_background()  # the solver index, built once per process


async def _start_henyo_round(world: _World) -> Any:
    dc = world.dc
    ix = await dc.slash(
        world.moderator, world.henyo, "henyo start", guesser=world.guesser, answerer=world.answerer
    )
    await ix.wait_done(timeout=10)
    return await dc.wait_for_message(
        channel=world.henyo,
        predicate=lambda m: (m.content or "").startswith("🎯 **Library Henyo"),
        timeout=10,
    )


async def _measure(quick: bool, tmp: Path) -> tuple[_Samples, dict[str, float]]:
    import bot.services.boggle as boggle_service
    from bot.client import ClubBot
    from bot.config import load_settings
    from tests.loopback import LoopbackDiscord

    rounds = 30 if quick else 100
    tables = 10 if quick else 25
    four_pair_tables = 5 if quick else 10
    db_path = tmp / "club.db"
    url = f"sqlite+aiosqlite:///{db_path}"
    clock = _Clock()
    setup: dict[str, float] = {}
    dc = LoopbackDiscord()
    await dc.start()
    saved_seed = boggle_service.new_seed
    boggle_service.new_seed = lambda: BOGGLE_SEED  # a known grid whose words the DMs use
    probe = _Probe()
    try:
        world = _build_world(dc, tables, tables, four_pair_tables)
        settings = load_settings(
            None,
            discord_token="test-token",
            database_url=url,
            discord_guild_ids=[world.guild.id],
            scheduler_poll_seconds=0.05,
        )
        t = time.perf_counter()
        scrabble_ids, chess_ids, four_ids = await _seed_games(url, world, settings, clock)
        setup["seed 200 games"] = time.perf_counter() - t
        bot = ClubBot(settings, clock=clock)
        t = time.perf_counter()
        await dc.start_bot(bot, token="test-token")
        setup["bot start"] = time.perf_counter() - t
        await _open_boggle_rounds(bot, world)
        announcement = await _start_henyo_round(world)
        probe.install(bot, _cog(bot, "HenyoCog"))
        bench = _Bench(world, bot, probe, db_path, scrabble_ids, chess_ids, four_ids, announcement)
        t = time.perf_counter()
        samples = await bench.run(rounds, warmup=2)
        setup["measured commands"] = time.perf_counter() - t
        problems = dc.violation_report()
        if problems:
            print(
                "bench_commands: the bot broke Discord's rules:\n  " + "\n  ".join(problems),
                file=sys.stderr,
            )
    finally:
        probe.uninstall()
        boggle_service.new_seed = saved_seed
        await dc.close()
    return samples, setup


def run(quick: bool) -> list[Row]:
    with tempfile.TemporaryDirectory() as folder:
        samples, setup = asyncio.run(_measure(quick, Path(folder)))
    rows = []
    for kind, values in samples.in_bot.items():
        budget = None if kind == "/help" else BUDGET_P99_MS
        row = ms_row(f"commands: {kind}, in bot (network excluded)", values, budget)
        row.budget_on = "p99"
        rows.append(row)
    for kind, values in samples.round_trip.items():
        rows.append(ms_row(f"commands: {kind}, loopback round trip", values, None))
    notes = ", ".join(f"{k} {v:.1f} s" for k, v in setup.items())
    print(
        f"bench_commands: {LIVE_GAMES} live games (and games of four pairs), "
        f"{BOGGLE_ROUNDS} Boggle rounds; {notes}",
        file=sys.stderr,
    )
    return rows


if __name__ == "__main__":
    for r in run(quick="--quick" in sys.argv):
        print(r)
