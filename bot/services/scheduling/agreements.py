"""Agreeing a game's time (issue #30): ``/schedule propose`` and ``/schedule accept``.

In a league or tournament game on a long clock (correspondence chess, asynchronous
Scrabble: a day or more per move) a player proposes up to three times, as written in
the club's time zone; a player of another side accepts one (a command or a button on
the proposal's post). A new proposal replaces the one before (an agreed time stays
until a new one is accepted). The agreed time is posted in the game's thread, shown on
``/mygames``, and both sides are reminded an hour before by DM (the thread when DMs
are closed), by a job: ``propose → (replaced) | accepted → reminded``.

Refused privately, changing nothing: a time unreadable, past, or after the game's
deadline (its round's); a game finished, live, or neither a league's nor a
tournament's; a proposal accepted by its own side or by someone not playing.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from bot.db.models import GameRecord, JobRecord
from bot.db.models_schedule import TimeProposalRecord
from bot.db.uow import UnitOfWork
from bot.errors import InvalidInputError, NotFoundError
from bot.messages import schedule as msg
from bot.messages.errors import PICK_A_GAME
from bot.messages.limits import CHOICE_NAME_CHARS, CHOICES
from bot.messages.post import Post, ViewSpec
from bot.scheduler import JobSpec
from bot.services import ServiceContext
from bot.services.board_address import BoardAddresses
from bot.services.board_links import Kind
from bot.services.boggle.options import club_zone
from bot.services.scheduling.when import read_when
from engines.chess_clock import TimeControlError, parse_time_control

JOB_REMINDER = "schedule.reminder"
VIEW_PROPOSAL = "schedule.proposal"
REMINDER_LEAD = timedelta(hours=1)
LIVE_LIMIT = timedelta(hours=1)  # a Scrabble turn clock under this is live play
KINDS = ("scrabble", "chess")
_SEVERAL = re.compile(r"\s*(?:;|\||\bor\b|\bo\b)\s*", re.I)
_REF = re.compile(r"\s*(?:(chess|scrabble)\s*[:#]?\s*)?#?\s*(\d{1,12})\b.*", re.I | re.S)


def reminder_key(game_id: int) -> str:
    """The job key of a game's reminder (one per game: a new agreed time moves it)."""
    return f"schedule:remind:{game_id}"


@dataclass(frozen=True)
class Proposed:
    """A proposal made: its game, its times, where it was posted."""

    game_kind: str
    number: int
    proposal_id: int
    times: tuple[datetime, ...]
    place_id: int | None


@dataclass(frozen=True)
class Agreed:
    """A time agreed: its game, the time, where it was posted."""

    game_kind: str
    number: int
    agreed_at: datetime
    place_id: int | None


def sides(game: GameRecord) -> dict[int, set[int]]:
    """Each seat's members."""
    out: dict[int, set[int]] = {}
    for seat in game.seats:
        out.setdefault(seat.seat, set()).add(seat.user_id)
    return out


def seat_of(game: GameRecord, user_id: int) -> int | None:
    """The member's seat in the game (None: not a player)."""
    return next((s.seat for s in game.seats if s.user_id == user_id), None)


def is_live(game: GameRecord) -> bool:
    """Whether the game is played on a live clock (in one sitting)."""
    options = game.options or {}
    if game.kind == "chess":
        try:
            return parse_time_control(options.get("time_control")).is_live
        except TimeControlError:
            return False
    clock = options.get("clock_seconds")
    return isinstance(clock, int | float) and clock < LIVE_LIMIT.total_seconds()


def club_game(game: GameRecord) -> bool:
    """A league's or a tournament's game."""
    options = game.options or {}
    return isinstance(options.get("tournament_id"), int) or isinstance(
        options.get("league_id"), int
    )


