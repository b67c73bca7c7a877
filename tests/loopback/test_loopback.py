"""The loopback Discord drives a real discord.py bot the way Discord would.

The throwaway ``DemoBot`` below has what the club bot has: a slash group with a
user option and autocomplete, a persistent view whose button opens a modal, a
DM listener, a command posting a PNG, and commands that break Discord's rules.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import io
import json
import zlib

import aiohttp
import discord
import pytest
from discord import app_commands
from discord.ext import commands
from PIL import Image

from tests.loopback import LoopbackDiscord, LoopbackUsageError, limits
from tests.loopback.records import MANAGE_EVENTS

UTC = dt.UTC


def _png() -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", (3, 2), (200, 30, 30)).save(buffer, format="PNG")
    return buffer.getvalue()


BOARD_PNG = _png()


class WordsModal(discord.ui.Modal, title="Your words"):
    words = discord.ui.TextInput(
        label="Words", custom_id="demo:words", style=discord.TextStyle.paragraph
    )

    async def on_submit(self, interaction: discord.Interaction) -> None:
        interaction.client.submissions.append((interaction.user.id, self.words.value))  # type: ignore[attr-defined]
        await interaction.response.send_message(
            f"Got {len(self.words.value.split())} words", ephemeral=True
        )


class GameView(discord.ui.View):
    def __init__(self) -> None:
        super().__init__(timeout=None)

    @discord.ui.button(
        label="Submit words", custom_id="demo:submit", style=discord.ButtonStyle.primary
    )
    async def submit(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        await interaction.response.send_modal(WordsModal())


class DemoGroup(app_commands.Group, name="demo", description="Demo commands"):
    @app_commands.command(description="Play a word")
    async def play(
        self,
        interaction: discord.Interaction,
        word: str,
        position: str,
        opponent: discord.Member | None = None,
    ) -> None:
        against = f" against {opponent.display_name}" if opponent else ""
        await interaction.response.send_message(
            f"{interaction.user.display_name} played {word} at {position}{against}",
            allowed_mentions=discord.AllowedMentions.none(),
        )

    @play.autocomplete("position")
    async def play_position(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return [
            app_commands.Choice(name=p, value=p)
            for p in ("8H", "8G", "H8")
            if p.startswith(current.upper())
        ]

    @app_commands.command(description="Think, then answer")
    async def slow(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(thinking=True)
        await asyncio.sleep(0.05)
        await interaction.followup.send("done thinking")

    @app_commands.command(description="Post the board")
    async def board(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message("Board posted", ephemeral=True)
        await interaction.channel.send(
            "The board", file=discord.File(io.BytesIO(BOARD_PNG), "board.png")
        )  # type: ignore[union-attr]

    @app_commands.command(description="Open a round thread")
    async def round(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message("Opening a thread", ephemeral=True)
        post = await interaction.channel.send("Round 1")  # type: ignore[union-attr]
        thread = await post.create_thread(name="Round 1")
        await thread.send("Go!")

    @app_commands.command(description="Start a game")
    async def start(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message("Game on", view=GameView())

    @app_commands.command(description="Answer too late")
    async def sleepy(self, interaction: discord.Interaction) -> None:
        await asyncio.sleep(3.5)
        try:
            await interaction.response.send_message("finally")
        except discord.NotFound as error:
            interaction.client.errors.append(error)  # type: ignore[attr-defined]

    @app_commands.command(description="Say too much")
    async def long(self, interaction: discord.Interaction) -> None:
        try:
            await interaction.response.send_message("x" * 2001)
        except discord.HTTPException as error:
            interaction.client.errors.append(error)  # type: ignore[attr-defined]
            await interaction.response.send_message("That was too long", ephemeral=True)

    @app_commands.command(description="Tell a member it is their turn")
    async def notify(self, interaction: discord.Interaction, member: discord.Member) -> None:
        await interaction.response.send_message("Trying", ephemeral=True)
        try:
            await member.send("Your turn")
        except discord.Forbidden as error:
            interaction.client.errors.append(error)  # type: ignore[attr-defined]


def demo_intents() -> discord.Intents:
    intents = discord.Intents.none()
    intents.guilds = intents.guild_messages = intents.dm_messages = intents.message_content = (
        intents.members
    ) = True
    return intents


class DemoBehaviour:
    """The demo bot's behaviour, shared by the plain and the auto-sharded bot classes."""

    def __init__(self, *, intents: discord.Intents | None = None, **options: object) -> None:
        super().__init__(
            command_prefix=commands.when_mentioned, intents=intents or demo_intents(), **options
        )  # type: ignore[call-arg]
        self.seen: list[discord.Message] = []
        self.submissions: list[tuple[int, str]] = []
        self.errors: list[Exception] = []
        self.sync_error: discord.HTTPException | None = None

    async def setup_hook(self) -> None:
        self.add_view(GameView())
        self.tree.add_command(DemoGroup())
        self.add_extra_commands()
        try:
            await self.tree.sync()
        except discord.HTTPException as error:
            self.sync_error = error

    def add_extra_commands(self) -> None:
        pass

    async def on_message(self, message: discord.Message) -> None:
        self.seen.append(message)
        if message.guild is None and not message.author.bot:
            words = [w for w in message.content.replace("\n", ",").split(",") if w.strip()]
            await message.channel.send(f"Noted {len(words)} words")

    async def wait_seen(self, content: str, timeout: float = 5.0) -> discord.Message:
        async def poll() -> discord.Message:
            while True:
                found = next((m for m in self.seen if m.content == content), None)
                if found is not None:
                    return found
                await asyncio.sleep(0.01)

        return await asyncio.wait_for(poll(), timeout)


