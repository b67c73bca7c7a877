"""Chess rules the bot adds on top of python-chess: reading what a player typed,
suggesting moves, deciding how a game ends, and scoring mistakes.

Pure: python-chess and the standard library only. Every error is a
``ChessMoveError`` (a ``ValueError``) whose message can be shown to the player
as is, usually with a few legal moves to choose from.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import chess

from engines.text import N_, Text, TextError

MOVE_HELP = N_("Write moves in SAN (`Nf3`, `exd5`, `O-O`, `e8=Q`) or UCI (`g1f3`, `e7e8q`).")
MAX_SUGGESTIONS = 25  # Discord shows at most 25 autocomplete choices

_ANNOTATIONS = re.compile(r"[!?+#]+$")
_EN_PASSANT = re.compile(r"(e\.?p\.?)$", re.IGNORECASE)
_COORDINATES = re.compile(r"^([a-h][1-8])[-x:]?([a-h][1-8])=?([qrbn])?$", re.IGNORECASE)
_PAWN_TO_LAST_RANK = re.compile(r"^(?:([a-h])x)?([a-h][18])$")
_CASTLING = {"o-o": "O-O", "0-0": "O-O", "o-o-o": "O-O-O", "0-0-0": "O-O-O"}
_PIECE_LETTERS = "KQRBN"


class ChessError(TextError):
    """Base class: something the rules do not allow, explained for the player."""


class ChessMoveError(ChessError):
    """A move that cannot be played; ``suggestions`` are legal moves worth showing."""

    def __init__(self, message: str | Text, suggestions: Sequence[str] = ()) -> None:
        super().__init__(message)
        self.suggestions = tuple(suggestions)


class UnreadableMoveError(ChessMoveError):
    """The text is not a move in any notation the bot reads."""


class IllegalChessMoveError(ChessMoveError):
    """A well-formed move that the rules forbid in this position."""


class AmbiguousChessMoveError(ChessMoveError):
    """Several pieces could make the move; the candidates are the suggestions."""


class PromotionChoiceError(ChessMoveError):
    """A pawn reaches the last rank and the piece was not named."""

    def __init__(
        self, message: str | Text, moves: Sequence[chess.Move], suggestions: Sequence[str]
    ) -> None:
        super().__init__(message, suggestions)
        self.moves = tuple(moves)  # the same move with each possible piece, queen first


class DrawClaimError(ChessError):
    """A draw claim the position does not support."""


class ChessStateError(ChessError):
    """A stored move list that does not replay (a bug or a damaged row)."""


# ------------------------------------------------------------------- replay


def _stored_move(board: chess.Board, ply: int, uci: str) -> chess.Move:
    """Ply ``ply`` of a stored game, checked legal in ``board`` (else ``ChessStateError``)."""
    try:
        move = chess.Move.from_uci(uci)
    except ValueError:
        raise ChessStateError(f"move {ply} ({uci!r}) is not UCI") from None
    if not board.is_legal(move):
        raise ChessStateError(f"move {ply} ({uci}) is illegal in {board.fen()}")
    return move


def board_from_moves(moves: Iterable[str]) -> chess.Board:
    """The position after the UCI ``moves`` from the standard start, with its history."""
    board = chess.Board()
    for ply, uci in enumerate(moves, start=1):
        board.push(_stored_move(board, ply, uci))
    return board


def play_stored(board: chess.Board, ply: int, uci: str) -> str:
    """Push ply ``ply`` (``uci``) of a stored game onto ``board``, checked as
    ``board_from_moves`` checks it (else ``ChessStateError``); its SAN."""
    return board.san_and_push(_stored_move(board, ply, uci))


def replay(moves: Iterable[str]) -> tuple[chess.Board, list[str]]:
    """``board_from_moves`` and the SAN of each move (``san_moves``) in one pass:
    what a command showing the game needs, for one replay of its moves instead of two."""
    board = chess.Board()
    sans = [play_stored(board, ply, uci) for ply, uci in enumerate(moves, start=1)]
    return board, sans


def san_moves(moves: Sequence[str]) -> list[str]:
    """The SAN of each UCI move, replayed from the start."""
    board = chess.Board()
    out = []
    for uci in moves:
        move = chess.Move.from_uci(uci)
        out.append(board.san(move))
        board.push(move)
    return out


def numbered_moves(sans: Sequence[str], *, last: int | None = None) -> str:
    """``1. e4 e5 2. Nf3``; with ``last``, only the final plies (``12... Qxe4 13. Nf3``)."""
    start = 0 if last is None else max(0, len(sans) - last)
    parts = []
    for ply in range(start, len(sans)):
        number = ply // 2 + 1
        if ply % 2 == 0:
            parts.append(f"{number}. {sans[ply]}")
        elif ply == start:
            parts.append(f"{number}... {sans[ply]}")
        else:
            parts.append(sans[ply])
    return " ".join(parts)


COLOR_NAMES = {chess.WHITE: N_("White"), chess.BLACK: N_("Black")}
PIECE_NAMES = {
    chess.PAWN: N_("pawn"),
    chess.KNIGHT: N_("knight"),
    chess.BISHOP: N_("bishop"),
    chess.ROOK: N_("rook"),
    chess.QUEEN: N_("queen"),
    chess.KING: N_("king"),
}


def color_name(color: chess.Color) -> str:
    """The side's name as a template still to translate: ``White``, ``Black``."""
    return COLOR_NAMES[color]


