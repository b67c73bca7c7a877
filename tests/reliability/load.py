"""Load: many guilds playing a mix of commands, at an open-loop rate, against real bot processes.

The one load driver of the project: ``python -m benchmarks.load`` (and the suite's
``bench_load`` row) measure with it, and ``test_kill_under_load.py`` kills a bot
under it. It runs in the process of the loopback Discord (``tests/loopback``) and
the reliability ``World`` (``harness.py``), whose bots are real processes.

The world: N guilds (the World's own, then ``Load Club n``), each with a
``games`` channel, the moderator and 4–8 members of its own; guild ``i`` is on
shard ``i mod SHARD_COUNT`` and each bot process holds its share of the shards.

Arrivals are Poisson at the rate asked (open loop: the next one is sent at its
time whether or not the bot has answered the last). Each arrival is one of:

==========================  ======  ===============================================
action                      weight  what the member does
==========================  ======  ===============================================
scrabble move               22      ``/scrabble play`` of a legal placement (below)
chess move                  22      ``/chess move`` of a random legal move
scrabble new / accept       3 + 3   ``/scrabble new opponent:…``, the Accept click
chess new / accept          3 + 3   ``/chess new … time:3d color:white``, Accept
position autocomplete       8       the ``position`` suggestions of ``/scrabble play``
rack                        6       ``/scrabble rack`` or the board's Show my rack
board                       8       ``/scrabble board`` or ``/chess board``
leaderboard                 6       ``/leaderboard`` in the guild's channel
help                        4       ``/help``
boggle DM                   12      a word list DM'd during a guild's open round
==========================  ======  ===============================================

A move is made by the member on turn of a game whose last board has been
posted: its state is read straight from the database and the move chosen in
this process (chess: a random legal move with python-chess; Scrabble: a legal
placement from the rack, ``games.legal_play``, the word unjudged as in the
default double-challenge game; a pass when none is found). While a game's move
is under way the game takes no other move; an arrival with no game to move
opens (or accepts) a game instead, so the first seconds of a run open games.
Boggle rounds (``/boggle start`` by the moderator) are opened in every
``boggle_every``-th guild before the run; DMs are not interactions (no ack), they
are counted apart.

What is measured comes from the loopback: an interaction's ack latency is from
its INTERACTION_CREATE to its first callback (``InteractionHandle.responded``),
a miss is no callback within 3 s, and a move's board lag is from its ack to the
board's post in the game's thread (``message_listeners``). The load
generator shares the loopback's event loop: when it is saturated, latencies
include its own delay (``generator_cpu`` shows it).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import re
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import chess

from tests.loopback.handles import APPLICATION_COMMAND, AUTOCOMPLETE, LoopbackTimeout
from tests.loopback.harness import LoopbackUsageError
from tests.reliability.games import chess_invite_game_id, invite_game_id, legal_play
from tests.reliability.harness import World

ACK_DEADLINE_S = 3.0
MIX: dict[str, int] = {
    "scrabble move": 22,
    "chess move": 22,
    "scrabble new": 3,
    "scrabble accept": 3,
    "chess new": 3,
    "chess accept": 3,
    "autocomplete": 8,
    "rack": 6,
    "board": 8,
    "leaderboard": 6,
    "help": 4,
    "boggle dm": 12,
}
BOGGLE_WORDS = [
    "tone",
    "note",
    "rate",
    "tear",
    "stare",
    "least",
    "steal",
    "tales",
    "snore",
    "rinse",
]
SCRABBLE_BOARD = re.compile(r"\*\*Scrabble #\d+\*\* · move (\d+)\n")
CHESS_BOARD = "played **"
LATE_S = 1.0  # an arrival this far behind its time is dropped, not sent in a burst
MAX_REFUSALS = 3  # a game whose prepared move is refused this often is left alone


@dataclass
class Club:
    guild: Any
    channel: Any
    members: list[Any]
    round_open: bool = False


@dataclass
class Move:
    """One move sent: what it was, the game's move count before it, and how it went."""

    kind: str
    game_id: int
    index: int  # the game's number of moves before this one
    notation: str  # SAN, or "POSITION WORD" (as the moves table writes them), "-" a pass
    ix: Any
    reply: str | None = None  # the member's final answer, once read
    board_at: float | None = None  # loop time the board was posted in the thread


