"""Library Henyo on Discord: the Oo / Hindi / Pwede buttons, the live
registration list, the standings table, and the texts of a round's start.

The reply buttons are dynamic items: their custom id carries the round id and
the reply (``henyo:reply:<round>:<oo|hindi|pwede>``), so they keep working after
a restart without any view being re-registered per round.
"""

from __future__ import annotations

import re
from datetime import datetime
from typing import Any, Protocol

import discord

from bot.services.henyo import (
    EventView,
    PreparedRound,
    RunningRound,
    StandingRow,
    Standings,
    WordList,
)
from bot.ui.buttons import ButtonRoute, dispatch
from engines.henyo import CATEGORY_MEANINGS, LANGUAGES, Reply, format_seconds, format_time

REPLY_STYLES = {
    Reply.OO: (discord.ButtonStyle.success, "✅"),
    Reply.HINDI: (discord.ButtonStyle.danger, "❌"),
    Reply.PWEDE: (discord.ButtonStyle.secondary, "🤔"),
}
EMBED_COLOUR = discord.Colour.from_rgb(206, 128, 0)


def escape(text: str) -> str:
    return discord.utils.escape_markdown(discord.utils.escape_mentions(text))


def unix(moment: datetime) -> int:
    return int(moment.timestamp())


class ReplyButtonHandler(Protocol):
    async def on_reply_button(
        self, interaction: discord.Interaction, round_id: int, reply: Reply
    ) -> None: ...


HENYO_BUTTONS: ButtonRoute[ReplyButtonHandler] = ButtonRoute("Henyo")


class HenyoReplyButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"henyo:reply:(?P<round_id>\d+):(?P<reply>oo|hindi|pwede)",
):
    """One of the answerer's three buttons for one round."""

    def __init__(self, round_id: int, reply: Reply) -> None:
        style, emoji = REPLY_STYLES[reply]
        super().__init__(
            discord.ui.Button(
                label=reply.label,
                style=style,
                emoji=emoji,
                custom_id=f"henyo:reply:{round_id}:{reply.value}",
            )
        )
        self.round_id = round_id
        self.reply = reply

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> HenyoReplyButton:
        return cls(int(match["round_id"]), Reply(match["reply"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await dispatch(
            interaction,
            HENYO_BUTTONS,
            lambda henyo: henyo.on_reply_button(interaction, self.round_id, self.reply),
            where="henyo reply button",
        )


def reply_view(round_id: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for reply in Reply:
        view.add_item(HenyoReplyButton(round_id, reply))
    return view


def reply_text(reply: Reply, answerer_name: str) -> str:
    _, emoji = REPLY_STYLES[reply]
    return f"{emoji} **{reply.label}** ({reply.meaning}) — {escape(answerer_name)}"


# --------------------------------------------------------------------------- a round's start


def _category(prepared: PreparedRound) -> str:
    if not prepared.category:
        return "the host's own word"
    return f"{prepared.category} ({CATEGORY_MEANINGS.get(prepared.category, '')})"


def secret_dm(prepared: PreparedRound, *, for_host: bool) -> str:
    """The secret and its category, for the answerer or the host (DM only)."""
    where = f"<#{prepared.channel_id}>"
    lines = [
        f"🤫 **Library Henyo — {prepared.title}** in {where}",
        f"The secret word is: **{escape(prepared.word)}**",
        f"Category: **{_category(prepared)}**",
    ]
    if for_host:
        lines.append(
            f"You're hosting: **{escape(prepared.guesser.name)}** guesses, **{escape(prepared.answerer.name)}** answers."
        )
    else:
        lines.append(
            f"You're the answerer: in {where} reply only **Oo**, **Hindi** or **Pwede** (or press the buttons). "
            f"Anything else costs {format_seconds(prepared.penalty_ms)}. "
            f"Don't let **{escape(prepared.guesser.name)}** see this!"
        )
    return "\n".join(lines)


def announcement(prepared: PreparedRound) -> str:
    """The channel post whose timestamp starts the clock. Never the secret."""
    return "\n".join(
        [
            f"🎯 **Library Henyo — {prepared.title}**",
            f"**{escape(prepared.guesser.name)}** guesses · **{escape(prepared.answerer.name)}** answers only "
            "**Oo**, **Hindi** or **Pwede** (or with the buttons below).",
            f"The answerer has the secret word. Time: **{format_seconds(prepared.time_limit_ms)}**, "
            f"ending <t:{unix(prepared.planned_end)}:R>. Any other reply from the answerer: "
            f"+{format_seconds(prepared.penalty_ms)}. Audience: no coaching, please!",
            "The clock is running — go!",
        ]
    )


def start_confirmation(
    prepared: PreparedRound, running: RunningRound, *, host_dm_failed: bool
) -> str:
    """The host's private reply once the round is running."""
    lines = [
        f"Round #{prepared.round_id} is running: **{escape(prepared.guesser.name)}** guesses, "
        f"**{escape(prepared.answerer.name)}** answers. The clock ends <t:{unix(running.ends_at)}:R>.",
    ]
    if prepared.host_set_word:
        lines.append("The answerer has your word by DM.")  # never echoed back
    elif host_dm_failed:
        # The host's DMs are closed: this reply is private, so the secret can go here.
        lines.append(
            f"Your DMs are closed, so here is the secret: **{escape(prepared.word)}** ({_category(prepared)})."
        )
    else:
        lines.append("I sent you and the answerer the secret word by DM.")
    lines.append(
        "Coaching from the audience is flagged to you; `/henyo disqualify` ends the round for the pair."
    )
    return "\n".join(lines)


def answerer_unreachable(prepared: PreparedRound) -> str:
    return (
        f"I couldn't DM **{escape(prepared.answerer.name)}** (their DMs are closed), so they can't get the secret word "
        "and the round did **not** start. Ask them to allow direct messages from server members "
        "(Server → Privacy Settings), then run `/henyo start` again."
    )


# --------------------------------------------------------------------------- the event


def _settings_line(event: EventView) -> str:
    language = (
        "Filipino and English"
        if event.language == "any"
        else LANGUAGES.get(event.language, event.language)
    )
    return (
        f"Host: **{escape(event.host.name)}** · {event.pairs} playing pairs · time limit "
        f"{format_seconds(event.time_limit_ms)} · penalty {format_seconds(event.penalty_ms)}\n"
        f"Categories: {', '.join(event.categories)} · words in {language}"
    )


def registration_embed(event: EventView) -> discord.Embed:
    """The live registration list (edited on every registration or withdrawal)."""
    state = "registration open" if event.status == "open" else "closed"
    embed = discord.Embed(
        title=f"Library Henyo — event #{event.id} ({state})",
        description=_settings_line(event),
        colour=EMBED_COLOUR,
    )
    playing = [
        f"{t.position}. {escape(t.label)}"
        + (" — disqualified" if t.status == "disqualified" else "")
        for t in event.playing
    ]
    embed.add_field(
        name=f"Playing ({len(event.playing)}/{event.pairs})",
        value="\n".join(playing)[:1024] or "Nobody yet: `/henyo register partner:@member`",
        inline=False,
    )
    if event.waiting:
        waiting = [f"{i}. {escape(t.label)}" for i, t in enumerate(event.waiting, start=1)]
        embed.add_field(name="Waiting list", value="\n".join(waiting)[:1024], inline=False)
    embed.set_footer(
        text="Guesser & answerer. Join: /henyo register partner:@member · leave: /henyo withdraw"
    )
    return embed


def _row_text(row: StandingRow) -> str:
    name = escape(row.team.label)
    if row.status == "ranked":
        detail = format_time(row.final_ms)
        if row.penalties:
            detail += f" ({format_time(row.elapsed_ms)} + {row.penalties} penalt{'y' if row.penalties == 1 else 'ies'})"
        if row.tiebreaks:
            detail += " · tie-break " + ", ".join(
                format_time(ms) if ms is not None else "time up" for ms in row.tiebreaks
            )
        tie = " (tied)" if row.tied else ""
        return f"**{row.place}.** {name} — **{detail}**{tie}"
    label = {
        "eliminated": "eliminated (time up)",
        "disqualified": "disqualified",
        "not_played": "yet to play",
    }[row.status]
    return f"– {name} — {label}"


def standings_text(standings: Standings) -> str:
    """The table in plain lines (also what screen readers get)."""
    lines = [_row_text(row) for row in standings.rows] or ["No pair has registered yet."]
    for tie in standings.ties:
        teams = " and ".join(escape(t.label) for t in tie.teams)
        level = "a tie-break word" if tie.level == 1 else f"tie-break word {tie.level}"
        lines.append(f"🤝 Tied at {format_time(tie.final_ms)}: {teams} play {level}.")
    if standings.event.status == "closed" and len(standings.leaders) == 1:
        lines.append(f"🏆 Winners: **{escape(standings.leaders[0].label)}**")
    elif standings.complete and standings.rows and standings.leaders:
        lines.append(f"🏆 Leading: **{escape(standings.leaders[0].label)}**")
    return "\n".join(lines)


def standings_embed(standings: Standings) -> discord.Embed:
    event = standings.event
    state = "open" if event.status == "open" else "closed"
    embed = discord.Embed(
        title=f"Library Henyo — event #{event.id} standings ({state})",
        description=standings_text(standings)[:4000],
        colour=EMBED_COLOUR,
    )
    if event.waiting:
        embed.add_field(
            name="Waiting list",
            value="\n".join(escape(t.label) for t in event.waiting)[:1024],
            inline=False,
        )
    embed.set_footer(
        text="Final time = time to guess + penalties, to the tenth of a second. Shortest wins."
    )
    return embed


# --------------------------------------------------------------------------- words


def word_list_embeds(words: WordList) -> list[discord.Embed]:
    """The club's words (private to the host), at most 10 embeds within Discord's limits."""
    embeds = []
    club = ", ".join(f"{escape(w.text)} ({w.category}, {w.language})" for w in words.club_words)
    first = discord.Embed(
        title="Henyo words — the club's own",
        description=(club or "None added yet.")[:4000],
        colour=EMBED_COLOUR,
    )
    if words.removed_builtin:
        removed = ", ".join(escape(w.text) for w in words.removed_builtin)
        first.add_field(name="Built-in words taken out", value=removed[:1024], inline=False)
    first.set_footer(
        text=f"{words.builtin_count} built-in words in use · add: /henyo words add · remove: /henyo words remove"
    )
    embeds.append(first)
    if words.builtin:
        by_category: dict[str, list[str]] = {}
        for w in words.builtin:
            by_category.setdefault(
                f"{w.category} · {LANGUAGES.get(w.language, w.language)}", []
            ).append(escape(w.text))
        for title, items in list(by_category.items())[:9]:
            embeds.append(
                discord.Embed(
                    title=f"Built-in: {title}",
                    description=", ".join(items)[:1500],
                    colour=EMBED_COLOUR,
                )
            )
    # Discord allows 6,000 characters over all embeds of one message.
    while sum(len(e) for e in embeds) > 5800 and len(embeds) > 1:
        embeds.pop()
    return embeds
