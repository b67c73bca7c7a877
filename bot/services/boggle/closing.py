"""A round's timers: a scheduled round opens, the countdown ends and the
lists freeze (``closed``: nothing is added after this commits), then the
frozen lists are judged with the engine, points recorded for the leaderboard
and the season, and the results posted (``scored``). Each is a job: it runs
again from the start if interrupted, and a rerun after it finished changes
nothing (it checks the round's status first).
"""

from __future__ import annotations

from datetime import datetime

from bot.compute.boggle import score_lists
from bot.db.models import JobRecord
from bot.db.models_boggle import BoggleRoundRecord, BoggleSubmissionRecord
from bot.db.uow import UnitOfWork
from bot.messages import boggle as msg
from bot.messages.boggle import room
from bot.messages.boggle import rounds as say
from bot.offload import offload
from bot.services import achievements
from bot.services.boggle import seasons
from bot.services.boggle.core import MISSED_AFTER, BoggleCore
from bot.services.boggle.jobs import JOB_SCORE, score_key
from bot.services.boggle.pairs import pair_choice
from bot.services.boggle.snapshots import RoundInfo
from bot.services.boggle.submissions import replay_words
from bot.services.results import record_points
from bot.services.words import word_list_ref
from engines.boggle import Grid, RoundResult, WordStatus, player_words

KIND = "boggle"


def timely_words(
    submission: BoggleSubmissionRecord, ends_at: datetime, longest: int | None = None
) -> list[str]:
    """The list as frozen: words from messages sent before the end, in the order first written
    (of letters only, at most ``longest`` letters, as the list was read when sent), less
    those taken off on the board page (``replay_words``)."""
    entries = submission.entries
    if all(datetime.fromisoformat(entry["at"]) < ends_at for entry in entries):
        return player_words(submission.words, longest)
    return replay_words(entries, longest, ends_at)


def round_summary(
    info: RoundInfo, result: RoundResult[int], names: dict[int, str], season: str
) -> msg.RoundSummary:
    """The stored results of a round: what the results message and /boggle results show."""
    # Stable: on a tie, the first to submit comes first.
    players = sorted(result.players.values(), key=lambda p: -p.total)
    ranked: list[msg.PlayerSummary] = []
    previous_total, rank = None, 0
    for position, player in enumerate(players, start=1):
        if player.total != previous_total:
            rank, previous_total = position, player.total
        ranked.append(
            msg.PlayerSummary(
                id=player.player,
                name=names.get(player.player, str(player.player)),
                rank=rank,
                total=player.total,
                words=[(w.word, w.status.value, w.points) for w in player.words],
            )
        )
    return msg.RoundSummary(
        round_id=info.id,
        number=info.number,
        grid=info.grid or "",
        size=info.size,
        min_length=info.min_length,
        ends_at=info.ends_at.isoformat() if info.ends_at else None,
        season=season,
        players=ranked,
        winners=list(result.winners),
        missed=[(m.word, m.points) for m in result.missed],
        words_on_grid=result.words_on_grid,
        points_on_grid=result.points_on_grid,
    )