def _side(color: chess.Color) -> Text:
    return Text(COLOR_NAMES[color])


def _piece(piece_type: chess.PieceType) -> Text:
    return Text(PIECE_NAMES[piece_type])


# ------------------------------------------------------------------- reading moves


def _clean(text: str) -> str:
    cleaned = text.strip().replace(" ", "")
    cleaned = _EN_PASSANT.sub("", cleaned)
    cleaned = _ANNOTATIONS.sub("", cleaned)
    return _CASTLING.get(cleaned.lower(), cleaned)


def parse_move(board: chess.Board, text: str) -> chess.Move:
    """The legal move ``text`` means in ``board``: SAN, UCI or long algebraic.

    Raises ``PromotionChoiceError`` when a pawn reaches the last rank without a
    named piece, and other ``ChessMoveError``s with legal moves to suggest.
    """
    raw = text.strip()
    if not raw:
        raise UnreadableMoveError(
            Text(N_("Which move? {help}"), help=Text(MOVE_HELP)), suggest_moves(board)
        )
    if len(raw) > 20:
        raise UnreadableMoveError(
            Text(N_("That is too long to be a move. {help}"), help=Text(MOVE_HELP)),
            suggest_moves(board),
        )
    cleaned = _clean(raw)
    if not cleaned:
        raise UnreadableMoveError(_unreadable(raw), suggest_moves(board))
    coordinates = _COORDINATES.match(cleaned)
    if coordinates:
        origin, target, piece = coordinates.groups()
        return _from_coordinates(board, raw, origin.lower(), target.lower(), piece)
    return _from_san(board, raw, cleaned)


def _from_coordinates(
    board: chess.Board, raw: str, origin: str, target: str, piece: str | None
) -> chess.Move:
    from_square, to_square = chess.parse_square(origin), chess.parse_square(target)
    candidates = [
        m for m in board.legal_moves if m.from_square == from_square and m.to_square == to_square
    ]
    if piece:
        wanted = chess.Piece.from_symbol(piece.lower()).piece_type
        chosen = [m for m in candidates if m.promotion == wanted]
        if chosen:
            return chosen[0]
        if candidates and not any(m.promotion for m in candidates):
            plain = board.san(candidates[0])
            raise IllegalChessMoveError(
                Text(
                    N_(
                        "{move} names a promotion piece, but only a pawn reaching the last "
                        "rank is promoted: write {plain}."
                    ),
                    move=f"`{raw[:20]}`",
                    plain=f"`{plain}`",
                ),
                [plain],
            )
    elif len(candidates) == 1 and candidates[0].promotion is None:
        return candidates[0]
    if candidates and all(m.promotion for m in candidates):
        raise _promotion_choice(board, candidates)
    raise _illegal(board, raw, from_square=from_square, to_square=to_square)


