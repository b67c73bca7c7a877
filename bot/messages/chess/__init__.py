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
from bot.messages.limits import ALT_TEXT_CHARS, EMBED_FIELD_VALUE_CHARS, THREAD_NAME_CHARS
from bot.messages.text import absolute_time, clip, relative_time
from engines.chess_clock import clock_face
from engines.chess_game import Mistake, color_name, numbered_moves

MOVES_SHOWN = 8  # plies of move list in each board message
START_HINT = "`/chess new opponent:@member`"
COMPUTER_NAME = "Stockfish"  # the computer opponent's seat
SOMEONE = "A player"  # a player whose name is not known (never, in practice)


# --------------------------------------------------------------------------- the board message


def board_text(
    game: GameFacts, headline: str = "", rating_changes: Sequence[RatingLine] = ()
) -> str:
    """The message beside a board image; it carries everything the image shows."""
    white, black = name(game.white), name(game.black)
    lines = [
        f"**Chess #{game.number}** · {white} (White) vs {black} (Black) · {game.control.label()}"
    ]
    if headline:
        lines.append(headline)
    if game.moves:
        lines.append(f"Moves: {numbered_moves(game.sans, last=MOVES_SHOWN)}")
    lines.append(status_line(game))
    clock = clock_line(game)
    if clock:
        lines.append(clock)
    if rating_changes:
        names = {game.white.user_id: white, game.black.user_id: black}
        lines.append(
            "Ratings: "
            + ", ".join(
                f"{names.get(c.user_id, c.user_id)} {c.before:.0f} → {c.after:.0f}"
                for c in rating_changes
            )
        )
    lines.append(f"FEN `{game.board.fen()}`")
    return clip("\n".join(lines))


def status_line(game: GameFacts) -> str:
    if game.status == "invited":
        return "Waiting for the challenge to be accepted."
    if game.status == "abandoned":
        return "This game was called off before it started."
    finish = game.finish
    if finish is not None:
        return f"**{finish.result}** — {finish.describe(name(game.white), name(game.black))}"
    board = game.board
    mover = game.to_move
    who = name(mover) if mover.is_computer else mention(mover.user_id)
    line = f"Move {board.fullmove_number} · **{color_name(board.turn)}** to play: {who}"
    if board.is_check():
        line += " — check!"
    if game.draw_offer is not None:
        line += f"\n🤝 {name(game.player(game.draw_offer))} offers a draw."
    return line


def clock_line(game: GameFacts) -> str:
    clock = game.clock
    if clock is None or game.status != "active":
        return ""
    turn = game.board.turn
    flag = clock.flag_time()
    if game.is_live:
        white = clock_face(game.remaining_ms(chess.WHITE) or 0)
        black = clock_face(game.remaining_ms(chess.BLACK) or 0)
        return f"⏱ White {white} · Black {black} · {color_name(turn)}'s flag falls {relative_time(flag)}"
    line = f"⏳ {name(game.player(turn))} moves by {absolute_time(flag)} ({relative_time(flag)})"
    away = clock.vacation_until(turn, game.as_of)
    if away is not None:
        line += f" — on vacation until {absolute_time(away)}, clock paused"
    return line


def board_alt_text(game: GameFacts, side: chess.Color) -> str:
    """The board image in words: the last move, whose move, the side it is drawn from, the FEN."""
    board = game.board
    last = f" after {numbered_moves(game.sans, last=1)}" if game.moves else ""
    text = (
        f"Chess board{last}, {color_name(board.turn)} to move, "
        f"seen from {color_name(side)}'s side. FEN {board.fen()}"
    )
    return text[:ALT_TEXT_CHARS]


def thread_name(game: GameFacts) -> str:
    return f"Chess #{game.number}: {game.white.name} vs {game.black.name}"[:THREAD_NAME_CHARS]


# --------------------------------------------------------------------------- headlines

# What a player did, as the board message's headline: .format(their plain name)
RESIGNED = "{} resigned."
DRAW_CLAIMED = "{} claimed a draw."
DRAW_ACCEPTED = "{} accepted the draw offer."
DRAW_OFFERED = "{} offers a draw."
DRAW_WITHDRAWN = "{} withdrew their draw offer."
DRAW_DECLINED = "{} declined the draw offer. Play on!"


def news(template: str, player: str) -> str:
    """A headline from one of the templates above, naming ``player`` as plain text."""
    return template.format(name(player))


def played(player: str, san: str) -> str:
    return f"{name(player)} played **{san}**."


def game_on(game: GameFacts) -> str:
    return (
        f"Game on! {name(game.white)} has White, {name(game.black)} has Black "
        f"({game.control.label()}).\n"
        f"{HOW_TO_MOVE}"
    )


HOW_TO_MOVE = "Play with `/chess move`, for example `/chess move move:e4` (or UCI like `g1f3`)."


# --------------------------------------------------------------------------- invitations


def invitation(game: GameFacts, challenger_id: int, opponent_id: int) -> str:
    colour = "White" if game.white.user_id == challenger_id else "Black"
    return (
        f"{mention(opponent_id)}, {mention(challenger_id)} challenges you to chess #{game.number} "
        f"({game.control.label()}; they play {colour}). Accept to start: the game gets its own thread."
    )


def accepted(game: GameFacts, *, in_thread: bool) -> str:
    where = "this thread" if in_thread else "the thread below"
    return (
        f"Chess #{game.number}: {name(game.white)} (White) vs {name(game.black)} (Black), "
        f"{game.control.label()} — accepted! The game is in {where}."
    )


