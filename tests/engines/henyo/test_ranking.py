from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from engines.henyo.ranking import Attempt, PairRecord, StandingStatus, rank_pairs

G = Attempt.guessed
T = Attempt.timed_out


def pair(
    pair_id: int, main: Attempt | None, *tiebreaks: Attempt, disqualified: bool = False
) -> PairRecord:
    return PairRecord(
        pair_id, order=pair_id, main=main, tiebreaks=tiebreaks, disqualified=disqualified
    )


def test_shortest_final_time_wins_and_the_others_follow_in_order() -> None:
    ranking = rank_pairs([pair(1, G(45_600)), pair(2, G(37_400)), pair(3, G(50_000))])
    assert [(s.pair_id, s.place) for s in ranking.standings] == [(2, 1), (1, 2), (3, 3)]
    assert ranking.leaders == [2]
    assert ranking.complete


def test_pairs_that_read_the_same_to_the_tenth_are_tied_and_wait_for_a_tie_break() -> None:
    ranking = rank_pairs([pair(1, G(37_400)), pair(2, G(37_440)), pair(3, G(30_000))])
    assert [(s.pair_id, s.place, s.tied) for s in ranking.standings] == [
        (3, 1, False),
        (1, 2, True),
        (2, 2, True),
    ]
    assert len(ranking.ties) == 1
    tie = ranking.ties[0]
    assert (tie.place, tie.level, tie.pair_ids, tie.waiting_ids) == (2, 1, (1, 2), (1, 2))
    assert not ranking.complete


def test_a_tie_break_word_orders_the_tied_pairs() -> None:
    ranking = rank_pairs(
        [pair(1, G(37_400), G(25_300)), pair(2, G(37_400), G(20_000)), pair(3, G(50_000))]
    )
    assert [(s.pair_id, s.place, s.tied) for s in ranking.standings] == [
        (2, 1, False),
        (1, 2, False),
        (3, 3, False),
    ]
    assert ranking.complete and ranking.leaders == [2]


def test_a_tie_break_half_played_still_waits_for_the_other_pair() -> None:
    ranking = rank_pairs([pair(1, G(37_400), G(25_300)), pair(2, G(37_400))])
    assert ranking.ties[0].waiting_ids == (2,)
    assert ranking.leaders == [1, 2]


def test_pairs_still_tied_after_a_tie_break_play_again() -> None:
    ranking = rank_pairs([pair(1, G(37_400), G(20_000)), pair(2, G(37_400), G(20_040))])
    tie = ranking.ties[0]
    assert (tie.level, tie.waiting_ids) == (2, (1, 2))
    settled = rank_pairs(
        [pair(1, G(37_400), G(20_000), G(9_000)), pair(2, G(37_400), G(20_040), G(8_000))]
    )
    assert settled.leaders == [2] and settled.complete


def test_running_out_of_time_on_a_tie_break_ranks_below_a_guess() -> None:
    ranking = rank_pairs([pair(1, G(37_400), T()), pair(2, G(37_400), G(60_000))])
    assert [(s.pair_id, s.place) for s in ranking.standings] == [(2, 1), (1, 2)]
    both_out = rank_pairs([pair(1, G(37_400), T()), pair(2, G(37_400), T())])
    assert both_out.ties[0].level == 2


def test_a_three_way_tie_splits_and_keeps_the_rest_tied() -> None:
    ranking = rank_pairs(
        [pair(1, G(10_000), G(5_000)), pair(2, G(10_000), G(7_000)), pair(3, G(10_000), G(7_000))]
    )
    assert [(s.pair_id, s.place, s.tied) for s in ranking.standings] == [
        (1, 1, False),
        (2, 2, True),
        (3, 2, True),
    ]
    assert [(t.place, t.level, t.pair_ids) for t in ranking.ties] == [(2, 2, (2, 3))]


def test_eliminated_disqualified_and_unplayed_pairs_are_listed_after_the_ranked_ones() -> None:
    ranking = rank_pairs(
        [
            pair(1, None),
            pair(2, T()),
            pair(3, G(40_000), disqualified=True),
            pair(4, G(50_000)),
            pair(5, G(10_000)),
        ]
    )
    assert [(s.pair_id, s.status, s.place) for s in ranking.standings] == [
        (5, StandingStatus.RANKED, 1),
        (4, StandingStatus.RANKED, 2),
        (2, StandingStatus.ELIMINATED, None),
        (3, StandingStatus.DISQUALIFIED, None),
        (1, StandingStatus.NOT_PLAYED, None),
    ]
    assert ranking.unplayed == [1] and not ranking.complete


def test_eliminated_pairs_are_not_tied_with_each_other() -> None:
    ranking = rank_pairs([pair(1, T()), pair(2, T()), pair(3, G(1_000))])
    assert ranking.ties == [] and ranking.complete


attempts = st.one_of(
    st.builds(Attempt.guessed, st.integers(0, 200_000)), st.just(Attempt.timed_out())
)


@settings(max_examples=100)
@given(
    st.lists(
        st.tuples(st.one_of(st.none(), attempts), st.lists(attempts, max_size=3), st.booleans()),
        max_size=8,
    )
)
def test_every_pair_is_listed_once_and_places_follow_final_times(specs) -> None:
    pairs = [pair(i, main, *tbs, disqualified=dq) for i, (main, tbs, dq) in enumerate(specs)]
    ranking = rank_pairs(pairs)
    assert sorted(s.pair_id for s in ranking.standings) == list(range(len(pairs)))
    ranked = [s for s in ranking.standings if s.place is not None]
    assert [s.place for s in ranked] == sorted(s.place for s in ranked)
    finals = [(s.final_ms + 50) // 100 for s in ranked]
    assert finals == sorted(finals)
    for tie in ranking.ties:
        assert set(tie.waiting_ids) <= set(tie.pair_ids) and len(tie.pair_ids) >= 2
