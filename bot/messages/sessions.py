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

from bot.messages.i18n import N_, _, ngettext
from bot.messages.text import (
    absolute_time,
    clip,
    format_duration,
    plain,
    relative_time,
    split_lines,
)

NAME_CHARS = 32

CHALLENGE_CHOICES = N_("The challenge rule is `double`, `single` or `void`.")
ODD_CHOICES = N_(
    "A member left over plays as a pair's `third` player (default) or `alone` against the pairs."
)
NO_SUCH_SESSION = N_("That session is not in this server.")
NO_SESSION_HERE = N_(
    "There is no club session in this channel: a moderator opens one with `/scrabble session open`."
)
SESSION_ALREADY_OPEN = N_(
    "This channel already has a session that is not over: end it with "
    "`/scrabble session end` first."
)
NAMING_IS_FOR_MODERATORS = N_("Only the club's moderators can sign up someone else.")
NO_BOTS = N_("Bots can't play in a session: name club members.")
ALREADY_STARTED = N_("The session's boards have started already.")
NOT_FORMED_YET = N_(
    "The groups are not formed yet: `/scrabble session start` forms them, then you can swap."
)
BOARDS_STARTED = N_(
    "The boards have started: members can be swapped only before the boards start. "
    "Nothing was changed."
)
CANCELLED = N_("The club session was cancelled before its boards started.")
NO_RESULTS_YET = N_("The session's boards have not started yet: there are no results.")
EMPTY_EXPLANATION = N_("Write the explanation in your own words (it was empty).")
SHORT_EXPLANATION = N_(
    "Write at least {count} characters: what the word means, as you would tell the table."
)
NO_SUCH_PLAY = N_("That play is not in this game.")
NOT_YOUR_PLAY = N_("Only the pair that made this play explains it.")
ALREADY_EXPLAINED = N_("This play has been explained already.")
EXPLAIN_TITLE = N_("Explain the word")
EXPLAIN_LABEL = N_("In your own words")
EXPLAIN_PLACEHOLDER = N_(
    "What the word means, as you would tell the table (10 characters at least)"
)
EXPLAIN_BUTTON = N_("Explain")
SIGNUP_BUTTON = N_("Sign up")
LEAVE_BUTTON = N_("Leave")


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
    @property
    def no_contest(self) -> Sequence[int]: ...


def names_label(names: Sequence[str]) -> str:
    return " & ".join(plain(n, NAME_CHARS) for n in names)


def options_line(options: _Options) -> str:
    parts = [
        _("turn clock {clock}").format(clock=format_duration(options.clock_seconds)),
        _("session {length}").format(length=format_duration(options.length_seconds)),
        _("{rule} challenge").format(rule=options.challenge),
        _("explain the word") if options.explain else _("no explaining"),
    ]
    if options.word_list:
        parts.append(_("word list {name}").format(name=f"`{plain(options.word_list, 40)}`"))
    if getattr(options, "where", "online") == "room":
        parts.append(_("over the board (the bot keeps the tally)"))
    return ", ".join(parts)


def signups_closed(status: str) -> str:
    if status == "formed":
        return _(
            "Sign-ups are closed: the groups are formed. A moderator can still swap members "
            "with `/scrabble session swap`."
        )
    if status == "started":
        return _("Sign-ups are closed: the session's boards have started.")
    return _("Sign-ups for this session are closed.")


def too_few(count: int, minimum: int) -> str:
    return _(
        "A session needs at least {minimum} members (2 pairs); {count} signed up so far. "
        "Nothing was changed."
    ).format(minimum=minimum, count=count)


# ``{reason}`` is the grouping engine's (``engines.sessions.GroupingError``).
CANNOT_GROUP = N_("The groups can't be formed: {reason}. Nothing was changed.")


def not_in_groups(name: str) -> str:
    return _("{name} is not in this session's groups.").format(
        name=f"**{plain(name, NAME_CHARS)}**"
    )


