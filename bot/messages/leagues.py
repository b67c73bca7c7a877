"""Every league text: refusals, replies, the season's posts and tables.

A division's table is monospaced text (a code block), as the tournaments' are;
names inside it cannot ping or format.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from bot.messages.i18n import N_, _, ngettext
from bot.messages.limits import MESSAGE_CHARS, MESSAGE_MARGIN
from bot.messages.text import absolute_time, clip, plain
from bot.messages.tournaments import StandingLine

LIMIT = MESSAGE_CHARS - MESSAGE_MARGIN
GAMES = {"chess": N_("Chess"), "scrabble": N_("Scrabble")}

# ---------------------------------------------------------------------- refusals

UNKNOWN_GAME = N_("A league is for `chess` or `scrabble`.")
NONE = N_("There is no league in this server: `/league new` makes one.")
MOVED_ON = N_("Someone else changed this league at the same moment: look again and retry.")
MODERATORS_MAKE = N_(
    "Only the club's moderators make leagues: ask one to make it (its creator and the "
    "moderators direct it)."
)
NOT_IN_A_THREAD = N_(
    "Make a league in a text channel, not a thread: each of its games gets a thread there."
)
NO_TOURNAMENTS = N_("Leagues need the tournaments, which are not loaded on this bot.")
PAIRS_JOIN = N_("This league is for pairs: join with your partner, `/league join partner:@member`.")
NOT_PAIRS = N_("This league is for players, not pairs: join without a partner.")
CORRESPONDENCE_ONLY = N_(
    "A league plays on a long clock: Scrabble's asynchronous turn clock (an hour or more, "
    "such as `1d` or `3d`), chess's correspondence days (such as `3d`)."
)
RESULT_CHOICES = N_("The result is `win`, `draw` or `loss` (the member's).")
WHAT_ENTER = N_("enter another member")
WHAT_WITHDRAW = N_("withdraw another member")
WHAT_SETTINGS = N_("change the league's settings")
WHAT_START = N_("start the season")
WHAT_ADJUDICATE = N_("adjudicate a game")


def weeks_range(high: int) -> str:
    return _("A season lasts 1 to {high} weeks.").format(high=high)


def size_range(low: int, high: int) -> str:
    return _("A division has {low} to {high} players.").format(low=low, high=high)


def movers_range(high: int) -> str:
    return _("From 0 to {high} move up and down from each division.").format(high=high)


def no_such(league_id: int) -> str:
    return _("There is no league #{id} in this server.").format(id=league_id)


def which_one(live: Sequence[tuple[int, str]]) -> str:
    names = ", ".join(f"#{lid} {plain(name, 40)}" for lid, name in live[:10])
    return _("Several leagues run here ({names}): say which with `league`.").format(names=names)


def directors_only(what: str) -> str:
    return _("Only the league's director (its creator) or a moderator can {what}.").format(
        what=_(what)
    )


def what(name: str, season: int) -> str:
    return _("season {season} of the league {name}").format(season=season, name=plain(name, 60))


def no_season(name: str, number: int) -> str:
    return _("The league {name} has no season {number}.").format(
        name=plain(name, 60), number=number
    )


def season_under_way(name: str, number: int, ends_at: datetime | None) -> str:
    when = absolute_time(ends_at) if ends_at is not None else "?"
    return _(
        "Season {number} of {name} is under way: sign-up for the next season opens when it "
        "ends ({when})."
    ).format(number=number, name=plain(name, 60), when=when)


def no_division(name: str, season: int, number: int) -> str:
    return _("Season {season} of {name} has no division {number}.").format(
        season=season, name=plain(name, 60), number=number
    )


def already_started(name: str, number: int) -> str:
    return _("Season {number} of {name} has started already.").format(
        number=number, name=plain(name, 60)
    )


def not_under_way(name: str, number: int) -> str:
    return _("Season {number} of {name} is not under way.").format(
        number=number, name=plain(name, 60)
    )


def not_playing(member: str, name: str, number: int) -> str:
    return _("{member} is not playing in season {number} of {name}.").format(
        member=plain(member, 40), number=number, name=plain(name, 60)
    )


def no_game_between(first: str, second: str) -> str:
    return _("{first} and {second} have no game together in this season.").format(
        first=plain(first, 40), second=plain(second, 40)
    )


# ---------------------------------------------------------------------- replies


@dataclass(frozen=True)
class LeagueInfo:
    """A league as its posts describe it."""

    id: int
    name: str
    kind: str
    pairs: bool
    weeks: int
    size: int
    movers: int
    clock: str
    season: int


def default_name(kind: str) -> str:
    return _("{game} league").format(game=_(GAMES.get(kind, kind)))


def division_name(name: str, season: int, number: int) -> str:
    return _("{name} S{season} Division {number}").format(
        name=name[:60], season=season, number=number
    )


def _settings(info: LeagueInfo) -> str:
    return _(
        "Seasons of {weeks} weeks · divisions of {size} · {movers} up and {movers} down · "
        "clock {clock}"
    ).format(weeks=info.weeks, size=info.size, movers=info.movers, clock=info.clock)


def created_post(info: LeagueInfo) -> str:
    who = _("pairs") if info.pairs else _("players")
    return _(
        "🏆 **{name}** (league #{id}): a {game} league of {who}.\n{settings}\n"
        "Season 1 is open for sign-up: `/league join`."
    ).format(
        name=plain(info.name, 80),
        id=info.id,
        game=_(GAMES.get(info.kind, info.kind)),
        who=who,
        settings=_settings(info),
    )


def created_reply(league_id: int, name: str) -> str:
    return _(
        "League #{id} **{name}** is made; season 1 is open for sign-up. Start it with "
        "`/league start` when everyone is in."
    ).format(id=league_id, name=plain(name, 80))


def joined(name: str, season: int, names: Sequence[str], place: int) -> str:
    return _("{names}: you're in season {season} of {name} (entry {place}).").format(
        names=" & ".join(plain(n, 40) for n in names),
        season=season,
        name=plain(name, 60),
        place=place,
    )


def left(name: str, season: int) -> str:
    return _("You're off the list for season {season} of {name}.").format(
        season=season, name=plain(name, 60)
    )


def not_carried(name: str) -> str:
    return _(
        "The next season of {name} goes on without this entry (`/league join` to come back)."
    ).format(name=plain(name, 60))


def settings_reply(info: LeagueInfo, playing: bool) -> str:
    text = _("**{name}**: {settings}.").format(name=plain(info.name, 80), settings=_settings(info))
    if playing:
        text += "\n" + _(
            "The weeks, division size and clock apply from the next season; the number moving "
            "up and down applies at this season's end."
        )
    return text


def started(name: str, season: int, count: int, sizes: Sequence[int]) -> str:
    return ngettext(
        "Season {season} of {name} has started: {count} entrants in {divisions} division ({sizes}).",
        "Season {season} of {name} has started: {count} entrants in {divisions} divisions ({sizes}).",
        len(sizes),
    ).format(
        season=season,
        name=plain(name, 60),
        count=count,
        divisions=len(sizes),
        sizes=", ".join(str(s) for s in sizes),
    )


def season_started(info: LeagueInfo, season: int, ends_at: datetime, sizes: Sequence[int]) -> str:
    games = sum(s * (s - 1) // 2 for s in sizes)
    return _(
        "📣 **{name}**, season {season} starts: {divisions} divisions, {games} games, all "
        "started now on the {clock} clock, each in its thread. The season ends {when}; "
        "games unfinished then are scored by the deadline rule."
    ).format(
        name=plain(info.name, 80),
        season=season,
        divisions=len(sizes),
        games=games,
        clock=info.clock,
        when=absolute_time(ends_at),
    )


def adjudicated(division: str, first: str, second: str, result: str) -> str:
    said = {"win": _("a win for {first}"), "draw": _("a draw"), "loss": _("a win for {second}")}
    outcome = said[result].format(first=plain(first, 40), second=plain(second, 40))
    return _("⚖️ **{division}**: {first} – {second} adjudicated by the director: {outcome}.").format(
        division=plain(division, 80),
        first=plain(first, 40),
        second=plain(second, 40),
        outcome=outcome,
    )


# ---------------------------------------------------------------------- tables


@dataclass(frozen=True)
class DivisionTable:
    """A division's standings and how many of its games have a result."""

    number: int
    lines: Sequence[StandingLine]
    played: int
    total: int


