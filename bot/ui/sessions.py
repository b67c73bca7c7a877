"""Club sessions on Discord: the sign-up post's buttons, the Explain button under a
play's "explain the word" post and its form, and the opening of a board's thread.

The buttons are dynamic items whose custom ids carry the session
(``session:signup:<id>``, ``session:leave:<id>``) or the play
(``scrabble:explain:<game>:<ply>``), so they keep working after a restart. A
board's thread is made from a first message posted with a nonce
(``enforce_nonce``): a repeat after a crash finds the same message and its thread.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence
from typing import Any, Protocol

import discord

from bot.messages import sessions as messages
from bot.messages.i18n import _
from bot.services.sessions.explaining import EXPLANATION_CHARS, EXPLANATION_MIN_CHARS
from bot.ui import threads
from bot.ui.buttons import ButtonRoute, dispatch

log = logging.getLogger(__name__)
MODAL_TITLE_CHARS = 45  # Discord's limit on a modal's title


class SessionActions(Protocol):
    async def signup_clicked(self, interaction: discord.Interaction, session_id: int) -> None: ...
    async def leave_clicked(self, interaction: discord.Interaction, session_id: int) -> None: ...
    async def explain_clicked(
        self, interaction: discord.Interaction, game_id: int, ply: int
    ) -> None: ...
    async def explain_sent(
        self, interaction: discord.Interaction, game_id: int, ply: int, text: str
    ) -> None: ...


SESSION_BUTTONS: ButtonRoute[SessionActions] = ButtonRoute("Club sessions")


class SignupButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"session:(?P<action>signup|leave):(?P<session_id>\d+)",
):
    def __init__(self, session_id: int, action: str) -> None:
        signup = action == "signup"
        super().__init__(
            discord.ui.Button(
                label=_(messages.SIGNUP_BUTTON) if signup else _(messages.LEAVE_BUTTON),
                style=discord.ButtonStyle.success if signup else discord.ButtonStyle.secondary,
                custom_id=f"session:{action}:{session_id}",
            )
        )
        self.session_id = session_id
        self.action = action

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> SignupButton:
        return cls(int(match["session_id"]), match["action"])

    async def callback(self, interaction: discord.Interaction) -> None:
        if self.action == "signup":
            await dispatch(
                interaction,
                SESSION_BUTTONS,
                lambda h: h.signup_clicked(interaction, self.session_id),
                where="session sign-up button",
            )
        else:
            await dispatch(
                interaction,
                SESSION_BUTTONS,
                lambda h: h.leave_clicked(interaction, self.session_id),
                where="session leave button",
            )


class ExplainButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"scrabble:explain:(?P<game_id>\d+):(?P<ply>\d+)",
):
    def __init__(self, game_id: int, ply: int) -> None:
        super().__init__(
            discord.ui.Button(
                label=_(messages.EXPLAIN_BUTTON),
                style=discord.ButtonStyle.primary,
                custom_id=f"scrabble:explain:{game_id}:{ply}",
            )
        )
        self.game_id = game_id
        self.ply = ply

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> ExplainButton:
        return cls(int(match["game_id"]), int(match["ply"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await dispatch(
            interaction,
            SESSION_BUTTONS,
            lambda h: h.explain_clicked(interaction, self.game_id, self.ply),
            where="explain button",
        )


class ExplainModal(discord.ui.Modal):
    """The form a pair writes its explanation in."""

    def __init__(self, game_id: int, ply: int, words: Sequence[str]) -> None:
        super().__init__(
            title=messages.explain_title(words)[:MODAL_TITLE_CHARS],
            custom_id=f"explain:{game_id}:{ply}",
        )
        self.game_id = game_id
        self.ply = ply
        self.text: discord.ui.TextInput[ExplainModal] = discord.ui.TextInput(
            label=_(messages.EXPLAIN_LABEL)[:45],
            style=discord.TextStyle.paragraph,
            placeholder=_(messages.EXPLAIN_PLACEHOLDER)[:100],
            min_length=EXPLANATION_MIN_CHARS,
            max_length=EXPLANATION_CHARS,
        )
        self.add_item(self.text)

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await dispatch(
            interaction,
            SESSION_BUTTONS,
            lambda h: h.explain_sent(interaction, self.game_id, self.ply, self.text.value),
            where="explain form",
        )


def signup_view(session_id: int, *, open_: bool = True) -> discord.ui.View | None:
    if not open_:
        return None
    view = discord.ui.View(timeout=None)
    view.add_item(SignupButton(session_id, "signup"))
    view.add_item(SignupButton(session_id, "leave"))
    return view


def explain_view(args: dict[str, Any]) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(ExplainButton(int(args["game_id"]), int(args["ply"])))
    return view


async def open_board_thread(
    client: discord.Client,
    channel_id: int,
    name: str,
    text: str,
    nonce: str,
    member_ids: Sequence[int],
) -> int | None:
    """Post the board's first message (once, by nonce) and open its thread (once: see
    ``bot.ui.threads``). None: the board plays in the channel. Discord's own trouble
    (5xx, 429) is raised, so the job tries again."""
    return await threads.open_game_thread(
        client,
        channel_id,
        starter=threads.Starter(text, nonce),
        name=name,
        member_ids=member_ids,
        archive_minutes=threads.ARCHIVE_LIVE,
        what="a session board",
    )


DYNAMIC_ITEMS = (SignupButton, ExplainButton)