def challenge_answered(game: GameFacts, *, withdrawn: bool, by: str) -> str:
    who = "withdrawn" if withdrawn else f"declined by {name(by)}"
    return f"Chess challenge #{game.number} ({name(game.white)} vs {name(game.black)}) was {who}."


def challenge_expired(game: GameFacts) -> str:
    return (
        f"The chess challenge #{game.number} ({name(game.white)} vs {name(game.black)}) "
        "expired unanswered."
    )


def computer_game_started(game: GameFacts, player_id: int, level: int | None) -> str:
    return (
        f"Chess #{game.number}: {mention(player_id)} vs Stockfish (level {level}, "
        f"{game.control.label()}). The game is in the thread below."
    )


# --------------------------------------------------------------------------- replies


def posted_here(headline: str) -> str:
    """The private answer to a move made in the game's thread: its board is posted there."""
    return f"Done — {headline} The board is posted here for everyone."


def posted_in(place_id: int | None) -> str:
    """Before a private copy of a board whose news went to the game's thread."""
    return f"Done — posted in {place(place_id)}.\n" if place_id else ""


def pgn_reply(number: int) -> str:
    return f"Chess #{number} as PGN — it opens in any chess program."


def pgn_description(number: int) -> str:
    return f"PGN of chess game {number}"


def game_line(game: GameFacts, user_id: int) -> str:
    """One line for ``/chess games`` and the autocomplete of ``game`` (not markdown)."""
    color = game.color_of(user_id)
    opponent = game.player(not color) if color is not None else None
    vs = f"vs {opponent.name}" if opponent else f"{game.white.name} vs {game.black.name}"
    if game.status == "invited":
        state = "invitation pending"
    elif game.status == "active":
        state = "your move" if game.board.turn == color else f"{game.to_move.name} to move"
    elif game.finish is not None:
        state = game.finish.result
    else:
        state = game.status
    return f"#{game.number} {vs} · {state} · {game.control.label()}"


def games_list(games: Sequence[GameFacts], user_id: int) -> str:
    """The lines of ``/chess games``: each game, when its time runs out, where it is."""

    def line(game: GameFacts) -> str:
        text = game_line(game, user_id)
        flag = game.flag_time()
        if flag is not None:
            text += f" · time runs out {relative_time(flag)}"
        if game.place_id:
            text += f" · {place(game.place_id)}"
        return text

    return "\n".join(line(g) for g in games)[:EMBED_FIELD_VALUE_CHARS]


GAMES_TITLE = "Your chess games"
GAMES_IN_PROGRESS = "In progress"
GAMES_FINISHED = "Recently finished"
NO_GAMES = f"None. Start one with {START_HINT}."


# --------------------------------------------------------------------------- correspondence


def reminder(game: GameFacts, flag: datetime) -> tuple[str, str]:
    """A DM to the player to move, and what the game's thread says instead if DMs are closed."""
    opponent = game.player(not game.board.turn)
    where = place(game.place_id) if game.place_id else "the game's channel"
    text = (
        f"♟ Your move in chess #{game.number} against {name(opponent)}: your time runs out "
        f"{relative_time(flag)} ({absolute_time(flag)}). Play with `/chess move` in {where}"
        " — or `/chess vacation` if you need a break."
    )
    fallback = f"your move in chess #{game.number}: time runs out {relative_time(flag)}."
    return text, fallback


def vacation_note(number: int, player: str, until: datetime | None) -> str:
    note = (
        f"{name(player)} is on vacation until {absolute_time(until)}: their clock is paused."
        if until
        else f"{name(player)} is back from vacation: their clock runs again."
    )
    return f"**Chess #{number}** · {note}"


def vacation_reply(numbers: Sequence[int], until: datetime | None, days_left: float) -> str:
    ids = ", ".join(f"#{n}" for n in numbers)
    if until is None:
        return f"Welcome back! Your clock runs again in {ids}."
    return (
        f"Enjoy your break: your clock is paused in {ids} until {absolute_time(until)} "
        f"({relative_time(until)}). Vacation left in this game: {days_left:.1f} days. "
        "Use `/chess vacation days:0` to come back early."
    )


# --------------------------------------------------------------------------- analysis


def analysis(
    game: GameFacts, mistakes: Mapping[chess.Color, Sequence[Mistake]], engine: str
) -> str:
    lines = [
        f"**Analysis of chess #{game.number}** ({name(game.white)} vs {name(game.black)}, {engine})"
    ]
    for color in (chess.WHITE, chess.BLACK):
        found = mistakes.get(color, [])
        who = name(game.player(color))
        if not found:
            lines.append(
                f"**{who}** ({color_name(color)}): no move lost 50 centipawns or more. Well played!"
            )
            continue
        lines.append(f"**{who}** ({color_name(color)}): biggest mistakes")
        for m in found:
            better = f"; better was **{m.best_san}**" if m.best_san else ""
            lines.append(
                f"• {m.move_number} {m.san} — {m.label}, lost {m.loss_cp / 100:.1f} pawns{better}"
            )
    lines.append(
        "Losses are in centipawns from the engine's evaluation before and after each move (a mate counts as 10 pawns)."
    )
    return clip("\n".join(lines))


# --------------------------------------------------------------------------- buttons

ACCEPT, DECLINE = "Accept", "Decline"
ACCEPT_DRAW, DECLINE_DRAW = "Accept draw", "Decline draw"
PIECE_NAMES = {"q": "Queen", "r": "Rook", "b": "Bishop", "n": "Knight"}


def promotion_label(piece: str, san: str) -> str:
    return f"{PIECE_NAMES[piece]} ({san})"
