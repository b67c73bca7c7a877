"""What a member reads when a command cannot go ahead: a refusal, a permission
missing, or an apology for a fault on the bot's side (with the id the log has)."""

from __future__ import annotations

from bot.messages.limits import MESSAGE_CHARS

# A private reply is cut here: the room left is for what Discord adds around it.
PRIVATE_REPLY_CHARS = MESSAGE_CHARS - 100

MANAGE_SERVER_NEEDED = "You need the **Manage Server** permission for that."
SERVER_ONLY = "That command works in a server channel, not in DMs."
NOT_HERE = "You can't use that command here."


def unreadable_option(value: object, type_name: str) -> str:
    """An option Discord sent that could not be read as its type (a member, a number)."""
    return f"I couldn't read `{value!s:.50}` as {type_name.lower().replace('_', ' ')}."


def slow_down(retry_after: float) -> str:
    return f"Slow down a little: try again in {retry_after:.0f} s."


def moderators_only(what: str) -> str:
    return f"Only the club's moderators can {what}."


def something_went_wrong(error_id: str) -> str:
    return (
        f"Sorry, something went wrong on my side (error id `{error_id}`). "
        "The club's admins can look it up in the bot's log."
    )


def word_list_unusable(name: str, reason: object) -> str:
    return f"The word list {name!r} can't be used: {reason}"
