"""What a Scrabble game's thread sees: the board posts (with the words of the board
image), the log of moves in words, the end of the game, and the DMs a turn sends."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from bot.messages.i18n import N_, _, ngettext
from bot.messages.scrabble.names import (
    HOW_TO_PLAY,
    game_title,
    reason_text,
)
from bot.messages.text import clip, relative_time

# -- the game's thread --------------------------------------------------------------------------------


@dataclass(frozen=True)
class LastTurn:
    """The latest turn taken, in words: ``kind`` is play, exchange, pass, timeout,
    lost_turn (a failed challenge), withdrawn (a play challenged off) or resign."""

    kind: str
    who: str
    word: str = ""  # a play's whole main word (JIBE, not GCG's .IBE)
    position: str = ""
    score: int = 0
    tiles: int = 0  # how many an exchange swapped


def last_turn_text(turn: LastTurn) -> str:
    """``Alice played JIBE at 8H for 14``, ``Bob passed``, ``Bob exchanged 3 tiles``…"""
    who = turn.who
    if turn.kind == "play":
        return _("{who} played {word} at {position} for {score}").format(
            who=who, word=turn.word, position=turn.position, score=turn.score
        )
    if turn.kind == "exchange":
        return ngettext(
            "{who} exchanged {count} tile", "{who} exchanged {count} tiles", turn.tiles
        ).format(who=who, count=turn.tiles)
    template = {
        "timeout": N_("{who}'s turn clock ran out (a pass)"),
        "lost_turn": N_("{who}'s turn was skipped (failed challenge)"),
        "withdrawn": N_("{who}'s play was challenged off"),
        "resign": N_("{who} resigned"),
    }.get(turn.kind, N_("{who} passed"))
    return _(template).format(who=who)


@dataclass(frozen=True)
class BoardFacts:
    """What a board image shows, as its header and alt text say it (names unescaped)."""

    number: int
    moves: int
    names: Sequence[str]  # each seat's members, joined by " & "
    scores: Sequence[int]
    bag: int
    status: str  # the engine's: active, ending or finished
    to_play: str | None  # the seat to move, while the game waits for a move
    last: tuple[str, str, int, Sequence[str]] | None  # who, position, score, words (main first)
    latest: LastTurn | None = None  # the latest turn, when it was not that play


# About what one header line holds at the image's font before it is cut short.
HEADER_LINE_CHARS = 56


def _fitted(line: Callable[[str], str], name: str) -> str:
    """``line(name)``, with ``name`` cut short when the whole line would not fit."""
    whole = line(name)
    over = len(whole) - HEADER_LINE_CHARS
    return whole if over <= 0 else line(clip(name, max(8, len(name) - over)))


def picture_header(facts: BoardFacts) -> list[str]:
    seats = [f"{n} {s}" for n, s in zip(facts.names, facts.scores, strict=True)]
    header = [
        _("#{number} · {scores} · bag {bag}").format(
            number=facts.number, scores=" · ".join(seats), bag=facts.bag
        )
    ]
    if len(header[0]) > HEADER_LINE_CHARS:
        # Four pairs do not fit on one line: the scores go two seats to a line,
        # or one seat to a line (its names cut short, never its score) for long names.
        header = [_("#{number} · bag {bag}").format(number=facts.number, bag=facts.bag)]
        pairs = [" · ".join(seats[i : i + 2]) for i in range(0, len(seats), 2)]
        if all(len(line) <= HEADER_LINE_CHARS for line in pairs):
            header += pairs
        else:
            header += [
                _fitted(("{} " + str(score)).format, name)
                for name, score in zip(facts.names, facts.scores, strict=True)
            ]
    if facts.status == "finished":
        header.append(_("Game over"))
    elif facts.status == "ending":
        header.append(_("Final play: waiting for accept or challenge"))
    else:
        header.append(
            _fitted(lambda n: "▶ " + _("{seat} to play").format(seat=n), facts.to_play or "")
        )
    if facts.latest is not None:
        latest = facts.latest
        header.append(
            _fitted(
                lambda n: _("last: {turn}").format(
                    turn=last_turn_text(dataclasses.replace(latest, who=n))
                ),
                latest.who,
            )
        )
    elif facts.last is not None:
        who, position, score, words = facts.last
        header.append(
            _fitted(
                lambda n: _("last: {turn}").format(
                    turn=last_turn_text(LastTurn("play", n, words[0], position, score))
                ),
                who,
            )
        )
    return header


def board_alt_text(facts: BoardFacts) -> str:
    """The board image in words: the last play, the scores, the bag, whose turn."""
    scores = ", ".join(f"{n} {s}" for n, s in zip(facts.names, facts.scores, strict=True))
    if facts.last is None:
        last = _(NO_TILES_YET)
    else:
        who, position, score, words = facts.last
        last = _("Last play: {who}, {word} at {position} for {score} ({words}).").format(
            who=who, word=words[0], position=position, score=score, words=", ".join(words)
        )
    if facts.latest is not None:
        last += " " + _("Then: {turn}.").format(turn=last_turn_text(facts.latest))
    tiles = ngettext("{count} tile in the bag", "{count} tiles in the bag", facts.bag).format(
        count=facts.bag
    )
    if facts.status == "finished":
        state = _("The game is over.")
    elif facts.status == "ending":
        state = _("The final play waits to be accepted or challenged.")
    else:
        state = _("{seat} to play.").format(seat=facts.to_play)
    return _(
        "Scrabble #{number} board after move {moves}. {last} Scores: {scores}; {tiles}. {state}"
    ).format(
        number=facts.number, moves=facts.moves, last=last, scores=scores, tiles=tiles, state=state
    )


def record_alt_text(number: int) -> str:
    return _(
        "The record of Scrabble #{number} as a GCG text file: every move with its rack and score."
    ).format(number=number)


def board_post(number: int, moves: int, lines: Sequence[str]) -> str:
    heading = _("{title} · move {moves}").format(title=f"**{game_title(number)}**", moves=moves)
    return clip("\n".join([heading, *lines]))


def status_lines(
    labels: Sequence[str],
    scores: Sequence[int],
    bag: int,
    *,
    next_up: str | None,
    turn_due: datetime | None,
    deadline: datetime | None,
) -> list[str]:
    """The scores and the bag; whose turn and when it runs out; the game's deadline.
    ``next_up`` is the label, with the seat's mentions, of the seat to move."""
    scored = " · ".join(f"{label} **{s}**" for label, s in zip(labels, scores, strict=True))
    tiles = ngettext("{count} tile in the bag", "{count} tiles in the bag", bag).format(count=bag)
    lines = [_("Scores: {scores} — {tiles}").format(scores=scored, tiles=tiles)]
    if next_up is not None:
        turn = _("Next: {seat}").format(seat=next_up)
        if turn_due is not None:
            turn += " — " + _("turn clock ends {when}").format(when=relative_time(turn_due))
        lines.append(turn)
    if deadline is not None:
        lines.append(_("Game deadline {when}").format(when=relative_time(deadline)))
    return lines


