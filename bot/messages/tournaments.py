"""Every tournament text: refusals, replies, the round and standings posts, the log.

Tables are monospaced text (a code block), cut to Discord's message limit with a
line saying how many rows the export holds beyond it. Names inside a code block
cannot ping or format; a backtick in a name is replaced so the block stays shut.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from bot.messages.i18n import N_, _, ngettext
from bot.messages.limits import CHOICE_NAME_CHARS, MESSAGE_CHARS, MESSAGE_MARGIN, THREAD_NAME_CHARS
from bot.messages.text import absolute_time, clip, plain, relative_time
from bot.messages.tournament_room import (
    BOARD_SOURCE,
    CREATED_LINE,
    PAIRED_TAIL,
    RESULTS,
    score_text,
)
from engines.durations import format_duration

LIMIT = MESSAGE_CHARS - MESSAGE_MARGIN
FORMATS = {"round_robin": "round robin", "swiss": "Swiss", "knockout": "knockout"}
GAMES = {"chess": "Chess", "scrabble": "Scrabble"}

# ---------------------------------------------------------------------- refusals

UNKNOWN_GAME = N_("A tournament is for `chess` or `scrabble`.")
UNKNOWN_FORMAT = N_("The format is `round_robin`, `swiss` (with `rounds`) or `knockout`.")
UNKNOWN_ENTRY = N_("Entry is `button` (members join) or `named` (the director names who plays).")
NONE_LIVE = N_("There is no tournament under way in this server: `/tournament new` makes one.")
MOVED_ON = N_("Someone else changed this tournament at the same moment: look again and retry.")
MODERATORS_MAKE = N_(
    "Only the club's moderators make tournaments: ask one to make it (its creator and the "
    "moderators direct it)."
)
NOT_IN_A_THREAD = N_(
    "Make a tournament in a text channel, not a thread: each of its games gets a thread there."
)
PAIRS_JOIN = N_(
    "This tournament is for pairs: enter with your partner, `/tournament join partner:@member`."
)
NAMED_ENTRY = N_("The director names who plays in this tournament: ask them to enter you.")
NO_CHECKIN = N_("This tournament has no check-in: you are entered already.")
JOIN_BUTTON = N_("Join")  # the sign-up post's buttons
CHECK_IN_BUTTON = N_("Check in")
USE_WITHDRAW = N_(
    "The tournament has started: `/tournament withdraw` leaves it (your games still to play are forfeited)."
)
USE_LEAVE = N_(
    "The tournament has not started: `/tournament join leave:True` takes an entry off the list."
)
BOT_ENTRANT = N_(
    "Bots can't enter a tournament: nobody would play their moves. Enter a member of the club."
)
PAIR_SELF = N_("Name two different entrants to pair.")
PAIR_NEEDS_PAUSE = N_(
    "Pairings change only before their games exist. `/tournament pause`: the next round is "
    "then paired and held until `/tournament resume`, and you can set pairings in between."
)
PAIR_ONLY_SWISS = N_(
    "Pairings are set by hand in Swiss tournaments only: a round robin's table and a "
    "knockout's bracket follow from the seeds, and a change would break the rounds after it."
)
PAIR_NOT_IN_ROUND = N_("Both entrants must be in the held round's pairings.")
PAIR_WITHDRAWN = N_("A withdrawn entrant can't be paired.")
RESULT_CHOICES = N_("The result is `win`, `draw` or `loss` (for the member you name).")
BYE_HAS_NO_RESULT = N_("That entrant has a bye in this round: there is no game to score.")
NO_VOID_IN_KNOCKOUT = N_("A knockout match needs a winner: adjudicate it instead of voiding it.")
KNOCKOUT_PAST_ROUND = N_(
    "A knockout's earlier rounds are settled (the bracket moved on): only the current round's results can change."
)
NO_ROUND_TO_EXTEND = N_("There is no round in play to extend.")
UNKNOWN_PAIRING = N_(
    "The pairing engine is `dutch` (the FIDE Dutch system, for chess) or `clubbot` (the club's own)."
)
PAIRING_SWISS_ONLY = N_(
    "Only a Swiss has a choice of pairing engine: a round robin's table and a knockout's "
    "bracket follow from the seeds."
)
DUTCH_CHESS_ONLY = N_(
    "The FIDE Dutch system pairs chess: a Scrabble Swiss is paired by the club's own engine."
)
# A Swiss's pairing engine, as the card and the log name it.
ENGINES = {"dutch": N_("the FIDE Dutch system"), "clubbot": N_("the club's own engine")}

WHAT_ENTER = N_("enter members")
WHAT_START = N_("start the tournament")
WHAT_PAIR = N_("set pairings")
WHAT_ADJUDICATE = N_("adjudicate results")
WHAT_VOID = N_("void results")
WHAT_WITHDRAW = N_("withdraw another entrant")
WHAT_EXTEND = N_("extend a round's deadline")
WHAT_PAUSE = N_("pause the tournament")
WHAT_RESUME = N_("resume the tournament")


def swiss_rounds(maximum: int) -> str:
    return _("A Swiss tournament needs its number of `rounds`: 1 to {maximum}.").format(
        maximum=maximum
    )


def game_not_here(kind: str) -> str:
    return _("{game} is not running on this bot, so it can't hold a {game} tournament.").format(
        game=GAMES.get(kind, kind)
    )


def no_such(tournament_id: int) -> str:
    return _("There is no tournament #{id} in this server.").format(id=tournament_id)


def which_one(live: Sequence[tuple[int, str]]) -> str:
    names = ", ".join(f"#{tid} {plain(name, 40)}" for tid, name in live[:10])
    return _("Several tournaments are under way ({names}): say which with `tournament`.").format(
        names=names
    )


def directors_only(what: str) -> str:
    return _("Only the tournament's director (its creator) or a moderator can {what}.").format(
        what=_(what)
    )


def what(name: str) -> str:
    return _("the tournament {name}").format(name=plain(name, 60))


def entry_closed(name: str) -> str:
    return _("Entry to {name} is closed: it has started.").format(name=plain(name, 60))


def already_started(name: str) -> str:
    return _("{name} has started already.").format(name=plain(name, 60))


def not_running(name: str, status: str) -> str:
    if status == "signup":
        return _("{name} has not started yet: `/tournament start` starts it.").format(
            name=plain(name, 60)
        )
    return _("{name} is over.").format(name=plain(name, 60))


def not_started(name: str) -> str:
    return _("{name} has not started: there is nothing to export yet.").format(name=plain(name, 60))


def too_few(name: str, count: int, minimum: int) -> str:
    return ngettext(
        "{name} has {count} entrant ready to play; it needs at least {minimum}. Nothing changed.",
        "{name} has {count} entrants ready to play; it needs at least {minimum}. Nothing changed.",
        count,
    ).format(name=plain(name, 60), count=count, minimum=minimum)


def too_many(count: int, maximum: int) -> str:
    return _(
        "{count} entrants is more than a tournament takes here ({maximum}). Nothing changed."
    ).format(count=count, maximum=maximum)


def too_many_games(games: int, maximum: int) -> str:
    return _(
        "A round would need {games} games, each in its own thread, and a channel's threads hold "
        "{maximum} at a time here. Split the field into two tournaments. Nothing changed."
    ).format(games=games, maximum=maximum)


def too_many_rounds(rounds: int, count: int) -> str:
    return _(
        "{rounds} Swiss rounds can't pair {count} entrants without a pair meeting twice: "
        "make fewer rounds, or a round robin. Nothing changed."
    ).format(rounds=rounds, count=count)


def cannot_pair(reason: str) -> str:
    return _("I can't pair the next round: {reason}. Nothing changed.").format(reason=reason)


def not_an_entrant(name: str, tournament: str) -> str:
    return _("{name} is not an entrant in {tournament}.").format(
        name=plain(name, 40), tournament=plain(tournament, 60)
    )


def no_game_in_round(label: str, number: int) -> str:
    return _("{name} has no game in round {round}.").format(name=plain(label, 40), round=number)


def already_withdrawn(label: str) -> str:
    return _("{name} has withdrawn already.").format(name=plain(label, 40))


def already_paused(name: str) -> str:
    return _("{name} is paused already.").format(name=plain(name, 60))


def not_paused(name: str) -> str:
    return _("{name} is not paused.").format(name=plain(name, 60))


def already_paired(a: str, b: str, board: int) -> str:
    return _("{a} and {b} are paired already (board {board}). Nothing changed.").format(
        a=plain(a, 40), b=plain(b, 40), board=board
    )


@dataclass(frozen=True)
class MetBefore:
    """Two entrants a pairing would bring together again: the two named
    (``knock_on`` False) or their former opponents, who then meet each other."""

    first: str
    second: str
    round: int
    knock_on: bool


def met_before(pairs: Sequence[MetBefore]) -> str:
    lines = []
    for m in pairs:
        if m.knock_on:
            lines.append(
                _(
                    "⚠️ Their opponents {a} and {b} would then play each other, and they met "
                    "already in round {round}."
                ).format(a=plain(m.first, 40), b=plain(m.second, 40), round=m.round)
            )
        else:
            lines.append(
                _("⚠️ {a} and {b} met already in round {round}.").format(
                    a=plain(m.first, 40), b=plain(m.second, 40), round=m.round
                )
            )
    lines.append(
        _("Nothing changed: run the command again with `confirm:True` to pair them anyway.")
    )
    return "\n".join(lines)


# ---------------------------------------------------------------------- replies


def default_name(kind: str, fmt: str) -> str:
    return f"{GAMES.get(kind, kind)} {FORMATS.get(fmt, fmt)}"


def created(
    tournament_id: int,
    name: str,
    kind: str,
    fmt: str,
    rounds: int,
    deadline: timedelta,
    time_control: str | None,
    *,
    rated: bool,
    entry: str,
    checkin: bool,
    pairs: bool,
    pairing: str | None = None,
    room: bool = False,
) -> str:
    shape = FORMATS.get(fmt, fmt)
    if fmt == "swiss" and kind == "chess" and pairing in ENGINES:
        shape = _("Swiss, {rounds} rounds, paired by {engine}").format(
            rounds=rounds, engine=_(ENGINES[pairing])
        )
    elif fmt == "swiss":
        shape = _("Swiss, {rounds} rounds").format(rounds=rounds)
    lines = [
        _("🏆 **{name}** (tournament #{id}): {game}, {shape}{pairs}.").format(
            name=plain(name, 80),
            id=tournament_id,
            game=GAMES.get(kind, kind),
            shape=shape,
            pairs=_(", pairs") if pairs else "",
        ),
        _("Each round has {deadline}; games {clock}; {rated}.").format(
            deadline=format_duration(deadline),
            clock=_("on the room's boards")
            if room
            else _("with the clock {tc}").format(tc=plain(time_control, 20))
            if time_control
            else _("with the game's usual clock"),
            rated=_("rated") if rated else _("not rated"),
        ),
    ]
    if entry == "button":
        lines.append(_("Join with the button below or `/tournament join`."))
    else:
        lines.append(_("The director names who plays."))
    if checkin:
        lines.append(_("Entrants check in before the first round (`/tournament checkin`)."))
    if room:
        lines.append(_(CREATED_LINE))
    return "\n".join(lines)


def created_reply(tournament_id: int, name: str) -> str:
    return _(
        "Made **{name}** (#{id}). When everyone is in, `/tournament start` pairs round 1."
    ).format(name=plain(name, 80), id=tournament_id)


def joined(name: str, members: Sequence[str], place: int, by_director: bool) -> str:
    who = " & ".join(plain(m, 40) for m in members)
    if by_director:
        return _("Entered {who} in {name} (entry {place}).").format(
            who=who, name=plain(name, 60), place=place
        )
    return _("You're in {name} (entry {place}).").format(name=plain(name, 60), place=place)


def left(name: str) -> str:
    return _("Your entry in {name} is withdrawn.").format(name=plain(name, 60))


def checked_in(name: str) -> str:
    return _("Checked in for {name}. ✅").format(name=plain(name, 60))


def started(name: str, count: int, rounds: int, left_out: Sequence[str]) -> str:
    text = ngettext(
        "Started {name}: {count} entrants, {rounds} round. Round 1 is paired.",
        "Started {name}: {count} entrants, {rounds} rounds. Round 1 is paired.",
        rounds,
    ).format(name=plain(name, 60), count=count, rounds=rounds)
    if left_out:
        text += "\n" + _("Not checked in, so not playing: {names}.").format(
            names=", ".join(plain(n, 40) for n in left_out)
        )
    return clip(text)


def paired(a: str, b: str, number: int, board: int, kind: str = "chess") -> str:
    if kind == "chess":
        return _("Round {round}, board {board}: {a} (White) against {b}. Logged.").format(
            round=number, board=board, a=plain(a, 40), b=plain(b, 40)
        )
    return _("Round {round}, board {board}: {a} against {b}. Logged.").format(
        round=number, board=board, a=plain(a, 40), b=plain(b, 40)
    )


def adjudicated(label: str, result: str, number: int, board: int) -> str:
    return _("Round {round}, board {board}: adjudicated a {result} for {name}. Logged.").format(
        round=number, board=board, result=result, name=plain(label, 40)
    )


def adjudicated_post(name: str, label: str, result: str, number: int, board: int) -> str:
    return _(
        "⚖️ **{name}**, round {round}, board {board}: the director scores it a {result} for {entrant}."
    ).format(
        name=plain(name, 80), round=number, board=board, result=result, entrant=plain(label, 40)
    )


def game_ended_by_close(name: str, number: int) -> str:
    """In the game's own thread: the tournament's games event closed, and so did it."""
    return _(
        "🏁 This game is over: its games event closed, so the director ended **{name}** in "
        "round {round} and scored this game as it stands (not rated). Moves here are no "
        "longer taken."
    ).format(name=plain(name, 80), round=number)


def voided(label: str, number: int, board: int) -> str:
    return _(
        "Round {round}, board {board} ({name}'s game): voided, it scores for nobody. Logged."
    ).format(round=number, board=board, name=plain(label, 40))


def withdrew(label: str, forfeited: int) -> str:
    if not forfeited:
        return _("{name} is withdrawn; no game of this round was left to forfeit. Logged.").format(
            name=plain(label, 40)
        )
    return ngettext(
        "{name} is withdrawn; {count} game of this round is forfeited. Logged.",
        "{name} is withdrawn; {count} games of this round are forfeited. Logged.",
        forfeited,
    ).format(name=plain(label, 40), count=forfeited)


def extended_reply(number: int, deadline: datetime) -> str:
    return _("Round {round}'s deadline is now {when}. Logged.").format(
        round=number, when=absolute_time(deadline)
    )


def paused_reply(name: str) -> str:
    return _(
        "{name} is paused: games in play go on; the next round is paired and held until "
        "`/tournament resume` (set pairings meanwhile with `/tournament pair`)."
    ).format(name=plain(name, 60))


def resumed_reply(name: str) -> str:
    return _("{name} resumes.").format(name=plain(name, 60))


def exported(name: str, files: Sequence[str]) -> str:
    return _("{name}: {files}.").format(name=plain(name, 60), files=", ".join(files))


def choice_label(tournament_id: int, name: str, status: str) -> str:
    return f"#{tournament_id} {name} ({status})"[:CHOICE_NAME_CHARS]


def csv_alt(name: str, rows: int) -> str:
    return _("Standings of {name} as CSV: {rows} entrants with points and tie-breaks.").format(
        name=name, rows=rows
    )


def trf_alt(name: str) -> str:
    return _("{name} in FIDE's TRF format: every entrant's games and points.").format(name=name)


def tsh_alt(name: str) -> str:
    return _("{name} as a tsh results file: each entrant's opponents and scores.").format(name=name)


def games_alt(count: int, kind: str) -> str:
    return ngettext(
        "{count} finished game, as {kind}.", "{count} finished games, each as {kind}.", count
    ).format(count=count, kind=kind)


# ---------------------------------------------------------------------- posts


@dataclass(frozen=True)
class BoardLine:
    board: int
    first: str
    second: str | None
    score: float | None
    source: str | None
    game_id: int | None


@dataclass(frozen=True)
class StandingLine:
    rank: int
    label: str
    points: float
    spread: int
    buchholz: float
    sonneborn_berger: float
    played: int
    withdrawn: bool


@dataclass(frozen=True)
class LogLine:
    at: datetime
    actor: str | None
    action: str
    detail: Mapping[str, Any] = field(default_factory=dict)


def _cell(text: str, width: int) -> str:
    text = text.replace("`", "'")
    return (text if len(text) <= width else text[: width - 1] + "…").ljust(width)


def _points(value: float) -> str:
    whole = int(value)
    if value - whole == 0.5:
        return f"{whole}½" if whole else "½"
    return f"{value:g}"


def _result(line: BoardLine) -> str:
    if line.second is None:
        return _("bye")
    if line.source == "void":
        return _("void")
    if line.score is None:
        return _("playing")
    text = {1.0: "1–0", 0.0: "0–1"}.get(line.score, "½–½")
    if line.source == "forfeit":
        text += _(" (forfeit)")
    elif line.source == "adjudicated":
        text += _(" (adjudicated)")
    elif line.source == "deadline":
        text += _(" (at the deadline)")
    elif line.source == BOARD_SOURCE:
        text += _(" (over the board)")
    return text


def _boards(lines: Sequence[BoardLine]) -> list[str]:
    """One row per game, numbered by its board; a bye last, with no board number
    (nobody looks for its thread)."""
    rows = []
    byes = []
    for line in lines:
        if line.second is None:
            byes.append(f"    {_cell(line.first, 22)} {_('bye')}")
        else:
            rows.append(
                f"{line.board:>2}. {_cell(line.first, 22)} – {_cell(line.second, 22)} {_result(line)}"
            )
    return rows + byes


def _block(head: str, rows: Sequence[str], tail: str = "") -> str:
    """``head`` and a code block of ``rows``, as many rows as fit the message."""
    budget = LIMIT - len(head) - len(tail) - 60
    shown: list[str] = []
    for row in rows:
        if sum(len(r) + 1 for r in shown) + len(row) + 1 > budget:
            break
        shown.append(row)
    more = len(rows) - len(shown)
    text = head + "\n```\n" + "\n".join(shown) + "\n```"
    if more:
        text += _("…and {count} more (see `/tournament export`).").format(count=more)
    return clip(text + tail)


def round_paired(
    name: str, number: int, rounds: int, boards: Sequence[BoardLine], held: bool, room: bool = False
) -> str:
    head = _("**{name}**, round {round} of {rounds}: pairings").format(
        name=plain(name, 80), round=number, rounds=rounds
    )
    tail = ""
    if held:
        tail = "\n" + _("The tournament is paused: these games start at `/tournament resume`.")
    elif room:
        tail = "\n" + _(PAIRED_TAIL)
    else:
        tail = "\n" + _("Each game has its own thread below. Good luck!")
    return _block(head, _boards(boards), tail)


def replays(name: str, number: int, boards: Sequence[BoardLine]) -> str:
    head = _("**{name}**, round {round}: drawn matches are replayed, colours reversed").format(
        name=plain(name, 80), round=number
    )
    return _block(head, _boards(boards))


def _table(kind: str, lines: Sequence[StandingLine]) -> list[str]:
    if kind == "scrabble":
        rows = [f"{'#':>3} {_cell(_('Entrant'), 24)} {_('Pts'):>4} {_('Spread'):>7} {_('Gms'):>3}"]
        for s in lines:
            mark = " (w)" if s.withdrawn else ""
            rows.append(
                f"{s.rank:>3} {_cell(s.label + mark, 24)} {_points(s.points):>4} {s.spread:>+7} {s.played:>3}"
            )
        return rows
    rows = [
        f"{'#':>3} {_cell(_('Entrant'), 24)} {_('Pts'):>4} {_('Buch'):>5} {_('SB'):>5} {_('Gms'):>3}"
    ]
    for s in lines:
        mark = " (w)" if s.withdrawn else ""
        rows.append(
            f"{s.rank:>3} {_cell(s.label + mark, 24)} {_points(s.points):>4} "
            f"{s.buchholz:>5g} {s.sonneborn_berger:>5g} {s.played:>3}"
        )
    return rows


def standings_after(
    name: str, kind: str, number: int, rounds: int, lines: Sequence[StandingLine]
) -> str:
    head = _("**{name}**: standings after round {round} of {rounds}").format(
        name=plain(name, 80), round=number, rounds=rounds
    )
    return _block(head, _table(kind, lines))


def final_table(name: str, kind: str, lines: Sequence[StandingLine]) -> str:
    head = _("🏁 **{name}** is over. Final table").format(name=plain(name, 80))
    winners = [s.label for s in lines if s.rank == 1]
    tail = "\n" + _("Winner: {names}! 🎉").format(names=" & ".join(plain(w, 40) for w in winners))
    return _block(head, _table(kind, lines), tail)


def standings_reply(
    name: str,
    kind: str,
    status: str,
    number: int,
    rounds: int,
    lines: Sequence[StandingLine],
    boards: Sequence[BoardLine],
) -> str:
    head = _("**{name}** ({status}), round {round} of {rounds}").format(
        name=plain(name, 80), status=status, round=number, rounds=rounds
    )
    rows = _table(kind, lines)
    if boards and status != "finished":
        rows += ["", _("Round {round}:").format(round=number), *_boards(boards)]
    return _block(head, rows)


def signup_list(name: str, labels: Sequence[str], checked: Sequence[bool], checkin: bool) -> str:
    head = _("**{name}** has not started: {count} entered").format(
        name=plain(name, 80), count=len(labels)
    )
    rows = [
        f"{i:>2}. {_cell(label, 40)}{' ✓' if checkin and here else ''}"
        for i, (label, here) in enumerate(zip(labels, checked, strict=True), start=1)
    ]
    return _block(head, rows or [_("(nobody yet)")])


def deadline_passed(name: str, number: int, scored: int) -> str:
    return ngettext(
        "⏰ **{name}**: round {round}'s deadline passed; {count} unfinished game is scored as it "
        "stands (chess a draw, Scrabble the scores now). The director may adjudicate.",
        "⏰ **{name}**: round {round}'s deadline passed; {count} unfinished games are scored as "
        "they stand (chess a draw, Scrabble the scores now). The director may adjudicate.",
        scored,
    ).format(name=plain(name, 80), round=number, count=scored)


def pairing_held(name: str, number: int, reason: str) -> str:
    return _(
        "⚠️ **{name}**: round {round} could not be paired ({reason}). The tournament is paused "
        "for its director."
    ).format(name=plain(name, 80), round=number, reason=reason)


def withdrawn_post(name: str, label: str, forfeited: int) -> str:
    if not forfeited:
        return _(
            "**{name}**: {entrant} withdrew; no game of this round was left to forfeit."
        ).format(name=plain(name, 80), entrant=plain(label, 40))
    return ngettext(
        "**{name}**: {entrant} withdrew; {count} game of this round is forfeited.",
        "**{name}**: {entrant} withdrew; {count} games of this round are forfeited.",
        forfeited,
    ).format(name=plain(name, 80), entrant=plain(label, 40), count=forfeited)


def game_forfeited(label: str) -> str:
    return _(
        "🏳️ {entrant} withdrew from the tournament: the game is forfeited (forfeits are not rated)."
    ).format(entrant=plain(label, 40))


def extended(name: str, number: int, deadline: datetime) -> str:
    return _("**{name}**: round {round}'s deadline is extended to {when} ({relative}).").format(
        name=plain(name, 80),
        round=number,
        when=absolute_time(deadline),
        relative=relative_time(deadline),
    )


def paused_post(name: str) -> str:
    return _("⏸️ **{name}** is paused by the director: games in play go on.").format(
        name=plain(name, 80)
    )


def resumed_post(name: str) -> str:
    return _("▶️ **{name}** resumes.").format(name=plain(name, 80))


def game_starter(
    name: str, number: int, board: int, first: str, second: str, user_ids: Sequence[int]
) -> str:
    mentions = " ".join(f"<@{uid}>" for uid in user_ids)
    return clip(
        _("**{name}**, round {round}, board {board}: {a} against {b}. {mentions}").format(
            name=plain(name, 80),
            round=number,
            board=board,
            a=plain(first, 40),
            b=plain(second, 40),
            mentions=mentions,
        )
    )


def thread_name(number: int, board: int, first: str, second: str) -> str:
    return _("R{round} B{board} · {a} vs {b}").format(round=number, board=board, a=first, b=second)[
        :THREAD_NAME_CHARS
    ]


RESULT_WORDS = RESULTS  # a member's own result: a win, a draw, a loss


def _log_sentence(line: LogLine, kind: str) -> str:
    """What one act did, as a sentence (its verb after the actor's name)."""
    d = line.detail
    who = plain(str(d.get("member", "")), 40)
    rnd = d.get("round", "")
    action = line.action
    if action == "create":
        game = GAMES.get(str(d.get("game")), str(d.get("game", "")))
        fmt = FORMATS.get(str(d.get("format")), str(d.get("format", "")))
        engine = str(d.get("pairing"))
        if d.get("game") == "chess" and engine in ENGINES:
            return _("made the tournament: {game}, {format}, paired by {engine}").format(
                game=game, format=fmt, engine=_(ENGINES[engine])
            )
        return _("made the tournament: {game}, {format}").format(game=game, format=fmt)
    if action == "pairing_fallback":
        return _(
            "found no legal FIDE Dutch pairing for round {round}, so paired it with the "
            "club's own engine"
        ).format(round=rnd)
    if action == "enter":
        return _("entered {name}").format(name=who)
    if action == "start":
        count, rounds = int(d.get("entrants", 0)), int(d.get("rounds", 0))
        return ngettext(
            "started it with {count} entrants and {rounds} round",
            "started it with {count} entrants and {rounds} rounds",
            rounds,
        ).format(count=count, rounds=rounds)
    if action == "not_checked_in":
        return _("left {name} out: not checked in").format(name=who)
    if action == "pair_round":
        boards = int(d.get("boards", 0))
        return ngettext(
            "paired round {round}: {count} board",
            "paired round {round}: {count} boards",
            boards,
        ).format(round=rnd, count=boards)
    if action == "pair":
        a, b = plain(str(d.get("first", "")), 40), plain(str(d.get("second", "")), 40)
        if kind == "chess":
            text = _("paired {a} (White) with {b} in round {round}").format(a=a, b=b, round=rnd)
        else:
            text = _("paired {a} with {b} in round {round}").format(a=a, b=b, round=rnd)
        repeat = d.get("repeat") or ("them" if d.get("warned") else "")
        if repeat == "them":
            text += _(", after a warning that they had met")
        elif repeat == "others":
            text += _(", after a warning that their opponents had met")
        return text
    if action == "adjudicate":
        result = str(d.get("result", ""))
        return _("set round {round}, board {board} to {result} for {name}").format(
            round=rnd,
            board=d.get("board", ""),
            result=_(RESULT_WORDS[result]) if result in RESULT_WORDS else plain(result, 20),
            name=who,
        )
    if action == "report":
        result = str(d.get("result", ""))
        return _("reported {result} in round {round}, board {board} (over the board)").format(
            result=_(RESULT_WORDS[result]) if result in RESULT_WORDS else plain(result, 20),
            round=rnd,
            board=d.get("board", ""),
        )
    if action == "report_conflict":
        return _(
            "found the two reports of round {round}, board {board} differing: the director's"
        ).format(round=rnd, board=d.get("board", ""))
    if action == "board_result":
        return _("recorded round {round}, board {board} as {score}: both reports agree").format(
            round=rnd, board=d.get("board", ""), score=score_text(float(d.get("score", 0.5)))
        )
    if action == "void":
        return _("voided round {round}, board {board} ({name}'s game)").format(
            round=rnd, board=d.get("board", ""), name=who
        )
    if action == "withdraw":
        count = int(d.get("forfeited", 0))
        if line.actor is not None and str(d.get("member")) == line.actor:
            if not count:
                return _("withdrew in round {round}; no games left to forfeit").format(round=rnd)
            return ngettext(
                "withdrew in round {round}; {count} game forfeited",
                "withdrew in round {round}; {count} games forfeited",
                count,
            ).format(round=rnd, count=count)
        if not count:
            return _("withdrew {name} in round {round}; no games left to forfeit").format(
                name=who, round=rnd
            )
        return ngettext(
            "withdrew {name} in round {round}; {count} game forfeited",
            "withdrew {name} in round {round}; {count} games forfeited",
            count,
        ).format(name=who, round=rnd, count=count)
    if action == "extend":
        extra = format_duration(timedelta(seconds=int(d.get("seconds", 0))))
        return _("gave round {round} {extra} more").format(round=rnd, extra=extra)
    if action == "pause":
        return _("paused it in round {round}").format(round=rnd)
    if action == "resume":
        return _("resumed it in round {round}").format(round=rnd)
    if action == "deadline":
        count = int(d.get("scored", 0))
        return ngettext(
            "ended round {round} at its deadline: {count} unfinished game scored",
            "ended round {round} at its deadline: {count} unfinished games scored",
            count,
        ).format(round=rnd, count=count)
    if action == "replay":
        count = int(d.get("boards", 0))
        return ngettext(
            "paired {count} replay of a drawn match in round {round}",
            "paired {count} replays of drawn matches in round {round}",
            count,
        ).format(round=rnd, count=count)
    if action == "end":
        return _("ended it in round {round}, its games event closed").format(round=rnd)
    if action == "finish":
        return _("finished it after round {round}").format(round=d.get("rounds", ""))
    if action == "pairing_failed":
        return _("could not pair round {round}: {reason}").format(
            round=rnd, reason=plain(str(d.get("reason", "")), 200)
        )
    return plain(action, 40)


def log_text(name: str, lines: Sequence[LogLine], kind: str = "chess") -> str:
    head = _("**{name}**: the director's log").format(name=plain(name, 80))
    rows = []
    for line in lines:
        who = plain(line.actor, 40) if line.actor else _("the bot")
        rows.append(f"{absolute_time(line.at)} **{who}** {_log_sentence(line, kind)}.")
    budget = LIMIT - len(head) - 80
    shown: list[str] = []
    for row in reversed(rows):  # the latest acts first to keep
        if sum(len(r) + 1 for r in shown) + len(row) + 1 > budget:
            break
        shown.insert(0, row)
    text = head + "\n" + "\n".join(shown)
    if len(shown) < len(rows):
        text += "\n" + _("…{count} earlier entries not shown.").format(count=len(rows) - len(shown))
    return clip(text)