def _from_san(board: chess.Board, raw: str, cleaned: str) -> chess.Move:
    attempts = [cleaned]
    if cleaned[:1] in "kqrn" or (cleaned[:1] == "b" and not re.match(r"^b(x[a-h])?[1-8]", cleaned)):
        # "nf3" means Nf3; "bb5" means Bb5 (python-chess would read a pawn move
        # from the b-file), while "b5" and "bxc3" stay pawn moves.
        attempts.insert(0, cleaned[0].upper() + cleaned[1:])
    if re.search(r"=?[qrbn]$", cleaned) and cleaned[:1] in "abcdefgh":
        attempts.append(cleaned[:-1] + cleaned[-1].upper())  # "e8=q" → "e8=Q"
    ambiguous: str | None = None
    for attempt in attempts:
        try:
            return board.parse_san(attempt)
        except chess.AmbiguousMoveError:
            ambiguous = ambiguous or attempt
        except (chess.IllegalMoveError, chess.InvalidMoveError):
            continue
    if ambiguous is not None:
        raise _ambiguous(board, raw, ambiguous)
    promotion = _PAWN_TO_LAST_RANK.match(cleaned)
    if promotion:
        candidates = _pawn_promotions(
            board, promotion.group(1), chess.parse_square(promotion.group(2))
        )
        if candidates:
            raise _promotion_choice(board, candidates)
    if _looks_like_san(cleaned):
        raise _illegal(
            board,
            raw,
            to_square=_target_square(cleaned),
            piece_type=_piece_type(cleaned),
            castling=cleaned in ("O-O", "O-O-O"),
        )
    raise UnreadableMoveError(_unreadable(raw[:20]), suggest_moves(board, limit=6))


def _unreadable(raw: str) -> Text:
    return Text(N_("I can't read {move} as a move. {help}"), move=f"`{raw}`", help=Text(MOVE_HELP))


def _looks_like_san(text: str) -> bool:
    return text in ("O-O", "O-O-O") or bool(
        re.match(r"^[KQRBN]?[a-h]?[1-8]?x?[a-h][1-8](=?[QRBNqrbn])?$", text, re.IGNORECASE)
    )


def _target_square(text: str) -> chess.Square | None:
    found = re.findall(r"[a-h][1-8]", text.lower())
    return chess.parse_square(found[-1]) if found else None


def _piece_type(text: str) -> chess.PieceType | None:
    if text.startswith("O-O"):
        return chess.KING
    if text[:1] and text[:1].upper() in _PIECE_LETTERS and text[:1] != "b":
        return chess.Piece.from_symbol(text[0].upper()).piece_type
    return chess.PAWN if text[:1] in "abcdefgh" else None


def _pawn_promotions(
    board: chess.Board, from_file: str | None, to_square: chess.Square
) -> list[chess.Move]:
    return [
        m
        for m in board.legal_moves
        if m.to_square == to_square
        and m.promotion
        and (
            from_file is None
            or chess.square_file(m.from_square) == chess.FILE_NAMES.index(from_file)
        )
        and (
            from_file is not None
            or chess.square_file(m.from_square) == chess.square_file(to_square)
        )
    ]


def _promotion_choice(board: chess.Board, candidates: Sequence[chess.Move]) -> PromotionChoiceError:
    order = [chess.QUEEN, chess.ROOK, chess.BISHOP, chess.KNIGHT]
    moves = sorted(candidates, key=lambda m: order.index(m.promotion or chess.QUEEN))
    sans = [board.san(m) for m in moves]
    return PromotionChoiceError(
        Text(
            N_("Your pawn reaches the last rank: which piece should it become? ({moves})"),
            moves=", ".join(sans),
        ),
        moves,
        sans,
    )


def _ambiguous(board: chess.Board, raw: str, san: str) -> AmbiguousChessMoveError:
    target = _target_square(san)
    piece = _piece_type(san)
    options = [
        board.san(m)
        for m in board.legal_moves
        if m.to_square == target and (piece is None or board.piece_type_at(m.from_square) == piece)
    ]
    return AmbiguousChessMoveError(
        Text(
            N_("{move} could be {options}: say which piece moves."),
            move=f"`{raw[:20]}`",
            options=_either(options),
        ),
        options,
    )


def _either(options: Sequence[str]) -> Text | str:
    quoted = [f"`{o}`" for o in options]
    if len(quoted) <= 1:
        return "".join(quoted)
    return Text(N_("{first} or {last}"), first=", ".join(quoted[:-1]), last=quoted[-1])