class DemoBot(DemoBehaviour, commands.Bot):
    pass


class ShardedDemoBot(DemoBehaviour, commands.AutoShardedBot):
    pass


class World:
    def __init__(self, dc: LoopbackDiscord) -> None:
        self.guild = dc.add_guild("Library Club")
        self.alice = dc.add_user("alice")
        self.bob = dc.add_user("bob")
        dc.add_member(self.guild, self.alice, nick="Alice")
        dc.add_member(self.guild, self.bob)
        self.games = dc.add_text_channel(self.guild, "games")


@pytest.fixture
async def world(loopback: LoopbackDiscord) -> World:
    return World(loopback)


@pytest.fixture
async def bot(loopback: LoopbackDiscord, world: World) -> DemoBot:
    client = DemoBot()
    await loopback.start_bot(client)
    return client


# ---------------------------------------------------------------- interactions


async def test_slash_command_reply_reaches_the_user_with_content_and_no_pings(loopback, world, bot):
    ix = await loopback.slash(
        world.alice, world.games, "demo play", word="QUIZ", position="8H", opponent=world.bob
    )

    assert ix.response.type == 4
    assert ix.response.content == "Alice played QUIZ at 8H against bob"
    assert not ix.response.ephemeral
    assert ix.response.allowed_mentions == {"parse": []}
    assert loopback.messages_in(world.games)[-1].content == ix.response.content
    assert loopback.pinging_messages() == []


async def test_slash_command_without_a_required_option_is_refused_like_discords_client(
    loopback, world, bot
):
    with pytest.raises(LoopbackUsageError, match="position"):
        await loopback.slash(world.alice, world.games, "demo play", word="QUIZ")


async def test_autocomplete_returns_the_bots_choices_for_the_typed_text(loopback, world, bot):
    choices = await loopback.autocomplete(
        world.alice, world.games, "demo play", focused="position", position="8"
    )

    assert [c["name"] for c in choices] == ["8H", "8G"]


async def test_deferred_reply_is_completed_by_the_followup(loopback, world, bot):
    ix = await loopback.slash(world.alice, world.games, "demo slow")

    assert ix.response.type == 5
    message = await ix.wait_done()
    assert message.content == "done thinking"
    assert [m.content for m in ix.followups] == ["done thinking"]
    assert (await ix.next_message()).content == "done thinking"


async def test_button_click_opens_a_modal_whose_submission_reaches_the_bot(loopback, world, bot):
    started = await loopback.slash(world.alice, world.games, "demo start")
    click = await loopback.click(world.alice, started.original, "demo:submit")

    assert click.response.type == 9
    submitted = await loopback.submit_modal(world.alice, click, {"demo:words": "cat dog"})

    assert submitted.response.content == "Got 2 words"
    assert submitted.response.ephemeral
    assert bot.submissions == [(world.alice.id, "cat dog")]


