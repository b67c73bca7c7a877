"""Club sessions' texts: the sign-up post, the groups, where everyone plays, the
results across boards, explanations of played words, and the private answers.

Built from the services' results read through small Protocols (no bot.services
import). Names and explanations are escaped with ``plain`` (no markdown, no
mentions); members are mentioned only where the post says who plays where.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Protocol

from bot.messages.text import absolute_time, clip, plain, relative_time

NAME_CHARS = 32

CHALLENGE_CHOICES = "The challenge rule is `double`, `single` or `void`."
ODD_CHOICES = (
    "A member left over plays as a pair's `third` player (default) or `alone` against the pairs."
)
NO_SUCH_SESSION = "That session is not in this server."
NO_SESSION_HERE = (
    "There is no club session in this channel: a moderator opens one with `/scrabble session open`."
)
SESSION_ALREADY_OPEN = (
    "This channel already has a session that is not over: end it with "
    "`/scrabble session end` first."
)
NAMING_IS_FOR_MODERATORS = "Only the club's moderators can sign up someone else."
NO_BOTS = "Bots can't play in a session: name club members."
ALREADY_STARTED = "The session's boards have started already."
NOT_FORMED_YET = (
    "The groups are not formed yet: `/scrabble session start` forms them, then you can swap."
)
BOARDS_STARTED = (
    "The boards have started: members can be swapped only before the boards start. "
    "Nothing was changed."
)
CANCELLED = "The club session was cancelled before its boards started."
NO_RESULTS_YET = "The session's boards have not started yet: there are no results."
EMPTY_EXPLANATION = "Write the explanation in your own words (it was empty)."
NO_SUCH_PLAY = "That play is not in this game."
NOT_YOUR_PLAY = "Only the pair that made this play explains it."
ALREADY_EXPLAINED = "This play has been explained already."
EXPLAIN_TITLE = "Explain the word"
EXPLAIN_LABEL = "In your own words"
EXPLAIN_PLACEHOLDER = "What the word means, as you would tell the table"
EXPLAIN_BUTTON = "Explain"
SIGNUP_BUTTON = "Sign up"
LEAVE_BUTTON = "Leave"


class _Options(Protocol):
    @property
    def clock_seconds(self) -> int: ...
    @property
    def length_seconds(self) -> int: ...
    @property
    def explain(self) -> bool: ...
    @property
    def challenge(self) -> str: ...
    @property
    def word_list(self) -> str | None: ...
    @property
    def odd(self) -> str: ...


class _Entry(Protocol):
    @property
    def place(self) -> int: ...
    @property
    def names(self) -> tuple[str, ...]: ...


class _Seat(Protocol):
    @property
    def names(self) -> tuple[str, ...]: ...
    @property
    def user_ids(self) -> tuple[int, ...]: ...


class _Board(Protocol):
    @property
    def number(self) -> int: ...
    @property
    def seats(self) -> Sequence[_Seat]: ...
    @property
    def game_number(self) -> int | None: ...
    @property
    def home_id(self) -> int | None: ...


class _Session(Protocol):
    @property
    def status(self) -> str: ...
    @property
    def options(self) -> _Options: ...
    @property
    def entries(self) -> Sequence[_Entry]: ...
    @property
    def boards(self) -> Sequence[_Board]: ...
    @property
    def deadline(self) -> datetime | None: ...
    @property
    def member_count(self) -> int: ...


class _Pair(Protocol):
    @property
    def rank(self) -> int: ...
    @property
    def board(self) -> int: ...
    @property
    def label(self) -> str: ...
    @property
    def score(self) -> int: ...
    @property
    def spread(self) -> int: ...


class _Play(Protocol):
    @property
    def board(self) -> int: ...
    @property
    def label(self) -> str: ...
    @property
    def word(self) -> str: ...
    @property
    def explanation(self) -> str | None: ...


class _Results(Protocol):
    @property
    def session(self) -> _Session: ...
    @property
    def final(self) -> bool: ...
    @property
    def pairs(self) -> Sequence[_Pair]: ...
    @property
    def plays(self) -> Sequence[_Play]: ...


def names_label(names: Sequence[str]) -> str:
    return " & ".join(plain(n, NAME_CHARS) for n in names)


def _minutes(seconds: int) -> str:
    if seconds % 60:
        return f"{seconds} s"
    return f"{seconds // 60} min"


def options_line(options: _Options) -> str:
    parts = [
        f"turn clock {_minutes(options.clock_seconds)}",
        f"session {_minutes(options.length_seconds)}",
        f"{options.challenge} challenge",
        "explain the word" if options.explain else "no explaining",
    ]
    if options.word_list:
        parts.append(f"word list `{plain(options.word_list, 40)}`")
    return ", ".join(parts)


def signups_closed(status: str) -> str:
    if status == "formed":
        return (
            "Sign-ups are closed: the groups are formed. A moderator can still swap members "
            "with `/scrabble session swap`."
        )
    if status == "started":
        return "Sign-ups are closed: the session's boards have started."
    return "Sign-ups for this session are closed."


def too_few(count: int, minimum: int) -> str:
    return (
        f"A session needs at least {minimum} members (2 pairs); {count} signed up so far. "
        "Nothing was changed."
    )


def cannot_group(reason: str) -> str:
    return f"The groups can't be formed: {reason}. Nothing was changed."


def not_in_groups(name: str) -> str:
    return f"**{plain(name, NAME_CHARS)}** is not in this session's groups."


def session_card(session: _Session) -> str:
    """The sign-up post, edited as members sign up."""
    lines = [
        "**Club session** (Scrabble, pairs): " + options_line(session.options) + ".",
        "Sign up with the button or `/scrabble session signup` (name a `partner` to play "
        "together); everyone else is paired at random when the moderator starts.",
    ]
    if session.status != "open":
        lines[1] = "Sign-ups are closed."
    if session.entries:
        shown = [f"{e.place}. {names_label(e.names)}" for e in session.entries]
        lines.append(f"**Signed up ({session.member_count})**: " + ", ".join(shown))
    else:
        lines.append("Nobody has signed up yet.")
    return clip("\n".join(lines))


def signed_up(names: Sequence[str], place: int, *, by_moderator: bool) -> str:
    who = names_label(names)
    if by_moderator:
        return f"**{who}** signed up for the session (place {place})."
    if len(names) > 1:
        return f"You signed up as the pair **{who}** (place {place})."
    return f"You are signed up (place {place}); you'll be paired when the session starts."


def withdrew() -> str:
    return "You left the session's sign-up list."


def _board_lines(board: _Board, *, mention: bool = False) -> list[str]:
    seats = [
        " & ".join(f"<@{u}>" for u in seat.user_ids) if mention else names_label(seat.names)
        for seat in board.seats
    ]
    return [f"**Board {board.number}** ({len(board.seats)} pairs): " + " · ".join(seats)]


def groups_text(session: _Session) -> str:
    lines = [f"**The session's groups** ({session.member_count} members):"]
    for board in session.boards:
        lines += _board_lines(board)
    lines.append(
        "A moderator can swap two members with `/scrabble session swap`, then start the "
        "boards with `/scrabble session start`."
    )
    return clip("\n".join(lines))


def started_text(session: _Session) -> str:
    deadline = session.deadline
    when = (
        f" Every board ends {absolute_time(deadline, 't')} ({relative_time(deadline)})."
        if deadline
        else ""
    )
    return clip(
        f"**The session starts**: {len(session.boards)} boards are opening, each in its "
        f"own thread.{when}"
    )


def swapped(first: str, second: str, session: _Session) -> str:
    return clip(
        f"Swapped **{plain(first, NAME_CHARS)}** and **{plain(second, NAME_CHARS)}**.\n"
        + groups_text(session)
    )


def board_thread_name(number: int, game_number: int) -> str:
    return f"Session board {number} · Scrabble #{game_number}"


def board_opening(number: int, game_number: int, seats: Sequence[Sequence[str]]) -> str:
    shown = " · ".join(names_label(seat) for seat in seats)
    return clip(f"**Session board {number}** (Scrabble #{game_number}): {shown}")


def where_everyone_plays(session: _Session, homes: Sequence[int | None]) -> str:
    lines = ["**Where everyone plays**"]
    for board, home in zip(session.boards, homes, strict=False):
        place = f" in <#{home}>" if home else ""
        seats = " · ".join(" & ".join(f"<@{u}>" for u in s.user_ids) for s in board.seats)
        lines.append(f"Board {board.number}{place}: {seats}")
    if session.deadline is not None:
        lines.append(
            f"Every board ends {absolute_time(session.deadline, 't')} "
            f"({relative_time(session.deadline)}), unplayed tiles deducted."
        )
    return clip("\n".join(lines))


def _spread(value: int) -> str:
    return f"+{value}" if value > 0 else str(value)


def ranking_lines(pairs: Sequence[_Pair]) -> list[str]:
    return [
        f"{p.rank}. **{p.label}** — {p.score} ({_spread(p.spread)}), board {p.board}" for p in pairs
    ]


def results_post(results: _Results) -> str:
    lines = ["**Club session results** (final score, then spread; every board ended together)"]
    lines += ranking_lines(results.pairs)
    lines.append("Every result goes to the leaderboard (`/leaderboard game:scrabble`).")
    return clip("\n".join(lines))


def results_private(results: _Results, *, moderator: bool) -> str:
    title = "**Club session results**" if results.final else "**Club session: as it stands**"
    lines = [title, *ranking_lines(results.pairs)]
    if moderator:
        explained = [p for p in results.plays if p.explanation]
        lines.append(
            f"**Explain the word**: {len(explained)} of {len(results.plays)} plays explained"
        )
        for p in results.plays:
            mark = "✓" if p.explanation else "✗"
            lines.append(f"{mark} board {p.board}: **{plain(p.word, 20)}** by {p.label}")
    return clip("\n".join(lines))


def explanation_post(label: str, words: Sequence[str], text: str) -> str:
    shown = ", ".join(f"**{plain(w, 20)}**" for w in words)
    return clip(f"{label} explain {shown}: {plain(text, 400)}")


def explain_title(words: Sequence[str]) -> str:
    """The form's title: the words to explain (a modal title is plain text: no escaping)."""
    shown = ", ".join(words)
    title = f"Explain {shown}"
    return title if len(title) <= 45 else EXPLAIN_TITLE


NOT_IN_A_THREAD = (
    "Open a session in a text channel, not a thread: each board gets a thread of its own."
)


def explained_reply(words: Sequence[str]) -> str:
    shown = ", ".join(f"**{plain(w, 20)}**" for w in words)
    return f"Thank you: your explanation of {shown} is in the thread."


def opened_reply() -> str:
    return "The session is open: its sign-up post is in the channel."
