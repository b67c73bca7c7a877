"""The pairing engine names entrants by id; the director reads their names."""

from __future__ import annotations

from bot.db.models_tournaments import TournamentEntrantRecord
from bot.messages.i18n import use_language
from bot.services.tournaments.lifecycle import pairing_reason
from engines.pairings import PairingError
from engines.text import N_


def _entrant(entrant_id: int, label: str) -> TournamentEntrantRecord:
    return TournamentEntrantRecord(id=entrant_id, tournament_id=1, number=entrant_id, label=label)


def test_a_pairing_refusal_names_the_entrants_not_their_ids() -> None:
    error = PairingError(
        N_("Round {round}: {first} v {second} has no result yet."), round=2, first=31, second=47
    )
    assert str(error) == "Round 2: 31 v 47 has no result yet."  # the engine's own words
    entrants = [_entrant(31, "alice"), _entrant(47, "bob & *carol*")]
    with use_language("en"):
        text = pairing_reason(error, entrants)
    assert text == "Round 2: alice v bob & \\*carol\\* has no result yet."
    assert "31" not in text and "47" not in text


def test_a_refusal_without_entrants_reads_as_the_engine_wrote_it() -> None:
    error = PairingError(N_("A Swiss round needs at least two entrants."))
    with use_language("en"):
        assert pairing_reason(error, []) == "A Swiss round needs at least two entrants."
