"""DM intake: what counts as a member's own DM, where a session's live DMs
begin, a slash command typed as text, and the throttle that keeps a hint
from repeating."""

from __future__ import annotations

from datetime import timedelta
from types import SimpleNamespace
from typing import Any

import discord
import pytest

from bot.gateway import DmIntake, Throttle, is_chatty, is_member_dm, typed_command
from tests.clock import FakeClock


def message(
    id: int,
    author: int = 11,
    *,
    guild: Any = None,
    bot: bool = False,
    webhook_id: int | None = None,
    type: discord.MessageType = discord.MessageType.default,
) -> Any:
    """Just the fields the intake reads (a real discord.Message needs a connection state)."""
    return SimpleNamespace(
        id=id,
        guild=guild,
        author=SimpleNamespace(id=author, bot=bot),
        webhook_id=webhook_id,
        type=type,
    )


@pytest.mark.parametrize(
    ("fields", "taken"),
    [
        ({}, True),
        ({"type": discord.MessageType.reply}, True),
        ({"guild": object()}, False),  # a guild message: another game's
        ({"bot": True}, False),
        ({"webhook_id": 5}, False),
        ({"type": discord.MessageType.pins_add}, False),
    ],
)
def test_only_a_members_own_words_in_a_dm_are_taken(fields: dict[str, Any], taken: bool) -> None:
    assert is_member_dm(message(1, **fields)) is taken
    assert DmIntake().take_live(message(1, **fields)) is taken


def test_is_chatty_ignores_where_a_message_was_sent() -> None:
    assert is_chatty(message(1, guild=object()))
    assert not is_chatty(message(1, guild=object(), bot=True))


def test_live_since_is_each_members_first_live_dm_of_the_session() -> None:
    intake = DmIntake()
    for id, author in (
        (50, 11),
        (40, 12),
        (60, 11),
        (45, 11),
    ):  # 45 after 50: arrival order is not id order
        intake.take_live(message(id, author))
    intake.take_live(message(30, 13, bot=True))  # not taken, not remembered
    assert intake.live_since() == {11: 45, 12: 40}


def test_a_new_session_on_shard_zero_forgets_the_live_dms_of_the_last() -> None:
    intake = DmIntake()
    intake.take_live(message(50))
    intake.session_started(1)  # another shard: DMs are not its business
    assert intake.live_since() == {11: 50}
    intake.session_started(0)
    assert intake.live_since() == {}
    intake.take_live(message(70))
    assert intake.live_since() == {11: 70}


def test_live_since_is_a_copy() -> None:
    intake = DmIntake()
    intake.take_live(message(50))
    intake.live_since().clear()
    assert intake.live_since() == {11: 50}


def test_the_throttle_allows_once_per_period_per_key(clock: FakeClock) -> None:
    hints: Throttle[int] = Throttle(timedelta(hours=12), clock=clock)
    assert hints.allow(1) and hints.allow(2)
    assert not hints.allow(1)
    clock.advance(hours=11, minutes=59)
    assert not hints.allow(1)
    clock.advance(minutes=1)
    assert hints.allow(1)


def test_the_throttle_forgets_old_keys_past_its_memory(clock: FakeClock) -> None:
    hints: Throttle[int] = Throttle(timedelta(minutes=10), clock=clock, remember=2)
    for key in (1, 2, 3):
        assert hints.allow(key)
    clock.advance(minutes=11)
    assert hints.allow(4)  # 1, 2 and 3 are past their period: forgotten
    assert sorted(hints._last) == [4]
    assert hints.allow(1)


class _Channel:
    def __init__(self, error: Exception | None = None) -> None:
        self.sent: list[str] = []
        self.error = error

    async def send(self, text: str) -> None:
        if self.error is not None:
            raise self.error
        self.sent.append(text)


async def test_a_reply_to_closed_dms_is_given_up_quietly() -> None:
    ok, closed = message(1), message(2)
    ok.channel = _Channel()
    refused = discord.Forbidden(SimpleNamespace(status=403, reason="Forbidden"), "closed")
    closed.channel = _Channel(refused)
    assert await DmIntake.reply(ok, "thanks") and ok.channel.sent == ["thanks"]
    assert not await DmIntake.reply(closed, "thanks")


BOT_COMMANDS = ("scrabble", "scrabble play", "chess", "chess move", "help", "boggle")


@pytest.mark.parametrize(
    ("text", "name", "shown"),
    [
        ("/scrabble play word:QUIZ position:8H", "scrabble", "/scrabble play"),
        ("  /Scrabble PLAY word:enjoy", "scrabble", "/scrabble play"),
        ("/chess move:e4", "chess", "/chess"),
        ("/chess castle", "chess", "/chess"),  # not a subcommand: only the command is quoted
        ("/help", "help", "/help"),
        ("/boggle\ncats dogs", "boggle", "/boggle"),
        ("/nothing here", "nothing", None),  # not the bot's: recognised, never quoted
    ],
)
def test_a_slash_and_a_command_name_is_a_command_typed_as_text(
    text: str, name: str, shown: str | None
) -> None:
    command = typed_command(text, BOT_COMMANDS)
    assert command is not None and command.name == name and command.shown == shown


@pytest.mark.parametrize(
    "text", ["cats dogs", "cats /scrabble", "/ cats", "/8H", "//", "", "@everyone /help"]
)
def test_a_word_list_is_not_a_command(text: str) -> None:
    assert typed_command(text, BOT_COMMANDS) is None


def test_the_intake_reads_a_dms_text_for_a_command() -> None:
    dm = SimpleNamespace(content="/scrabble play word:QUIZ")
    command = DmIntake.typed_command(dm, BOT_COMMANDS)
    assert command is not None and command.shown == "/scrabble play"
    assert DmIntake.typed_command(SimpleNamespace(content="quiz"), BOT_COMMANDS) is None
