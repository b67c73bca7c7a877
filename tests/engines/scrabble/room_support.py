"""A GCG record read as a tally over the board (RULES.md "In the room"): the entries
the players would make at a physical board, in order, each with the running totals
the record gives after it. Shared by the engine's, the service's and the end-to-end
tests of the tally."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from engines.scrabble.board import face_value, typed_notation
from engines.scrabble.gcg import GcgGame, read_gcg
from tests.engines.scrabble.support import conformance_dir


@dataclass(frozen=True)
class TallyEntry:
    """One entry at the board: ``kind`` play, pass, exchange, challenge (the other side
    challenged ``seat``'s last play off the board: ``invalid`` its words) or rack (the
    tiles left at the end); ``totals`` the record's running totals after it (None at the
    end, where the rules differ from the record's convention)."""

    kind: str
    seat: int
    word: str = ""
    position: str = ""
    count: int = 0
    tiles: str = ""
    totals: tuple[int, int] | None = None

    @property
    def typed(self) -> str:
        """The play as a member types it (``?`` before a blank's letter, ``.`` through)."""
        return typed_notation(self.word)


@dataclass(frozen=True)
class TallyGame:
    """A record as a tally: its entries, the words challenged off, and the final scores
    under RULES.md (each side loses its unplayed tiles; a side that went out gains the
    others')."""

    name: str
    players: tuple[str, str]
    entries: tuple[TallyEntry, ...]
    phonies: frozenset[str]
    finals: tuple[int, int]


# Games with none of what the club's rules do differently (a challenge bonus, a time
# penalty, the old end-of-game convention), so every running total must match.
CLEAN = (
    "liwords-all_triple_letters_covered.gcg",
    "liwords-four_or_more_consecutive_bingos.gcg",
    "liwords-josh_nationals_round_20.gcg",
    "liwords-every_e.gcg",
    "liwords-josh_nationals_round_15.gcg",
    "liwords-josh_nationals_round_22.gcg",
)


def tally_game(path: Path) -> TallyGame:
    """The record at ``path`` as a tally (see the module)."""
    record: GcgGame = read_gcg(path)
    seat_of = {p.nick: p.number - 1 for p in record.players}
    totals = [0, 0]
    entries: list[TallyEntry] = []
    phonies: set[str] = set()
    last_play: dict[int, str] = {}
    left: dict[int, str] = {}
    for event in record.events:
        seat = seat_of[event.nick]
        totals[seat] = event.total
        after = (totals[0], totals[1])
        if event.kind == "play":
            assert event.word is not None and event.position is not None
            last_play[seat] = event.word
            entries.append(TallyEntry("play", seat, event.word, event.position, totals=after))
        elif event.kind == "pass":
            entries.append(TallyEntry("pass", seat, totals=after))
        elif event.kind == "exchange":
            count = event.count or len(event.tiles or "")
            entries.append(TallyEntry("exchange", seat, count=count, totals=after))
        elif event.kind == "withdraw":
            phonies.add(last_play[seat].replace(".", "").upper())
            entries.append(TallyEntry("challenge", 1 - seat, totals=after))
        elif event.kind == "end_points":
            left[1 - seat] = (event.tiles or "").upper()
        elif event.kind == "rack_penalty":
            left[seat] = (event.tiles or "").upper()
        else:
            raise ValueError(f"{path.name}: {event.kind} is not in the club's rules")
    before = (entries[-1].totals or (0, 0)) if entries else (0, 0)
    out = [s for s in (0, 1) if s not in left]
    finals = [before[s] - face_value(left.get(s, "")) for s in (0, 1)]
    for s in out:
        finals[s] += sum(face_value(t) for t in left.values())
    for s in sorted(left):
        entries.append(TallyEntry("rack", s, tiles=left[s]))
    players = (record.players[0].nick, record.players[1].nick)
    return TallyGame(path.name, players, tuple(entries), frozenset(phonies), (finals[0], finals[1]))


def clean_games() -> list[TallyGame]:
    """The conformance games whose running totals the club's rules reproduce."""
    folder = conformance_dir()
    return [tally_game(folder / name) for name in CLEAN]
