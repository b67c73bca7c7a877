"""Chess's texts: the message beside every board and the board's alt text,
headlines, invitations, the games list, reminders, vacation notes, analysis and
button labels. What a command refuses is in ``refusals``; what the texts read
of a game is in ``facts``.

Built from plain data: a game as ``GameFacts`` describes it, names, ids and
moments. Members' names are escaped with ``plain`` where a message shows them
(no markdown, no mentions); autocomplete labels and thread names are not
markdown, so they keep names as written. Times are Discord timestamps, shown in
each reader's own time zone.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime

import chess

from bot.messages.chess.facts import GameFacts, RatingLine, mention, name, place
from bot.messages.i18n import N_, _, ngettext
from bot.messages.limits import ALT_TEXT_CHARS, EMBED_FIELD_VALUE_CHARS, THREAD_NAME_CHARS
from bot.messages.text import absolute_time, clip, format_duration, relative_time
from engines.chess_clock import TimeControl, clock_face
from engines.chess_game import COLOR_NAMES, Finish, Mistake, Termination, numbered_moves

MOVES_SHOWN = 8  # plies of move list in each board message
START_HINT = "`/chess new opponent:@member`"
COMPUTER_NAME = "Stockfish"  # the computer opponent's seat
SOMEONE = N_("A player")  # a player whose name is not known (never, in practice)


def someone() -> str:
    """``SOMEONE`` in the club's language."""
    return _(SOMEONE)


# --------------------------------------------------------------------------- the game's words


def colour(color: chess.Color) -> str:
    """White or Black, in the active language."""
    return _(COLOR_NAMES[color])


def control_label(control: TimeControl) -> str:
    """How a time control reads to a player: ``10+5``, ``3 days per move``."""
    if control.is_live:
        return control.text()
    if control.base_seconds % 86400 == 0:
        days = control.base_seconds // 86400
        return ngettext("{count} day per move", "{count} days per move", days).format(count=days)
    hours = control.base_seconds / 3600
    count = int(hours) if hours.is_integer() else 2
    return ngettext("{count} hour per move", "{count} hours per move", count).format(
        count=f"{hours:g}"
    )


_WINS = {
    Termination.CHECKMATE: N_("{winner} wins by checkmate."),
    Termination.RESIGNATION: N_("{winner} wins — {loser} resigned."),
    Termination.TIMEOUT: N_("{winner} wins on time — {loser} ran out."),
}
_DRAWS = {
    Termination.STALEMATE: N_("stalemate"),
    Termination.INSUFFICIENT_MATERIAL: N_("neither side can checkmate"),
    Termination.SEVENTYFIVE_MOVES: N_("seventy-five moves without a capture or pawn move"),
    Termination.FIVEFOLD_REPETITION: N_("the position occurred five times"),
    Termination.THREEFOLD_REPETITION: N_("threefold repetition, claimed"),
    Termination.FIFTY_MOVES: N_("fifty moves without a capture or pawn move, claimed"),
    Termination.AGREEMENT: N_("agreed"),
    Termination.TIMEOUT_VS_INSUFFICIENT: N_(
        "time ran out, but the opponent could not have checkmated"
    ),
}


def finish_text(finish: Finish, white: str, black: str) -> str:
    """How a game ended, in one sentence: "alice wins by checkmate."."""
    names = {chess.WHITE: white, chess.BLACK: black}
    t = finish.termination
    if finish.winner is not None:
        winner, loser = names[finish.winner], names[not finish.winner]
        template = _WINS.get(t)
        if template is None:
            return _("{winner} wins ({how}).").format(winner=winner, how=t.replace("_", " "))
        return _(template).format(winner=winner, loser=loser)
    why = _DRAWS.get(t)
    return _("Draw: {why}.").format(why=_(why) if why else t.replace("_", " "))


_MISTAKES = {"blunder": N_("blunder"), "mistake": N_("mistake"), "inaccuracy": N_("inaccuracy")}


