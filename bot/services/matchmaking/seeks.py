"""Open challenges: ``/scrabble seek`` and ``/chess seek`` (issue #30).

``open → taken | cancelled | expired``. A seek keeps the game's options as the
seeker chose them (checked when posted, as ``/chess new`` or ``/scrabble new``
checks them). The first member to press Accept takes it: the seek's
compare-and-set and the game it makes commit together, so of two accepts at once
one makes the game and the other is told who was first. A member has at most
``MAX_OPEN_SEEKS`` open in a server. Each seek expires after ``SEEK_TTL`` by a
job in the database, which also says so on its post.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from bot.db.models_seeks import SeekRecord
from bot.db.uow import UnitOfWork
from bot.errors import InvalidInputError, NotFoundError, PermissionDeniedError
from bot.messages import matchmaking as msg
from bot.messages.chess import control_label
from bot.messages.i18n import _
from bot.messages.scrabble import lexicon_display_name
from bot.services import ServiceContext
from bot.services.chess.options import challenger_plays_white, read_time_control
from bot.services.club import SEEK_ROLE
from bot.services.matchmaking.games import MatchGames, Side
from bot.services.scrabble.options import GameSettings, Member, NewGameRequest, read_settings
from bot.services.transactions import LostRace, transact

SEEK_TTL = timedelta(days=1)
MAX_OPEN_SEEKS = 3


def job_expiry(kind: str) -> str:
    """The expiry job's kind for one game kind."""
    return f"{kind}.seek_expiry"


def expiry_key(seek_id: int) -> str:
    """The expiry job's key: one per seek."""
    return f"seek-expiry:{seek_id}"


# (channel id, message id, new text): the seek's post edited, its buttons gone.
PostEditor = Callable[[int, int, str], Awaitable[None]]


@dataclass(frozen=True)
class SeekSnapshot:
    """A seek as the cog shows it."""

    seek_id: int
    kind: str
    guild_id: int
    channel_id: int
    user_id: int
    status: str
    options_text: str
    expires_at: datetime
    message_id: int | None = None
    role_id: int | None = None
    open_count: int = 0
    game_id: int | None = None
    taken_by: int | None = None

    def post_text(self) -> str:
        """The seek's post as it stands."""
        if self.status == "open":
            return msg.seek_post(
                self.kind, self.user_id, self.options_text, self.expires_at, self.role_id
            )
        return msg.seek_ended(self.kind, self.user_id, self.status)


@dataclass(frozen=True)
class SeekTaken:
    """A seek accepted: the game it made."""

    seek: SeekSnapshot
    game_id: int
    number: int

    def post_text(self) -> str:
        """The seek's post once taken: by whom, for which game."""
        assert self.seek.taken_by is not None
        return msg.seek_taken(
            self.seek.kind,
            self.seek.user_id,
            self.seek.taken_by,
            self.number,
            self.seek.options_text,
        )


