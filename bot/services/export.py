"""``/club export``: one zip with the club's results and ratings as CSV and every
finished Scrabble game as GCG and chess game as PGN."""

from __future__ import annotations

import csv
import io
from collections.abc import Awaitable, Callable, Iterable, Sequence

from bot.compute.archive import zip_archive
from bot.db.models import RatingRecord, ResultRecord
from bot.offload import offload
from bot.services import ServiceContext

Cell = str | int

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
    """Put ``kind``'s finished games in the export, each written by ``exporter``."""
    EXPORTERS[kind] = exporter


def _num(value: float | None) -> str:
    if value is None:
        return ""
    return f"{value:g}" if isinstance(value, float) else str(value)


class ExportService:
    """``/club export``: the club's results, ratings and finished games in one zip."""

    def __init__(self, ctx: ServiceContext) -> None:
        self.ctx = ctx

    async def export_zip(self, guild_id: int) -> tuple[bytes, dict[str, int]]:
        """The archive's bytes and how many rows/files of each kind it holds."""
        async with self.ctx.reader() as uow:
            results = await uow.results.for_guild(guild_id)
            ratings = await uow.ratings.for_guild(guild_id)
            games = await uow.games.finished(guild_id, EXPORTERS)
            # The rows are read while their unit of work is open.
            files = [
                ("results.csv", _csv(RESULT_COLUMNS, map(_result_cells, results))),
                ("ratings.csv", _csv(RATING_COLUMNS, map(_rating_cells, ratings))),
            ]
        counts = {"results": len(results), "ratings": len(ratings), "games": 0}
        for game_id, kind in games:
            filename, text = await EXPORTERS[kind](self.ctx, game_id, guild_id)
            files.append((f"games/{filename}", text))
            counts["games"] += 1
        # Compressing a club's history is the CPU-heavy part: a worker does it.
        return await offload(zip_archive, files), counts


def _csv(columns: Sequence[str], rows: Iterable[Sequence[Cell]]) -> str:
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(columns)
    writer.writerows(rows)
    return out.getvalue()


def _result_cells(row: tuple[ResultRecord, str | None]) -> list[Cell]:
    result, name = row
    return [
        result.played_at.isoformat(),
        result.game_kind,
        result.game_id or "",
        result.round_ref or "",
        result.player_id,
        name or "",
        result.outcome or "",
        _num(result.score),
        _num(result.opponent_score),
        _num(result.points),
        result.time_ms if result.time_ms is not None else "",
        result.season or "",
    ]


def _rating_cells(row: tuple[RatingRecord, str | None]) -> list[Cell]:
    rating, name = row
    return [
        rating.game_kind,
        rating.player_id,
        name or "",
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


async def _scrabble_gcg(ctx: ServiceContext, game_id: int, guild_id: int) -> tuple[str, str]:
    from bot.services.scrabble import ScrabbleService

    return await ScrabbleService(ctx).reading.export(game_id, guild_id=guild_id)


async def _chess_pgn(ctx: ServiceContext, game_id: int, guild_id: int) -> tuple[str, str]:
    from bot.services.chess import ChessService

    return await ChessService(ctx).reading.pgn(game_id, guild_id=guild_id)


register_exporter("scrabble", _scrabble_gcg)
register_exporter("chess", _chess_pgn)
