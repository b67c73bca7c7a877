"""Hypothesis fuzzing of every slash command the bot syncs, with hostile option values.

The command tree is read from what the bot synced to the loopback Discord, so a
new cog's commands are fuzzed without touching this file. Values stay within
what Discord's client lets a member send (choices, lengths, ranges are the
command's own), and inside that they are as unkind as possible: oversized and
empty-looking strings, Unicode, zero-width and right-to-left characters,
``@everyone`` and role/user mentions, markdown, SQL-looking text, extreme
numbers, and the ids of another guild's games and events.

The caller is a plain member with no games, so every command must refuse:
each case must get an answer (ephemeral, or public without pinging anyone),
never the "something went wrong" apology, leave the database's content exactly
as it was, break none of Discord's rules, and show nothing of the other guild.
The few commands any member may use to start something of their own (an open
challenge, the day's Boggle grid) may write, but only to the tables of what
they start (``STARTS_FOR_ANY_MEMBER``).
Options with autocomplete are fuzzed through autocomplete too.

The database is compared on a logical dump (``iterdump``), not on the file's
bytes: in WAL mode a checkpoint (which even a reader may trigger) rewrites the
main file without any row changing, so bytes are not a stable witness.
"""

from __future__ import annotations

import asyncio
import difflib
from collections import Counter
from dataclasses import dataclass
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.conftest import reset_postgres
from tests.loopback import LoopbackUsageError
from tests.reliability import tally
from tests.reliability.games import club_db, eventually, open_scrabble, reply_text
from tests.reliability.harness import Database, postgres_url

pytestmark = pytest.mark.slow

EXAMPLES_PER_COMMAND = 10
EXAMPLES_PER_COMMAND_POSTGRES = (
    4  # the same strategies; PostgreSQL adds its own types (int32 ids, no NUL)
)
APOLOGY = "something went wrong"
STRING, INTEGER, BOOLEAN, USER, CHANNEL, ROLE, MENTIONABLE, NUMBER = 3, 4, 5, 6, 7, 8, 9, 10
DISCORD_MAX_STRING = 6000
DISCORD_MAX_INTEGER = 2**53
SETTLE_TIMEOUT = 30.0

# Commands a plain member uses to start something of their own, and the only tables
# such a case may change (the member's first command also makes their guild and
# player rows; what they start is timed by jobs and announced through the outbox).
_STARTED = {"guilds", "players", "jobs", "outbox"}
STARTS_FOR_ANY_MEMBER: dict[str, set[str]] = {
    "boggle daily": _STARTED | {"boggle_daily", "boggle_daily_plays"},
    "chess seek": _STARTED | {"seeks"},
    "scrabble seek": _STARTED | {"seeks"},
}

HOSTILE = [
    "@everyone",
    "@here",
    "hi @everyone look",
    "<@&{role}>",
    "<@{user}>",
    "<@!{user}>",
    "<#{channel}>",
    "**bold** __under__ ~~strike~~ ||spoiler|| `code` ```block```",
    "> quote\n# Heading",
    "[link](https://evil.example)",
    "'; DROP TABLE games; --",
    '" OR 1=1 --',
    "Robert'); DROP TABLE players;--",
    "1; DELETE FROM moves",
    "\u200b",
    "\u200b\u200c\u200d\ufeff",
    "\u202eevil\u202c",
    "\u200f\u200eRTL",
    "مرحبا بالعالم",
    "A\u0301\u0302\u0303",
    "👩‍👩‍👧‍👦🏳️‍🌈",
    "\x00",
    "a\x00b",
    "\n\n\n",
    " ",
    "\t",
    "0",
    "-1",
    "9" * 40,
    "1e309",
    "NaN",
    "-0",
    "0x10",
    "8H",
    "H8",
    "Z99",
    "15O",
    "?",
    "??",
    "3m",
    "-3m",
    "0s",
    "99999999999d",
    "1w2d3h",
    "${jndi:ldap://x/a}",
    "{0}{1}%s%n",
    "../../etc/passwd",
    "<t:0:R>",
    "https://discord.gg/invite",
    "ñandú",
    "İstanbul",
    "ß" * 10,
]