def _cell(text: str, width: int) -> str:
    text = text.replace("`", "'")
    return (text if len(text) <= width else text[: width - 1] + "…").ljust(width)


def _points(value: float) -> str:
    whole = int(value)
    if value - whole == 0.5:
        return f"{whole}½" if whole else "½"
    return f"{value:g}"


def _rows(kind: str, lines: Sequence[StandingLine]) -> list[str]:
    tie = _("Spread") if kind == "scrabble" else _("SB")
    rows = [f"{'#':>3} {_cell(_('Entrant'), 24)} {_('Pts'):>4} {tie:>7}"]
    for s in lines:
        mark = " (w)" if s.withdrawn else ""
        value = f"{s.spread:>+7}" if kind == "scrabble" else f"{s.sonneborn_berger:>7g}"
        rows.append(f"{s.rank:>3} {_cell(s.label + mark, 24)} {_points(s.points):>4} {value}")
    return rows


def _division(kind: str, table: DivisionTable) -> str:
    head = _("Division {number} ({played} of {total} games played)").format(
        number=table.number, played=table.played, total=table.total
    )
    return head + "\n```\n" + "\n".join(_rows(kind, table.lines)) + "\n```"


def standings(
    name: str, kind: str, season: int, status: str, tables: Sequence[DivisionTable]
) -> str:
    state = _("finished") if status == "finished" else _("under way")
    text = _("**{name}**, season {season} ({state})").format(
        name=plain(name, 80), season=season, state=state
    )
    for table in tables:
        part = "\n" + _division(kind, table)
        if len(text) + len(part) > LIMIT - 60:
            text += "\n" + _("…and more divisions: `/league standings division:` shows one.")
            break
        text += part
    return clip(text)


