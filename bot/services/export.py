"""``/club export``: one zip with the club's results and ratings as CSV and every
finished Scrabble game as GCG and chess game as PGN."""

from __future__ import annotations

import csv
import io
import zipfile
from collections.abc import Awaitable, Callable

from sqlalchemy import select

from bot.db.models import GameRecord, PlayerRecord, RatingRecord, ResultRecord
from bot.services import ServiceContext

# kind -> async fn(ctx, game id, guild id) -> (file name, text). Each runs its own
# unit of work, so it is called after ours has closed (SQLite allows one writer).
GameExporter = Callable[[ServiceContext, int, int], Awaitable[tuple[str, str]]]
EXPORTERS: dict[str, GameExporter] = {}

RESULT_COLUMNS = (
    "played_at",
    "game",
    "game_id",
    "round",
    "player_id",
    "player",
    "outcome",
    "score",
    "opponent_score",
    "points",
    "time_ms",
    "season",
)
RATING_COLUMNS = (
    "game",
    "player_id",
    "player",
    "rating",
    "rd",
    "volatility",
    "games",
    "wins",
    "losses",
    "draws",
    "points",
    "spread",
    "best_time_ms",
    "last_played_at",
)


def register_exporter(kind: str, exporter: GameExporter) -> None:
    EXPORTERS[kind] = exporter


def _num(value: float | None) -> str:
    if value is None:
        return ""
    return f"{value:g}" if isinstance(value, float) else str(value)


class ExportService:
    def __init__(self, ctx: ServiceContext) -> None:
        self.ctx = ctx

    async def export_zip(self, guild_id: int) -> tuple[bytes, dict[str, int]]:
        """The archive's bytes and how many rows/files of each kind it holds."""
        counts = {"results": 0, "ratings": 0, "games": 0}
        buffer = io.BytesIO()
        async with self.ctx.uow() as uow:
            names = dict(
                (
                    await uow.session.execute(select(PlayerRecord.id, PlayerRecord.display_name))
                ).all()
            )
            with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
                out = io.StringIO()
                writer = csv.writer(out)
                writer.writerow(RESULT_COLUMNS)
                results = await uow.session.execute(
                    select(ResultRecord)
                    .where(ResultRecord.guild_id == guild_id)
                    .order_by(ResultRecord.played_at, ResultRecord.id)
                )
                for result in results.scalars():
                    writer.writerow(
                        [
                            result.played_at.isoformat(),
                            result.game_kind,
                            result.game_id or "",
                            result.round_ref or "",
                            result.player_id,
                            names.get(result.player_id, ""),
                            result.outcome or "",
                            _num(result.score),
                            _num(result.opponent_score),
                            _num(result.points),
                            result.time_ms if result.time_ms is not None else "",
                            result.season or "",
                        ]
                    )
                    counts["results"] += 1
                archive.writestr("results.csv", out.getvalue())

                out = io.StringIO()
                writer = csv.writer(out)
                writer.writerow(RATING_COLUMNS)
                ratings = await uow.session.execute(
                    select(RatingRecord)
                    .where(RatingRecord.guild_id == guild_id)
                    .order_by(RatingRecord.game_kind, RatingRecord.rating.desc())
                )
                for rating in ratings.scalars():
                    writer.writerow(
                        [
                            rating.game_kind,
                            rating.player_id,
                            names.get(rating.player_id, ""),
                            f"{rating.rating:.1f}",
                            f"{rating.rd:.1f}",
                            f"{rating.volatility:.6f}",
                            rating.games,
                            rating.wins,
                            rating.losses,
                            rating.draws,
                            _num(rating.points),
                            _num(rating.spread),
                            rating.best_time_ms if rating.best_time_ms is not None else "",
                            rating.last_played_at.isoformat() if rating.last_played_at else "",
                        ]
                    )
                    counts["ratings"] += 1
                archive.writestr("ratings.csv", out.getvalue())

                games = (
                    await uow.session.execute(
                        select(GameRecord.id, GameRecord.kind)
                        .where(
                            GameRecord.guild_id == guild_id,
                            GameRecord.status == "finished",
                            GameRecord.kind.in_(list(EXPORTERS)),
                        )
                        .order_by(GameRecord.id)
                    )
                ).all()
        with zipfile.ZipFile(buffer, "a", compression=zipfile.ZIP_DEFLATED) as archive:
            for game_id, kind in games:
                filename, text = await EXPORTERS[kind](self.ctx, game_id, guild_id)
                archive.writestr(f"games/{filename}", text)
                counts["games"] += 1
        return buffer.getvalue(), counts


async def _scrabble_gcg(ctx: ServiceContext, game_id: int, guild_id: int) -> tuple[str, str]:
    from bot.services.scrabble import ScrabbleService

    return await ScrabbleService(ctx).export(game_id, guild_id=guild_id)


async def _chess_pgn(ctx: ServiceContext, game_id: int, guild_id: int) -> tuple[str, str]:
    from bot.services.chess import ChessService

    return await ChessService(ctx).pgn(game_id, guild_id=guild_id)


register_exporter("scrabble", _scrabble_gcg)
register_exporter("chess", _chess_pgn)
