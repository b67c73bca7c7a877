"""Invitations to a Scrabble game: made, accepted or declined, and the deal once
everyone is in. The computer's seat (this bot named as an opponent) accepts at
once, so a game of one member against the computer can start as it is made."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from datetime import timedelta

from bot.db.uow import UnitOfWork
from bot.errors import InvalidInputError, PermissionDeniedError
from bot.messages import scrabble as msg
from bot.services.scrabble.core import JOB_DEADLINE, ScrabbleCore, job_key
from bot.services.scrabble.loaded import LoadedGame, game_view, invite_outcome, loaded_game
from bot.services.scrabble.options import (
    Member,
    NewGameRequest,
    check_seats,
    read_settings,
    seat_members,
)
from bot.services.scrabble.seating import deal, seat_game
from bot.services.scrabble.snapshots import GameSnapshot, InviteOutcome
from bot.services.transactions import transact
from engines.lexicon import available_lexicons


class Invitations:
    """Invitations: made, accepted or declined, and the deal once everyone is in."""

    def __init__(self, core: ScrabbleCore) -> None:
        self.core = core
        self.ctx = core.ctx

    def word_lists(self) -> list[str]:
        """The word lists a game may be judged by (the club's own first)."""
        names = list(available_lexicons())
        if self.ctx.settings.lexicon not in names:
            names.insert(0, self.ctx.settings.lexicon)
        return names

    async def create(self, request: NewGameRequest) -> InviteOutcome:
        """A new game of ``/scrabble new`` waiting for the invited members to accept
        (``all_accepted`` at once when the only opponent is the computer)."""
        return await self.create_seated(request, seat_members(request))

    async def create_seated(
        self,
        request: NewGameRequest,
        seats: Sequence[Sequence[Member]],
        *,
        accepted: bool = False,
    ) -> InviteOutcome:
        """A new game with its seats given, for callers that already know them
        (a club session's boards, say).

        ``seats`` is ``list[list[Member]]`` in seat order: one list per seat, a
        single player as ``[member]``, a pair as ``[a, b]``; any mix of 2 to 4
        seats (four pairs, three pairs, two pairs and one player…). The computer
        (``Member(..., computer=True)``) may take a seat of its own. They are
        checked as ``/scrabble new``'s are (``options.check_seats``: nobody twice,
        ``InvalidInputError`` otherwise, and nothing is written).

        ``request`` gives the guild, the channel (``in_thread`` to play in it),
        the creator and every option (clock, deadline, challenge, variant,
        word list, ``lookups``…); its ``opponents`` and partner fields are not
        read (leave them out). The creator accepts at once; with
        ``accepted=True`` every seated member does (they signed up already), so
        the outcome is ``all_accepted`` and the caller goes on with
        ``start(outcome.game_id, thread_id)``, which deals, posts the first board
        and tells the first seat's members. Members not seated who act on the
        game are refused as in any game.
        """
        seated = check_seats(seats)
        computer_seat = next(
            (i for i, seat in enumerate(seated) if any(m.computer for m in seat)), None
        )
        settings = read_settings(
            request,
            len(seated),
            computer_seat,
            word_lists=self.word_lists(),
            default_word_list=self.ctx.settings.lexicon,
        )
        now = self.ctx.clock()

        async def attempt(uow: UnitOfWork) -> InviteOutcome:
            record = await seat_game(
                uow,
                guild_id=request.guild_id,
                guild_name=request.guild_name,
                channel_id=request.channel_id,
                in_thread=request.in_thread,
                seats=seated,
                settings=settings,
                created_by=request.creator.user_id,
                now=now,
                accepted=True if accepted else {request.creator.user_id},
            )
            outcome = invite_outcome(await loaded_game(uow, record))
            return outcome

        # Two games made at once can take the same number: the second tries again.
        return await transact(self.ctx, attempt)

    async def accept(
        self, game_id: int, user_id: int, guild_id: int | None = None
    ) -> InviteOutcome:
        """The member accepts; the outcome's ``all_accepted`` tells the caller to ``start``
        the game. A game already started answers as it stands, changing nothing."""
        async with self.ctx.uow() as uow:
            loaded = await self.core.load(uow, game_id, guild_id)
            record = loaded.record
            if loaded.seat_of(user_id) is None:
                raise PermissionDeniedError("This invitation is not for you.")
            if record.status == "abandoned":
                raise InvalidInputError("This invitation was withdrawn or has expired.")
            if record.status == "invited":
                for seat in record.seats:
                    if seat.user_id == user_id:
                        seat.accepted = True
                # Bump the version so two last acceptances can't both start the game.
                await uow.games.save_state(record, expected_version=loaded.version)
            outcome = invite_outcome(loaded)
            await uow.commit()
        return outcome

    async def decline(
        self, game_id: int, user_id: int, guild_id: int | None = None
    ) -> InviteOutcome:
        """An invited member declines, or the creator withdraws: the game is abandoned."""
        async with self.ctx.uow() as uow:
            loaded = await self.core.load(uow, game_id, guild_id)
            if loaded.seat_of(user_id) is None:
                raise PermissionDeniedError("This invitation is not for you.")
            if loaded.record.status != "invited":
                raise InvalidInputError(
                    "This game has already started (or was closed): use `/scrabble resign` to leave it."
                )
            await uow.games.save_state(
                loaded.record,
                expected_version=loaded.version,
                status="abandoned",
                finished_at=self.ctx.clock(),
            )
            await uow.jobs.cancel(job_key(game_id, "invite"))
            outcome = invite_outcome(loaded)
            text = msg.declined(outcome.text, loaded.names.get(user_id, "A player"))
            await uow.commit()
        return dataclasses.replace(outcome, text=text)

    async def start(self, game_id: int, thread_id: int | None) -> GameSnapshot:
        """Everyone accepted: deal, post the first board in the game's thread."""
        now = self.ctx.clock()
        async with self.ctx.uow() as uow:
            loaded = await self.core.load(uow, game_id)
            record = loaded.record
            if record.status != "invited":
                return game_view(loaded, None)
            if any(not s.accepted for s in record.seats):
                raise InvalidInputError("Not everyone has accepted yet.")
            engine = deal(loaded.settings, self.core.rng)
            loaded.engine = engine
            seconds = loaded.settings.deadline_seconds
            deadline = now + timedelta(seconds=seconds) if seconds else None
            columns: dict[str, object] = {"status": "active", "deadline": deadline}
            if thread_id is not None and record.thread_id is None:
                columns["thread_id"] = thread_id
                record.thread_id = thread_id
            await uow.jobs.cancel(job_key(game_id, "invite"))
            if deadline is not None:
                await uow.jobs.schedule(
                    JOB_DEADLINE, deadline, {"game_id": game_id}, key=job_key(game_id, "deadline")
                )
            record.deadline = deadline
            meta = await self.core.schedule_turn(uow, loaded, now, previous={}, new_turn=True)
            state = {"engine": engine.to_json(), **meta}
            await uow.games.save_state(
                record, expected_version=loaded.version, state=state, **columns
            )
            loaded.meta = meta
            self.core.announce.board(uow, loaded, [self._first_draw(loaded)], new_turn=True)
            if not loaded.settings.live:
                self.core.announce.turn(uow, loaded)  # as every later turn: the DM
            view = game_view(loaded, None)
            await uow.commit()
        return view

    @staticmethod
    def _first_draw(loaded: LoadedGame) -> str:
        engine = loaded.require_engine()
        draws = []
        if engine.first_draw:
            draws = [
                (loaded.label(seat), tile)
                for seat, tile in enumerate(engine.first_draw[-1])
                if tile is not None
            ]
        return msg.first_draw(
            loaded.number, loaded.settings.describe(), draws, loaded.label(engine.current_seat)
        )
