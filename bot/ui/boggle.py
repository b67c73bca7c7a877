"""Word Boggle on Discord: the round's buttons, the words form, replies and files.

The buttons are dynamic items (their custom id carries the round id), so they
work on messages posted before a restart. The form is answered by the cog's
``on_interaction`` listener from its custom id rather than by the Modal
object, so a form opened before a restart can still be sent after it.
"""

from __future__ import annotations

import asyncio
import io
import re
from collections.abc import Awaitable
from typing import Any, Protocol

import discord

from bot.render.boggle import render_boggle_grid
from bot.services.boggle import (
    ANNOUNCE_LEAD,
    WEEKDAYS,
    CancelOutcome,
    DmOutcome,
    ResultsView,
    RoundInfo,
    ScheduleInfo,
    SeasonInfo,
    SubmissionReceipt,
    describe_options,
    escape,
    format_duration,
    letters_text,
    results_content,
    results_embed,
    results_text_file,
    standings_text,
)
from bot.ui.buttons import ButtonRoute, dispatch
from bot.ui.errors import ClubModal, ClubView

WORDS_INPUT_ID = "boggle:words"
FORM_ID = re.compile(r"boggle:form:(\d+)")
FORM_MAX_CHARS = 4000


class RoundButtonHandler(Protocol):
    async def open_form(self, interaction: discord.Interaction, round_id: int) -> None: ...

    async def send_grid_dm(self, interaction: discord.Interaction, round_id: int) -> None: ...


BOGGLE_BUTTONS: ButtonRoute[RoundButtonHandler] = ButtonRoute("Word Boggle")


class RoundButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"boggle:(?P<action>submit|dm):(?P<round_id>\d+)",
):
    """A round's two buttons: "Submit words" (opens the form) and "DM me the grid"."""

    def __init__(self, action: str, round_id: int) -> None:
        label, style, emoji = (
            ("Submit words", discord.ButtonStyle.primary, "📝")
            if action == "submit"
            else ("DM me the grid", discord.ButtonStyle.secondary, "✉️")
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
            return handler.send_grid_dm(interaction, self.round_id)

        await dispatch(interaction, BOGGLE_BUTTONS, call, where=f"boggle button {self.action}")


def round_view(round_id: int, *, dm_button: bool = True) -> discord.ui.View:
    view = ClubView(timeout=None)
    view.add_item(RoundButton("submit", round_id))
    if dm_button:
        view.add_item(RoundButton("dm", round_id))
    return view


class WordsModal(ClubModal):
    """The form: one box for any number of words. Submissions are handled by the cog."""

    def __init__(self, info: RoundInfo) -> None:
        super().__init__(
            title=f"Your words — round #{info.number}"[:45],
            custom_id=f"boggle:form:{info.id}",
            timeout=None,
        )
        self.words: discord.ui.TextInput[WordsModal] = discord.ui.TextInput(
            label="Words (spaces, commas or new lines)",
            custom_id=WORDS_INPUT_ID,
            style=discord.TextStyle.paragraph,
            placeholder="tame, quit, tones …",
            max_length=FORM_MAX_CHARS,
            required=True,
        )
        self.add_item(self.words)


def modal_text(data: Any, custom_id: str = WORDS_INPUT_ID) -> str:
    """The value of text input ``custom_id`` in a modal submission's raw data."""
    stack = list((data or {}).get("components") or [])
    while stack:
        component = stack.pop()
        if not isinstance(component, dict):
            continue
        if component.get("custom_id") == custom_id and "value" in component:
            return str(component["value"] or "")
        stack.extend(component.get("components") or [])
        if isinstance(component.get("component"), dict):
            stack.append(component["component"])
    return ""


# -- files for the outbox ----------------------------------------------------------


async def render_grid_file(args: dict[str, Any]) -> tuple[str, bytes]:
    rows = [[str(face) for face in row] for row in args["rows"]]
    png = await asyncio.to_thread(render_boggle_grid, rows, title=args.get("title"))
    return f"boggle-round-{args.get('round', 'grid')}.png", png


async def render_text_file(args: dict[str, Any]) -> tuple[str, bytes]:
    return str(args.get("filename") or "boggle.txt"), str(args.get("text", "")).encode("utf-8")


async def grid_file(info: RoundInfo) -> discord.File:
    filename, png = await render_grid_file(
        {"rows": info.rows, "title": f"Round {info.number}", "round": info.number}
    )
    return discord.File(io.BytesIO(png), filename=filename)


# -- replies -------------------------------------------------------------------------


def _ends(receipt_ends: Any) -> str:
    return f"<t:{int(receipt_ends.timestamp())}:R>"


def receipt_line(receipt: SubmissionReceipt) -> str:
    where = f"round #{receipt.round_number}" + (
        f" in **{escape(receipt.guild_name)}**" if receipt.guild_name else ""
    )
    added = f"{receipt.new_words} new word{'' if receipt.new_words == 1 else 's'}"
    line = f"✅ {added} — your list for {where} has **{receipt.total_words}** (ends {_ends(receipt.ends_at)})."
    if receipt.full:
        line += " Your list is full, so some words were not added."
    return line


def dm_reply(outcome: DmOutcome) -> str | None:
    """What to answer a DM'd list; None when there is nothing new to say (a replayed message)."""
    lines = [receipt_line(r) for r in outcome.receipts if not r.repeated]
    for note in outcome.late:
        where = f" in **{escape(note.guild_name)}**" if note.guild_name else ""
        lines.append(
            f"Sorry, round #{note.round_number}{where} ended <t:{int(note.ended_at.timestamp())}:R>, "
            f"so these words were not counted. The results are in <#{note.channel_id}>."
        )
    return "\n".join(lines) if lines else None


NO_ROUND_HINT = (
    "There's no Word Boggle round open for you right now. When a moderator starts one, "
    "DM me your words here while the timer runs (spaces, commas or new lines), "
    "or use the **Submit words** button under the grid."
)


def form_receipt_text(receipt: SubmissionReceipt) -> str:
    if receipt.repeated:
        return "I already have those words."
    return receipt_line(receipt)


def grid_dm_text(info: RoundInfo, guild_name: str) -> str:
    ends = int(info.ends_at.timestamp()) if info.ends_at else 0
    where = f" in **{escape(guild_name)}**" if guild_name else ""
    return (
        f"🎲 Word Boggle round #{info.number}{where} · {describe_options(info)} · ends <t:{ends}:R>\n"
        f"Letters, row by row: **{letters_text(info.rows)}**\n"
        "Reply here with your words: spaces, commas or new lines, as many messages as you like."
    )


DMS_CLOSED = (
    "I can't DM you: your DMs are closed to me. Use **Submit words** below to send your words "
    "with the form instead (you can use it as often as you like)."
)


def start_reply(info: RoundInfo) -> str:
    ends = int(info.ends_at.timestamp()) if info.ends_at else 0
    return (
        f"Round #{info.number} is on in <#{info.channel_id}> ({describe_options(info)}); "
        f"it ends <t:{ends}:R>."
    )


def schedule_reply(info: ScheduleInfo) -> str:
    first = int(info.next_at.timestamp())
    verb = "Replaced the weekly schedule" if info.replaced else "Scheduled"
    return (
        f"{verb}: a Word Boggle round every **{WEEKDAYS[info.weekday]} at {info.local_time}** "
        f"({info.timezone}) in <#{info.channel_id}>: {info.options.size}x{info.options.size} grid, "
        f"{format_duration(info.options.duration_s)}, words of {info.options.min_length}+ letters. "
        f"The first one opens <t:{first}:F> (<t:{first}:R>) and is announced "
        f"{format_duration(int(ANNOUNCE_LEAD.total_seconds()))} before. "
        "Stop it with `/boggle cancel what:schedule`."
    )


def cancel_reply(outcome: CancelOutcome) -> str:
    if outcome.what == "schedule":
        text = "Stopped the **weekly schedule**: no more rounds will start by themselves."
        if outcome.also_cancelled_round is not None:
            text += f" The announced round #{outcome.also_cancelled_round} is cancelled too."
        return text
    what = "running round" if outcome.round_status == "open" else "scheduled round"
    text = f"Cancelled the **{what} #{outcome.round_number}** in <#{outcome.channel_id}>."
    if outcome.schedule_remains:
        nxt = (
            f" <t:{int(outcome.schedule_next_at.timestamp())}:R>"
            if outcome.schedule_next_at
            else ""
        )
        text += f" The weekly schedule carries on (next round{nxt}); `/boggle cancel what:schedule` stops it."
    return text


def season_lines(season: SeasonInfo) -> list[str]:
    lines = [
        f"**Season {season.number}** (first to {season.target} points) — started <t:{int(season.started_at.timestamp())}:D>"
        + (
            f", resets <t:{int(season.next_reset_at.timestamp())}:R>"
            if season.next_reset_at
            else ""
        ),
        f"Standings: {standings_text(season.standings)}",
    ]
    previous = season.previous
    if previous and previous.get("winners"):
        names = " and ".join(escape(name) for _, name in previous["winners"])
        lines.append(
            f"Season {previous['number']} went to {names} ({previous['points']:g} points)."
        )
    return lines


def season_reply(season: SeasonInfo) -> str:
    lines = []
    if season.ended is not None:
        lines.append(f"Season {season.ended.number} is closed; season {season.number} starts now.")
    every = (
        "never (only the target or a moderator ends it)"
        if season.every == "none"
        else f"every {season.every}"
    )
    lines += season_lines(season)
    lines.append(f"Resets: {every}.")
    return "\n".join(lines)


def results_reply(view: ResultsView) -> tuple[str, list[discord.Embed], list[discord.File]]:
    """/boggle results: the last round as posted, then the season table."""
    season = view.season
    parts: list[str] = []
    embeds: list[discord.Embed] = []
    files: list[discord.File] = []
    if view.running is not None:
        r = view.running
        when = r.ends_at if r.status == "open" else r.opens_at
        verb = "ends" if r.status == "open" else "opens"
        parts.append(
            f"Round #{r.number} {verb} <t:{int(when.timestamp()) if when else 0}:R> in <#{r.channel_id}>."
        )
    if view.last is None:
        parts.append("No round has been scored yet.")
        parts += season_lines(season)
    else:
        state = {"number": season.number}
        content = results_content(view.last, season.standings, state, season.target)
        parts.append(content)
        parts += season_lines(season)[2:]  # last season's winner, when there is one
        embed = results_embed(view.last)
        if embed is not None:
            embeds.append(discord.Embed.from_dict(embed))
        text = results_text_file(view.last)
        files.append(
            discord.File(
                io.BytesIO(text.encode("utf-8")), filename=f"boggle-round-{view.last['number']}.txt"
            )
        )
    return "\n".join(parts)[:2000], embeds, files
