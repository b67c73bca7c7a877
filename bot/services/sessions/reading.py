"""A club session's results: pairs ranked across boards (by final score, then
spread), and, for the moderator, every play with its explanation."""

from __future__ import annotations

import dataclasses

from bot.db.models_sessions import ClubSessionRecord
from bot.db.uow import UnitOfWork
from bot.errors import InvalidInputError, NotFoundError
from bot.messages import sessions as messages
from bot.services.scrabble.sessions import BoardState
from bot.services.sessions.core import SessionCore
from bot.services.sessions.snapshots import PairResult, PlayNote, SessionResults


class SessionReading:
    """The results and the ranking, as the results post and the web page show them."""

    def __init__(self, core: SessionCore) -> None:
        self.core = core

    async def ranked(self, uow: UnitOfWork, row: ClubSessionRecord) -> SessionResults:
        """Every pair ranked across boards, and every play with its explanation."""
        view = await self.core.view(uow, row)
        states: list[tuple[int, BoardState]] = []
        for board in await uow.sessions.boards(row.id):
            states.append((board.number, await self.core.boards.state(uow, board.game_id)))
        # A board that ended with no tile placed is a no-contest: its pairs are not ranked.
        no_contest = tuple(number for number, state in states if state.no_contest)
        standing = sorted(
            (
                (number, seat)
                for number, state in states
                if not state.no_contest
                for seat in state.seats
            ),
            key=lambda item: (-item[1].score, -item[1].spread, item[0], item[1].seat),
        )
        pairs: list[PairResult] = []
        for index, (number, seat) in enumerate(standing):
            previous = pairs[-1] if pairs else None
            tied = previous is not None and (previous.score, previous.spread) == (
                seat.score,
                seat.spread,
            )
            rank = previous.rank if tied and previous is not None else index + 1
            pairs.append(
                PairResult(rank, number, seat.label, seat.user_ids, seat.score, seat.spread)
            )
        explained = {
            (e.game_id, e.ply): e.text
            for e in await uow.sessions.explanations([s.game_id for _, s in states])
        }
        plays = tuple(
            PlayNote(
                number,
                ply,
                next(s.label for s in state.seats if s.seat == seat),
                word,
                explained.get((state.game_id, ply)),
            )
            for number, state in states
            for ply, seat, word in state.plays
        )
        final = row.status == "ended" and all(s.finished for _, s in states)
        return SessionResults(view, final, tuple(pairs), plays, no_contest)

    async def results(
        self, *, guild_id: int, channel_id: int, is_moderator: bool
    ) -> SessionResults:
        """The channel's latest session: pairs ranked across boards (as they stand
        while it runs), and for the moderator every play and its explanation."""
        async with self.core.ctx.reader() as uow:
            row = await uow.sessions.latest(guild_id, channel_id)
            if row is None:
                raise NotFoundError(messages.NO_SESSION_HERE)
            if row.status in ("open", "formed", "cancelled"):
                raise InvalidInputError(messages.NO_RESULTS_YET)
            results = await self.ranked(uow, row)
        if not is_moderator:
            results = dataclasses.replace(results, plays=())
        return results

    async def ranking(self, *, guild_id: int, session_id: int) -> SessionResults | None:
        """Session ``session_id`` of this guild, its pairs ranked across boards as the
        results post ranks them (as they stand while it runs), for any member to read
        (the club's web page): no plays or explanations. None before its boards start."""
        async with self.core.ctx.reader() as uow:
            row = await uow.sessions.get(session_id) if 0 < session_id < 2**31 else None
            if row is None or row.guild_id != guild_id:
                raise NotFoundError(messages.NO_SESSION_HERE)
            if row.status in ("open", "formed", "cancelled"):
                return None
            results = await self.ranked(uow, row)
        return dataclasses.replace(results, plays=())