@dataclass
class Game:
    kind: str  # "scrabble" | "chess"
    game_id: int
    club: Club
    players: list[Any]  # by seat (the creator first; white in chess)
    invite: Any
    thread_id: int | None = None
    busy: bool = True
    over: bool = False
    refusals: int = 0
    prepared: tuple[Any, str, dict[str, Any], str] | None = None  # user, command, options, notation
    index: int = 0


@dataclass
class Step:
    """One rate held for some seconds: what was sent, and the processes' counters."""

    rate: float
    seconds: float
    started: float  # loop time
    ended: float = 0.0
    arrivals: int = 0
    dms: int = 0
    undeliverable: int = 0  # arrivals for a shard whose process was down
    cpu_before: dict[int, ProcSample] = field(default_factory=dict)
    cpu_after: dict[int, ProcSample] = field(default_factory=dict)
    generator_cpu: float = 0.0  # seconds of this process's CPU during the step


@dataclass
class ProcSample:
    """A bot process's CPU seconds (user+sys, its own and its children's) and resident MiB."""

    at: float
    cpu: float
    workers_cpu: float
    rss_mib: float
    workers_rss_mib: float
    loop_cpu: float = 0.0  # the main thread's alone: the event loop (not the database threads)


_TICK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def _stat(pid: int, thread: int | None = None) -> tuple[int, float] | None:
    """(parent pid, CPU seconds) of a process (or of one of its threads) from /proc,
    None when it is gone."""
    path = f"/proc/{pid}/task/{thread}/stat" if thread is not None else f"/proc/{pid}/stat"
    try:
        raw = Path(path).read_text()
    except OSError:
        return None
    fields = raw[raw.rindex(")") + 2 :].split()
    return int(fields[1]), (int(fields[11]) + int(fields[12])) / _TICK


def _rss_mib(pid: int) -> float:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def _descendants(pid: int) -> list[int]:
    parents: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            found = _stat(int(entry.name))
            if found is not None:
                parents.setdefault(found[0], []).append(int(entry.name))
    out, todo = [], [pid]
    while todo:
        for child in parents.get(todo.pop(), []):
            out.append(child)
            todo.append(child)
    return out


def sample_process(pid: int) -> ProcSample:
    """CPU and memory of a bot process and of its workers (a render pool's processes)."""
    own = _stat(pid)
    main = _stat(pid, thread=pid)
    children = _descendants(pid)
    return ProcSample(
        at=time.monotonic(),
        cpu=own[1] if own else 0.0,
        loop_cpu=main[1] if main else 0.0,
        workers_cpu=sum(s[1] for c in children if (s := _stat(c)) is not None),
        rss_mib=_rss_mib(pid),
        workers_rss_mib=sum(_rss_mib(c) for c in children),
    )


def build_clubs(
    world: World, guilds: int, shard_count: int, rng: random.Random, members: tuple[int, int]
) -> list[Club]:
    """The World's guild, then ``guilds - 1`` more with members of their own, spread over shards."""
    clubs = [Club(world.guild, world.channel, list(world.members.values()))]
    for n in range(1, guilds):
        users = [world.dc.add_user(f"m{n}-{k}") for k in range(rng.randint(*members))]
        guild, channel, _ = world.add_guild(
            f"Load Club {n}", shard=(n % shard_count, shard_count), members=users
        )
        clubs.append(Club(guild, channel, users))
    return clubs


def shard_env(processes: int, shard_count: int, index: int) -> dict[str, str]:
    """The environment of bot process ``index`` of ``processes``: its share of the shards."""
    mine = [s for s in range(shard_count) if s % processes == index]
    return {"SHARD_COUNT": str(shard_count), "SHARD_IDS": ",".join(map(str, mine))}