class GameTimes:
    """``/schedule propose|accept`` and the reminder job."""

    def __init__(self, ctx: ServiceContext) -> None:
        self.ctx = ctx

    def job_handlers(self) -> Mapping[str, JobSpec]:
        """The reminder job."""
        return {JOB_REMINDER: JobSpec(self.on_reminder)}

    # ------------------------------------------------------------------ which game

    async def _game(
        self, uow: UnitOfWork, guild_id: int, user_id: int, channel_id: int | None, ref: str | None
    ) -> GameRecord:
        """The game meant: ``ref`` (``chess:3``, ``Chess #3``, ``#3``), else this thread's,
        else the member's only game where times are agreed."""
        if ref is not None and ref.strip():
            match = _REF.fullmatch(ref)
            if match is None:
                raise InvalidInputError(PICK_A_GAME)
            kinds = (match[1].lower(),) if match[1] else KINDS
            found = [
                gid
                for kind in kinds
                if (gid := await uow.games.id_of(guild_id, kind, int(match[2]))) is not None
            ]
            if len(found) > 1:  # "#3" names a chess game and a Scrabble game: the member's
                seated = [g for g in found if seat_of(await uow.games.get(g), user_id) is not None]
                found = seated or found
            if not found:
                raise NotFoundError(msg.NO_SUCH_GAME)
            return await uow.games.get(found[0], guild_id=guild_id)
        if channel_id is not None:
            here = await uow.games.by_thread(channel_id)
            if here is not None and here.guild_id == guild_id:
                return here
        mine = await self._eligible(uow, guild_id, user_id)
        if len(mine) == 1:
            return mine[0]
        if not mine:
            raise NotFoundError(msg.NO_GAME)
        raise InvalidInputError(msg.several_games([(g.kind, g.number) for g in mine[:5]]))

    @staticmethod
    async def _eligible(uow: UnitOfWork, guild_id: int, user_id: int) -> list[GameRecord]:
        """The member's games in play here where times are agreed."""
        games = await uow.games.for_player(user_id, guild_id=guild_id, statuses=("active",))
        return [g for g in games if club_game(g) and not is_live(g) and g.kind in KINDS]

    async def choices(self, *, guild_id: int, user_id: int, typed: str) -> list[tuple[str, str]]:
        """Suggestions for the ``game`` option: the member's games where times are agreed."""
        async with self.ctx.reader() as uow:
            games = (await self._eligible(uow, guild_id, user_id))[:50]
            others = {
                g.id: [s.user_id for s in g.seats if s.seat != seat_of(g, user_id)] for g in games
            }
            names = await uow.players.names([u for ids in others.values() for u in ids])
            games_shown = [
                (
                    msg.choice_label(g.kind, g.number, [names.get(u, "?") for u in others[g.id]]),
                    f"{g.kind}:{g.number}",
                )
                for g in games
            ]
        needle = typed.strip().lstrip("#").lower()
        out = [
            (label[:CHOICE_NAME_CHARS], value)
            for label, value in games_shown
            if not needle or needle in label.lower()
        ]
        return out[:CHOICES]

    async def _deadline(self, uow: UnitOfWork, game: GameRecord) -> datetime | None:
        """The game's deadline: its round's (a league season's end, for a league's game)."""
        pairing = await uow.tournaments.pairing_of_game(game.id)
        if pairing is not None:
            rnd = await uow.tournaments.round(pairing.tournament_id, pairing.round)
            if rnd is not None and rnd.deadline is not None:
                return rnd.deadline
        return game.deadline if game.kind == "scrabble" else None

    def _check_game(self, game: GameRecord, user_id: int) -> int:
        """The member's seat in a game where times may be agreed now."""
        if game.status in ("finished", "abandoned", "declined", "expired", "cancelled"):
            raise InvalidInputError(msg.game_over(game.kind, game.number))
        if not club_game(game):
            raise InvalidInputError(msg.NOT_LEAGUE_OR_TOURNAMENT)
        if is_live(game):
            raise InvalidInputError(msg.LIVE_CLOCK)
        seat = seat_of(game, user_id)
        if seat is None:
            raise InvalidInputError(msg.NOT_A_PLAYER)
        if game.status != "active":
            raise InvalidInputError(msg.game_over(game.kind, game.number))
        return seat

    # ------------------------------------------------------------------ propose

    async def propose(
        self,
        *,
        guild_id: int,
        user_id: int,
        channel_id: int | None,
        game: str | None,
        when: Sequence[str | None],
    ) -> Proposed:
        """Propose up to three times for the game (replacing an open proposal)."""
        # several times in one option too: "Sat 3pm; Sun 5pm", "Sat 3pm or Sun 5pm"
        typed = [part for w in when if w is not None for part in _SEVERAL.split(w) if part.strip()]
        if len(typed) > msg.MAX_TIMES:
            raise InvalidInputError(msg.too_many_times(msg.MAX_TIMES))
        if not typed:
            raise InvalidInputError(msg.NO_TIME_GIVEN)
        now = self.ctx.clock()
        async with self.ctx.uow() as uow:
            record = await self._game(uow, guild_id, user_id, channel_id, game)
            seat = self._check_game(record, user_id)
            guild = await uow.guilds.get(guild_id)
            zone = club_zone(guild.timezone if guild else None)
            times = [read_when(t, now, zone) for t in typed]
            if len(set(times)) != len(times):
                raise InvalidInputError(msg.SAME_TIME_TWICE)
            deadline = await self._deadline(uow, record)
            for at in times:
                if at <= now:
                    raise InvalidInputError(msg.in_the_past(at))
                if deadline is not None and at > deadline:
                    raise InvalidInputError(msg.after_deadline(at, deadline))
            await uow.schedule.replace(record.id, ("open",), now)
            row = await uow.schedule.add_proposal(
                TimeProposalRecord(
                    game_id=record.id,
                    proposer_id=user_id,
                    times=[t.isoformat() for t in times],
                    status="open",
                    created_at=now,
                )
            )
            place = record.thread_id or record.channel_id
            opponents = sorted(u for s, ids in sides(record).items() if s != seat for u in ids)
            if place is not None:
                uow.outbox.to_channel(
                    place,
                    Post(
                        content=msg.proposal_post(
                            record.kind, record.number, user_id, opponents, times
                        ),
                        mention_user_ids=tuple(opponents),
                        view=ViewSpec(
                            VIEW_PROPOSAL,
                            {
                                "proposal_id": row.id,
                                "labels": [
                                    msg.accept_label(i, at, zone) for i, at in enumerate(times, 1)
                                ],
                            },
                        ),
                    ),
                )
            await uow.commit()
        return Proposed(record.kind, record.number, row.id, tuple(times), place)

    # ------------------------------------------------------------------ accept

    async def accept(
        self,
        *,
        guild_id: int,
        user_id: int,
        channel_id: int | None = None,
        game: str | None = None,
        choice: int | None = None,
        proposal_id: int | None = None,
    ) -> Agreed:
        """Accept time ``choice`` (1-based; the only one when left out) of the game's
        latest proposal, or of ``proposal_id`` (a button), which must be the latest."""
        now = self.ctx.clock()
        async with self.ctx.uow() as uow:
            if proposal_id is not None:
                proposal = await uow.schedule.proposal(proposal_id)
                if proposal is None:
                    raise NotFoundError(msg.PROPOSAL_GONE)
                record = await uow.games.get(proposal.game_id, guild_id=guild_id)
            else:
                record = await self._game(uow, guild_id, user_id, channel_id, game)
                proposal = None
            seat = self._check_game(record, user_id)
            latest = await uow.schedule.of_game(record.id, ("open", "accepted"))
            current = latest[0] if latest else None
            if proposal is None:
                proposal = current
            if proposal is None:
                raise InvalidInputError(msg.NO_PROPOSAL)
            if proposal.status == "accepted" and proposal.agreed_at is not None:
                raise InvalidInputError(msg.already_agreed(proposal.agreed_at))
            if proposal.status != "open" or (current is not None and current.id != proposal.id):
                raise InvalidInputError(msg.REPLACED)
            if seat_of(record, proposal.proposer_id) == seat:
                raise InvalidInputError(msg.OWN_PROPOSAL)
            times = [datetime.fromisoformat(t) for t in proposal.times]
            if choice is None and len(times) > 1:
                raise InvalidInputError(msg.bad_choice(len(times)))
            index = (choice or 1) - 1
            if not 0 <= index < len(times):
                raise InvalidInputError(msg.bad_choice(len(times)))
            at = times[index]
            if at <= now:
                raise InvalidInputError(msg.in_the_past(at))
            await uow.schedule.replace(record.id, ("accepted",), now)  # an earlier agreed time
            if not await uow.schedule.take(proposal.id, agreed_at=at, by=user_id, at=now):
                raise InvalidInputError(msg.REPLACED)  # taken or replaced meanwhile
            await uow.jobs.schedule(
                JOB_REMINDER,
                max(now, at - REMINDER_LEAD),
                {"game_id": record.id, "proposal_id": proposal.id, "guild_id": guild_id},
                key=reminder_key(record.id),
            )
            place = record.thread_id or record.channel_id
            if place is not None:
                uow.outbox.to_channel(
                    place, Post(content=msg.agreed_post(record.kind, record.number, user_id, at))
                )
            await uow.commit()
        return Agreed(record.kind, record.number, at, place)

    # ------------------------------------------------------------------ the reminder

    async def on_reminder(self, uow: UnitOfWork, job: JobRecord) -> None:
        """Remind every player of the game, by DM (the thread when DMs are closed), of the
        time agreed, with their own board link when the club's page is on; nothing when
        the game is over or another time was agreed since."""
        proposal = await uow.schedule.proposal(int(job.payload["proposal_id"]))
        if proposal is None or proposal.status != "accepted" or proposal.agreed_at is None:
            return
        game = await uow.games.get(proposal.game_id)
        if game.status != "active":
            return
        place = game.thread_id or game.channel_id
        kind: Kind = "chess" if game.kind == "chess" else "scrabble"
        link = BoardAddresses(self.ctx).dm_button(game.guild_id, kind, game.id)
        seats = sides(game)
        everyone = [u for ids in seats.values() for u in ids]
        names = await uow.players.names(everyone)
        for seat, ids in sorted(seats.items()):
            opponents = [names.get(u, "?") for s, o in seats.items() if s != seat for u in o]
            text = msg.reminder(game.kind, game.number, opponents, proposal.agreed_at)
            for user_id in sorted(ids):
                uow.outbox.to_user(
                    user_id,
                    Post(
                        content=text,
                        view=link,  # the member's own board link, made as it is sent
                        fallback_content=msg.reminder_fallback(
                            game.kind, game.number, proposal.agreed_at
                        ),
                    ),
                    fallback_channel_id=place,
                )