def session_card(session: _Session) -> str:
    """The sign-up post, edited as members sign up."""
    lines = [
        _("**Club session** (Scrabble, pairs): {options}.").format(
            options=options_line(session.options)
        ),
        _(
            "Sign up with the button or `/scrabble session signup` (name a `partner` to play "
            "together); everyone else is paired at random when the moderator starts."
        ),
    ]
    if session.status != "open":
        lines[1] = _("Sign-ups are closed.")
    if session.entries:
        shown = [f"{e.place}. {names_label(e.names)}" for e in session.entries]
        members = ngettext("{count} member", "{count} members", session.member_count).format(
            count=session.member_count
        )
        places = ngettext("{count} place", "{count} places", len(shown)).format(count=len(shown))
        lines.append(
            _("**Signed up: {members} in {places}**: {entries}").format(
                members=members, places=places, entries=", ".join(shown)
            )
        )
    else:
        lines.append(_("Nobody has signed up yet."))
    return clip("\n".join(lines))


def signed_up(names: Sequence[str], place: int, *, by_moderator: bool) -> str:
    who = names_label(names)
    if by_moderator:
        return _("{who} signed up for the session (place {place}).").format(
            who=f"**{who}**", place=place
        )
    if len(names) > 1:
        return _("You signed up as the pair {who} (place {place}).").format(
            who=f"**{who}**", place=place
        )
    return _("You are signed up (place {place}); you'll be paired when the session starts.").format(
        place=place
    )


def withdrew() -> str:
    return _("You left the session's sign-up list.")


def already_partners(first: str, second: str) -> str:
    return _("{first} and {second} are already partners: nothing was changed.").format(
        first=f"**{plain(first, NAME_CHARS)}**", second=f"**{plain(second, NAME_CHARS)}**"
    )


def _board_lines(board: _Board, *, mention: bool = False) -> list[str]:
    seats = [
        " & ".join(f"<@{u}>" for u in seat.user_ids) if mention else names_label(seat.names)
        for seat in board.seats
    ]
    shown = " · ".join(seats)
    alone = sum(1 for seat in board.seats if len(seat.names) == 1)
    pairs = len(board.seats) - alone  # a pair with a third player is still one pair
    if not alone:
        heading = ngettext(
            "**Board {number}** ({count} pair): {seats}",
            "**Board {number}** ({count} pairs): {seats}",
            pairs,
        )
        return [heading.format(number=board.number, count=pairs, seats=shown)]
    # A member left over who plays alone against the pairs is a player, not a pair.
    return [
        _("**Board {number}** ({pairs} and {players}): {seats}").format(
            number=board.number,
            pairs=ngettext("{count} pair", "{count} pairs", pairs).format(count=pairs),
            players=ngettext("{count} player", "{count} players", alone).format(count=alone),
            seats=shown,
        )
    ]


def groups_text(session: _Session) -> str:
    lines = [_("**The session's groups** ({count} members):").format(count=session.member_count)]
    for board in session.boards:
        lines += _board_lines(board)
    lines.append(
        _(
            "A moderator can swap two members with `/scrabble session swap`, then start the "
            "boards with `/scrabble session start`."
        )
    )
    return clip("\n".join(lines))


def started_text(session: _Session) -> str:
    deadline = session.deadline
    text = _("**The session starts**: {count} boards are opening, each in its own thread.").format(
        count=len(session.boards)
    )
    if deadline:
        text += " " + _("Every board ends {time} ({when}).").format(
            time=absolute_time(deadline, "t"), when=relative_time(deadline)
        )
    return clip(text)


def swapped(first: str, second: str, session: _Session) -> str:
    return clip(
        _("Swapped {first} and {second}.").format(
            first=f"**{plain(first, NAME_CHARS)}**", second=f"**{plain(second, NAME_CHARS)}**"
        )
        + "\n"
        + groups_text(session)
    )


def board_thread_name(number: int, game_number: int) -> str:
    return _("Session board {number} · Scrabble #{game}").format(number=number, game=game_number)


