"""The words of ``/mygames``: one line per thing waiting on the member."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from bot.messages.i18n import N_, _
from bot.messages.text import absolute_time, clip, plain, relative_time

TITLE = N_("Waiting on you here")
NOTHING = N_(
    "Nothing is waiting on you here: no game, no open Boggle round, no Henyo event. "
    "`/scrabble seek` or `/chess seek` finds you a game."
)
BOARD_BUTTON = N_("{game} board")  # a link button's label: "Chess #3 board"


@dataclass(frozen=True)
class WaitingItem:
    """One thing on the member's list."""

    kind: str  # scrabble | chess | boggle | henyo
    number: int  # the game's, round's or event's number as members see it
    place_id: int | None  # its thread (or channel): a link
    opponents: tuple[str, ...] = ()  # names as they are (escaped when shown)
    your_move: bool = False  # the member's turn, or theirs to answer
    invited: bool = False  # an invitation (the member's to accept when ``your_move``)
    due: datetime | None = None  # the clock of the side to move, a round's end
    tournament: str | None = None  # the tournament's or league's name, for its games
    waiting_list: bool = False  # Henyo: the pair waits for a place
    url: str | None = None  # the member's board link (only ever shown to them)
    link_kind: str | None = None  # a board link's kind (bot.services.board_links.Kind)
    link_id: int = 0
    agreed_at: datetime | None = None  # the time its players agreed (/schedule)


@dataclass(frozen=True)
class WaitingList:
    items: tuple[WaitingItem, ...]
    more: int  # how many more were left off


def game_name(kind: str, number: int) -> str:
    if kind == "chess":
        return _("Chess #{number}").format(number=number)
    if kind == "scrabble":
        return _("Scrabble #{number}").format(number=number)
    if kind == "boggle":
        return _("Boggle round #{number}").format(number=number)
    return _("Library Henyo")


def _where(item: WaitingItem) -> str:
    return f" · <#{item.place_id}>" if item.place_id else ""


def item_line(item: WaitingItem) -> str:
    """One item: what, against whom, what waits, until when, where."""
    name = f"**{game_name(item.kind, item.number)}**"
    if item.tournament:
        name += " " + _("({tournament})").format(tournament=plain(item.tournament))
    others = ", ".join(plain(n) for n in item.opponents)
    due = relative_time(item.due) if item.due is not None else None
    if item.kind == "boggle":
        what = (
            _("open: send your word list")
            if due is None
            else (_("open: send your word list before it closes {when}").format(when=due))
        )
        return f"{name}: {what}{_where(item)}"
    if item.kind == "henyo":
        what = (
            _("your pair with {partner} is on the waiting list")
            if item.waiting_list
            else _("your pair with {partner} is in")
        ).format(partner=others)
        return f"{name}: {what}{_where(item)}"
    vs = _("vs {names}").format(names=others) if others else ""
    if item.invited:
        what = (
            _("an invitation for you to accept")
            if item.your_move
            else _("waiting for the others to accept")
        )
    elif item.your_move:
        what = (
            _("your turn")
            if due is None
            else _("your turn, clock runs out {when}").format(when=due)
        )
    else:
        what = (
            _("their turn")
            if due is None
            else _("their turn, clock runs out {when}").format(when=due)
        )
    if item.agreed_at is not None:
        what += " · " + _("agreed time {when}").format(when=absolute_time(item.agreed_at))
    return f"{name} {vs}: {what}{_where(item)}"


def waiting_text(waiting: WaitingList) -> str:
    if not waiting.items:
        return _(NOTHING)
    lines = ["**" + _(TITLE) + "**", *(f"• {item_line(i)}" for i in waiting.items)]
    if waiting.more:
        lines.append(_("…and {count} more.").format(count=waiting.more))
    return clip("\n".join(lines))


def board_button_label(item: WaitingItem) -> str:
    return clip(_(BOARD_BUTTON).format(game=game_name(item.kind, item.number)), 80)