def next_up(label: str, mentions: str | None) -> str:
    return label if mentions is None else f"{mentions} ({label})"


def _also(words: Sequence[str]) -> str:
    return " " + _("(also {words})").format(words=", ".join(words)) if words else ""


def last_play_line(who: str, position: str, score: int, words: Sequence[str]) -> str:
    return _("Last play: {who}, {word} at {position} for {score}").format(
        who=who, word=words[0], position=position, score=score
    ) + _also(words[1:])


def last_turn_line(turn: LastTurn) -> str:
    """The latest turn when it was not the last play (a pass, an exchange…)."""
    return _("Last turn: {turn}.").format(turn=last_turn_text(turn))


NO_TILES_YET = N_("No tiles on the board yet.")


def ending_text(*, computer_decides: bool, due: datetime | None, words: Sequence[str]) -> str:
    if computer_decides:
        return _("That play would end the game: the computer decides whether to challenge it.")
    if due:
        text = _(
            "That play would end the game. Opponents: **Accept** it or **Challenge** it by "
            "{when}; if nobody challenges, it stands ({words})."
        )
    else:
        text = _(
            "That play would end the game. Opponents: **Accept** it or **Challenge** it; "
            "if nobody challenges, it stands ({words})."
        )
    return text.format(when=relative_time(due) if due else "", words=", ".join(words))