def board_opening(number: int, game_number: int, seats: Sequence[Sequence[str]]) -> str:
    shown = " · ".join(names_label(seat) for seat in seats)
    return clip(
        _("**Session board {number}** (Scrabble #{game}): {seats}").format(
            number=number, game=game_number, seats=shown
        )
    )


def where_everyone_plays(session: _Session, homes: Sequence[int | None]) -> str:
    lines = ["**" + _("Where everyone plays") + "**"]
    for board, home in zip(session.boards, homes, strict=False):
        seats = " · ".join(" & ".join(f"<@{u}>" for u in s.user_ids) for s in board.seats)
        if home:
            line = _("Board {number} in {channel}: {seats}").format(
                number=board.number, channel=f"<#{home}>", seats=seats
            )
        else:
            line = _("Board {number}: {seats}").format(number=board.number, seats=seats)
        lines.append(line)
    if session.deadline is not None:
        lines.append(
            _("Every board ends {time} ({when}), unplayed tiles deducted.").format(
                time=absolute_time(session.deadline, "t"), when=relative_time(session.deadline)
            )
        )
    return clip("\n".join(lines))


def _spread(value: int) -> str:
    return f"+{value}" if value > 0 else str(value)


def ranking_lines(pairs: Sequence[_Pair]) -> list[str]:
    return [
        _("{rank}. {pair} — {score} ({spread}), board {board}").format(
            rank=p.rank,
            pair=f"**{p.label}**",
            score=p.score,
            spread=_spread(p.spread),
            board=p.board,
        )
        for p in pairs
    ]


def no_contest_lines(boards: Sequence[int]) -> list[str]:
    """The boards that ended with no tile placed (RULES.md: a no-contest)."""
    return [
        _(
            "Board {number}: **no contest** (no tile was placed), so its players are not "
            "ranked and the game is not rated."
        ).format(number=number)
        for number in boards
    ]


def results_posts(results: _Results) -> list[str]:
    """The results post, in as many posts as the ranking needs (cut between entries)."""
    lines = [_("**Club session results** (final score, then spread; every board ended together)")]
    lines += ranking_lines(results.pairs)
    lines += no_contest_lines(results.no_contest)
    lines.append(_("Every result goes to the leaderboard (`/leaderboard game:scrabble`)."))
    return split_lines(lines)


def results_private(results: _Results, *, moderator: bool) -> list[str]:
    """The ranking (and for the moderator the plays explained), in as many private
    messages as it needs, cut between entries."""
    if results.final:
        title = _("**Club session results**")
    else:
        title = _("**Club session: as it stands**")
    lines = [title, *ranking_lines(results.pairs), *no_contest_lines(results.no_contest)]
    if moderator:
        explained = [p for p in results.plays if p.explanation]
        lines.append(
            _("**Explain the word**: {explained} of {count} plays explained").format(
                explained=len(explained), count=len(results.plays)
            )
        )
        for p in results.plays:
            mark = "✓" if p.explanation else "✗"
            lines.append(
                mark
                + " "
                + _("board {board}: {word} by {pair}").format(
                    board=p.board, word=f"**{plain(p.word, 20)}**", pair=p.label
                )
            )
    return split_lines(lines)


def explanation_post(label: str, words: Sequence[str], text: str) -> str:
    shown = ", ".join(f"**{plain(w, 20)}**" for w in words)
    return clip(
        _("{pair} explain {words}: {text}").format(pair=label, words=shown, text=plain(text, 400))
    )


def explain_title(words: Sequence[str]) -> str:
    """The form's title: the words to explain (a modal title is plain text: no escaping)."""
    shown = ", ".join(words)
    title = _("Explain {words}").format(words=shown)
    return title if len(title) <= 45 else _(EXPLAIN_TITLE)


NOT_IN_A_THREAD = N_(
    "Open a session in a text channel, not a thread: each board gets a thread of its own."
)


def explained_reply(words: Sequence[str]) -> str:
    shown = ", ".join(f"**{plain(w, 20)}**" for w in words)
    return _("Thank you: your explanation of {words} is in the thread.").format(words=shown)


def opened_reply() -> str:
    return _("The session is open: its sign-up post is in the channel.")