async def test_persistent_button_still_works_after_the_bot_restarts(loopback, world, bot):
    started = await loopback.slash(world.alice, world.games, "demo start")
    await loopback.stop_bot(bot)
    restarted = DemoBot()
    await loopback.start_bot(restarted)

    click = await loopback.click(world.alice, started.original, "demo:submit")

    assert click.response.type == 9
    assert click.response.modal["title"] == "Your words"


# ---------------------------------------------------------------- messages


async def test_dm_to_the_bot_is_answered_by_dm(loopback, world, bot):
    await loopback.dm(world.alice, "cat, dog\nbird")

    reply = await loopback.wait_for_message(channel=world.alice)

    assert reply.content == "Noted 3 words"
    assert loopback.dms_to(world.alice) == [reply]


async def test_message_posted_at_a_set_time_is_seen_by_the_bot_with_that_created_at(
    loopback, world, bot
):
    moment = dt.datetime(2024, 5, 1, 12, 30, 15, tzinfo=UTC)

    await loopback.say(world.alice, world.games, "oo", at=moment)

    seen = await bot.wait_seen("oo")
    assert seen.created_at == moment
    assert seen.author.id == world.alice.id


async def test_posted_png_attachment_arrives_byte_for_byte_beside_an_ephemeral_reply(
    loopback, world, bot
):
    ix = await loopback.slash(world.alice, world.games, "demo board")
    posted = await loopback.wait_for_message(
        channel=world.games, predicate=lambda m: bool(m.attachments)
    )

    assert ix.response.ephemeral
    assert ix.response.content == "Board posted"
    assert posted.files == [("board.png", BOARD_PNG)]
    seen = await bot.wait_seen("The board")
    assert await seen.attachments[0].read() == BOARD_PNG


async def test_thread_opened_on_a_bot_post_carries_its_messages_and_relays_replies(
    loopback, world, bot
):
    await loopback.slash(world.alice, world.games, "demo round")
    go = await loopback.wait_for_message(predicate=lambda m: m.content == "Go!")

    [thread] = loopback.threads_in(world.games)
    assert (thread.name, go.channel_id) == ("Round 1", thread.id)
    assert thread.id == loopback.messages_in(world.games)[-1].id  # a message's thread takes its id
    await loopback.say(world.alice, thread, "oo")
    seen = await bot.wait_seen("oo")
    assert isinstance(seen.channel, discord.Thread) and seen.channel.parent_id == world.games.id


async def test_without_message_content_intent_guild_messages_arrive_blank_but_dms_intact(
    loopback, world
):
    intents = demo_intents()
    intents.message_content = False
    client = DemoBot(intents=intents)
    await loopback.start_bot(client)

    await loopback.say(world.alice, world.games, "secret")
    await loopback.dm(world.alice, "x, y")
    await client.wait_seen("x, y")

    assert [m.content for m in client.seen if m.guild is not None] == [""]


async def test_enforced_nonce_makes_a_repeated_post_return_the_first_message(loopback, world):
    url = f"{loopback.base_url}/channels/{world.games.id}/messages"
    headers = {"Authorization": f"Bot {loopback.token}"}
    body = {"content": "once", "nonce": "n-1", "enforce_nonce": True}
    async with aiohttp.ClientSession(headers=headers) as http:
        first = await (await http.post(url, json=body)).json()
        second = await (await http.post(url, json=body)).json()

    assert first["id"] == second["id"]
    assert [m.content for m in loopback.messages_in(world.games)] == ["once"]


# ---------------------------------------------------------------- Discord's rules


async def test_reply_after_three_seconds_is_flagged_and_refused_as_unknown_interaction(
    loopback, world, bot
):
    loopback.expect_violation("interaction_timeout", count=1)

    ix = await loopback.slash(world.alice, world.games, "demo sleepy", timeout=8)

    assert ix.response is None
    assert [(r.status, r.code) for r in ix.rejected] == [(404, 10062)]
    await loopback.wait_until(lambda: bot.errors, what="the bot to see its late reply fail")
    assert isinstance(bot.errors[0], discord.NotFound) and bot.errors[0].code == 10062


