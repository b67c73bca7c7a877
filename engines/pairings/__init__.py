"""The tournament engine (issue #19): pairings, knockout brackets, standings, exports.

Pure: standard library, networkx and caissify-pairings only (both imported
when a Swiss round is paired, not at start); no I/O, no clock, no global random.
The one random choice (the order of entrants with equal ratings) is drawn by
``assign_seeds`` with the ``random.Random`` the service seeds from the
tournament's stored seed; everything after is a function of the seeds and the
stored results, so a restart re-derives every round exactly.

* ``round_robin``: FIDE Berger tables (``engines.pairings.roundrobin``).
* ``swiss_pairings``: maximum-weight matching over ranked criteria
  (``engines.pairings.swiss`` says why and which).
* ``dutch_pairings``: a chess Swiss by the FIDE Dutch system, through
  caissify-pairings (``engines.pairings.dutch``; checked against bbpPairings
  by the corpus in tests/engines/pairings_corpus). ``NoDutchPairingError``
  when no legal Dutch pairing exists.
* ``knockout_round`` / ``knockout_winner`` / ``knockout_replay``: a seeded
  bracket and RULES.md's replay of drawn games (``engines.pairings.knockout``).
* ``standings``: points, then spread or Buchholz and Sonneborn-Berger
  (``engines.pairings.standings`` documents byes and forfeits).
* ``repeat_pairings``: "these two already met", for the director's warning.
* ``engines.pairings.trf.trf_report`` (FIDE TRF16) and
  ``engines.pairings.tsh.tsh_results`` (tsh ``.t`` file) export an event.
"""

from __future__ import annotations

import random
from collections.abc import Iterable

from engines.pairings._model import Entrant, Game, GameKind, Pairing, PairingError, Standing
from engines.pairings.dutch import NoDutchPairingError, dutch_pairings
from engines.pairings.knockout import (
    bracket_order,
    knockout_replay,
    knockout_round,
    knockout_rounds,
    knockout_winner,
)
from engines.pairings.roundrobin import berger_table, round_robin
from engines.pairings.standings import points_table, standings
from engines.pairings.swiss import repeat_pairings, swiss_pairings
from engines.text import N_

__all__ = [
    "Entrant",
    "Game",
    "GameKind",
    "NoDutchPairingError",
    "Pairing",
    "PairingError",
    "Standing",
    "assign_seeds",
    "berger_table",
    "bracket_order",
    "dutch_pairings",
    "knockout_replay",
    "knockout_round",
    "knockout_rounds",
    "knockout_winner",
    "points_table",
    "repeat_pairings",
    "round_robin",
    "standings",
    "swiss_pairings",
]


def assign_seeds(ratings: Iterable[tuple[int, float]], rng: random.Random) -> list[Entrant]:
    """Entrants seeded by rating, highest first (seed 1); equal ratings in an
    order drawn by lot with ``rng``. ``ratings`` are (entrant id, rating) pairs.

    Call it once when the tournament starts and store the seeds: the lot is
    drawn from ``rng`` in the order of the ids, so the same stored RNG seed
    and the same field give the same seeds.
    """
    field = sorted(ratings, key=lambda t: t[0])
    if len({i for i, _r in field}) != len(field):
        raise PairingError(N_("An entrant is listed twice."))
    lots = {i: rng.random() for i, _r in field}
    ordered = sorted(field, key=lambda t: (-t[1], lots[t[0]], t[0]))
    return [Entrant(id=i, rating=r, seed=k + 1) for k, (i, r) in enumerate(ordered)]