@dataclass
class Leaf:
    path: str
    options: list[dict[str, Any]]
    hidden: bool


def leaves(commands: list[dict[str, Any]]) -> list[Leaf]:
    """Every invocable command path ("henyo words add") with its options."""
    found: list[Leaf] = []

    def walk(node: dict[str, Any], path: list[str], hidden: bool) -> None:
        subs = [o for o in node.get("options") or [] if o["type"] in (1, 2)]
        if subs:
            for sub in subs:
                walk(sub, path + [sub["name"]], hidden)
        else:
            found.append(Leaf(" ".join(path), list(node.get("options") or []), hidden))

    for command in commands:
        if command.get("type", 1) == 1:
            walk(
                command, [command["name"]], command.get("default_member_permissions") not in (None,)
            )
    return sorted(found, key=lambda leaf: leaf.path)


class Fuzz:
    """The world a case runs in: a member with nothing, a second guild with things."""

    def __init__(self, club: Any, database_url: str | None = None) -> None:
        self.club = club
        self.dc = club.dc
        self.database_url = database_url
        self.db = Database(database_url) if database_url else club_db(club)
        self.cases = 0

    async def build(self) -> None:
        dc, club = self.dc, self.club
        self.mallory = dc.add_user("mallory")
        dc.add_member(club.guild, self.mallory)
        self.other_bot = dc.add_user("otherbot", bot=True)
        dc.add_member(club.guild, self.other_bot)
        self.side = dc.add_text_channel(club.guild, "side-room")
        self.victor, self.wendy = dc.add_user("victor"), dc.add_user("wendy")
        self.other = dc.add_guild("Another Club", owner=self.victor)
        other_channel = dc.add_text_channel(self.other, "games")
        dc.add_member(self.other, self.wendy)
        extra = {"database_url": self.database_url} if self.database_url else {}
        await club.start(discord_guild_ids=[club.guild.id, self.other.id], **extra)
        self.scrabble_id, _, _ = await open_scrabble(
            dc, other_channel, self.victor, [self.wendy], opponent=self.wendy
        )
        opened = await dc.slash(self.victor, other_channel, "henyo event open")
        # The command answers first, then records its registration list's message id
        # (cogs/henyo.py, event_open): that write must land before the first case's
        # "before" snapshot, not inside it (it was once blamed on /boggle cancel).
        await self.settle()
        list_id = opened.original.id

        async def list_recorded() -> bool:
            return await self.db.value("select list_message_id from henyo_events") == list_id

        await eventually(list_recorded, "the Henyo registration list's message id to be stored")
        ids = [r[0] for r in await self.db.rows("select id from games")] + [
            r[0] for r in await self.db.rows("select id from henyo_events")
        ]
        self.foreign_ids = sorted(set(ids))
        self.leaves = leaves(dc.synced_commands(club.guild))

    async def settle(self) -> None:
        """Wait until every interaction handler the bot is running has returned, then send its outbox.

        A handler may go on working after its answer reached Discord (which is all
        ``dc.slash`` waits for), and discord.py runs each in a task of its own. A
        database write it makes then must be seen by the case that caused it, and
        never land between a later case's two snapshots.
        """
        loop = asyncio.get_running_loop()
        deadline = loop.time() + SETTLE_TIMEOUT
        me = asyncio.current_task()
        while busy := [
            t for t in asyncio.all_tasks() if t is not me and not t.done() and _is_handler(t)
        ]:
            if loop.time() > deadline:
                raise AssertionError(
                    f"interaction handlers still running after {SETTLE_TIMEOUT:.0f} s: {busy}"
                )
            await asyncio.wait(busy, timeout=max(0.0, deadline - loop.time()))
        await self.club.flush()

    # -- strategies ------------------------------------------------------------------------------

    def text(self, low: int, high: int) -> st.SearchStrategy[str]:
        fill = {
            "{role}": self.club.mod_role.id,
            "{user}": self.victor.id,
            "{channel}": self.club.channel.id,
        }
        hostile = []
        for h in HOSTILE:
            for key, value in fill.items():
                h = h.replace(key, str(value))
            hostile.append(h)
        foreign = [form.format(i) for i in self.foreign_ids for form in ("{}", "#{}", "game {}")]
        pieces = st.one_of(
            st.sampled_from(hostile + foreign),
            st.text(st.characters(codec="utf-8"), min_size=0, max_size=min(high, 80)),
            st.lists(st.sampled_from(hostile), min_size=2, max_size=6).map(" ".join),
            st.integers(min_value=1, max_value=30).map(lambda n: "@everyone " * n),
            st.just("W" * high),
            st.just("\u200b" * high),
        )
        return pieces.map(lambda s: _fit(s, low, high))

    def value(self, option: dict[str, Any]) -> st.SearchStrategy[Any]:
        kind = option["type"]
        if option.get("choices"):
            return st.sampled_from([c["value"] for c in option["choices"]])
        if kind == STRING:
            return self.text(
                option.get("min_length") or 0, option.get("max_length") or DISCORD_MAX_STRING
            )
        if kind == INTEGER:
            low = option.get("min_value", -DISCORD_MAX_INTEGER)
            high = option.get("max_value", DISCORD_MAX_INTEGER)
            edges = [v for v in [low, high, 0, -1, 1, *self.foreign_ids] if low <= v <= high]
            return st.one_of(st.sampled_from(edges), st.integers(min_value=low, max_value=high))
        if kind == NUMBER:
            low = option.get("min_value", -1e15)
            high = option.get("max_value", 1e15)
            return st.floats(min_value=low, max_value=high, allow_nan=False, allow_infinity=False)
        if kind == BOOLEAN:
            return st.booleans()
        if kind in (USER, MENTIONABLE):
            # Only people who make any command refuse: the caller, and another bot.
            return st.sampled_from([self.mallory, self.other_bot])
        if kind == CHANNEL:
            return st.sampled_from([self.club.channel, self.side])
        if kind == ROLE:
            return st.sampled_from([self.club.mod_role, self.club.guild.roles[self.club.guild.id]])
        raise AssertionError(f"option type {kind} has no strategy: add one")

    def values(self, leaf: Leaf) -> st.SearchStrategy[dict[str, Any]]:
        fields: dict[str, st.SearchStrategy[Any]] = {}
        for option in leaf.options:
            strategy = self.value(option)
            fields[option["name"]] = (
                strategy if option.get("required") else st.one_of(st.none(), strategy)
            )
        return st.fixed_dictionaries(fields).map(
            lambda d: {k: v for k, v in d.items() if v is not None}
        )

    # -- one case --------------------------------------------------------------------------------

    async def check(self, leaf: Leaf, values: dict[str, Any]) -> None:
        dc, club = self.dc, self.club
        await self.settle()
        before = await self.db.snapshot()
        seen = {m.id for m in dc.bot_messages()}
        violations = len(dc.violations)
        self.cases += 1

        ix = await dc.slash(self.mallory, club.channel, leaf.path, options=values)
        if ix.modal is None:
            text = await reply_text(ix)
            assert ix.answer.ephemeral or not (ix.original and ix.original.pings), (
                f"/{leaf.path} {values}: {text}"
            )
            everything = [text, ix.answer.content or ""] + [f.content or "" for f in ix.followups]
            assert not any(APOLOGY in t for t in everything), f"/{leaf.path} {values!r}: {text}"
            shown = " ".join(everything + [str(e) for e in ix.answer.embeds]).lower()
            assert "victor" not in shown and "wendy" not in shown, (
                f"/{leaf.path} showed the other guild: {shown[:300]}"
            )
        for option in leaf.options:
            if option.get("autocomplete") and isinstance(values.get(option["name"]), str):
                choices = await dc.autocomplete(
                    self.mallory,
                    club.channel,
                    leaf.path,
                    focused=option["name"],
                    options={option["name"]: values[option["name"]]},
                )
                assert len(choices) <= 25
                self.cases += 1

        await (
            self.settle()
        )  # the command's handler finishes (and its outbox is sent) before "after"
        new = [m for m in dc.bot_messages() if m.id not in seen]
        assert not [m for m in new if m.pings], (
            f"/{leaf.path} {values!r} pinged: {[m.pings for m in new]}"
        )
        assert dc.violations[violations:] == [], (
            f"/{leaf.path} {values!r}: {dc.violations[violations:]}"
        )
        after = await self.db.snapshot()
        if after != before:
            changed = _tables_changed(before, after)
            if changed <= STARTS_FOR_ANY_MEMBER.get(leaf.path, set()):
                return
            diff = "\n".join(
                difflib.unified_diff(before.splitlines(), after.splitlines(), lineterm="", n=0)
            )
            raise AssertionError(f"/{leaf.path} {values!r} changed the database:\n{diff[:4000]}")


