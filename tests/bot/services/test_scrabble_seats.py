"""Who sits where: every line-up of 2 to 4 seats of one to three members is taken as
given; a member named twice, anywhere, is refused (naming them)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.errors import InvalidInputError
from bot.services.scrabble.options import MAX_SEAT_MEMBERS, Member, check_seats

MEMBERS = [Member(i, f"m{i}") for i in range(1, 13)]

seat_sizes = st.lists(st.integers(1, MAX_SEAT_MEMBERS), min_size=2, max_size=4)


def _deal(sizes: list[int], order: list[Member]) -> list[list[Member]]:
    seats, start = [], 0
    for size in sizes:
        seats.append(order[start : start + size])
        start += size
    return seats


@settings(max_examples=200)
@given(sizes=seat_sizes, order=st.permutations(MEMBERS))
def test_any_mix_of_distinct_members_sits_as_given(sizes, order):
    seats = _deal(sizes, order)
    assert check_seats(seats) == seats


@settings(max_examples=200)
@given(sizes=seat_sizes, order=st.permutations(MEMBERS), data=st.data())
def test_a_member_in_two_places_is_refused_by_name(sizes, order, data):
    seats = _deal(sizes, order)
    everyone = [m for seat in seats for m in seat]
    twice = data.draw(st.sampled_from(everyone))
    target = data.draw(st.integers(0, len(seats) - 1))
    seats[target] = [*seats[target][: MAX_SEAT_MEMBERS - 1], twice]
    if [m for seat in seats for m in seat].count(twice) < 2:
        seats[(target + 1) % len(seats)][0] = twice
    with pytest.raises(InvalidInputError, match=f"{twice.name} is named twice"):
        check_seats(seats)


def test_the_computer_sits_alone_and_other_bots_not_at_all():
    me = Member(99, "clubbot", is_bot=True, computer=True)
    assert check_seats([[MEMBERS[0], MEMBERS[1]], [me]]) == [[MEMBERS[0], MEMBERS[1]], [me]]
    with pytest.raises(InvalidInputError, match="seat of its own"):
        check_seats([[MEMBERS[0]], [MEMBERS[1], me]])
    with pytest.raises(InvalidInputError, match="Other bots"):
        check_seats([[MEMBERS[0]], [Member(98, "otherbot", is_bot=True)]])
    with pytest.raises(InvalidInputError, match="2 to 4 seats"):
        check_seats([[m] for m in MEMBERS[:5]])
    with pytest.raises(InvalidInputError, match="team of 2 to 3"):
        check_seats([MEMBERS[:4], [MEMBERS[4]]])
