"""Club sessions (the society's practice nights), ``open → formed → started → ended``:

- ``open``: a moderator opens the session with its options; members sign up
  (the one sign-up mechanism, ``bot.services.signups``; a member may name a
  partner) or the moderator names them;
- ``start`` (first): the groups are formed from a stored seed (``engines.sessions``)
  and shown; the moderator may ``swap`` two members;
- ``start`` (again): every board is a Scrabble game with its seats accepted;
  one ``JOB_OPEN_BOARD`` per board makes its thread (outside the transaction,
  through the cog's ``thread_opener``) and posts the first board there, and the
  last to open posts where everyone plays; ``JOB_DEADLINE`` is due at the
  session's deadline;
- the deadline (or ``end``): every board ends in one transaction, unplayed tiles
  deducted (each game's own finish records results and ratings), and the
  results post ranks every pair across boards by final score, then spread.

Every step is a committed row or a job, so a restart anywhere (sign-ups, formed
groups, boards half-open, running boards, the deadline) loses nothing.

Explain the word: each play's post asks the pair to explain it (an Explain
button in the thread); ``explain`` keeps the explanation per play
(``word_explanations``) and shows it in the thread; ``results`` lists, for the
moderator, which plays were explained.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Awaitable, Callable, Sequence
from datetime import datetime, timedelta
from typing import Any

from bot.context import ServiceContext
from bot.db.models import JobRecord
from bot.db.models_sessions import ClubSessionRecord, SessionBoardRecord, WordExplanationRecord
from bot.db.uow import UnitOfWork, duplicate_as
from bot.errors import ConflictError, InvalidInputError, NotFoundError, PermissionDeniedError
from bot.messages import sessions as messages
from bot.messages.errors import moderators_only
from bot.messages.i18n import _
from bot.messages.post import Post
from bot.scheduler import JobSpec
from bot.services import signups
from bot.services.scrabble.loaded import LoadedGame, load_game
from bot.services.scrabble.options import Member as Seated
from bot.services.scrabble.seating import seat_game
from bot.services.scrabble.service import ScrabbleService
from bot.services.scrabble.sessions import BoardState, SessionBoards
from bot.services.sessions.options import SessionOptions, read_options
from bot.services.sessions.views import (
    BoardView,
    Entry,
    Explained,
    Member,
    PairResult,
    PlayNote,
    SeatView,
    SessionResults,
    SessionView,
    SignedUp,
    Swapped,
)
from engines.sessions import MIN_MEMBERS, GroupingError, board_of, form_groups, swap_members

JOB_OPEN_BOARD = "sessions.open_board"
JOB_DEADLINE = "sessions.deadline"
JOB_WATCH = "sessions.watch"
# How often a started session looks whether every board has ended before its deadline.
WATCH_EVERY = timedelta(minutes=1)
OWNER = "session"
WHAT = "the session"
EXPLANATION_CHARS = 400
EXPLANATION_MIN_CHARS = 10  # "x" is no explanation (the form asks for this many too)

# (channel_id, thread name, opening text, nonce, member ids) -> the thread's id (None: no thread)
ThreadOpener = Callable[[int, str, str, str, Sequence[int]], Awaitable[int | None]]


def _open_key(session_id: int, number: int) -> str:
    return f"session:{session_id}:board:{number}:open"


def _deadline_key(session_id: int) -> str:
    return f"session:{session_id}:deadline"


def _watch_key(session_id: int) -> str:
    return f"session:{session_id}:watch"


class SessionService:
    def __init__(
        self, ctx: ServiceContext, scrabble: ScrabbleService, *, rng: random.Random | None = None
    ) -> None:
        self.ctx = ctx
        self.scrabble = scrabble
        self.boards = SessionBoards(scrabble.core)
        self.rng = rng or random.SystemRandom()
        self.thread_opener: ThreadOpener | None = None

    def job_handlers(self) -> dict[str, JobSpec]:
        return {
            JOB_OPEN_BOARD: JobSpec(self.on_open_board, prepare=self.prepare_open_board),
            JOB_DEADLINE: JobSpec(self.on_deadline),
            JOB_WATCH: JobSpec(self.on_watch),
        }

    # -- reading ------------------------------------------------------------------------

    async def _view(self, uow: UnitOfWork, row: ClubSessionRecord) -> SessionView:
        lst = await signups.list_for(uow, OWNER, row.id)
        roster = await signups.roster(uow, lst)
        ids = [m for e in roster.entrants for m in e.members]
        ids += [m for board in row.groups for seat in board for m in seat]
        names = await uow.players.names(list(dict.fromkeys(ids)))
        entries = tuple(
            Entry(e.place, tuple(names.get(m, str(m)) for m in e.members), e.members)
            for e in roster.entrants
        )
        games = {b.number: b.game_id for b in await uow.sessions.boards(row.id)}
        boards = []
        for number, board in enumerate(row.groups, start=1):
            seats = tuple(
                SeatView(tuple(seat), tuple(names.get(m, str(m)) for m in seat)) for seat in board
            )
            game_id = games.get(number)
            game_number = home = None
            if game_id is not None:
                game = await uow.games.get(game_id)
                game_number, home = game.number, game.thread_id
            boards.append(BoardView(number, seats, game_id, game_number, home))
        return SessionView(
            id=row.id,
            channel_id=row.channel_id,
            moderator_id=row.moderator_id,
            status=row.status,
            options=SessionOptions.from_json(row.options),
            entries=entries,
            boards=tuple(boards),
            deadline=row.deadline,
            message_id=row.message_id,
        )

    async def _current(
        self, uow: UnitOfWork, guild_id: int, channel_id: int, session_id: int | None = None
    ) -> ClubSessionRecord:
        if session_id is not None:
            row = await uow.sessions.get(session_id)
            if row is None or row.guild_id != guild_id:
                raise NotFoundError(messages.NO_SUCH_SESSION)
            return row
        row = await uow.sessions.current_in_channel(channel_id)
        if row is None:
            raise NotFoundError(messages.NO_SESSION_HERE)
        return row

    async def _bump(self, uow: UnitOfWork, row: ClubSessionRecord, **changes: object) -> None:
        if not await uow.sessions.bump(row, **changes):
            raise signups.ListChanged()

    async def get(self, session_id: int) -> SessionView:
        async with self.ctx.reader() as uow:
            row = await uow.sessions.get(session_id)
            if row is None:
                raise NotFoundError(messages.NO_SUCH_SESSION)
            return await self._view(uow, row)

    # -- open and sign up -----------------------------------------------------------------

    async def open(
        self,
        *,
        guild_id: int,
        guild_name: str,
        channel_id: int,
        moderator: Member,
        is_moderator: bool,
        clock: str | None = None,
        length: str | None = None,
        explain: bool | None = None,
        challenge: str | None = None,
        word_list: str | None = None,
        odd: str | None = None,
    ) -> SessionView:
        if not is_moderator:
            raise PermissionDeniedError(moderators_only("open a session"))
        options = read_options(
            clock=clock,
            length=length,
            explain=explain,
            challenge=challenge,
            word_list=word_list,
            odd=odd,
        )
        # The word list is checked as a board would check it (2 seats: any count will do).
        self.boards.settings(
            seats=2,
            clock_seconds=options.clock_seconds,
            deadline_seconds=options.length_seconds,
            challenge=options.challenge,
            word_list=options.word_list,
            explain=options.explain,
        )
        now = self.ctx.clock()

        async def work() -> SessionView:
            async with self.ctx.uow() as uow:
                await uow.guilds.ensure(guild_id, guild_name)
                await uow.players.ensure(moderator.id, moderator.name)
                if await uow.sessions.current_in_channel(channel_id) is not None:
                    raise InvalidInputError(messages.SESSION_ALREADY_OPEN)
                row = ClubSessionRecord(
                    guild_id=guild_id,
                    channel_id=channel_id,
                    moderator_id=moderator.id,
                    status="open",
                    options=options.to_json(),
                    groups=[],
                    version=1,
                    created_at=now,
                )
                uow.sessions.add(row)
                await uow.sessions.flush()
                await signups.open_list(
                    uow, guild_id=guild_id, owner_kind=OWNER, owner_id=row.id, now=now
                )
                view = await self._view(uow, row)
                await uow.commit()
                return view

        return await signups.retrying(work)

    async def set_message(self, session_id: int, message_id: int) -> None:
        """Remember the sign-up post (edited as members sign up)."""

        async def work() -> None:
            async with self.ctx.uow() as uow:
                row = await uow.sessions.get(session_id)
                if row is not None:
                    await self._bump(uow, row, message_id=message_id)
                    await uow.commit()

        await signups.retrying(work)

    async def signup(
        self,
        *,
        guild_id: int,
        channel_id: int,
        user: Member,
        by: Member,
        is_moderator: bool,
        partner: Member | None = None,
        session_id: int | None = None,
    ) -> SignedUp:
        """``user`` signs up (with ``partner`` when they asked to play together);
        ``by`` someone else: a moderator naming who plays."""
        by_moderator = by.id != user.id
        if by_moderator and not is_moderator:
            raise PermissionDeniedError(messages.NAMING_IS_FOR_MODERATORS)
        if user.is_bot or (partner is not None and partner.is_bot):
            raise InvalidInputError(messages.NO_BOTS)
        now = self.ctx.clock()

        async def work() -> SignedUp:
            async with self.ctx.uow() as uow:
                row = await self._current(uow, guild_id, channel_id, session_id)
                if row.status != "open":
                    raise InvalidInputError(messages.signups_closed(row.status))
                await uow.players.ensure(user.id, user.name)
                if partner is not None:
                    await uow.players.ensure(partner.id, partner.name)
                lst = await signups.list_for(uow, OWNER, row.id)
                entrant = await signups.join(
                    uow,
                    lst,
                    user_id=user.id,
                    partner_id=partner.id if partner else None,
                    added_by=by.id if by_moderator else None,
                    what=WHAT,
                    user_name=user.name,
                    partner_name=partner.name if partner else "",
                    now=now,
                )
                view = await self._view(uow, row)
                await uow.commit()
            entry = next(e for e in view.entries if e.place == entrant.place)
            return SignedUp(view, entry, by_moderator)

        return await signups.retrying(work)

    async def withdraw(
        self, *, guild_id: int, channel_id: int, user_id: int, session_id: int | None = None
    ) -> SessionView:
        now = self.ctx.clock()

        async def work() -> SessionView:
            async with self.ctx.uow() as uow:
                row = await self._current(uow, guild_id, channel_id, session_id)
                if row.status != "open":
                    raise InvalidInputError(messages.signups_closed(row.status))
                lst = await signups.list_for(uow, OWNER, row.id)
                await signups.withdraw(uow, lst, user_id=user_id, what=WHAT, now=now)
                view = await self._view(uow, row)
                await uow.commit()
                return view

        return await signups.retrying(work)

    # -- start: form the groups, then the boards --------------------------------------------

    async def start(
        self, *, guild_id: int, channel_id: int, by: Member, is_moderator: bool
    ) -> SessionView:
        """First call: form the groups (nothing is played yet, swaps still allowed).
        Second call: the boards start."""
        if not is_moderator:
            raise PermissionDeniedError(moderators_only("start a session"))
        now = self.ctx.clock()
        seed = self.rng.randrange(2**62)

        async def work() -> SessionView:
            async with self.ctx.uow() as uow:
                row = await self._current(uow, guild_id, channel_id)
                if row.status == "open":
                    await self._form(uow, row, seed)
                elif row.status == "formed":
                    await self._begin(uow, row, by.id, now)
                else:
                    raise InvalidInputError(messages.ALREADY_STARTED)
                view = await self._view(uow, row)
                await uow.commit()
                return view

        return await signups.retrying(work)

    async def _form(self, uow: UnitOfWork, row: ClubSessionRecord, seed: int) -> None:
        lst = await signups.list_for(uow, OWNER, row.id)
        roster = await signups.roster(uow, lst)
        members = list(roster.members)
        if len(members) < MIN_MEMBERS:
            raise InvalidInputError(messages.too_few(len(members), MIN_MEMBERS))
        requested = [(e.user_id, e.partner_id) for e in roster.playing if e.partner_id is not None]
        options = SessionOptions.from_json(row.options)
        try:
            groups = form_groups(members, requested, seed, odd=options.odd)
        except GroupingError as exc:
            raise InvalidInputError(messages.cannot_group(str(exc))) from None
        await signups.close(uow, lst)
        await self._bump(uow, row, status="formed", seed=seed, groups=groups)

    async def _begin(self, uow: UnitOfWork, row: ClubSessionRecord, by: int, now: datetime) -> None:
        options = SessionOptions.from_json(row.options)
        deadline = now + timedelta(seconds=options.length_seconds)
        names = await uow.players.names(
            [user for board in row.groups for seat in board for user in seat]
        )
        for number, board in enumerate(row.groups, start=1):
            settings = self.boards.settings(
                seats=len(board),
                clock_seconds=options.clock_seconds,
                deadline_seconds=options.length_seconds,
                challenge=options.challenge,
                word_list=options.word_list,
                explain=options.explain,
            )
            game = await seat_game(
                uow,
                guild_id=row.guild_id,
                channel_id=row.channel_id,
                seats=[
                    [Seated(user, names.get(user, str(user))) for user in seat] for seat in board
                ],
                settings=settings,
                created_by=by,
                now=now,
                accepted=True,  # they signed up
                rng=self.boards.core.rng,  # dealt now: its clock starts with its first board
                deadline=deadline,
                extra_options={"session_id": row.id},
            )
            uow.sessions.add(SessionBoardRecord(session_id=row.id, number=number, game_id=game.id))
            await uow.jobs.schedule(
                JOB_OPEN_BOARD,
                now,
                {"session_id": row.id, "board": number, "game_id": game.id},
                key=_open_key(row.id, number),
            )
        await uow.jobs.schedule(
            JOB_DEADLINE, deadline, {"session_id": row.id}, key=_deadline_key(row.id)
        )
        await uow.jobs.schedule(
            JOB_WATCH, now + WATCH_EVERY, {"session_id": row.id}, key=_watch_key(row.id)
        )
        await self._bump(uow, row, status="started", started_at=now, deadline=deadline)

    async def swap(
        self, *, guild_id: int, channel_id: int, first: Member, second: Member, is_moderator: bool
    ) -> Swapped:
        if not is_moderator:
            raise PermissionDeniedError(moderators_only("swap members in a session"))

        async def work() -> Swapped:
            async with self.ctx.uow() as uow:
                row = await self._current(uow, guild_id, channel_id)
                if row.status == "open":
                    raise InvalidInputError(messages.NOT_FORMED_YET)
                if row.status != "formed":
                    raise InvalidInputError(messages.BOARDS_STARTED)
                for member in (first, second):
                    if board_of(row.groups, member.id) is None:
                        raise InvalidInputError(messages.not_in_groups(member.name))
                if first.id != second.id and any(
                    first.id in seat and second.id in seat for board in row.groups for seat in board
                ):
                    # Swapping partners changes nothing: say so rather than "Swapped".
                    raise InvalidInputError(messages.already_partners(first.name, second.name))
                try:
                    groups = swap_members(row.groups, first.id, second.id)
                except GroupingError as exc:
                    raise InvalidInputError(messages.cannot_group(str(exc))) from None
                await self._bump(uow, row, groups=groups)
                view = await self._view(uow, row)
                await uow.commit()
            return Swapped(view, first.name, second.name)

        return await signups.retrying(work)

    # -- the boards open (a job each) ---------------------------------------------------------

    async def prepare_open_board(self, payload: dict[str, Any]) -> tuple[int | None] | None:
        """Make the board's thread (a call to Discord, outside the job's transaction).
        The opener posts its first message with a nonce and makes the thread from it,
        so a repeat after a crash makes no second thread."""
        game_id = int(payload["game_id"])
        number = int(payload["board"])
        async with self.ctx.reader() as uow:
            loaded = await load_game(uow, game_id)
            if "moves" in loaded.meta or loaded.record.status != "active":
                return None  # open already (or over)
            row = await uow.sessions.get(int(payload["session_id"]))
            if row is None:
                return None
            channel_id = row.channel_id
            game_number = loaded.number
            members = [u for s in sorted(loaded.seats) for u in loaded.seats[s]]
            names = await uow.players.names(members)
            seats = [[names.get(u, str(u)) for u in loaded.seats[s]] for s in sorted(loaded.seats)]
        opener = self.thread_opener
        if opener is None:
            return (None,)
        thread_id = await opener(
            channel_id,
            messages.board_thread_name(number, game_number),
            messages.board_opening(number, game_number, seats),
            f"sb{game_id}",
            members,
        )
        return (thread_id,)

    async def on_open_board(
        self, uow: UnitOfWork, job: JobRecord, prepared: tuple[int | None] | None
    ) -> None:
        if prepared is None:
            return
        now = self.ctx.clock()
        if not await self.boards.open_in(uow, int(job.payload["game_id"]), prepared[0], now):
            return
        row = await uow.sessions.get(int(job.payload["session_id"]))
        if row is None:
            return
        await uow.session.flush()
        homes: list[int | None] = []
        for board in await uow.sessions.boards(row.id):
            game = await uow.games.get(board.game_id)
            opened = "moves" in (game.state or {})
            homes.append((game.thread_id or game.channel_id) if opened else None)
        everyone_open = all(home is not None for home in homes)
        post_now = everyone_open and not row.options.get("where_posted")
        # Every opening bumps the session, so two boards opening at once in two
        # processes serialize: the later one is retried and sees both open.
        if not await uow.sessions.bump(
            row,
            options={
                **row.options,
                "where_posted": post_now or bool(row.options.get("where_posted")),
            },
        ):
            raise ConflictError()
        if not post_now:
            return  # another board is still opening: the last one posts
        view = await self._view(uow, row)
        everyone = tuple(u for b in view.boards for s in b.seats for u in s.user_ids)
        post = Post(content=messages.where_everyone_plays(view, homes), mention_user_ids=everyone)
        uow.outbox.to_channel(row.channel_id, post)

    # -- the end ----------------------------------------------------------------------------

    async def on_deadline(self, uow: UnitOfWork, job: JobRecord) -> None:
        row = await uow.sessions.get(int(job.payload["session_id"]))
        if row is None or row.status != "started":
            return
        await self._end(uow, row, self.ctx.clock())

    async def on_watch(self, uow: UnitOfWork, job: JobRecord) -> None:
        """Every board has ended before the deadline (played out): the results post now;
        otherwise look again in a minute."""
        row = await uow.sessions.get(int(job.payload["session_id"]))
        if row is None or row.status != "started":
            return
        now = self.ctx.clock()
        boards = await uow.sessions.boards(row.id)
        games = [await uow.games.get(b.game_id) for b in boards]
        if games and all(g.status != "active" for g in games):
            await self._end(uow, row, now)
            return
        await uow.jobs.schedule(
            JOB_WATCH, now + WATCH_EVERY, {"session_id": row.id}, key=_watch_key(row.id)
        )

    async def end(self, *, guild_id: int, channel_id: int, is_moderator: bool) -> SessionView:
        """The moderator ends the session now: every board ends as at the deadline
        (a session not started yet is cancelled)."""
        if not is_moderator:
            raise PermissionDeniedError(moderators_only("end a session"))
        now = self.ctx.clock()

        async def work() -> SessionView:
            async with self.ctx.uow() as uow:
                row = await self._current(uow, guild_id, channel_id)
                if row.status == "started":
                    await self._end(uow, row, now, early=True)
                else:
                    lst = await signups.list_for(uow, OWNER, row.id)
                    await signups.close(uow, lst)
                    await self._bump(uow, row, status="cancelled", ended_at=now)
                    uow.outbox.to_channel(row.channel_id, Post(content=_(messages.CANCELLED)))
                view = await self._view(uow, row)
                await uow.commit()
                return view

        return await signups.retrying(work)

    async def _end(
        self, uow: UnitOfWork, row: ClubSessionRecord, now: datetime, *, early: bool = False
    ) -> None:
        """Every board ends at this moment, in this transaction; then the results post.
        ``early``: the moderator ended the session before its deadline."""
        boards = await uow.sessions.boards(row.id)
        for board in boards:
            await self.boards.end(uow, board.game_id, now, early=early)
        await uow.jobs.cancel(_deadline_key(row.id))
        await uow.jobs.cancel(_watch_key(row.id))
        await self._bump(uow, row, status="ended", ended_at=now)
        results = await self._results(uow, row)
        for text in messages.results_posts(results):
            uow.outbox.to_channel(row.channel_id, Post(content=text))

    # -- results and explanations -------------------------------------------------------------

    async def _results(self, uow: UnitOfWork, row: ClubSessionRecord) -> SessionResults:
        view = await self._view(uow, row)
        states: list[tuple[int, BoardState]] = []
        for board in await uow.sessions.boards(row.id):
            states.append((board.number, await self.boards.state(uow, board.game_id)))
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
        async with self.ctx.reader() as uow:
            row = await uow.sessions.latest(guild_id, channel_id)
            if row is None:
                raise NotFoundError(messages.NO_SESSION_HERE)
            if row.status in ("open", "formed", "cancelled"):
                raise InvalidInputError(messages.NO_RESULTS_YET)
            results = await self._results(uow, row)
        if not is_moderator:
            results = dataclasses.replace(results, plays=())
        return results

    async def ranking(self, *, guild_id: int, session_id: int) -> SessionResults | None:
        """Session ``session_id`` of this guild, its pairs ranked across boards as the
        results post ranks them (as they stand while it runs), for any member to read
        (the club's web page): no plays or explanations. None before its boards start."""
        async with self.ctx.reader() as uow:
            row = await uow.sessions.get(session_id) if 0 < session_id < 2**31 else None
            if row is None or row.guild_id != guild_id:
                raise NotFoundError(messages.NO_SESSION_HERE)
            if row.status in ("open", "formed", "cancelled"):
                return None
            results = await self._results(uow, row)
        return dataclasses.replace(results, plays=())

    async def _play_to_explain(
        self, uow: UnitOfWork, guild_id: int, game_id: int, ply: int, user_id: int
    ) -> tuple[LoadedGame, int, tuple[str, ...]]:
        """The game, the seat and the words of the play at ``ply``, if ``user_id``'s
        pair made it and has not explained it yet."""
        loaded = await load_game(uow, game_id, guild_id)
        engine = loaded.require_engine()
        if not 0 <= ply < len(engine.moves) or engine.moves[ply]["type"] != "play":
            raise NotFoundError(messages.NO_SUCH_PLAY)
        entry = engine.moves[ply]
        seat = int(entry["seat"])
        if loaded.seat_of(user_id) != seat:
            raise PermissionDeniedError(messages.NOT_YOUR_PLAY)
        if await uow.sessions.explanation(game_id, ply) is not None:
            raise InvalidInputError(messages.ALREADY_EXPLAINED)
        return loaded, seat, tuple(dict.fromkeys(entry.get("words") or [entry["word"]]))

    async def words_to_explain(
        self, *, guild_id: int, game_id: int, ply: int, user_id: int
    ) -> tuple[str, ...]:
        """Before the form opens: the words, or why this member can't explain them."""
        async with self.ctx.reader() as uow:
            _, _, words = await self._play_to_explain(uow, guild_id, game_id, ply, user_id)
        return words

    async def explain(
        self, *, guild_id: int, game_id: int, ply: int, user_id: int, text: str
    ) -> Explained:
        """The pair that made the play at ``ply`` explains its word, once; shown in the thread."""
        cleaned = " ".join(text.split())
        if not cleaned:
            raise InvalidInputError(messages.EMPTY_EXPLANATION)
        if len(cleaned) < EXPLANATION_MIN_CHARS:
            raise InvalidInputError(
                _(messages.SHORT_EXPLANATION).format(count=EXPLANATION_MIN_CHARS)
            )
        cleaned = cleaned[:EXPLANATION_CHARS]
        now = self.ctx.clock()
        async with self.ctx.uow() as uow:
            loaded, seat, words = await self._play_to_explain(uow, guild_id, game_id, ply, user_id)
            uow.sessions.add(
                WordExplanationRecord(
                    game_id=game_id, ply=ply, user_id=user_id, text=cleaned, created_at=now
                )
            )
            with duplicate_as(InvalidInputError(messages.ALREADY_EXPLAINED)):
                await uow.sessions.flush()
            if loaded.home is not None:
                post = Post(content=messages.explanation_post(loaded.label(seat), words, cleaned))
                uow.outbox.to_channel(loaded.home, post)
            await uow.commit()
        return Explained(loaded.number, loaded.home, words)