def _tables_changed(before: str, after: str) -> set[str]:
    """The tables whose rows differ between two snapshots: SQLite's dump has a line per
    row (``INSERT INTO "name" VALUES(…);``), PostgreSQL's one per table (``name: rows``).
    Anything else that differs (the schema) is named as it is."""
    old, new = Counter(before.splitlines()), Counter(after.splitlines())
    tables = set()
    for line in (old - new) + (new - old):
        if line.startswith('INSERT INTO "'):
            tables.add(line.split('"', 2)[1])
        elif ": " in line and not line.startswith(("CREATE", "INSERT")):
            tables.add(line.split(": ", 1)[0])
        else:
            tables.add(line)
    return tables


def _is_handler(task: asyncio.Task[Any]) -> bool:
    """A task discord.py runs an interaction in: a slash command or autocomplete, or a component click."""
    name = task.get_name()
    return name == "CommandTree-invoker" or name.startswith("discord-ui-view-dispatch")


def _fit(text: str, low: int, high: int) -> str:
    """Within the option's length limits (Discord refuses anything else before the bot sees it)."""
    text = text[:high]
    if len(text) < low:
        text = text + "x" * (low - len(text))
    return text


@pytest.fixture(
    params=[
        "sqlite",
        pytest.param(
            "postgres",
            marks=[
                pytest.mark.postgres,
                pytest.mark.skipif(not postgres_url(), reason="TEST_DATABASE_URL is not set"),
            ],
        ),
    ]
)
async def backend(request: pytest.FixtureRequest) -> str | None:
    """Where the bot keeps its data for the fuzz: None for the club's SQLite file, or PostgreSQL."""
    if request.param == "sqlite":
        return None
    url = postgres_url()
    assert url
    await reset_postgres(url)
    return url