class Closing:
    """A round's jobs: a scheduled round opens, its lists freeze at the end and are then scored."""

    def __init__(self, core: BoggleCore) -> None:
        self.core = core

    async def on_round_open(self, uow: UnitOfWork, job: JobRecord) -> None:
        """A scheduled round's time has come: roll and post the grid."""
        record = await uow.boggle.lock_round(int(job.payload["round_id"]))
        if record is None or record.status != "scheduled":
            return
        now = self.core.now()
        if now > record.opens_at + MISSED_AFTER:
            self.core.cancel_record(record, "missed")
            uow.outbox.to_channel(
                record.channel_id, say.missed_opening(record.number, record.opens_at)
            )
        else:
            busy = await uow.boggle.latest_round(record.guild_id, ("open",))
            if busy is not None and busy.id != record.id:
                self.core.cancel_record(record, "busy")
                uow.outbox.to_channel(
                    record.channel_id, say.opening_skipped(record.number, busy.number)
                )
            else:
                await self.core.open_round(uow, record, now)
        self.core.after_commit(uow)
        await uow.commit()

    async def on_entry_open(self, uow: UnitOfWork, job: JobRecord) -> None:
        """A room round's countdown is over: pens down, the lists are typed now (until
        ``ends_at``). The channel is told, and the round's pages and screen move on."""
        record = await uow.boggle.lock_round(int(job.payload["round_id"]))
        if record is None or record.status != "open" or record.ends_at is None:
            return
        if self.core.now() >= record.ends_at:
            return  # run late (the bot was down) past the time to type: the close job follows
        record.version += 1
        uow.outbox.to_channel(
            record.channel_id, room.entry_open_post(record.number, record.ends_at)
        )
        self.core.after_commit(uow)
        await uow.commit()

    async def on_round_close(self, uow: UnitOfWork, job: JobRecord) -> None:
        """Time is up: freeze the lists (nothing is added after this commits)."""
        record = await uow.boggle.lock_round(int(job.payload["round_id"]))
        if record is None or record.status != "open":
            return
        now = self.core.now()
        record.status = "closed"
        record.closed_at = now
        record.version += 1
        await uow.jobs.schedule(JOB_SCORE, now, {"round_id": record.id}, key=score_key(record.id))
        self.core.after_commit(uow)
        await uow.commit()

    async def on_round_score(self, uow: UnitOfWork, job: JobRecord) -> None:
        """Judge the frozen lists, record points and the season, post the results."""
        record = await uow.boggle.lock_round(int(job.payload["round_id"]))
        if record is None or record.status != "closed":
            return
        assert record.grid is not None and record.ends_at is not None
        now = self.core.now()
        submissions = await uow.boggle.lists_of(record.id)
        words = await word_list_ref(self.core.ctx, record.lexicon)
        grid = Grid.parse(record.grid)
        # A games event's round is played in pairs: one list per pair (boggle.pairs).
        event_round = await uow.events.round_playing("boggle", record.id)
        partners = {int(p[0]): int(p[1]) for p in (event_round.pairs if event_round else [])}
        if event_round is not None:
            chosen = pair_choice(submissions, event_round.pairs, record.ends_at)
            lists = {
                lead: timely_words(s, record.ends_at, grid.letters) for lead, s in chosen.items()
            }
        else:
            lists = {
                s.player_id: timely_words(s, record.ends_at, grid.letters) for s in submissions
            }
        result = await offload(score_lists, grid, lists, words, record.min_length)
        names = await uow.players.names([*lists, *partners.values()])
        for lead, partner in partners.items():
            names[lead] = f"{names.get(lead, lead)} & {names.get(partner, partner)}"
        guild = await uow.guilds.ensure(record.guild_id)
        season = await seasons.ensure_season(uow, guild, now)
        label = seasons.season_label(season)
        await self._record(uow, record, result, now, label, partners)
        summary = round_summary(RoundInfo.of(record), result, names, label)
        record.results = dict(summary)
        record.status = "scored"
        record.scored_at = now
        record.season = label
        record.version += 1
        table = await seasons.standings(uow, record.guild_id, label)
        target = season["target"]
        ended = None
        if result.players and table and table[0].points >= target:
            ended = await seasons.end_season(uow, guild, now, reason="target", table=table)
        uow.outbox.to_channel(
            record.channel_id, msg.results_post(summary, table, season["number"], target)
        )
        if ended is not None:
            uow.outbox.to_channel(record.channel_id, seasons.season_end_post(ended, target))
        await self._achievements(uow, record, result, now, partners)
        self.core.after_commit(uow)
        await uow.commit()

    @staticmethod
    async def _achievements(
        uow: UnitOfWork,
        record: BoggleRoundRecord,
        result: RoundResult[int],
        now: datetime,
        partners: dict[int, int],
    ) -> None:
        """The round's achievements (a first win, 10 games, a word of 8 letters or more),
        after its results, in its transaction (a pair's partner shares the pair's)."""
        outcomes = {lead: "win" if lead in result.winners else "loss" for lead in result.players}
        words = {
            lead: [(w.word, w.status.value) for w in player.words]
            for lead, player in result.players.items()
        }
        for lead, partner in partners.items():
            if lead in outcomes:
                outcomes[partner] = outcomes[lead]
                words[partner] = words[lead]
        await achievements.games_finished(
            uow,
            guild_id=record.guild_id,
            outcomes=outcomes,
            now=now,
            channel_id=record.channel_id,
        )
        await achievements.boggle_words_found(
            uow, guild_id=record.guild_id, words=words, now=now, channel_id=record.channel_id
        )

    async def _record(
        self,
        uow: UnitOfWork,
        record: BoggleRoundRecord,
        result: RoundResult[int],
        now: datetime,
        season: str,
        partners: dict[int, int],
    ) -> None:
        """Each player's points, for the leaderboard and the season (in a round played
        in pairs, both partners get the pair's)."""
        # Kept while recording: the session holds the rows weakly (see load_standings).
        scored = [(lead, lead, player) for lead, player in result.players.items()]
        scored += [
            (partners[lead], lead, p) for lead, p in result.players.items() if lead in partners
        ]
        rows = await uow.boggle.load_standings(record.guild_id, [p for p, _l, _s in scored])
        for player_id, lead, player in scored:
            await record_points(
                uow,
                guild_id=record.guild_id,
                kind=KIND,
                player_id=player_id,
                points=player.total,
                played_at=now,
                round_ref=f"boggle:{record.id}",
                outcome="win" if lead in result.winners else "loss",
                season=season,
                extra={
                    "round": record.number,
                    "words": len(player.words),
                    "scored": len(player.with_status(WordStatus.SCORED)),
                },
            )
        await uow.boggle.flush()
        del rows
