"""The referee: a ruling on every message said in a running round's channel,
and on the answerer's Oo / Hindi / Pwede buttons.

The time of a message is its snowflake's, so a message seen late (or again,
from history after a restart) is judged exactly as if seen live; what was
ruled on is stored under its Discord id, so it counts once.
"""

from __future__ import annotations

from bot.db.models_henyo import HenyoRoundEventRecord, HenyoRoundRecord
from bot.db.uow import UnitOfWork
from bot.errors import InvalidInputError, PermissionDeniedError
from bot.messages import henyo as messages
from bot.messages.post import Post
from bot.services.henyo.core import HenyoCore
from bot.services.henyo.ending import RoundEnding
from bot.services.henyo.pairs import member
from bot.services.henyo.snapshots import ButtonReply, RefereeOutcome
from bot.services.henyo.standings import EventStandings
from bot.services.transactions import transact
from engines.henyo import (
    Reply,
    Timing,
    elapsed_ms,
    is_correct_guess,
    judge_answer,
    mentions_secret,
    snowflake_time,
    within_limit,
)


def _round_event(
    rnd: HenyoRoundRecord,
    source_id: int,
    user_id: int,
    kind: str,
    elapsed: int,
    reply: Reply | None = None,
) -> HenyoRoundEventRecord:
    return HenyoRoundEventRecord(
        round_id=rnd.id,
        source_id=source_id,
        user_id=user_id,
        kind=kind,
        reply=reply.value if reply else None,
        at=snowflake_time(source_id),
        elapsed_ms=elapsed,
    )