def explain_text(
    number: int, found: Sequence[tuple[str, str]], missing: Sequence[str], who: str
) -> str:
    """The player is asked to explain the words just played in their own words (as
    the society plays it); definitions are shown where the dictionary has them."""
    lines = [_("**Explain the word** ({title})").format(title=game_title(number))]
    lines += [f"**{word}** — {definition}" for word, definition in found]
    words = [w for w, _definition in found] + list(missing)
    if words:
        asked = ", ".join(f"**{w}**" for w in words)
        lines.append(
            _("{who}, please explain {words} in your own words: press **Explain**.").format(
                who=who, words=asked
            )
        )
    return clip("\n".join(lines))


@dataclass(frozen=True)
class Standing:
    rank: int
    label: str
    final: int
    before: int
    adjustment: int  # for tiles left: negative when deducted
    resigned: bool


def game_over(
    reason: str,
    winners: Sequence[str],
    *,
    draw: bool,
    standings: Sequence[Standing],
    hints: Sequence[tuple[str, int]] | None,
    rated: bool,
    hinted: bool,
) -> list[str]:
    """The result lines of the final post (``hints``: each member's count, if hints were on)."""
    who = " & ".join(winners) or _("nobody")
    if draw:
        verdict = _("It's a draw between {who}.").format(who=who)
    else:
        verdict = _("Winner: {who}.").format(who=f"**{who}**")
    table = []
    for row in standings:
        sign = "+" if row.adjustment >= 0 else "−"
        note = (
            " "
            + _("({before} {sign} {change} for tiles)").format(
                before=row.before, sign=sign, change=abs(row.adjustment)
            )
            if row.adjustment
            else ""
        )
        resigned = " " + _("(resigned)") if row.resigned else ""
        table.append(f"{row.rank}. {row.label} — {row.final}{note}{resigned}")
    lines = [_game_over(reason) + " " + verdict, "\n".join(table)]
    if hints is not None:
        lines.append(
            _("Hints used: {counts}").format(
                counts=" · ".join(f"{name} {count}" for name, count in hints)
            )
        )
    if rated:
        lines.append(
            _("The game record (GCG) is attached; results and ratings are on `/leaderboard`.")
        )
    elif hinted:
        lines.append(_("The game record (GCG) is attached. Not rated (hints were on)."))
    else:
        lines.append(
            _("The game record (GCG) is attached. Not rated (a game against the computer).")
        )
    lines.append(_("`/scrabble analyse` shows each play beside the best one available."))
    return lines


def _game_over(reason: str) -> str:
    return _("**Game over** ({reason}).").format(reason=reason_text(reason))


def no_contest(reason: str, *, part_of: str | None = None) -> list[str]:
    """The result lines of a game that ended at its deadline before any tile was placed
    (RULES.md): nobody wins or loses, nothing is deducted, not rated; a tournament
    scores it a draw, a club session lists its players unranked."""
    text = _(
        "**No contest**: no tile was ever placed, so nobody wins or loses, no tiles are "
        "deducted and the game is not rated."
    )
    if part_of == "tournament":
        text += " " + _("The tournament scores it as a draw: ½ point each, spread 0.")
    elif part_of == "session":
        text += " " + _(
            "The session's results list this board as no contest: its players are not ranked."
        )
    return [_game_over(reason) + " " + text, _("The game record (GCG) is attached.")]


def your_turn(number: int, home: int | None, due: datetime | None) -> str:
    title = f"**{game_title(number)}**"
    if home:
        text = _("It's your turn in {title} in {channel}.").format(
            title=title, channel=f"<#{home}>"
        )
    else:
        text = _("It's your turn in {title}.").format(title=title)
    if due:
        text += " " + _("Your turn clock ends {when}.").format(when=relative_time(due))
    return f"{text}\n{_(HOW_TO_PLAY)}"