def _illegal(
    board: chess.Board,
    raw: str,
    *,
    from_square: chess.Square | None = None,
    to_square: chess.Square | None = None,
    piece_type: chess.PieceType | None = None,
    castling: bool = False,
) -> IllegalChessMoveError:
    suggestions = suggest_moves(
        board, from_square=from_square, to_square=to_square, piece_type=piece_type, limit=6
    )
    side = _side(board.turn)
    why: Text
    if castling:
        why = Text(N_("{side} can't castle now"), side=side)
    elif from_square is not None:
        piece = board.piece_at(from_square)
        where = chess.square_name(from_square)
        if piece is None:
            why = Text(N_("there is no piece on {square}"), square=where)
        elif piece.color != board.turn:
            why = Text(
                N_("the {piece} on {square} is {owner}'s and {side} is to move"),
                piece=_piece(piece.piece_type),
                square=where,
                owner=_side(piece.color),
                side=side,
            )
        else:
            why = Text(
                N_("the {piece} on {square} can't go to {target}"),
                piece=_piece(piece.piece_type),
                square=where,
                target=chess.square_name(to_square) if to_square is not None else Text(N_("there")),
            )
    elif piece_type is not None and to_square is not None:
        why = Text(
            N_("no {side} {piece} can move to {square}"),
            side=side,
            piece=_piece(piece_type),
            square=chess.square_name(to_square),
        )
    else:
        why = Text(N_("{side} is to move"), side=side)
    if board.is_check():
        why = Text(N_("{reason}; {side} is in check"), reason=why, side=side)
    move = f"`{raw[:20]}`"
    if suggestions:
        text = Text(
            N_("{move} is not legal here: {reason}. Legal moves include {moves}."),
            move=move,
            reason=why,
            moves=", ".join(f"`{s}`" for s in suggestions),
        )
    else:
        text = Text(N_("{move} is not legal here: {reason}."), move=move, reason=why)
    return IllegalChessMoveError(text, suggestions)


def suggest_moves(
    board: chess.Board,
    *,
    from_square: chess.Square | None = None,
    to_square: chess.Square | None = None,
    piece_type: chess.PieceType | None = None,
    limit: int = 6,
) -> list[str]:
    """A few legal moves, those closest to what the player tried first."""

    def closeness(move: chess.Move) -> int:
        score = 0
        if from_square is not None and move.from_square == from_square:
            score += 4
        if to_square is not None and move.to_square == to_square:
            score += 2
        if piece_type is not None and board.piece_type_at(move.from_square) == piece_type:
            score += 1
        return -score

    moves = sorted(
        board.legal_moves,
        key=lambda m: (closeness(m), m.from_square, m.to_square, m.promotion or 0),
    )
    return [board.san(m) for m in moves[:limit]]


def move_choices(
    board: chess.Board, typed: str, limit: int = MAX_SUGGESTIONS
) -> list[tuple[str, str]]:
    """Autocomplete: ``(label, value)`` for the legal moves matching what was typed.

    SAN prefixes match first (exact case, then any case), then UCI prefixes;
    each label shows both notations: ``Nf3 (g1f3)``.
    """
    needle = _ANNOTATIONS.sub("", typed.strip().replace(" ", ""))
    needle = _CASTLING.get(needle.lower(), needle)
    entries = [(board.san(m), m.uci()) for m in board.legal_moves]
    entries.sort(key=lambda e: (len(e[0]), e[0]))
    if not needle:
        ranked = entries
    else:
        lowered = needle.lower()
        ranked = (
            [e for e in entries if e[0].startswith(needle)]
            + [
                e
                for e in entries
                if not e[0].startswith(needle) and e[0].lower().startswith(lowered)
            ]
            + [
                e
                for e in entries
                if not e[0].lower().startswith(lowered) and e[1].startswith(lowered)
            ]
        )
    return [(f"{san} ({uci})", san) for san, uci in ranked[:limit]]


def legal_targets(board: chess.Board) -> dict[str, list[tuple[str, bool]]]:
    """The legal moves of the side to move by the square each starts from, in square
    names: ``{"e2": [("e3", False), ("e4", False)], "e7": [("e8", True)]}``. A pawn's
    move to the last rank is listed once, with ``True``: its piece is chosen then.
    Castling is the king's two-square move (``e1`` to ``g1``), as a board shows it."""
    targets: dict[str, list[tuple[str, bool]]] = {}
    for move in board.legal_moves:
        origin = targets.setdefault(chess.square_name(move.from_square), [])
        entry = (chess.square_name(move.to_square), move.promotion is not None)
        if entry not in origin:
            origin.append(entry)
    return targets


# ------------------------------------------------------------------- endings


class Termination:
    """Why a chess game ended: the values stored with a finished game."""

    CHECKMATE = "checkmate"
    STALEMATE = "stalemate"
    INSUFFICIENT_MATERIAL = "insufficient_material"
    SEVENTYFIVE_MOVES = "seventyfive_moves"
    FIVEFOLD_REPETITION = "fivefold_repetition"
    THREEFOLD_REPETITION = "threefold_repetition"  # claimed
    FIFTY_MOVES = "fifty_moves"  # claimed
    AGREEMENT = "agreement"
    RESIGNATION = "resignation"
    TIMEOUT = "timeout"
    TIMEOUT_VS_INSUFFICIENT = "timeout_vs_insufficient_material"


