"""Scrabble's invitations, and what a member is told privately: the answer to a move,
their rack, their games."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from bot.messages.scrabble.names import (
    HOW_TO_PLAY,
    NAME_CHARS,
    game_title,
    lexicon_display_name,
    tiles_text,
)
from bot.messages.text import clip, plain, relative_time


def invite_text(
    number: int,
    labels: Sequence[str],
    rules: str,
    word_list: str,
    *,
    status: str,
    waiting: Sequence[str],
    thread_id: int | None,
) -> str:
    """The invitation (and, once it is answered, what became of it)."""
    seat_lines = [f"Seat {seat + 1}: {label}" for seat, label in enumerate(labels)]
    text = (
        f"**{game_title(number)}** — {', '.join(labels)}\n"
        + "\n".join(seat_lines)
        + f"\nRules: {rules} · word list: {plain(lexicon_display_name(word_list))}"
    )
    if status == "invited":
        waiting_for = ", ".join(plain(name, NAME_CHARS) for name in waiting)
        return text + (
            f"\nWaiting for {waiting_for} to press **Accept**." if waiting else EVERYONE_ACCEPTED
        )
    if status == "abandoned":
        return text + "\nThis invitation is closed."
    return (
        text
        + "\nEveryone accepted: the game is on"
        + (f" in <#{thread_id}>." if thread_id else ".")
    )


def member_twice(name: str) -> str:
    return (
        f"{plain(name, NAME_CHARS)} is named twice: each member can take only one place "
        "in a game (and you can't play yourself). Nothing was made."
    )


def partner_without_seat(index: int) -> str:
    """``index``: 2 for ``opponent2_partner``, 3 for ``opponent3_partner``."""
    return (
        f"`opponent{index}_partner` is the partner of `opponent{index}`: "
        f"name `opponent{index}` too."
    )


EVERYONE_ACCEPTED = "\nEveryone accepted."


def declined(text: str, name: str) -> str:
    return text + f"\n{plain(name, NAME_CHARS)} declined."


def thread_name(number: int, names: Sequence[str]) -> str:
    """A thread's name: Discord shows it as it is (no markdown), so names are not escaped."""
    return f"{game_title(number)}: " + " vs ".join(names)


def invite_post(pings: str, inviter_mention: str, invite: str) -> str:
    return (
        f"{pings} — {inviter_mention} invites you to Scrabble. Press **Accept** to play.\n{invite}"
    )


def against_computer(member_mention: str, invite: str) -> str:
    return f"{member_mention} plays Scrabble against me.\n{invite}"


def game_is_on(invite: str, home_channel_id: int | None, *, everyone: bool) -> str:
    """The invitation once the game is dealt (its buttons gone)."""
    where = f" in <#{home_channel_id}>" if home_channel_id else ""
    lead = "Everyone accepted: the game is on" if everyone else "The game is on"
    return invite.replace(EVERYONE_ACCEPTED, "") + f"\n{lead}{where}."


def first_draw(number: int, rules: str, draws: Sequence[tuple[str, str]], first: str) -> str:
    """The opening post: ``draws`` are ``(label, tile)`` of the draw for first play."""
    text = f"**{game_title(number)}** starts. Rules: {rules}."
    if draws:
        drawn = ", ".join(
            f"{label} drew {'a blank' if tile == '?' else tile}" for label, tile in draws
        )
        text += f"\nDraw for first play: {drawn}."
    return text + f" First to play: {first}.\n{HOW_TO_PLAY}"


# -- what the member who acted is told -------------------------------------------------------------


def played(
    main_word: str,
    position: str,
    score: int,
    *,
    bingo: bool,
    words: Sequence[tuple[str, int]],
    drawn: str,
) -> str:
    also = f" ({', '.join(f'{w} {s}' for w, s in words)})" if len(words) > 1 else ""
    got = tiles_text(drawn, "nothing (the bag is empty)")
    return (
        f"You played {main_word} at {position} for {score}"
        f"{' — bingo!' if bingo else ''}{also}. You drew {got}."
    )


def exchanged(drawn: str) -> str:
    count = len(drawn)
    return f"You exchanged {count} tile{'s' if count != 1 else ''} and drew {' '.join(drawn)}."


PASSED = "You passed."
RESIGNED = "You resigned from the game."


def challenge_result(
    *, withdrawn: bool, invalid: Sequence[str], words: Sequence[str], lost_turn: bool
) -> str:
    if withdrawn:
        return f"Your challenge succeeded: {', '.join(invalid)} is not in the word list."
    verb = "is" if len(words) == 1 else "are"
    penalty = " You lose your next turn." if lost_turn else ""
    return f"The play stands: {', '.join(words)} {verb} in the word list.{penalty}"


def accepted_final_play(over: bool) -> str:
    return (
        "You accepted the final play: the game is over." if over else "You accepted the final play."
    )


def not_your_turn(label: str) -> str:
    return f"It's not your turn: it's {label}'s turn. Nothing was changed."


def board_elsewhere(home_channel_id: int | None, here: int | None) -> str:
    """Said after an answer given outside the game's thread."""
    if home_channel_id and home_channel_id != here:
        return f" The board is in <#{home_channel_id}>."
    return ""


def rack_text(tiles: str) -> str:
    return f"Your rack: {tiles_text(tiles, '(empty)')}"


def rack_message(rack: str, summary: str) -> str:
    return clip(f"{rack}\n\n{summary}")


# -- lists ---------------------------------------------------------------------------------------


def game_label(number: int, status: str, opponents: str, your_turn: bool) -> str:
    """One of a member's games, as a list or an autocomplete shows it."""
    state = {"invited": "invitation open", "finished": "finished", "abandoned": "abandoned"}.get(
        status, "your turn" if your_turn else "their turn"
    )
    return f"#{number} vs {opponents} · {state}"


NO_GAMES = "You have no Scrabble game running here. Start one with `/scrabble new`."


def games_list(rows: Sequence[tuple[str, datetime | None, int | None]]) -> str:
    """``/scrabble games``: ``(label, turn clock's end, thread)`` of each game."""
    if not rows:
        return NO_GAMES
    lines = ["**Your Scrabble games**"]
    for label, due, home in rows:
        line = label
        if due is not None:
            line += f" · clock ends {relative_time(due)}"
        if home:
            line += f" · <#{home}>"
        lines.append(line)
    return clip("\n".join(lines))


def gcg_export(number: int) -> str:
    return f"{game_title(number)}, as GCG."


def position_choice(position: str, across: bool, word: str, score: int) -> str:
    return f"{position} {'across' if across else 'down'} — {word}, {score} points"
