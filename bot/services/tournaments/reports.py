"""The players' reports of their over-the-board games (see ``room``): ``report``,
one transaction each, claiming the tournament's version."""

from __future__ import annotations

from bot.db.uow import UnitOfWork
from bot.errors import InvalidInputError
from bot.messages import tournament_room as room_msg
from bot.messages import tournaments as msg
from bot.messages.post import Post
from bot.services.tournaments import options as opts
from bot.services.tournaments.core import Reply, TournamentCore
from bot.services.tournaments.director import RESULTS, Act
from bot.services.tournaments.lifecycle import Lifecycle
from bot.services.tournaments.room import (
    FIRST,
    SECOND,
    members,
    rate_board,
    report_key,
    reports_of,
    side_word,
    store,
)
from bot.services.transactions import transact


class OverTheBoard:
    """The players' reports of their over-the-board games."""

    def __init__(self, core: TournamentCore, lifecycle: Lifecycle) -> None:
        self.core = core
        self.lifecycle = lifecycle

    async def report(self, act: Act, result: str, round_number: int | None = None) -> Reply:
        """``act.actor_id`` reports their own result (``win``, ``draw``, ``loss``) in the
        current round's game (``round_number``: the round a post's button was for; another
        round's is refused)."""
        if result not in RESULTS:
            raise InvalidInputError(room_msg.REPORT_CHOICES)
        core = self.core

        async def work(uow: UnitOfWork) -> Reply:
            t = await core.resolve(uow, act.guild_id, act.channel_id, act.ref)
            if not opts.is_room(t.options):
                raise InvalidInputError(room_msg.played_in_discord(t.name))
            if t.status not in ("running", "paused"):
                raise InvalidInputError(msg.not_running(t.name, t.status))
            entrants = await uow.tournaments.entrants(t.id)
            me = core.entrant_of(entrants, act.actor_id)
            if me is None:
                raise InvalidInputError(room_msg.not_playing(t.name))
            number = t.current_round
            if round_number is not None and round_number != number:
                raise InvalidInputError(room_msg.round_over(round_number, number))
            p = next(
                (
                    p
                    for p in reversed(await uow.tournaments.pairings(t.id, number))
                    if me.id in (p.first_id, p.second_id)
                ),
                None,
            )
            if p is None:
                raise InvalidInputError(room_msg.no_game(t.name, number))
            if p.second_id is None:
                raise InvalidInputError(room_msg.bye(number))
            rnd = await uow.tournaments.round(t.id, number)
            if rnd is None or rnd.status == "paired":
                raise InvalidInputError(room_msg.round_not_started(number))
            if p.void:
                raise InvalidInputError(room_msg.voided(number, p.board))
            if p.score is not None:
                raise InvalidInputError(room_msg.already_recorded(number, p.board, p.score))
            mine, theirs = (FIRST, SECOND) if p.first_id == me.id else (SECOND, FIRST)
            reports = reports_of(t)
            entry = reports.setdefault(report_key(p), {})
            if theirs in entry and mine in entry:
                raise InvalidInputError(room_msg.awaiting_director(p.board))
            await core.bump(uow, t)
            if act.actor_name:
                await uow.players.ensure(act.actor_id, act.actor_name)
            score = RESULTS[result] if mine == FIRST else 1.0 - RESULTS[result]
            entry[mine] = score
            store(t, reports)
            by_id = {e.id: e for e in entrants}
            white, black = by_id[p.first_id], by_id[p.second_id]
            opponent = black if mine == FIRST else white
            core.log(uow, t, act.actor_id, "report", round=number, board=p.board, result=result)
            if theirs not in entry:
                return Reply(room_msg.noted(result, number, p.board, opponent.label), t.id)
            if entry[theirs] != score:
                entry["conflict"] = True
                store(t, reports)
                core.log(uow, t, None, "report_conflict", round=number, board=p.board)
                players = members(white) + members(black)
                core.post(
                    uow,
                    t,
                    Post(
                        content=room_msg.conflict_post(
                            t.name,
                            number,
                            p.board,
                            (f"<@{white.user_id}>", room_msg.result_word(side_word(entry[FIRST]))),
                            (
                                f"<@{black.user_id}>",
                                room_msg.result_word(side_word(1.0 - entry[SECOND])),
                            ),
                            t.created_by,
                        ),
                        mention_user_ids=tuple(dict.fromkeys([*players, t.created_by])),
                    ),
                )
                return Reply(room_msg.conflict(opponent.label, p.board), t.id)
            # Both agree: the board's result, as a finished game's job records it.
            p.score, p.spread, p.source = score, 0, room_msg.BOARD_SOURCE
            await uow.tournaments.flush()
            changes = await rate_board(core, uow, t, p)
            names = await uow.players.names([c.user_id for c in changes])
            ratings = [(names.get(c.user_id, str(c.user_id)), c.before, c.after) for c in changes]
            core.log(uow, t, None, "board_result", round=number, board=p.board, score=score)
            core.post(
                uow,
                t,
                Post(
                    content=room_msg.agreed_post(
                        t.name, number, p.board, white.label, black.label, score, ratings
                    )
                ),
            )
            await self.lifecycle.advance(uow, t)
            return Reply(room_msg.agreed(number, p.board, score), t.id)

        return await transact(core.ctx, work)