_PYCHESS_TERMINATIONS = {
    chess.Termination.CHECKMATE: Termination.CHECKMATE,
    chess.Termination.STALEMATE: Termination.STALEMATE,
    chess.Termination.INSUFFICIENT_MATERIAL: Termination.INSUFFICIENT_MATERIAL,
    chess.Termination.SEVENTYFIVE_MOVES: Termination.SEVENTYFIVE_MOVES,
    chess.Termination.FIVEFOLD_REPETITION: Termination.FIVEFOLD_REPETITION,
    chess.Termination.THREEFOLD_REPETITION: Termination.THREEFOLD_REPETITION,
    chess.Termination.FIFTY_MOVES: Termination.FIFTY_MOVES,
}


@dataclass(frozen=True)
class Finish:
    """How a game ended: PGN result, why, and who won (``None`` for a draw)."""

    result: str  # "1-0" | "0-1" | "1/2-1/2"
    termination: str
    winner: chess.Color | None

    def describe(self, white: str, black: str) -> str:
        """One English sentence for the PGN's closing comment, e.g. "alice wins by checkmate."
        (the channel's words are ``bot.messages.chess``'s, in the club's language)."""
        names = {chess.WHITE: white, chess.BLACK: black}
        t = self.termination
        if self.winner is not None:
            winner, loser = names[self.winner], names[not self.winner]
            how = {
                Termination.CHECKMATE: "by checkmate",
                Termination.RESIGNATION: f"— {loser} resigned",
                Termination.TIMEOUT: f"on time — {loser} ran out",
            }.get(t, f"({t.replace('_', ' ')})")
            return f"{winner} wins {how}."
        why = {
            Termination.STALEMATE: "stalemate",
            Termination.INSUFFICIENT_MATERIAL: "neither side can checkmate",
            Termination.SEVENTYFIVE_MOVES: "seventy-five moves without a capture or pawn move",
            Termination.FIVEFOLD_REPETITION: "the position occurred five times",
            Termination.THREEFOLD_REPETITION: "threefold repetition, claimed",
            Termination.FIFTY_MOVES: "fifty moves without a capture or pawn move, claimed",
            Termination.AGREEMENT: "agreed",
            Termination.TIMEOUT_VS_INSUFFICIENT: "time ran out, but the opponent could not have checkmated",
        }.get(t, t.replace("_", " "))
        return f"Draw: {why}."


def _win(color: chess.Color, termination: str) -> Finish:
    return Finish("1-0" if color == chess.WHITE else "0-1", termination, color)


def _draw(termination: str) -> Finish:
    return Finish("1/2-1/2", termination, None)


def automatic_finish(board: chess.Board) -> Finish | None:
    """Endings that need no claim: mate, stalemate, dead material, fivefold, seventy-five moves."""
    outcome = board.outcome(claim_draw=False)
    if outcome is None:
        return None
    termination = _PYCHESS_TERMINATIONS[outcome.termination]
    return _win(outcome.winner, termination) if outcome.winner is not None else _draw(termination)


def claim_draw(board: chess.Board, claimant: chess.Color) -> Finish:
    """A draw claim by ``claimant``, or ``ChessMoveError`` saying why it fails.

    Either player may claim when the position on the board has occurred three
    times or fifty moves passed without a capture or pawn move; the player to
    move may also claim when one of their moves would bring that about.
    """
    if board.is_repetition(3):
        return _draw(Termination.THREEFOLD_REPETITION)
    if board.is_fifty_moves():
        return _draw(Termination.FIFTY_MOVES)
    if claimant == board.turn:
        if board.can_claim_threefold_repetition():
            return _draw(Termination.THREEFOLD_REPETITION)
        if board.can_claim_fifty_moves():
            return _draw(Termination.FIFTY_MOVES)
    moves = board.halfmove_clock // 2
    if moves == 1:
        template = N_(
            "You can't claim a draw now: the position has not occurred three times, "
            "and it has been {count} move (of 50) since the last capture or pawn move. "
            "Offer a draw instead with `/chess draw action:offer`."
        )
    else:
        template = N_(
            "You can't claim a draw now: the position has not occurred three times, "
            "and it has been {count} moves (of 50) since the last capture or pawn move. "
            "Offer a draw instead with `/chess draw action:offer`."
        )
    raise DrawClaimError(template, count=moves)