def reminder(number: int, home: int | None, due: datetime | None) -> str:
    when = relative_time(due) if due else _("soon")
    title = f"**{game_title(number)}**"
    if home:
        text = _(
            "Reminder: it's your turn in {title} in {channel}, and your turn clock runs out "
            "{when}. Play, exchange or pass before then, or the turn counts as a pass."
        )
    else:
        text = _(
            "Reminder: it's your turn in {title}, and your turn clock runs out {when}. "
            "Play, exchange or pass before then, or the turn counts as a pass."
        )
    return text.format(title=title, channel=f"<#{home}>", when=when) + f"\n{_(HOW_TO_PLAY)}"


def invitation_expired(number: int) -> str:
    return _("The invitation to {title} expired: not everyone accepted in time.").format(
        title=game_title(number)
    )


def describe_entries(
    entries: Sequence[Mapping[str, Any]], label: Callable[[int], str]
) -> list[str]:
    """One line per logged action (the engine's log entries), with nothing private in it."""
    lines: list[str] = []
    for entry in entries:
        seat = entry.get("seat")
        line = _entry_line(entry, f"**{label(seat)}**" if seat is not None else "", label)
        if line:
            lines.append(line)
    return lines


def _entry_line(entry: Mapping[str, Any], who: str, label: Callable[[int], str]) -> str:
    kind = entry["type"]
    if kind == "play":
        extra = []
        if len([c for c in entry["word"] if c != "."]) >= 7:
            extra.append(_("bingo! (+50 included)"))
        blanks = [c.upper() for c in entry["word"] if c.islower()]
        if blanks:
            extra.append(_("blank as {letters}").format(letters=", ".join(blanks)))
        line = _("{who} played {word} at {position} for {score}").format(
            who=who,
            word=f"**{entry['words'][0]}**",
            position=entry["position"],
            score=entry["score"],
        ) + _also(entry["words"][1:])
        return line + (f" — {'; '.join(extra)}" if extra else "") + "."
    if kind == "exchange":
        count = entry.get("count") or len(entry["tiles"])
        return ngettext(
            "{who} exchanged {count} tile.", "{who} exchanged {count} tiles.", count
        ).format(who=who, count=count)
    if kind == "pass":
        if entry.get("timed_out"):
            return _("{who}'s turn clock ran out: the turn counts as a pass.").format(who=who)
        if entry.get("lost_turn"):
            return _("{who}'s turn is skipped (failed challenge).").format(who=who)
        return _("{who} passed.").format(who=who)
    if kind == "challenge":
        challenged = label(entry["challenged_seat"])
        if entry["result"] != "withdrawn":
            return _(
                "{who} challenged {seat}'s play: it stands, every word is in the word list."
            ).format(who=who, seat=challenged)
        bad = entry["invalid_words"]
        return ngettext(
            "{who} challenged {seat}'s play: {words} is not in the word list. "
            "The play is taken back: no points for {seat} this turn.",
            "{who} challenged {seat}'s play: {words} are not in the word list. "
            "The play is taken back: no points for {seat} this turn.",
            len(bad),
        ).format(who=who, seat=challenged, words=f"**{', '.join(bad)}**")
    if kind == "rack":
        return _("{who}'s tiles left on the rack: {tiles}.").format(
            who=who, tiles=entry["tiles"] or "—"
        )
    if kind == "deadline" and entry.get("early"):
        return _("The moderator ended the session: the game ends now, unplayed tiles are deducted.")
    template = {
        "accept": N_("{who} accepted the final play."),
        "close": N_("Nobody challenged the final play in time: it stands."),
        "resign": N_("{who} resigned."),
        "deadline": N_(
            "The game's deadline has passed: the game ends now, unplayed tiles are deducted."
        ),
        "blocked": N_(
            "Nobody can make a play any more and the bag is too small to exchange: "
            "the game ends now, unplayed tiles are deducted."
        ),
    }.get(kind)
    return _(template).format(who=who) if template else ""
