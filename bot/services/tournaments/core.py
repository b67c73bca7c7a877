"""What every tournament use case shares: loading with checks, the version's
compare-and-set, the log, names, and the announcements of a round."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, TypeVar

from bot.db.models_tournaments import (
    TournamentEntrantRecord,
    TournamentPairingRecord,
    TournamentRecord,
)
from bot.db.uow import UnitOfWork
from bot.errors import ConflictError, InvalidInputError, NotFoundError, PermissionDeniedError
from bot.messages import tournaments as msg
from bot.messages.post import Post
from bot.services import ServiceContext
from bot.services.tournaments import pairing
from bot.services.tournaments.games import RoundGames

T = TypeVar("T")
ATTEMPTS = 5


@dataclass(frozen=True)
class Reply:
    """What a use case answers: its text (private unless ``public``) and who it may ping."""

    text: str
    tournament_id: int
    public: bool = False
    mention_user_ids: tuple[int, ...] = ()
    needs_confirm: bool = False


class TournamentCore:
    """What every tournament use case shares: the context, the round's games, the RNG, loading
    with checks, the version, the log and the posts."""

    def __init__(self, ctx: ServiceContext, games: RoundGames, rng: random.Random) -> None:
        self.ctx = ctx
        self.games = games
        self.rng = rng

    def now(self) -> datetime:
        """Now, by the context's clock."""
        return self.ctx.clock()

    async def load(
        self, uow: UnitOfWork, tournament_id: int, guild_id: int | None = None
    ) -> TournamentRecord:
        """The tournament by id (of ``guild_id``, when given); ``NotFoundError`` otherwise."""
        t = await uow.tournaments.get(tournament_id)
        if t is None or (guild_id is not None and t.guild_id != guild_id):
            raise NotFoundError(msg.no_such(tournament_id))
        return t

    async def resolve(
        self, uow: UnitOfWork, guild_id: int, channel_id: int | None, ref: int | None
    ) -> TournamentRecord:
        """The tournament a command means: the one named, else the one under way in
        this channel, else the server's only one under way, else the latest."""
        if ref is not None:
            return await self.load(uow, ref, guild_id)
        # A league's divisions are tournaments too, but /league reads them: named, they are
        # found; unnamed, they never make "which tournament?" ambiguous.
        live = [
            t
            for t in await uow.tournaments.live_in_guild(guild_id)
            if not (t.options or {}).get("league_season_id")
        ]
        here = [t for t in live if t.channel_id == channel_id]
        if len(here) == 1:
            return here[0]
        if len(live) == 1:
            return live[0]
        if not live:  # none under way: the latest one here (its table, log, exports)
            recent = await uow.tournaments.recent_in_guild(guild_id)
            latest = next((t for t in recent if t.channel_id == channel_id), None)
            if latest is None and recent:
                latest = recent[0]
            if latest is None:
                raise NotFoundError(msg.NONE_LIVE)
            return latest
        raise InvalidInputError(msg.which_one([(t.id, t.name) for t in live]))

    @staticmethod
    def require_director(t: TournamentRecord, user_id: int, is_moderator: bool, what: str) -> None:
        """Refuse anyone but its creator or a moderator (``what``: what they tried to do)."""
        if user_id != t.created_by and not is_moderator:
            raise PermissionDeniedError(msg.directors_only(what))

    async def bump(self, uow: UnitOfWork, t: TournamentRecord, **changes: Any) -> None:
        """Claim the tournament for this transaction: a second writer at the same
        moment (another director, a game's job) gets ``ConflictError``."""
        if not await uow.tournaments.bump(t, **changes):
            raise ConflictError(msg.MOVED_ON)

    def log(
        self,
        uow: UnitOfWork,
        t: TournamentRecord,
        actor_id: int | None,
        action: str,
        **detail: Any,
    ) -> None:
        """Log ``action`` in the director's log: by whom (None: the bot), now, with its details."""
        uow.tournaments.log(t.id, at=self.now(), actor_id=actor_id, action=action, detail=detail)

    # ------------------------------------------------------------------ names

    @staticmethod
    def member_ids(entrants: Sequence[TournamentEntrantRecord]) -> list[int]:
        """Every member the entrants name: each entrant's member, then the partners of pairs."""
        ids = [e.user_id for e in entrants]
        ids += [e.partner_id for e in entrants if e.partner_id is not None]
        return ids

    @staticmethod
    def entrant_of(
        entrants: Sequence[TournamentEntrantRecord], user_id: int
    ) -> TournamentEntrantRecord | None:
        """The entrant ``user_id`` plays in (alone or in a pair), if any."""
        return next((e for e in entrants if user_id in (e.user_id, e.partner_id)), None)

    # ------------------------------------------------------------------ posts

    def post(self, uow: UnitOfWork, t: TournamentRecord, post: Post) -> None:
        """Announce in the tournament's channel after the commit (an outbox row)."""
        uow.outbox.to_channel(t.channel_id, post)

    def standings_lines(
        self,
        t: TournamentRecord,
        entrants: Sequence[TournamentEntrantRecord],
        pairings: Sequence[TournamentPairingRecord],
    ) -> list[msg.StandingLine]:
        """The tournament's table as messages show it, from its entrants and pairings."""
        by_id = {e.id: e for e in entrants}
        return [
            msg.StandingLine(
                rank=s.rank,
                label=by_id[s.entrant].label,
                points=s.points,
                spread=s.spread,
                buchholz=s.buchholz,
                sonneborn_berger=s.sonneborn_berger,
                played=s.played,
                withdrawn=by_id[s.entrant].status == "withdrawn",
            )
            for s in pairing.table(t, entrants, pairings)
        ]

    def board_lines(
        self,
        entrants: Sequence[TournamentEntrantRecord],
        pairings: Sequence[TournamentPairingRecord],
    ) -> list[msg.BoardLine]:
        """These pairings as messages show them: each board, its entrants and its result (none
        while unplayed, or when voided)."""
        by_id = {e.id: e for e in entrants}
        return [
            msg.BoardLine(
                board=p.board,
                first=by_id[p.first_id].label,
                second=by_id[p.second_id].label if p.second_id is not None else None,
                score=None if p.void else p.score,
                source=p.source,
                game_id=p.game_id,
            )
            for p in pairings
        ]