async def test_content_over_2000_characters_is_rejected_and_flagged(loopback, world, bot):
    # an interaction reply's 2,000 is in Discord's spec, which refuses it before the
    # loopback's own rule (invalid_message) would
    loopback.expect_violation("spec_request", count=1)

    ix = await loopback.slash(world.alice, world.games, "demo long")

    error = bot.errors[0]
    assert isinstance(error, discord.HTTPException) and (error.status, error.code) == (400, 50035)
    assert all("content" in str(v) for v in loopback.violations)
    assert ix.response.content == "That was too long"


class NameBot(DemoBot):
    def add_extra_commands(self) -> None:
        @app_commands.command(name="fine", description="Renamed below to break Discord's rule")
        async def renamed(interaction: discord.Interaction) -> None:
            pass

        renamed.name = "Bad Name"  # discord.py validates names when defined, so break it afterwards
        self.tree.add_command(renamed)


class DescriptionBot(DemoBot):
    def add_extra_commands(self) -> None:
        @self.tree.command(name="wordy", description="x" * 101)
        async def wordy(interaction: discord.Interaction) -> None:
            pass


# A description's 100 characters are in Discord's spec (checked first); the name's
# pattern is not, and the loopback's own rule catches it
@pytest.mark.parametrize(
    "bot_class, detail, kind",
    [(NameBot, "name", "invalid_command"), (DescriptionBot, "description", "spec_request")],
)
async def test_command_sync_breaking_discords_limits_is_rejected_and_flagged(
    loopback, world, bot_class, detail, kind
):
    loopback.expect_violation(kind, count=1)
    client = bot_class()

    await loopback.start_bot(client)

    assert client.sync_error is not None and client.sync_error.status == 400
    assert detail in loopback.violations[0].detail
    assert loopback.synced_commands() == []


async def test_closed_dms_make_the_bot_see_forbidden_50007(loopback, world, bot):
    loopback.close_dms(world.bob)

    await loopback.slash(world.alice, world.games, "demo notify", member=world.bob)
    await loopback.wait_until(lambda: bot.errors, what="the bot's DM attempt")

    assert isinstance(bot.errors[0], discord.Forbidden) and bot.errors[0].code == 50007
    assert loopback.dms_to(world.bob) == []


async def test_second_initial_response_is_refused_as_already_acknowledged(loopback, world, bot):
    loopback.expect_violation("interaction_already_acknowledged", count=1)
    ix = await loopback.slash(world.alice, world.games, "demo play", word="QUIZ", position="8H")

    async with aiohttp.ClientSession() as http:
        response = await http.post(
            f"{loopback.base_url}/interactions/{ix.id}/{ix.token}/callback",
            json={"type": 4, "data": {"content": "again"}},
        )
        body = await response.json()

    assert (response.status, body["code"]) == (400, 40060)


async def test_followup_after_fifteen_minutes_is_refused_as_invalid_token(loopback, world, bot):
    loopback.expect_violation("interaction_token_expired", count=1)
    ix = await loopback.slash(world.alice, world.games, "demo play", word="QUIZ", position="8H")
    ix.pretend_age(15 * 60 + 1)

    async with aiohttp.ClientSession() as http:
        response = await http.post(
            f"{loopback.base_url}/webhooks/{loopback.application_id}/{ix.token}?wait=1",
            json={"content": "late followup"},
        )
        body = await response.json()

    assert (response.status, body["code"]) == (401, 50027)
    assert ix.followups == []


# ---------------------------------------------------------------- reliability


async def test_rate_limited_post_is_retried_after_retry_after_and_succeeds(loopback, world, bot):
    dm = loopback.dm_channel(world.alice)
    rule = loopback.fail_next("POST", rf"^/channels/{dm.id}/messages$", 429, retry_after=0.2)

    await loopback.dm(world.alice, "cat")
    reply = await loopback.wait_for_message(channel=world.alice)

    assert rule.hits == 1
    assert reply.content == "Noted 1 words"
    statuses = [r.status for r in loopback.requests if r.path == f"/channels/{dm.id}/messages"]
    assert statuses == [429, 200]


async def test_dropped_gateway_resumes_and_delivers_events_sent_while_disconnected(
    loopback, world, bot
):
    await loopback.drop_gateway(resume=True)
    await loopback.say(world.alice, world.games, "while you were away")

    session = await loopback.wait_for_session()
    seen = await bot.wait_seen("while you were away")

    assert session.resumes == 1
    assert len(loopback.gateway.sessions) == 1
    assert seen.channel.id == world.games.id


