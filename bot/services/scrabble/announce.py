"""What a Scrabble game tells its thread and its players, through the outbox.

Every post is a ``Post`` written in the transaction of the change it announces,
so a committed move is always announced, even across a restart. The board
image carries its alt text (the last play and the scores in words). Racks are
never written here: they only leave through the answers to the member who
asked.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Literal

from bot.db.uow import UnitOfWork
from bot.messages import scrabble as msg
from bot.messages.post import FileSpec, Post, ViewSpec
from bot.messages.text import clip
from bot.services.board_address import BoardAddresses
from bot.services.definitions import Definitions
from bot.services.rematch_offer import rematch_offered, rematch_view
from bot.services.scrabble.loaded import KIND, LoadedGame, picture, status_lines, when
from engines.scrabble.game import ACTIVE, ENDING, FINISHED

RENDER_BOARD = "scrabble_board"
RENDER_TEXT_FILE = "scrabble_text_file"
VIEW_BOARD = "scrabble_board"
VIEW_INVITE = "scrabble_invite"
VIEW_EXPLAIN = "scrabble_explain"


def board_file(loaded: LoadedGame, filename: str) -> FileSpec:
    """The board image, with its alt text, as an outbox file called ``filename``."""
    shown = picture(loaded)
    return FileSpec(RENDER_BOARD, {**shown.to_args(), "filename": filename}, shown.description)


def board_buttons(loaded: LoadedGame) -> ViewSpec | None:
    """Show my rack, and Challenge / Accept while they apply (none once it is over)."""
    engine = loaded.require_engine()
    if engine.status == FINISHED:
        return None
    challengeable = any(engine.can_challenge(s) for s in range(engine.seats))
    return ViewSpec(
        VIEW_BOARD,
        {
            "game_id": loaded.game_id,
            "ply": len(engine.moves),
            "challenge": challengeable,
            "accept": engine.status == ENDING,
        },
    )


class Announcer:
    """The posts and DMs a game's changes make, written to the outbox in their transaction."""

    def __init__(
        self,
        definitions: Callable[[], Definitions | None],
        boards: BoardAddresses | None = None,
    ) -> None:
        self._definitions_loader = definitions
        self.boards = boards  # the turn DMs' "Open the board" (None: never offered)
        self._definitions: Definitions | Literal[False] | None = False  # False: not looked for yet

    def board(
        self, uow: UnitOfWork, loaded: LoadedGame, lines: Sequence[str], *, new_turn: bool = False
    ) -> None:
        """The board after a change, with what happened in words and whose turn it is.
        In live play a new turn mentions the seat to move (them only): they are told
        in the thread, where the game is, rather than by DM."""
        if loaded.home is None:
            return
        engine = loaded.require_engine()
        moves = len(engine.moves)
        content = msg.board_post(loaded.number, moves, [*lines, *status_lines(loaded)])
        board = board_file(loaded, f"scrabble-{loaded.number}-{moves}.png")
        mention: tuple[int, ...] = ()
        seat = engine.current_seat
        live_turn = new_turn and loaded.settings.live and engine.status == ACTIVE
        if live_turn and not loaded.is_computer(seat):
            mention = tuple(loaded.seats.get(seat, []))
        post = Post(
            content=content, files=(board,), view=board_buttons(loaded), mention_user_ids=mention
        )
        uow.outbox.to_channel(loaded.home, post)

    def final(self, uow: UnitOfWork, loaded: LoadedGame, lines: Sequence[str], gcg: str) -> None:
        """The last board, the result and the game's record (racks are public by now)."""
        if loaded.home is None:
            return
        number = loaded.number
        record = FileSpec(
            RENDER_TEXT_FILE,
            {"filename": f"scrabble-{number}.gcg", "text": gcg},
            msg.record_alt_text(number),
        )
        board = board_file(loaded, f"scrabble-{number}-final.png")
        record_row = loaded.record
        again = (
            rematch_view(KIND, record_row.id) if rematch_offered(KIND, record_row.options) else None
        )
        post = Post(content=clip("\n".join(lines)), files=(board, record), view=again)
        uow.outbox.to_channel(loaded.home, post)

    def ending_line(self, loaded: LoadedGame) -> str:
        """Said when a play would end the game: who may still challenge it, until when."""
        engine = loaded.require_engine()
        deciders = [s for s in range(engine.seats) if engine.can_challenge(s)]
        last = engine.last_play or {}
        return msg.ending_text(
            computer_decides=bool(deciders) and all(loaded.is_computer(s) for s in deciders),
            due=when(loaded.meta.get("ending_due")),
            words=last.get("words", []),
        )

    def turn(self, uow: UnitOfWork, loaded: LoadedGame) -> None:
        """A DM to the seat to move (the thread, with a mention, if their DMs are closed)."""
        seat = loaded.require_engine().current_seat
        if not loaded.is_computer(seat):
            due = loaded.turn_due
            self._to_seat(
                uow,
                loaded,
                seat,
                msg.your_turn(loaded.number, loaded.home, due),
                msg.your_turn(loaded.number, None, due),
            )

    def reminder(self, uow: UnitOfWork, loaded: LoadedGame) -> None:
        """A DM to the seat to move that its turn clock runs out soon (the thread, with a
        mention, if their DMs are closed)."""
        seat, due = loaded.require_engine().current_seat, loaded.turn_due
        self._to_seat(
            uow,
            loaded,
            seat,
            msg.reminder(loaded.number, loaded.home, due),
            msg.reminder(loaded.number, None, due),
        )

    def _to_seat(
        self, uow: UnitOfWork, loaded: LoadedGame, seat: int, text: str, in_thread: str
    ) -> None:
        """The DM to each member of the seat; ``in_thread`` is what the game's thread
        says instead (no "in <#thread>"): partners whose DMs are closed are named in
        one post there (the outbox joins the same DM's fallbacks). Each DM carries
        its member's own board link, made as it is sent (never in the thread)."""
        link = (
            self.boards.dm_button(loaded.record.guild_id, "scrabble", loaded.game_id)
            if self.boards is not None
            else None
        )
        for user_id in loaded.seats.get(seat, []):
            uow.outbox.to_user(
                user_id,
                Post(content=text, fallback_content=in_thread, view=link),
                fallback_channel_id=loaded.home,
            )

    def invitation_expired(self, uow: UnitOfWork, loaded: LoadedGame) -> None:
        """Tell the channel the game was made in that its invitation expired."""
        if loaded.record.channel_id is not None:
            post = Post(content=msg.invitation_expired(loaded.number))
            uow.outbox.to_channel(loaded.record.channel_id, post)

    async def explain(
        self, uow: UnitOfWork, loaded: LoadedGame, entries: Sequence[Mapping[str, Any]]
    ) -> None:
        """Explain the word: each new word's definition, or the player is asked for it."""
        if not loaded.settings.explain or loaded.home is None:
            return
        last = loaded.require_engine().last_play
        plays = [e for e in entries if e["type"] == "play"]
        if not plays or last is None or last["seat"] != plays[-1]["seat"]:
            return  # the play was withdrawn in the same step, or there was none
        source = await self.definition_source()
        found: list[tuple[str, str]] = []
        missing: list[str] = []
        for word in dict.fromkeys(plays[-1]["words"]):
            definition = (
                await asyncio.to_thread(source.define, word) if source is not None else None
            )
            if definition:
                found.append((word, definition))
            else:
                missing.append(word)
        seat = plays[-1]["seat"]
        who = loaded.mentions(seat) or loaded.label(seat)
        # The Explain button (bot.ui.sessions) opens a form; its answer is kept per play.
        ply = len(loaded.require_engine().moves) - len(entries) + list(entries).index(plays[-1])
        view = ViewSpec(VIEW_EXPLAIN, {"game_id": loaded.game_id, "ply": ply})
        post = Post(content=msg.explain_text(loaded.number, found, missing, who), view=view)
        uow.outbox.to_channel(loaded.home, post)

    async def definition_source(self) -> Definitions | None:
        """The dictionary the definitions come from (looked for once; None: none installed)."""
        definitions = self._definitions
        if definitions is False:
            found = await asyncio.to_thread(self._definitions_loader)
            self._definitions = found
            return found
        return definitions