class LoadDriver:
    """Sends the mix at a rate to the bots of a World whose clubs ``build_clubs`` made."""

    def __init__(
        self, world: World, clubs: list[Club], *, shard_count: int = 1, seed: int = 1
    ) -> None:
        self.world = world
        self.shard_count = shard_count
        self.dc = world.dc
        self.clubs = clubs
        self.rng = random.Random(seed)
        self.games: dict[int, Game] = {}
        self.invites: dict[str, list[Game]] = {"scrabble": [], "chess": []}
        self.moves: list[Move] = []
        self.steps: list[Step] = []
        self.tasks: set[asyncio.Task[None]] = set()
        self.errors: list[str] = []
        # Shards whose process is down (a test's kill): arrivals for their guilds are not
        # sent (Discord would fail them itself) but counted as undeliverable.
        self.down: set[int] = set()
        self.paused = False
        # Bot posts in threads, as they arrive: thread id -> [(loop time, message)]
        self.posts: dict[int, list[tuple[float, Any]]] = {}
        self._post_signal = asyncio.Event()
        self.dc.message_listeners.append(self._on_message)
        self._actions: dict[str, Callable[[Step], bool]] = {
            "scrabble move": lambda s: self._move("scrabble", s),
            "chess move": lambda s: self._move("chess", s),
            "scrabble new": lambda s: self._new("scrabble", s),
            "scrabble accept": lambda s: self._accept("scrabble", s),
            "chess new": lambda s: self._new("chess", s),
            "chess accept": lambda s: self._accept("chess", s),
            "autocomplete": self._autocomplete,
            "rack": self._rack,
            "board": self._board,
            "leaderboard": self._leaderboard,
            "help": self._help,
            "boggle dm": self._boggle_dm,
        }

    # -- what the loopback sees -----------------------------------------------------------------

    def _on_message(self, message: Any) -> None:
        if message.author.id != self.dc.bot_user.id or message.ephemeral:
            return
        channel = self.dc.channels.get(message.channel_id)
        if channel is None or not channel.is_thread:
            return
        self.posts.setdefault(channel.id, []).append((asyncio.get_running_loop().time(), message))
        self._post_signal.set()

    async def _wait_post(
        self, thread_id: int, match: Callable[[str], bool], since: float, timeout: float
    ) -> tuple[float, Any] | None:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            for at, message in self.posts.get(thread_id, []):
                if at >= since and match(message.content or ""):
                    return at, message
            remaining = deadline - loop.time()
            if remaining <= 0:
                return None
            self._post_signal.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._post_signal.wait(), min(remaining, 0.25))

    # -- running --------------------------------------------------------------------------------

    def _spawn(self, coro: Awaitable[None]) -> None:
        async def guarded() -> None:
            try:
                await coro
            except (LoopbackTimeout, LoopbackUsageError):
                pass  # a bot that was down or saturated: the figures show it
            except Exception as exc:  # the driver's own fault: reported, the run goes on
                self.errors.append(f"{type(exc).__name__}: {exc}")

        task = asyncio.create_task(guarded())
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def run(
        self,
        rate: float,
        seconds: float,
        *,
        samples: Callable[[], dict[int, ProcSample]] | None = None,
        record: bool = True,
        between: Callable[[float], Awaitable[None]] | None = None,
    ) -> Step:
        """Poisson arrivals at ``rate`` per second for ``seconds``; ``between(elapsed)`` is
        awaited between arrivals (a test's kill), ``record=False`` for a warm-up."""
        loop = asyncio.get_running_loop()
        step = Step(rate, seconds, loop.time())
        if samples:
            step.cpu_before = samples()
        cpu0 = time.process_time()
        names, weights = list(MIX), list(MIX.values())
        due = step.started
        while True:
            due += self.rng.expovariate(rate)
            if due > step.started + seconds:
                break
            if due > loop.time():
                await asyncio.sleep(due - loop.time())
            if between is not None:
                await between(loop.time() - step.started)
            if due < loop.time() - LATE_S:
                step.undeliverable += 1  # the driver was held up (a pause): no burst after it
                continue
            action = self.rng.choices(names, weights)[0]
            try:
                sent = self._actions[action](step)
            except LoopbackUsageError:
                step.undeliverable += 1
                continue
            step.arrivals += sent
        step.ended = loop.time()
        step.generator_cpu = time.process_time() - cpu0
        if samples:
            step.cpu_after = samples()
        if record:
            self.steps.append(step)
        return step

    async def drain(self, timeout: float = 30.0) -> None:
        """Wait for the answers, boards and follow-ups still under way."""
        if self.tasks:
            await asyncio.wait(list(self.tasks), timeout=timeout)

    # -- actions: each sends one interaction (or DM) now and returns 1, or 0 if it could not --

    def _send(self, guild_id: int | None, coro: Any) -> Any:
        """Dispatch a loopback ``slash``/``click`` (``wait=False``) or ``dm`` now, unless the
        shard of its guild (DMs: shard 0) is down; return what it returns."""
        shard = 0 if guild_id is None else (guild_id >> 22) % self.shard_count
        if self.paused or shard in self.down:
            coro.close()
            raise LoopbackUsageError(f"shard {shard} is down")
        return _started(coro)

    def _pick_club(self) -> Club:
        return self.rng.choice(self.clubs)

    def _ready(self, kind: str) -> list[Game]:
        return [
            g
            for g in self.games.values()
            if g.kind == kind and not g.busy and not g.over and g.prepared is not None
        ]

    def _move(self, kind: str, step: Step) -> bool:
        ready = self._ready(kind)
        if not ready:
            if self.invites[kind]:
                return self._accept(kind, step)
            return self._new(kind, step)
        game = self.rng.choice(ready)
        assert game.prepared is not None and game.thread_id is not None
        user, command, options, notation = game.prepared
        thread = self.dc.channels[game.thread_id]
        ix = self._send(
            thread.guild_id, self.dc.slash(user, thread, command, wait=False, **options)
        )
        game.busy = True
        move = Move(kind, game.game_id, game.index, notation, ix)
        self.moves.append(move)
        self._spawn(self._after_move(game, move))
        return True

    async def _after_move(self, game: Game, move: Move) -> None:
        ix = move.ix
        try:
            await ix.wait_response(ACK_DEADLINE_S + 2)
            move.reply = await _final_text(ix)
        except LoopbackTimeout:
            move.reply = None
        done = move.reply is not None and (
            move.reply.startswith("Done")
            or move.reply.startswith("You played")
            or move.reply.startswith("You passed")
        )
        if done and game.thread_id is not None:
            pattern = _board_matcher(game.kind, move.index)
            since = ix.created
            found = await self._wait_post(game.thread_id, pattern, since, 15.0)
            if found is not None:
                move.board_at = found[0]
            game.refusals = 0
        else:
            game.refusals += 1
        await self.prepare(game)

    def _new(self, kind: str, step: Step) -> bool:
        club = self._pick_club()
        creator, opponent = self.rng.sample(club.members, 2)
        if kind == "scrabble":
            coro = self.dc.slash(
                creator, club.channel, "scrabble new", opponent=opponent, wait=False
            )
        else:
            coro = self.dc.slash(
                creator,
                club.channel,
                "chess new",
                opponent=opponent,
                time="3d",
                color="white",
                wait=False,
            )
        ix = self._send(club.guild.id, coro)
        self._spawn(self._after_new(kind, club, [creator, opponent], ix))
        return True

    async def _after_new(self, kind: str, club: Club, players: list[Any], ix: Any) -> None:
        await ix.wait_response(ACK_DEADLINE_S + 2)
        await _final_text(ix)
        prefix = "scrabble:join:" if kind == "scrabble" else "chess:invite:accept:"
        invite = next(
            (
                m
                for m in [ix.original, *ix.followups]
                if m is not None and any(c.startswith(prefix) for c in m.custom_ids)
            ),
            None,
        )
        if invite is None:
            return  # refused (a limit, say): no invitation
        game_id = invite_game_id(invite) if kind == "scrabble" else chess_invite_game_id(invite)
        game = Game(kind, game_id, club, players, invite)
        self.games[game_id] = game
        self.invites[kind].append(game)

    def _accept(self, kind: str, step: Step) -> bool:
        if not self.invites[kind]:
            return self._leaderboard(step)
        game = self.invites[kind][0]
        custom_id = (
            f"scrabble:join:{game.game_id}"
            if kind == "scrabble"
            else f"chess:invite:accept:{game.game_id}"
        )
        click = self.dc.click(game.players[1], game.invite, custom_id, wait=False)
        ix = self._send(game.club.guild.id, click)
        self.invites[kind].pop(0)
        self._spawn(self._after_accept(game, ix))
        return True

    async def _after_accept(self, game: Game, ix: Any) -> None:
        await ix.wait_response(ACK_DEADLINE_S + 2)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + 20
        while game.thread_id is None:
            thread_id = await self.world.db.value(
                "select thread_id from games where id = :g", g=game.game_id
            )
            if thread_id is not None:
                game.thread_id = int(thread_id)
                break
            if loop.time() > deadline:
                game.over = True
                return
            await asyncio.sleep(0.2)
        opening = await self._wait_post(game.thread_id, _board_matcher(game.kind, -1), 0.0, 20.0)
        if opening is None:
            game.over = True
            return
        await self.prepare(game)

    async def prepare(self, game: Game) -> None:
        """Read the game from the database and choose its next move; the game is then ready."""
        game.busy = True
        game.prepared = None
        if game.refusals >= MAX_REFUSALS:
            game.over = True
            return
        raw, status = (
            await self.world.db.rows(
                "select state, status from games where id = :g", g=game.game_id
            )
        )[0]
        state = json.loads(raw) if isinstance(raw, str) else raw
        if status != "active":
            game.over = True
            return
        game.index = int(
            await self.world.db.value(
                "select count(*) from moves where game_id = :g", g=game.game_id
            )
        )
        if game.kind == "chess":
            board = chess.Board()
            for uci in state.get("moves", []):
                board.push_uci(uci)
            if board.is_game_over():
                game.over = True
                return
            move = self.rng.choice(list(board.legal_moves))
            san = board.san(move)
            user = game.players[0 if board.turn == chess.WHITE else 1]
            game.prepared = (user, "chess move", {"move": san}, san)
        else:
            engine = state["engine"]
            seat = int(engine["current_seat"])
            user = game.players[seat]
            try:
                word, position = legal_play(engine, seed=self.rng.randrange(1 << 30))
            except AssertionError:
                game.prepared = (user, "scrabble pass", {}, "-")
            else:
                options = {"word": word, "position": position}
                game.prepared = (user, "scrabble play", options, f"{position} {word}")
        game.busy = False

    def _active(self, kind: str | None = None) -> list[Game]:
        return [
            g
            for g in self.games.values()
            if g.thread_id is not None and not g.over and (kind is None or g.kind == kind)
        ]

    def _autocomplete(self, step: Step) -> bool:
        ready = self._ready("scrabble")
        if not ready:
            return self._help(step)
        game = self.rng.choice(ready)
        assert game.prepared is not None and game.thread_id is not None
        user, command, options, _ = game.prepared
        if command != "scrabble play":
            return self._help(step)
        thread = self.dc.channels[game.thread_id]
        shard = (thread.guild_id >> 22) % self.shard_count
        if self.paused or shard in self.down:
            raise LoopbackUsageError(f"shard {shard} is down")
        coro = self.dc.autocomplete(
            user, thread, "scrabble play", "position", word=options["word"], position=""
        )
        self._spawn(coro)
        return True

    def _rack(self, step: Step) -> bool:
        games = self._active("scrabble")
        if not games:
            return self._help(step)
        game = self.rng.choice(games)
        assert game.thread_id is not None
        user = self.rng.choice(game.players)
        boards = [m for _, m in self.posts.get(game.thread_id, []) if m.custom_ids]
        rack_button = f"scrabble:rack:{game.game_id}"
        if self.rng.random() < 0.5 and boards and rack_button in boards[-1].custom_ids:
            live = self.dc.messages.get(boards[-1].id)
            if live is not None and rack_button in live.custom_ids:
                click = self.dc.click(user, live, rack_button, wait=False)
                self._spawn_answer(live.guild_id, click)
                return True
        thread = self.dc.channels[game.thread_id]
        self._spawn_answer(
            thread.guild_id, self.dc.slash(user, thread, "scrabble rack", wait=False)
        )
        return True

    def _board(self, step: Step) -> bool:
        games = self._active()
        if not games:
            return self._help(step)
        game = self.rng.choice(games)
        assert game.thread_id is not None
        thread = self.dc.channels[game.thread_id]
        user = self.rng.choice(game.players)
        slash = self.dc.slash(user, thread, f"{game.kind} board", wait=False)
        self._spawn_answer(thread.guild_id, slash)
        return True

    def _leaderboard(self, step: Step) -> bool:
        club = self._pick_club()
        member = self.rng.choice(club.members)
        slash = self.dc.slash(member, club.channel, "leaderboard", wait=False)
        self._spawn_answer(club.guild.id, slash)
        return True

    def _help(self, step: Step) -> bool:
        club = self._pick_club()
        member = self.rng.choice(club.members)
        self._spawn_answer(club.guild.id, self.dc.slash(member, club.channel, "help", wait=False))
        return True

    def _boggle_dm(self, step: Step) -> bool:
        rounds = [c for c in self.clubs if c.round_open]
        if not rounds:
            return self._leaderboard(step)
        club = self.rng.choice(rounds)
        member = self.rng.choice(club.members)
        words = " ".join(self.rng.sample(BOGGLE_WORDS, 3))
        self._send(None, self.dc.dm(member, words))
        step.dms += 1
        return False

    def _spawn_answer(self, guild_id: int, coro: Awaitable[Any]) -> None:
        """Send now (the interaction is dispatched before the first await), answer read later."""
        ix = self._send(guild_id, coro)

        async def answered() -> None:
            await ix.wait_response(ACK_DEADLINE_S + 2)

        self._spawn(answered())

    async def open_boggle_rounds(self, every: int, duration: str = "10m") -> None:
        """The moderator starts a Word Boggle round in every ``every``-th guild (unmeasured)."""
        if every <= 0:
            return
        moderator = self.world.moderator
        for club in self.clubs[::every]:
            ix = await self.dc.slash(
                moderator, club.channel, "boggle start", duration=duration, timeout=30
            )
            await ix.wait_done(30)
            club.round_open = True


