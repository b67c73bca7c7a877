"""Which game a command means, and the "your games" autocomplete: one of each
for every game with seats (Scrabble, chess).

A command's ``game`` option may be given (``#12``, ``12``, or the label its
autocomplete offered); inside a game's thread it defaults to that game; else
the member's only game in progress. Each game supplies only what differs: its
name, how to start one, and how a list of its games reads.

The number a member types or sees is the game's number in its guild and kind
(``games.number``: the club's first chess game is chess #1 whatever came
before it); the resolver turns it into the game's id, which stays internal
(buttons carry it). Games made before numbers existed have number = id, so a
number seen then still names the same game.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Literal

from bot.db.models import GameRecord
from bot.db.uow import UnitOfWork
from bot.errors import InvalidInputError, NotFoundError
from bot.messages.errors import NO_FINISHED_GAME, NO_GAME_GOING, PICK_A_GAME, SEVERAL_GAMES
from bot.messages.i18n import _
from bot.messages.limits import CHOICE_NAME_CHARS, CHOICES
from bot.services import ServiceContext
from engines.text import Text

_GAME_REF = re.compile(r"\s*#?\s*(\d{1,12})\b.*", re.DOTALL)

# Which games a command is about: those in progress (invitations too), finished
# ones (an export), or in progress and else the latest finished (a board).
Want = Literal["playing", "finished", "any"]
_STATUSES: dict[Want, tuple[str, ...]] = {
    "playing": ("active", "invited"),
    "finished": ("finished",),
    "any": ("active", "invited"),
}
FINISHED_IN_CHOICES = 5  # with "any", the latest finished games offered after those in progress

# (unit of work, the games, the member asking) -> one line for each game
GameLabels = Callable[[UnitOfWork, Sequence[GameRecord], int], Awaitable[list[str]]]


def parse_game_ref(text: str | int | None) -> int | None:
    """The game number (not the id) in ``#12``, ``12`` or ``#12 · vs Ana · your turn``."""
    if text is None or isinstance(text, int):
        return text
    if not text.strip():
        return None
    match = _GAME_REF.fullmatch(text)
    if match is None:
        raise InvalidInputError(PICK_A_GAME)
    return int(match.group(1))


@dataclass(frozen=True)
class GameKind:
    """A game with seats as the finder needs it: kind, how a sentence names it, how to start one."""

    kind: str  # games.kind
    title: str  # as a sentence names it: "Scrabble", "chess"
    start_hint: str  # "`/chess new opponent:@member`"

    def numbered(self, number: int) -> str:
        """One game by its number, as every message names it: "Chess #3", "Scrabble #3"."""
        return f"{self.title[:1].upper()}{self.title[1:]} #{number}"


@dataclass(frozen=True)
class FoundGame:
    """The game a command means: its id (internal) and its number (what members see)."""

    game_id: int
    number: int

    @classmethod
    def of(cls, record: GameRecord) -> FoundGame:
        """The game a stored row is."""
        return cls(record.id, record.number)


@dataclass(frozen=True)
class GameAsked:
    """The game a command means, as the member asked for it (``game`` as typed, else this
    thread's, else their only one), not looked up yet: the use case looks it up in its
    own unit of work (``load``), where this thread's game or a numbered one is read
    with its seats and their names in the one statement that loads it. Looked up
    before, in a lookup of its own, the same game cost a second statement, a pool
    checkout and its ORM work on every move."""

    finder: GameFinder
    guild_id: int
    user_id: int
    channel_id: int | None
    ref: str | int | None
    want: Want = "playing"

    async def load(self, uow: UnitOfWork) -> GameRecord:
        """The game with its seats (refused as ``GameFinder.find`` refuses)."""
        return await self.finder.load(uow, self)


# A game a use case acts on: its id (a button's, a job's), or as a command asked for it.
WhichGame = int | GameAsked