async def test_session_that_cannot_resume_is_replaced_by_a_fresh_identify(loopback, world, bot):
    old = loopback.gateway.sessions[0]
    await loopback.drop_gateway(resume=False)

    session = await loopback.wait_for_session()
    await loopback.say(world.alice, world.games, "after reconnect")

    assert session is not old and not old.valid
    assert (await bot.wait_seen("after reconnect")).channel.id == world.games.id


async def test_shards_get_only_their_guilds_and_dms_arrive_on_shard_zero(loopback):
    zero = loopback.add_guild("Shard Zero", shard=(0, 2))
    one = loopback.add_guild("Shard One", shard=(1, 2))
    alice = loopback.add_user("alice")
    loopback.add_member(zero, alice)
    loopback.add_member(one, alice)
    hall = loopback.add_text_channel(one, "hall")
    first = ShardedDemoBot(shard_ids=[0], shard_count=2)
    second = ShardedDemoBot(shard_ids=[1], shard_count=2)
    await loopback.start_bot(first)
    await loopback.start_bot(second)

    await loopback.say(alice, hall, "in shard one")
    await loopback.dm(alice, "a, b")
    await second.wait_seen("in shard one")
    await first.wait_seen("a, b")

    assert [g.id for g in first.guilds] == [zero.id]
    assert [g.id for g in second.guilds] == [one.id]
    assert "in shard one" not in [m.content for m in first.seen]
    assert "a, b" not in [m.content for m in second.seen]


class CrashingBot(DemoBot):
    async def on_message(self, message: discord.Message) -> None:
        raise RuntimeError("boom")


async def test_exception_escaping_an_event_handler_is_recorded(loopback, world):
    loopback.expect_violation("unhandled_error", count=1)
    await loopback.start_bot(CrashingBot())

    await loopback.say(world.alice, world.games, "hello")
    violation = await loopback.wait_for_violation("unhandled_error")

    assert "on_message" in violation.detail and "boom" in violation.detail


async def test_bot_with_the_wrong_token_cannot_log_in(loopback, world):
    with pytest.raises(discord.LoginFailure):
        await loopback.start_bot(DemoBot(), token="not-the-token")


async def test_route_the_loopback_lacks_is_flagged_as_unsupported(loopback):
    loopback.expect_violation("unsupported_route")
    headers = {"Authorization": f"Bot {loopback.token}"}
    async with aiohttp.ClientSession(headers=headers) as http:
        response = await http.get(f"{loopback.base_url}/voice/regions")

    assert response.status == 404
    assert loopback.violations[0].path == "/voice/regions"


# ---------------------------------------------------------------- gateway wire format


async def _identify(loopback: LoopbackDiscord, query: str) -> list[dict]:
    frames: list[dict] = []
    inflate = zlib.decompressobj()
    async with (
        aiohttp.ClientSession() as http,
        http.ws_connect(f"{loopback.gateway_url}?v=10&encoding=json{query}") as ws,
    ):

        async def receive() -> dict:
            message = await ws.receive(timeout=5)
            raw = (
                inflate.decompress(message.data)
                if message.type is aiohttp.WSMsgType.BINARY
                else message.data
            )
            return json.loads(raw)

        frames.append(await receive())
        await ws.send_json(
            {"op": 2, "d": {"token": loopback.token, "intents": 1, "properties": {}}}
        )
        frames.append(await receive())
        frames.append(await receive())
    return frames


@pytest.mark.parametrize("query", ["", "&compress=zlib-stream"])
async def test_gateway_sends_hello_ready_and_guild_create_compressed_or_plain(
    loopback, world, query
):
    hello, ready, guild_create = await _identify(loopback, query)

    assert hello["op"] == 10 and hello["d"]["heartbeat_interval"] > 0
    assert (ready["t"], ready["s"]) == ("READY", 1)
    assert ready["d"]["guilds"] == [{"id": str(world.guild.id), "unavailable": True}]
    assert (guild_create["t"], guild_create["s"]) == ("GUILD_CREATE", 2)


# ---------------------------------------------------------------- limits and the plugin's report


