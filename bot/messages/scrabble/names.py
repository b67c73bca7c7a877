"""Scrabble's names and shared phrases: seats, the computer, word lists, tiles, rules."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import PurePath

from bot.messages.i18n import N_, _, ngettext
from bot.messages.text import format_duration, plain

COMPUTER_LEVELS = {
    "casual": "casual (one of its ten best-scoring plays)",
    "equity": "expert (score plus the value of the tiles it keeps)",
    "strong": "greedy (the highest score every turn)",
}

REASONS = {  # message ids: shown through _()
    "out": N_("a player went out"),
    "six_zeros": N_("six scoreless turns in a row"),
    "two_passes": N_("two passes in a row"),
    "deadline": N_("the game's deadline passed"),
    "ended": N_("the moderator ended the session"),
    "target": N_("the finish line was reached"),
    "resign": N_("resignation"),
    "blocked": N_("no seat could make a play"),
}

# Autocomplete labels (message ids: the cog shows them through _()).
CLOCK_SUGGESTIONS = [
    (N_("3m — live, as the society plays"), "3m"),
    (N_("5m — live"), "5m"),
    (N_("1d — asynchronous"), "1d"),
    (N_("2d — asynchronous"), "2d"),
    (N_("3d — asynchronous"), "3d"),
    (N_("off — no turn clock"), "off"),
]
DEADLINE_SUGGESTIONS = [
    (N_("80m — one club session"), "80m"),
    ("1d", "1d"),
    ("3d", "3d"),
    (N_("7d — a week"), "7d"),
    ("14d", "14d"),
    (N_("off — no deadline"), "off"),
]

NAME_CHARS = 64

# How to move, said where the move is needed (the first board, every "your turn" DM).
HOW_TO_PLAY = N_(
    "To play: `/scrabble play word:QUIZ position:8H` (8H goes across from H8, H8 goes down; "
    "a blank as ?x, e.g. qui?z), or `/scrabble exchange`, `/scrabble pass`."
)

# -- names and tiles ------------------------------------------------------------------------


def seat_label(names: Sequence[str]) -> str:
    """A seat as a thread shows it: its members' names, escaped, joined by ``&``."""
    return " & ".join(plain(name, NAME_CHARS) for name in names)


# The levels' short names as members read them (COMPUTER_LEVELS stays the
# command's English choices).
LEVEL_NAMES = {"casual": N_("casual"), "equity": N_("expert"), "strong": N_("greedy")}


def computer_label(level: str | None) -> str:
    """The computer's seat as members read it: ``Computer (casual)``."""
    return _("Computer ({level})").format(level=level_name(level or "?"))


def level_name(level: str) -> str:
    return _(LEVEL_NAMES[level]) if level in LEVEL_NAMES else level


# The finish line's levels, as /scrabble new's target suggestions name them
# (the value typed stays the engine's English key).
FINISH_LINE_LEVELS = {
    "beginner": N_("beginner"),
    "intermediate": N_("intermediate"),
    "expert": N_("expert"),
}


def finish_line_choices(
    targets: dict[str, dict[int, int]], seats: int, typed: str
) -> list[tuple[str, str]]:
    """``(label, value)`` suggestions for the finish line, labels in the club's
    language: each level with its target for ``seats``, and a typed number."""
    options = []
    for level, table in targets.items():
        points = table[seats]
        label = ngettext("{level} — {count} point", "{level} — {count} points", points)
        name = _(FINISH_LINE_LEVELS[level]) if level in FINISH_LINE_LEVELS else level
        options.append((label.format(level=name, count=points), level))
    if typed.strip().isdigit():
        count = int(typed.strip())
        typed_label = ngettext("{count} point", "{count} points", count).format(count=count)
        options.insert(0, (typed_label, typed.strip()))
    return options


def lexicon_display_name(name: str) -> str:
    """A word list's name without its folder and file suffixes."""
    base = PurePath(name).name
    for suffix in (".gz", ".txt", ".dic", ".lst"):
        base = base.removesuffix(suffix)
    return base or name


def tiles_text(tiles: str, empty: str = "") -> str:
    """Tiles as a member reads them: ``A E blank``."""
    return " ".join(_("blank") if t == "?" else t for t in tiles) or empty


def reason_text(reason: str) -> str:
    """Why a game ended, in the active language."""
    return _(REASONS[reason]) if reason in REASONS else reason


def game_title(number: int) -> str:
    return f"Scrabble #{number}"


def rules_text(
    *,
    challenge: str,
    target: int | None,
    rack_size: int,
    clock_seconds: int | None,
    deadline_seconds: int | None,
    end_rule: str,
    explain: bool,
    computer_level: str | None,
    hints: bool,
    computer_seat: bool,
    lookups: bool = True,
) -> str:
    none = _("none")
    parts = [_("challenge: {challenge}").format(challenge=challenge)]
    if target:
        parts.append(_("finish line at {target}").format(target=target))
    if rack_size != 7:
        parts.append(_("{size}-tile racks").format(size=rack_size))
    parts.append(
        _("turn clock: {clock}").format(
            clock=format_duration(clock_seconds) if clock_seconds else none
        )
    )
    parts.append(
        _("game deadline: {deadline}").format(
            deadline=format_duration(deadline_seconds) if deadline_seconds else none
        )
    )
    if end_rule == "two_passes":
        parts.append(_("ends after two passes in a row by one player"))
    if explain:
        parts.append(_("explain the word"))
    if not lookups:
        parts.append(_("word lookups off"))
    if computer_level:
        parts.append(_("computer: {level}").format(level=level_name(computer_level)))
    if hints:
        parts.append(_("hints on (not rated)"))
    elif computer_seat:
        parts.append(_("not rated"))
    return " · ".join(parts)