def signup_list(name: str, season: int, labels: Sequence[str]) -> str:
    head = _("**{name}**, season {season} is open for sign-up: {count} entered").format(
        name=plain(name, 80), season=season, count=len(labels)
    )
    rows = [f"{i:>2}. {_cell(label, 40)}" for i, label in enumerate(labels, start=1)]
    return clip(head + "\n```\n" + ("\n".join(rows) or _("(nobody yet)")) + "\n```")


def division_final(name: str, kind: str, season: int, table: DivisionTable) -> str:
    head = _("🏁 **{name}**, season {season} is over.").format(name=plain(name, 80), season=season)
    winners = [s.label for s in table.lines if s.rank == 1]
    tail = _("Division {number} winner: {names}! 🎉").format(
        number=table.number, names=" & ".join(plain(w, 40) for w in winners)
    )
    return clip(head + "\n" + _division(kind, table) + "\n" + tail)


def _moves(results: Sequence[Mapping[str, Any]]) -> list[str]:
    lines = []
    for r in results:
        line = _("Division {number}: won by {winners}").format(
            number=r["number"], winners=" & ".join(plain(w, 40) for w in r.get("winners", []))
        )
        if r.get("up"):
            line += " · " + _("up: {names}").format(names=", ".join(plain(n, 40) for n in r["up"]))
        if r.get("down"):
            line += " · " + _("down: {names}").format(
                names=", ".join(plain(n, 40) for n in r["down"])
            )
        lines.append(line)
    return lines


def season_over(
    info: LeagueInfo, season: int, results: Sequence[Mapping[str, Any]], carried: int
) -> list[str]:
    """The season's results: a line per division (its winners, who goes up and down), in
    as many posts as it takes, the next season's sign-up last."""
    head = _("🏆 **{name}**, season {season}: the results").format(
        name=plain(info.name, 80), season=season
    )
    tail = ngettext(
        "Season {next} is open for sign-up: {count} entry who stays is entered already; "
        "newcomers `/league join`, and `/league withdraw` leaves.",
        "Season {next} is open for sign-up: {count} entries who stay are entered already; "
        "newcomers `/league join`, and `/league withdraw` leaves.",
        carried,
    ).format(next=season + 1, count=carried)
    posts: list[str] = []
    current = head
    for line in [*_moves(results), tail]:
        line = clip(line)
        if len(current) + 1 + len(line) > LIMIT:
            posts.append(current)
            current = line
        else:
            current += "\n" + line
    posts.append(current)
    return posts


def season_summary(
    info: LeagueInfo,
    season: int,
    status: str,
    starts_at: datetime | None,
    ends_at: datetime | None,
    entered: int,
    divisions: Sequence[Sequence[str]],
    results: Mapping[str, Any],
) -> str:
    states = {
        "signup": _("open for sign-up"),
        "playing": _("under way"),
        "finished": _("finished"),
    }
    lines = [
        _("**{name}** (league #{id}), season {season}: {state}").format(
            name=plain(info.name, 80), id=info.id, season=season, state=states.get(status, status)
        ),
        _settings(info),
    ]
    if status == "signup":
        lines.append(_("{count} entered so far.").format(count=entered))
    if starts_at is not None and ends_at is not None:
        lines.append(
            _("From {start} to {end}.").format(
                start=absolute_time(starts_at), end=absolute_time(ends_at)
            )
        )
    for number, labels in enumerate(divisions, start=1):
        lines.append(
            _("Division {number}: {names}").format(
                number=number, names=", ".join(plain(n, 40) for n in labels)
            )
        )
    lines += _moves(results.get("divisions", []))
    return clip("\n".join(lines))
