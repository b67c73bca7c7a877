"""Word Boggle on Discord: the round's buttons, the words form, replies and files.

The buttons are dynamic items (their custom id carries the round id), so they
work on messages posted before a restart. The form is answered by the cog's
``on_interaction`` listener from its custom id rather than by the Modal
object, so a form opened before a restart can still be sent after it.
"""

from __future__ import annotations

import io
import re
from collections.abc import Awaitable, Mapping
from typing import Any, Protocol

import discord

from bot.messages import boggle as msg
from bot.messages import limits as msg_limits
from bot.messages.boggle import daily as daily_say
from bot.messages.i18n import _
from bot.offload import draw
from bot.render.boggle import boggle_grid_png
from bot.services.boggle import CancelOutcome, DmOutcome, ResultsSnapshot, RoundInfo
from bot.services.boggle.daily import DailyInfo
from bot.ui.buttons import ButtonRoute, dispatch
from bot.ui.errors import ClubModal, ClubView

WORDS_INPUT_ID = "boggle:words"
FORM_ID = re.compile(r"boggle:form:(\d+)")
DAILY_FORM_ID = re.compile(r"boggle:dailyform:(\d+)")
FORM_MAX_CHARS = 4000


class RoundButtonHandler(Protocol):
    async def open_form(self, interaction: discord.Interaction, round_id: int) -> None: ...

    async def send_grid_dm(self, interaction: discord.Interaction, round_id: int) -> None: ...

    async def open_daily_form(self, interaction: discord.Interaction, daily_id: int) -> None: ...


BOGGLE_BUTTONS: ButtonRoute[RoundButtonHandler] = ButtonRoute("Word Boggle")


class RoundButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"boggle:(?P<action>submit|dm|daily):(?P<round_id>\d+)",
):
    """A round's two buttons: "Submit words" (opens the form) and "DM me the grid"; and
    the daily grid's "Submit words" (``daily``: its id is the day's grid's)."""

    def __init__(self, action: str, round_id: int) -> None:
        label, style, emoji = (
            (_(msg.SUBMIT_LABEL), discord.ButtonStyle.primary, "📝")
            if action in ("submit", "daily")
            else (_(msg.DM_GRID_LABEL), discord.ButtonStyle.secondary, "✉️")
        )
        super().__init__(
            discord.ui.Button(
                label=label, style=style, emoji=emoji, custom_id=f"boggle:{action}:{round_id}"
            )
        )
        self.action, self.round_id = action, round_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> RoundButton:
        return cls(match["action"], int(match["round_id"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        def call(handler: RoundButtonHandler) -> Awaitable[None]:
            if self.action == "submit":
                return handler.open_form(interaction, self.round_id)
            if self.action == "daily":
                return handler.open_daily_form(interaction, self.round_id)
            return handler.send_grid_dm(interaction, self.round_id)

        await dispatch(interaction, BOGGLE_BUTTONS, call, where=f"boggle button {self.action}")


def round_view(round_id: int, *, dm_button: bool = True) -> discord.ui.View:
    view = ClubView(timeout=None)
    view.add_item(RoundButton("submit", round_id))
    if dm_button:
        view.add_item(RoundButton("dm", round_id))
    return view


def daily_view(daily_id: int) -> discord.ui.View:
    """The daily grid's Submit words button (on the member's private grid)."""
    view = ClubView(timeout=None)
    view.add_item(RoundButton("daily", daily_id))
    return view


class WordsModal(ClubModal):
    """The form: one box for any number of words. Submissions are handled by the cog."""

    def __init__(self, info: RoundInfo | None = None, *, daily: DailyInfo | None = None) -> None:
        if daily is not None:
            title, custom_id = daily_say.form_title(daily.day), f"boggle:dailyform:{daily.id}"
        else:
            assert info is not None
            title, custom_id = msg.form_title(info.number), f"boggle:form:{info.id}"
        super().__init__(title=title, custom_id=custom_id, timeout=None)
        self.words: discord.ui.TextInput[WordsModal] = discord.ui.TextInput(
            label=_(msg.WORDS_LABEL),
            custom_id=WORDS_INPUT_ID,
            style=discord.TextStyle.paragraph,
            placeholder=_(msg.WORDS_PLACEHOLDER),
            max_length=FORM_MAX_CHARS,
            required=True,
        )
        self.add_item(self.words)


# -- files for the outbox and for replies


async def render_grid_file(args: Mapping[str, Any]) -> tuple[str, bytes]:
    rows = tuple(tuple(str(face) for face in row) for row in args["rows"])
    title = args.get("title")
    png = await draw(boggle_grid_png, rows, str(title) if title is not None else None)
    return f"boggle-round-{args.get('round', 'grid')}.png", png


async def render_text_file(args: Mapping[str, Any]) -> tuple[str, bytes]:
    return str(args.get("filename") or "boggle.txt"), str(args.get("text", "")).encode("utf-8")


async def daily_grid_file(info: DailyInfo) -> discord.File:
    """The day's grid as an image, its letters as its alt text."""
    spec = daily_say.grid_file(info.rows, info.day)
    filename, png = await render_grid_file(spec.args)
    return discord.File(io.BytesIO(png), filename=filename, description=spec.description)


async def grid_file(info: RoundInfo) -> discord.File:
    """The grid as an image, its letters as its alt text."""
    spec = msg.grid_file(info.rows, info.number)
    filename, png = await render_grid_file(spec.args)
    return discord.File(io.BytesIO(png), filename=filename, description=spec.description)


def dm_reply(outcome: DmOutcome) -> str | None:
    """What to answer a DM'd list; None when there is nothing new to say (a replayed message)."""
    lines = [msg.dm_reply(outcome.receipts, outcome.late) or ""]
    lines += daily_say.dm_lines(outcome.daily, outcome.daily_late)
    return "\n".join(line for line in lines if line) or None


def cancel_reply(outcome: CancelOutcome) -> str:
    if outcome.what == "schedule":
        return msg.schedule_cancelled(outcome.also_cancelled_round)
    return msg.round_cancelled_reply(
        outcome.round_number or 0,
        outcome.round_status == "open",
        outcome.channel_id or 0,
        outcome.schedule_remains,
        outcome.schedule_next_at,
    )


def results_reply(view: ResultsSnapshot) -> tuple[str, list[discord.Embed], list[discord.File]]:
    """/boggle results: the last round as posted, then the season table."""
    season = view.season
    parts: list[str] = []
    embeds: list[discord.Embed] = []
    files: list[discord.File] = []
    if view.running is not None:
        r = view.running
        when = (r.ends_at if r.status == "open" else r.opens_at) or r.opens_at
        parts.append(msg.running_line(r.number, r.status == "open", when, r.channel_id))
    if view.last is None:
        parts.append(_(msg.NOTHING_SCORED))
        parts += msg.season_lines(season)
    else:
        last = view.last
        parts.append(msg.results_content(last, season.standings, season.number, season.target))
        parts += msg.season_lines(season)[2:]  # last season's winner, when there is one
        embed = msg.results_embed(last)
        if embed is not None:
            embeds.append(discord.Embed.from_dict(embed))
        files.append(
            discord.File(
                io.BytesIO(msg.results_text_file(last).encode("utf-8")),
                filename=msg.results_filename(last["number"]),
                description=msg.results_file_alt_text(last["number"]),
            )
        )
    return "\n".join(parts)[: msg_limits.MESSAGE_CHARS], embeds, files