class Seeks:
    """One game kind's open challenges."""

    def __init__(self, ctx: ServiceContext, games: MatchGames) -> None:
        self.ctx = ctx
        self.games = games
        self.kind = games.kind
        self.post_editor: PostEditor | None = None

    # ------------------------------------------------------------------ options

    def _checked(
        self,
        guild_id: int,
        guild_name: str,
        channel_id: int,
        user: tuple[int, str],
        raw: Mapping[str, Any],
    ) -> dict[str, Any]:
        """The options as the game keeps them, checked as its ``new`` checks them."""
        if self.kind == "chess":
            control = read_time_control(raw.get("time"))
            color = str(raw.get("color") or "random")
            challenger_plays_white(color, self._rng())  # refuses a colour it does not know
            return {"time_control": control.text(), "color": color}
        scrabble = self.games.scrabble
        assert scrabble is not None
        request = NewGameRequest(
            guild_id=guild_id,
            guild_name=guild_name,
            channel_id=channel_id,
            creator=Member(*user),
            clock=raw.get("clock"),
            deadline=raw.get("deadline"),
            word_list=raw.get("word_list"),
        )
        settings = read_settings(
            request,
            2,
            None,
            word_lists=scrabble.invitations.word_lists(),
            default_word_list=self.ctx.settings.lexicon,
        )
        return dict(settings.to_json())

    def _rng(self) -> Any:
        if self.games.chess is not None:
            return self.games.chess.core.rng
        assert self.games.scrabble is not None
        return self.games.scrabble.core.rng

    def options_text(self, options: Mapping[str, Any]) -> str:
        """The game's options in words, for the seek's post."""
        if self.kind == "chess":
            control = read_time_control(str(options.get("time_control")))
            return msg.chess_seek_options(control_label(control), str(options.get("color")))
        settings = GameSettings.from_json(options)
        return msg.scrabble_seek_options(
            settings.describe(), lexicon_display_name(settings.lexicon)
        )

    async def _snapshot(
        self, uow: UnitOfWork, row: SeekRecord, *, count: bool = False
    ) -> SeekSnapshot:
        guild = await uow.guilds.get(row.guild_id)
        role = (guild.settings or {}).get(SEEK_ROLE) if guild is not None else None
        return SeekSnapshot(
            seek_id=row.id,
            kind=row.kind,
            guild_id=row.guild_id,
            channel_id=row.channel_id,
            user_id=row.user_id,
            status=row.status,
            options_text=self.options_text(row.options),
            expires_at=row.expires_at,
            message_id=row.message_id,
            role_id=int(role) if role else None,
            open_count=await uow.seeks.open_count(row.guild_id, row.user_id) if count else 0,
            game_id=row.game_id,
            taken_by=row.taken_by,
        )

    # ------------------------------------------------------------------ posting

    async def post(
        self,
        *,
        guild_id: int,
        guild_name: str,
        channel_id: int,
        user: tuple[int, str],
        options: Mapping[str, Any],
    ) -> SeekSnapshot:
        """A new open challenge with these options; refused past ``MAX_OPEN_SEEKS``."""
        stored = self._checked(guild_id, guild_name, channel_id, user, options)
        now = self.ctx.clock()

        async def work(uow: UnitOfWork) -> SeekSnapshot:
            await uow.guilds.ensure(guild_id, guild_name)
            await uow.players.ensure(*user)
            count = await uow.seeks.open_count(guild_id, user[0])
            if count >= MAX_OPEN_SEEKS:
                raise InvalidInputError(_(msg.TOO_MANY_SEEKS).format(count=count))
            row = await uow.seeks.add(
                SeekRecord(
                    guild_id=guild_id,
                    channel_id=channel_id,
                    kind=self.kind,
                    user_id=user[0],
                    options=stored,
                    status="open",
                    version=1,
                    created_at=now,
                    expires_at=now + SEEK_TTL,
                )
            )
            await uow.jobs.schedule(
                job_expiry(self.kind), row.expires_at, {"seek_id": row.id}, key=expiry_key(row.id)
            )
            return await self._snapshot(uow, row, count=True)

        return await transact(self.ctx, work)

    async def record_message(self, seek_id: int, message_id: int) -> None:
        """The seek's post, so its expiry can say so on it."""

        async def work(uow: UnitOfWork) -> None:
            row = await uow.seeks.get(seek_id)
            if (
                row is not None
                and row.message_id is None
                and not await uow.seeks.bump(row, message_id=message_id)
            ):
                raise LostRace(msg.SEEK_NOT_FOUND)

        await transact(self.ctx, work)

    # ------------------------------------------------------------------ answering

    async def _seek(self, uow: UnitOfWork, seek_id: int, guild_id: int | None) -> SeekRecord:
        row = await uow.seeks.get(seek_id)
        if (
            row is None
            or row.kind != self.kind
            or (guild_id is not None and row.guild_id != guild_id)
        ):
            raise NotFoundError(_(msg.SEEK_NOT_FOUND))
        return row

    async def accept(
        self,
        seek_id: int,
        user: tuple[int, str],
        *,
        guild_name: str = "",
        message_id: int | None = None,
        guild_id: int | None = None,
    ) -> SeekTaken:
        """``user`` takes the seek: its game is made, seated and accepted (opened after
        by ``MatchGames.open``). A second press by the one who took it answers the same."""

        async def work(uow: UnitOfWork) -> SeekTaken:
            row = await self._seek(uow, seek_id, guild_id)
            if row.status == "taken" and row.game_id is not None:
                if row.taken_by == user[0]:
                    game = await uow.games.get(row.game_id)
                    return SeekTaken(await self._snapshot(uow, row), game.id, game.number)
                names = await uow.players.names([row.taken_by or 0])
                raise InvalidInputError(
                    _(msg.SEEK_TAKEN_ALREADY).format(name=names.get(row.taken_by or 0, "?"))
                )
            if row.status != "open":
                raise InvalidInputError(_(msg.SEEK_CLOSED.get(row.status, msg.SEEK_NOT_FOUND)))
            if row.user_id == user[0]:
                raise InvalidInputError(_(msg.OWN_SEEK))
            await uow.players.ensure(*user)
            names = await uow.players.names([row.user_id])
            seeker = Side(((row.user_id, names.get(row.user_id, "?")),))
            taker = Side((user,))
            sides = [seeker, taker]
            if self.kind == "chess":
                color = str(row.options.get("color") or "random")
                if not challenger_plays_white(color, self._rng()):
                    sides = [taker, seeker]
            where = message_id or row.message_id
            # The seek first: of two accepts at once the second stops here and reads again.
            if not await uow.seeks.bump(row, status="taken", taken_by=user[0], message_id=where):
                raise LostRace(msg.SEEK_NOT_FOUND)
            marks: dict[str, Any] = {"seek_id": row.id}
            if where is not None:
                marks["seek_message_id"] = where
            game = await self.games.create(
                uow,
                guild_id=row.guild_id,
                guild_name=guild_name,
                channel_id=row.channel_id,
                sides=sides,
                options=row.options,
                created_by=row.user_id,
                marks=marks,
            )
            if not await uow.seeks.bump(row, game_id=game.id):
                raise LostRace(msg.SEEK_NOT_FOUND)
            await uow.jobs.cancel(expiry_key(row.id))
            return SeekTaken(await self._snapshot(uow, row), game.id, game.number)

        return await transact(self.ctx, work)

    async def cancel(
        self, seek_id: int, user_id: int, *, guild_id: int | None = None
    ) -> SeekSnapshot:
        """The seeker withdraws an open seek."""

        async def work(uow: UnitOfWork) -> SeekSnapshot:
            row = await self._seek(uow, seek_id, guild_id)
            if row.user_id != user_id:
                raise PermissionDeniedError(_(msg.NOT_YOUR_SEEK))
            if row.status != "open":
                raise InvalidInputError(_(msg.SEEK_CLOSED.get(row.status, msg.SEEK_NOT_FOUND)))
            if not await uow.seeks.bump(row, status="cancelled"):
                raise LostRace(msg.SEEK_NOT_FOUND)
            await uow.jobs.cancel(expiry_key(row.id))
            return await self._snapshot(uow, row)

        return await transact(self.ctx, work)

    # ------------------------------------------------------------------ expiry

    async def expire(self, seek_id: int) -> SeekSnapshot | None:
        """The seek, expired if it was still open at its time; None when there is none."""

        async def work(uow: UnitOfWork) -> SeekSnapshot | None:
            row = await uow.seeks.get(seek_id)
            if row is None:
                return None
            due = row.status == "open" and row.expires_at <= self.ctx.clock()
            if due and not await uow.seeks.bump(row, status="expired"):
                raise LostRace(msg.SEEK_NOT_FOUND)
            return await self._snapshot(uow, row)

        return await transact(self.ctx, work)

    async def prepare_expiry(self, payload: dict[str, Any]) -> None:
        """Expire the seek (its own transaction), then say so on its post. Safe to run
        again: an expired seek's post is only edited again."""
        snap = await self.expire(int(payload["seek_id"]))
        if snap is None or snap.status != "expired" or snap.message_id is None:
            return
        if self.post_editor is not None:
            await self.post_editor(snap.channel_id, snap.message_id, snap.post_text())

    async def on_seek_expiry(self, uow: UnitOfWork, job: Any, prepared: None) -> None:
        """Job ``<kind>.seek_expiry``: its work is in ``prepare_expiry``."""
        return
