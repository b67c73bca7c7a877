"""A round played in pairs (a games event's Boggle round): each pair submits one list.

Either partner may DM words; each partner's messages are stored as their own
list, as in any round. When the round is scored, the pair's list is the list of
whichever partner sent words last before the end (the pair's latest list wins;
on the same instant, the pair's first member's), judged under the pair's first
member. Lists of members outside the pairs are not judged in such a round.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from bot.db.models_boggle import BoggleSubmissionRecord


def _last_sent(submission: BoggleSubmissionRecord, ends_at: datetime) -> datetime | None:
    timely = [
        t for t in (datetime.fromisoformat(e["at"]) for e in submission.entries) if t < ends_at
    ]
    return max(timely) if timely else None


def pair_choice(
    submissions: Sequence[BoggleSubmissionRecord],
    pairs: Sequence[Sequence[int]],
    ends_at: datetime,
) -> dict[int, BoggleSubmissionRecord]:
    """The list that counts for each pair, keyed by the pair's first member (a pair
    with no list sent in time is left out)."""
    by_player = {s.player_id: s for s in submissions}
    chosen: dict[int, BoggleSubmissionRecord] = {}
    for pair in pairs:
        best: tuple[datetime, int] | None = None
        for order, member in enumerate(pair):
            submission = by_player.get(int(member))
            if submission is None:
                continue
            sent = _last_sent(submission, ends_at)
            if sent is None:
                continue
            # Later wins; on the same instant the first member (order 0) keeps it.
            if best is None or sent > best[0]:
                best = (sent, order)
                chosen[int(pair[0])] = submission
    return chosen
