"""The leaderboard's Discord pieces: the image goes out described, and the pager
offers only the pages there are."""

from __future__ import annotations

from bot.messages.leaderboard import table_alt_text
from bot.services.leaderboard import LeaderboardRow, LeaderboardTable
from bot.ui.leaderboard import pager, table_file


def _table(rows: int, page: int = 0, pages: int = 1) -> LeaderboardTable:
    return LeaderboardTable(
        guild_id=1,
        kind="boggle",
        period="week",
        title="Word Boggle — this week",
        value_label="Points",
        rows=[LeaderboardRow(i + 1, 100 + i, f"m{i}", str(20 - i), 1, 0) for i in range(rows)],
        total=rows,
        page=page,
        pages=pages,
        since=None,
    )


async def test_the_table_image_is_a_png_described_by_its_rows() -> None:
    table = _table(2)
    file = await table_file(table)
    assert file.filename == "leaderboard.png"
    assert file.description == table_alt_text(table)
    assert file.description.splitlines()[1] == "1. m0 — points 20, rounds 1, won 0"
    assert file.fp.read(8) == b"\x89PNG\r\n\x1a\n"


async def test_an_empty_table_image_is_described_as_empty() -> None:
    file = await table_file(_table(0))
    assert file.description == "Word Boggle — this week: nobody has played yet."


def test_one_page_has_no_buttons_and_the_ends_of_a_long_table_disable_theirs() -> None:
    assert pager(_table(3)) is None
    first, last = pager(_table(10, 0, 3)), pager(_table(10, 2, 3))
    assert first is not None and last is not None
    assert [(b.item.custom_id, b.item.disabled) for b in first.children] == [
        ("lb:boggle:week:0:p", True),
        ("lb:boggle:week:0:n", False),
    ]
    assert [b.item.disabled for b in last.children] == [False, True]
