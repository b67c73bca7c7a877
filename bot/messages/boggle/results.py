"""A Word Boggle round's results as stored and shown: the summary the score job
keeps on the round, the results post (text, an embed of every list, the grid
and a text file of everything), the season's table and its end.

The summary (``RoundSummary``) is the round's stored JSON; the results post
and ``/boggle results`` are both built from it, so they read the same.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol, TypedDict

from bot.messages.boggle.rounds import TEXT_RENDERER, grid_file, letters_text
from bot.messages.i18n import N_, _, ngettext
from bot.messages.limits import (
    EMBED_FIELD_VALUE_CHARS,
    MESSAGE_CHARS,
)
from bot.messages.post import FileSpec, Post
from bot.messages.text import clip, plain
from engines.boggle import Grid, WordStatus, display_blocklist

RESULTS_FIELDS = 25  # Discord's limit of fields per embed
EMBED_FIELD_NAME_CHARS = 256
# Under Discord's 6,000 characters per message, leaving room for the title and footer.
RESULTS_EMBED_CHARS = 5500
RESULTS_COLOUR = 0x1C3460
RANKED_IN_CONTENT = 15

STATUS_LABELS = {  # message ids: shown through _()
    WordStatus.SCORED.value: N_("Scored"),
    WordStatus.CANCELLED.value: N_("Cancelled (on another list too)"),
    WordStatus.NOT_ON_GRID.value: N_("Not on the grid"),
    WordStatus.NOT_A_WORD.value: N_("Not a word"),
    WordStatus.TOO_SHORT.value: N_("Too short"),
}
STATUS_ORDER = tuple(STATUS_LABELS)


class PlayerSummary(TypedDict):
    id: int
    name: str
    rank: int
    total: int
    words: list[tuple[str, str, int]]  # word, status, points (a JSON array when stored)


class RoundSummary(TypedDict):
    """A scored round's results, stored on the round as JSON."""

    round_id: int
    number: int
    grid: str
    size: int
    min_length: int
    ends_at: str | None
    season: str
    players: list[PlayerSummary]  # best first; on a tie, first to send first
    winners: list[int]
    missed: list[tuple[str, int]]  # the best words nobody found, with their points
    words_on_grid: int
    points_on_grid: int


class PreviousSeason(TypedDict):
    """The season before this one, stored with the season: who won it, how, and when."""

    number: int
    winners: list[tuple[int, str]]  # player id, name
    points: float
    ended_at: str
    reason: str


class StandingFacts(Protocol):
    @property
    def name(self) -> str: ...
    @property
    def points(self) -> float: ...


def _plural_count(value: float) -> int:
    """The count a plural form is chosen by (a fraction takes the plural)."""
    return int(value) if float(value).is_integer() else 2


def points_text(value: float) -> str:
    return ngettext("{points} point", "{points} points", _plural_count(value)).format(
        points=f"{value:g}"
    )


def shown_missed(summary: RoundSummary) -> list[tuple[str, int]]:
    """The best words nobody found, as shown: never a word on the display blocklist.

    Scoring leaves those out already; this also cleans results stored before it did.
    """
    hidden = display_blocklist()
    return [(word, points) for word, points in summary.get("missed") or () if word not in hidden]


def _name_of(summary: RoundSummary, player_id: int) -> str:
    return next((p["name"] for p in summary["players"] if p["id"] == player_id), str(player_id))


def _and(items: Sequence[str]) -> str:
    return _(" and ").join(items)


def winner_line(summary: RoundSummary, *, markdown: bool = True) -> str:
    """Who won; ``markdown=False`` for the text file (names as written, no bold)."""
    winners = summary["winners"]
    if not summary["players"]:
        return _("Nobody sent any words this round.")
    if not winners:
        return _("Nobody scored this round.")
    top = summary["players"][0]["total"]
    shown = [_name_of(summary, w) for w in winners]
    names = _and([f"**{plain(name)}**" if markdown else name for name in shown])
    if len(winners) > 1:
        text = _("Tie: {names} win with {points}.")
    else:
        text = _("{names} wins with {points}.")
    prize = "🏆 " if markdown else ""
    return prize + text.format(names=names, points=points_text(top))


def standings_text(standings: Sequence[StandingFacts], limit: int = 10) -> str:
    shown = [f"{i}. {plain(s.name)} {s.points:g}" for i, s in enumerate(standings[:limit], start=1)]
    return " · ".join(shown) if shown else _("no points yet")


def player_lines(player: PlayerSummary) -> list[str]:
    """One line per word status, e.g. "Scored: QUIT (1), TONE (1)"."""
    by_status: dict[str, list[str]] = {status: [] for status in STATUS_ORDER}
    for word, status, points in player["words"]:
        shown = word.upper() + (f" ({points})" if status == WordStatus.SCORED.value else "")
        by_status.setdefault(status, []).append(shown)
    lines = [
        f"{_(STATUS_LABELS.get(s, s))}: {', '.join(words)}"
        for s, words in by_status.items()
        if words
    ]
    return lines or [_("No words.")]


def _grid_rows(summary: RoundSummary) -> tuple[tuple[str, ...], ...]:
    return Grid.parse(summary["grid"]).rows


def _grid_held(summary: RoundSummary) -> str:
    return _("The grid held {words} words worth {points} points.").format(
        words=summary["words_on_grid"], points=summary["points_on_grid"]
    )