def _clock_face(ms: int) -> str:
    # a day or more is a duration, in the club's language
    return format_duration(ms // 1000) if ms >= 86_400_000 else clock_face(ms)


# --------------------------------------------------------------------------- the board message


def board_text(
    game: GameFacts, headline: str = "", rating_changes: Sequence[RatingLine] = ()
) -> str:
    """The message beside a board image; it carries everything the image shows."""
    white, black = name(game.white), name(game.black)
    lines = [
        _("**Chess #{number}** · {white} (White) vs {black} (Black) · {control}").format(
            number=game.number, white=white, black=black, control=control_label(game.control)
        )
    ]
    if headline:
        lines.append(headline)
    if game.moves:
        lines.append(_("Moves: {moves}").format(moves=numbered_moves(game.sans, last=MOVES_SHOWN)))
    lines.append(status_line(game))
    clock = clock_line(game)
    if clock:
        lines.append(clock)
    if rating_changes:
        names = {
            uid: name(member)
            for seat in (game.white, game.black)
            for uid, member in seat.member_names().items()
        }
        lines.append(
            _("Ratings: {changes}").format(
                changes=", ".join(
                    f"{names.get(c.user_id, c.user_id)} {c.before:.0f} → {c.after:.0f}"
                    for c in rating_changes
                )
            )
        )
    lines.append(f"FEN `{game.board.fen()}`")
    return clip("\n".join(lines))


def status_line(game: GameFacts) -> str:
    if game.status == "invited":
        return _("Waiting for the challenge to be accepted.")
    if game.status == "abandoned":
        return _("This game was called off before it started.")
    finish = game.finish
    if finish is not None:
        return f"**{finish.result}** — {finish_text(finish, name(game.white), name(game.black))}"
    board = game.board
    mover = game.to_move
    who = name(mover) if mover.is_computer else " & ".join(mention(u) for u in mover.user_ids)
    line = _("Move {number} · {side} to play: {who}").format(
        number=board.fullmove_number, side=f"**{colour(board.turn)}**", who=who
    )
    if board.is_check():
        line += " — " + _("check!")
    if game.draw_offer is not None:
        line += "\n🤝 " + _("{name} offers a draw.").format(name=name(game.player(game.draw_offer)))
    return line


def clock_line(game: GameFacts) -> str:
    clock = game.clock
    if clock is None or game.status != "active":
        return ""
    turn = game.board.turn
    flag = clock.flag_time()
    if game.is_live:
        white = _clock_face(game.remaining_ms(chess.WHITE) or 0)
        black = _clock_face(game.remaining_ms(chess.BLACK) or 0)
        return "⏱ " + _("White {white} · Black {black} · {side}'s flag falls {when}").format(
            white=white, black=black, side=colour(turn), when=relative_time(flag)
        )
    line = "⏳ " + _("{name} moves by {time} ({when})").format(
        name=name(game.player(turn)), time=absolute_time(flag), when=relative_time(flag)
    )
    away = clock.vacation_until(turn, game.as_of)
    if away is not None:
        line += " — " + _("on vacation until {time}, clock paused").format(time=absolute_time(away))
    return line


def board_alt_text(game: GameFacts, side: chess.Color) -> str:
    """The board image in words: the last move, whose move, the side it is drawn from, the FEN."""
    board = game.board
    if game.moves:
        text = _(
            "Chess board after {move}, {turn} to move, seen from {side}'s side. FEN {fen}"
        ).format(
            move=numbered_moves(game.sans, last=1),
            turn=colour(board.turn),
            side=colour(side),
            fen=board.fen(),
        )
    else:
        text = _("Chess board, {turn} to move, seen from {side}'s side. FEN {fen}").format(
            turn=colour(board.turn), side=colour(side), fen=board.fen()
        )
    return text[:ALT_TEXT_CHARS]


def thread_name(game: GameFacts) -> str:
    return _("Chess #{number}: {white} vs {black}").format(
        number=game.number, white=game.white.name, black=game.black.name
    )[:THREAD_NAME_CHARS]


# --------------------------------------------------------------------------- headlines

# What a player did, as the board message's headline: .format(their plain name)
RESIGNED = N_("{} resigned.")
DRAW_CLAIMED = N_("{} claimed a draw.")
DRAW_ACCEPTED = N_("{} accepted the draw offer.")
DRAW_OFFERED = N_("{} offers a draw.")
DRAW_WITHDRAWN = N_("{} withdrew their draw offer.")
DRAW_DECLINED = N_("{} declined the draw offer. Play on!")


def news(template: str, player: str) -> str:
    """A headline from one of the templates above, naming ``player`` as plain text."""
    return _(template).format(name(player))


def played(player: str, san: str) -> str:
    return _("{name} played {move}.").format(name=name(player), move=f"**{san}**")


def game_on(game: GameFacts) -> str:
    return (
        _("Game on! {white} has White, {black} has Black ({control}).").format(
            white=name(game.white), black=name(game.black), control=control_label(game.control)
        )
        + "\n"
        + _(HOW_TO_MOVE)
    )


HOW_TO_MOVE = N_("Play with `/chess move`, for example `/chess move move:e4` (or UCI like `g1f3`).")


# --------------------------------------------------------------------------- invitations


def invitation(game: GameFacts, challenger_id: int, opponent_id: int) -> str:
    if game.white.user_id == challenger_id:
        text = _(
            "{opponent}, {challenger} challenges you to Chess #{number} "
            "({control}; they play White). Accept to start: the game gets its own thread."
        )
    else:
        text = _(
            "{opponent}, {challenger} challenges you to Chess #{number} "
            "({control}; they play Black). Accept to start: the game gets its own thread."
        )
    return text.format(
        opponent=mention(opponent_id),
        challenger=mention(challenger_id),
        number=game.number,
        control=control_label(game.control),
    )


def team_invitation(game: GameFacts, challenger_id: int, invited_ids: Sequence[int]) -> str:
    """The invitation to a game where a side is a pair: everyone named but the challenger accepts."""
    return _(
        "{invited}: {challenger} invites you to Chess #{number} ({control}), "
        "{white} (White) vs {black} (Black). Either partner of a pair moves for the side. "
        "The game starts once everyone invited accepts, in its own thread."
    ).format(
        invited=" ".join(mention(u) for u in invited_ids),
        challenger=mention(challenger_id),
        number=game.number,
        control=control_label(game.control),
        white=name(game.white),
        black=name(game.black),
    )


def waiting_for(game: GameFacts, names: Sequence[str]) -> str:
    """A member accepted a pair's game that still waits for others."""
    return _("You accepted Chess #{number}. Waiting for {names} to press **Accept**.").format(
        number=game.number, names=", ".join(name(n) for n in names)
    )


def accepted(game: GameFacts, *, in_thread: bool) -> str:
    if in_thread:
        text = _(
            "Chess #{number}: {white} (White) vs {black} (Black), {control} — accepted! "
            "The game is in this thread."
        )
    else:
        text = _(
            "Chess #{number}: {white} (White) vs {black} (Black), {control} — accepted! "
            "The game is in the thread below."
        )
    return text.format(
        number=game.number,
        white=name(game.white),
        black=name(game.black),
        control=control_label(game.control),
    )


def challenge_answered(game: GameFacts, *, withdrawn: bool, by: str) -> str:
    if withdrawn:
        text = _("Chess challenge #{number} ({white} vs {black}) was withdrawn.")
    else:
        text = _("Chess challenge #{number} ({white} vs {black}) was declined by {name}.")
    return text.format(
        number=game.number, white=name(game.white), black=name(game.black), name=name(by)
    )


def challenge_expired(game: GameFacts) -> str:
    return _("The chess challenge #{number} ({white} vs {black}) expired unanswered.").format(
        number=game.number, white=name(game.white), black=name(game.black)
    )


def computer_game_started(game: GameFacts, player_id: int, level: int | None) -> str:
    return _(
        "Chess #{number}: {player} vs Stockfish (level {level}, {control}). "
        "The game is in the thread below."
    ).format(
        number=game.number,
        player=mention(player_id),
        level=level,
        control=control_label(game.control),
    )


# --------------------------------------------------------------------------- replies


def posted_here(headline: str) -> str:
    """The private answer to a move made in the game's thread: its board is posted there."""
    # its own sentence: the headline starts with a capital in every language
    return _("Done. {headline} The board is posted here for everyone.").format(headline=headline)


def posted_in(place_id: int | None) -> str:
    """Before a private copy of a board whose news went to the game's thread."""
    if not place_id:
        return ""
    return _("Done — posted in {place}.").format(place=place(place_id)) + "\n"


def pgn_reply(number: int) -> str:
    return _("Chess #{number} as PGN — it opens in any chess program.").format(number=number)


def pgn_description(number: int) -> str:
    return _("PGN of chess game {number}").format(number=number)


def game_line(game: GameFacts, user_id: int) -> str:
    """One line for ``/chess games`` and the autocomplete of ``game`` (not markdown)."""
    color = game.color_of(user_id)
    opponent = game.player(not color) if color is not None else None
    if opponent:
        vs = _("vs {name}").format(name=opponent.name)
    else:
        vs = _("{white} vs {black}").format(white=game.white.name, black=game.black.name)
    if game.status == "invited":
        state = _("invitation pending")
    elif game.status == "active":
        if game.board.turn == color:
            state = _("your move")
        else:
            state = _("{name} to move").format(name=game.to_move.name)
    elif game.finish is not None:
        state = game.finish.result
    else:
        state = game.status
    return f"#{game.number} {vs} · {state} · {control_label(game.control)}"


def games_list(games: Sequence[GameFacts], user_id: int) -> str:
    """The lines of ``/chess games``: each game, when its time runs out, where it is."""

    def line(game: GameFacts) -> str:
        text = game_line(game, user_id)
        flag = game.flag_time()
        if flag is not None:
            text += " · " + _("time runs out {when}").format(when=relative_time(flag))
        if game.place_id:
            text += f" · {place(game.place_id)}"
        return text

    return "\n".join(line(g) for g in games)[:EMBED_FIELD_VALUE_CHARS]


GAMES_TITLE = N_("Your chess games")
GAMES_IN_PROGRESS = N_("In progress")
GAMES_FINISHED = N_("Recently finished")
NO_GAMES = N_("None. Start one with `/chess new opponent:@member`.")


# --------------------------------------------------------------------------- correspondence


def reminder(game: GameFacts, flag: datetime) -> tuple[str, str]:
    """A DM to the player to move, and what the game's thread says instead if DMs are closed."""
    opponent = game.player(not game.board.turn)
    where = place(game.place_id) if game.place_id else _("the game's channel")
    text = "♟ " + _(
        "Your move in Chess #{number} against {name}: your time runs out {when} ({time}). "
        "Play with `/chess move` in {where} — or `/chess vacation` if you need a break."
    ).format(
        number=game.number,
        name=name(opponent),
        when=relative_time(flag),
        time=absolute_time(flag),
        where=where,
    )
    fallback = _("your move in Chess #{number}: time runs out {when}.").format(
        number=game.number, when=relative_time(flag)
    )
    return text, fallback


def vacation_note(number: int, player: str, until: datetime | None) -> str:
    if until:
        note = _("{name} is on vacation until {time}: their clock is paused.").format(
            name=name(player), time=absolute_time(until)
        )
    else:
        note = _("{name} is back from vacation: their clock runs again.").format(name=name(player))
    return _("**Chess #{number}** · {note}").format(number=number, note=note)


def vacation_reply(numbers: Sequence[int], until: datetime | None, days_left: float) -> str:
    ids = ", ".join(f"#{n}" for n in numbers)
    if until is None:
        return _("Welcome back! Your clock runs again in {games}.").format(games=ids)
    return _(
        "Enjoy your break: your clock is paused in {games} until {time} ({when}). "
        "Vacation left in this game: {days} days. "
        "Use `/chess vacation days:0` to come back early."
    ).format(
        games=ids, time=absolute_time(until), when=relative_time(until), days=f"{days_left:.1f}"
    )


# --------------------------------------------------------------------------- analysis


def analysis(
    game: GameFacts, mistakes: Mapping[chess.Color, Sequence[Mistake]], engine: str
) -> str:
    lines = [
        _("**Analysis of Chess #{number}** ({white} vs {black}, {engine})").format(
            number=game.number, white=name(game.white), black=name(game.black), engine=engine
        )
    ]
    for color in (chess.WHITE, chess.BLACK):
        found = mistakes.get(color, [])
        who = f"**{name(game.player(color))}**"
        if not found:
            lines.append(
                _("{player} ({side}): no move lost 50 centipawns or more. Well played!").format(
                    player=who, side=colour(color)
                )
            )
            continue
        lines.append(
            _("{player} ({side}): biggest mistakes").format(player=who, side=colour(color))
        )
        for m in found:
            label = _(_MISTAKES.get(m.label, m.label))
            loss = f"{m.loss_cp / 100:.1f}"
            if m.best_san:
                text = _("{number} {move} — {label}, lost {pawns} pawns; better was {best}")
            else:
                text = _("{number} {move} — {label}, lost {pawns} pawns")
            lines.append(
                "• "
                + text.format(
                    number=m.move_number,
                    move=m.san,
                    label=label,
                    pawns=loss,
                    best=f"**{m.best_san}**",
                )
            )
    lines.append(
        _(
            "Losses are in centipawns from the engine's evaluation before and after each move "
            "(a mate counts as 10 pawns)."
        )
    )
    return clip("\n".join(lines))


# --------------------------------------------------------------------------- buttons

ACCEPT, DECLINE = N_("Accept"), N_("Decline")
ACCEPT_DRAW, DECLINE_DRAW = N_("Accept draw"), N_("Decline draw")
PIECE_NAMES = {"q": N_("Queen"), "r": N_("Rook"), "b": N_("Bishop"), "n": N_("Knight")}


def promotion_label(piece: str, san: str) -> str:
    return f"{_(PIECE_NAMES[piece])} ({san})"