async def test_every_synced_command_refuses_hostile_input_privately_and_changes_nothing(
    club, backend
) -> None:
    fuzz = Fuzz(club, backend)
    await fuzz.build()
    assert len(fuzz.leaves) >= 30, [leaf.path for leaf in fuzz.leaves]
    loop = asyncio.get_running_loop()
    examples = EXAMPLES_PER_COMMAND if backend is None else EXAMPLES_PER_COMMAND_POSTGRES

    def run(leaf: Leaf) -> None:
        @settings(
            max_examples=examples,
            derandomize=True,
            deadline=None,
            database=None,
            suppress_health_check=list(HealthCheck),
        )
        @given(fuzz.values(leaf))
        def case(values: dict[str, Any]) -> None:
            asyncio.run_coroutine_threadsafe(fuzz.check(leaf, values), loop).result(timeout=60)

        case()

    try:
        for leaf in fuzz.leaves:
            if leaf.hidden:  # Discord shows it only to members with the permission: nothing to fuzz as one without
                tally.add("commands gated by Discord permissions")
                continue
            try:
                # Hypothesis drives from a worker thread; the bot and the loopback run on this loop.
                await asyncio.to_thread(run, leaf)
            except LoopbackUsageError as exc:  # the strategy sent what Discord's client would not
                raise AssertionError(
                    f"/{leaf.path}: the fuzzer produced an impossible request: {exc}"
                ) from exc
    finally:
        await fuzz.db.close()
    tally.add("fuzz cases tried (commands and autocompletes)", fuzz.cases)
    tally.add("command fuzz runs (commands x database backends)", len(fuzz.leaves))
