"""EventService: a games event's use cases, each one committed transaction.

Every change claims the event's version first (``bump``), so two hosts acting at
once apply once: the second retries from a fresh read and is then told why not
(the round has started, the event is closed). Registration and withdrawal are
the club's one sign-up list (``bot.services.signups``), which has its own
compare-and-set; pairs that move up are told by DM (a mention in the event's
channel when their DMs are closed), through the outbox, in the same commit.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from bot.db.models_events import GamesEventPrizeRecord, GamesEventRecord
from bot.db.uow import UnitOfWork
from bot.errors import InvalidInputError, NotFoundError, PermissionDeniedError
from bot.messages import events as msg
from bot.messages.i18n import _
from bot.messages.post import Post
from bot.services import ServiceContext, signups
from bot.services.boggle import BoggleService
from bot.services.events import rounds
from bot.services.events.options import (
    NAME_CHARS,
    OWNER,
    TOURNAMENT_GAMES,
    read_format,
    read_game,
    read_games,
    read_pairs,
    read_place,
    read_prize,
)
from bot.services.events.standings import game_table
from bot.services.events.views import (
    EventStandings,
    EventView,
    PairView,
    Prize,
    Registered,
    RoundStarted,
    Unfinished,
    Withdrawn,
)
from bot.services.henyo.pairs import close_event, event_pairs
from bot.services.henyo.standings import ranking
from bot.services.results import record_points
from bot.services.tournaments.service import TournamentService

KIND = "event"  # results rows: a member's standing in one game of a games event


@dataclass(frozen=True)
class Member:
    id: int
    name: str


class EventService:
    """``boggle`` and ``tournaments`` are the games' own services (the cog hands
    them over when it runs a round: they are loaded by their own cogs)."""

    def __init__(
        self,
        ctx: ServiceContext,
        *,
        boggle: Callable[[], BoggleService | None] = lambda: None,
        tournaments: Callable[[], TournamentService | None] = lambda: None,
    ) -> None:
        self.ctx = ctx
        self.boggle = boggle
        self.tournaments = tournaments

    # ------------------------------------------------------------------ shared

    async def _bump(self, uow: UnitOfWork, event: GamesEventRecord, **changes: object) -> None:
        if not await uow.events.bump(event, **changes):
            raise signups.ListChanged()  # retried from a fresh read

    async def _resolve(
        self, uow: UnitOfWork, guild_id: int, channel_id: int | None, ref: int | None
    ) -> GamesEventRecord:
        """The event numbered ``ref``, else this channel's open event, else the
        guild's only open event."""
        if ref is not None:
            event = await uow.events.get(ref)
            if event is None or event.guild_id != guild_id:
                raise NotFoundError(msg.no_event(ref))
            return event
        if channel_id is not None:
            here = await uow.events.open_in_channel(channel_id)
            if here is not None:
                return here
        found = await uow.events.in_guild(guild_id, status="open")
        if not found:
            raise NotFoundError(_(msg.NO_OPEN_EVENT))
        if len(found) > 1:
            raise InvalidInputError(msg.several_events([e.id for e in found]))
        return found[0]

    @staticmethod
    def _require_host(event: GamesEventRecord, user_id: int, is_moderator: bool) -> None:
        if user_id != event.host_id and not is_moderator:
            raise PermissionDeniedError(msg.host_only(event.host_id))

    @staticmethod
    def _require_open(event: GamesEventRecord) -> None:
        if event.status != "open":
            raise InvalidInputError(msg.event_closed(event.name))

    async def _view(self, uow: UnitOfWork, event: GamesEventRecord) -> EventView:
        lst = await signups.list_for(uow, OWNER, event.id)
        roster = await signups.roster(uow, lst)
        names = await uow.players.names([m for e in roster.entrants for m in e.members])
        playing = tuple(self._pair(e, names, e.place) for e in roster.playing)
        waiting = tuple(
            self._pair(e, names, number) for number, e in enumerate(roster.waiting, start=1)
        )
        started = tuple(r.game for r in await uow.events.rounds(event.id))
        return EventView(
            event.id,
            event.guild_id,
            event.channel_id,
            event.host_id,
            event.name,
            tuple(event.games),
            event.pairs,
            event.status,
            playing,
            waiting,
            started,
            event.card_message_id,
        )

    @staticmethod
    def _pair(entry: signups.Entrant, names: dict[int, str], place: int) -> PairView:
        partner = entry.partner_id if entry.partner_id is not None else entry.user_id
        return PairView(
            place,
            entry.user_id,
            partner,
            (names.get(entry.user_id, str(entry.user_id)), names.get(partner, str(partner))),
            entry.waiting,
        )

    async def name_of(self, *, guild_id: int, event_id: int) -> str:
        """The event's name, as the partner picker names it."""
        async with self.ctx.reader() as uow:
            return (await self._resolve(uow, guild_id, None, event_id)).name

    # ------------------------------------------------------------------ open

    async def open(
        self,
        *,
        guild_id: int,
        guild_name: str,
        channel_id: int,
        host: Member,
        is_moderator: bool,
        games: str | None = None,
        pairs: int | None = None,
        name: str | None = None,
    ) -> EventView:
        if not is_moderator:
            raise PermissionDeniedError(_(msg.MODERATORS_HOST))
        chosen = read_games(games)
        capacity = read_pairs(pairs)
        title = " ".join((name or "").split())[:NAME_CHARS] or msg.default_name()
        now = self.ctx.clock()
        async with self.ctx.uow() as uow:
            await uow.guilds.ensure(guild_id, guild_name)
            await uow.players.ensure(host.id, host.name)
            if await uow.events.open_in_channel(channel_id) is not None:
                raise InvalidInputError(_(msg.CHANNEL_HAS_EVENT))
            event = GamesEventRecord(
                guild_id=guild_id,
                channel_id=channel_id,
                host_id=host.id,
                name=title,
                games=chosen,
                pairs=capacity,
                status="open",
                version=1,
                created_at=now,
            )
            uow.events.add(event)
            await uow.events.flush()
            await signups.open_list(
                uow,
                guild_id=guild_id,
                owner_kind=OWNER,
                owner_id=event.id,
                capacity=capacity,
                team_size=2,
                now=now,
            )
            # The sign-up card is the cog's to post (``set_card`` keeps it), before
            # the host's reply points at it: it is edited when registration closes.
            view = await self._view(uow, event)
            await uow.commit()
        return view

    async def set_card(self, event_id: int, message_id: int) -> None:
        """Remember the event's sign-up card (edited when registration closes and at the end)."""

        async def work() -> None:
            async with self.ctx.uow() as uow:
                event = await uow.events.get(event_id)
                if event is not None:
                    await self._bump(uow, event, card_message_id=message_id)
                    await uow.commit()

        await signups.retrying(work)

    # ------------------------------------------------------------------ pairs

    async def register(
        self,
        *,
        guild_id: int,
        channel_id: int | None,
        ref: int | None,
        user: Member,
        partner: Member,
    ) -> Registered:
        if partner.id == user.id:
            raise InvalidInputError(_(msg.PARTNER_IS_YOU))

        async def work() -> Registered:
            async with self.ctx.uow() as uow:
                event = await self._resolve(uow, guild_id, channel_id, ref)
                self._require_open(event)
                if await uow.events.rounds(event.id):
                    raise InvalidInputError(msg.registration_over(event.name))
                await uow.players.ensure(user.id, user.name)
                await uow.players.ensure(partner.id, partner.name)
                lst = await signups.list_for(uow, OWNER, event.id)
                entry = await signups.join(
                    uow,
                    lst,
                    user_id=user.id,
                    partner_id=partner.id,
                    what=msg.what(event.name),
                    user_name=user.name,
                    partner_name=partner.name,
                    now=self.ctx.clock(),
                )
                view = await self._view(uow, event)
                await uow.commit()
            pair = next(p for p in (*view.playing, *view.waiting) if p.user_id == entry.user_id)
            return Registered(view, pair)

        return await signups.retrying(work)

    async def withdraw(
        self, *, guild_id: int, channel_id: int | None, ref: int | None, user_id: int
    ) -> Withdrawn:
        async def work() -> Withdrawn:
            async with self.ctx.uow() as uow:
                event = await self._resolve(uow, guild_id, channel_id, ref)
                self._require_open(event)
                if await uow.events.rounds(event.id):
                    raise InvalidInputError(msg.withdraw_too_late(event.name))
                lst = await signups.list_for(uow, OWNER, event.id)
                gone = await signups.withdraw(
                    uow, lst, user_id=user_id, what=msg.what(event.name), now=self.ctx.clock()
                )
                view = await self._view(uow, event)
                moved = tuple(
                    p for p in view.playing if p.user_id in {e.user_id for e in gone.moved_up}
                )
                for pair in moved:
                    self._tell_moved_up(uow, event, pair)
                await uow.commit()
            return Withdrawn(view, moved)

        return await signups.retrying(work)

    def _tell_moved_up(self, uow: UnitOfWork, event: GamesEventRecord, pair: PairView) -> None:
        """The channel hears it; each partner gets a DM (a mention here if DMs are closed)."""
        uow.outbox.to_channel(
            event.channel_id, Post(content=msg.moved_up_post(event.name, pair.names, pair.place))
        )
        for member in pair.members:
            uow.outbox.to_user(
                member,
                Post(
                    content=msg.moved_up_dm(event.name, pair.place, event.channel_id),
                    fallback_content=msg.moved_up_fallback(event.name, pair.place),
                ),
                fallback_channel_id=event.channel_id,
            )

    # ------------------------------------------------------------------ rounds

    async def start_round(
        self,
        *,
        guild_id: int,
        guild_name: str,
        channel_id: int | None,
        ref: int | None,
        user_id: int,
        is_moderator: bool,
        game: str,
        fmt: str | None = None,
        rounds_count: int | None = None,
        duration: str | None = None,
    ) -> RoundStarted:
        chosen = read_game(game)
        tournament_format = read_format(fmt) if chosen in TOURNAMENT_GAMES else None

        async def claim(uow: UnitOfWork) -> tuple[GamesEventRecord, Sequence[signups.Entrant]]:
            event = await self._resolve(uow, guild_id, channel_id, ref)
            self._require_host(event, user_id, is_moderator)
            self._require_open(event)
            if chosen not in event.games:
                raise InvalidInputError(msg.game_not_in_event(chosen, event.games))
            existing = next(
                (r for r in await uow.events.rounds(event.id) if r.game == chosen), None
            )
            if existing is not None:
                # A Boggle round cancelled with /boggle cancel may be started again.
                record = await uow.boggle.get_round(existing.ref_id) if chosen == "boggle" else None
                if record is None or record.status != "cancelled":
                    raise InvalidInputError(msg.round_started_already(chosen))
                await uow.events.delete(existing)
            lst = await signups.list_for(uow, OWNER, event.id)
            playing = (await signups.roster(uow, lst)).playing
            if len(playing) < 2:
                raise InvalidInputError(msg.too_few_pairs(len(playing), 2))
            await self._bump(uow, event)
            await rounds.close_signups(uow, event)
            return event, playing

        if chosen == "boggle":
            boggle = self.boggle()
            if boggle is None:
                raise InvalidInputError(msg.game_not_loaded(chosen))
            async with self.ctx.reader() as uow:
                event = await self._resolve(uow, guild_id, channel_id, ref)
                event_id, event_channel = event.id, event.channel_id
            ref_id = await rounds.start_boggle(
                boggle,
                guild_id=guild_id,
                channel_id=event_channel,
                guild_name=guild_name,
                started_by=user_id,
                duration=duration,
                claim=claim,
            )
            async with self.ctx.reader() as uow:
                fresh = await self._resolve(uow, guild_id, None, event_id)
                view = await self._view(uow, fresh)
            return RoundStarted(view, chosen, ref_id, len(view.playing))

        async def work() -> RoundStarted:
            async with self.ctx.uow() as uow:
                event, playing = await claim(uow)
                now = self.ctx.clock()
                if chosen == "henyo":
                    ref_id = await rounds.start_henyo(uow, event, playing, user_id, now)
                    uow.outbox.to_channel(
                        event.channel_id, Post(content=msg.henyo_round(event.name, len(playing)))
                    )
                else:
                    tournaments = self.tournaments()
                    if tournaments is None:
                        raise InvalidInputError(msg.game_not_loaded(chosen))
                    assert tournament_format is not None
                    ref_id = await rounds.start_tournament(
                        tournaments,
                        uow,
                        event,
                        chosen,
                        tournament_format,
                        rounds_count,
                        playing,
                        user_id,
                    )
                view = await self._view(uow, event)
                await uow.commit()
            return RoundStarted(view, chosen, ref_id, len(playing))

        return await signups.retrying(work)

    # ------------------------------------------------------------------ prizes

    async def prize(
        self,
        *,
        guild_id: int,
        channel_id: int | None,
        ref: int | None,
        user_id: int,
        is_moderator: bool,
        game: str,
        place: int | None,
        text: str,
    ) -> Prize:
        chosen = read_game(game)
        at = read_place(place)
        line = read_prize(text)

        async def work() -> Prize:
            async with self.ctx.uow() as uow:
                event = await self._resolve(uow, guild_id, channel_id, ref)
                self._require_host(event, user_id, is_moderator)
                self._require_open(event)
                if chosen not in event.games:
                    raise InvalidInputError(msg.game_not_in_event(chosen, event.games))
                await self._bump(uow, event)
                existing = next(
                    (
                        p
                        for p in await uow.events.prizes(event.id)
                        if p.game == chosen and p.place == at
                    ),
                    None,
                )
                if existing is None:
                    uow.events.add(
                        GamesEventPrizeRecord(
                            event_id=event.id,
                            game=chosen,
                            place=at,
                            text=line,
                            written_by=user_id,
                            created_at=self.ctx.clock(),
                        )
                    )
                else:
                    existing.text, existing.written_by = line, user_id
                await uow.commit()
            return Prize(chosen, at, line)

        return await signups.retrying(work)

    # ------------------------------------------------------------------ standings

    async def standings(
        self, *, guild_id: int, channel_id: int | None, ref: int | None, game: str | None = None
    ) -> EventStandings:
        only = read_game(game) if game else None
        async with self.ctx.reader() as uow:
            if ref is None and channel_id is not None:
                event = await uow.events.open_in_channel(channel_id)
                if event is None:
                    latest = await uow.events.in_guild(guild_id)
                    if not latest:
                        raise NotFoundError(_(msg.NO_EVENTS_YET))
                    event = latest[0]
            else:
                event = await self._resolve(uow, guild_id, channel_id, ref)
            if only is not None and only not in event.games:
                raise InvalidInputError(msg.game_not_in_event(only, event.games))
            return await self._standings(uow, event, only)

    async def _standings(
        self, uow: UnitOfWork, event: GamesEventRecord, only: str | None = None
    ) -> EventStandings:
        view = await self._view(uow, event)
        by_game = {r.game: r for r in await uow.events.rounds(event.id)}
        members = [m for r in by_game.values() for p in r.pairs for m in p]
        members += [m for p in view.playing for m in p.members]
        names = await uow.players.names(members)
        tables = tuple(
            [
                await game_table(uow, g, by_game.get(g), names)
                for g in event.games
                if only is None or g == only
            ]
        )
        prizes = tuple(Prize(p.game, p.place, p.text) for p in await uow.events.prizes(event.id))
        return EventStandings(view, tables, prizes)

    # ------------------------------------------------------------------ close

    async def close(
        self,
        *,
        guild_id: int,
        channel_id: int | None,
        ref: int | None,
        user_id: int,
        is_moderator: bool,
        confirmed: bool = False,
    ) -> EventStandings | Unfinished:
        """Close the event: post each game's standings and winners with the prize
        lines, and keep them in the leaderboard's history. With games still under
        way (or never started), nothing changes until the host confirms."""

        async def work() -> EventStandings | Unfinished:
            async with self.ctx.uow() as uow:
                event = await self._resolve(uow, guild_id, channel_id, ref)
                self._require_host(event, user_id, is_moderator)
                self._require_open(event)
                result = await self._standings(uow, event)
                unfinished = tuple(t.game for t in result.tables if t.state != "done")
                if unfinished and not confirmed:
                    return Unfinished(result.event, unfinished)
                now = self.ctx.clock()
                await self._bump(uow, event, status="closed", closed_at=now)
                lst = await signups.list_for(uow, OWNER, event.id)
                await signups.close(uow, lst)
                await self._close_henyo(uow, event)
                if await self._end_tournaments(uow, event, user_id):
                    result = await self._standings(uow, event)  # their final tables
                await self._record(uow, event, result)
                final = await self._standings(uow, event)
                uow.outbox.to_channel(event.channel_id, Post(content=msg.final_post(final)))
                await uow.commit()
            return final

        return await signups.retrying(work)

    async def _end_tournaments(
        self, uow: UnitOfWork, event: GamesEventRecord, actor_id: int
    ) -> bool:
        """The event's chess and Scrabble tournaments still running end with it, through
        the tournament's own end: games in play are scored as they stand and closed,
        and each posts its final table. True when one was ended."""
        ended = False
        for rnd in await uow.events.rounds(event.id):
            if rnd.game not in TOURNAMENT_GAMES:
                continue
            t = await uow.tournaments.get(rnd.ref_id)
            tournaments = self.tournaments()
            if t is None or t.status not in ("running", "paused") or tournaments is None:
                continue
            await tournaments.lifecycle.end_now(uow, t, actor_id=actor_id)
            ended = True
        return ended

    async def _close_henyo(self, uow: UnitOfWork, event: GamesEventRecord) -> None:
        """The Henyo round's Henyo event closes with the games event, crowning its
        winner as Henyo's own close does (its row counts in Henyo's "Events won")."""
        rnd = next((r for r in await uow.events.rounds(event.id) if r.game == "henyo"), None)
        if rnd is None:
            return
        henyo = await uow.henyo.event(rnd.ref_id)
        if henyo is None or henyo.status != "open":
            return
        pairs = await event_pairs(uow, henyo)
        table = ranking(pairs, await uow.henyo.event_rounds(henyo.id))
        leaders = table.leaders if table.complete else []
        winner = next((t for t in pairs.teams if len(leaders) == 1 and t.id == leaders[0]), None)
        now = self.ctx.clock()
        if winner is not None:
            final_ms = table.standing(winner.id).final_ms
            for player in (winner.guesser_id, winner.answerer_id):
                await record_points(
                    uow,
                    guild_id=henyo.guild_id,
                    kind="henyo",
                    player_id=player,
                    points=None,
                    played_at=now,
                    round_ref=f"henyo:event:{henyo.id}",
                    outcome="win",
                    extra={"type": "event_win", "event_id": henyo.id, "final_ms": final_ms},
                )
        await close_event(uow, henyo, winner.id if winner else None, now)  # retried if stale

    async def _record(
        self, uow: UnitOfWork, event: GamesEventRecord, result: EventStandings
    ) -> None:
        """Every pair member's place in every game played, as a results row of kind
        'event' (a win for the winners): the event in the leaderboard's history."""
        now = self.ctx.clock()
        prizes = {(p.game, p.place): p.text for p in result.prizes}
        for table in result.tables:
            if table.state == "not_started":
                continue
            winners = {m for r in table.winners for m in r.members}
            for row in table.rows:
                if row.status in ("not_played", "no_list") or not row.played:
                    continue
                for member in row.members:
                    await record_points(
                        uow,
                        guild_id=event.guild_id,
                        kind=KIND,
                        player_id=member,
                        points=None,
                        played_at=now,
                        round_ref=f"event:{event.id}:{table.game}",
                        outcome="win" if member in winners else "loss",
                        extra={
                            "type": "games_event",
                            "event_id": event.id,
                            "event": event.name,
                            "game": table.game,
                            "place": row.place,
                            "prize": prizes.get((table.game, row.place or 0)),
                        },
                    )
