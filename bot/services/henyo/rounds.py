"""Starting a round: pick the pair and the secret and store the round as
``ready`` (with a watchdog job); once the cog has DMed the secret and posted
the announcement, ``begin`` starts the clock at that message's own timestamp.
A round that could not be announced is cancelled."""

from __future__ import annotations

from datetime import timedelta

from bot.db.models_henyo import HenyoEventRecord, HenyoRoundRecord, HenyoTeamRecord
from bot.db.uow import UnitOfWork
from bot.errors import InvalidInputError, PermissionDeniedError
from bot.messages import henyo as messages
from bot.messages.i18n import N_
from bot.services.henyo.core import JOB_KIND, HenyoCore, job_key, require_host
from bot.services.henyo.options import (
    DEFAULT_PENALTY_MS,
    DEFAULT_TIME_LIMIT_MS,
    RoundRequest,
    round_request,
    user_error,
)
from bot.services.henyo.pairs import event_pairs, member
from bot.services.henyo.snapshots import ActiveRound, Member, PreparedRound, RunningRound
from bot.services.henyo.standings import played_teams, ranking
from bot.services.henyo.words import WordBank
from bot.services.transactions import transact
from engines.henyo import (
    ANY_LANGUAGE,
    CATEGORIES,
    HenyoWordError,
    WordEntry,
    builtin_words,
    pick_word,
    snowflake_time,
    word_key,
)

# The end job fires this long after the deadline, so a guess sent just in time
# has reached the bot before the round is called.
END_GRACE = timedelta(seconds=2)
# A round not announced within this time (the bot died between the DMs and the
# announcement) is cancelled by its watchdog.
START_WINDOW = timedelta(seconds=60)
RECENT_ONE_OFF_WORDS = 100


