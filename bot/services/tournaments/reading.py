"""Reading a tournament: its standings and pairings, the director's log, the
exports (CSV standings, TRF for chess, a tsh results file for Scrabble, and
every game's PGN or GCG in one zip), and the ``tournament`` autocomplete."""

from __future__ import annotations

import csv
import io
import zipfile
from dataclasses import dataclass

from bot.errors import InvalidInputError
from bot.messages import tournaments as msg
from bot.services.export import EXPORTERS
from bot.services.tournaments import pairing
from bot.services.tournaments.core import Reply, TournamentCore
from engines.pairings.trf import trf_report
from engines.pairings.tsh import tsh_results

FORMAT_NAMES = {"round_robin": "Round robin", "swiss": "Swiss", "knockout": "Knockout"}


@dataclass(frozen=True)
class ExportFile:
    """One file of ``/tournament export``: its name, its bytes and its description (the
    attachment's alt text)."""

    name: str
    data: bytes
    description: str


class Reading:
    """Reading a tournament: its standings, the director's log, the exports and the autocomplete."""

    def __init__(self, core: TournamentCore) -> None:
        self.core = core

    async def standings(self, *, guild_id: int, channel_id: int | None, ref: int | None) -> Reply:
        """The table and the current round's boards; before the start, the sign-up list (and who
        checked in)."""
        core = self.core
        async with core.ctx.reader() as uow:
            t = await core.resolve(uow, guild_id, channel_id, ref)
            entrants = await uow.tournaments.entrants(t.id)
            if not entrants:
                lst = await uow.signups.list_of("tournament", t.id)
                entries = await uow.signups.entries(lst.id) if lst is not None else []
                names = await uow.players.names(
                    [m for e in entries for m in (e.user_id, e.partner_id) if m is not None]
                )
                labels = [
                    " & ".join(names.get(m, str(m)) for m in (e.user_id, e.partner_id) if m)
                    for e in entries
                ]
                checked = [e.checked_in_at is not None for e in entries]
                return Reply(
                    msg.signup_list(t.name, labels, checked, t.options.get("checkin", False)), t.id
                )
            pairings = await uow.tournaments.pairings(t.id)
            lines = core.standings_lines(t, entrants, pairings)
            current = [p for p in pairings if p.round == t.current_round]
            boards = core.board_lines(entrants, current)
            return Reply(
                msg.standings_reply(
                    t.name, t.game_kind, t.status, t.current_round, t.rounds, lines, boards
                ),
                t.id,
            )

    async def log(self, *, guild_id: int, channel_id: int | None, ref: int | None) -> Reply:
        """The director's log, with the members it names by name."""
        core = self.core
        async with core.ctx.reader() as uow:
            t = await core.resolve(uow, guild_id, channel_id, ref)
            entries = await uow.tournaments.log_entries(t.id)
            ids = {e.actor_id for e in entries if e.actor_id is not None}
            ids |= {
                int(e.detail[k])
                for e in entries
                for k in ("member", "first", "second")
                if k in e.detail
            }
            names = await uow.players.names(sorted(ids))
            title, tid, kind = t.name, t.id, t.game_kind
            lines = [
                msg.LogLine(
                    at=e.at,
                    actor=names.get(e.actor_id, str(e.actor_id))
                    if e.actor_id is not None
                    else None,
                    action=e.action,
                    detail={
                        k: names.get(int(v), str(v)) if k in ("member", "first", "second") else v
                        for k, v in e.detail.items()
                    },
                )
                for e in entries
            ]
        return Reply(msg.log_text(title, lines, kind), tid)

    async def export(
        self, *, guild_id: int, channel_id: int | None, ref: int | None
    ) -> tuple[Reply, list[ExportFile]]:
        """The tournament's files: CSV standings, a TRF (chess) or a tsh results file (Scrabble),
        and its finished games in one zip."""
        core = self.core
        async with core.ctx.reader() as uow:
            t = await core.resolve(uow, guild_id, channel_id, ref)
            entrants = await uow.tournaments.entrants(t.id)
            pairings = await uow.tournaments.pairings(t.id)
            game_ids = await uow.tournaments.game_ids(t.id)
            finished = []
            for game_id in game_ids:
                game = await uow.games.get(game_id)
                # A Scrabble game decided before its deal has no record to export.
                if game.status == "finished" and (game.kind == "chess" or game.state.get("engine")):
                    finished.append(game_id)
            if not entrants:
                raise InvalidInputError(msg.not_started(t.name))
            lines = core.standings_lines(t, entrants, pairings)
            stem = f"tournament-{t.id}"
            files = [
                ExportFile(
                    f"{stem}-standings.csv",
                    _standings_csv(lines).encode(),
                    msg.csv_alt(t.name, len(lines)),
                )
            ]
            players = pairing.engine_entrants(entrants)
            games = pairing.engine_games(pairings)
            names = {e.id: e.label for e in entrants}
            if t.game_kind == "chess":
                text = trf_report(
                    players,
                    games,
                    names=names,
                    tournament=t.name,
                    kind=FORMAT_NAMES.get(t.format, "Swiss"),
                    rounds=t.rounds,
                    start=t.started_at.date() if t.started_at else None,
                    end=t.finished_at.date() if t.finished_at else None,
                )
                files.append(ExportFile(f"{stem}.trf", text.encode(), msg.trf_alt(t.name)))
            else:
                withdrawn = frozenset(e.id for e in entrants if e.status == "withdrawn")
                text = tsh_results(players, games, names=names, withdrawn=withdrawn)
                files.append(ExportFile(f"{stem}.t", text.encode(), msg.tsh_alt(t.name)))
            kind, name, tid = t.game_kind, t.name, t.id
        exporter = EXPORTERS.get(kind)
        if exporter is not None and finished:
            buffer = io.BytesIO()
            with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
                for game_id in finished:
                    file_name, body = await exporter(core.ctx, game_id, guild_id)
                    archive.writestr(file_name, body)
            notation = "PGN" if kind == "chess" else "GCG"
            files.append(
                ExportFile(
                    f"{stem}-games.zip", buffer.getvalue(), msg.games_alt(len(finished), notation)
                )
            )
        return Reply(msg.exported(name, [f.name for f in files]), tid), files

    async def suggestions(self, guild_id: int, typed: str) -> list[tuple[str, int]]:
        """Of the guild's latest tournaments, those whose name or number contains ``typed``:
        (label, id) for the autocomplete."""
        typed = typed.strip().lower()
        async with self.core.ctx.reader() as uow:
            rows = await uow.tournaments.recent_in_guild(guild_id)
            return [
                (msg.choice_label(t.id, t.name, t.status), t.id)
                for t in rows
                if not typed or typed in t.name.lower() or typed in str(t.id)
            ]


def _standings_csv(lines: list[msg.StandingLine]) -> str:
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(
        [
            "rank",
            "entrant",
            "points",
            "spread",
            "buchholz",
            "sonneborn_berger",
            "played",
            "withdrawn",
        ]
    )
    for line in lines:
        writer.writerow(
            [
                line.rank,
                line.label,
                f"{line.points:g}",
                line.spread,
                f"{line.buchholz:g}",
                f"{line.sonneborn_berger:g}",
                line.played,
                "yes" if line.withdrawn else "",
            ]
        )
    return out.getvalue()
