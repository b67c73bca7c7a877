"""Scrabble's invitations, and what a member is told privately: the answer to a move,
their rack, their games."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from bot.messages.i18n import N_, _, ngettext
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
    seat_lines = [
        _("Seat {number}: {seat}").format(number=seat + 1, seat=label)
        for seat, label in enumerate(labels)
    ]
    text = (
        f"**{game_title(number)}** — {', '.join(labels)}\n"
        + "\n".join(seat_lines)
        + "\n"
        + _("Rules: {rules} · word list: {word_list}").format(
            rules=rules, word_list=plain(lexicon_display_name(word_list))
        )
    )
    if status == "invited":
        waiting_for = ", ".join(plain(name, NAME_CHARS) for name in waiting)
        if waiting:
            return (
                text
                + "\n"
                + _("Waiting for {names} to press **Accept**.").format(names=waiting_for)
            )
        return text + _(EVERYONE_ACCEPTED)
    if status == "abandoned":
        return text + "\n" + _("This invitation is closed.")
    if thread_id:
        return (
            text
            + "\n"
            + _("Everyone accepted: the game is on in {channel}.").format(channel=f"<#{thread_id}>")
        )
    return text + "\n" + _("Everyone accepted: the game is on.")


def member_twice(name: str) -> str:
    return _(
        "{name} is named twice: each member can take only one place "
        "in a game (and you can't play yourself). Nothing was made."
    ).format(name=plain(name, NAME_CHARS))


def partner_without_seat(index: int) -> str:
    """``index``: 2 for ``opponent2_partner``, 3 for ``opponent3_partner``."""
    return _("{partner} is the partner of {seat}: name {seat} too.").format(
        partner=f"`opponent{index}_partner`", seat=f"`opponent{index}`"
    )


EVERYONE_ACCEPTED = N_("\nEveryone accepted.")


def declined(text: str, name: str) -> str:
    return text + "\n" + _("{name} declined.").format(name=plain(name, NAME_CHARS))


def thread_name(number: int, names: Sequence[str]) -> str:
    """A thread's name: Discord shows it as it is (no markdown), so names are not escaped."""
    return f"{game_title(number)}: " + _(" vs ").join(names)


def invite_post(pings: str, inviter_mention: str, invite: str) -> str:
    return (
        _("{pings} — {inviter} invites you to Scrabble. Press **Accept** to play.").format(
            pings=pings, inviter=inviter_mention
        )
        + f"\n{invite}"
    )


def against_computer(member_mention: str, invite: str) -> str:
    return _("{member} plays Scrabble against me.").format(member=member_mention) + f"\n{invite}"


def game_is_on(invite: str, home_channel_id: int | None, *, everyone: bool) -> str:
    """The invitation once the game is dealt (its buttons gone)."""
    if home_channel_id:
        if everyone:
            lead = _("Everyone accepted: the game is on in {channel}.")
        else:
            lead = _("The game is on in {channel}.")
    elif everyone:
        lead = _("Everyone accepted: the game is on.")
    else:
        lead = _("The game is on.")
    shown = invite.replace(_(EVERYONE_ACCEPTED), "")
    return shown + "\n" + lead.format(channel=f"<#{home_channel_id}>")


def first_draw(number: int, rules: str, draws: Sequence[tuple[str, str]], first: str) -> str:
    """The opening post: ``draws`` are ``(label, tile)`` of the draw for first play."""
    text = _("{title} starts. Rules: {rules}.").format(
        title=f"**{game_title(number)}**", rules=rules
    )
    if draws:
        drawn = ", ".join(
            _("{seat} drew a blank").format(seat=label)
            if tile == "?"
            else _("{seat} drew {tile}").format(seat=label, tile=tile)
            for label, tile in draws
        )
        text += "\n" + _("Draw for first play: {draws}.").format(draws=drawn)
    return text + " " + _("First to play: {seat}.").format(seat=first) + f"\n{_(HOW_TO_PLAY)}"


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
    got = tiles_text(drawn, _("nothing (the bag is empty)"))
    if bingo:
        text = _("You played {word} at {position} for {score} — bingo!")
    else:
        text = _("You played {word} at {position} for {score}")
    said = text.format(word=main_word, position=position, score=score) + also
    # "— bingo!" ends its sentence already: no full stop after the exclamation mark.
    stop = " " if said.endswith(("!", "?", ".")) else ". "
    return said + stop + _("You drew {tiles}.").format(tiles=got)


def exchanged(drawn: str) -> str:
    count = len(drawn)
    return ngettext(
        "You exchanged {count} tile and drew {tiles}.",
        "You exchanged {count} tiles and drew {tiles}.",
        count,
    ).format(count=count, tiles=" ".join(drawn))


PASSED = N_("You passed.")
RESIGNED = N_("You resigned from the game.")


def challenge_result(
    *, withdrawn: bool, invalid: Sequence[str], words: Sequence[str], lost_turn: bool
) -> str:
    if withdrawn:
        return _("Your challenge succeeded: {words} is not in the word list.").format(
            words=", ".join(invalid)
        )
    text = ngettext(
        "The play stands: {words} is in the word list.",
        "The play stands: {words} are in the word list.",
        len(words),
    ).format(words=", ".join(words))
    return text + (" " + _("You lose your next turn.") if lost_turn else "")


def accepted_final_play(over: bool) -> str:
    if over:
        return _("You accepted the final play: the game is over.")
    return _("You accepted the final play.")


def not_your_turn(label: str) -> str:
    return _("It's not your turn: it's {seat}'s turn. Nothing was changed.").format(seat=label)


def board_elsewhere(home_channel_id: int | None, here: int | None) -> str:
    """Said after an answer given outside the game's thread."""
    if home_channel_id and home_channel_id != here:
        return " " + _("The board is in {channel}.").format(channel=f"<#{home_channel_id}>")
    return ""


def rack_text(tiles: str) -> str:
    return _("Your rack: {tiles}").format(tiles=tiles_text(tiles, _("(empty)")))


def rack_message(rack: str, summary: str) -> str:
    return clip(f"{rack}\n\n{summary}")


# -- lists ---------------------------------------------------------------------------------------


_STATES = {
    "invited": N_("invitation open"),
    "finished": N_("finished"),
    "abandoned": N_("abandoned"),
}


def game_label(number: int, status: str, opponents: str, your_turn: bool) -> str:
    """One of a member's games, as a list or an autocomplete shows it."""
    if status in _STATES:
        state = _(_STATES[status])
    else:
        state = _("your turn") if your_turn else _("their turn")
    return _("#{number} vs {opponents} · {state}").format(
        number=number, opponents=opponents, state=state
    )


NO_GAMES = N_("You have no Scrabble game running here. Start one with `/scrabble new`.")


def games_list(rows: Sequence[tuple[str, datetime | None, int | None]]) -> str:
    """``/scrabble games``: ``(label, turn clock's end, thread)`` of each game."""
    if not rows:
        return _(NO_GAMES)
    lines = ["**" + _("Your Scrabble games") + "**"]
    for label, due, home in rows:
        line = label
        if due is not None:
            line += " · " + _("clock ends {when}").format(when=relative_time(due))
        if home:
            line += f" · <#{home}>"
        lines.append(line)
    return clip("\n".join(lines))


def gcg_export(number: int) -> str:
    return _("{title}, as GCG.").format(title=game_title(number))


def position_choice(position: str, across: bool, word: str, score: int) -> str:
    if across:
        text = _("{position} across — {word}, {score} points")
    else:
        text = _("{position} down — {word}, {score} points")
    return text.format(position=position, word=word, score=score)
