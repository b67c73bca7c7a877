"""The leaderboard's words: the table as a message and as the image's alt text,
and a member's record, built from plain rows."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime

from bot.messages.leaderboard import (
    format_rating,
    format_time_ms,
    game_record,
    image_cells,
    table_alt_text,
    table_text,
    table_title,
)
from bot.messages.limits import ALT_TEXT_CHARS


@dataclass(frozen=True)
class Row:
    rank: int
    name: str
    value: str
    games: int = 1
    wins: int = 0
    losses: int = 0
    draws: int = 0
    trend: float | None = None


@dataclass(frozen=True)
class Table:
    kind: str
    rows: list[Row]
    page: int = 0
    pages: int = 1
    title: str = field(default="")

    def __post_init__(self) -> None:
        if not self.title:
            object.__setattr__(self, "title", table_title(self.kind, "all"))


@dataclass
class Record:
    games: int = 3
    wins: int = 2
    losses: int = 1
    draws: int = 0
    rating: float | None = 1612.4
    rd: float | None = 80.0
    points: float = 0.0
    spread: float = 41.0
    best_time_ms: int | None = None
    last_played_at: datetime | None = None


def test_a_rated_table_in_words_has_each_row_and_the_provisional_note() -> None:
    table = Table("chess", [Row(1, "Ana", "1612", 3, 2, 1, 0, 12.4), Row(2, "Ben", "1500?")])
    assert table_text(table).splitlines() == [
        "**Chess — all time**",
        "1. Ana — rating 1612, games 3, w-l-d 2-1-0, trend ▲12",
        "2. Ben — rating 1500?, games 1, w-l-d 0-0-0, trend –",
        "-# ? marks a provisional rating (few games yet).",
    ]


def test_names_in_the_message_show_as_typed_with_no_markdown_or_mentions() -> None:
    table = Table(
        "boggle", [Row(1, "*star*_@everyone", "12"), Row(2, "<#123456789012345678>", "3")]
    )
    lines = table_text(table).splitlines()
    assert lines[1] == "1. \\*star\\*\\_@\u200beveryone — points 12, rounds 1, won 0"
    assert "<#123456789012345678>" not in lines[2]


def test_a_long_name_is_cut_to_forty_characters_before_it_is_escaped() -> None:
    name = "x" * 39 + "_tail"
    line = table_text(Table("all", [Row(1, name, "4")])).splitlines()[1]
    # the escape is never cut in half: no backslash is left dangling before the dash
    assert line.startswith("1. " + "x" * 39 + "\\_ — wins 4")


def test_the_alt_text_says_the_title_page_and_rows_in_plain_words() -> None:
    table = Table(
        "scrabble",
        [Row(11, "Cora_B", "1540", 5, 3, 2, 0, -8.0), Row(12, "Dan", "1490", trend=None)],
        page=1,
        pages=2,
    )
    assert table_alt_text(table).splitlines() == [
        "Scrabble — all time (page 2 of 2):",
        "11. Cora_B — rating 1540, games 5, w-l-d 3-2-0, trend down 8",
        "12. Dan — rating 1490, games 1, w-l-d 0-0-0, trend steady",
        "? marks a provisional rating (few games yet).",
    ]


def test_an_empty_table_says_so_in_the_message_the_image_and_its_alt_text() -> None:
    table = Table("henyo", [])
    assert "Nobody has played yet" in table_text(table)
    assert table_alt_text(table) == "Library Henyo — all time: nobody has played yet."
    columns, rows = image_cells(table)
    assert rows == [["", "No games yet", "", "", "", ""]] and len(columns) == 6


def test_the_alt_text_of_a_full_page_of_long_names_fits_discords_limit() -> None:
    rows = [Row(i, "N" * 100, "1234?", 999, 500, 400, 99, 123.0) for i in range(1, 11)]
    text = table_alt_text(Table("chess", rows))
    assert len(text) <= ALT_TEXT_CHARS and text.endswith("…")


def test_a_members_record_line_per_game() -> None:
    when = datetime(2026, 11, 29, 12, tzinfo=UTC)
    assert game_record("scrabble", Record(last_played_at=when)) == (
        f"Rating **1612** · 2 W / 1 L / 0 D · spread +41\nLast played <t:{int(when.timestamp())}:R>"
    )
    assert game_record("boggle", Record(points=37.0, games=4, wins=1)) == (
        "**37** points in 4 rounds · 1 rounds won"
    )
    assert game_record("henyo", Record(best_time_ms=83_400, games=2, wins=1)) == (
        "Best time **1:23.4** · 2 words · 1 events won"
    )


def test_ratings_and_times_read_as_the_club_writes_them() -> None:
    assert format_rating(1612.5, 80) == "1612" and format_rating(1500, 350) == "1500?"
    assert format_time_ms(None) == "–" and format_time_ms(61_250) == "1:01.3"
