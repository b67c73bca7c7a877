"""Games as members see them and as buttons know them.

A bot message names a game by its number (``Chess #3``: the guild's third chess
game, counted per guild and kind); buttons, jobs and the database use its id.
These read one from the other in the test club's database file.
"""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path

SHOWN_NUMBER = re.compile(r"#(\d+)")


def shown_number(text: str) -> int:
    """The first game number (``#3``) a bot message shows."""
    match = SHOWN_NUMBER.search(text)
    assert match, text
    return int(match.group(1))


def game_id_of(db_path: Path, guild_id: int, kind: str, number: int) -> int:
    """The id of the guild's game of this kind with this number."""
    with sqlite3.connect(db_path) as db:
        row = db.execute(
            "select id from games where guild_id = ? and kind = ? and number = ?",
            (guild_id, kind, number),
        ).fetchone()
    assert row, f"no {kind} #{number} in guild {guild_id}"
    return int(row[0])


def number_of(db_path: Path, game_id: int) -> int:
    """The number members see for the game with this id."""
    with sqlite3.connect(db_path) as db:
        row = db.execute("select number from games where id = ?", (game_id,)).fetchone()
    assert row, f"no game with id {game_id}"
    return int(row[0])


def shown_game(db_path: Path, guild_id: int, kind: str, text: str) -> int:
    """The id of the game a bot message names by its number."""
    return game_id_of(db_path, guild_id, kind, shown_number(text))