def _started(coro: Any) -> Any:
    """Run a loopback ``slash``/``click`` with ``wait=False`` up to its dispatch and return its
    handle: with ``wait=False`` those coroutines return without awaiting anything."""
    try:
        coro.send(None)
    except StopIteration as done:
        return done.value
    coro.close()
    raise RuntimeError("a loopback call awaited before it dispatched its interaction")


async def _final_text(ix: Any) -> str:
    """What the member finally reads (a deferred reply's follow-up or edit too)."""
    response = await ix.wait_response(ACK_DEADLINE_S + 2)
    if response.deferred:
        await ix.wait_done(30)
    if ix.followups:
        return str(ix.followups[-1].content or "")
    if ix.original is not None and ix.original.content:
        return str(ix.original.content)
    return str(response.content or "")


def _board_matcher(kind: str, index: int) -> Callable[[str], bool]:
    """The board post after a game's ``index``-th move (-1: the opening board)."""
    if kind == "scrabble":
        wanted = str(index + 1)
        return lambda text: (m := SCRABBLE_BOARD.search(text)) is not None and m.group(1) == wanted
    if index < 0:
        return lambda text: "Game on" in text
    return lambda text: CHESS_BOARD in text


# -- figures -------------------------------------------------------------------------------------


def interactions_in(dc: Any, step: Step) -> list[Any]:
    """Every interaction the loopback dispatched during the step."""
    return [ix for ix in dc.interactions.values() if step.started <= ix.created < step.ended]


def ack_ms(ix: Any) -> float | None:
    """Milliseconds from dispatch to first callback; None if there was none."""
    if ix.responded is None:
        return None
    return (ix.responded - ix.created) * 1000.0


def is_command(ix: Any) -> bool:
    return ix.type in (APPLICATION_COMMAND, AUTOCOMPLETE)