class RoundStarts:
    """Starting a round: prepare it, begin its clock at the announcement, or cancel it."""

    def __init__(self, core: HenyoCore, words: WordBank) -> None:
        self.core = core
        self.words = words

    async def _next_pair(
        self, uow: UnitOfWork, event: HenyoEventRecord
    ) -> tuple[HenyoTeamRecord, int, int]:
        """The next pair to play its word, or to play a tie-break word (and its level),
        with its number."""
        pairs = await event_pairs(uow, event)
        rounds = await uow.henyo.event_rounds(event.id)
        played = played_teams(rounds)
        for team in pairs.teams:
            if pairs.statuses[team.id] == "playing" and team.id not in played:
                return team, 0, pairs.numbers[team.id]
        table = ranking(pairs, rounds)
        by_id = {t.id: t for t in pairs.teams}
        for tie in table.ties:
            if tie.waiting_ids:
                team = by_id[tie.waiting_ids[0]]
                return team, tie.level, pairs.numbers[team.id]
        if not any(pairs.statuses[t.id] == "playing" for t in pairs.teams):
            raise InvalidInputError(messages.NO_PAIRS_YET)
        raise InvalidInputError(messages.NO_PAIR_LEFT)

    async def _used_keys(self, uow: UnitOfWork, guild_id: int, event_id: int | None) -> set[str]:
        """Words that may not come up again: the event's, or (one-offs) the guild's recent ones.

        A round cancelled because the answerer could not get the DM never showed
        its word to anyone, so that word stays available.
        """
        used = await uow.henyo.used_words(
            guild_id=guild_id, event_id=event_id, recent=RECENT_ONE_OFF_WORDS
        )
        return {word.key for word in used if word.cancel_reason != "dm_closed"}

    async def _secret(
        self,
        uow: UnitOfWork,
        request: RoundRequest,
        guild_id: int,
        event: HenyoEventRecord | None,
    ) -> tuple[WordEntry, str]:
        """The round's word and where it came from (the host, the bank, the club's words)."""
        used = await self._used_keys(uow, guild_id, event.id if event else None)
        if request.word is not None:
            if word_key(request.word) in used and event is not None:
                raise InvalidInputError(messages.WORD_USED)
            return WordEntry(request.word, request.category or "", ""), "host"
        pool = await self.words.pool(uow, guild_id)
        categories = (
            [request.category]
            if request.category
            else list(event.categories if event else CATEGORIES)
        )
        language = event.language if event else ANY_LANGUAGE
        try:
            entry = pick_word(
                pool, self.core.rng, used_keys=used, categories=categories, language=language
            )
        except HenyoWordError as exc:
            raise user_error(exc) from None
        return entry, "bank" if entry in builtin_words() else "club"

    async def prepare(
        self,
        *,
        guild_id: int,
        guild_name: str,
        channel_id: int,
        host: Member,
        is_moderator: bool,
        guesser: Member | None = None,
        answerer: Member | None = None,
        category: str | None = None,
        word: str | None = None,
        strict: bool = False,
        referee: str | None = None,
    ) -> PreparedRound:
        """Choose the pair and the secret and store the round as ``ready``.

        Nothing is announced yet: the cog DMs the secret and posts the
        announcement, then calls ``begin`` (or ``cancel``). The round is strict
        (bare words only) when ``strict`` asks for it or its event is strict.
        ``referee``: ``host`` plays it aloud, refereed from the host's console
        (``HenyoService.host``); None takes the event's choice (a one-off: typed).
        """
        request = round_request(
            guesser=guesser,
            answerer=answerer,
            category=category,
            word=word,
            strict=strict,
            referee=referee,
        )

        async def work(uow: UnitOfWork) -> PreparedRound:
            await uow.guilds.ensure(guild_id, guild_name)
            if await uow.henyo.round_in_channel(channel_id) is not None:
                raise InvalidInputError(messages.ROUND_IN_CHANNEL)
            event = await uow.henyo.open_event_in_channel(channel_id)
            team: HenyoTeamRecord | None = None
            number: int | None = None
            stage = 0
            if request.guesser is None or request.answerer is None:
                if event is None:
                    raise InvalidInputError(messages.NO_EVENT_TO_START)
                require_host(event, host.id, is_moderator, N_("start the event's rounds"))
                team, stage, number = await self._next_pair(uow, event)
                names = await self.core.names(uow, [team.guesser_id, team.answerer_id])
                the_guesser = member(names, team.guesser_id)
                the_answerer = member(names, team.answerer_id)
            else:
                if event is not None:
                    require_host(
                        event, host.id, is_moderator, N_("start rounds in this event's channel")
                    )
                the_guesser, the_answerer = request.guesser, request.answerer
                event = None  # a one-off round is not part of the event
            if host.id == the_guesser.id:
                raise PermissionDeniedError(messages.HOST_GUESSES)
            for player in (host, the_guesser, the_answerer):
                await uow.players.ensure(player.id, player.name)
            limit_ms = event.time_limit_ms if event else DEFAULT_TIME_LIMIT_MS
            penalty_ms = event.penalty_ms if event else DEFAULT_PENALTY_MS
            strict_round = request.strict or (event is not None and event.strict)
            refereed_by = request.referee or (event.referee if event is not None else "typed")
            entry, source = await self._secret(uow, request, guild_id, event)
            now = self.core.ctx.clock()
            rnd = HenyoRoundRecord(
                guild_id=guild_id,
                channel_id=channel_id,
                event_id=event.id if event else None,
                team_id=team.id if team else None,
                stage=stage,
                host_id=host.id,
                guesser_id=the_guesser.id,
                answerer_id=the_answerer.id,
                word=entry.text,
                word_key=entry.key,
                category=entry.category or None,
                language=entry.language or None,
                word_source=source,
                status="ready",
                time_limit_ms=limit_ms,
                penalty_ms=penalty_ms,
                strict=strict_round,
                referee=refereed_by,
                show_word_on_screen=False,
                penalties=0,
                version=1,
                created_at=now,
            )
            uow.henyo.add(rnd)
            await uow.henyo.flush()
            await uow.jobs.schedule(
                JOB_KIND, now + START_WINDOW, {"round_id": rnd.id}, key=job_key(rnd.id)
            )
            return PreparedRound(
                rnd.id,
                guild_id,
                channel_id,
                rnd.event_id,
                number,
                stage,
                host,
                the_guesser,
                the_answerer,
                entry.text,
                entry.category or None,
                limit_ms,
                penalty_ms,
                now + timedelta(milliseconds=limit_ms),
                host_set_word=source == "host",
                strict=strict_round,
                referee=refereed_by,
            )

        # One start at a time per channel: two hosts pressing at once get one round.
        # (A channel's guild lives on one shard, so one process sees all its commands.)
        async with self.core.lock(channel_id):
            return await transact(self.core.ctx, work)

    async def cancel(self, round_id: int, reason: str) -> None:
        """A round that could not start (the answerer's DMs are closed, the post failed)."""

        async def work(uow: UnitOfWork) -> None:
            rnd = await self.core.round(uow, round_id)
            if rnd.status != "ready":
                return
            await self.core.bump(
                uow,
                rnd,
                status="cancelled",
                cancel_reason=reason[:32],
                ended_at=self.core.ctx.clock(),
            )
            await uow.jobs.cancel(job_key(round_id))

        await transact(self.core.ctx, work)

    async def begin(self, round_id: int, announce_message_id: int) -> RunningRound:
        """Start the clock at the announcement message's own Discord timestamp."""

        async def work(uow: UnitOfWork) -> RunningRound:
            rnd = await self.core.round(uow, round_id)
            if rnd.status != "ready":
                raise InvalidInputError(messages.CANNOT_BEGIN)
            started_at = snowflake_time(announce_message_id)
            await self.core.bump(
                uow,
                rnd,
                status="running",
                announce_message_id=announce_message_id,
                started_at=started_at,
            )
            limit = timedelta(milliseconds=rnd.time_limit_ms)
            # The job only needs to fire after the deadline; the verdict itself
            # is decided from Discord's timestamps, whatever the bot's clock says.
            await uow.jobs.schedule(
                JOB_KIND,
                self.core.ctx.clock() + limit + END_GRACE,
                {"round_id": rnd.id},
                key=job_key(rnd.id),
            )
            return RunningRound(
                rnd.id, rnd.channel_id, announce_message_id, started_at, started_at + limit
            )

        return await transact(self.core.ctx, work)

    async def active(self) -> list[ActiveRound]:
        """Rounds that are ready or running (the cog watches their channels)."""
        async with self.core.ctx.uow() as uow:
            rows = await uow.henyo.open_rounds()
        return [
            ActiveRound(r.id, r.channel_id, r.announce_message_id, r.status, r.referee)
            for r in rows
        ]