def test_embed_budget_counts_title_description_fields_footer_and_author():
    embed = {
        "title": "t" * 256,
        "description": "d" * 4096,
        "fields": [{"name": "n" * 256, "value": "v" * 1024}] * 1,
        "footer": {"text": "f" * 200},
        "author": {"name": "a" * 200},
    }

    assert limits.embed_characters(embed) == 256 + 4096 + 256 + 1024 + 200 + 200
    assert [p.code for p in limits.check_embeds([embed])] == ["MAX_EMBED_SIZE_EXCEEDED"]


def test_components_beyond_five_rows_or_five_buttons_are_invalid():
    button = {"type": 2, "style": 1, "label": "ok", "custom_id": "b"}
    six_buttons = {"type": 1, "components": [{**button, "custom_id": f"b{i}"} for i in range(6)]}
    rows = [{"type": 1, "components": [{**button, "custom_id": f"r{i}"}]} for i in range(6)]

    assert limits.check_components([six_buttons], 0)
    assert limits.check_components(rows, 0)
    assert limits.check_components(rows[:5], 0) == []


def test_required_options_after_optional_ones_are_invalid():
    command = {
        "name": "x",
        "description": "d",
        "options": [
            {"type": 3, "name": "a", "description": "d"},
            {"type": 3, "name": "b", "description": "d", "required": True},
        ],
    }

    assert [p.code for p in limits.check_command(0, command)] == [
        "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID"
    ]


async def test_report_names_unexpected_violations_and_expected_ones_that_never_happened():
    dc = LoopbackDiscord()
    dc.violate("invalid_message", "content too long")
    dc.expect_violation("interaction_timeout")

    report = dc.violation_report()

    assert report == [
        "unexpected violation: invalid_message: content too long",
        "expected a 'interaction_timeout' violation, none was recorded",
    ]


# ---------------------------------------------------------------- guild scheduled events


async def test_scheduled_events_are_made_listed_moved_started_ended_and_deleted(
    loopback, world, bot
):
    guild = bot.get_guild(world.guild.id)
    start = loopback.clock() + dt.timedelta(hours=2)
    loopback.expect_violation("missing_permissions", count=1)
    with pytest.raises(discord.Forbidden):  # no Manage Events yet
        await guild.create_scheduled_event(
            name="Round 1",
            start_time=start,
            end_time=start + dt.timedelta(hours=1),
            entity_type=discord.EntityType.external,
            location="#games",
            privacy_level=discord.PrivacyLevel.guild_only,
        )
    loopback.grant_bot(world.guild, MANAGE_EVENTS)
    event = await guild.create_scheduled_event(
        name="Round 1",
        start_time=start,
        end_time=start + dt.timedelta(hours=1),
        entity_type=discord.EntityType.external,
        location="#games",
        privacy_level=discord.PrivacyLevel.guild_only,
    )
    assert [e.name for e in await guild.fetch_scheduled_events()] == ["Round 1"]
    assert event.location == "#games" and event.status is discord.EventStatus.scheduled
    moved = await event.edit(end_time=start + dt.timedelta(hours=3))
    assert moved.end_time == start + dt.timedelta(hours=3)
    started = await moved.start()
    assert started.status is discord.EventStatus.active
    ended = await started.end()
    assert ended.status is discord.EventStatus.completed
    await ended.delete()
    assert loopback.scheduled_events_in(world.guild) == []
    with pytest.raises(discord.NotFound):
        await ended.delete()


async def test_a_scheduled_event_in_the_past_or_without_an_end_is_refused_and_flagged(
    loopback, world, bot
):
    loopback.grant_bot(world.guild, MANAGE_EVENTS)
    loopback.expect_violation("invalid_scheduled_event", count=2)
    past = loopback.clock() - dt.timedelta(minutes=5)
    for end in (past + dt.timedelta(hours=1), None):
        payload = {
            "name": "Late",
            "entity_type": 3,
            "privacy_level": 2,
            "entity_metadata": {"location": "#games"},
            "scheduled_start_time": (past if end else past + dt.timedelta(days=1)).isoformat(),
            "scheduled_end_time": end.isoformat() if end else None,
        }
        with pytest.raises(discord.HTTPException) as refused:
            await bot.http.create_guild_scheduled_event(world.guild.id, **payload)
        assert refused.value.status == 400
    assert loopback.scheduled_events_in(world.guild) == []