def results_content(
    summary: RoundSummary, standings: Sequence[StandingFacts], season_number: int, target: int
) -> str:
    lines = [
        "📋 " + _("**Word Boggle — round #{number} results**").format(number=summary["number"]),
        _("Letters, row by row: {letters}").format(letters=letters_text(_grid_rows(summary))),
        winner_line(summary),
    ]
    players = summary["players"]
    if players:
        ranking = " · ".join(
            f"{p['rank']}. {plain(p['name'])} {p['total']:g}" for p in players[:RANKED_IN_CONTENT]
        )
        more = len(players) - RANKED_IN_CONTENT
        if more > 0:
            ranking += " · " + _("…and {count} more").format(count=more)
        lines.append(_("Round: {ranking}").format(ranking=ranking))
    missed = shown_missed(summary)
    if missed:
        lines.append(
            _("Best words nobody found: {words}").format(
                words=" · ".join(f"{w.upper()} ({p})" for w, p in missed)
            )
        )
    lines.append(_grid_held(summary))
    lines.append(
        _("Season {number} (first to {target}): {standings}").format(
            number=season_number, target=target, standings=standings_text(standings)
        )
    )
    return clip("\n".join(lines), MESSAGE_CHARS)


def results_embed(summary: RoundSummary) -> dict[str, Any] | None:
    """Each player's words marked scored / cancelled / not on grid / not a word / too short."""
    if not summary["players"]:
        return None
    fields: list[dict[str, Any]] = []
    used, left_out = 0, 0
    for player in summary["players"]:
        name = clip(
            f"{player['rank']}. {plain(player['name'])} — {points_text(player['total'])}",
            EMBED_FIELD_NAME_CHARS,
        )
        value = clip("\n".join(player_lines(player)), EMBED_FIELD_VALUE_CHARS)
        if len(fields) >= RESULTS_FIELDS or used + len(name) + len(value) > RESULTS_EMBED_CHARS:
            left_out += 1
            continue
        fields.append({"name": name, "value": value, "inline": False})
        used += len(name) + len(value)
    embed: dict[str, Any] = {
        "title": _("Round #{number} — every list").format(number=summary["number"]),
        "color": RESULTS_COLOUR,
        "fields": fields,
    }
    if left_out:
        embed["footer"] = {
            "text": ngettext(
                "{count} more player: every list is in the attached file.",
                "{count} more players: every list is in the attached file.",
                left_out,
            ).format(count=left_out)
        }
    return embed


def results_text_file(summary: RoundSummary) -> str:
    """Everything, untruncated: attached to the results for long lists and screen readers."""
    rows = _grid_rows(summary)
    out = [_("Word Boggle - round #{number}").format(number=summary["number"]), ""]
    out += [
        _("Grid:"),
        *("  " + " ".join(f"{face:<2}" for face in row).rstrip() for row in rows),
        "",
    ]
    out.append(winner_line(summary, markdown=False))
    out.append("")
    for player in summary["players"]:
        out.append(f"{player['rank']}. {player['name']} - {points_text(player['total'])}")
        out += [f"   {line}" for line in player_lines(player)]
        out.append("")
    missed = shown_missed(summary)
    if missed:
        out.append(
            _("Best words nobody found: {words}").format(
                words=", ".join(f"{w.upper()} ({p})" for w, p in missed)
            )
        )
    out.append(_grid_held(summary))
    return "\n".join(out) + "\n"


def results_filename(number: int) -> str:
    return f"boggle-round-{number}.txt"


def results_file_alt_text(number: int) -> str:
    return _("Word Boggle round {number}: every player's words and points, as text.").format(
        number=number
    )


def results_text_spec(summary: RoundSummary) -> FileSpec:
    return FileSpec(
        TEXT_RENDERER,
        {"filename": results_filename(summary["number"]), "text": results_text_file(summary)},
        results_file_alt_text(summary["number"]),
    )


def results_post(
    summary: RoundSummary, standings: Sequence[StandingFacts], season_number: int, target: int
) -> Post:
    embed = results_embed(summary)
    return Post(
        content=results_content(summary, standings, season_number, target),
        embeds=(embed,) if embed is not None else (),
        files=(grid_file(_grid_rows(summary), summary["number"]), results_text_spec(summary)),
    )


SEASON_END_REASONS = {  # message ids with a {target} field
    "target": N_("first to {target} points"),
    "moderator": N_("ended by a moderator"),
    "schedule": N_("the season's time is up"),
}


def season_end(
    number: int,
    winners: Sequence[tuple[int, str]],
    points: float,
    reason: str,
    next_number: int,
    target: int,
) -> Post:
    why = _(SEASON_END_REASONS[reason]).format(target=target)
    if winners:
        names = _and([f"**{plain(name)}**" for _id, name in winners])
        if len(winners) > 1:
            text = _("{names} win Word Boggle season {number} with {points} ({why})!")
        else:
            text = _("{names} wins Word Boggle season {number} with {points} ({why})!")
        head = "🎉 " + text.format(names=names, number=number, points=points_text(points), why=why)
    else:
        head = _("Word Boggle season {number} is over ({why}); nobody scored in it.").format(
            number=number, why=why
        )
    starts = _("Season {number} starts now: everyone is back to 0.").format(number=next_number)
    return Post(content=f"{head}\n{starts}")