class Referee:
    """Rules on what is said and pressed in a running round."""

    def __init__(self, core: HenyoCore, ending: RoundEnding, standings: EventStandings) -> None:
        self.core = core
        self.ending = ending
        self.standings = standings

    async def message(
        self,
        *,
        channel_id: int,
        message_id: int,
        author_id: int,
        content: str,
        has_attachments: bool = False,
        author_name: str = "",
    ) -> RefereeOutcome | None:
        """Rule on one message in a channel; None when no round runs there."""
        async with self.core.lock(channel_id):
            return await transact(
                self.core.ctx,
                lambda uow: self._rule(
                    uow, channel_id, message_id, author_id, author_name, content, has_attachments
                ),
            )

    async def _rule(
        self,
        uow: UnitOfWork,
        channel_id: int,
        message_id: int,
        author_id: int,
        author_name: str,
        content: str,
        has_attachments: bool,
    ) -> RefereeOutcome | None:
        rnd = await uow.henyo.round_in_channel(channel_id)
        if rnd is None:
            return None
        if rnd.referee == "host":
            # Played aloud: the host's presses keep the time, the channel is just talk.
            return RefereeOutcome(rnd.id, "aloud")
        if (
            rnd.status != "running"
            or rnd.announce_message_id is None
            or message_id <= rnd.announce_message_id
        ):
            # Said before the clock started (or while the round is being announced).
            return RefereeOutcome(rnd.id, "early")
        elapsed = elapsed_ms(rnd.announce_message_id, message_id)
        if not within_limit(elapsed, rnd.time_limit_ms):
            return RefereeOutcome(rnd.id, "late")  # the end job calls the round
        if author_id == rnd.host_id and author_id not in (rnd.guesser_id, rnd.answerer_id):
            return RefereeOutcome(rnd.id, "host")
        if author_id == rnd.guesser_id:
            if not is_correct_guess(content, rnd.word):
                return RefereeOutcome(rnd.id, "question")
            if await uow.henyo.seen(rnd.id, message_id):
                return RefereeOutcome(rnd.id, "duplicate")
            return await self._guessed(uow, rnd, message_id, elapsed)
        hide = mentions_secret(content, rnd.word)
        if await uow.henyo.seen(rnd.id, message_id):
            return RefereeOutcome(rnd.id, "duplicate", hide_message=hide)
        if author_id == rnd.answerer_id:
            return await self._answer(uow, rnd, message_id, elapsed, content, has_attachments, hide)
        return await self._audience(uow, rnd, message_id, author_id, author_name, elapsed, hide)

    async def _answer(
        self,
        uow: UnitOfWork,
        rnd: HenyoRoundRecord,
        message_id: int,
        elapsed: int,
        content: str,
        has_attachments: bool,
        hide: bool,
    ) -> RefereeOutcome:
        verdict = judge_answer(content, has_attachments=has_attachments, strict=rnd.strict)
        if verdict.allowed:
            uow.henyo.add(
                _round_event(rnd, message_id, rnd.answerer_id, "reply", elapsed, verdict.reply)
            )
            return RefereeOutcome(rnd.id, "reply", penalties=rnd.penalties)
        uow.henyo.add(_round_event(rnd, message_id, rnd.answerer_id, "penalty", elapsed))
        count = rnd.penalties + 1
        await self.core.bump(uow, rnd, penalties=count)
        names = await self.core.names(uow, [rnd.answerer_id])
        answerer = names.get(rnd.answerer_id, "the answerer")
        self.core.post(
            uow,
            rnd.channel_id,
            messages.penalty(answerer, rnd.penalty_ms, count, strict=rnd.strict),
        )
        return RefereeOutcome(rnd.id, "penalty", hide_message=hide, penalties=count)

    async def _audience(
        self,
        uow: UnitOfWork,
        rnd: HenyoRoundRecord,
        message_id: int,
        author_id: int,
        author_name: str,
        elapsed: int,
        hide: bool,
    ) -> RefereeOutcome:
        uow.henyo.add(_round_event(rnd, message_id, author_id, "audience", elapsed))
        names = await self.core.names(uow, [author_id, rnd.guesser_id, rnd.answerer_id])
        content, fallback = messages.audience_flag(
            round_id=rnd.id,
            pair=messages.pair_label(
                names.get(rnd.guesser_id, "?"), names.get(rnd.answerer_id, "?")
            ),
            elapsed_ms=elapsed,
            author_name=names.get(author_id) or author_name,
            author_id=author_id,
            link=f"https://discord.com/channels/{rnd.guild_id}/{rnd.channel_id}/{message_id}",
            channel_id=rnd.channel_id,
        )
        uow.outbox.to_user(
            rnd.host_id,
            Post(content=content, fallback_content=fallback),
            fallback_channel_id=rnd.channel_id,
        )
        return RefereeOutcome(rnd.id, "audience", hide_message=hide, penalties=rnd.penalties)

    async def _guessed(
        self, uow: UnitOfWork, rnd: HenyoRoundRecord, message_id: int, elapsed: int
    ) -> RefereeOutcome:
        uow.henyo.add(_round_event(rnd, message_id, rnd.guesser_id, "guess", elapsed))
        # Only penalties before the guess count, even if a later one was seen first.
        penalties = await uow.henyo.penalties_before(rnd.id, message_id)
        timing = Timing(elapsed, penalties, rnd.penalty_ms)
        await self.ending.finish(
            uow,
            rnd,
            status="guessed",
            ended_at=snowflake_time(message_id),
            elapsed=elapsed,
            penalties=penalties,
            final_ms=timing.final_ms,
            guess_message_id=message_id,
        )
        names = await self.core.names(uow, [rnd.guesser_id])
        headline = messages.guessed(
            names.get(rnd.guesser_id, "The guesser"),
            rnd.word,
            elapsed_ms=elapsed,
            penalties=penalties,
            penalty_ms=rnd.penalty_ms,
            final_ms=timing.final_ms,
        )
        self.core.post(uow, rnd.channel_id, *headline, *await self.standings.next_steps(uow, rnd))
        return RefereeOutcome(rnd.id, "guessed", round_over=True, penalties=penalties)

    async def button_reply(
        self, *, round_id: int, user_id: int, reply: str, interaction_id: int
    ) -> ButtonReply:
        """The answerer pressed Oo, Hindi or Pwede: always an allowed reply."""
        try:
            chosen = Reply(reply)
        except ValueError:
            raise InvalidInputError(messages.NOT_A_REPLY) from None

        async def work(uow: UnitOfWork) -> ButtonReply:
            rnd = await self.core.round(uow, round_id)
            if rnd.status != "running" or rnd.announce_message_id is None:
                raise InvalidInputError(messages.ROUND_OVER)
            if user_id != rnd.answerer_id:
                raise PermissionDeniedError(messages.only_the_answerer(rnd.answerer_id))
            elapsed = elapsed_ms(rnd.announce_message_id, interaction_id)
            if not within_limit(elapsed, rnd.time_limit_ms):
                raise InvalidInputError(messages.TIME_IS_UP)
            if not await uow.henyo.seen(rnd.id, interaction_id):
                uow.henyo.add(_round_event(rnd, interaction_id, user_id, "button", elapsed, chosen))
            names = await self.core.names(uow, [user_id])
            return ButtonReply(rnd.id, chosen, member(names, user_id))

        async with self.core.lock_for_round(round_id):
            return await transact(self.core.ctx, work)
