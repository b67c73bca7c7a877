"""Swiss pairing as the bot's worker processes run it (a big field's round takes a
second or more: the Dutch system on 64 entrants, the club's matching on 256)."""

from __future__ import annotations

from engines.pairings import (
    Entrant,
    Game,
    NoDutchPairingError,
    Pairing,
    dutch_pairings,
    swiss_pairings,
)


def swiss_round(
    playing: list[Entrant],
    games: list[Game],
    round_number: int,
    rounds: int,
    colours: bool,
    dutch: bool,
) -> tuple[list[Pairing], bool]:
    """A Swiss round's boards, and whether the club's engine stood in for a Dutch pairing
    that does not exist: what a worker process is sent (plain data in, plain data out)."""
    if dutch:
        try:
            return dutch_pairings(playing, games, round=round_number, rounds=rounds), False
        except NoDutchPairingError:
            fell_back = True
    else:
        fell_back = False
    boards = swiss_pairings(playing, games, round=round_number, rounds=rounds, colours=colours)
    return boards, fell_back
