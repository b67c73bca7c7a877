"""A Word Boggle round played in the room (issue #29): the grid on the screen, the
words written on paper, then a set time after the countdown to type the lists (by
DM, the form or the board page), or the host types a member's list for them
(``/boggle enter``). Built from plain data, as the rest of ``bot.messages.boggle``.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from bot.messages.i18n import N_, _, ngettext
from bot.messages.post import Post
from bot.messages.text import absolute_time, format_duration, plain, relative_time

BAD_WHERE = N_("A round is played in `discord` (typed) or in the `room` (on paper).")
ENTRY_TIME_IN_ROOM_ONLY = N_(
    "`entry_time` is the time to type the paper lists of a round played in the room: "
    "add `where: room`, or leave `entry_time` out."
)
HOST_ONLY = N_("Only the round's host or a moderator can enter a member's list.")
NOT_A_PLAYER = N_("That's a bot, not a player: pick a member.")
EMPTY_ENTRY = N_("Write the member's words, separated by spaces or commas.")


def room_lines(entry_s: int, countdown_ends_at: datetime, ends_at: datetime) -> tuple[str, ...]:
    """The lines of a room round's grid post: paper first, then the time to type."""
    return (
        _("Pens down {when} (at {time}).").format(
            when=relative_time(countdown_ends_at), time=absolute_time(countdown_ends_at, "T")
        ),
        _(
            "Played in the room: write your words on paper. When the countdown ends you "
            "have {entry} to type your list: **DM me**, press **Submit words** or use your "
            "board page, until {time}. Lists sent after that are not counted."
        ).format(entry=format_duration(entry_s), time=absolute_time(ends_at, "T")),
    )


def started_in_room(entry_s: int, countdown_ends_at: datetime) -> str:
    """Added to the host's reply to ``/boggle start where: room``."""
    return _(
        "Played in the room: pens down {when}, then {entry} to type the lists. "
        "Type a member's paper list for them with `/boggle enter`."
    ).format(when=relative_time(countdown_ends_at), entry=format_duration(entry_s))


def scheduled_in_room(entry_s: int) -> str:
    """Added to the host's reply to ``/boggle schedule where: room``."""
    return _(
        "Played in the room: the grid on the screen and the lists on paper, then {entry} "
        "after each countdown to type them."
    ).format(entry=format_duration(entry_s))


def entry_open_post(number: int, ends_at: datetime) -> Post:
    """Posted in the round's channel when the countdown of a room round ends."""
    return Post(
        content="✍️ "
        + _(
            "**Round #{number}: pens down!** Type your words now: DM me, press **Submit words** "
            "or use your board page, until {time} ({when}). Lists sent after that are not counted."
        ).format(number=number, time=absolute_time(ends_at, "T"), when=relative_time(ends_at))
    )


def entered_reply(member_id: int, number: int, added: int, total: int) -> str:
    """The host's private answer to ``/boggle enter``."""
    words = ngettext("{count} new word", "{count} new words", added).format(count=added)
    return _(
        "✅ Entered for {member}: {added}; their list for round #{number} has {total}."
    ).format(member=f"<@{member_id}>", added=words, number=number, total=f"**{total}**")


def entered_dm(
    host: str, number: int, guild_name: str, words: Sequence[str], total: int, ends_at: datetime
) -> str:
    """What the member is told, privately, of the list the host typed for them."""
    return _(
        "✍️ {host} typed your paper list for Word Boggle round #{number} in {club}: {words}. "
        "Your list has {total} words now. Missing something? DM me more words until {time}."
    ).format(
        host=plain(host),
        number=number,
        club=f"**{plain(guild_name)}**",
        words=", ".join(words) if words else "—",
        total=total,
        time=absolute_time(ends_at, "T"),
    )