class GameFinder:
    """The one resolver and autocomplete of a member's games of one kind."""

    def __init__(self, ctx: ServiceContext, game: GameKind, labels: GameLabels) -> None:
        self.ctx = ctx
        self.game = game
        self._labels = labels

    async def resolve(
        self,
        *,
        guild_id: int,
        user_id: int,
        channel_id: int | None,
        ref: str | int | None,
        want: Want = "playing",
    ) -> int:
        """The id of the game a command means (see ``find``)."""
        found = await self.find(
            guild_id=guild_id, user_id=user_id, channel_id=channel_id, ref=ref, want=want
        )
        return found.game_id

    async def find(
        self,
        *,
        guild_id: int,
        user_id: int,
        channel_id: int | None,
        ref: str | int | None,
        want: Want = "playing",
    ) -> FoundGame:
        """The game a command means: the given number's (this guild's game of this
        kind with that number), the thread's, or the member's only game.

        With ``finished`` the member's latest finished game is the default; with
        ``any``, it is when none is in progress.
        """
        asked = self.asked(
            guild_id=guild_id, user_id=user_id, channel_id=channel_id, ref=ref, want=want
        )
        async with self.ctx.reader() as uow:
            found = await self._look_up(uow, asked, load=False)
            return found if isinstance(found, FoundGame) else FoundGame.of(found)

    def asked(
        self,
        *,
        guild_id: int,
        user_id: int,
        channel_id: int | None,
        ref: str | int | None,
        want: Want = "playing",
    ) -> GameAsked:
        """The game a command means (as ``find`` reads it), to be looked up in the use
        case's own unit of work: see ``GameAsked``."""
        return GameAsked(self, guild_id, user_id, channel_id, ref, want)

    async def load(self, uow: UnitOfWork, asked: GameAsked) -> GameRecord:
        """The game ``asked`` means, in ``uow``, with its seats (see ``GameAsked``)."""
        found = await self._look_up(uow, asked, load=True)
        assert isinstance(found, GameRecord)
        return found

    async def _look_up(
        self, uow: UnitOfWork, asked: GameAsked, *, load: bool
    ) -> GameRecord | FoundGame:
        """``find``'s answer: a numbered game's id and number (or, with ``load``, its
        row and seats), else the row of the thread's or the member's only game."""
        number = parse_game_ref(asked.ref)
        title = self.game.title
        guild_id, user_id, want = asked.guild_id, asked.user_id, asked.want
        if number is not None:
            found: GameRecord | FoundGame | None
            if load:
                found = await uow.games.by_number(guild_id, self.game.kind, number)
            else:
                game_id = await uow.games.id_of(guild_id, self.game.kind, number)
                found = None if game_id is None else FoundGame(game_id, number)
            if found is None:
                raise NotFoundError(
                    _("There is no {game} in this server.").format(game=self.game.numbered(number))
                )
            return found
        if asked.channel_id is not None:
            here = await uow.games.by_thread(asked.channel_id, kind=self.game.kind)
            if here is not None and here.guild_id == guild_id:
                return here
        records = await uow.games.for_player(
            user_id, guild_id=guild_id, kind=self.game.kind, statuses=_STATUSES[want]
        )
        if want == "finished":
            if records:
                return records[0]
            raise NotFoundError(Text(NO_FINISHED_GAME, title=title))
        active = [r for r in records if r.status == "active"] or records
        if len(active) == 1:
            return active[0]
        if not active:
            if want == "any":
                done = await uow.games.for_player(
                    user_id, guild_id=guild_id, kind=self.game.kind, statuses=("finished",)
                )
                if done:
                    return done[0]
            raise NotFoundError(Text(NO_GAME_GOING, title=title, start=self.game.start_hint))
        listed = "; ".join(await self._labels(uow, active[:5], user_id))
        raise InvalidInputError(Text(SEVERAL_GAMES, count=len(active), title=title, listed=listed))

    async def choices(
        self, *, guild_id: int, user_id: int, typed: str, want: Want = "playing"
    ) -> list[tuple[str, str]]:
        """Autocomplete for ``game``: ``(label, value)`` of the member's games
        (newest first; with ``any``, those in progress and then the latest
        finished), filtered by what was typed. The value is the game's number,
        which ``resolve`` reads back."""
        async with self.ctx.reader() as uow:
            records = await uow.games.for_player(
                user_id, guild_id=guild_id, kind=self.game.kind, statuses=_STATUSES[want]
            )
            if want == "any":
                done = await uow.games.for_player(
                    user_id, guild_id=guild_id, kind=self.game.kind, statuses=("finished",)
                )
                records = [*records, *done[:FINISHED_IN_CHOICES]]
            records = records[:50]
            labels = await self._labels(uow, records, user_id)
            numbers = [record.number for record in records]
        needle = typed.strip().lstrip("#").lower()
        picked = [
            (label[:CHOICE_NAME_CHARS], str(number))
            for number, label in zip(numbers, labels, strict=True)
            if not needle or needle in label.lower()
        ]
        return picked[:CHOICES]


async def game_version(ctx: ServiceContext, game_id: int) -> int:
    """A game's version now (``games.version``, moved on by every change to it): what a
    board page watches (``bot.web.boards``); 0 when there is no such game."""
    async with ctx.reader() as uow:
        return await uow.games.version(game_id) or 0
