"""Every games-event text: refusals, replies, the event's posts (opened, a round
started, a pair moved up, the final standings with winners and prizes).

Names and prize lines are members' text: they go through ``plain`` (no pings,
no markdown). Posts are cut to Discord's message limit.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Protocol

from bot.messages.i18n import N_, _, ngettext
from bot.messages.limits import MESSAGE_CHARS, MESSAGE_MARGIN
from bot.messages.text import clip, number, plain
from engines.henyo import format_time


# What the texts read, as the service's views (bot.services.events.snapshots) have it.
class PairSnapshot(Protocol):
    @property
    def place(self) -> int: ...
    @property
    def names(self) -> tuple[str, str]: ...
    @property
    def waiting(self) -> bool: ...


class EventSnapshot(Protocol):
    @property
    def id(self) -> int: ...
    @property
    def name(self) -> str: ...
    @property
    def capacity(self) -> int: ...
    @property
    def playing(self) -> Sequence[PairSnapshot]: ...
    @property
    def waiting(self) -> Sequence[PairSnapshot]: ...
    @property
    def started(self) -> Sequence[str]: ...
    @property
    def host_id(self) -> int: ...
    @property
    def games(self) -> Sequence[str]: ...
    @property
    def status(self) -> str: ...


class Row(Protocol):
    @property
    def place(self) -> int | None: ...
    @property
    def names(self) -> tuple[str, ...]: ...
    @property
    def status(self) -> str: ...
    @property
    def value(self) -> float | None: ...
    @property
    def spread(self) -> int | None: ...


class GameTable(Protocol):
    @property
    def game(self) -> str: ...
    @property
    def state(self) -> str: ...
    @property
    def rows(self) -> Sequence[Row]: ...
    @property
    def winners(self) -> Sequence[Row]: ...


class Prize(Protocol):
    @property
    def game(self) -> str: ...
    @property
    def place(self) -> int: ...
    @property
    def text(self) -> str: ...


class EventStandings(Protocol):
    @property
    def event(self) -> EventSnapshot: ...
    @property
    def tables(self) -> Sequence[GameTable]: ...
    def prizes_of(self, game: str) -> Sequence[Prize]: ...


LIMIT = MESSAGE_CHARS - MESSAGE_MARGIN
NAME_CHARS = 40
ROWS_SHOWN = 10

GAME_NAMES = {
    "henyo": N_("Library Henyo"),
    "boggle": N_("Word Boggle"),
    "scrabble": N_("Scrabble"),
    "chess": N_("Chess"),
}

# ---------------------------------------------------------------------- refusals

MODERATORS_HOST = N_("Only moderators open a games event (the host may see the Henyo words).")
CHANNEL_HAS_EVENT = N_(
    "This channel already has an open games event: `/event close` it first, or open one in another channel."
)
NO_OPEN_EVENT = N_("There is no open games event here: a moderator opens one with `/event open`.")
NO_EVENTS_YET = N_("No games event yet: a moderator opens one with `/event open`.")
PARTNER_IS_YOU = N_("Your partner must be someone else.")
PARTNER_IS_BOT = N_("Your partner must be a member of the club, not a bot.")
EMPTY_PRIZE = N_("Write the prize, like `Book voucher`.")
UNKNOWN_FORMAT = N_("The format is `round_robin`, `knockout` or `swiss` (with `rounds`).")
HENYO_EVENT_HERE = N_(
    "This channel already has an open Henyo event: close it with `/henyo event close` first."
)
REGISTER = N_("Register a pair")
PICK_PARTNER = N_("Pick your partner for {event}:")


def pick_partner(event: str) -> str:
    return _(PICK_PARTNER).format(event=f"**{plain(event, 100)}**")


PARTNER_PLACEHOLDER = N_("Your partner")


def game_name(game: str) -> str:
    return _(GAME_NAMES[game]) if game in GAME_NAMES else plain(game)


def _games(games: Iterable[str]) -> str:
    return ", ".join(game_name(g) for g in games)


def _pair(names: Sequence[str]) -> str:
    return " & ".join(plain(n, NAME_CHARS) for n in names)


def unknown_game(word: str) -> str:
    return _("Unknown game {game}: a games event holds henyo, boggle, scrabble and chess.").format(
        game=f"`{plain(word, 30)}`"
    )


def pairs_range(most: int) -> str:
    return _("An event has 2 to {most} pairs.").format(most=most)


def place_range(most: int) -> str:
    return _("A prize is for places 1 to {most}.").format(most=most)


def prize_too_long(most: int) -> str:
    return _("A prize line is at most {most} characters.").format(most=most)


def no_event(ref: int) -> str:
    return _("There is no games event #{id} in this server.").format(id=ref)


def several_events(ids: Sequence[int]) -> str:
    return _("Several games events are open: name one with `event:` ({ids}).").format(
        ids=", ".join(f"#{i}" for i in ids)
    )


def host_only(host_id: int) -> str:
    return _("Only the host (<@{host}>) or a moderator can do that.").format(host=host_id)


def event_closed(name: str) -> str:
    return _("{event} is closed.").format(event=f"**{plain(name)}**")


def default_name() -> str:
    return _("Play games and win prizes")


def what(name: str) -> str:
    """The event as the sign-up refusals name it."""
    return _("the games event {event}").format(event=f"**{plain(name)}**")


def registration_over(name: str) -> str:
    return _("The games of {event} have started: registration is over.").format(
        event=f"**{plain(name)}**"
    )


def withdraw_too_late(name: str) -> str:
    return _("The games of {event} have started: ask the host if you cannot play.").format(
        event=f"**{plain(name)}**"
    )


def game_not_in_event(game: str, games: Sequence[str]) -> str:
    return _("{game} is not one of this event's games ({games}).").format(
        game=game_name(game), games=_games(games)
    )


def round_started_already(game: str) -> str:
    return _("The {game} round of this event has started already.").format(game=game_name(game))


def game_not_loaded(game: str) -> str:
    return _("{game} is not available on this bot right now.").format(game=game_name(game))


def too_few_pairs(count: int, least: int) -> str:
    return ngettext(
        "A round needs at least {least} pairs; {count} pair is registered.",
        "A round needs at least {least} pairs; {count} pairs are registered.",
        count,
    ).format(least=least, count=count)


def tournament_name(event: str, game: str) -> str:
    return _("{event} — {game}").format(event=event, game=game_name(game))


# ---------------------------------------------------------------------- posts


def opened_post(event_id: int, name: str, games: Sequence[str], pairs: int, host_id: int) -> str:
    lines = [
        "🏆 "
        + _("**{event}** (games event #{id}), hosted by <@{host}>").format(
            event=plain(name), id=event_id, host=host_id
        ),
        _("Games: {games}.").format(games=_games(games)),
        ngettext(
            "The first {count} pair to register plays; later pairs wait and move up if a pair withdraws.",
            "The first {count} pairs to register play; later pairs wait and move up if a pair withdraws.",
            pairs,
        ).format(count=pairs),
        _("Register with the button or `/event register partner:`; `/event withdraw` leaves."),
    ]
    return "\n".join(lines)


def card(view: EventSnapshot) -> str:
    """The sign-up card as it stands: open for registration until the first round
    starts; then it says registration is closed, and at the end that the event is over."""
    if view.status == "open" and not view.started:
        return opened_post(view.id, view.name, view.games, view.capacity, view.host_id)
    lines = [
        "🏆 "
        + _("**{event}** (games event #{id}), hosted by <@{host}>").format(
            event=plain(view.name), id=view.id, host=view.host_id
        ),
        _("Games: {games}.").format(games=_games(view.games)),
    ]
    if view.status == "open":
        lines.append(
            _(
                "Registration is closed: the games have started. `/event standings` shows how "
                "each game stands."
            )
        )
    else:
        lines.append(_("This event is over: its final standings and prizes are posted below."))
    return "\n".join(lines)


def moved_up_post(event: str, names: Sequence[str], place: int) -> str:
    return "⬆️ " + _(
        "{pair} move up from the waiting list of {event}: they play as pair {place}."
    ).format(pair=f"**{_pair(names)}**", event=f"**{plain(event)}**", place=place)


def moved_up_dm(event: str, place: int, channel_id: int) -> str:
    return "⬆️ " + _(
        "Your pair moved up from the waiting list of {event}: you play as pair {place}. "
        "Watch {channel} for the games."
    ).format(event=f"**{plain(event)}**", place=place, channel=f"<#{channel_id}>")


def moved_up_fallback(event: str, place: int) -> str:
    return _(
        "your pair moved up from the waiting list of {event}: you play as pair {place}."
    ).format(event=f"**{plain(event)}**", place=place)


def henyo_round(event: str, pairs: int) -> str:
    return "🎯 " + ngettext(
        "**{event}**: the Library Henyo round is on, for {count} pair. "
        "The host runs each word with `/henyo start`; `/henyo standings` shows the times.",
        "**{event}**: the Library Henyo round is on, for {count} pairs. "
        "The host runs each word with `/henyo start`; `/henyo standings` shows the times.",
        pairs,
    ).format(event=plain(event), count=pairs)


def boggle_round(pairs: int) -> str:
    return "🔤 " + ngettext(
        "This Word Boggle round is the games event's, for {count} pair: each pair submits one "
        "list. Either partner may DM words; the pair's list is the one its partner sent last.",
        "This Word Boggle round is the games event's, for {count} pairs: each pair submits one "
        "list. Either partner may DM words; the pair's list is the one its partner sent last.",
        pairs,
    ).format(count=pairs)


# ---------------------------------------------------------------------- replies


def opened_reply(view: EventSnapshot) -> str:
    return _("Games event #{id} is open: the sign-up post is in this channel.").format(id=view.id)


def registered(pair: PairSnapshot, capacity: int) -> str:
    names = f"**{_pair(pair.names)}**"
    if pair.waiting:
        return _(
            "{pair} are on the waiting list (#{place}): you move up if a pair withdraws."
        ).format(pair=names, place=pair.place)
    return _("{pair} are registered: pair {place} of {capacity}.").format(
        pair=names, place=pair.place, capacity=capacity
    )


def withdrawn(moved: Sequence[PairSnapshot]) -> str:
    text = _("Your pair has withdrawn.")
    for pair in moved:
        text += " " + _("{pair} move up and have been told.").format(
            pair=f"**{_pair(pair.names)}**"
        )
    return text


def round_started(game: str, pairs: int) -> str:
    return ngettext(
        "The {game} round has started for {count} pair.",
        "The {game} round has started for {count} pairs.",
        pairs,
    ).format(game=game_name(game), count=pairs)


def prize_written(prize: Prize) -> str:
    return _("Prize for {game}, place {place}: {prize}").format(
        game=game_name(prize.game), place=prize.place, prize=plain(prize.text, 200)
    )


def unfinished(games: Sequence[str]) -> str:
    return _(
        "Still under way or not started: {games}. Close anyway with `/event close confirm:True` "
        "(they are scored as they stand)."
    ).format(games=_games(games))


def closed_reply(name: str) -> str:
    return _("{event} is closed: the final standings are posted here.").format(
        event=f"**{plain(name)}**"
    )


# ---------------------------------------------------------------------- standings

STATES = {
    "not_started": N_("not started"),
    "playing": N_("under way"),
    "done": N_("finished"),
}
NOT_FINISHED = N_("not finished")
NO_WINNER = N_("no winner: the game was not finished")
STATUSES = {
    "eliminated": N_("eliminated"),
    "disqualified": N_("disqualified"),
    "not_played": N_("not played yet"),
    "no_list": N_("sent no list"),
    "withdrawn": N_("withdrawn"),
}


def _value(game: str, row: Row) -> str:
    if row.status in STATUSES and row.value is None:
        return _(STATUSES[row.status])
    if row.value is None:
        return "–"
    if game == "henyo":
        return format_time(int(row.value))
    if game == "boggle":
        count = int(row.value)
        return ngettext("{count} point", "{count} points", count).format(count=count)
    points = number(row.value)
    many = 1 if row.value == 1 else 2  # ½ and 1½ read as plurals
    if row.spread is not None:
        return ngettext(
            "{points} point, spread {spread}", "{points} points, spread {spread}", many
        ).format(points=points, spread=f"{row.spread:+d}")
    return ngettext("{points} point", "{points} points", many).format(points=points)


def row_value(game: str, row: Row) -> str:
    """A pair's result in a game's standings, as the posts and the web page show it."""
    return _value(game, row)


def table_lines(table: GameTable, *, final: bool = False) -> list[str]:
    """A game's standings; in the event's final post a game still going says it was
    not finished (the event is over: nothing is under way any more)."""
    state = _(NOT_FINISHED) if final and table.state == "playing" else _(STATES[table.state])
    lines = [_("**{game}** — {state}").format(game=game_name(table.game), state=state)]
    for row in table.rows[:ROWS_SHOWN]:
        place = f"**{row.place}.**" if row.place is not None else "–"
        lines.append(f"{place} {_pair(row.names)} — {_value(table.game, row)}")
    hidden = len(table.rows) - ROWS_SHOWN
    if hidden > 0:
        lines.append(
            ngettext("…and {count} more pair", "…and {count} more pairs", hidden).format(
                count=hidden
            )
        )
    return lines


def _prize_lines(result: EventStandings, table: GameTable, *, final: bool = False) -> list[str]:
    lines = []
    winners = table.winners
    prizes = {p.place: p.text for p in result.prizes_of(table.game)}
    if winners:
        names = ", ".join(f"**{_pair(w.names)}**" for w in winners)
        line = "🏅 " + _("{game} winners: {names}").format(game=game_name(table.game), names=names)
        if 1 in prizes:
            line += " — " + plain(prizes[1], 200)
        lines.append(line)
    for place, text in sorted(prizes.items()):
        if place == 1 and winners:
            continue
        holders = [r for r in table.rows if r.place == place and r.status == "ranked"]
        if table.state != "done":
            who = _(NO_WINNER) if final else "–"
        else:
            who = ", ".join(_pair(r.names) for r in holders) if holders else "–"
        lines.append(
            _("{game}, place {place}: {prize} ({who})").format(
                game=game_name(table.game), place=place, prize=plain(text, 200), who=who
            )
        )
    return lines


def standings_text(result: EventStandings) -> str:
    event = result.event
    lines = [
        "📋 "
        + _("**{event}** (games event #{id}) — standings").format(
            event=plain(event.name), id=event.id
        )
    ]
    if not event.started:
        lines.append(
            ngettext(
                "{count} pair registered of {capacity}.",
                "{count} pairs registered of {capacity}.",
                len(event.playing),
            ).format(count=len(event.playing), capacity=event.capacity)
        )
        for pair in event.playing:
            lines.append(f"{pair.place}. {_pair(pair.names)}")
        if event.waiting:
            lines.append(_("Waiting list:"))
            lines.extend(f"{pair.place}. {_pair(pair.names)}" for pair in event.waiting)
    for table in result.tables:
        lines.append("")
        lines.extend(table_lines(table))
        lines.extend(_prize_lines(result, table))
    return clip("\n".join(lines), LIMIT)


def final_post(result: EventStandings) -> str:
    event = result.event
    lines = ["🏁 " + _("**{event}** is over: the final standings").format(event=plain(event.name))]
    for table in result.tables:
        if table.state == "not_started":
            continue
        lines.append("")
        lines.extend(table_lines(table, final=True))
    winners = [line for table in result.tables for line in _prize_lines(result, table, final=True)]
    if winners:
        lines.append("")
        lines.append("🏆 " + _("**Winners and prizes**"))
        lines.extend(winners)
    lines.append("")
    lines.append(_("Congratulations, and thank you for playing! `/stats` keeps your event record."))
    return clip("\n".join(lines), LIMIT)