def can_claim_draw(board: chess.Board, claimant: chess.Color) -> bool:
    """Whether ``claimant`` may claim a draw now (:func:`claim_draw` would grant it)."""
    try:
        claim_draw(board, claimant)
    except DrawClaimError:
        return False
    return True


def resignation(resigning: chess.Color) -> Finish:
    """``resigning`` resigned: the other side wins."""
    return _win(not resigning, Termination.RESIGNATION)


def agreement() -> Finish:
    """A draw the players agreed."""
    return _draw(Termination.AGREEMENT)


def timeout_finish(board: chess.Board, flagged: chess.Color) -> Finish:
    """``flagged`` ran out of time: they lose, unless the opponent could never checkmate."""
    if board.has_insufficient_material(not flagged):
        return _draw(Termination.TIMEOUT_VS_INSUFFICIENT)
    return _win(not flagged, Termination.TIMEOUT)


# ------------------------------------------------------------------- analysis

MATE_CP = (
    1000  # a forced mate counts as this many centipawns, so one blunder doesn't dwarf the rest
)
INACCURACY_CP, MISTAKE_CP, BLUNDER_CP = 50, 100, 300


@dataclass(frozen=True)
class Mistake:
    """A move that lost ``loss_cp`` centipawns, with the engine's better move in SAN (None
    when it gave no legal one)."""

    ply: int  # 1-based
    color: chess.Color
    san: str
    loss_cp: int
    best_san: str | None

    @property
    def label(self) -> str:
        """How bad the move was: ``inaccuracy``, ``mistake`` or ``blunder``."""
        if self.loss_cp >= BLUNDER_CP:
            return "blunder"
        if self.loss_cp >= MISTAKE_CP:
            return "mistake"
        return "inaccuracy"

    @property
    def move_number(self) -> str:
        """The move's number as movetext writes it: ``12.`` for White, ``12...`` for Black."""
        number = (self.ply + 1) // 2
        return f"{number}." if self.color == chess.WHITE else f"{number}..."


def clamp_cp(cp: int) -> int:
    return max(-MATE_CP, min(MATE_CP, cp))


def biggest_mistakes(
    moves: Sequence[str],
    evals_white_cp: Sequence[int],
    best_moves: Sequence[str | None],
    *,
    per_side: int = 3,
    threshold: int = INACCURACY_CP,
) -> dict[chess.Color, list[Mistake]]:
    """Each side's worst moves by centipawn loss, largest first.

    ``evals_white_cp[i]`` is the evaluation (White's view, best play) of the
    position before ply ``i + 1``; there is one more than there are moves.
    ``best_moves[i]`` is the engine's choice (UCI) in that position.
    """
    if len(evals_white_cp) != len(moves) + 1:
        raise ValueError("need one evaluation per position: len(moves) + 1")
    board = chess.Board()
    found: dict[chess.Color, list[Mistake]] = {chess.WHITE: [], chess.BLACK: []}
    for index, uci in enumerate(moves):
        mover = board.turn
        sign = 1 if mover == chess.WHITE else -1
        before = sign * clamp_cp(evals_white_cp[index])
        after = sign * clamp_cp(evals_white_cp[index + 1])
        loss = before - after
        move = chess.Move.from_uci(uci)
        best_uci = best_moves[index] if index < len(best_moves) else None
        if loss >= threshold and best_uci != uci:
            best = chess.Move.from_uci(best_uci) if best_uci else None
            best_san = board.san(best) if best is not None and board.is_legal(best) else None
            found[mover].append(Mistake(index + 1, mover, board.san(move), loss, best_san))
        board.push(move)
    for color in found:
        found[color] = sorted(found[color], key=lambda m: (-m.loss_cp, m.ply))[:per_side]
    return found


__all__ = [
    "AmbiguousChessMoveError",
    "ChessError",
    "ChessMoveError",
    "ChessStateError",
    "DrawClaimError",
    "Finish",
    "IllegalChessMoveError",
    "Mistake",
    "PromotionChoiceError",
    "Termination",
    "UnreadableMoveError",
    "agreement",
    "automatic_finish",
    "biggest_mistakes",
    "board_from_moves",
    "can_claim_draw",
    "claim_draw",
    "color_name",
    "legal_targets",
    "move_choices",
    "numbered_moves",
    "parse_move",
    "play_stored",
    "replay",
    "resignation",
    "san_moves",
    "suggest_moves",
    "timeout_finish",
]
